#pragma once
// Command sending. MotorCommandsCollector picks the selected motion's body command, lets the head
// motion take the head joints, and makes the result safe — the NaN guard, position, velocity,
// torque and gain limits, a rate limit on stiff targets, and joint modes the backend cannot send —
// into one JointCommand. It is the only command guard: everything that leaves the process passed it.
// CommandsSender turns the selection into the robot's requests (modes, walking, head, kick) and
// into what is actuated; the runtime hands both to the backend after the cycle.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <variant>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/graph/named.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/head.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/ports.hpp"
#include "praxis/motion/registry.hpp"

namespace praxis::motion {

struct CollectorOptions {
  double max_kp = 1000.0;
  double max_kd = 100.0;
  double max_target_rate = 10.0;  // rad/s: how fast a stiff joint's target may move
  // Whether max_target_rate applies to the user's controller's targets (USER_CTRL) too. Set by
  // RobotController from the controller's limits_target_rate (control/user_controller.hpp): a
  // trained policy sends its targets as computed, as its authors' loops do.
  bool limit_user_control_rate = true;
  double damping_kd = k_default_damping_kd;  // the NaN fallback and joints in an unsupported mode
  // How the NaN fallback and joints in an unsupported mode are made safe: damping, or on a robot
  // that balances itself a hold of the measured pose with the gains in force (set by the runtime
  // from the backend's SafeState).
  SafeState safe_state = SafeState::joint_damping;
};

template <RobotModel M, JointModeSet Supported = k_basic_joint_modes, class List = Motions>
struct MotorCommandsCollector;

// Every motion's body command is an input named by its motion (BodyCommandPort<type, N>), one per
// tag of the list: the table below is indexed by the port's own motion, so no two motions' commands
// can trade places, and a motion without a node writing its port is a graph error naming the port.
template <RobotModel M, JointModeSet Supported, class... Tags>
struct MotorCommandsCollector<M, Supported, motion_list<Tags...>> {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "motor_commands_collector";
  CollectorOptions options;

  void cycle(in<MotionSelectionPort, StatePort<N>, CyclePort, previous<ActuatedCommandPort<N>>, HeadCommandPort,
                BodyCommandPort<Tags::type, N>...>
                 in,
             out<MotorCommandPort<N>, CollectorReportPort> out_ports) {
    const auto& sel = in.template get<MotionSelectionPort>();
    const auto& s = in.template get<StatePort<N>>();
    const auto& info = in.template get<CyclePort>();
    const auto& last = in.template get<previous<ActuatedCommandPort<N>>>();
    const auto& head = in.template get<HeadCommandPort>();
    auto& out = out_ports.template get<MotorCommandPort<N>>();
    auto& report = out_ports.template get<CollectorReportPort>();
    const std::array<const JointCommand<N>*, sizeof...(Tags)> by_type{
        &in.template get<BodyCommandPort<Tags::type, N>>()...};
    const double dt = have_last_ ? std::max(0.0, to_seconds(info.now - last_time_)) : 0.0;
    last_time_ = info.now;
    report = {};
    out = *by_type[static_cast<std::size_t>(sel.current)];
    if constexpr (ModelWithHead<M>) {
      if (head.active) {
        const auto y = static_cast<Eigen::Index>(M::head_yaw_joint);
        const auto p = static_cast<Eigen::Index>(M::head_pitch_joint);
        out.q[y] = head.yaw;
        out.q[p] = head.pitch;
        out.kp[y] = out.kp[p] = head.kp;
        out.kd[y] = out.kd[p] = head.kd;
        out.dq[y] = out.dq[p] = 0.0;
        out.tau_ff[y] = out.tau_ff[p] = 0.0;
        out.mode[M::head_yaw_joint] = out.mode[M::head_pitch_joint] = JointMode::position;
      }
    } else {
      (void)head;
    }
    // Only covered joints count: what a command leaves as `none` is never sent (its values are
    // zeroed below if they are not finite, and do not stop the rest of the command).
    bool covered_finite = true;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      if (out.mode[j] != JointMode::none &&
          !std::isfinite(out.q[i] + out.dq[i] + out.kp[i] + out.kd[i] + out.tau_ff[i])) {
        covered_finite = false;
      }
    }
    const bool fallback = !covered_finite;
    if (fallback) {
      report.fallback_to_damping = true;
      if (options.safe_state == SafeState::hand_back) {
        out = last;
        hold_covered(out, s.q, M::default_kp, M::default_kd);
      } else {
        detail::damped_at<N>(s.q, options.damping_kd, out);
      }
    }
    // The safe replacements (the fallback, a joint in an unsupported mode) are not rate limited:
    // they hold or damp where the joint is, and limiting them would pull the target back toward
    // the command that was refused.
    const bool rate_limit =
        have_last_ && !fallback && (options.limit_user_control_rate || sel.current != MotionType::user_control);
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const auto& spec = M::joints[j];
      if (out.mode[j] == JointMode::none) {
        // Not covered by this command, so never sent: neither clamped nor counted, only kept finite.
        for (auto* v : {&out.q[i], &out.dq[i], &out.kp[i], &out.kd[i], &out.tau_ff[i]}) {
          if (!std::isfinite(*v)) *v = 0.0;
        }
        continue;
      }
      bool replaced = false;
      if (!Supported.contains(out.mode[j])) {
        // Defence in depth: a configuration that asks for such a mode does not compile, but a
        // user's node may still switch a joint at run time.
        ++report.unsupported_modes;
        if (options.safe_state == SafeState::hand_back) {
          out.mode[j] = JointMode::position;
          out.kp[i] = 0.0;  // no stiffness of its own: hold_joint takes the model's gains
          hold_joint(out, j, s.q[i], M::default_kp[j], M::default_kd[j]);
        } else {
          damp_joint(out, j, s.q[i], options.damping_kd);
        }
        replaced = true;
      }
      double q = std::clamp(out.q[i], spec.lower, spec.upper);
      const double dq = std::clamp(out.dq[i], -spec.velocity, spec.velocity);
      const double kp = std::clamp(out.kp[i], 0.0, options.max_kp);
      const double kd = std::clamp(out.kd[i], 0.0, options.max_kd);
      const double tau = std::clamp(out.tau_ff[i], -spec.effort, spec.effort);
      note_clamp(report, spec.name, q, out.q[i], dq, out.dq[i], kp, out.kp[i], kd, out.kd[i], tau, out.tau_ff[i]);
      // A stiff joint's target may not jump: it moves at most max_target_rate from the last one.
      if (rate_limit && !replaced && kp > 0.0 && last.kp[i] > 0.0 && last.mode[j] == JointMode::position &&
          out.mode[j] == JointMode::position) {
        const double step = options.max_target_rate * dt;
        const double limited = std::clamp(q, last.q[i] - step, last.q[i] + step);
        if (limited != q) ++report.rate_limited_joints;
        q = limited;
      }
      out.q[i] = q;
      out.dq[i] = dq;
      out.kp[i] = kp;
      out.kd[i] = kd;
      out.tau_ff[i] = tau;
    }
    have_last_ = true;
  }
  void reset() { have_last_ = false; }

 private:
  // Counts a joint whose sent values differ from the asked ones, and notes the first of them.
  static void note_clamp(CollectorReport& report, std::string_view joint, double q, double asked_q, double dq,
                         double asked_dq, double kp, double asked_kp, double kd, double asked_kd, double tau,
                         double asked_tau) noexcept {
    using Field = ClampNote::Field;
    ClampNote note{joint, Field::q, asked_q, q};
    const bool stiff_target = q != asked_q && kp > 0.0;
    if (stiff_target) {
      // noted as it is
    } else if (dq != asked_dq) {
      note = {joint, Field::dq, asked_dq, dq};
    } else if (kp != asked_kp) {
      note = {joint, Field::kp, asked_kp, kp};
    } else if (kd != asked_kd) {
      note = {joint, Field::kd, asked_kd, kd};
    } else if (tau != asked_tau) {
      note = {joint, Field::tau, asked_tau, tau};
    } else {
      return;
    }
    if (report.clamped_joints < CollectorReport::k_notes) report.clamps[report.clamped_joints] = note;
    ++report.clamped_joints;
  }

  TimePoint last_time_{};
  bool have_last_ = false;
};

// The mode a robot with its own motion controller should be in for a motion (its tag's robot_mode).
template <Capabilities C>
[[nodiscard]] constexpr RobotMode mode_for(MotionType t) {
  if constexpr (!C.modes) {
    (void)t;
    return RobotMode::unknown;
  } else {
    switch (Motions::robot_modes[static_cast<std::size_t>(t)]) {
      case RobotModeFor::damping: return RobotMode::damping;
      case RobotModeFor::prepare: return RobotMode::prepare;
      case RobotModeFor::locomotion_else_user: return C.locomotion ? RobotMode::locomotion : RobotMode::user;
      case RobotModeFor::user: return RobotMode::user;
    }
    return RobotMode::user;
  }
}

// Whether the robot's own controller carries out a motion (then no joint command is sent): its
// tag's run_by_robot against what the robot offers.
template <Capabilities C>
[[nodiscard]] constexpr bool backend_runs(MotionType t) {
  switch (Motions::run_by_robot[static_cast<std::size_t>(t)]) {
    case RunBy::praxis: return false;
    case RunBy::modes: return C.modes;
    case RunBy::locomotion: return C.locomotion;
    case RunBy::locomotion_with_modes: return C.locomotion && C.modes;
  }
  return false;
}

// The LED colour when no node of the user's sets one: none (the robot keeps its own).
struct NoLeds {
  static constexpr std::string_view name = "no_leds";
  using outputs = ports<LedCommandPort>;
  void cycle(LedRequest& out) const { out = {}; }
};

// What the robot is asked for and what is actuated. Until the behaviour sent a first command, and
// until the robot's first state arrived, a robot with its own modes is asked for nothing
// (requests.any stays false): a state a few milliseconds late at start-up must not ask a robot
// standing by itself for damping, which the selection's "no state" rule would.
template <RobotModel M, Capabilities C>
struct CommandsSender {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "commands_sender";
  using inputs = ports<MotorCommandPort<N>, MotionSelectionPort, MotionCommandPort, LocomotionRequestPort,
                       HeadCommandPort, LedCommandPort, RobotStatusPort, SafetyPort>;
  using outputs = ports<ActuatedCommandPort<N>, RobotRequestsPort>;
  // What the damping motion asks a robot with modes for (the runtime sets the backend's safe_mode:
  // damping, or PdStand on a Fourier robot whose damping mode would drop it).
  RobotMode safe_mode = RobotMode::damping;

  void cycle(const JointCommand<N>& cmd, const MotionSelection& sel, const MotionCommand& command,
             const LocomotionRequest& walk, const HeadCommand& head, const LedRequest& leds,
             const RobotStatus& status, const SafetyStatus& safety, JointCommand<N>& actuated,
             RobotRequests& requests) {
    actuated = cmd;
    if (backend_runs<C>(sel.current)) actuated.mode.fill(JointMode::none);
    requests.any = sel.commanded && !safety.no_state && (C.modes || C.locomotion || C.head || C.kick);
    if (!requests.any) return;
    requests.motion = sel.current;
    requests.mode = sel.current == MotionType::damping && C.modes ? safe_mode : mode_for<C>(sel.current);
    if (sel.current == MotionType::walk) {
      requests.locomotion = walk;
    } else {
      requests.locomotion = LocomotionRequest{backend_runs<C>(sel.current), 0.0, 0.0, 0.0};  // stand: hold still
    }
    // A robot that reports itself upright has nothing to get up from (it would refuse the call).
    if (sel.changed && sel.current == MotionType::stand_up && C.get_up && status.posture != Posture::upright) {
      ++requests.get_up;
    }
    requests.head.active = C.head && head.active;
    requests.head.yaw = head.yaw;
    requests.head.pitch = head.pitch;
    requests.leds = C.leds ? leds : LedRequest{};
    requests.kick = {};
    if (const auto* k = std::get_if<command::VisualKick>(&command); k != nullptr && sel.current == MotionType::visual_kick) {
      requests.kick = static_cast<const Kick&>(*k);
    }
  }
};

}  // namespace praxis::motion
