#pragma once
// Unitree Go2: 12 joints (motor slots 0..11 of 20), in wire order. Numbers from
// docs/backends/unitree_wire.md ("Robot models"): URDF limits, Unitree example poses and gains.

#include <array>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::unitree {

struct Go2 {
  static constexpr std::string_view name = "go2";
  static constexpr std::size_t joint_count = 12;

  static constexpr double hip = 1.0472, thigh_front_lo = -1.5708, thigh_front_hi = 3.4907,
                          thigh_rear_lo = -0.5236, thigh_rear_hi = 4.5379, calf_lo = -2.7227,
                          calf_hi = -0.83776;

  static constexpr std::array<JointSpec, joint_count> joints{{
      {"FR_hip", -hip, hip, 23.7, 30.1},
      {"FR_thigh", thigh_front_lo, thigh_front_hi, 23.7, 30.1},
      {"FR_calf", calf_lo, calf_hi, 45.43, 15.70},
      {"FL_hip", -hip, hip, 23.7, 30.1},
      {"FL_thigh", thigh_front_lo, thigh_front_hi, 23.7, 30.1},
      {"FL_calf", calf_lo, calf_hi, 45.43, 15.70},
      {"RR_hip", -hip, hip, 23.7, 30.1},
      {"RR_thigh", thigh_rear_lo, thigh_rear_hi, 23.7, 30.1},
      {"RR_calf", calf_lo, calf_hi, 45.43, 15.70},
      {"RL_hip", -hip, hip, 23.7, 30.1},
      {"RL_thigh", thigh_rear_lo, thigh_rear_hi, 23.7, 30.1},
      {"RL_calf", calf_lo, calf_hi, 45.43, 15.70},
  }};

  // unitree_mujoco stand_go2 example: stand-up and lie-down targets.
  static constexpr std::array<double, joint_count> stand_pose{
      0.00571868, 0.608813, -1.21763, -0.00571868, 0.608813, -1.21763,
      0.00571868, 0.608813, -1.21763, -0.00571868, 0.608813, -1.21763};
  static constexpr std::array<double, joint_count> rest_pose{
      0.0473455, 1.22187, -2.44375, -0.0473455, 1.22187, -2.44375,
      0.0473455, 1.22187, -2.44375, -0.0473455, 1.22187, -2.44375};

  // go2_stand_example: Kp 60, Kd 5 on every joint.
  static constexpr std::array<double, joint_count> default_kp{60, 60, 60, 60, 60, 60,
                                                              60, 60, 60, 60, 60, 60};
  static constexpr std::array<double, joint_count> default_kd{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
};

static_assert(validate_model<Go2>());

}  // namespace praxis::unitree
