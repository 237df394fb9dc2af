#pragma once
// Head motion: targets from the command's HeadMotion, with a per-axis rate limit and pitch limits
// that depend on yaw (a robot looking sideways can pitch less before seeing its own shoulder).
// Models with a head declare `static constexpr std::size_t head_yaw_joint, head_pitch_joint`;
// on other robots the node is inactive. Pitch is positive looking down.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string_view>

#include "praxis/core/ports.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::motion {

template <class M>
concept ModelWithHead = RobotModel<M> && requires {
  { M::head_yaw_joint } -> std::convertible_to<std::size_t>;
  { M::head_pitch_joint } -> std::convertible_to<std::size_t>;
};

struct HeadOptions {
  double max_velocity = 3.0;        // rad/s per axis
  double center_pitch = 0.3;        // rad, for HeadMotion::center
  double camera_height = 0.5;       // m above the robot frame origin, for look_at_point
  double inner_min_pitch = -0.6, inner_max_pitch = 0.6;  // at yaw 0
  double outer_min_pitch = -0.3, outer_max_pitch = 0.4;  // at |yaw| >= outer_yaw
  double outer_yaw = 1.5;
  double max_yaw = 1.5;
  double kp = 10.0, kd = 1.0;
};

// Pitch limits at a given yaw: a cosine blend from the inner to the outer band.
[[nodiscard]] inline std::pair<double, double> pitch_limits(double yaw, const HeadOptions& o) {
  const double w = 0.5 - 0.5 * std::cos(std::min(std::abs(yaw) / o.outer_yaw, 1.0) * 3.14159265358979323846);
  return {o.inner_min_pitch + w * (o.outer_min_pitch - o.inner_min_pitch),
          o.inner_max_pitch + w * (o.outer_max_pitch - o.inner_max_pitch)};
}

template <RobotModel M>
struct HeadMotionNode {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "head_motion";
  using inputs = ports<MotionSelectionPort, MotionCommandPort, StatePort<N>, CyclePort>;
  using outputs = ports<HeadCommandPort>;
  HeadOptions options;

  void cycle(const MotionSelection& sel, const MotionCommand& command, const RobotState<N>& s,
             const CycleInfo& info, HeadCommand& out) {
    const double dt = have_time_ ? std::max(0.0, to_seconds(info.now - last_time_)) : 0.0;
    last_time_ = info.now;
    have_time_ = true;
    out = {};
    if constexpr (ModelWithHead<M>) {
      const auto head = head_of(command);
      const bool allowed = sel.current == MotionType::stand || sel.current == MotionType::walk ||
                           sel.current == MotionType::visual_kick || sel.current == MotionType::prepare;
      const double measured_yaw = s.q[static_cast<Eigen::Index>(M::head_yaw_joint)];
      const double measured_pitch = s.q[static_cast<Eigen::Index>(M::head_pitch_joint)];
      if (!allowed || !head) {
        yaw_ = measured_yaw;  // the next head motion starts from where the head is
        pitch_ = measured_pitch;
        return;
      }
      out.active = true;
      if (head->kind == HeadMotion::Kind::unstiff) {
        out.yaw = yaw_ = measured_yaw;
        out.pitch = pitch_ = measured_pitch;
        return;  // kp = kd = 0
      }
      double yaw = 0.0, pitch = 0.0;
      switch (head->kind) {
        case HeadMotion::Kind::zero_angles: break;
        case HeadMotion::Kind::center: pitch = options.center_pitch; break;
        case HeadMotion::Kind::look_at_angles:
          yaw = head->yaw;
          pitch = head->pitch;
          break;
        case HeadMotion::Kind::look_at_point: {
          const auto& p = head->point;
          yaw = std::atan2(p.y(), p.x());
          pitch = std::atan2(options.camera_height - p.z(), std::hypot(p.x(), p.y()));
          break;
        }
        case HeadMotion::Kind::unstiff: break;
      }
      yaw = std::clamp(yaw, -options.max_yaw, options.max_yaw);
      const double step = options.max_velocity * dt;
      yaw_ += std::clamp(yaw - yaw_, -step, step);
      const auto [lo, hi] = pitch_limits(yaw_, options);
      pitch = std::clamp(pitch, lo, hi);
      pitch_ += std::clamp(pitch - pitch_, -step, step);
      pitch_ = std::clamp(pitch_, lo, hi);
      out.yaw = yaw_;
      out.pitch = pitch_;
      out.kp = options.kp;
      out.kd = options.kd;
    }
  }

 private:
  double yaw_ = 0.0, pitch_ = 0.0;
  TimePoint last_time_{};
  bool have_time_ = false;
};

}  // namespace praxis::motion
