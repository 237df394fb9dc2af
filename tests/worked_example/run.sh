#!/usr/bin/env bash
# docs/motion.md's worked example, "Adding a motion", as a test: the patch it shows is applied to a
# copy of praxis' headers, and tests/worked_example/freeze_motion.cpp is compiled against that copy
# and run. A patch that no longer applies means the page is out of date with the headers.
#   run.sh <source dir> <c++ compiler> <work dir> <Eigen include dir>
set -euo pipefail
src=$1 cxx=$2 work=$3 eigen=$4
doc="$src/docs/motion.md"
rm -rf "$work"
mkdir -p "$work"
cp -r "$src/include" "$work/include"
# The patch is the ```diff block between the page's two markers.
awk '/<!-- worked example: patch -->/ {on = 1; next} /<!-- worked example: end -->/ {on = 0} on' "$doc" |
  sed -e '/^```/d' > "$work/freeze.diff"
if [ ! -s "$work/freeze.diff" ]; then
  echo "FAIL: $doc has no patch between '<!-- worked example: patch -->' and '<!-- worked example: end -->'" >&2
  exit 1
fi
if ! (cd "$work" && git apply --check freeze.diff 2>&1); then
  echo "FAIL: the patch in $doc (\"Adding a motion\") no longer applies to include/: update the page" >&2
  exit 1
fi
(cd "$work" && git apply freeze.diff)
# Only the two files the page names may change.
changed=$(cd "$work" && grep -E '^\+\+\+ ' freeze.diff | sed -e 's/^+++ b\///' | sort | tr '\n' ' ')
if [ "$changed" != "include/praxis/core/motion_registry.hpp include/praxis/motion/motions.hpp " ]; then
  echo "FAIL: the worked example touches $changed- a motion is its tag and its node, in two places" >&2
  exit 1
fi
# The library's own sources the program links, compiled against the same patched headers.
"$cxx" -std=c++20 -O0 -g0 -Wall -Wextra -Wpedantic -Werror -I"$work/include" -I"$eigen" \
  "$src/tests/worked_example/freeze_motion.cpp" "$src/src/control/realtime.cpp" "$src/src/control/report_log.cpp" \
  -o "$work/freeze_motion" -lspdlog -lfmt -lpthread
"$work/freeze_motion"
