#!/usr/bin/env bash
# CTest for the README's main command in physics: praxis_demo --backend sim starts praxis-sim (MuJoCo,
# real time, over DDS), takes the Go2 lying on the ground through damping -> stand -> ctrl and lets
# it down with L2+B. The run folder must hold the controller's logs, praxis-sim's pictures (frames
# and a contact sheet of the size asked for) and, drawn by scripts/plot-run.sh, the run's plots.
# With PRAXIS_REPLAY, NODE and JS_DIR the run is also recorded (--record): Foxglove's readers check
# the file (tests/js/record_check.mjs) and praxis-replay replays the physics run bit for bit.
#   sim_demo_test.sh PRAXIS_DEMO PLOT_RUN_SH DOMAIN [PRAXIS_REPLAY NODE JS_DIR]
# Exits 77 (CTest's skip) when no OpenGL context can be made here, which praxis-sim reports.
set -euo pipefail
demo=$1
plot=$2
domain=$3
replay=${4:-} node=${5:-} js=${6:-}
record=()
[[ -n $replay ]] && record=(--record)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

source "$(dirname "${BASH_SOURCE[0]}")/png_size.sh"

status=0
"$demo" --backend sim --robot go2 --duration 10 --domain "$domain" --log-folder "$work/logs" "${record[@]}" >"$work/out.txt" 2>&1 ||
  status=$?
cat "$work/out.txt"
[[ $status -eq 0 ]] || { echo "FAIL: praxis_demo --backend sim exited $status"; exit 1; }
if grep -q "no pictures: no OpenGL context" "$work/out.txt"; then
  echo "SKIP: praxis-sim could make no OpenGL context for its pictures (see above)"
  exit 77
fi

# The story, in order, with the operator's L2+B at the end.
story=$(grep -E '^ +[0-9.]+ s +[A-Z]+ +-> ' "$work/out.txt" | sed -E 's/^ +[0-9.]+ s +//; s/ +/ /g')
expected=$'DAMPING -> STAND (requested)\nSTAND -> CTRL (requested)\nCTRL -> DAMPING (requested)'
[[ "$story" == "$expected" ]] || fail "transitions were: [$story], expected: [$expected]"
grep -q "CRC errors: 0" "$work/out.txt" || fail "the controller saw CRC errors"
grep -q '"diverged":false' "$work/out.txt" || fail "praxis-sim's report does not say the physics stayed sane"

run=$(sed -n 's/^logs: //p' "$work/out.txt")
[[ -d "$run" ]] || { echo "FAIL: no log folder printed"; exit 1; }
for f in log.csv transitions.csv cfg.txt; do [[ -s "$run/$f" ]] || fail "no $run/$f"; done
grep -q "praxis-sim" "$run/cfg.txt" || fail "cfg.txt does not name praxis-sim as the backend"

sheet=$(sed -n 's/^pictures: //p' "$work/out.txt")
[[ "$sheet" == "$run/pictures/contact_sheet.png" ]] || fail "pictures printed as '$sheet', expected $run/pictures/contact_sheet.png"
frames=$(find "$run/pictures" -name 'frame_*.png' | wc -l)
# One every 0.5 s of simulated time: the 10 s of the run, plus the time praxis-sim ran before the
# controller's first state and after its last command, less frames the drawing thread was too busy
# for on a loaded machine.
[[ $frames -ge 15 && $frames -le 26 ]] || fail "$frames frames, expected about 20 (one per 0.5 s)"
read -r w h <<<"$(png_size "$run/pictures/frame_000.png")"
[[ $w -eq 320 && $h -eq 240 ]] || fail "frame_000.png is ${w}x${h}, expected 320x240"
read -r w h <<<"$(png_size "$sheet")"
rows=$(((frames + 4) / 5))
[[ $w -eq $((5 * 320 + 6 * 4)) && $h -eq $((rows * 240 + (rows + 1) * 4)) ]] ||
  fail "contact sheet is ${w}x${h}, expected 5 columns by $rows rows of 320x240 with 4-pixel gaps"
# The robot moved: lying at the start, standing in the middle.
cmp -s "$run/pictures/frame_000.png" "$run/pictures/frame_012.png" && fail "frames 0 and 12 are identical"

if command -v gnuplot >/dev/null; then
  printed=$(bash "$plot" "$run")
  for name in joints states compute; do
    grep -qF "$run/plots/$name.png" <<<"$printed" || fail "plot-run did not draw $name.png of the physics run"
  done
else
  echo "note: gnuplot missing, the physics run's plots were not drawn"
fi

if [[ -n $replay ]]; then
  file="$run/run.mcap"
  [[ -s $file ]] || fail "--record wrote no $file"
  grep -qE "^recorded: .* \(0 dropped\)" "$work/out.txt" || fail "the recorder dropped cycles"
  (cd "$js" && "$node" record_check.mjs "$file" --robot go2 --joints 12 \
    --transitions "damping>stand,stand>user_control,user_control>damping") >"$work/check.txt" 2>&1
  cat "$work/check.txt"
  grep -q "^PASS:" "$work/check.txt" || fail "Foxglove's readers did not accept the physics run's recording"
  "$replay" "$file" >"$work/replay.txt" 2>&1
  cat "$work/replay.txt"
  grep -q "every port bit-identical" "$work/replay.txt" || fail "the physics run did not replay bit for bit"
fi

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "the physics demo wrote its logs, $frames pictures, a contact sheet and its plots"
