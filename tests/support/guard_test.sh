#!/usr/bin/env bash
# praxis-guard against a robot praxis did not write to: a praxis_demo controlling a fake robot over
# DDS is killed (SIGKILL) or stopped for good (SIGSTOP) while it has the robot, and the robot still
# ends in its safe state, sent by praxis-guard within a bound it prints:
#   guard_test.sh <praxis_demo> <praxis-fake-robot|-booster> <robot> <domain> KILL|STOP <check>
# <check> names what the fake's report must show (unitree-damped: the last frames it applied are
# damping, after the stiff ones; booster-damped: Custom, then Damping, nothing refused;
# booster-modes, with praxis_motion_demo: walking in Soccer, a zero Move, then Damping;
# unitree-sport, with praxis_motion_demo: a Go2 walking by itself stopped, laid down and damped;
# tienkung-walking, with praxis_motion_demo: a Tienkung walking under its own controller told a zero
# velocity and stand; tienkung-stopped, with guard_spin_controller: the waist turning in velocity mode stopped, then every
# limb damped; unitree-arms / booster-arms, with praxis_demo --arm-sdk: a G1 or T1 walking by itself
# with its arms lent gets them back (weight 0) with its own controller still running;
# aurora-pdstand, with praxis_demo: a Fourier robot in UserCmd held, then in PdStand,
# its gains never lowered; aurora-walking, with praxis_motion_demo: a Fourier robot walking by itself
# given a zero velocity, then PdStand).
set -u
demo=$1 fake=$2 robot=$3 domain=$4 signal=$5 check=$6
dir=$(mktemp -d)
trap 'kill -9 $fake_pid $demo_pid 2>/dev/null; rm -rf "$dir"' EXIT
out=$dir/demo.txt report=$dir/report.json

# The robots with a remote get the operator's R2 and A from the fake; the others (Tienkung, Fourier)
# from a script in the controller.
pad=(--gamepad "R2:1.0-2.2,A:2.7" --script-start first-command)
case $check in
  unitree-sport) fake_args=(--sport-mode normal --sport-posture damped "${pad[@]}") ;;  # as after power-on
  unitree-*) fake_args=(--sport-mode normal "${pad[@]}") ;;  # a robot boots with its motion service on (arm SDK: kept)
  tienkung-walking) fake_args=(--hric --hric-mode stand) ;;  # stood up by the operator, handed to programs
  aurora-walking) fake_args=(--stable-after 0.5) ;;  # as praxis_motion_demo's own fake
  tienkung-*|aurora-*) fake_args=() ;;
  *) fake_args=("${pad[@]}") ;;
esac
"$fake" --robot "$robot" --domain "$domain" --interface lo "${fake_args[@]}" --duration 120 --report "$report" \
  >"$dir/fake.txt" 2>&1 &
fake_pid=$!
case $check in
  # praxis_motion_demo's Booster story (robot modes): walking from 5.5 s to 7 s of its run.
  booster-modes) demo_args=(--backend booster); settle=6.2 ;;
  # praxis_motion_demo's Go2 story (walking by itself): walking from 3 s to 5 s of its run.
  unitree-sport) demo_args=(--backend unitree); settle=3.9 ;;
  # praxis_motion_demo's Tienkung story: walking (asked at 1 s, a 0.5 s transition) until 3.5 s.
  tienkung-walking) demo_args=(--backend tienkung); settle=2.3 ;;
  # praxis_motion_demo's Fourier story: walking by itself (asked at 1 s) until 4 s.
  aurora-walking) demo_args=(--backend aurora); settle=3 ;;
  # guard_spin_controller: CTRL (the waist turning) from 2 s of its run.
  tienkung-stopped) demo_args=(); settle=4 ;;
  # praxis_demo on a robot without a remote: its operator script, R2 from 1.2 s, A at 6 s of a 12 s run.
  aurora-pdstand) demo_args=(--backend dds --duration 12 --no-log); settle=8 ;;
  # praxis_demo with the arms only: R2, then A, as below.
  unitree-arms|booster-arms) demo_args=(--backend dds --arm-sdk --duration 60 --no-log); settle=5 ;;
  *) demo_args=(--backend dds --duration 60 --no-log); settle=5 ;;  # praxis_demo: R2, then A
esac
"$demo" --robot "$robot" "${demo_args[@]}" --domain "$domain" --interface lo >"$out" 2>&1 &
demo_pid=$!

# The guard is started when the run has taken control (its command line names the controller's
# pid); read from /proc, which every Linux has (pgrep needs procps).
guard_running() {
  local f
  for f in /proc/[0-9]*/cmdline; do
    tr '\0' ' ' <"$f" 2>/dev/null | grep -q "praxis-guard .*--pid $demo_pid \$" && return 0
  done
  return 1
}
for _ in $(seq 300); do
  guard_running && break
  sleep 0.1
done
guard_running || { cat "$out"; echo "FAIL: no praxis-guard watching the run"; exit 1; }
sleep "$settle"  # under the user's controller (praxis_demo: R2, then A), or walking (the motion demo)
kill -"$signal" "$demo_pid"
killed_at=$(date +%s.%N)
for _ in $(seq 150); do
  grep -q "^praxis-guard (" "$out" && break
  sleep 0.1
done
cat "$out"
line=$(grep "^praxis-guard (" "$out") || { echo "FAIL: praxis-guard said nothing after SIG$signal"; exit 1; }
ms=$(sed -n 's/.*: from \([0-9]*\) ms after its last cycle, .*/\1/p' <<<"$line")
[ -n "$ms" ] || { echo "FAIL: praxis-guard printed no bound"; exit 1; }
case $signal in
  KILL) expected=") ended: "; limit=1000 ;;  # the pidfd: at once, on a loaded machine too
  STOP) expected=") ran no cycle: "; limit=2500 ;;    # the silence (500 ms) and a loaded machine's delay
esac
grep -q "$expected" <<<"$line" || { echo "FAIL: praxis-guard did not say \"$expected\""; exit 1; }
[ "$ms" -le "$limit" ] || { echo "FAIL: the safe state came $ms ms after the last cycle (limit $limit)"; exit 1; }
if [ "$signal" = STOP ]; then
  kill -CONT "$demo_pid"  # a controller that wakes up sends nothing more and ends its run
  wait "$demo_pid"
  status=$?
  cat "$out"
  grep -q "^run ended: control stalled (this process fell silent and praxis-guard took the robot to its safe state" "$out" ||
    { echo "FAIL: the woken controller's outcome does not say the guard took over"; exit 1; }
  [ "$status" -ne 0 ] || { echo "FAIL: the woken controller exited 0"; exit 1; }
fi
sleep 1
kill -TERM "$fake_pid"
wait "$fake_pid"
case $check in
  unitree-damped)
    python3 - "$report" "$killed_at" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
last = r["last_applied"]
if not last["damping"] or last["damping_since_s"] < last["last_stiff_s"] or last["last_stiff_s"] < 0:
    print("FAIL: the robot's last frames are not damping after stiff ones:", last); sys.exit(1)
if r["frames_rejected_total"] != 0:
    print("FAIL: the robot rejected frames:", r["frames_rejected"]); sys.exit(1)
print("robot: stiff until %.2f s, damping from %.2f s" % (last["last_stiff_s"], last["damping_since_s"]))
EOF
    ;;
  unitree-sport)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
postures = [p["posture"] for p in r["sport"]["postures"]]
calls = [c["api"] for c in r["sport"]["calls"]]
# Walking when the controller went; then StopMove, StandDown, Damp (1003, 1005, 1001), nothing refused.
if "walking" not in postures or postures[-3:] != ["balancing", "lying", "damped"]:
    print("FAIL: the robot was not stopped, laid down and damped after walking:", postures); sys.exit(1)
if calls[-3:] != [1003, 1005, 1001] or any(c["code"] != 0 for c in r["sport"]["calls"]):
    print("FAIL: the last calls are not StopMove, StandDown, Damp, all answered 0:", r["sport"]["calls"][-4:]); sys.exit(1)
if r["frames_received"] != 0:
    print("FAIL: joint frames reached a robot walking by itself"); sys.exit(1)
print("robot: postures", postures)
EOF
    ;;
  booster-modes)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
calls = r["loco_calls"]
modes = [m["mode"] for m in r["modes"]]
if r["mode"] != "Damping" or "Soccer" not in modes:
    print("FAIL: the robot did not end in Damping after walking in Soccer:", modes); sys.exit(1)
changes = [k for k, c in enumerate(calls) if c["name"] == "ChangeMode"]
last = changes[-1]
if json.loads(calls[last]["body"])["mode"] != 0:
    print("FAIL: the last ChangeMode is not Damping:", calls[last]); sys.exit(1)
moves = [c for c in calls[:last] if c["name"] == "Move"]
stop = json.loads(moves[-1]["body"]) if moves else {}
if not moves or any(abs(v) > 1e-9 for v in stop.values() if isinstance(v, (int, float))):
    print("FAIL: no zero Move before the Damping:", moves[-1:] ); sys.exit(1)
print("robot: modes", modes, "last Move", stop)
EOF
    ;;
  tienkung-walking)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
h = r["hric"]
modes = [m["mode"] for m in h["mode_timeline"]]
if "walk" not in modes or h["final_mode"] != "stand":
    print("FAIL: the robot did not end standing after walking:", modes, h["final_mode"]); sys.exit(1)
if any(abs(v) > 1e-9 for v in h["velocity_at_exit"].values()):
    print("FAIL: a velocity still in force:", h["velocity_at_exit"]); sys.exit(1)
if h["forbidden_requests"] != 0 or h["refused"]:
    print("FAIL: requests the robot forbids or refused:", h["forbidden_requests"], h["refused"]); sys.exit(1)
last = h["calls"][-1]
if last["request"] != "stand" or not last["success"]:
    print("FAIL: the last request is not an accepted stand:", last); sys.exit(1)
if any(l["cmd_ctrl"]["received"] or l["cmd_vel"]["received"] for l in r["limbs"].values()):
    print("FAIL: limb commands reached a robot walking by itself"); sys.exit(1)
print("robot: walk modes", modes)
EOF
    ;;
  tienkung-stopped)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
limbs = r["limbs"]
waist = limbs["waist"]
if r["max_turning"] < 1 or waist["cmd_vel"]["received"] == 0:
    print("FAIL: the waist never turned in velocity mode:", r["max_turning"], waist["cmd_vel"]); sys.exit(1)
if r["turning_at_exit"] or r["velocity_mode_at_exit"]:
    print("FAIL: motors still turning or in velocity mode:", r["turning_at_exit"], r["velocity_mode_at_exit"]); sys.exit(1)
if waist["cmd_vel"]["zero_speeds"] < 1:
    print("FAIL: the waist got no speed 0:", waist["cmd_vel"]); sys.exit(1)
soft = {name: l["cmd_ctrl"]["last_all_kp_zero"] for name, l in limbs.items()}
if not all(soft.values()):
    print("FAIL: a limb's last cmd_ctrl is not damping:", soft); sys.exit(1)
if any(sum(l[k]["rejected"].values()) for l in limbs.values() for k in ("cmd_ctrl", "cmd_vel", "cmd_pos")):
    print("FAIL: the robot refused commands:", limbs); sys.exit(1)
print("robot: waist stopped (speed 0 %d times), every limb damped" % waist["cmd_vel"]["zero_speeds"])
EOF
    ;;
  aurora-walking)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
names = [s["name"] for s in r["states"]]
print("robot: states", names, "velocity source", r["velocity_source"], "sources", r["velocity_sources"],
      "last velocity", r["last_velocity"])
if not any(s["state"] == 3 for s in r["states"]) or r["velocities_accepted"] == 0:
    print("FAIL: the robot never walked:", names); sys.exit(1)
if r["state_name"] != "PdStand" or names[-1] != "PdStand":
    print("FAIL: the robot did not end in PdStand after walking:", names); sys.exit(1)
if any(abs(v) > 1e-9 for v in r["last_velocity"]):
    print("FAIL: a velocity still in force:", r["last_velocity"]); sys.exit(1)
if r["violations_total"] != 0:
    print("FAIL: the robot saw rule violations:", r["violations"]); sys.exit(1)
EOF
    ;;
  aurora-pdstand)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
names = [s["name"] for s in r["states"]]
if "UserCmd" not in names or r["state_name"] != "PdStand" or names[-1] != "PdStand":
    print("FAIL: the robot did not end in PdStand after UserCmd:", names, r["state_name"]); sys.exit(1)
if r["violations_total"] != 0:
    print("FAIL: the robot saw rule violations:", r["violations"]); sys.exit(1)
if min(r["final_kp"]) <= 0:
    print("FAIL: gains lowered to 0 on the way out:", r["final_kp"]); sys.exit(1)
pd_stand_at = r["states"][-1]["t"]
late = [c["t"] for c in r["motor_configs"] if c["t"] > pd_stand_at]
if late:
    print("FAIL: PD configurations after PdStand:", late); sys.exit(1)
print("robot: states", names)
EOF
    ;;
  unitree-arms)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
arms = r["arm_sdk"]
print("robot: arm SDK", arms, "motion service", r["active_mode"])
if arms["max_weight"] < 0.5 or arms["last_weight"] != 0:
    print("FAIL: the arms were not blended back to the robot (weight 0)"); sys.exit(1)
if r["active_mode"] != "normal" or r["frames_received"] != 0:
    print("FAIL: the robot's motion service was touched, or low-level frames came"); sys.exit(1)
EOF
    ;;
  booster-arms)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
u = r["upper_body"]
print("robot: upper body", u, "mode", r["mode"])
if u["max_arm_weight"] < 0.5 or u["last_weight"] != 0 or u["control_at_end"]:
    print("FAIL: the arms were not blended back with UpperBodyCustomControl stopped"); sys.exit(1)
if u["leg_weight_in_walking"] != 0 or r["mode"] != "Walking":
    print("FAIL: the legs got weight, or the robot left Walking"); sys.exit(1)
if any(c["status"] != 0 for c in r["loco_calls"]):
    print("FAIL: a call the robot refused:", r["loco_calls"]); sys.exit(1)
EOF
    ;;
  booster-damped)
    python3 - "$report" <<'EOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
modes = [m["mode"] for m in r["modes"]]
if "Custom" not in modes or modes[-1] != "Damping" or r["mode"] != "Damping":
    print("FAIL: the robot did not end in Damping after Custom:", modes); sys.exit(1)
if any(c["status"] != 0 for c in r["loco_calls"]):
    print("FAIL: a call the robot refused:", r["loco_calls"]); sys.exit(1)
if r["joint_ctrl"]["rejected"] != 0:
    print("FAIL: joint frames rejected:", r["joint_ctrl"]); sys.exit(1)
print("robot: modes", modes)
EOF
    ;;
esac
echo "PASS: SIG$signal: praxis-guard sent the safe state $ms ms after the last cycle"
