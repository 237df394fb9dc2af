#pragma once
// RobotRequests: what the cycle asks of a robot's own controller (modes, walking, head, kick, LEDs).
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

#include "praxis/core/locomotion.hpp"

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

[[nodiscard]] constexpr std::string_view to_string(RobotMode m) {
  constexpr std::array<std::string_view, k_robot_modes> names{"unknown", "damping", "prepare", "locomotion", "user"};
  return names[static_cast<std::size_t>(m)];
}

struct HeadRequest {
  bool active = false;
  double yaw = 0.0, pitch = 0.0;  // rad, pitch positive looking down
};

struct KickRequest {
  bool active = false;            // kicking while true; the worker starts and stops the robot's kick
  double ball_x = 0.0, ball_y = 0.0;      // m, robot frame
  double direction = 0.0;                 // rad, robot frame
  double target_x = 0.0, target_y = 0.0;  // m, robot frame
  double robot_theta_to_field = 0.0;      // rad: the robot's orientation on the field (Booster's kick stream wants it)
  bool strong = false;
};

// The colour the robot's LEDs should show. Level-triggered: the worker forwards each change (Booster:
// set_led_light_color), and `set` turning false hands the LEDs back to the robot (stop_led_light_control).
struct LedRequest {
  bool set = false;
  std::uint8_t r = 0, g = 0, b = 0;
  friend constexpr bool operator==(const LedRequest&, const LedRequest&) = default;
};

struct RobotRequests {
  bool any = false;              // false until the behaviour sent a first command: the worker sends nothing
  RobotMode mode = RobotMode::unknown;  // desired mode; unknown: none wanted (joint control)
  LocomotionRequest locomotion;  // meaningful in RobotMode::locomotion
  HeadRequest head;
  KickRequest kick;
  std::uint32_t get_up = 0;      // one get-up per new value
  LedRequest leds;
};

}  // namespace praxis
