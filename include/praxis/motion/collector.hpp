#pragma once
// Command sending: MotorCommandsCollector picks the selected motion's body command, lets the head
// motion take the head joints, and makes the result safe — position limits, a rate limit on
// targets, gain caps and the NaN guard — into one JointCommand. CommandsSender<Backend> hands it to
// the robot and records what was actuated (what Dispatching starts from).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string_view>

#include "praxis/control/nodes.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/head.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::motion {

struct CollectorOptions {
  double max_kp = 1000.0;
  double max_kd = 100.0;
  double max_target_rate = 10.0;  // rad/s: how fast a stiff joint's target may move
  double damping_kd = 2.0;        // the NaN fallback
};

template <RobotModel M>
struct MotorCommandsCollector {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "motor_commands_collector";
  using inputs =
      ports<MotionSelectionPort, control::StatePort<N>, control::CyclePort, previous<ActuatedCommandPort<N>>,
            HeadCommandPort, BodyCommandPort<MotionType::damping, N>, BodyCommandPort<MotionType::prepare, N>,
            BodyCommandPort<MotionType::stand, N>, BodyCommandPort<MotionType::stand_up, N>,
            BodyCommandPort<MotionType::walk, N>, BodyCommandPort<MotionType::visual_kick, N>,
            BodyCommandPort<MotionType::script, N>, BodyCommandPort<MotionType::dispatching, N>,
            BodyCommandPort<MotionType::fall_protection, N>>;
  using outputs = ports<MotorCommandPort<N>, CollectorReportPort>;
  CollectorOptions options;

  void cycle(const MotionSelection& sel, const RobotState<N>& s, const control::CycleInfo& info,
             const JointCommand<N>& last, const HeadCommand& head, const JointCommand<N>& damping,
             const JointCommand<N>& prepare, const JointCommand<N>& stand, const JointCommand<N>& stand_up,
             const JointCommand<N>& walk, const JointCommand<N>& visual_kick, const JointCommand<N>& script,
             const JointCommand<N>& dispatching, const JointCommand<N>& fall_protection, JointCommand<N>& out,
             CollectorReport& report) {
    const JointCommand<N>* const by_type[k_motion_types] = {&damping, &prepare,     &stand,
                                                             &stand_up, &walk,       &visual_kick,
                                                             &script,   &dispatching, &fall_protection};
    const double dt = have_time_ ? std::max(0.0, to_seconds(info.now - last_time_)) : 0.0;
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
        out.enable[M::head_yaw_joint] = out.enable[M::head_pitch_joint] = true;
      }
    } else {
      (void)head;
    }
    if (!out.all_finite()) {
      report.fallback_to_damping = true;
      const JointVector<N> where = s.q.allFinite() ? s.q : JointVector<N>(JointVector<N>::Zero());
      detail::damped_at<N>(where, options.damping_kd, out);
    }
    const bool rate_limit = have_time_ && have_last_;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const auto& spec = M::joints[j];
      double q = std::clamp(out.q[i], spec.lower, spec.upper);
      const double kp = std::clamp(out.kp[i], 0.0, options.max_kp);
      const double kd = std::clamp(out.kd[i], 0.0, options.max_kd);
      const double tau = std::clamp(out.tau_ff[i], -spec.effort, spec.effort);
      if (q != out.q[i] || kp != out.kp[i] || kd != out.kd[i] || tau != out.tau_ff[i]) ++report.clamped_joints;
      // A stiff joint's target may not jump: it moves at most max_target_rate from the last one.
      if (rate_limit && kp > 0.0 && last.kp[i] > 0.0 && last.enable[j] && out.enable[j]) {
        const double step = options.max_target_rate * dt;
        const double limited = std::clamp(q, last.q[i] - step, last.q[i] + step);
        if (limited != q) ++report.rate_limited_joints;
        q = limited;
      }
      out.q[i] = q;
      out.kp[i] = kp;
      out.kd[i] = kd;
      out.tau_ff[i] = tau;
    }
    have_time_ = true;
    have_last_ = true;
  }

 private:
  TimePoint last_time_{};
  bool have_time_ = false;
  bool have_last_ = false;
};

// The mode a robot with its own motion controller should be in for a motion (none: joint control).
template <Backend B>
[[nodiscard]] constexpr std::optional<RobotModeRequest> mode_for(MotionType t) {
  if constexpr (HasModes<B>) {
    switch (t) {
      case MotionType::damping: return RobotModeRequest::damping;
      case MotionType::prepare: return RobotModeRequest::prepare;
      case MotionType::stand_up: return RobotModeRequest::stand_up;
      case MotionType::stand:
      case MotionType::walk:
      case MotionType::visual_kick:
        if constexpr (HasLocomotion<B>) return RobotModeRequest::locomotion;
        return std::nullopt;
      default: return std::nullopt;
    }
  } else {
    (void)t;
    return std::nullopt;
  }
}

// Whether the robot's own controller carries out a motion (then no joint command is written).
template <Backend B>
[[nodiscard]] constexpr bool backend_runs(MotionType t) {
  if constexpr (HasLocomotion<B>) {
    if (t == MotionType::walk) return true;
    if (HasModes<B> && (t == MotionType::stand || t == MotionType::visual_kick)) return true;
  }
  if constexpr (HasModes<B>) {
    if (t == MotionType::prepare || t == MotionType::stand_up) return true;
  }
  return false;
}

// Writes the collected command to the backend — or, for motions the robot's own controller carries
// out, the mode request (once per change) and the walking request — and records what was actuated.
template <Backend B>
struct CommandsSender {
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr std::string_view name = "commands_sender";
  using inputs = ports<MotorCommandPort<N>, MotionSelectionPort, LocomotionRequestPort, control::CyclePort>;
  using outputs = ports<ActuatedCommandPort<N>>;
  B* backend = nullptr;

  void cycle(const JointCommand<N>& cmd, const MotionSelection& sel, const LocomotionRequest& walk,
             const control::CycleInfo& info, JointCommand<N>& actuated) {
    if constexpr (HasModes<B>) {
      const auto mode = mode_for<B>(sel.current);
      if (mode && (!have_mode_ || *mode != mode_)) {
        backend->request_mode(*mode, info.now);
        mode_ = *mode;
        have_mode_ = true;
      } else if (!mode) {
        have_mode_ = false;  // joint control: ask again when a mode is wanted next
      }
    }
    if constexpr (HasLocomotion<B>) {
      if (sel.current == MotionType::walk) {
        backend->walk(walk, info.now);
        walking_ = true;
      } else if (backend_runs<B>(sel.current)) {
        if (sel.current == MotionType::stand || sel.current == MotionType::visual_kick) {
          backend->walk(LocomotionRequest{true, 0.0, 0.0, 0.0}, info.now);  // stand: zero velocity
        }
        walking_ = false;
      } else if (walking_) {
        backend->walk(LocomotionRequest{}, info.now);  // stop the robot's own walking
        walking_ = false;
      }
    } else {
      (void)walk;
    }
    if (!backend_runs<B>(sel.current)) backend->write(cmd, info.now);
    actuated = cmd;
  }

 private:
  bool walking_ = false;
  bool have_mode_ = false;
  RobotModeRequest mode_ = RobotModeRequest::damping;
};

}  // namespace praxis::motion
