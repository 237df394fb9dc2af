#pragma once
// Aurora's state machine and the other numbered fields of its messages, as enums
// (docs/backends/aurora.md, "Wire facts and their sources"; Aurora's aurora_state_map and DDS
// reference).
//
//   whole-body FSM   aurora_state.whole_body_fsm_state / whole_body_fsm_state_change_cmd
//   upper-body FSM   only inside the locomotion state (3)
//   velocity source  velocity_cmd is obeyed only from navigation (2), the DDS client
// One vendor doc table shows 10 for the upper-body UserCmd; the enum and the code use 11.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/core/robot_requests.hpp"

namespace praxis::aurora {

enum class WholeBodyState : std::uint8_t {
  no_task = 0,      // Aurora's "Default"
  joint_stand = 1,  // drives every joint to zero
  pd_stand = 2,
  user_a = 3,  // UserController_A: RL locomotion on GR-1 / GR-2 / GR-3 / N1
  user_b = 4,
  user_c = 5,
  user_d = 6,
  user_e = 7,
  user_f = 8,
  security = 9,              // damping for 2 s, then zero torque
  user_cmd = 10,             // every group: joint commands and PD configuration from DDS
  upper_body_user_cmd = 11,  // waist, head and arms from DDS; the legs in zero torque
};
inline constexpr WholeBodyState k_locomotion_state = WholeBodyState::user_a;
inline constexpr std::uint8_t k_whole_body_states = 12;

[[nodiscard]] constexpr std::string_view to_string(WholeBodyState s) {
  constexpr std::array<std::string_view, k_whole_body_states> names{
      "Default",          "JointStand",       "PdStand",          "UserController_A (locomotion)",
      "UserController_B", "UserController_C", "UserController_D", "UserController_E",
      "UserController_F", "SecurityProtection", "UserCmd",        "UpperBodyUserCmd"};
  const auto i = static_cast<std::size_t>(s);
  return i < names.size() ? names[i] : std::string_view("unknown");
}

enum class UpperBodyState : std::uint8_t {
  no_task = 0,
  arm_swing = 1,     // "lower-upper linkage" (UpperBodyActTask)
  remote_ctrl = 2,   // joint control (UpperBodyTeleTask)
  move_command = 4,  // Cartesian / joint moves (MoveCommand)
};

[[nodiscard]] constexpr std::string_view to_string(UpperBodyState s) {
  switch (s) {
    case UpperBodyState::no_task: return "Default";
    case UpperBodyState::arm_swing: return "ArmSwing";
    case UpperBodyState::remote_ctrl: return "RemoteCtrl";
    case UpperBodyState::move_command: return "MoveCommand";
  }
  return "unknown";
}

enum class VelocitySource : std::uint8_t { joystick = 0, handheld = 1, navigation = 2 };

[[nodiscard]] constexpr std::string_view to_string(VelocitySource s) {
  switch (s) {
    case VelocitySource::joystick: return "joystick";
    case VelocitySource::handheld: return "handheld";
    case VelocitySource::navigation: return "navigation";
  }
  return "unknown";
}

// Aurora's whole-body states on praxis' modes (a report: -1 before the first).
[[nodiscard]] constexpr RobotMode robot_mode_of(int whole_body) {
  switch (whole_body) {
    case static_cast<int>(WholeBodyState::joint_stand):
    case static_cast<int>(WholeBodyState::pd_stand): return RobotMode::prepare;
    case static_cast<int>(WholeBodyState::security): return RobotMode::damping;
    case static_cast<int>(k_locomotion_state): return RobotMode::locomotion;
    case static_cast<int>(WholeBodyState::user_cmd):
    case static_cast<int>(WholeBodyState::upper_body_user_cmd): return RobotMode::user;
    default: return RobotMode::unknown;
  }
}

// Per group, in robot_control_group_state (idle / move / stop / error) and in a command (move / stop).
enum class GroupMotionState : std::uint8_t { idle = 0, move = 1, stop = 2, error = 3 };

[[nodiscard]] constexpr std::string_view to_string(GroupMotionState s) {
  switch (s) {
    case GroupMotionState::idle: return "idle";
    case GroupMotionState::move: return "move";
    case GroupMotionState::stop: return "stop";
    case GroupMotionState::error: return "error";
  }
  return "unknown";
}

// ControlGroupCmd.control_type and .motor_mode.
enum class ControlType : std::uint8_t { joint = 0, motor = 1 };
enum class MotorMode : std::uint8_t { position = 0, effort = 1 };

}  // namespace praxis::aurora
