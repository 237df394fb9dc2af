#!/usr/bin/env bash
# A signal ends a real-time praxis_demo run in the robot's safe state, and the program says so:
#   signal_demo_test.sh <praxis_demo> <INT|TERM>
# The run is started for 60 s; the signal comes once the controller has run a second.
set -u
demo=$1
sig=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$demo" --robot g1 --no-log --realtime --duration 60 >"$out" 2>&1 &
pid=$!
# The demo prints its banner before the run starts; give it a second of control after that.
for _ in $(seq 100); do
  grep -q "praxis demo:" "$out" && break
  sleep 0.1
done
sleep 1.5
kill -"$sig" "$pid"
status=0
wait "$pid" || status=$?
cat "$out"
num=$(kill -l "$sig")
if [ "$status" -ne 0 ]; then echo "FAIL: exit status $status after SIG$sig"; exit 1; fi
if ! grep -q "run ended: normal, stopped by signal $num; safe state: joint damping, joint damping on" "$out"; then
  echo "FAIL: no outcome line naming signal $num and the damping sent"
  exit 1
fi
echo "PASS: SIG$sig ended the run damped, exit 0"
