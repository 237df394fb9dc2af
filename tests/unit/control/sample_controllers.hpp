#pragma once
// Three USER_CTRLs of a 3-joint robot for the controller tests: snake case with scalar gains and
// call counts, per-joint gains with every optional member, and the Unitree framework's names.

#include <array>
#include <cstddef>
#include <filesystem>
#include <vector>

#include <Eigen/Core>

#include "praxis/control/unitree_framework.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"

namespace sample_controllers {

constexpr std::size_t N = 3;
using State = praxis::RobotState<N>;

// Snake case, scalar gains, float arrays; counts its calls.
struct Scalar {
  double dt = 0.002, kp = 30.0, kd = 1.5;
  std::array<float, N> init_pos{0.1f, 0.2f, 0.3f};
  std::array<float, N> jpos_des{1.0f, 2.0f, 3.0f};
  int loads = 0, resets = 0, inputs = 0, calculations = 0;
  double seen_q0 = 0.0;
  void load_params(const std::filesystem::path&) { ++loads; }
  void reset(const State& s, const praxis::Gamepad&) {
    ++resets;
    seen_q0 = s.q[0];
  }
  void get_input(const State& s, const praxis::Gamepad&) {
    ++inputs;
    seen_q0 = s.q[0];
  }
  void calculate() { ++calculations; }
  std::array<float, 4> log() const { return {1.0f, 2.0f, 3.0f, 4.0f}; }
};

// Per-joint gains as Eigen vectors, with every optional member.
struct PerJoint {
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, praxis::JointMode::velocity};
  float dt = 0.001f;
  Eigen::Vector3d kp{10.0, 20.0, 5.0};
  std::array<double, N> kd{0.1, 0.2, 0.3};
  Eigen::Vector3f init_pos{0.0f, 0.5f, -0.5f};
  Eigen::Vector3f jpos_des{0.0f, 0.5f, -0.5f};
  std::array<double, N> jvel_des{0.0, 1.5, 0.0};
  std::array<double, N> tau_ff{0.0, 0.0, -2.0};
  std::array<praxis::JointMode, N> joint_mode{praxis::JointMode::position, praxis::JointMode::velocity,
                                              praxis::JointMode::position};
  void load_params(const std::filesystem::path&) {}
  void reset(const State&, const praxis::Gamepad&) {}
  void get_input(const State&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 0> log() const { return {}; }
};

// The Unitree framework's names.
struct Framework {
  float dt = 0.002f, kp = 40.0f, kd = 1.0f;
  std::array<float, N> init_pos{};
  std::array<float, N> jpos_des{};
  int resets = 0, inputs = 0, calculations = 0;
  float seen_q1 = 0.0f, seen_gravity_z = 0.0f;
  std::filesystem::path loaded;
  void LoadParam(std::filesystem::path& folder) { loaded = folder; }
  void Reset(praxis::control::unitree_framework::RobotInterface<N>& robot, praxis::control::unitree_framework::Gamepad&) {
    ++resets;
    seen_q1 = robot.jpos[1];
  }
  void GetInput(praxis::control::unitree_framework::RobotInterface<N>& robot, praxis::control::unitree_framework::Gamepad&) {
    ++inputs;
    seen_q1 = robot.jpos[1];
    seen_gravity_z = robot.projected_gravity[2];
  }
  void Calculate() { ++calculations; }
  std::vector<float> GetLog() { return {7.0f, 8.0f}; }
};

}  // namespace sample_controllers
