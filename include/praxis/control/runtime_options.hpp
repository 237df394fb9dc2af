#pragma once
// RuntimeOptions: how the one runtime (control/runtime.hpp) runs — its trigger and periods, the
// safety nodes' settings, logs, the send thread's stall limits, real-time set-up, thread hooks and
// praxis-guard. Every configuration's options (ControllerOptions, MotionOptions) extend it;
// control/runtime_params.hpp loads its safety settings from a JSON file.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

#include "praxis/control/guard.hpp"
#include "praxis/control/realtime.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"

namespace praxis::control {

enum class Trigger : std::uint8_t { timer, state };

struct RuntimeOptions {
  // Control period; unset = the configuration's default (RobotController: USER_CTRL's dt).
  std::optional<Duration> period;
  Trigger trigger = Trigger::timer;
  // Trigger::timer: how often the send thread writes the newest command, and the receive thread polls.
  Duration send_period = std::chrono::milliseconds(2);
  Duration receive_period = std::chrono::microseconds(500);
  // Backends with a lifecycle: how long taking and handing back control may take.
  Duration lifecycle_timeout = std::chrono::seconds(10);
  double damping_kd = k_default_damping_kd;
  motion::SafetyOptions safety{};
  motion::FallOptions fall{};
  motion::CollectorOptions collector{};  // its damping_kd follows damping_kd above
  // Per-cycle CSV log; unset = none.
  std::optional<std::filesystem::path> cycle_log;
  // CSV of the motion transitions with their causes (time, cycle, from, to, dispatching_to, cause,
  // gain_ratio); unset = none.
  std::optional<std::filesystem::path> transition_log;
  // Cycles per printed compute-time window; unset = one second's worth at the control period (the
  // Unitree framework printed every 100 cycles, which is 0.2 s at 500 Hz: too fast to read).
  std::optional<std::size_t> stats_every;
  bool print = true;
  // Trigger::timer: a command older than this when the send thread would send it means the control
  // thread stalled; the send thread then holds it (sends it again as it was, targets and gains; see
  // Runtime::command_stalls()). Unset = 5 control periods, at least one period plus four send
  // periods and at least 20 ms (the age a command reaches in normal operation is up to about a
  // period and a send period, plus scheduling noise).
  std::optional<Duration> command_timeout;
  // Trigger::timer: a stall that outlasts this (the newest command's age) gets the robot's safe
  // state instead of the hold: damping frames where praxis owns every joint (fresh commands are sent
  // again when control resumes), the end of the run and the hand-back on a robot that balances
  // itself. Unset = 100 ms, and never below command_timeout.
  std::optional<Duration> stall_timeout;
  // SCHED_FIFO priorities and CPUs per thread, memory locking, prefaulted stacks and heap, timer
  // slack (control/realtime.hpp): applied as each thread of run() starts, before on_thread_start;
  // what was granted and what was refused, and why, is printed (and kept: realtime_report()), and
  // the run goes on either way.
  RealtimeOptions realtime{};
  // Called first and last on each thread of run(), after `realtime` is applied: the place for
  // anything else a thread needs. An exception from either ends the run like one from the cycle.
  std::function<void(ThreadRole)> on_thread_start;
  std::function<void(ThreadRole)> on_thread_exit;
  // praxis-guard (control/guard.hpp): while run() has control of a robot on a wire, a process of
  // praxis' that sends the robot's safe request should this one die or hang. On by default.
  GuardOptions guard{};
};

}  // namespace praxis::control
