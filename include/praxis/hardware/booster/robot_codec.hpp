#pragma once
// The robot's side of Booster's wire: what a robot decodes and publishes, for praxis' fake robots,
// simulators, tests and fuzzers. The controller (BoosterBackend) never includes this; its side is
// codec.hpp (rt/low_state in, rt/joint_ctrl out) and topics.hpp (rt/fall_down, the remote in).
//
//   decode_low_cmd     rt/joint_ctrl (LowCmd) as the robot reads it: the motors of the command's
//                      space; refused unless it holds exactly N motors and names PARALLEL or SERIAL
//   LowStateToWire<N>  a RobotState as the robot's rt/low_state, the same values in both arrays
//   remote_from        praxis' gamepad as rt/remote_controller_state

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include <praxis/idl/booster_interface.h>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/transport/dds_sequence.hpp"

namespace praxis::booster {

// topics.hpp's name for it; repeated here so a robot need not include the controller's topics.
using RemoteWire = booster_interface_msg_dds__RemoteControllerState_;

// A LowCmd as the robot reads it: the motors of the command's space; false (out untouched) when the
// sequence does not hold exactly N motors or cmd_type is neither PARALLEL nor SERIAL.
template <std::size_t N>
bool decode_low_cmd(const LowCmdWire& in, LowCmdValue<N>& out) {
  if (in.motor_cmd._length != N) return false;
  const std::int32_t type = detail::enum_bits(in.cmd_type);
  if (type != booster_interface_msg_dds__PARALLEL && type != booster_interface_msg_dds__SERIAL) return false;
  out.space = type == booster_interface_msg_dds__SERIAL ? MotorSpace::serial : MotorSpace::parallel;
  for (std::size_t j = 0; j < N; ++j) out.motors[j] = in.motor_cmd._buffer[j];
  return true;
}

// A RobotState as the robot publishes it, in both arrays (praxis' fake robot has no ankle linkage:
// its motor space is its joint space). Storage for the sequences is owned by this encoder.
template <std::size_t N>
class LowStateToWire {
 public:
  bool operator()(const RobotState<N>& s, LowStateWire& out) {
    const Vector3 rpy = roll_pitch_yaw(s.imu.orientation);
    for (int k = 0; k < 3; ++k) {
      out.imu_state.rpy[k] = static_cast<float>(rpy[k]);
      out.imu_state.gyro[k] = static_cast<float>(s.imu.gyro[k]);
      out.imu_state.acc[k] = static_cast<float>(s.imu.accelerometer[k]);
    }
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      MotorState m{};
      m.q = static_cast<float>(s.q[i]);
      m.dq = static_cast<float>(s.dq[i]);
      m.tau_est = static_cast<float>(s.tau[i]);
      const float t = s.health[j].temperature;
      m.temperature = std::isfinite(t) ? static_cast<std::uint8_t>(std::clamp(t, 0.0f, 255.0f)) : 0;
      m.reserve[0] = s.health[j].error_code;
      m.reserve[1] = 500;
      serial_[j] = m;
      parallel_[j] = m;
    }
    return transport::lend(out.motor_state_serial, std::span<MotorState>(serial_), N) &&
           transport::lend(out.motor_state_parallel, std::span<MotorState>(parallel_), N);
  }

 private:
  std::array<MotorState, N> serial_{}, parallel_{};
};

// Praxis' gamepad as the robot's RemoteControllerState (gamepad_from, topics.hpp, reads it back).
[[nodiscard]] inline RemoteWire remote_from(const GamepadState& g) {
  RemoteWire r{};
  r.event = 0x603;  // a button event; the backend reads the whole state either way
  r.a = g.pressed(GamepadButton::A);
  r.b = g.pressed(GamepadButton::B);
  r.x = g.pressed(GamepadButton::X);
  r.y = g.pressed(GamepadButton::Y);
  r.lb = g.pressed(GamepadButton::L1);
  r.rb = g.pressed(GamepadButton::R1);
  r.lt = g.pressed(GamepadButton::L2);
  r.rt = g.pressed(GamepadButton::R2);
  r.back = g.pressed(GamepadButton::select);
  r.start = g.pressed(GamepadButton::start);
  r.hat_u = g.pressed(GamepadButton::up);
  r.hat_d = g.pressed(GamepadButton::down);
  r.hat_l = g.pressed(GamepadButton::left);
  r.hat_r = g.pressed(GamepadButton::right);
  r.lx = g.lx;
  r.ly = -g.ly;
  r.rx = g.rx;
  r.ry = -g.ry;
  return r;
}

}  // namespace praxis::booster
