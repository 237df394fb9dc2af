#!/usr/bin/env bash
# CTest for praxis_demo --backend mujoco: the story in MuJoCo in one process, in simulated time, run
# twice with the same options. Each run must end the story as told (damping -> stand (R2) -> ctrl (A)
# -> damping (L2+B)) with the physics sane, and write its run folder: the controller's logs,
# base_trajectory.csv (50 Hz of simulated time), the recording (--record) and, where an OpenGL
# context can be made, the pictures. The two runs must be bit-identical: the trajectory, the
# transitions, the cycle log (all but its compute_us column, the CPU time each cycle took), the
# recording's messages (mcap_same_messages.py: how the writer cut its chunks depends on the machine)
# and the pictures. With PRAXIS_REPLAY the recording also replays bit for bit.
#   mujoco_demo_test.sh PRAXIS_DEMO ROBOT DURATION [PRAXIS_REPLAY] [-- MORE DEMO OPTIONS]
set -euo pipefail
demo=$1
robot=$2
duration=$3
shift 3
replay=""
if [[ $# -gt 0 && $1 != -- ]]; then
  replay=$1
  shift
fi
[[ ${1:-} == -- ]] && shift
more=("$@")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

source "$(dirname "${BASH_SOURCE[0]}")/png_size.sh"

for run in a b; do
  status=0
  "$demo" --backend mujoco --robot "$robot" --duration "$duration" --log-folder "$work/$run" --record \
    --record-compression none "${more[@]}" \
    >"$work/$run.txt" 2>&1 || status=$?
  [[ $run == a ]] && cat "$work/a.txt"
  [[ $status -eq 0 ]] || { cat "$work/$run.txt"; echo "FAIL: praxis_demo --backend mujoco (run $run) exited $status"; exit 1; }
done
out=$work/a.txt

story=$(grep -E '^ +[0-9.]+ s +[A-Z]+ +-> ' "$out" | sed -E 's/^ +[0-9.]+ s +//; s/ +/ /g')
expected=$'DAMPING -> STAND (requested)\nSTAND -> CTRL (requested)\nCTRL -> DAMPING (requested)'
[[ "$story" == "$expected" ]] || fail "transitions were: [$story], expected: [$expected]"
grep -q "diverged: no" "$out" || fail "the physics diverged"
grep -qE "^recorded: .* \(0 dropped\)" "$out" || fail "the recorder dropped cycles"
grep -qE "^base trajectory: [0-9.]+ s, upright [0-9.]+ s, travelled [0-9.]+ m .*, end point \(" "$out" ||
  fail "no base trajectory summary"
grep -q "NOT FINITE" "$out" && fail "the base trajectory is not finite"

run_a=$(sed -n 's/^logs: //p' "$work/a.txt")
run_b=$(sed -n 's/^logs: //p' "$work/b.txt")
[[ -d "$run_a" && -d "$run_b" ]] || { echo "FAIL: no log folders printed"; exit 1; }
for f in log.csv transitions.csv cfg.txt base_trajectory.csv run.mcap; do [[ -s "$run_a/$f" ]] || fail "no $run_a/$f"; done
grep -q "^backend: mujoco" "$run_a/cfg.txt" || fail "cfg.txt does not name mujoco as the backend"

# The trajectory: a header and a row every 20 ms of simulated time, from 0 to the end.
rows=$(($(wc -l <"$run_a/base_trajectory.csv") - 1))
expected_rows=$(awk -v d="$duration" 'BEGIN { printf "%d", d * 50 + 1 }')
[[ $(head -1 "$run_a/base_trajectory.csv") == "time,x,y,z,yaw,tilt" ]] || fail "base_trajectory.csv's header"
[[ $rows -eq $expected_rows ]] || fail "base_trajectory.csv has $rows rows, expected $expected_rows (50 Hz for $duration s)"
last=$(tail -1 "$run_a/base_trajectory.csv" | cut -d, -f1)
[[ $last == $(awk -v d="$duration" 'BEGIN { printf "%.3f", d }') ]] || fail "the trajectory ends at $last s, not $duration s"

# Bit for bit: the second run wrote what the first did.
cmp "$run_a/base_trajectory.csv" "$run_b/base_trajectory.csv" || fail "the base trajectories differ between two runs"
cmp "$run_a/transitions.csv" "$run_b/transitions.csv" || fail "the transitions differ between two runs"
column=$(head -1 "$run_a/log.csv" | tr ',' '\n' | grep -nx compute_us | cut -d: -f1)
[[ -n $column ]] || fail "log.csv has no compute_us column"
without_compute() { cut -d, -f"$column" --complement "$1"; }
cycles=$(($(wc -l <"$run_a/log.csv") - 1))
[[ $cycles -gt 0 ]] || fail "log.csv is empty"
cmp <(without_compute "$run_a/log.csv") <(without_compute "$run_b/log.csv") ||
  fail "the cycle logs differ between two runs (beyond compute_us)"
# The recording says where the base went (metadata "praxis.sim", beside the facts replay needs).
grep -aq "praxis.sim" "$run_a/run.mcap" && grep -aq "upright_s" "$run_a/run.mcap" ||
  fail "the recording has no \"praxis.sim\" metadata with the trajectory's summary"
/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/mcap_same_messages.py" "$run_a/run.mcap" "$run_b/run.mcap" ||
  fail "the recordings differ between two runs"

if grep -q "no pictures" "$out"; then
  echo "note: no OpenGL context here, the pictures were not checked (see above)"
else
  sheet=$(sed -n 's/^pictures: //p' "$out")
  [[ "$sheet" == "$run_a/pictures/contact_sheet.png" ]] || fail "pictures printed as '$sheet'"
  frames=$(find "$run_a/pictures" -name 'frame_*.png' | wc -l)
  # One every 0.5 s of simulated time from the first period on, none skipped in simulated time.
  expected_frames=$(awk -v d="$duration" 'BEGIN { printf "%d", d * 2 }')
  [[ $frames -eq $expected_frames ]] || fail "$frames frames, expected $expected_frames (one per 0.5 s)"
  read -r w h <<<"$(png_size "$run_a/pictures/frame_000.png")"
  [[ $w -eq 320 && $h -eq 240 ]] || fail "frame_000.png is ${w}x${h}, expected 320x240"
  cmp -s "$run_a/pictures/frame_000.png" "$run_a/pictures/frame_010.png" && fail "frames 0 and 10 are identical"
  for f in "$run_a"/pictures/*.png; do
    cmp -s "$f" "$run_b/pictures/$(basename "$f")" || fail "$(basename "$f") differs between two runs"
  done
fi

if [[ -n $replay ]]; then
  "$replay" "$run_a/run.mcap" >"$work/replay.txt" 2>&1 || true
  cat "$work/replay.txt"
  grep -q "every port bit-identical" "$work/replay.txt" || fail "the recording did not replay bit for bit"
fi

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS: two runs of the $robot in MuJoCo wrote the same $rows trajectory rows, $cycles cycles, recording and pictures"
