#!/usr/bin/env bash
# A fake robot started with PRAXIS_EXIT_WITH_PARENT=1 ends soon after the process that started it is
# killed (examples/common/parent_watch.hpp); without the variable it keeps running. Usage: this
# script <fake robot executable> <DDS domain> [fake options...]
set -euo pipefail
fake=$1 domain=$2
shift 2
extra="$*"
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

start() {  # name, value of PRAXIS_EXIT_WITH_PARENT: a parent shell starts the fake, then waits
  PRAXIS_EXIT_WITH_PARENT=$2 PRAXIS_DDS_TAG="exit-with-parent-$$" setsid bash -c \
    "'$fake' --domain $domain --interface lo --duration 0 $extra >'$work/$1.log' 2>&1 & echo \$! >'$work/$1.pid'; sleep 600" &
  echo $! >"$work/$1.parent"
  for _ in $(seq 100); do [[ -s "$work/$1.pid" ]] && break; sleep 0.05; done
  sleep 1  # the fake is up and in its loop
}
alive() { kill -0 "$(cat "$work/$1.pid")" 2>/dev/null; }

start watched 1 "$@"
start unwatched 0 "$@"
kill -KILL "$(cat "$work/watched.parent")" "$(cat "$work/unwatched.parent")"
for _ in $(seq 50); do alive watched || break; sleep 0.1; done
if alive watched; then echo "FAIL: the fake outlived its parent by 5 s with PRAXIS_EXIT_WITH_PARENT=1"; exit 1; fi
if ! alive unwatched; then echo "FAIL: without PRAXIS_EXIT_WITH_PARENT the fake ended with its parent"; exit 1; fi
echo "PASS: the watched fake ended with its parent, the unwatched one kept running"
