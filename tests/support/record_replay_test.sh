#!/usr/bin/env bash
# CTest for the record-and-replay workflow (docs/observability.md): praxis_demo --record runs a story
# and writes run.mcap into its run folder; Foxglove's own readers (tests/js/record_check.mjs) check the
# file and decode every message; praxis-replay replays it bit for bit; with one gain changed it names
# the first cycle where the commands part ways, which must be the first cycle the changed gain was
# in force (the first transition into a motion listed in GAIN_MOTIONS, read from the recording).
#   record_replay_test.sh DEMO REPLAY NODE JS_DIR ROBOT JOINTS TRANSITIONS GAIN_MOTIONS -- DEMO_ARG...
# TRANSITIONS: the expected from>to list ("" = any). GAIN_MOTIONS: e.g. "user_control".
set -uo pipefail
demo=$1 replay=$2 node=$3 js=$4 robot=$5 joints=$6 transitions=$7 gain_motions=$8
shift 8
[[ ${1:-} == -- ]] && shift

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[[ -x $node ]] || { echo "FAIL: no Node.js (\"$node\"): bash scripts/install-js-test-deps.sh installs it"; exit 1; }
[[ -d $js/node_modules/@mcap/core ]] || { echo "FAIL: $js/node_modules is missing: bash scripts/install-js-test-deps.sh"; exit 1; }

# 1. The run, recorded.
status=0
"$demo" --robot "$robot" --record --log-folder "$work/logs" "$@" >"$work/run.txt" 2>&1 || status=$?
cat "$work/run.txt"
[[ $status -eq 0 ]] || { echo "FAIL: praxis_demo --record exited $status"; exit 1; }
file=$(sed -n 's/^recording every port to //p' "$work/run.txt")
[[ -s $file ]] || { echo "FAIL: no recording (\"$file\")"; exit 1; }
grep -qE "^recorded: .* \(0 dropped\)" "$work/run.txt" || fail "the recorder dropped cycles or printed no summary"
[[ $(dirname "$file") == "$work/logs/"* ]] || fail "run.mcap is not in the run folder: $file"

# 2. Read by Foxglove's readers; the documented Foxglove layout's every path found in it.
layout="$(cd "$js/../.." && pwd)/docs/observability/foxglove-layout.json"
(cd "$js" && "$node" record_check.mjs "$file" --robot "$robot" --joints "$joints" --transitions "$transitions" \
  --layout "$layout") \
  >"$work/check.txt" 2>&1
cat "$work/check.txt"
grep -q "^PASS:" "$work/check.txt" || fail "record_check.mjs did not pass"

# 3. Replayed as it was.
status=0
"$replay" "$file" >"$work/replay.txt" 2>&1 || status=$?
cat "$work/replay.txt"
[[ $status -eq 0 ]] || fail "praxis-replay exited $status on the unchanged run"
grep -q "every port bit-identical" "$work/replay.txt" || fail "the replay is not bit-identical"
replayed="${file%.mcap}.replay.mcap"
[[ -s $replayed ]] || fail "no replayed run beside the recording ($replayed)"

# 4. One gain changed: the parameter folder copied, kp + 1 (the amplitude + 0.01 where kp is the model's).
# A trained policy's (--controller policy) gains are in its deploy file, replayed with --deploy.
params=$(sed -n 's/^replaying .*, parameters //p' "$work/replay.txt")
if [[ -f $params/params.json ]]; then
  changed=params.json
  replay_args=(--param "$work/params")
elif [[ -f $params/deploy.json ]]; then
  changed=deploy.json
  replay_args=(--deploy "$work/params/deploy.json")
else
  echo "FAIL: the recorded parameter folder \"$params\" has no params.json or deploy.json"
  exit 1
fi
mkdir -p "$work/params"
cp -r "$params/." "$work/params/"
"$node" -e '
  const fs = require("fs");
  const f = process.argv[1];
  const p = JSON.parse(fs.readFileSync(f, "utf8"));
  // One gain; where the gains are the model'"'"'s own ("model"), one amplitude instead.
  if (typeof p.kp === "number") p.kp += 1;
  else if (Array.isArray(p.kp)) p.kp[0] += 1;
  else p.amplitude += 0.01;
  fs.writeFileSync(f, JSON.stringify(p, null, 2));' "$work/params/$changed"
status=0
"$replay" "$file" "${replay_args[@]}" --out "$work/changed.mcap" >"$work/changed.txt" 2>&1 || status=$?
cat "$work/changed.txt"
[[ $status -eq 1 ]] || fail "praxis-replay with one parameter changed exited $status, expected 1 (diverged)"
[[ -s $work/changed.mcap ]] || fail "no replayed run at --out"
first=$(sed -n 's/.*first at cycle \([0-9]*\) .*/\1/p' "$work/changed.txt")
expected=$(cd "$js" && "$node" record_check.mjs "$file" --robot "$robot" --joints "$joints" --first-into "$gain_motions" \
  2>/dev/null | sed -n 's/^first-into: //p')
[[ -n $first && $first == "$expected" ]] || fail "the change was reported at cycle \"$first\", the gain was first in force at cycle \"$expected\""

if [[ $failures -gt 0 ]]; then
  echo "FAIL: $failures checks failed"
  exit 1
fi
echo "PASS: recorded, read by Foxglove's readers, replayed bit for bit, a gain change found at cycle $first"
