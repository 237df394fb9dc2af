#pragma once
// The robot's side of the Unitree wire: what a robot does with a LowCmd (decode_command and the
// checks it would make) and how it builds its LowState and wireless_remote bytes (encode_state,
// encode_remote). Used by fake robots, simulators bridging to DDS, tests and fuzzers; never by the
// controller, whose side is codec.hpp. Pure functions, no allocation.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/unitree/crc.hpp"
#include "praxis/hardware/unitree/wire.hpp"

namespace praxis::unitree {

// ---- wireless_remote: 40 bytes (docs/backends/unitree_wire.md, "Gamepad bytes") ----

inline void encode_remote(const GamepadState& g, std::uint8_t (&r)[40]) {
  std::memset(r, 0, sizeof r);
  r[2] = static_cast<std::uint8_t>(g.buttons & 0xFF);
  r[3] = static_cast<std::uint8_t>(g.buttons >> 8);
  std::memcpy(r + 4, &g.lx, 4);
  std::memcpy(r + 8, &g.rx, 4);
  std::memcpy(r + 12, &g.ry, 4);
  std::memcpy(r + 16, &g.l2, 4);
  std::memcpy(r + 20, &g.ly, 4);
}

// ---- commands ----

// What a robot would check in a received LowCmd (used by the fake robot).
struct CommandCheck {
  bool crc_ok = false;
  bool header_ok = false;        // go: head bytes and level flag
  bool mode_ok = false;          // every used slot carries the model's motor mode (or hg disable)
  bool mode_machine_ok = false;  // hg: equals the robot's own, or the robot reports 0 (a simulator)
  // Every joint slot's q, dq, kp, kd and tau finite. What a Unitree motor does with a NaN target is
  // not documented; a fake robot refuses the frame and counts it, so a controller that sent one is
  // seen (praxis' command guard never lets one through).
  bool finite_ok = false;
};

template <UnitreeModel M>
CommandCheck decode_command(const typename Wire<M>::Family::LowCmd& in, std::uint8_t robot_mode_machine,
                            JointCommand<M::joint_count>& out) {
  using W = Wire<M>;
  CommandCheck check;
  check.crc_ok = message_crc(in) == in.crc;
  if constexpr (std::is_same_v<typename W::Family, GoFamily>) {
    check.header_ok = in.head[0] == 0xFE && in.head[1] == 0xEF && in.level_flag == 0xFF;
    check.mode_machine_ok = true;
  } else {
    check.header_ok = true;
    // The vendor's own check: a robot reporting mode_machine 0 is a simulator and takes any.
    check.mode_machine_ok = robot_mode_machine == 0 || in.mode_machine == robot_mode_machine;
  }
  check.mode_ok = true;
  check.finite_ok = true;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    const auto& m = in.motor_cmd[W::slot[j]];
    const bool enabled = m.mode == W::motor_mode;
    if (!enabled && !(std::is_same_v<typename W::Family, HgFamily> && m.mode == 0)) check.mode_ok = false;
    if (!std::isfinite(m.q) || !std::isfinite(m.dq) || !std::isfinite(m.kp) || !std::isfinite(m.kd) ||
        !std::isfinite(m.tau)) {
      check.finite_ok = false;
    }
    out.q[i] = m.q;
    out.dq[i] = m.dq;
    out.kp[i] = m.kp;
    out.kd[i] = m.kd;
    out.tau_ff[i] = m.tau;
    out.mode[j] = enabled ? JointMode::position : JointMode::disabled;
  }
  return check;
}

// ---- states ----

struct StateExtras {
  std::uint32_t tick = 0;
  std::uint8_t mode_machine = 0;  // hg
  std::uint8_t mode_pr = 0;       // hg
};

template <UnitreeModel M>
void encode_state(const RobotState<M::joint_count>& s, const StateExtras& x, typename Wire<M>::Family::LowState& out) {
  using W = Wire<M>;
  std::memset(&out, 0, sizeof out);
  if constexpr (std::is_same_v<typename W::Family, GoFamily>) {
    out.head[0] = 0xFE;
    out.head[1] = 0xEF;
    out.level_flag = 0xFF;
  } else {
    out.mode_machine = x.mode_machine;
    out.mode_pr = x.mode_pr;
  }
  out.tick = x.tick;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    auto& m = out.motor_state[W::slot[j]];
    m.mode = W::motor_mode;
    m.q = static_cast<float>(s.q[i]);
    m.dq = static_cast<float>(s.dq[i]);
    m.tau_est = static_cast<float>(s.tau[i]);
    if constexpr (std::is_same_v<typename W::Family, HgFamily>) m.motorstate = s.health[j].error_code;
  }
  const auto& o = s.imu.orientation;
  const float quat[4] = {static_cast<float>(o.w()), static_cast<float>(o.x()), static_cast<float>(o.y()),
                         static_cast<float>(o.z())};
  std::memcpy(out.imu_state.quaternion, quat, sizeof quat);
  for (int k = 0; k < 3; ++k) {
    out.imu_state.gyroscope[k] = static_cast<float>(s.imu.gyro[k]);
    out.imu_state.accelerometer[k] = static_cast<float>(s.imu.accelerometer[k]);
    out.imu_state.rpy[k] = static_cast<float>(s.imu.rpy[k]);
  }
  encode_remote(s.gamepad, out.wireless_remote);
  out.crc = message_crc(out);
}

}  // namespace praxis::unitree
