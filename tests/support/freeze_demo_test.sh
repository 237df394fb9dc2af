#!/usr/bin/env bash
# A real-time praxis_demo whose whole process is frozen for a moment (SIGSTOP, then SIGCONT 50 ms
# later: past the 20 ms command timeout, inside the stale timeout) rides it out, and its
# outcome says so; with --strict the program exits 3 for it, without it 0:
#   freeze_demo_test.sh <praxis_demo> <runtime params>
# The runtime params widen the stale timeout (300 ms), so that a control thread that a loaded
# machine resumes late still finds the state fresh enough: the freeze is what is counted.
set -u
demo=$1
runtime_params=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() {  # extra args -> exit status; the output in $out
  "$demo" --robot g1 --no-log --realtime --duration 5 --runtime-params "$runtime_params" "$@" >"$out" 2>&1 &
  local pid=$! status=0
  for _ in $(seq 100); do
    grep -q "praxis demo:" "$out" && break
    sleep 0.1
  done
  sleep 1.5
  kill -STOP "$pid"
  sleep 0.05
  kill -CONT "$pid"
  wait "$pid" || status=$?
  cat "$out"
  return "$status"
}

status=0
run --strict || status=$?
if [ "$status" -ne 3 ]; then echo "FAIL: --strict: exit status $status after a freeze (expected 3)"; exit 1; fi
if ! grep -q "^run ended: .*; rode out .*freeze.* of the control loop (longest [0-9]* ms)" "$out"; then
  echo "FAIL: --strict: the outcome does not name the freeze it rode out"
  exit 1
fi
grep -q "^--strict: the run rode out .*: exit code 3" "$out" || { echo "FAIL: --strict does not say why it exits 3"; exit 1; }

status=0
run || status=$?
if [ "$status" -ne 0 ]; then echo "FAIL: exit status $status after a freeze ridden out without --strict (expected 0)"; exit 1; fi
grep -q "^run ended: .*; rode out .*freeze" "$out" || { echo "FAIL: the outcome does not name the freeze"; exit 1; }
echo "PASS: a frozen process rode out, counted in the outcome; --strict exits 3, without it 0"
