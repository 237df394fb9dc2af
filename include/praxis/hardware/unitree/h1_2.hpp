#pragma once
// Unitree H1-2: 27 joints on the hg family (docs/backends/unitree_wire.md): limits from the
// h1_2_handless URDF, default pose and gains from unitree_rl_gym's h1_2 deploy configuration.

#include <array>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::unitree {

struct H1_2 {
  static constexpr std::string_view name = "h1_2";
  static constexpr std::size_t joint_count = 27;

  static constexpr std::array<JointSpec, joint_count> joints{{
      {"left_hip_yaw", -0.43, 0.43, 200, 23},
      {"left_hip_pitch", -3.14, 2.5, 200, 23},
      {"left_hip_roll", -0.43, 3.14, 200, 23},
      {"left_knee", -0.12, 2.19, 300, 14},
      {"left_ankle_pitch", -0.897334, 0.523598, 60, 9},
      {"left_ankle_roll", -0.261799, 0.261799, 40, 9},
      {"right_hip_yaw", -0.43, 0.43, 200, 23},
      {"right_hip_pitch", -3.14, 2.5, 200, 23},
      {"right_hip_roll", -3.14, 0.43, 200, 23},
      {"right_knee", -0.12, 2.19, 300, 14},
      {"right_ankle_pitch", -0.897334, 0.523598, 60, 9},
      {"right_ankle_roll", -0.261799, 0.261799, 40, 9},
      {"torso", -2.35, 2.35, 200, 23},
      {"left_shoulder_pitch", -3.14, 1.57, 40, 9},
      {"left_shoulder_roll", -0.38, 3.4, 40, 9},
      {"left_shoulder_yaw", -2.66, 3.01, 18, 20},
      {"left_elbow", -0.95, 3.18, 18, 20},
      {"left_wrist_roll", -3.01, 2.75, 19, 31.4},
      {"left_wrist_pitch", -0.4625, 0.4625, 19, 31.4},
      {"left_wrist_yaw", -1.27, 1.27, 19, 31.4},
      {"right_shoulder_pitch", -3.14, 1.57, 40, 9},
      {"right_shoulder_roll", -3.4, 0.38, 40, 9},
      {"right_shoulder_yaw", -3.01, 2.66, 18, 20},
      {"right_elbow", -0.95, 3.18, 18, 20},
      {"right_wrist_roll", -2.75, 3.01, 19, 31.4},
      {"right_wrist_pitch", -0.4625, 0.4625, 19, 31.4},
      {"right_wrist_yaw", -1.27, 1.27, 19, 31.4},
  }};

  // rl_gym h1_2.yaml default angles: legs {0, -0.16, 0, 0.36, -0.2, 0} x2, torso and arms 0.
  static constexpr std::array<double, joint_count> stand_pose{0, -0.16, 0, 0.36, -0.2, 0, 0, -0.16, 0, 0.36, -0.2, 0, 0, 0,
                                                              0, 0,     0, 0,    0,    0, 0, 0,     0, 0,    0,    0, 0};
  // Lying flat, every joint at zero (inside every limit); a praxis choice.
  static constexpr std::array<double, joint_count> rest_pose{};
  // rl_gym h1_2.yaml: legs kps {200,200,200,300,40,40} x2; torso 300; arms {120,120,120,80,80,80,80} x2.
  static constexpr std::array<double, joint_count> default_kp{200, 200, 200, 300, 40, 40, 200, 200, 200, 300, 40, 40, 300, 120,
                                                              120, 120, 80,  80,  80, 80, 120, 120, 120, 80,  80, 80, 80};
  static constexpr std::array<double, joint_count> default_kd{2.5, 2.5, 2.5, 4, 2, 2, 2.5, 2.5, 2.5, 4, 2, 2, 3, 2,
                                                              2,   2,   1,   1, 1, 1, 2,   2,   2,   1, 1, 1, 1};
};

static_assert(validate_model<H1_2>());

}  // namespace praxis::unitree
