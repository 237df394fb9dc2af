#!/usr/bin/env bash
# Runs a program against a fake robot, the way a user tries a controller before the real robot:
# starts the fake in the background with --report REPORT, runs the program, then ends the fake
# (SIGTERM) and waits for it to write its JSON report.
#   run_against_fake.sh REPORT FAKE [ARG...] -- PROGRAM [ARG...]
# Exit status: the program's; 3 when the fake ended before the program did or wrote no report.
# PRAXIS_DDS_TAG and PRAXIS_EXIT_WITH_PARENT, when set, reach both (run_install_test.cmake sets them).
set -uo pipefail
report=$1
shift
fake=()
while [[ $# -gt 0 && $1 != -- ]]; do
  fake+=("$1")
  shift
done
[[ $# -ge 2 ]] || { echo "usage: run_against_fake.sh REPORT FAKE [ARG...] -- PROGRAM [ARG...]" >&2; exit 2; }
shift
rm -f "$report"

"${fake[@]}" --report "$report" &
fake_pid=$!
"$@"
status=$?

if ! kill -0 "$fake_pid" 2>/dev/null; then
  echo "run_against_fake: ${fake[0]} ended before the program did" >&2
  wait "$fake_pid"
  exit 3
fi
kill -TERM "$fake_pid"
wait "$fake_pid"
if [[ ! -s $report ]]; then
  echo "run_against_fake: ${fake[0]} wrote no report to $report" >&2
  exit 3
fi
exit "$status"
