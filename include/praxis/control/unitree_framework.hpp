#pragma once
// The Unitree deployment framework's controller-facing types (BasicUserController, RobotInterface,
// Gamepad) with their member names, so a controller written for that framework compiles against
// praxis unchanged. A port replaces only the lines that pulled in the framework's headers:
//
//   #include <praxis/control/unitree_framework.hpp>
//   namespace fs = std::filesystem;   // if no other header of the port declared it
//   using RobotInterface = praxis::control::unitree_framework::RobotInterface<12>;
//   using Gamepad = praxis::control::unitree_framework::Gamepad;
//   using BasicUserController = praxis::control::unitree_framework::BasicUserController<12>;
//
// The framework is written for 12 joints; here the joint count is a template parameter (12 by
// default), so the same base class serves a 23- or 29-joint humanoid. Like the framework, every
// value is a float. praxis fills jpos, jvel, tau, quat, rpy, gyro and projected_gravity from the
// RobotState before every Reset() and GetInput(); the command arrays (jpos_des, jvel_des, kp, kd,
// tau_ff) exist because framework code may touch them, but praxis reads the controller's own
// members, not these.

#include <array>
#include <cstddef>
#include <filesystem>
#include <vector>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::control::unitree_framework {

template <std::size_t N = 12>
class BasicRobotInterface {
 public:
  static constexpr std::size_t joint_count = N;

  // motor states
  std::array<float, N> jpos{}, jvel{}, tau{};
  // IMU
  std::array<float, 4> quat{1.0f, 0.0f, 0.0f, 0.0f};  // w, x, y, z
  std::array<float, 3> rpy{}, gyro{}, projected_gravity{0.0f, 0.0f, -1.0f};
  // motor commands
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

// The framework derives RobotInterface from BasicRobotInterface only to add its DDS encoding;
// praxis' backends do that, so both names are the same type here.
template <std::size_t N = 12>
using RobotInterface = BasicRobotInterface<N>;

using Gamepad = praxis::Gamepad;

// The framework's base class, same members and pure virtual functions. Unlike the framework's, the
// numbers start at zero instead of indeterminate, so a controller that forgets to set dt is refused
// by praxis' parameter check rather than running with garbage.
//
// GetLog() returns a std::vector and therefore allocates; praxis calls it only when a cycle log is
// configured (docs/controller.md).
template <std::size_t N = 12>
class BasicUserController {
 public:
  static constexpr std::size_t joint_count = N;

  BasicUserController() = default;
  BasicUserController(const BasicUserController&) = default;
  BasicUserController(BasicUserController&&) noexcept = default;
  BasicUserController& operator=(const BasicUserController&) = default;
  BasicUserController& operator=(BasicUserController&&) noexcept = default;
  virtual ~BasicUserController() = default;

  virtual void LoadParam(std::filesystem::path& param_folder) = 0;
  virtual void Reset(RobotInterface<N>& robot_interface, Gamepad& gamepad) = 0;
  virtual void GetInput(RobotInterface<N>& robot_interface, Gamepad& gamepad) = 0;
  virtual void Calculate() = 0;
  virtual std::vector<float> GetLog() = 0;

  float dt{}, kp{}, kd{};
  std::array<float, N> init_pos{};
  std::array<float, N> jpos_des{};
};

}  // namespace praxis::control::unitree_framework
