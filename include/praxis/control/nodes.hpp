#pragma once
// The controller runtime as graph nodes. Selection (the state machine), execution (damping, stand,
// control motions, the user controller) and command sending (the guard) are ordinary nodes; the
// pipeline sorts them:
//
//   StateSource -> GamepadReader -> SafetyMonitor -> StateMachineNode -> UserControllerNode
//     -> DampingMotion / StandMotion / CtrlMotion -> CommandGuard
//
// Every node is allocation-free; the only side channel is StateSource's pointer to the input the
// controller fills before each cycle.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/control/state_machine.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/graph/port.hpp"

namespace praxis::control {

// ---- data carried by the ports ----

struct CycleInfo {
  TimePoint now{};
  std::uint64_t cycle = 0;
  bool have_state = false;  // false until the backend delivered a first state
};

struct SafetyStatus {
  bool no_state = true;  // nothing received yet
  bool stale = false;    // newest state older than the timeout
  bool invalid = false;  // NaN or infinity in the state
  bool tilted = false;   // projected gravity z above the threshold
  Duration age{};
};

enum class TransitionCause : std::uint8_t {
  none,
  gamepad_stand,  // R2
  gamepad_ctrl,   // A
  gamepad_stop,   // L2 + B
  tilt,           // termination check in CTRL
  stale_state,
  invalid_state,
  guard,          // the command guard had to replace a non-finite command
};

[[nodiscard]] constexpr std::string_view to_string(TransitionCause c) {
  switch (c) {
    case TransitionCause::none: return "none";
    case TransitionCause::gamepad_stand: return "R2";
    case TransitionCause::gamepad_ctrl: return "A";
    case TransitionCause::gamepad_stop: return "L2+B";
    case TransitionCause::tilt: return "tilt (projected gravity)";
    case TransitionCause::stale_state: return "stale state";
    case TransitionCause::invalid_state: return "invalid state (NaN)";
    case TransitionCause::guard: return "command guard";
  }
  return "?";
}

struct ControlMode {
  ControlState state = ControlState::damping;
  ControlState previous = ControlState::damping;
  double pd_ratio = 0.1;
  bool changed = false;
  TransitionCause cause = TransitionCause::none;
};

template <std::size_t N>
struct ControllerTargets {
  JointVector<N> init_pos = JointVector<N>::Zero();
  JointVector<N> jpos_des = JointVector<N>::Zero();
  double kp = 0.0;
  double kd = 0.0;
  bool ran = false;  // the user controller ran this cycle
};

struct GuardReport {
  bool fallback_to_damping = false;  // the selected command was not finite
  std::uint32_t clamped_joints = 0;  // joints whose target, gains or torque were clamped
};

// ---- ports ----

template <std::size_t N>
struct StatePort : port<"robot_state", RobotState<N>> {};
struct CyclePort : port<"cycle", CycleInfo> {};
struct GamepadPort : port<"gamepad", Gamepad> {};
struct SafetyPort : port<"safety", SafetyStatus> {};
struct ModePort : port<"control_mode", ControlMode> {};
template <std::size_t N>
struct TargetsPort : port<"controller_targets", ControllerTargets<N>> {};
template <std::size_t N>
struct DampingCommandPort : port<"damping_command", JointCommand<N>> {};
template <std::size_t N>
struct StandCommandPort : port<"stand_command", JointCommand<N>> {};
template <std::size_t N>
struct CtrlCommandPort : port<"ctrl_command", JointCommand<N>> {};
template <std::size_t N>
struct CommandPort : port<"joint_command", JointCommand<N>> {};
struct GuardPort : port<"guard_report", GuardReport> {};

// ---- nodes ----

template <std::size_t N>
struct CycleInput {
  RobotState<N> state;
  CycleInfo info;
};

// Hands the state the controller read from the backend to the graph.
template <std::size_t N>
struct StateSource {
  static constexpr std::string_view name = "state_source";
  using outputs = ports<StatePort<N>, CyclePort>;
  const CycleInput<N>* input = nullptr;
  void cycle(RobotState<N>& state, CycleInfo& info) const {
    state = input->state;
    info = input->info;
  }
};

template <std::size_t N>
struct GamepadReader {
  static constexpr std::string_view name = "gamepad";
  using inputs = ports<StatePort<N>>;
  using outputs = ports<GamepadPort>;
  void cycle(const RobotState<N>& state, Gamepad& pad) { pad.update(state.gamepad); }
};

struct SafetyOptions {
  Duration stale_timeout = std::chrono::milliseconds(100);
  double tilt_threshold = 0.0;  // projected gravity z above this is "tilted" (0 = past 90 degrees)
};

template <std::size_t N>
struct SafetyMonitor {
  static constexpr std::string_view name = "safety_monitor";
  using inputs = ports<StatePort<N>, CyclePort>;
  using outputs = ports<SafetyPort>;
  SafetyOptions options;
  void cycle(const RobotState<N>& state, const CycleInfo& info, SafetyStatus& out) const {
    out.no_state = !info.have_state;
    out.age = info.have_state ? info.now - state.stamp : Duration::zero();
    out.stale = info.have_state && out.age > options.stale_timeout;
    out.invalid = info.have_state && !state.all_finite();
    out.tilted = info.have_state && !out.invalid && state.projected_gravity.z() > options.tilt_threshold;
  }
};

// Motion selection: the deployment framework's state machine, plus the safety rules.
struct StateMachineNode {
  static constexpr std::string_view name = "state_machine";
  using inputs = ports<GamepadPort, SafetyPort, previous<GuardPort>>;
  using outputs = ports<ModePort>;
  StateMachine initial;  // the configuration reset() returns to
  StateMachine machine = initial;

  void cycle(const Gamepad& pad, const SafetyStatus& safety, const GuardReport& last_guard,
             ControlMode& mode) {
    const auto before = machine.state;
    auto cause = TransitionCause::none;
    // Gamepad first, in the framework's order: R2 -> stand, A -> ctrl, L2 + B -> stop.
    if (pad.R2.on_press && machine.stand()) cause = TransitionCause::gamepad_stand;
    if (pad.A.on_press && machine.ctrl()) cause = TransitionCause::gamepad_ctrl;
    if (pad.L2.pressed && pad.B.pressed) {
      machine.stop();
      cause = TransitionCause::gamepad_stop;
    }
    // Safety overrides whatever the gamepad asked for in this cycle.
    if (safety.no_state || safety.stale || safety.invalid) {
      machine.stop();
      cause = safety.invalid ? TransitionCause::invalid_state : TransitionCause::stale_state;
    } else if (machine.state == ControlState::ctrl && safety.tilted) {
      machine.stop();
      cause = TransitionCause::tilt;
    }
    if (last_guard.fallback_to_damping && machine.state != ControlState::damping) {
      machine.stop();
      cause = TransitionCause::guard;
    }
    if (machine.state == ControlState::stand) {
      if (pad.R2.pressed) machine.standing(true);
      if (pad.R1.pressed) machine.standing(false);
    }
    mode.previous = before;
    mode.state = machine.state;
    mode.pd_ratio = machine.pd_ratio;
    mode.changed = before != machine.state;
    mode.cause = mode.changed ? cause : TransitionCause::none;
  }
  void reset() { machine = initial; }
};

// Runs USER_CTRL in STAND (computed, not sent, like the framework) and in CTRL; resets it on every
// entry into either state.
template <class Ctrl, std::size_t N>
struct UserControllerNode {
  static constexpr std::string_view name = "user_controller";
  using inputs = ports<ModePort, StatePort<N>, GamepadPort>;
  using outputs = ports<TargetsPort<N>>;
  ControllerAdapter<Ctrl, N> adapter;

  void cycle(const ControlMode& mode, const RobotState<N>& state, const Gamepad& pad,
             ControllerTargets<N>& out) {
    const bool active = mode.state == ControlState::stand || mode.state == ControlState::ctrl;
    if (active) {
      if (mode.changed) adapter.reset(state, pad);
      adapter.step(state, pad);
    }
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      out.init_pos[i] = adapter.init_pos(j);
      out.jpos_des[i] = adapter.jpos_des(j);
    }
    out.kp = adapter.kp();
    out.kd = adapter.kd();
    out.ran = active;
  }
};

// The damping command: no stiffness, kd = damping_kd, hold init_pos. Shared by the DAMPING motion
// and the guard's fallback.
template <std::size_t N>
void make_damping_command(const ControllerTargets<N>& t, double damping_kd, JointCommand<N>& cmd) {
  set_position_command(cmd, t.init_pos, 0.0, damping_kd);
}

// DAMPING.
template <std::size_t N>
struct DampingMotion {
  static constexpr std::string_view name = "damping";
  using inputs = ports<ModePort, TargetsPort<N>>;
  using outputs = ports<DampingCommandPort<N>>;
  double damping_kd = 2.0;
  void cycle(const ControlMode& mode, const ControllerTargets<N>& t, JointCommand<N>& cmd) const {
    if (mode.state != ControlState::damping) return;  // not selected: leave early
    make_damping_command(t, damping_kd, cmd);
  }
};

// STAND: toward init_pos with kp * pd_ratio and kd * pd_ratio.
template <std::size_t N>
struct StandMotion {
  static constexpr std::string_view name = "stand";
  using inputs = ports<ModePort, TargetsPort<N>>;
  using outputs = ports<StandCommandPort<N>>;
  void cycle(const ControlMode& mode, const ControllerTargets<N>& t, JointCommand<N>& cmd) const {
    if (mode.state != ControlState::stand) return;  // not selected: leave early
    set_position_command(cmd, t.init_pos, t.kp * mode.pd_ratio, t.kd * mode.pd_ratio);
  }
};

// CTRL: the user controller's jpos_des with its kp and kd.
template <std::size_t N>
struct CtrlMotion {
  static constexpr std::string_view name = "ctrl";
  using inputs = ports<ModePort, TargetsPort<N>>;
  using outputs = ports<CtrlCommandPort<N>>;
  void cycle(const ControlMode& mode, const ControllerTargets<N>& t, JointCommand<N>& cmd) const {
    if (mode.state != ControlState::ctrl) return;  // not selected: leave early
    set_position_command(cmd, t.jpos_des, t.kp, t.kd);
  }
};

struct GuardOptions {
  double max_kp = 1000.0;  // N m / rad
  double max_kd = 100.0;   // N m s / rad
  double damping_kd = 2.0;  // for the fallback command
};

// Command sending: picks the selected motion's command and makes sure nothing non-finite or out of
// the model's limits leaves the process.
template <RobotModel Model>
struct CommandGuard {
  static constexpr std::size_t N = Model::joint_count;
  static constexpr std::string_view name = "command_guard";
  using inputs = ports<ModePort, TargetsPort<N>, DampingCommandPort<N>, StandCommandPort<N>,
                       CtrlCommandPort<N>>;
  using outputs = ports<CommandPort<N>, GuardPort>;
  GuardOptions options;

  void cycle(const ControlMode& mode, const ControllerTargets<N>& targets,
             const JointCommand<N>& damping_motion, const JointCommand<N>& stand,
             const JointCommand<N>& ctrl, JointCommand<N>& out, GuardReport& report) {
    const JointCommand<N>& selected = mode.state == ControlState::ctrl    ? ctrl
                                      : mode.state == ControlState::stand ? stand
                                                                          : damping_motion;
    report = {};
    const JointCommand<N>* source = &selected;
    if (!selected.all_finite()) {
      report.fallback_to_damping = true;
      make_damping_command(targets, options.damping_kd, fallback_);
      source = &fallback_;
    }
    const auto& damping = fallback_;
    // Even init_pos can be broken (then damping itself is not finite): send pure damping.
    const bool broken = report.fallback_to_damping && !damping.all_finite();
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const auto& spec = Model::joints[j];
      const double q_in = broken ? 0.0 : source->q[i];
      const double kp_in = broken ? 0.0 : source->kp[i];
      const double kd_in = broken ? damping.kd[i] : source->kd[i];
      const double tau_in = broken ? 0.0 : source->tau_ff[i];
      const double dq_in = broken ? 0.0 : source->dq[i];
      out.q[i] = std::clamp(q_in, spec.lower, spec.upper);
      out.kp[i] = std::clamp(kp_in, 0.0, options.max_kp);
      out.kd[i] = std::clamp(std::isfinite(kd_in) ? kd_in : 0.0, 0.0, options.max_kd);
      out.tau_ff[i] = std::clamp(tau_in, -spec.effort, spec.effort);
      out.dq[i] = std::clamp(dq_in, -spec.velocity, spec.velocity);
      if (!broken && (out.q[i] != q_in || out.kp[i] != kp_in || out.kd[i] != kd_in ||
                      out.tau_ff[i] != tau_in || out.dq[i] != dq_in)) {
        ++report.clamped_joints;
      }
    }
    out.enable = source->enable;
  }

 private:
  JointCommand<N> fallback_;
};

}  // namespace praxis::control
