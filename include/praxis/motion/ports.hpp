#pragma once
// The ports of the motion layer.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/locomotion.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"

namespace praxis::motion {

// upright: tilt below the threshold. falling: tilted past it and still moving. fallen: tilted past
// it and lying still (|gyro| below the rest rate for the rest time) — a robot on the floor, which
// may get up, as opposed to one on its way down, which must be protected.
enum class FallPhase : std::uint8_t { upright, falling, fallen };

[[nodiscard]] constexpr std::string_view to_string(FallPhase p) {
  return p == FallPhase::upright ? "upright" : p == FallPhase::falling ? "falling" : "fallen";
}

struct FallState {
  FallPhase phase = FallPhase::upright;
  double tilt = 0.0;           // angle between the body's z axis and the vertical (rad)
  double angular_speed = 0.0;  // |gyro| (rad/s)
  [[nodiscard]] constexpr bool falling() const { return phase == FallPhase::falling; }
  [[nodiscard]] constexpr bool fallen() const { return phase == FallPhase::fallen; }
};

// What the safety monitor found in this cycle's state.
struct SafetyStatus {
  bool no_state = true;  // nothing received yet
  bool stale = false;    // newest state older than the timeout
  bool invalid = false;  // NaN or infinity in the state
  bool tilted = false;   // projected gravity z above the termination threshold
  bool joint_fault = false;
  std::size_t faulted_joint = 0;  // the first faulted joint, while joint_fault
  bool link_lost = false;         // the backend reports its link down (only backends with a status)
  Duration age{};
  // Any condition under which no motion but damping may run.
  [[nodiscard]] constexpr bool must_damp() const { return no_state || stale || invalid || link_lost; }
};

using praxis::LocomotionRequest;

struct HeadCommand {
  bool active = false;  // false: the body motion keeps the head joints
  double yaw = 0.0, pitch = 0.0;
  double kp = 0.0, kd = 0.0;
};

// One clamped value of a command, for the message that names it.
struct ClampNote {
  enum class Field : std::uint8_t { q, dq, kp, kd, tau };
  std::string_view joint;  // the robot model's joint name (static storage)
  Field field = Field::q;
  double value = 0.0;  // what was asked
  double limit = 0.0;  // what was sent instead
};

struct CollectorReport {
  static constexpr std::size_t k_notes = 4;
  bool fallback_to_damping = false;   // the selected command was not finite: damping was sent
  // Joints whose stiff target, velocity, gains or torque were clamped. A target without stiffness
  // (kp 0: damping, where the measured position may lie just past a limit) moves nothing, so its
  // clamp is not counted.
  std::uint32_t clamped_joints = 0;
  std::array<ClampNote, k_notes> clamps{};  // the first clamped_joints of them, one value each
  std::uint32_t rate_limited_joints = 0;
  std::uint32_t unsupported_modes = 0;  // joints in a mode the backend cannot send: disabled instead
};

// The behaviour's port keeps its plain name: users write it. praxis' internal ports are "praxis/...".
struct MotionCommandPort : port<"motion_command", MotionCommand> {};
struct MotionSelectionPort : port<"praxis/motion_selection", MotionSelection> {};
struct MotionSafeExitsPort : port<"praxis/motion_safe_exits", MotionSafeExits> {};
struct FallStatePort : port<"praxis/fall_state", FallState> {};
struct SafetyPort : port<"praxis/safety", SafetyStatus> {};
struct LocomotionRequestPort : port<"praxis/locomotion_request", LocomotionRequest> {};
struct HeadCommandPort : port<"praxis/head_command", HeadCommand> {};
struct CollectorReportPort : port<"praxis/collector_report", CollectorReport> {};
struct RobotRequestsPort : port<"praxis/robot_requests", RobotRequests> {};
// The colour the behaviour wants on a robot with LEDs of its own (Booster). Written by a node of
// yours; without one, praxis' NoLeds leaves the LEDs to the robot.
struct LedCommandPort : port<"led_command", LedRequest> {};

// One safe-exit flag per motion node, gathered into MotionSafeExits by SafeExitCollector.
namespace detail {
// "<prefix><motion name>" as a compile-time string, for per-motion port names.
template <std::size_t P>
constexpr std::array<char, 48> motion_port_name(const char (&prefix)[P], MotionType t) {
  std::array<char, 48> s{};
  std::size_t k = 0;
  for (std::size_t i = 0; i + 1 < P; ++i) s[k++] = prefix[i];
  for (char c : to_string(t)) s[k++] = c;
  return s;
}
}  // namespace detail

template <MotionType T>
struct SafeExitPort {
  using type = bool;
  static constexpr auto name_storage = detail::motion_port_name("praxis/safe_exit/", T);
  static constexpr std::string_view name{name_storage.data()};
  static constexpr bool default_value() { return true; }
};

// Joint-level output of each motion.
template <MotionType T, std::size_t N>
struct BodyCommandPort {
  using type = JointCommand<N>;
  static constexpr auto name_storage = detail::motion_port_name("praxis/body/", T);
  static constexpr std::string_view name{name_storage.data()};
};

template <std::size_t N>
struct ActuatedCommandPort : port<"praxis/actuated_command", JointCommand<N>> {};
template <std::size_t N>
struct MotorCommandPort : port<"praxis/motor_command", JointCommand<N>> {};

using praxis::CyclePort;
using praxis::RobotStatusPort;
using praxis::StatePort;

}  // namespace praxis::motion
