#!/usr/bin/env bash
# Runs a node check of tests/js against a live_sample_server of its own:
#   live_node_check.sh <live_sample_server> <node or PRAXIS_NODE-NOTFOUND> <script.mjs> [args for the script...]
# Starts the server on a free port, runs `node <script> <port> [args]` in the current directory and
# stops the server. The script's verdict (PASS / FAIL: ...) is the test's.
set -u
server=$1 node=$2 script=$3
shift 3
fail() { echo "FAIL: $*"; exit 1; }

[[ -x $node ]] || fail "Node.js was not found when CMake configured (PRAXIS_NODE=$node): install it (scripts/install-js-test-deps.sh) and configure again"
modules=$(dirname "$script")/node_modules
[[ -d $modules/@foxglove/ws-protocol && -d $modules/ws && -d $modules/puppeteer-core ]] ||
  fail "the npm test clients are not installed in $modules: run scripts/install-js-test-deps.sh"

dir=$(mktemp -d)
"$server" --port-file "$dir/port" --seconds 300 > "$dir/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
  [[ -s $dir/port ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$dir/server.log"; fail "live_sample_server exited before it listened"; }
  sleep 0.1
done
[[ -s $dir/port ]] || fail "live_sample_server wrote no port within 10 s"
port=$(cat "$dir/port")
"$node" "$script" "$port" "$@"
status=$?
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
cat "$dir/server.log"
exit $status
