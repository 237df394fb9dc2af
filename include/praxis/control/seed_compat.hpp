#pragma once
// Types with the member names of the Unitree deployment framework (RobotInterface, Gamepad), so a
// controller written for that framework compiles against praxis unchanged. Only the shim that used
// to include the SDK's headers changes:
//
//   // my_robot_interface.hpp, replacing the SDK example's robot_interface.hpp and gamepad.hpp
//   #include <praxis/control/seed_compat.hpp>
//   using RobotInterface = praxis::seed::RobotInterface<12>;
//   using Gamepad = praxis::seed::Gamepad;
//
// The framework stores everything as float; so does this view. praxis fills jpos, jvel, tau, quat,
// rpy, gyro and projected_gravity from the RobotState before every GetInput().

#include <array>
#include <cstddef>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::seed {

template <std::size_t N>
class BasicRobotInterface {
 public:
  std::array<float, N> jpos{}, jvel{}, tau{};
  std::array<float, 4> quat{1.0f, 0.0f, 0.0f, 0.0f};  // w, x, y, z
  std::array<float, 3> rpy{}, gyro{}, projected_gravity{0.0f, 0.0f, -1.0f};
  std::array<float, N> jpos_des{}, jvel_des{}, kp{}, kd{}, tau_ff{};

  void GetState(const RobotState<N>& state) {
    for (std::size_t i = 0; i < N; ++i) {
      const auto j = static_cast<Eigen::Index>(i);
      jpos[i] = static_cast<float>(state.q[j]);
      jvel[i] = static_cast<float>(state.dq[j]);
      tau[i] = static_cast<float>(state.tau[j]);
    }
    const auto& o = state.imu.orientation;
    quat = {static_cast<float>(o.w()), static_cast<float>(o.x()), static_cast<float>(o.y()),
            static_cast<float>(o.z())};
    for (Eigen::Index k = 0; k < 3; ++k) {
      const auto i = static_cast<std::size_t>(k);
      rpy[i] = static_cast<float>(state.imu.rpy[k]);
      gyro[i] = static_cast<float>(state.imu.gyro[k]);
      projected_gravity[i] = static_cast<float>(state.projected_gravity[k]);
    }
  }
};

template <std::size_t N>
using RobotInterface = BasicRobotInterface<N>;

using Gamepad = praxis::Gamepad;

}  // namespace praxis::seed
