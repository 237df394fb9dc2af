#pragma once
// Head motion: targets from the command's HeadMotion, with a per-axis rate limit and pitch limits
// that depend on yaw (a robot looking sideways can pitch less before seeing its own shoulder).
// Models with a head declare `static constexpr std::size_t head_yaw_joint, head_pitch_joint`;
// on other robots the node is inactive. Pitch is positive looking down.
//
// The searching modes are functions of the time since the head mode began (no random state), so
// a replay of the same inputs moves the head the same way:
//   look_around            yaw = A sin(2 pi t / T), looking ahead first, then left, then right;
//   search_for_lost_ball   the same with a wider yaw and a lower (larger) pitch;
//   look_left_and_right_of the target's direction plus an offset, left for the first half of each
//                          period and right for the second, at the pitch that looks at the target.
// The rate limit below turns the jumps of look_left_and_right_of into moves at max_velocity.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string_view>

#include "praxis/core/clock.hpp"
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

// One searching sweep of the head: yaw between -yaw_amplitude and +yaw_amplitude over `period`.
struct HeadSweep {
  double yaw_amplitude = 1.0;  // rad
  double pitch = 0.3;          // rad
  Duration period = std::chrono::seconds(4);
};

struct HeadOptions {
  double max_velocity = 3.0;        // rad/s per axis
  double center_pitch = 0.3;        // rad, for HeadMotion::center
  double camera_height = 0.5;       // m above the robot frame origin, for look_at
  // Added to the pitch to put the target in the top (+) or bottom (-) of the image: pitching down
  // moves what the camera sees up in the image.
  double image_region_pitch = 0.2;  // rad
  HeadSweep look_around{1.0, 0.3, std::chrono::seconds(4)};
  HeadSweep search_for_lost_ball{1.4, 0.5, std::chrono::seconds(5)};
  double look_left_and_right_yaw = 0.5;  // rad either side of the target
  Duration look_left_and_right_period = std::chrono::seconds(2);
  double inner_min_pitch = -0.6, inner_max_pitch = 0.6;  // at yaw 0
  double outer_min_pitch = -0.3, outer_max_pitch = 0.4;  // at |yaw| >= outer_yaw
  double outer_yaw = 1.5;
  double max_yaw = 1.5;
  double kp = 10.0, kd = 1.0;
};

namespace detail {

[[nodiscard]] inline double image_region_offset(ImageRegion r, const HeadOptions& o) {
  switch (r) {
    case ImageRegion::top: return o.image_region_pitch;
    case ImageRegion::bottom: return -o.image_region_pitch;
    case ImageRegion::center: break;
  }
  return 0.0;
}
// Seconds into a repeating period, in [0, period).
[[nodiscard]] inline double phase_seconds(Duration elapsed, Duration period) {
  const double p = to_seconds(period);
  return p > 0.0 ? std::fmod(std::max(0.0, to_seconds(elapsed)), p) : 0.0;
}
[[nodiscard]] inline double sweep_yaw(const HeadSweep& sweep, Duration elapsed) {
  const double p = to_seconds(sweep.period);
  return p > 0.0 ? sweep.yaw_amplitude * std::sin(2.0 * std::numbers::pi * phase_seconds(elapsed, sweep.period) / p) : 0.0;
}
}  // namespace detail

// Pitch limits at a given yaw: a cosine blend from the inner to the outer band.
[[nodiscard]] inline std::pair<double, double> pitch_limits(double yaw, const HeadOptions& o) {
  const double w = 0.5 - 0.5 * std::cos(std::min(std::abs(yaw) / o.outer_yaw, 1.0) * std::numbers::pi);
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
        was_active_ = false;
        return;
      }
      out.active = true;
      if (!was_active_ || head->kind != kind_) mode_start_ = info.now;  // searching modes start over
      was_active_ = true;
      kind_ = head->kind;
      const Duration elapsed = info.now - mode_start_;
      if (head->kind == HeadMotion::Kind::unstiff) {
        out.yaw = yaw_ = measured_yaw;
        out.pitch = pitch_ = measured_pitch;
        return;  // kp = kd = 0
      }
      const auto look_at = [&](const Eigen::Vector3d& p, double& yaw, double& pitch) {
        yaw = std::atan2(p.y(), p.x());
        pitch = std::atan2(options.camera_height - p.z(), std::hypot(p.x(), p.y()));
      };
      double yaw = 0.0, pitch = 0.0;
      switch (head->kind) {
        case HeadMotion::Kind::zero_angles: break;
        case HeadMotion::Kind::center:
          pitch = options.center_pitch + detail::image_region_offset(head->image_region_target, options);
          break;
        case HeadMotion::Kind::look_around:
          yaw = detail::sweep_yaw(options.look_around, elapsed);
          pitch = options.look_around.pitch;
          break;
        case HeadMotion::Kind::search_for_lost_ball:
          yaw = detail::sweep_yaw(options.search_for_lost_ball, elapsed);
          pitch = options.search_for_lost_ball.pitch;
          break;
        case HeadMotion::Kind::look_at:
          look_at(head->target, yaw, pitch);
          pitch += detail::image_region_offset(head->image_region_target, options);
          break;
        case HeadMotion::Kind::look_left_and_right_of: {
          look_at(head->target, yaw, pitch);
          const bool left = detail::phase_seconds(elapsed, options.look_left_and_right_period) <
                            0.5 * to_seconds(options.look_left_and_right_period);
          yaw += left ? options.look_left_and_right_yaw : -options.look_left_and_right_yaw;
          break;
        }
        case HeadMotion::Kind::look_at_angles:
          yaw = head->yaw;
          pitch = head->pitch;
          break;
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
  TimePoint mode_start_{};
  HeadMotion::Kind kind_ = HeadMotion::Kind::center;
  bool was_active_ = false;
  bool have_time_ = false;
};

}  // namespace praxis::motion
