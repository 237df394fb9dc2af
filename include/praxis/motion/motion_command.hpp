#pragma once
// MotionCommand: what behaviour asks the motion layer to do, one value per cycle (level-triggered,
// not an event). Damping is the default. All alternatives are fixed-size: no allocation in the
// cycle, whatever the behaviour sends.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>

#include <Eigen/Core>

#include "praxis/core/clock.hpp"
#include "praxis/script/player.hpp"

namespace praxis::motion {

using Vector2 = Eigen::Vector2d;

struct HeadMotion {
  enum class Kind : std::uint8_t { zero_angles, center, look_at_angles, look_at_point, unstiff };
  Kind kind = Kind::center;
  double yaw = 0.0, pitch = 0.0;             // look_at_angles (rad)
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // look_at_point, in the robot frame (m)
};

enum class OrientationMode : std::uint8_t { unspecified, align_with_path, look_towards };
enum class KickPower : std::uint8_t { soft, strong };

inline constexpr std::size_t k_max_path_points = 8;

namespace command {
// Nothing received from the behaviour yet (the port's value before its first write): the robot is
// damped, and a robot with its own modes is sent no request at all.
struct Unset {};
struct Damping {};
struct Prepare {};
struct Stand {
  HeadMotion head;
};
struct StandUp {};
struct Walk {
  HeadMotion head;
  std::array<Vector2, k_max_path_points> path{};  // waypoints in the robot frame (m); the last is the target
  std::size_t path_length = 0;
  double speed = 0.3;                           // m/s
  OrientationMode orientation_mode = OrientationMode::align_with_path;
  double target_orientation = 0.0;              // rad, for look_towards
};
struct WalkWithVelocity {
  HeadMotion head;
  Vector2 velocity = Vector2::Zero();  // m/s in the robot frame
  double angular_velocity = 0.0;       // rad/s
};
struct VisualKick {
  HeadMotion head;
  Vector2 ball = Vector2::Zero();
  double direction = 0.0;
  Vector2 target = Vector2::Zero();
  KickPower power = KickPower::soft;
};
struct Script {
  script::ExecuteScriptByName request;
  std::uint32_t id = 0;  // a new id starts the request again; the same id keeps it running
};
// Joint control by the user's controller (USER_CTRL), e.g. a learned walking policy the behaviour
// chooses; runs with the same safety rules as RobotController's CTRL state.
struct UserControl {};
}  // namespace command

using MotionCommand = std::variant<command::Unset, command::Damping, command::Prepare, command::Stand,
                                   command::StandUp, command::Walk, command::WalkWithVelocity,
                                   command::VisualKick, command::Script, command::UserControl>;

// The head motion a command carries, if any.
[[nodiscard]] inline std::optional<HeadMotion> head_of(const MotionCommand& c) {
  if (const auto* s = std::get_if<command::Stand>(&c)) return s->head;
  if (const auto* w = std::get_if<command::Walk>(&c)) return w->head;
  if (const auto* v = std::get_if<command::WalkWithVelocity>(&c)) return v->head;
  if (const auto* k = std::get_if<command::VisualKick>(&c)) return k->head;
  return std::nullopt;
}

}  // namespace praxis::motion
