#pragma once
// The robot's side of Aurora's wire: a received command as a value, for praxis' fake robot, tests
// and fuzzers. The controller (AuroraBackend) never includes this; its side is codec.hpp.
//
//   group_command_from_wire  robot_control_group_cmd: every group's name, states, motor mode and
//                            values; refused (with the reason) beyond 8 groups, a name longer than
//                            31 characters or a group with more than 8 values
//   motor_config_from_wire   robot_motor_cfg_group_cmd: every group's name and PD gains, refused
//                            the same way

#include <cstdint>

#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/transport/dds_sequence.hpp"

namespace praxis::aurora {

inline const char* group_command_from_wire(const GroupCommandWire& in, GroupCommandValue& out) {
  if (in.group_cmd._length > k_max_groups) return "robot_control_group_cmd: more than 8 groups";
  for (std::uint32_t i = 0; i < in.group_cmd._length; ++i) {
    const auto& g = in.group_cmd._buffer[i];
    auto& e = out.groups[i];
    if (!transport::copy_string(g.group_name, e.name)) return "robot_control_group_cmd: a group_name longer than 31 characters";
    e.motion_state = g.group_motion_state;
    e.control_type = g.control_type;
    e.motor_mode = g.motor_mode;
    if (!transport::copy_sequence(g.position, e.position) || !transport::copy_sequence(g.velocity, e.velocity) ||
        !transport::copy_sequence(g.effort, e.effort)) {
      return "robot_control_group_cmd: a group with more than 8 values";
    }
  }
  out.groups.size = in.group_cmd._length;
  return nullptr;
}

inline const char* motor_config_from_wire(const MotorConfigWire& in, MotorConfigValue& out) {
  if (in.group_cmd._length > k_max_groups) return "robot_motor_cfg_group_cmd: more than 8 groups";
  for (std::uint32_t i = 0; i < in.group_cmd._length; ++i) {
    const auto& g = in.group_cmd._buffer[i];
    auto& e = out.groups[i];
    if (!transport::copy_string(g.group_name, e.name)) return "robot_motor_cfg_group_cmd: a group_name longer than 31 characters";
    if (!transport::copy_sequence(g.pd_kp, e.kp) || !transport::copy_sequence(g.pd_kd, e.kd)) {
      return "robot_motor_cfg_group_cmd: a group with more than 8 gains";
    }
  }
  out.groups.size = in.group_cmd._length;
  return nullptr;
}

}  // namespace praxis::aurora
