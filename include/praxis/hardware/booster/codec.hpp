#pragma once
// Booster's codec: rt/low_state (booster_interface LowState) into praxis' RobotState, and a
// JointCommand into rt/joint_ctrl (LowCmd), for T1 / K1 (docs/backends/booster.md, "Wire").
//
//   LowStateValue<N>       the fixed-size image of a LowState (both motor arrays), filled on
//                          Cyclone's thread by low_state_from_wire (sequences longer than N refused)
//   decode_low_state       LowStateValue -> RobotState: the configured space's array (serial =
//                          joint space by default), which must hold exactly N motors; IMU rpy ->
//                          orientation; motor error flags (reserve[0]) and temperature -> health
//   LowCmdValue<N>         the fixed-size image of a LowCmd, sent through LowCmdToWire (storage lent once)
//   encode_low_cmd         JointCommand -> LowCmdValue: cmd_type, one MotorCmd per joint; a joint the
//                          command does not cover (JointMode::none) goes out with weight 0, which
//                          leaves it to the robot's own controller
// The robot's side of the wire (decode_low_cmd, LowStateToWire) is robot_codec.hpp.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include <praxis/idl/booster_interface.h>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/transport/dds_sequence.hpp"

namespace praxis::booster {

namespace detail {

// The 32 bits of a generated C enum field as the peer sent them. A C enum without a fixed type
// holds only the values of its enumerators' bit range, so reading another value (a peer's bug, a
// newer firmware's state) through the enum type is undefined: decoders read the bits instead.
template <class E>
[[nodiscard]] std::int32_t enum_bits(const E& field) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(std::int32_t), "an IDL enum is 32 bits on the wire");
  std::int32_t bits = 0;
  std::memcpy(&bits, &field, sizeof bits);
  return bits;
}

}  // namespace detail

// Which of LowState's arrays is read and which LowCmd.cmd_type is sent.
enum class MotorSpace : std::uint8_t { parallel = 0, serial = 1 };  // values as CmdType

struct CodecOptions {
  MotorSpace space = MotorSpace::serial;  // HULKs' default; the SDK example sends parallel
  std::uint8_t motor_mode = 0;            // MotorCmd.mode: its firmware meaning is UNVERIFIED
  float weight = 1.0f;                    // MotorCmd.weight of a driven joint (1: praxis' command only)
  float overheat_celsius = 90.0f;         // a motor this hot is reported overheated (UNVERIFIED limit)
};

using MotorState = booster_interface_msg_dds__MotorState_;
using MotorCmd = booster_interface_msg_dds__MotorCmd_;
using LowStateWire = booster_interface_msg_dds__LowState_;
using LowCmdWire = booster_interface_msg_dds__LowCmd_;

template <std::size_t N>
struct LowStateValue {
  booster_interface_msg_dds__ImuState_ imu{};
  std::array<MotorState, N> parallel{};
  std::array<MotorState, N> serial{};
  std::uint32_t parallel_count = 0;
  std::uint32_t serial_count = 0;
};

template <std::size_t N>
struct LowCmdValue {
  MotorSpace space = MotorSpace::serial;
  std::array<MotorCmd, N> motors{};
};

// On Cyclone's thread: nullptr accepts, otherwise why the sample was refused.
template <std::size_t N>
const char* low_state_from_wire(const LowStateWire& in, LowStateValue<N>& out) {
  // The counts are kept as the robot sent them, the motors up to N: decode_low_state refuses a count
  // other than N, and the backend can then say which model the robot is not.
  out.imu = in.imu_state;
  out.parallel_count = in.motor_state_parallel._length;
  out.serial_count = in.motor_state_serial._length;
  const auto parallel = std::min<std::uint32_t>(out.parallel_count, N);
  const auto serial = std::min<std::uint32_t>(out.serial_count, N);
  for (std::uint32_t i = 0; i < parallel; ++i) out.parallel[i] = in.motor_state_parallel._buffer[i];
  for (std::uint32_t i = 0; i < serial; ++i) out.serial[i] = in.motor_state_serial._buffer[i];
  return nullptr;
}

// Body-to-world orientation from roll, pitch, yaw (ZYX), the convention RobotState's rpy uses.
[[nodiscard]] inline Quaternion orientation_from_rpy(double roll, double pitch, double yaw) {
  return Quaternion(Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(pitch, Vector3::UnitY()) *
                    Eigen::AngleAxisd(roll, Vector3::UnitX()));
}

// False (out unchanged in its joint values' meaning, and the sample to be dropped) when the
// configured array does not hold exactly N motors or a value is not finite.
template <std::size_t N>
bool decode_low_state(const LowStateValue<N>& in, const CodecOptions& o, RobotState<N>& out) {
  const bool serial = o.space == MotorSpace::serial;
  const auto& motors = serial ? in.serial : in.parallel;
  if ((serial ? in.serial_count : in.parallel_count) != N) return false;
  RobotState<N> s = out;
  for (std::size_t j = 0; j < N; ++j) {
    const auto& m = motors[j];
    const auto i = static_cast<Eigen::Index>(j);
    s.q[i] = m.q;
    s.dq[i] = m.dq;
    s.tau[i] = m.tau_est;
    auto& h = s.health[j];
    h.temperature = m.temperature;
    h.error_code = m.reserve[0];
    h.faults = k_joint_ok;
    if (m.reserve[0] != 0) h.faults |= k_joint_driver_error;
    if (static_cast<float>(m.temperature) >= o.overheat_celsius) h.faults |= k_joint_overheated;
  }
  const auto& imu = in.imu;
  s.imu.orientation = orientation_from_rpy(imu.rpy[0], imu.rpy[1], imu.rpy[2]);
  s.imu.gyro = Vector3(imu.gyro[0], imu.gyro[1], imu.gyro[2]);
  s.imu.accelerometer = Vector3(imu.acc[0], imu.acc[1], imu.acc[2]);
  s.update_derived();
  if (!s.all_finite()) return false;
  out = s;
  return true;
}

// False when the command covers no joint at all (nothing to send).
template <std::size_t N>
bool encode_low_cmd(const JointCommand<N>& c, const CodecOptions& o, LowCmdValue<N>& out) {
  out.space = o.space;
  bool any = false;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    MotorCmd& m = out.motors[j];
    m = MotorCmd{};
    m.mode = o.motor_mode;
    switch (c.mode[j]) {
      case JointMode::none:  // the robot's controller keeps this joint
        m.weight = 0.0f;
        continue;
      case JointMode::disabled:
        m.weight = o.weight;
        break;
      case JointMode::position:
        m.q = static_cast<float>(c.q[i]);
        m.dq = static_cast<float>(c.dq[i]);
        m.kp = static_cast<float>(c.kp[i]);
        m.kd = static_cast<float>(c.kd[i]);
        m.tau = static_cast<float>(c.tau_ff[i]);
        m.weight = o.weight;
        break;
      case JointMode::velocity:  // the PD law with no position gain
        m.dq = static_cast<float>(c.dq[i]);
        m.kd = static_cast<float>(c.kd[i]);
        m.tau = static_cast<float>(c.tau_ff[i]);
        m.weight = o.weight;
        break;
      case JointMode::torque:
        m.tau = static_cast<float>(c.tau_ff[i]);
        m.weight = o.weight;
        break;
    }
    any = true;
  }
  return any;
}

// transport::EncodingPublisher's encoder for rt/joint_ctrl: the motor sequence points at storage owned here.
template <std::size_t N>
class LowCmdToWire {
 public:
  bool operator()(const LowCmdValue<N>& v, LowCmdWire& out) {
    motors_ = v.motors;
    out.cmd_type = static_cast<booster_interface_msg_dds__CmdType>(v.space);
    return transport::lend(out.motor_cmd, std::span<MotorCmd>(motors_), N);
  }

 private:
  std::array<MotorCmd, N> motors_{};
};

}  // namespace praxis::booster
