#pragma once
// Walking step computation: a Walk command becomes a velocity request (forward, left, turn) for
// whatever walks the robot — the robot's own locomotion or a walking node of the user's. It is the
// step the Booster path sends with move_robot; WalkWithVelocity passes through unchanged.
//
// For a Walk:
//   velocity    = unit direction of the path at the robot × speed × deceleration, where
//                 deceleration = clamp(path length / deceleration_distance, 0, 1);
//   heading     = the direction of travel (align_with_path, unspecified), the given direction
//                 (look_towards) or the direction to the target (look_at);
//   importance  = how much the target orientation counts, from the distance d to the target:
//                 1 within distance_to_be_aligned, a cosine fall to 0 over the next
//                 hybrid_align_distance, 0 beyond;
//   orientation = heading turned towards target_orientation by `importance` (the shorter way);
//   turn        = sin(orientation) × max_alignment_rate.
//
// Choices where the description leaves room:
//   - d is the path length (along the segments), the same distance the deceleration uses: it is
//     how far the robot still has to walk, which is what "close enough to align" is about.
//   - All angles are relative to the robot's current facing (the robot frame), so heading,
//     target_orientation and the blended orientation are errors to turn away; importance 0 keeps
//     the heading, importance 1 gives target_orientation.
//   - A look_towards / look_at heading within the mode's tolerance counts as reached (heading 0),
//     so the robot does not keep correcting small errors while it walks.
//   - With no path to walk (no waypoint away from the robot) the velocity is zero and the heading
//     for align_with_path is the current facing.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <variant>

#include "praxis/core/locomotion.hpp"
#include "praxis/motion/motion_command.hpp"

namespace praxis::motion {

using praxis::WalkOptions;  // core/locomotion.hpp

namespace detail {

// The same angle in (-pi, pi].
[[nodiscard]] inline double wrap_angle(double a) {
  a = std::remainder(a, 2.0 * std::numbers::pi);
  return a <= -std::numbers::pi ? a + 2.0 * std::numbers::pi : a;
}
}  // namespace detail

// From angle `from` towards `to` by fraction t in [0, 1], along the shorter arc of the circle.
[[nodiscard]] inline double slerp_angle(double from, double to, double t) {
  return detail::wrap_angle(from + std::clamp(t, 0.0, 1.0) * detail::wrap_angle(to - from));
}

// How much the target orientation counts at `distance` from the target.
[[nodiscard]] inline double alignment_importance(double distance, double distance_to_be_aligned,
                                                 double hybrid_align_distance) {
  const double beyond = distance - distance_to_be_aligned;
  if (beyond <= 0.0) return 1.0;
  if (beyond >= hybrid_align_distance) return 0.0;
  return 0.5 * (1.0 + std::cos(std::numbers::pi * beyond / hybrid_align_distance));
}

// The direction the orientation mode asks to face while walking (rad, robot frame).
[[nodiscard]] inline double walk_heading(const command::Walk& w) {
  const auto within_tolerance = [&](double a) { return std::abs(a) <= w.orientation_mode.tolerance ? 0.0 : a; };
  switch (w.orientation_mode.kind) {
    case OrientationMode::Kind::look_towards: return within_tolerance(detail::wrap_angle(w.orientation_mode.direction));
    case OrientationMode::Kind::look_at: {
      const Vector2& t = w.orientation_mode.target;
      return t.norm() > 1e-9 ? within_tolerance(std::atan2(t.y(), t.x())) : 0.0;
    }
    case OrientationMode::Kind::unspecified:
    case OrientationMode::Kind::align_with_path: break;
  }
  const auto travel = w.path.direction_at_robot();
  return travel ? std::atan2(travel->y(), travel->x()) : 0.0;
}

[[nodiscard]] inline LocomotionRequest walk_step(const command::Walk& w, const WalkOptions& o) {
  LocomotionRequest r;
  r.active = true;
  const double length = w.path.length();
  if (const auto forward = w.path.direction_at_robot()) {
    const double deceleration =
        o.deceleration_distance > 0.0 ? std::clamp(length / o.deceleration_distance, 0.0, 1.0) : 1.0;
    const Vector2 v = *forward * w.speed * deceleration;
    r.vx = v.x();
    r.vy = v.y();
  }
  const double importance = alignment_importance(length, w.distance_to_be_aligned, o.hybrid_align_distance);
  const double orientation = slerp_angle(walk_heading(w), w.target_orientation, importance);
  r.wz = std::sin(orientation) * o.max_alignment_rate;
  return r;
}

// The step for any command: Walk as above, WalkWithVelocity as given, anything else no step.
[[nodiscard]] inline LocomotionRequest locomotion_from(const MotionCommand& c, const WalkOptions& o) {
  if (const auto* w = std::get_if<command::Walk>(&c)) return walk_step(*w, o);
  if (const auto* v = std::get_if<command::WalkWithVelocity>(&c)) {
    LocomotionRequest r;
    r.active = true;
    r.vx = v->velocity.x();
    r.vy = v->velocity.y();
    r.wz = v->angular_velocity;
    return r;
  }
  return {};
}

}  // namespace praxis::motion
