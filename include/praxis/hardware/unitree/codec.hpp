#pragma once
// Canonical <-> Unitree wire messages. Pure functions, no allocation.
//
//   encode_command   JointCommand -> LowCmd: zeroed image, go header bytes and level flag, the
//                    motor mode per model, PosStopF/VelStopF on unused go slots, mode_pr and the
//                    echoed mode_machine on hg, CRC over the naturally aligned image
//   decode_state     LowState -> RobotState, CRC verified first (a bad frame changes nothing)
//   decode_remote    wireless_remote bytes -> GamepadState
// The controller's side of the wire only; what a robot does (decode_command, encode_state,
// encode_remote) is in robot_codec.hpp.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/unitree/crc.hpp"
#include "praxis/hardware/unitree/wire.hpp"

namespace praxis::unitree {

// ---- wireless_remote: 40 bytes (docs/backends/unitree_wire.md, "Gamepad bytes") ----

[[nodiscard]] inline GamepadState decode_remote(const std::uint8_t (&r)[40]) {
  GamepadState g;
  g.buttons = static_cast<std::uint16_t>(r[2] | (r[3] << 8));
  std::memcpy(&g.lx, r + 4, 4);
  std::memcpy(&g.rx, r + 8, 4);
  std::memcpy(&g.ry, r + 12, 4);
  std::memcpy(&g.l2, r + 16, 4);
  std::memcpy(&g.ly, r + 20, 4);
  return g;
}

// ---- commands ----

struct EncodeOptions {
  std::uint8_t mode_pr = 0;       // hg: 0 = PR (pitch/roll ankles), 1 = AB (parallel motors)
  std::uint8_t mode_machine = 0;  // hg: echo of the robot's LowState.mode_machine
};

template <UnitreeModel M>
void encode_command(const JointCommand<M::joint_count>& c, const EncodeOptions& o,
                    typename Wire<M>::Family::LowCmd& out) {
  using W = Wire<M>;
  std::memset(&out, 0, sizeof out);  // padding must be zero: it is inside the CRC
  if constexpr (std::is_same_v<typename W::Family, GoFamily>) {
    out.head[0] = 0xFE;
    out.head[1] = 0xEF;
    out.level_flag = 0xFF;
    for (auto& m : out.motor_cmd) {  // unused slots: the vendor's stop values
      m.mode = W::motor_mode;
      m.q = k_pos_stop;
      m.dq = k_vel_stop;
    }
  } else {
    out.mode_pr = o.mode_pr;
    out.mode_machine = o.mode_machine;
  }
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    auto& m = out.motor_cmd[W::slot[j]];
    m.q = static_cast<float>(c.q[i]);
    m.dq = static_cast<float>(c.dq[i]);
    if (c.drives(j)) {
      // Unitree drivers run the PD law only; velocity and torque modes are that law without its
      // position (and damping) term.
      m.mode = W::motor_mode;
      m.kp = c.mode[j] == JointMode::position ? static_cast<float>(c.kp[i]) : 0.0f;
      m.kd = c.mode[j] == JointMode::torque ? 0.0f : static_cast<float>(c.kd[i]);
      m.tau = static_cast<float>(c.tau_ff[i]);
    } else if constexpr (std::is_same_v<typename W::Family, HgFamily>) {
      m.mode = 0;  // hg: disable
    } else {
      m.mode = W::motor_mode;  // go: meaning of mode 0 is unverified; zero gains and torque instead
    }
  }
  out.crc = message_crc(out);
}

// ---- states ----

template <UnitreeModel M>
[[nodiscard]] bool state_crc_ok(const typename Wire<M>::Family::LowState& in) {
  return message_crc(in) == in.crc;
}

// Decodes a valid LowState: CRC correct (unless `verify_crc` is false: Unitree's Python simulator
// sends crc = 0) and every joint and IMU value (rpy included) finite. Returns false, leaving `out`
// untouched, otherwise. A wireless_remote with a non-finite axis leaves `out.gamepad` as it was
// (and sets `*remote_ignored`, when given).
template <UnitreeModel M>
bool decode_state(const typename Wire<M>::Family::LowState& in, TimePoint received, RobotState<M::joint_count>& out,
                  bool verify_crc = true, bool* remote_ignored = nullptr) {
  using W = Wire<M>;
  if (verify_crc && message_crc(in) != in.crc) return false;
  bool finite = true;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto& m = in.motor_state[W::slot[j]];
    finite = finite && std::isfinite(m.q) && std::isfinite(m.dq) && std::isfinite(m.tau_est);
  }
  for (std::size_t k = 0; k < 4; ++k) finite = finite && std::isfinite(in.imu_state.quaternion[k]);
  for (std::size_t k = 0; k < 3; ++k) {
    finite = finite && std::isfinite(in.imu_state.gyroscope[k]) && std::isfinite(in.imu_state.accelerometer[k]) &&
             std::isfinite(in.imu_state.rpy[k]);
  }
  if (!finite) return false;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    const auto& m = in.motor_state[W::slot[j]];
    out.q[i] = m.q;
    out.dq[i] = m.dq;
    out.tau[i] = m.tau_est;
    // hg: motorstate is the driver's error code (its bits are not public: any non-zero value is a
    // driver error, the raw value goes to the log). go: no error field; `lost` counts lost frames.
    auto& h = out.health[j];
    if constexpr (std::is_same_v<typename W::Family, HgFamily>) {
      h.error_code = m.motorstate;
      h.faults = m.motorstate != 0 ? k_joint_driver_error : k_joint_ok;
      h.temperature = static_cast<float>(m.temperature[0]);
    } else {
      h.error_code = 0;
      h.faults = k_joint_ok;
      h.temperature = static_cast<float>(m.temperature);
    }
  }
  const auto& imu = in.imu_state;
  out.imu.orientation = Quaternion(imu.quaternion[0], imu.quaternion[1], imu.quaternion[2], imu.quaternion[3]);
  out.imu.gyro = Vector3(imu.gyroscope[0], imu.gyroscope[1], imu.gyroscope[2]);
  out.imu.accelerometer = Vector3(imu.accelerometer[0], imu.accelerometer[1], imu.accelerometer[2]);
  out.projected_gravity = projected_gravity(out.imu.orientation);
  out.imu.rpy = Vector3(imu.rpy[0], imu.rpy[1], imu.rpy[2]);
  // A remote whose sticks are not numbers keeps its last reading; the joints and IMU still count.
  const GamepadState pad = decode_remote(in.wireless_remote);
  const bool pad_finite = pad.finite();
  if (pad_finite) out.gamepad = pad;
  if (remote_ignored != nullptr) *remote_ignored = !pad_finite;
  out.stamp = received;  // the robot's tick is not on our clock
  out.sequence = in.tick;
  return true;
}

}  // namespace praxis::unitree
