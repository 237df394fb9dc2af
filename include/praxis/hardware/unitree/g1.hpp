#pragma once
// Unitree G1, 29 DOF (unitree_hg, 29 of 35 motor slots), in wire order (PR ankle mode names).
// Numbers (docs/backends/unitree_wire.md, "Robot models"): URDF g1_29dof_rev_1_0
// limits, unitree_rl_gym deploy default angles, low-level example gains.

#include <array>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::unitree {

struct G1 {
  static constexpr std::string_view name = "g1";
  static constexpr std::size_t joint_count = 29;

  static constexpr double wrist_roll = 1.972222054, wrist_py = 1.614429558;

  static constexpr std::array<JointSpec, joint_count> joints{{
      {"left_hip_pitch", -2.5307, 2.8798, 88, 32},
      {"left_hip_roll", -0.5236, 2.9671, 139, 20},
      {"left_hip_yaw", -2.7576, 2.7576, 88, 32},
      {"left_knee", -0.087267, 2.8798, 139, 20},
      {"left_ankle_pitch", -0.87267, 0.5236, 35, 30},
      {"left_ankle_roll", -0.2618, 0.2618, 35, 30},
      {"right_hip_pitch", -2.5307, 2.8798, 88, 32},
      {"right_hip_roll", -2.9671, 0.5236, 139, 20},
      {"right_hip_yaw", -2.7576, 2.7576, 88, 32},
      {"right_knee", -0.087267, 2.8798, 139, 20},
      {"right_ankle_pitch", -0.87267, 0.5236, 35, 30},
      {"right_ankle_roll", -0.2618, 0.2618, 35, 30},
      {"waist_yaw", -2.618, 2.618, 88, 32},
      {"waist_roll", -0.52, 0.52, 35, 30},
      {"waist_pitch", -0.52, 0.52, 35, 30},
      {"left_shoulder_pitch", -3.0892, 2.6704, 25, 37},
      {"left_shoulder_roll", -1.5882, 2.2515, 25, 37},
      {"left_shoulder_yaw", -2.618, 2.618, 25, 37},
      {"left_elbow", -1.0472, 2.0944, 25, 37},
      {"left_wrist_roll", -wrist_roll, wrist_roll, 25, 37},
      {"left_wrist_pitch", -wrist_py, wrist_py, 5, 22},
      {"left_wrist_yaw", -wrist_py, wrist_py, 5, 22},
      {"right_shoulder_pitch", -3.0892, 2.6704, 25, 37},
      {"right_shoulder_roll", -2.2515, 1.5882, 25, 37},
      {"right_shoulder_yaw", -2.618, 2.618, 25, 37},
      {"right_elbow", -1.0472, 2.0944, 25, 37},
      {"right_wrist_roll", -wrist_roll, wrist_roll, 25, 37},
      {"right_wrist_pitch", -wrist_py, wrist_py, 5, 22},
      {"right_wrist_yaw", -wrist_py, wrist_py, 5, 22},
  }};

  // unitree_rl_gym deploy (g1.yaml): legs {-0.1, 0, 0, 0.3, -0.2, 0} x2, waist and arms 0.
  static constexpr std::array<double, joint_count> stand_pose{
      -0.1, 0, 0, 0.3, -0.2, 0, -0.1, 0, 0, 0.3, -0.2, 0, 0, 0, 0,
      0,    0, 0, 0,   0,    0, 0,    0, 0, 0, 0,    0, 0, 0};
  // Lying flat, limbs straight: every joint at zero (inside every limit). A praxis choice; the
  // vendor publishes no lying pose for the G1.
  static constexpr std::array<double, joint_count> rest_pose{};

  // g1_ankle_swing_example gains.
  static constexpr std::array<double, joint_count> default_kp{
      60, 60, 60, 100, 40, 40, 60, 60, 60, 100, 40, 40, 60, 40, 40,
      40, 40, 40, 40,  40, 40, 40, 40, 40, 40,  40, 40, 40, 40};
  static constexpr std::array<double, joint_count> default_kd{
      1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1,
      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
};

static_assert(validate_model<G1>());

}  // namespace praxis::unitree
