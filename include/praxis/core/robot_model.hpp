#pragma once
// Robot models: constexpr tables of what praxis must know about a robot's joints. A model is a
// struct with static members; see hardware/unitree/go2.hpp for a complete one.

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>

namespace praxis {

struct JointSpec {
  std::string_view name;  // wire order is the order of the table
  double lower;           // position limits, rad
  double upper;
  double effort;    // torque limit, N m
  double velocity;  // speed limit, rad/s
};

template <class M>
concept RobotModel = requires {
  { M::name } -> std::convertible_to<std::string_view>;
  { M::joint_count } -> std::convertible_to<std::size_t>;
  requires M::joint_count > 0;
  { M::joints } -> std::convertible_to<std::array<JointSpec, M::joint_count>>;
  // A pose the robot can hold standing, and the pose it rests in when lying down or powered off.
  { M::stand_pose } -> std::convertible_to<std::array<double, M::joint_count>>;
  { M::rest_pose } -> std::convertible_to<std::array<double, M::joint_count>>;
  // Per-joint position gains that hold the stand pose on the real robot (vendor example values).
  { M::default_kp } -> std::convertible_to<std::array<double, M::joint_count>>;
  { M::default_kd } -> std::convertible_to<std::array<double, M::joint_count>>;
};

// Index of a joint by name, or joint_count when there is none.
template <RobotModel M>
[[nodiscard]] constexpr std::size_t joint_index(std::string_view name) {
  for (std::size_t i = 0; i < M::joint_count; ++i) {
    if (M::joints[i].name == name) return i;
  }
  return M::joint_count;
}

// A vendor's spelling of a joint name without its trailing "_joint" (URDF, MJCF and Isaac Lab files
// say "left_knee_joint" where a robot model says "left_knee"); any other name as it is.
[[nodiscard]] constexpr std::string_view without_joint_suffix(std::string_view name) {
  constexpr std::string_view suffix = "_joint";
  if (name.size() > suffix.size() && name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
  return name;
}

// Index of a joint by the model's name or, when the model has no joint of that exact name, by a
// vendor's spelling of it (without_joint_suffix); joint_count when neither names one.
template <RobotModel M>
[[nodiscard]] constexpr std::size_t joint_index_or_vendor(std::string_view name) {
  const std::size_t j = joint_index<M>(name);
  return j != M::joint_count ? j : joint_index<M>(without_joint_suffix(name));
}

namespace detail {
template <std::size_t N>
constexpr bool poses_within_limits(const std::array<JointSpec, N>& joints,
                                   const std::array<double, N>& pose) {
  for (std::size_t i = 0; i < N; ++i) {
    if (!(pose[i] >= joints[i].lower && pose[i] <= joints[i].upper)) return false;  // NaN fails too
  }
  return true;
}
template <std::size_t N>
constexpr bool limits_are_ordered(const std::array<JointSpec, N>& joints) {
  for (const auto& j : joints) {
    if (!(j.lower < j.upper) || !(j.effort > 0) || !(j.velocity > 0)) return false;
  }
  return true;
}
}  // namespace detail

// Checks a model's tables at compile time; every shipped model is passed through it.
template <RobotModel M>
constexpr bool validate_model() {
  static_assert(detail::limits_are_ordered(M::joints),
                "robot model: every joint needs lower < upper and positive effort and velocity limits");
  static_assert(detail::poses_within_limits(M::joints, M::stand_pose),
                "robot model: stand_pose is outside the joint limits");
  static_assert(detail::poses_within_limits(M::joints, M::rest_pose),
                "robot model: rest_pose is outside the joint limits");
  return true;
}

}  // namespace praxis
