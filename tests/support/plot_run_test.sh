#!/usr/bin/env bash
# CTest for scripts/plot-run.sh: short praxis_demo runs write log folders, the script draws them,
# and each PNG must be a real one (signature, IHDR chunk, the size asked of gnuplot). Broken or
# missing logs must fail with a message naming the folder or file.
#   plot_run_test.sh PRAXIS_DEMO PLOT_RUN_SH
# Exits 77 (CTest's skip) when gnuplot is not installed: the test must not install packages.
set -euo pipefail
demo=$1
plot=$2

if ! command -v gnuplot >/dev/null; then
  echo "SKIP: gnuplot is not installed (bash scripts/install-bench-deps.sh installs gnuplot-nox)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

source "$(dirname "${BASH_SOURCE[0]}")/png_size.sh"

# expect_png FILE WIDTH MIN_HEIGHT
expect_png() {
  [[ -s "$1" ]] || { fail "$1 was not written"; return; }
  local size w h
  size=$(png_size "$1") || { failures=$((failures + 1)); return; }
  read -r w h <<<"$size"
  [[ $w -eq $2 && $h -ge $3 ]] || fail "$1 is ${w}x${h}, expected width $2 and height at least $3"
}

# expect_failure DESCRIPTION PATTERN COMMAND...: COMMAND must exit non-zero and print PATTERN.
expect_failure() {
  local what=$1 pattern=$2
  shift 2
  local out status=0
  out=$("$@" 2>&1) || status=$?
  if [[ $status -eq 0 ]]; then
    fail "$what: exited 0 (output: $out)"
  elif ! grep -qF -- "$pattern" <<<"$out"; then
    fail "$what: message does not say '$pattern' (got: $out)"
  else
    echo "ok: $what: $out"
  fi
}

# A mock G1 run: all three plots, paths printed, the default joints. 6 s is 3000 cycles, more than
# the reporter's queue holds: every one must still be in the log.
"$demo" --robot g1 --duration 6 --log-folder "$work/logs" >"$work/demo.txt"
run=$(sed -n 's/^logs: //p' "$work/demo.txt")
[[ -d "$run" ]] || { echo "FAIL: praxis_demo printed no log folder"; cat "$work/demo.txt"; exit 1; }
for f in log.csv transitions.csv cfg.txt; do [[ -s "$run/$f" ]] || fail "praxis_demo wrote no $run/$f"; done
rows=$(($(wc -l <"$run/log.csv") - 1))
[[ $rows -eq 3000 ]] || fail "$run/log.csv has $rows cycles, expected 3000"
[[ $(wc -l <"$run/transitions.csv") -eq 4 ]] || fail "$run/transitions.csv should hold the story's 3 transitions"
printed=$(bash "$plot" "$run" 2>"$work/plot_err.txt")
[[ ! -s "$work/plot_err.txt" ]] || fail "plot-run warned on a complete log: $(cat "$work/plot_err.txt")"
for name in joints states compute; do
  grep -qF "$run/plots/$name.png" <<<"$printed" || fail "plot-run did not print $run/plots/$name.png"
done
expect_png "$run/plots/joints.png" 1000 800   # three joints, one panel each
expect_png "$run/plots/states.png" 1000 300
expect_png "$run/plots/compute.png" 1000 400

# Chosen joints and another output folder; one joint gives one panel.
bash "$plot" "$run" --joints left_knee --out "$work/one" >/dev/null
expect_png "$work/one/joints.png" 1000 400
[[ $(png_size "$work/one/joints.png" | cut -d' ' -f2) -lt 500 ]] || fail "one joint did not give a single panel"

# A quadruped's log has other joint names: the defaults follow the robot.
"$demo" --duration 2 --robot go2 --log-folder "$work/go2" >"$work/go2.txt"
go2=$(sed -n 's/^logs: //p' "$work/go2.txt")
bash "$plot" "$go2" --out "$work/go2plots" >/dev/null
expect_png "$work/go2plots/joints.png" 1000 800

# Without transitions.csv the state timeline comes from the log's motion column.
mkdir "$work/old"
cp "$run/log.csv" "$work/old/"
bash "$plot" "$work/old" >/dev/null
expect_png "$work/old/plots/states.png" 1000 300

# What cannot be plotted says so, naming the folder or file.
expect_failure "missing folder" "'$work/nowhere' does not exist" bash "$plot" "$work/nowhere"
mkdir "$work/empty"
expect_failure "folder without a log" "'$work/empty/log.csv' is missing" bash "$plot" "$work/empty"
mkdir "$work/bad"
printf 'a,b,c\n1,2,3\n' >"$work/bad/log.csv"
expect_failure "not a cycle log" "'$work/bad/log.csv' is not a praxis cycle log" bash "$plot" "$work/bad"
mkdir "$work/headonly"
head -n 1 "$run/log.csv" >"$work/headonly/log.csv"
expect_failure "log without rows" "'$work/headonly/log.csv' has a header but no rows" bash "$plot" "$work/headonly"
mkdir "$work/badtr"
cp "$run/log.csv" "$work/badtr/"
echo "garbage" >"$work/badtr/transitions.csv"
expect_failure "bad transitions.csv" "'$work/badtr/transitions.csv' is not a praxis transition log" bash "$plot" "$work/badtr"
expect_failure "unknown joint" "has no joint 'elbow_of_nobody'" bash "$plot" "$run" --joints left_knee,elbow_of_nobody

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all plot-run checks passed"
