#pragma once
// RunOutcome: how a run ended, returned by run() and run_for() (control/runtime.hpp), so that a
// program can tell its user and exit non-zero on anything but a normal end:
//
//   auto outcome = controller.run();
//   std::cout << outcome.summary() << "\n";
//   return outcome.exit_code();
//
// A fault is the first one of the run (a later recovery through the gamepad does not erase it). The
// hand-back is what the backend answered when control ended (for robots with a lifecycle), so a
// run that ended normally still fails when the robot did not confirm it took control back.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/motion_type.hpp"

namespace praxis::control {

enum class RunEnd : std::uint8_t {
  normal,        // request_stop(), a signal or the duration ended it, and nothing went wrong
  fault,         // a fault in the cycle (joint fault, tilt, NaN state or command, falling)
  control_lost,  // the state went stale or the backend reported its link down
  stalled,       // the control thread stalled longer than RuntimeOptions::stall_timeout
};

[[nodiscard]] constexpr std::string_view to_string(RunEnd e) {
  switch (e) {
    case RunEnd::normal: return "normal";
    case RunEnd::fault: return "fault";
    case RunEnd::control_lost: return "control lost";
    case RunEnd::stalled: return "control stalled";
  }
  return "?";
}

// The first fault of a run, recorded on the control thread without allocating.
struct RunFault {
  RunEnd end = RunEnd::normal;
  motion::SelectionCause cause = motion::SelectionCause::none;
  double at = 0.0;                  // seconds since the controller started
  std::size_t joint = SIZE_MAX;     // the faulted joint (joint faults)
  JointHealth health{};             // what the joint reported
  double stall_ms = 0.0;            // RunEnd::stalled: how old the newest command was
  double state_age_ms = 0.0;        // a stale state: how old the newest state was when it was seen
  [[nodiscard]] bool any() const { return end != RunEnd::normal; }
};

// The edges a run rode out: each one ended by itself before it became a fault.
//   stalls        the control thread's newest command grew older than command_timeout (the send
//                 thread held it; on a robot praxis owns, past stall_timeout, damping) until fresh
//                 commands came again;
//   freezes       the control loop woke more than command_timeout after a deadline and skipped the
//                 missed cycles (the process was stopped or starved: SIGSTOP and SIGCONT, a VM
//                 pause, a cycle that blocked);
//   state pauses  the robot's state grew older than command_timeout and came back before
//                 stale_timeout (a robot process paused, a link that hiccuped).
// A stall that outlasts stall_timeout on a robot that balances itself, or a state that goes stale,
// ends the run instead (RunEnd::stalled, RunEnd::control_lost) and is not counted here.
struct RideOuts {
  std::uint64_t stalls = 0;
  std::uint64_t stalls_damped = 0;  // of the stalls, those that reached the safe state
  double longest_stall_ms = 0.0;
  std::uint64_t freezes = 0;
  double longest_freeze_ms = 0.0;
  std::uint64_t state_pauses = 0;
  double longest_state_pause_ms = 0.0;

  [[nodiscard]] bool any() const { return stalls + freezes + state_pauses > 0; }
  // "1 stall of the control thread (longest 152 ms, 1 damped), 2 pauses of the robot's state
  // (longest 61 ms)"
  [[nodiscard]] std::string describe() const {
    std::string s;
    char buf[160];
    const auto add = [&](std::uint64_t n, const char* one, const char* many, double longest) {
      if (n == 0) return;
      if (!s.empty()) s += ", ";
      std::snprintf(buf, sizeof buf, "%llu %s (longest %.0f ms", static_cast<unsigned long long>(n),
                    n == 1 ? one : many, longest);
      s += buf;
    };
    add(stalls, "stall of the control thread", "stalls of the control thread", longest_stall_ms);
    if (stalls > 0) {
      if (stalls_damped > 0) s += ", " + std::to_string(stalls_damped) + " damped";
      s += ")";
    }
    add(freezes, "freeze of the control loop", "freezes of the control loop", longest_freeze_ms);
    if (freezes > 0) s += ")";
    add(state_pauses, "pause of the robot's state", "pauses of the robot's state", longest_state_pause_ms);
    if (state_pauses > 0) s += ")";
    return s;
  }
};

// [[nodiscard]]: a program that drops it exits 0 after a fault or a lost link, and whoever started
// it (a script, a supervisor, CI) takes the run for a good one.
struct [[nodiscard(
    "a RunOutcome says how control ended (a fault, a lost link, a stall): return outcome.exit_code(), or print "
    "outcome.summary(); cast to void to drop it on purpose")]] RunOutcome {
  RunEnd end = RunEnd::normal;
  SafeState safe_state = SafeState::joint_damping;
  std::string cause;        // "joint fault: left_knee (driver error 0x4)", "stale state", ...
  double at = 0.0;          // seconds since the controller started, for a fault
  std::size_t joint = SIZE_MAX;
  int signal = 0;           // the signal that stopped the run (stop_on_signals), 0 if none
  bool hand_back_ok = true;            // the robot confirmed it has control back (or nothing to hand back)
  std::string hand_back;               // what the backend said when control ended
  std::string safe_state_sent;         // what praxis sent last ("joint damping on 29 joints", ...)

  // What the run rode out without ending: a normal end may hide a robot that was on held targets
  // for 150 ms. Whoever reads the outcome (a supervisor, a test rig) can tell such a run from a
  // clean one; exit_code() does not change, because the robot never left control (docs/safety.md).
  RideOuts rode_out{};

  [[nodiscard]] bool ok() const { return end == RunEnd::normal && hand_back_ok; }
  [[nodiscard]] int exit_code() const { return ok() ? 0 : 1; }
  [[nodiscard]] std::string summary() const {
    std::string s = "run ended: " + std::string(to_string(end));
    if (end != RunEnd::normal) {
      char when[48];
      std::snprintf(when, sizeof when, " at %.3f s", at);
      s += " (" + cause + ")" + when;
    }
    if (signal != 0) s += ", stopped by signal " + std::to_string(signal);
    s += "; safe state: " + std::string(to_string(safe_state));
    if (!safe_state_sent.empty()) s += ", " + safe_state_sent;
    if (!hand_back.empty()) s += "; hand-back: " + hand_back + (hand_back_ok ? "" : " (NOT confirmed)");
    if (rode_out.any()) s += "; rode out " + rode_out.describe();
    return s;
  }
};

// "joint fault: left_knee_joint (offline, driver error 0x4)"
[[nodiscard]] inline std::string describe_joint_fault(std::string_view joint_name, const JointHealth& h) {
  std::string s = "joint fault: " + std::string(joint_name);
  std::string what;
  const auto add = [&](std::string_view w) {
    if (!what.empty()) what += ", ";
    what += w;
  };
  if (h.faults & k_joint_offline) add("offline");
  if (h.faults & k_joint_over_range) add("over range");
  if (h.faults & k_joint_driver_error) {
    char code[40];
    std::snprintf(code, sizeof code, "driver error 0x%x", static_cast<unsigned>(h.error_code));
    add(code);
  }
  if (h.faults & k_joint_overheated) {
    char t[40];
    std::snprintf(t, sizeof t, "overheated, %.0f C", static_cast<double>(h.temperature));
    add(t);
  }
  if (!what.empty()) s += " (" + what + ")";
  return s;
}

}  // namespace praxis::control
