#!/usr/bin/env bash
# CTest for the live view of a running praxis_demo (docs/observability.md): the demo runs the mock G1
# in real time with --live on a free loopback port; Foxglove's own client (tests/js/demo_live_check.mjs)
# subscribes to every channel and decodes what arrives; the page (tests/js/page_check.mjs --demo)
# plots the cycle's clock in headless Chromium and leaves its screenshot, live_page_demo.png, in the
# working directory. The demo must end normally and report the clients it served.
#   live_demo_test.sh DEMO NODE JS_DIR RUNTIME_PARAMS
# RUNTIME_PARAMS: the loaded machine's stale timeout (tests/support/loaded_machine_runtime.json): this
# test is about the live view, and Chromium starting beside a real-time run on a loaded 2-core
# machine starved the mock's state for over 100 ms once (the run ended in damping, exit 1).
set -uo pipefail
demo=$1 node=$2 js=$3 runtime=$4
fail() { echo "FAIL: $*"; exit 1; }
[[ -x $node ]] || fail "no Node.js (\"$node\"): bash scripts/install-js-test-deps.sh installs it"
[[ -d $js/node_modules/@foxglove/ws-protocol ]] || fail "$js/node_modules is missing: bash scripts/install-js-test-deps.sh"

work=$(mktemp -d)
"$demo" --robot g1 --realtime --duration 120 --no-log --live 127.0.0.1:0 --runtime-params "$runtime" \
  >"$work/demo.txt" 2>&1 &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
port=""
for _ in $(seq 200); do
  port=$(sed -n 's#^live: ws://127.0.0.1:\([0-9]*\) .*#\1#p' "$work/demo.txt")
  [[ -n $port ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/demo.txt"; fail "praxis_demo ended before it served"; }
  sleep 0.1
done
[[ -n $port ]] || { cat "$work/demo.txt"; fail "praxis_demo printed no live port within 20 s"; }

status=0
(cd "$js" && "$node" demo_live_check.mjs "$port" 29) || status=$?
[[ $status -eq 0 ]] || fail "Foxglove's client did not pass against the demo"
"$node" "$js/page_check.mjs" "$port" --demo 29 /praxis/cycle now 200 || status=$?
[[ $status -eq 0 ]] || fail "the page did not plot the demo"

# Ctrl-C ends the run as always: the robot's safe state, then the live server's summary.
kill -INT "$pid"
wait "$pid"
code=$?
trap 'rm -rf "$work"' EXIT
grep -v '^\[' "$work/demo.txt" | tail -12
[[ $code -eq 0 ]] || fail "praxis_demo exited $code after Ctrl-C"
grep -qE "^live: [2-9][0-9]* clients served|^live: [0-9]{2,} clients served" "$work/demo.txt" ||
  fail "the demo does not report the two clients it served"
# The story runs long enough (120 s) for the slowest machine's checks: Ctrl-C ends it, normally.
grep -q "run ended: normal" "$work/demo.txt" || fail "the run did not end normally on Ctrl-C"
echo "PASS: the running demo was read by Foxglove's client and plotted by its page"
