#!/usr/bin/env bash
# Runs a first program against its vendor's fake robot, as a new user does (two processes over DDS
# on loopback), and checks how it went: the program exits 0, its output shows the transitions
# expected, the fake robot exits 0 and its JSON report is clean.
#
#   run_against_fake.sh --fake FAKE [--fake-arg ARG]... --program PROGRAM [--program-arg ARG]...
#                       [--keys] [--ctrl-c-after REGEX] [--expect REGEX]... [--reject REGEX]...
#                       [--report-has REGEX]... [--report-lacks REGEX]...
#
# --keys: the program reads the operator's keys from stdin (robots that report no remote), and the
# script is an operator who watches its output: "s" and Enter (stand up: R2 for 2 s) a second after
# the program took control, again every 2.5 s until STAND shows; then "c" and Enter (start the
# controller) once R2's 2 s are over, again every second until CTRL shows. --ctrl-c-after: SIGINT
# to the program (the user's Ctrl-C) a second after a line of its output matches REGEX. --expect /
# --reject: extended regular expressions over the program's output, line by line. --report-has /
# --report-lacks: over the fake's report, flattened to one line with no space after a colon
# ({"key":value,...}).
#
# The run has a discovery tag of its own (PRAXIS_DDS_TAG, as tests/support/dds_isolated.sh), and the
# fake ends if this script dies (PRAXIS_EXIT_WITH_PARENT).
set -u

fake="" program="" keys=0 ctrl_c_after=""
fake_args=() program_args=() expect=() reject=() report_has=() report_lacks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fake) fake=$2; shift 2 ;;
    --fake-arg) fake_args+=("$2"); shift 2 ;;
    --program) program=$2; shift 2 ;;
    --program-arg) program_args+=("$2"); shift 2 ;;
    --keys) keys=1; shift ;;
    --ctrl-c-after) ctrl_c_after=$2; shift 2 ;;
    --expect) expect+=("$2"); shift 2 ;;
    --reject) reject+=("$2"); shift 2 ;;
    --report-has) report_has+=("$2"); shift 2 ;;
    --report-lacks) report_lacks+=("$2"); shift 2 ;;
    *) echo "run_against_fake.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ! -x "$fake" ] || [ ! -x "$program" ]; then
  echo "run_against_fake.sh: --fake and --program must be programs" >&2
  exit 2
fi

export PRAXIS_DDS_TAG=${PRAXIS_DDS_TAG:-first-program-$$-$RANDOM$RANDOM}
export PRAXIS_EXIT_WITH_PARENT=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/first_program.XXXXXX")
fake_pid="" program_pid=""
cleanup() {
  [ -n "$program_pid" ] && kill -KILL "$program_pid" 2>/dev/null
  [ -n "$fake_pid" ] && kill -KILL "$fake_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
trap '' PIPE  # a key written after the program ended is an error to ignore, not the end of this script

"$fake" "${fake_args[@]}" --report "$dir/report.json" >"$dir/fake.out" 2>&1 &
fake_pid=$!

if [ "$keys" = 1 ]; then
  mkfifo "$dir/keys"
  "$program" "${program_args[@]}" <"$dir/keys" >"$dir/program.out" 2>&1 &
  program_pid=$!
  exec 3>"$dir/keys"
else
  "$program" "${program_args[@]}" </dev/null >"$dir/program.out" 2>&1 &
  program_pid=$!
fi
# The operator, in tenths of a second (see --keys; the runtime prints its lifecycle line once it took
# control, and each transition); Ctrl-C a second after the --ctrl-c-after line, or after 120 s
# whatever the program's --duration (SIGKILL 20 s later).
tick=0 next_key="" interrupt_at="" interrupted=0
while kill -0 "$program_pid" 2>/dev/null; do
  if [ "$tick" -ge 1200 ] && [ -z "$interrupt_at" ]; then
    echo "run_against_fake.sh: the program still runs after 120 s: Ctrl-C" >&2
    interrupt_at=$tick
  fi
  if [ "$tick" -ge 1400 ]; then kill -KILL "$program_pid"; fi
  if [ "$keys" = 1 ]; then
    if [ -z "$next_key" ] && grep -q "lifecycle:" "$dir/program.out"; then next_key=$((tick + 10)); fi
    if [ -n "$next_key" ] && [ "$tick" -ge "$next_key" ] &&
       ! grep -q -- "-> user_control" "$dir/program.out"; then
      # "s" holds R2 for 2 s: the next key (another "s", or "c" once STAND shows) 2.5 s later
      if grep -q -- "-> stand" "$dir/program.out"; then
        key=c next_key=$((tick + 10))
      else
        key=s next_key=$((tick + 25))
      fi
      echo "operator: $key (tick $tick)" >>"$dir/operator.log"
      echo "$key" >&3 2>/dev/null
    fi
  fi
  if [ -n "$ctrl_c_after" ] && [ -z "$interrupt_at" ] && grep -Eq -- "$ctrl_c_after" "$dir/program.out"; then
    interrupt_at=$((tick + 10))
  fi
  if [ -n "$interrupt_at" ] && [ "$interrupted" = 0 ] && [ "$tick" -ge "$interrupt_at" ]; then
    kill -INT "$program_pid"
    interrupted=1
  fi
  sleep 0.1
  tick=$((tick + 1))
done
[ "$keys" = 1 ] && exec 3>&-
wait "$program_pid"
program_rc=$?
program_pid=""

kill -TERM "$fake_pid" 2>/dev/null
wait "$fake_pid"
fake_rc=$?
fake_pid=""

echo "---- $(basename "$program") ${program_args[*]} (exit $program_rc)"
cat "$dir/program.out"
[ -f "$dir/operator.log" ] && { echo "---- keys"; cat "$dir/operator.log"; }
echo "---- $(basename "$fake") ${fake_args[*]} (exit $fake_rc)"
cat "$dir/fake.out"
report=""
[ -f "$dir/report.json" ] && report=$(tr -d '\n' <"$dir/report.json" | sed -E 's/[[:space:]]{2,}//g; s/": /":/g')
echo "---- report"
echo "$report"
echo "----"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ "$program_rc" = 0 ] || fail "the program exited $program_rc, not 0"
[ "$fake_rc" = 0 ] || fail "the fake robot exited $fake_rc, not 0"
[ -n "$report" ] || fail "the fake robot wrote no report"
out="$dir/program.out"
for re in "${expect[@]+"${expect[@]}"}"; do
  grep -Eq -- "$re" "$out" || fail "no line of the program's output matches: $re"
done
for re in "${reject[@]+"${reject[@]}"}"; do
  if grep -Eq -- "$re" "$out"; then fail "the program's output has: $(grep -E -m1 -- "$re" "$out")"; fi
done
for re in "${report_has[@]+"${report_has[@]}"}"; do
  grep -Eq -- "$re" <<<"$report" || fail "the fake's report lacks: $re"
done
for re in "${report_lacks[@]+"${report_lacks[@]}"}"; do
  if grep -Eq -- "$re" <<<"$report"; then fail "the fake's report has: $(grep -Eo -m1 -- "$re" <<<"$report" | head -1)"; fi
done
if [ "$failures" = 0 ]; then
  echo "PASS: $(basename "$program") against $(basename "$fake")"
  exit 0
fi
exit 1
