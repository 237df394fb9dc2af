#!/usr/bin/env bash
# CTest for praxis_demo --controller policy --command: the velocity command the policy's observation
# got, cycle by cycle (log.csv's log_3, log_4, log_5: vx, vy, wz; log_0: seconds since the policy's
# last reset, one period ahead), is the one given, on the policy's own clock and limited to the
# deploy file's max (0.5, 0.3, 0.5 for the example policies) — on the mock, or on the backend the
# extra arguments choose. A command for a controller that takes none, and a bad one, are refused.
#   demo_command_test.sh PRAXIS_DEMO ROBOT [EXTRA DEMO ARGUMENTS...]
set -euo pipefail
demo=$1
robot=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run NAME COMMAND: a run of 8 s (STAND from 0.4 s, CTRL from about 4 s, out on the tilt or L2+B at
# 6 s or later); sets $run to its run folder.
run_demo() {
  local name=$1 command=$2
  shift 2
  if ! "$demo" --robot "$robot" --controller policy --command "$command" --duration 8 --log-folder "$work/$name" "$@" \
      >"$work/$name.txt" 2>&1; then
    echo "(exit status not 0: a fault the story scripts ends it so on some backends)"
  fi
  run=$(sed -n 's/^logs: //p' "$work/$name.txt")
  [[ -n "$run" && -s "$run/log.csv" ]] || { cat "$work/$name.txt"; fail "$name: praxis_demo wrote no log.csv"; return 1; }
}

# check NAME EXPECTATION_AWK: over the rows in CTRL (motion user_control), t = log_0 - period is the
# time the policy evaluated its command at; the awk expression `expect(t)` sets ex, ey, ez (or
# skip = 1 for a row too close to a change). Every checked row must match to 1e-6; at least 200 rows.
check() {
  local name=$1 expect=$2 log="$run/log.csv"
  local result
  result=$(awk -F, "
    function expect(t) { skip = 0; $expect }
    NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
    \$col[\"motion\"] == \"user_control\" {
      if (!period) period = \$col[\"log_0\"]
      t = \$col[\"log_0\"] - period
      expect(t)
      if (skip) next
      n++
      dx = \$col[\"log_3\"] - ex; dy = \$col[\"log_4\"] - ey; dz = \$col[\"log_5\"] - ez
      if (dx * dx + dy * dy + dz * dz > 1e-12) { bad++; if (!first) first = \"t=\" t \": \" \$col[\"log_3\"] \",\" \$col[\"log_4\"] \",\" \$col[\"log_5\"] \" expected \" ex \",\" ey \",\" ez }
    }
    END { printf \"%d %d %s\\n\", n, bad, first }" "$log")
  local rows bad first
  read -r rows bad first <<<"$result"
  if [[ $rows -lt 200 ]]; then
    fail "$name: only $rows cycles in CTRL checked in $log"
  elif [[ $bad -gt 0 ]]; then
    fail "$name: $bad of $rows cycles in CTRL had another command, first $first"
  else
    echo "ok: $name: $rows cycles in CTRL, each with the command expected"
  fi
}

# 1. One command, 0.3 m/s forward, in every cycle of CTRL.
if run_demo constant "0.3,0,0" "$@"; then
  grep -q "vx 0.300 m/s, vy 0.000 m/s, wz 0.000 rad/s from 0.00 s on" "$work/constant.txt" ||
    fail "constant: the command is not printed before the run: $(cat "$work/constant.txt")"
  grep -q "STAND    -> CTRL" "$work/constant.txt" || fail "constant: the run never reached CTRL: $(cat "$work/constant.txt")"
  check constant "ex = 0.3; ey = 0; ez = 0"
fi

# 2. A timeline on the policy's clock: 0.8 m/s (limited to the file's 0.5) for 1 s, nothing for
#    0.5 s, then turning at 0.4 rad/s.
if run_demo timeline "0.8,0,0@0-1;0,0,0.4@1.5" "$@"; then
  grep -q 'note: "0.8,0,0@0-1": vx 0.800 m/s is beyond the deploy file.s max 0.500: the policy gets 0.500' \
    "$work/timeline.txt" || fail "timeline: no note of the limit: $(cat "$work/timeline.txt")"
  check timeline "
    if (t > 0.997 && t < 1.003 || t > 1.497 && t < 1.503) { skip = 1; return }
    if (t < 1) { ex = 0.5; ey = 0; ez = 0 } else if (t < 1.5) { ex = 0; ey = 0; ez = 0 } else { ex = 0; ey = 0; ez = 0.4 }"
fi

# 3. Refusals, before anything runs (exit 2, no run folder).
refused() {
  local what=$1 pattern=$2
  shift 2
  local out status=0
  out=$("$demo" --robot "$robot" --no-log --duration 2 "$@" 2>&1) || status=$?
  if [[ $status -ne 2 ]] || ! grep -qF -- "$pattern" <<<"$out"; then
    fail "$what: expected exit 2 and '$pattern', got $status: $out"
  else
    echo "ok: $what: $out"
  fi
}
refused "the sinusoid takes no command" \
  "error: --command is the velocity command of a trained policy (--controller policy); the sinusoid takes none" \
  --command 0.3,0,0
refused "two values" 'error: --command: "0.3,0": expected VX,VY,WZ[@START[-END]]' --controller policy --command 0.3,0
refused "overlapping items" 'error: --command: "0,0,1@2": overlaps "0.3,0,0"' --controller policy --command "0.3,0,0;0,0,1@2"
refused "an empty command" "error: --command: no command given" --controller policy --command ""

if [[ $failures -eq 0 ]]; then echo "PASS: the policy got --command's velocity command"; else exit 1; fi
