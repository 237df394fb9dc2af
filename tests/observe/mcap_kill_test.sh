#!/usr/bin/env bash
# A recorder killed with SIGKILL loses at most its open chunk (about its last second): a writer
# records at about 1 kHz with log_time = the real time; once it has reported a flushed chunk it is
# killed just before its next one would close (the worst case), then praxis' reader and Foxglove's
# @mcap/core must both open the file, find every message reported flushed, and find a newest message
# at most <max lag> older than the kill.
#   mcap_kill_test.sh <observe_mcap_tool> <node> <tests/js folder> <none|zstd|lz4> <max lag ms>
# <max lag ms>: the 1000 ms chunk duration plus a margin for this loaded machine (see mcap.cmake).
set -euo pipefail
tool=$1 node=$2 js=$3 compression=$4 max_lag_ms=$5
dir=$(mktemp -d "${TMPDIR:-/tmp}/praxis_mcap_kill.XXXXXX")
pid=
cleanup() {
  if [[ -n $pid ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

: >"$dir/flushed.txt"
"$tool" kill-writer "$dir/run.mcap" "$compression" >"$dir/flushed.txt" &
pid=$!
for _ in $(seq 1 150); do  # up to 15 s for the first chunk on a loaded machine
  grep -q '^flushed' "$dir/flushed.txt" && break
  sleep 0.1
done
if ! grep -q '^flushed' "$dir/flushed.txt"; then
  echo "FAIL: the writer reported no flushed chunk within 15 s"
  exit 1
fi
sleep 0.9  # the open chunk is now almost a second old
kill_ns=$(date +%s%N)
{ kill -KILL "$pid" && wait "$pid"; } 2>/dev/null || true
pid=

flushed=$(awk '/^flushed/ {n = $2} END {print n + 0}' "$dir/flushed.txt")
echo "writer killed after $(grep -c '^flushed' "$dir/flushed.txt") flushed chunks, $flushed messages reported flushed"
"$tool" check-killed "$dir/run.mcap" "$flushed" "$kill_ns" "$((max_lag_ms * 1000000))" "$dir/expect.json"
if [[ ! -x $node ]]; then
  echo "FAIL: Node.js not found (PRAXIS_NODE='$node'): install node and run scripts/install-js-test-deps.sh"
  exit 1
fi
"$node" "$js/mcap_check.mjs" "$dir/run.mcap" "$dir/expect.json"
echo PASS
