#pragma once
// RobotRequests: what the cycle asks of a robot's own controller (the selected motion and its mode,
// walking, head, kick, LEDs).
//
// The cycle never performs these itself: it posts the whole, level-triggered picture every cycle
// ("be in this mode, walk at this velocity, ..."), and the backend's I/O worker, off the control
// thread, turns changes and periodic needs into the vendor's calls at the vendor's rate, with
// timeouts, reporting back through RobotStatus. One-shot actions (get up, start a kick) are
// expressed as counters that the cycle increments: the worker acts once per new value, so a request
// can be neither lost nor repeated by the mailbox in between.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <Eigen/Core>

#include "praxis/core/enum_names.hpp"
#include "praxis/core/locomotion.hpp"
#include "praxis/core/motion_registry.hpp"

namespace praxis {

// Modes a robot with its own motion controller can be asked for. Each backend maps them onto its
// vendor's modes (Booster: Damping, Prepare, Soccer; Aurora: its control groups' states).
enum class RobotMode : std::uint8_t {
  unknown,     // not reported (yet), or a vendor mode praxis has no name for
  damping,     // the robot's own damping
  prepare,     // the robot's own ready pose (also where it gets up from)
  locomotion,  // the robot's own standing and walking (then `locomotion` steers it)
  user,        // joint-level control by praxis (Aurora's UserCmd, Unitree with its service released)
};
inline constexpr std::size_t k_robot_modes = 5;

inline constexpr EnumNameTable<RobotMode, k_robot_modes> k_robot_mode_names{{
    {RobotMode::unknown, "unknown"},
    {RobotMode::damping, "damping"},
    {RobotMode::prepare, "prepare"},
    {RobotMode::locomotion, "locomotion"},
    {RobotMode::user, "user"},
}};
static_assert(in_enum_order(k_robot_mode_names), "k_robot_mode_names: one entry per RobotMode, in the enum's order");

[[nodiscard]] constexpr std::string_view to_string(RobotMode m) { return name_in(k_robot_mode_names, m); }

struct HeadRequest {
  bool active = false;
  double yaw = 0.0, pitch = 0.0;  // rad, pitch positive looking down
};

// soft is HULKs' Rumpelstilzchen kick (the default), strong their Schlong.
enum class KickPower : std::uint8_t { soft, strong };

// A kick, as the behaviour asks for it (motion::command::VisualKick is this and a head motion) and
// as a robot with a kick of its own gets it: one struct from the command to the wire.
struct Kick {
  Eigen::Vector2d ball_position = Eigen::Vector2d::Zero();    // m, robot frame
  double kick_direction = 0.0;                                // rad, robot frame
  Eigen::Vector2d target_position = Eigen::Vector2d::Zero();  // m, robot frame: where the ball should go
  double robot_theta_to_field = 0.0;  // rad: the robot's orientation on the field (Booster's kick stream wants it)
  KickPower kick_power = KickPower::soft;
};

// The colour the robot's LEDs should show. Level-triggered: the worker forwards each change (Booster:
// set_led_light_color), and `set` turning false hands the LEDs back to the robot (stop_led_light_control).
struct LedRequest {
  bool set = false;
  std::uint8_t r = 0, g = 0, b = 0;
  friend constexpr bool operator==(const LedRequest&, const LedRequest&) = default;
};

// A backend's request handler reads the selected motion and maps it to its vendor's calls (a table
// per motion, hardware/booster/interface.hpp); the fields below carry what the motion's command
// says, once.
struct RobotRequests {
  bool any = false;              // false until the behaviour sent a first command: the worker sends nothing
  MotionType motion = MotionType::damping;  // the selected motion (ending control: damping)
  RobotMode mode = RobotMode::unknown;  // desired mode; unknown: none wanted (joint control)
  LocomotionRequest locomotion;  // meaningful in RobotMode::locomotion
  HeadRequest head;
  Kick kick;                     // meaningful while motion is visual_kick
  std::uint32_t get_up = 0;      // one get-up per new value
  LedRequest leds;
};

}  // namespace praxis
