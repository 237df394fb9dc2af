#pragma once
// USER_CTRLs the tests share: Hold keeps the model's stand pose; HoldOffset holds it with one joint
// moved by Offset (milliradians: a whole number, since clang 14 takes no floating-point template
// argument), so a test can tell the user's command from praxis' stand on the wire. Gains kp 60,
// kd 2 (the defaults here) differ from every model's default gains for the same reason.

#include <array>
#include <cstddef>
#include <filesystem>

#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::test {

template <class Model, std::size_t Joint = 0, int OffsetMilliRad = 0>
struct HoldOffset {
  static constexpr std::size_t N = Model::joint_count;
  static_assert(Joint < N, "HoldOffset: the joint is not one of the model's");
  static constexpr std::size_t k_joint = Joint;
  static constexpr double k_offset = OffsetMilliRad / 1000.0;
  double dt = 0.002, kp = 60.0, kd = 2.0;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const RobotState<N>&, const Gamepad&) {}
  void get_input(const RobotState<N>&, const Gamepad&) {}
  void calculate() {
    jpos_des = init_pos;
    jpos_des[Joint] += k_offset;
  }
  std::array<float, 0> log() const { return {}; }
};

template <class Model>
using Hold = HoldOffset<Model>;

}  // namespace praxis::test
