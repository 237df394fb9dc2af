#pragma once
// MotionCommand: what behaviour asks the motion layer to do, one value per cycle (level-triggered,
// not an event). Damping is the default. All alternatives are fixed-size: no allocation in the
// cycle, whatever the behaviour sends. Positions and directions are in the robot frame (x forward,
// y left, z up; angles counter-clockwise from x), which HULKs' code calls "Ground".

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <variant>

#include <Eigen/Core>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/motion/registry.hpp"
#include "praxis/script/player.hpp"
#include "praxis/script/script.hpp"

namespace praxis::motion {

using Vector2 = Eigen::Vector2d;

// Where in the camera image a head motion wants its target to appear.
enum class ImageRegion : std::uint8_t { bottom, center, top };

struct HeadMotion {
  enum class Kind : std::uint8_t {
    zero_angles,
    center,                  // the centre pose, shifted for image_region_target
    look_around,             // sweep the yaw
    search_for_lost_ball,    // a wider sweep, looking lower
    look_at,                 // target, shifted for image_region_target
    look_left_and_right_of,  // alternate left and right of target
    unstiff,                 // no stiffness: the head hangs where it is
    look_at_angles,          // praxis' own: yaw and pitch given directly (calibration, tests)
  };
  Kind kind = Kind::center;
  ImageRegion image_region_target = ImageRegion::center;  // center, look_at
  Eigen::Vector3d target = Eigen::Vector3d::Zero();        // look_at, look_left_and_right_of (m); z 0 on the ground
  double yaw = 0.0, pitch = 0.0;                           // look_at_angles (rad)

  [[nodiscard]] static HeadMotion zero_angles() { return with(Kind::zero_angles); }
  [[nodiscard]] static HeadMotion center(ImageRegion region = ImageRegion::center) {
    HeadMotion h = with(Kind::center);
    h.image_region_target = region;
    return h;
  }
  [[nodiscard]] static HeadMotion look_around() { return with(Kind::look_around); }
  [[nodiscard]] static HeadMotion search_for_lost_ball() { return with(Kind::search_for_lost_ball); }
  [[nodiscard]] static HeadMotion look_at(const Eigen::Vector3d& target, ImageRegion region = ImageRegion::center) {
    HeadMotion h = with(Kind::look_at);
    h.target = target;
    h.image_region_target = region;
    return h;
  }
  [[nodiscard]] static HeadMotion look_left_and_right_of(const Eigen::Vector3d& target) {
    HeadMotion h = with(Kind::look_left_and_right_of);
    h.target = target;
    return h;
  }
  [[nodiscard]] static HeadMotion unstiff() { return with(Kind::unstiff); }
  [[nodiscard]] static HeadMotion look_at_angles(double yaw, double pitch) {
    HeadMotion h = with(Kind::look_at_angles);
    h.yaw = yaw;
    h.pitch = pitch;
    return h;
  }

 private:
  static HeadMotion with(Kind k) {
    HeadMotion h;
    h.kind = k;
    return h;
  }
};

// Which way the robot faces while it walks a path (see walking.hpp for how it is used).
struct OrientationMode {
  enum class Kind : std::uint8_t {
    unspecified,      // as align_with_path
    align_with_path,  // face the direction of travel
    look_towards,     // face `direction`
    look_at,          // face `target`
  };
  Kind kind = Kind::unspecified;
  double direction = 0.0;            // look_towards (rad)
  Vector2 target = Vector2::Zero();  // look_at (m)
  double tolerance = 0.0;            // look_towards, look_at: a heading within this counts as reached (rad)

  [[nodiscard]] static OrientationMode align_with_path() { return with(Kind::align_with_path); }
  [[nodiscard]] static OrientationMode look_towards(double direction, double tolerance = 0.0) {
    OrientationMode m = with(Kind::look_towards);
    m.direction = direction;
    m.tolerance = tolerance;
    return m;
  }
  [[nodiscard]] static OrientationMode look_at(const Vector2& target, double tolerance = 0.0) {
    OrientationMode m = with(Kind::look_at);
    m.target = target;
    m.tolerance = tolerance;
    return m;
  }

 private:
  static OrientationMode with(Kind k) {
    OrientationMode m;
    m.kind = k;
    return m;
  }
};

using praxis::KickPower;

inline constexpr std::size_t k_max_path_points = 8;

// A walking path: straight segments from the robot (the origin) through `count` waypoints; the
// last waypoint is the target.
struct Path {
  // Zeroed: Eigen leaves a default-constructed vector uninitialised, and commands are copied whole.
  std::array<Vector2, k_max_path_points> points = [] {
    std::array<Vector2, k_max_path_points> zero;
    zero.fill(Vector2::Zero());
    return zero;
  }();
  std::size_t count = 0;

  // False (and the path unchanged) when it is full.
  bool add(const Vector2& p) {
    if (count >= k_max_path_points) return false;
    points[count++] = p;
    return true;
  }
  [[nodiscard]] std::size_t size() const { return std::min(count, k_max_path_points); }
  // Length along the segments, from the robot to the target (m).
  [[nodiscard]] double length() const {
    double l = 0.0;
    Vector2 from = Vector2::Zero();
    for (std::size_t k = 0; k < size(); ++k) {
      l += (points[k] - from).norm();
      from = points[k];
    }
    return l;
  }
  // Unit direction of the first segment that has a length: where the path leaves the robot.
  [[nodiscard]] std::optional<Vector2> direction_at_robot() const {
    Vector2 from = Vector2::Zero();
    for (std::size_t k = 0; k < size(); ++k) {
      const Vector2 d = points[k] - from;
      if (d.norm() > 1e-9) return d.normalized();
      from = points[k];
    }
    return std::nullopt;
  }
};

// A script object handed over without its joint count, which MotionCommand (one type for every
// robot) cannot name. Non-owning: whoever builds the command keeps the script alive while the
// command may play it (a ScriptLibrary's scripts live as long as the library).
class ScriptHandle {
 public:
  ScriptHandle() = default;
  template <std::size_t N>
  explicit ScriptHandle(const script::Script<N>& s) : script_(&s), joint_count_(N) {}

  // The script, or null when empty or made for a robot with another joint count.
  template <std::size_t N>
  [[nodiscard]] const script::Script<N>* get() const {
    return joint_count_ == N ? static_cast<const script::Script<N>*>(script_) : nullptr;
  }
  [[nodiscard]] bool empty() const { return script_ == nullptr; }
  [[nodiscard]] std::size_t joint_count() const { return joint_count_; }

 private:
  const void* script_ = nullptr;
  std::size_t joint_count_ = 0;
};

// script::ExecuteScript<N> without N: scripts given as objects.
struct ExecuteScriptObjects {
  int priority = 0;
  std::array<ScriptHandle, script::k_max_sequence> scripts{};
  std::size_t count = 0;
  std::optional<Duration> duration;  // total duration of the sequence; unset = as written
  TimePoint start{};                 // not before this time

  template <std::size_t N>
  [[nodiscard]] static ExecuteScriptObjects from(const script::ExecuteScript<N>& r) {
    ExecuteScriptObjects o;
    o.priority = r.priority;
    o.count = r.count;
    o.duration = r.duration;
    o.start = r.start;
    for (std::size_t k = 0; k < std::min(r.count, script::k_max_sequence); ++k) {
      if (r.scripts[k] != nullptr) o.scripts[k] = ScriptHandle(*r.scripts[k]);
    }
    return o;
  }
  // Back to ExecuteScript<N>; empty when count is 0 or too large, or a handle is empty or made
  // for another joint count.
  template <std::size_t N>
  [[nodiscard]] std::optional<script::ExecuteScript<N>> resolve() const {
    if (count == 0 || count > script::k_max_sequence) return std::nullopt;
    script::ExecuteScript<N> r;
    r.priority = priority;
    r.count = count;
    r.duration = duration;
    r.start = start;
    for (std::size_t k = 0; k < count; ++k) {
      r.scripts[k] = scripts[k].get<N>();
      if (r.scripts[k] == nullptr) return std::nullopt;
    }
    return r;
  }
};

// Each command names the motion it asks for by its tag (`tag`, core/motion_registry.hpp).
namespace command {
// Nothing received from the behaviour yet (the port's value before its first write): the robot is
// damped, and a robot with its own modes is sent no request at all.
struct Unset {
  using tag = motions::Damping;
};
struct Damping {
  using tag = motions::Damping;
};
struct Prepare {
  using tag = motions::Prepare;
};
struct Stand {
  using tag = motions::Stand;
  HeadMotion head;
};
struct StandUp {
  using tag = motions::StandUp;
};
struct Walk {
  using tag = motions::Walk;
  HeadMotion head;
  Path path;
  OrientationMode orientation_mode;
  double target_orientation = 0.0;      // rad: the orientation wanted at the target
  double distance_to_be_aligned = 0.1;  // m: this close to the target, face target_orientation
  double speed = 0.3;                   // m/s
};
struct WalkWithVelocity {
  using tag = motions::Walk;
  HeadMotion head;
  Vector2 velocity = Vector2::Zero();  // m/s in the robot frame
  double angular_velocity = 0.0;       // rad/s
};
// The kick's fields are praxis::Kick's (core/robot_requests.hpp), which a robot with a kick of its
// own receives as they are.
struct VisualKick : Kick {
  using tag = motions::VisualKick;
  HeadMotion head;
};
struct Script {
  using tag = motions::Script;
  script::ExecuteScriptByName request;  // scripts by name, resolved in the motion's library
  ExecuteScriptObjects objects;         // or as objects: played instead of `request` when objects.count > 0
  std::uint32_t id = 0;  // a new id starts the request again; the same id keeps it running
};
// Joint control by the user's controller (USER_CTRL), e.g. a learned walking policy the behaviour
// chooses; runs with the same safety rules as RobotController's CTRL state. The velocity is for a
// controller that follows one (control::SteeredUserControlMotion hands it to a trained policy whose
// deploy file takes its command from the behaviour); others ignore it.
struct UserControl {
  using tag = motions::UserControl;
  Vector2 velocity = Vector2::Zero();  // m/s in the robot frame
  double angular_velocity = 0.0;       // rad/s
};
// Any motion whose tag says Asked::by_type, by its type: how a motion added to the registry is
// asked for without a command of its own (docs/motion.md). A motion asked for only by its own
// command (walk, visual kick, script) or never (dispatching, fall protection) is not requested this
// way: such a Request asks for damping.
struct Request {
  MotionType motion = MotionType::damping;
};
}  // namespace command

using MotionCommand = std::variant<command::Unset, command::Damping, command::Prepare, command::Stand,
                                   command::StandUp, command::Walk, command::WalkWithVelocity,
                                   command::VisualKick, command::Script, command::UserControl, command::Request>;

// The head motion a command carries, if any. Prepare centres the head with its target at the top
// of the image; Damping, StandUp and Script leave the head to the body motion.
[[nodiscard]] inline std::optional<HeadMotion> head_of(const MotionCommand& c) {
  return std::visit(
      [](const auto& alternative) -> std::optional<HeadMotion> {
        using C = std::remove_cvref_t<decltype(alternative)>;
        if constexpr (std::is_same_v<C, command::Prepare>) {
          return HeadMotion::center(ImageRegion::top);
        } else if constexpr (requires { alternative.head; }) {
          return alternative.head;
        } else {
          return std::nullopt;
        }
      },
      c);
}

}  // namespace praxis::motion
