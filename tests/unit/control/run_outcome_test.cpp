// RunOutcome: how a run ended. Only a normal end whose hand-back was confirmed is ok (exit code 0);
// every other end, and a normal end the robot did not confirm, is not (exit code 1). summary() names
// the end, and for anything but a normal end its cause and time; then the signal, the safe state,
// what was sent last and the hand-back (flagged when not confirmed), each only when there is one.
// describe_joint_fault() names the joint and every fault it reports, in a fixed order, with the
// driver's error code in hex and the temperature in whole degrees. RunFault::any() is true for
// anything but a normal end.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <string>

#include "praxis/control/run_outcome.hpp"

namespace run_outcome_test {

using praxis::control::RunEnd;
using praxis::control::RunOutcome;
using praxis::SafeState;

TEST_CASE("run outcome: each end has its own name", "[control][run_outcome]") {
  CHECK(praxis::control::to_string(RunEnd::normal) == "normal");
  CHECK(praxis::control::to_string(RunEnd::fault) == "fault");
  CHECK(praxis::control::to_string(RunEnd::control_lost) == "control lost");
  CHECK(praxis::control::to_string(RunEnd::stalled) == "control stalled");
  STATIC_REQUIRE(praxis::control::to_string(RunEnd::stalled) == "control stalled");
}

TEST_CASE("run outcome: a run fault is any end but a normal one", "[control][run_outcome]") {
  praxis::control::RunFault f;
  CHECK_FALSE(f.any());
  CHECK(f.joint == SIZE_MAX);
  for (const RunEnd e : {RunEnd::fault, RunEnd::control_lost, RunEnd::stalled}) {
    f.end = e;
    CHECK(f.any());
  }
}

TEST_CASE("run outcome: only a normal end with a confirmed hand-back is ok and exits 0", "[control][run_outcome]") {
  RunOutcome o;
  CHECK(o.ok());
  CHECK(o.exit_code() == 0);

  for (const RunEnd e : {RunEnd::fault, RunEnd::control_lost, RunEnd::stalled}) {
    RunOutcome bad;
    bad.end = e;
    INFO(praxis::control::to_string(e));
    CHECK_FALSE(bad.ok());
    CHECK(bad.exit_code() == 1);
  }

  RunOutcome unconfirmed;
  unconfirmed.hand_back_ok = false;
  CHECK_FALSE(unconfirmed.ok());
  CHECK(unconfirmed.exit_code() == 1);

  // A signal ends a run normally: that alone does not fail it.
  RunOutcome signalled;
  signalled.signal = SIGINT;
  CHECK(signalled.ok());
  CHECK(signalled.exit_code() == 0);
}

TEST_CASE("run outcome: the summary of a plain normal end names only the end and the safe state",
          "[control][run_outcome]") {
  RunOutcome o;
  CHECK(o.summary() == "run ended: normal; safe state: joint damping");
  // A cause and a time are not shown for a normal end.
  o.cause = "left over";
  o.at = 3.0;
  o.safe_state = SafeState::mode_request;
  CHECK(o.summary() == "run ended: normal; safe state: mode request");
}

TEST_CASE("run outcome: the summary of a fault names its cause and time with millisecond precision",
          "[control][run_outcome]") {
  RunOutcome o;
  o.end = RunEnd::fault;
  o.cause = "joint fault: left_knee (offline)";
  o.at = 2.5;
  o.joint = 3;
  o.safe_state_sent = "joint damping on 12 joints";
  CHECK(o.summary() ==
        "run ended: fault (joint fault: left_knee (offline)) at 2.500 s; safe state: joint damping, "
        "joint damping on 12 joints");

  o.end = RunEnd::stalled;
  o.cause = "newest command 150 ms old";
  o.at = 12.25;
  o.safe_state_sent.clear();
  CHECK(o.summary() == "run ended: control stalled (newest command 150 ms old) at 12.250 s; safe state: joint damping");
}

TEST_CASE("run outcome: the summary names the signal, the hand-back and whether it was confirmed",
          "[control][run_outcome]") {
  RunOutcome o;
  o.signal = SIGTERM;
  o.safe_state = SafeState::hand_back;
  o.safe_state_sent = "hold of the measured pose";
  o.hand_back = "PdStand confirmed";
  CHECK(o.summary() == "run ended: normal, stopped by signal " + std::to_string(SIGTERM) +
                           "; safe state: hand back, hold of the measured pose; hand-back: PdStand confirmed");
  CHECK(o.summary().find("NOT confirmed") == std::string::npos);

  o.hand_back_ok = false;
  o.hand_back = "no answer within 2000 ms";
  const auto s = o.summary();
  CHECK(s.find("; hand-back: no answer within 2000 ms (NOT confirmed)") != std::string::npos);
  const std::string flag = " (NOT confirmed)";
  REQUIRE(s.size() >= flag.size());
  CHECK(s.substr(s.size() - flag.size()) == flag);  // the flag closes the summary
}

TEST_CASE("run outcome: control lost with a signal lists the cause before the signal", "[control][run_outcome]") {
  RunOutcome o;
  o.end = RunEnd::control_lost;
  o.cause = "stale state";
  o.at = 0.125;
  o.signal = SIGINT;
  const auto s = o.summary();
  CHECK(s == "run ended: control lost (stale state) at 0.125 s, stopped by signal " + std::to_string(SIGINT) +
                 "; safe state: joint damping");
}

TEST_CASE("run outcome: a joint fault description names the joint and nothing else when no fault bit is set",
          "[control][run_outcome]") {
  const praxis::JointHealth h{};
  CHECK(praxis::control::describe_joint_fault("left_knee_joint", h) == "joint fault: left_knee_joint");
}

TEST_CASE("run outcome: a joint fault description names each fault bit", "[control][run_outcome]") {
  praxis::JointHealth h;
  h.faults = praxis::k_joint_offline;
  CHECK(praxis::control::describe_joint_fault("a", h) == "joint fault: a (offline)");
  h.faults = praxis::k_joint_over_range;
  CHECK(praxis::control::describe_joint_fault("a", h) == "joint fault: a (over range)");
  h.faults = praxis::k_joint_driver_error;
  h.error_code = 0x4;
  CHECK(praxis::control::describe_joint_fault("a", h) == "joint fault: a (driver error 0x4)");
  h.faults = praxis::k_joint_overheated;
  h.temperature = 85.0f;
  CHECK(praxis::control::describe_joint_fault("a", h) == "joint fault: a (overheated, 85 C)");
}

TEST_CASE("run outcome: a joint fault description lists every fault in a fixed order with hex code and whole degrees",
          "[control][run_outcome]") {
  praxis::JointHealth h;
  h.faults = praxis::k_joint_overheated | praxis::k_joint_driver_error | praxis::k_joint_over_range |
             praxis::k_joint_offline;
  h.error_code = 0xBEEF;
  h.temperature = 91.75f;  // exact in binary: rounds up to 92
  CHECK(praxis::control::describe_joint_fault("right_hip_pitch_joint", h) ==
        "joint fault: right_hip_pitch_joint (offline, over range, driver error 0xbeef, overheated, 92 C)");

  // The largest code the field holds is printed whole.
  h.faults = praxis::k_joint_driver_error;
  h.error_code = 0xFFFFFFFFu;
  CHECK(praxis::control::describe_joint_fault("j", h) == "joint fault: j (driver error 0xffffffff)");

  // The error code is shown only with the driver-error bit.
  h.faults = praxis::k_joint_offline;
  CHECK(praxis::control::describe_joint_fault("j", h) == "joint fault: j (offline)");
}


TEST_CASE("run outcome: what a run rode out closes the summary and leaves the exit code alone",
          "[control][run_outcome]") {
  RunOutcome o;
  CHECK_FALSE(o.rode_out.any());
  o.rode_out.stalls = 2;
  o.rode_out.stalls_damped = 1;
  o.rode_out.longest_stall_ms = 152.4;
  CHECK(o.rode_out.any());
  CHECK(o.summary() ==
        "run ended: normal; safe state: joint damping; rode out 2 stalls of the control thread (longest 152 ms, "
        "1 damped)");
  o.rode_out.freezes = 1;
  o.rode_out.longest_freeze_ms = 301.0;
  o.rode_out.state_pauses = 1;
  o.rode_out.longest_state_pause_ms = 61.2;
  o.hand_back = "Damping confirmed";
  CHECK(o.summary() ==
        "run ended: normal; safe state: joint damping; hand-back: Damping confirmed; rode out 2 stalls of the "
        "control thread (longest 152 ms, 1 damped), 1 freeze of the control loop (longest 301 ms), 1 pause of the "
        "robot's state (longest 61 ms)");
  CHECK(o.ok());
  CHECK(o.exit_code() == 0);

  RunOutcome held;
  held.rode_out.stalls = 1;
  held.rode_out.longest_stall_ms = 40.0;
  CHECK(held.rode_out.describe() == "1 stall of the control thread (longest 40 ms)");
}

}  // namespace run_outcome_test
