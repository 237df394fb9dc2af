#!/usr/bin/env bash
# A Booster whose every loco RPC is answered 150 ms late (past the 100 ms sdk_request_timeout):
# praxis_motion_demo's story still gets the robot up, walks it, kicks and ends in Damping, and no
# mode change reaches the robot twice.
#   booster_slow_replies_test.sh <praxis_motion_demo> <praxis-fake-booster> <domain>
set -u
demo=$1
fake=$2
domain=$3
work=$(mktemp -d)
trap 'kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
export PRAXIS_DDS_TAG=${PRAXIS_DDS_TAG:-praxis-test-$$-$RANDOM$RANDOM}
"$fake" --robot k1 --domain "$domain" --interface lo --lying --get-up-seconds 1.5 --reply-delay-ms 150 \
  --duration 60 --report "$work/fake.json" >"$work/fake.txt" 2>&1 &
fake_pid=$!
status=0
"$demo" --robot k1 --backend booster --domain "$domain" --interface lo >"$work/demo.txt" 2>&1 || status=$?
kill -INT "$fake_pid"
wait "$fake_pid"
cat "$work/demo.txt"
[ "$status" -eq 0 ] || { echo "FAIL: praxis_motion_demo exited $status"; exit 1; }
/usr/bin/python3 - "$work/fake.json" <<'PY' || exit 1
import collections, json, math, sys
r = json.load(open(sys.argv[1]))
calls = collections.Counter(c["name"] for c in r["loco_calls"])
modes = [m["mode"] for m in r["modes"]]
walked = math.hypot(r["odometry"]["x"], r["odometry"]["y"])
print("fake robot:", dict(calls), "modes", modes, "standing", r["standing"], "walked %.2f m" % walked)
problems = []
if modes != ["Damping", "Prepare", "Soccer", "Damping"]: problems.append("modes %s" % modes)
if calls["ChangeMode"] != 3: problems.append("%d ChangeMode calls (one per mode change expected)" % calls["ChangeMode"])
if calls["GetUp"] != 1: problems.append("%d GetUp calls" % calls["GetUp"])
if calls["VisualKick"] < 1: problems.append("no VisualKick")
if walked < 0.5: problems.append("walked %.2f m" % walked)
if r["mode"] != "Damping": problems.append("ended in %s" % r["mode"])
if problems:
    print("FAIL: " + "; ".join(problems))
    sys.exit(1)
PY
grep -q "hand-back: booster_interface stopped: Damping confirmed by the robot" "$work/demo.txt" ||
  { echo "FAIL: Damping not confirmed"; exit 1; }
# praxis commands no joint of a robot in its own modes: the summary names the mode request only.
grep -q "^run ended: normal; safe state: mode request, damping mode requested; hand-back" "$work/demo.txt" ||
  { echo "FAIL: the summary does not say only the Damping request was sent"; exit 1; }
echo "PASS: with 150 ms replies the Booster got up, walked, kicked and ended in Damping"
