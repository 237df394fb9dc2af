#pragma once
// The ports of the motion layer.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/locomotion.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"

namespace praxis::motion {

struct FallState {
  bool falling = false;
  double tilt = 0.0;  // angle between the body's z axis and the vertical (rad)
};

using praxis::LocomotionRequest;

struct HeadCommand {
  bool active = false;  // false: the body motion keeps the head joints
  double yaw = 0.0, pitch = 0.0;
  double kp = 0.0, kd = 0.0;
};

struct CollectorReport {
  bool fallback_to_damping = false;
  std::uint32_t clamped_joints = 0;
  std::uint32_t rate_limited_joints = 0;
};

struct MotionCommandPort : port<"motion_command", MotionCommand> {};
struct MotionSelectionPort : port<"motion_selection", MotionSelection> {};
struct MotionSafeExitsPort : port<"motion_safe_exits", MotionSafeExits> {};
struct FallStatePort : port<"fall_state", FallState> {};
struct LocomotionRequestPort : port<"locomotion_request", LocomotionRequest> {};
struct HeadCommandPort : port<"head_command", HeadCommand> {};
struct CollectorReportPort : port<"collector_report", CollectorReport> {};

// One safe-exit flag per motion node, gathered into MotionSafeExits by SafeExitCollector.
namespace detail {
// "<prefix><motion name>" as a compile-time string, for per-motion port names.
template <std::size_t P>
constexpr std::array<char, 40> motion_port_name(const char (&prefix)[P], MotionType t) {
  std::array<char, 40> s{};
  std::size_t k = 0;
  for (std::size_t i = 0; i + 1 < P; ++i) s[k++] = prefix[i];
  for (char c : to_string(t)) s[k++] = c;
  return s;
}
}  // namespace detail

template <MotionType T>
struct SafeExitPort {
  using type = bool;
  static constexpr auto name_storage = detail::motion_port_name("safe_exit/", T);
  static constexpr std::string_view name{name_storage.data()};
  static constexpr bool default_value() { return true; }
};

// Joint-level output of each motion.
template <MotionType T, std::size_t N>
struct BodyCommandPort {
  using type = JointCommand<N>;
  static constexpr auto name_storage = detail::motion_port_name("body/", T);
  static constexpr std::string_view name{name_storage.data()};
};

template <std::size_t N>
struct ActuatedCommandPort : port<"actuated_command", JointCommand<N>> {};
template <std::size_t N>
struct MotorCommandPort : port<"motor_command", JointCommand<N>> {};

}  // namespace praxis::motion
