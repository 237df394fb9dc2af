#pragma once
// Unitree G1, 23 DOF: the 29-DOF slot layout with waist roll/pitch (13, 14) and wrist pitch/yaw
// (20, 21, 27, 28) unused (docs/backends/unitree_wire.md). Limits, poses and gains as the
// 29-DOF model's for the same joints.

#include <array>
#include <string_view>

#include "praxis/core/robot_model.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace praxis::unitree {

namespace detail {
// The wire slot of each G1 23-DOF joint: 0-12, 15-19, 22-26.
inline constexpr std::array<std::size_t, 23> k_g1_23_slot{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                          12, 15, 16, 17, 18, 19, 22, 23, 24, 25, 26};
template <class T>
constexpr std::array<T, 23> pick_g1_23(const std::array<T, G1::joint_count>& all) {
  std::array<T, 23> out{};
  for (std::size_t j = 0; j < 23; ++j) out[j] = all[k_g1_23_slot[j]];
  return out;
}
}  // namespace detail

struct G1_23 {
  static constexpr std::string_view name = "g1_23";
  static constexpr std::size_t joint_count = 23;
  static constexpr std::array<std::size_t, joint_count> g1_slot = detail::k_g1_23_slot;
  template <class T>
  static constexpr std::array<T, joint_count> pick(const std::array<T, G1::joint_count>& all) {
    return detail::pick_g1_23(all);
  }

  static constexpr std::array<JointSpec, joint_count> joints = detail::pick_g1_23(G1::joints);
  static constexpr std::array<double, joint_count> stand_pose = detail::pick_g1_23(G1::stand_pose);
  static constexpr std::array<double, joint_count> rest_pose = detail::pick_g1_23(G1::rest_pose);
  static constexpr std::array<double, joint_count> default_kp = detail::pick_g1_23(G1::default_kp);
  static constexpr std::array<double, joint_count> default_kd = detail::pick_g1_23(G1::default_kd);
};

static_assert(validate_model<G1_23>());

}  // namespace praxis::unitree
