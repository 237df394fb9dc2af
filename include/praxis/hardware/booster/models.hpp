#pragma once
// Booster robot models: T1 (23 joints), T1 with 7-DoF arms (29) and K1 (22), in the SDK's joint
// order (b1_api_const.hpp; docs/backends/booster.md, "Wire facts and their sources": joints,
// gains and weight).
//
// What is a fact and what is not:
//   - joint order and count: the SDK's tables (T1, K1). The order of the three extra arm joints of
//     the 7-DoF T1 (WristPitch, WristYaw, HandRoll after ElbowYaw, per arm) is UNVERIFIED.
//   - gains: T1 from the SDK's low-level example (its PARALLEL-space values), K1 from HULKs' prepare
//     set; the stand poses likewise. The 7-DoF wrist gains repeat the elbow's. prepare_kp /
//     prepare_kd are the gains to hold a robot that stands in Prepare with when praxis takes its
//     joints in Custom (custom_entry.hpp): the same sets. The gains of Booster's own Prepare
//     controller are not published (UNVERIFIED that they match).
//   - position, torque and speed limits: Booster publishes none in the material praxis was written
//     from. These are praxis' own conservative envelope (UNVERIFIED): wide enough for the vendor
//     poses, narrow enough that the collector's clamp catches a wild target. Check them against the
//     robot's URDF before relying on them, or define your own model struct with the same members.
//   - the names CrankUp / CrankDown are the SDK's: in serial (joint) space they are the ankle's two
//     joints (pitch and roll, UNVERIFIED), in parallel (motor) space its two crank motors.
//   - values_in_motor_space: the space the model's poses and gains were published in (T1: the SDK
//     example's PARALLEL; K1: HULKs' serial). The backend's factories command in that space, so
//     the ankle values go to the robot in the space the documents give them in.

#include <array>
#include <cstddef>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::booster {

namespace detail {
// Limits per kind of joint (UNVERIFIED envelope, see above).
inline constexpr JointSpec head_yaw{"", -1.5, 1.5, 7.0, 10.0};
inline constexpr JointSpec head_pitch{"", -0.6, 1.2, 7.0, 10.0};
inline constexpr JointSpec shoulder_pitch{"", -3.3, 1.3, 36.0, 12.0};
inline constexpr JointSpec shoulder_roll{"", -1.8, 1.8, 36.0, 12.0};
inline constexpr JointSpec elbow{"", -2.3, 2.3, 36.0, 12.0};
inline constexpr JointSpec wrist{"", -1.5, 1.5, 18.0, 12.0};
inline constexpr JointSpec waist{"", -1.6, 1.6, 30.0, 10.0};
inline constexpr JointSpec hip_pitch{"", -1.8, 1.6, 120.0, 12.0};
inline constexpr JointSpec hip_roll{"", -0.5, 0.5, 90.0, 12.0};
inline constexpr JointSpec hip_yaw{"", -1.0, 1.0, 60.0, 12.0};
inline constexpr JointSpec knee{"", -0.1, 2.3, 130.0, 12.0};
inline constexpr JointSpec ankle{"", -0.9, 0.9, 50.0, 12.0};

constexpr JointSpec named(JointSpec spec, std::string_view name) {
  spec.name = name;
  return spec;
}
}  // namespace detail

struct T1 {
  static constexpr std::string_view name = "t1";
  static constexpr bool values_in_motor_space = true;  // the SDK example sends PARALLEL
  static constexpr std::size_t head_yaw_joint = 0;
  static constexpr std::size_t head_pitch_joint = 1;
  static constexpr std::size_t joint_count = 23;
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::head_yaw, "HeadYaw"),
      detail::named(detail::head_pitch, "HeadPitch"),
      detail::named(detail::shoulder_pitch, "LeftShoulderPitch"),
      detail::named(detail::shoulder_roll, "LeftShoulderRoll"),
      detail::named(detail::elbow, "LeftElbowPitch"),
      detail::named(detail::elbow, "LeftElbowYaw"),
      detail::named(detail::shoulder_pitch, "RightShoulderPitch"),
      detail::named(detail::shoulder_roll, "RightShoulderRoll"),
      detail::named(detail::elbow, "RightElbowPitch"),
      detail::named(detail::elbow, "RightElbowYaw"),
      detail::named(detail::waist, "Waist"),
      detail::named(detail::hip_pitch, "LeftHipPitch"),
      detail::named(detail::hip_roll, "LeftHipRoll"),
      detail::named(detail::hip_yaw, "LeftHipYaw"),
      detail::named(detail::knee, "LeftKneePitch"),
      detail::named(detail::ankle, "CrankUpLeft"),
      detail::named(detail::ankle, "CrankDownLeft"),
      detail::named(detail::hip_pitch, "RightHipPitch"),
      detail::named(detail::hip_roll, "RightHipRoll"),
      detail::named(detail::hip_yaw, "RightHipYaw"),
      detail::named(detail::knee, "RightKneePitch"),
      detail::named(detail::ankle, "CrankUpRight"),
      detail::named(detail::ankle, "CrankDownRight"),
  };
  // The SDK example's target pose.
  static constexpr std::array<double, joint_count> stand_pose{
      0.0,  0.0,                    // head
      0.10, -1.50, 0.0, -0.20,      // left arm
      0.10, 1.50,  0.0, 0.20,       // right arm
      0.0,                          // waist
      -0.2, 0.0,   0.0, 0.4, 0.2, 0.14,  // left leg
      -0.2, 0.0,   0.0, 0.4, 0.2, 0.14,  // right leg
  };
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      5, 5, 40, 50, 20, 10, 40, 50, 20, 10, 100, 350, 350, 180, 350, 550, 550, 350, 350, 180, 350, 550, 550};
  static constexpr std::array<double, joint_count> default_kd{0.1, 0.1, 0.5, 1.5, 0.2, 0.2, 0.5, 1.5,
                                                              0.2, 0.2, 5.0, 7.5, 7.5, 3,   5.5, 1.5,
                                                              1.5, 7.5, 7.5, 3,   5.5, 1.5, 1.5};
  // Entering Custom from Prepare: hold the measured pose with these (see the header comment).
  static constexpr const std::array<double, joint_count>& prepare_kp = default_kp;
  static constexpr const std::array<double, joint_count>& prepare_kd = default_kd;
};

// T1 with 7-DoF arms: each arm gains WristPitch, WristYaw and HandRoll (order UNVERIFIED).
struct T1Arms7 {
  static constexpr std::string_view name = "t1_7dof";
  static constexpr bool values_in_motor_space = true;
  static constexpr std::size_t head_yaw_joint = 0;
  static constexpr std::size_t head_pitch_joint = 1;
  static constexpr std::size_t joint_count = 29;
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::head_yaw, "HeadYaw"),
      detail::named(detail::head_pitch, "HeadPitch"),
      detail::named(detail::shoulder_pitch, "LeftShoulderPitch"),
      detail::named(detail::shoulder_roll, "LeftShoulderRoll"),
      detail::named(detail::elbow, "LeftElbowPitch"),
      detail::named(detail::elbow, "LeftElbowYaw"),
      detail::named(detail::wrist, "LeftWristPitch"),
      detail::named(detail::wrist, "LeftWristYaw"),
      detail::named(detail::wrist, "LeftHandRoll"),
      detail::named(detail::shoulder_pitch, "RightShoulderPitch"),
      detail::named(detail::shoulder_roll, "RightShoulderRoll"),
      detail::named(detail::elbow, "RightElbowPitch"),
      detail::named(detail::elbow, "RightElbowYaw"),
      detail::named(detail::wrist, "RightWristPitch"),
      detail::named(detail::wrist, "RightWristYaw"),
      detail::named(detail::wrist, "RightHandRoll"),
      detail::named(detail::waist, "Waist"),
      detail::named(detail::hip_pitch, "LeftHipPitch"),
      detail::named(detail::hip_roll, "LeftHipRoll"),
      detail::named(detail::hip_yaw, "LeftHipYaw"),
      detail::named(detail::knee, "LeftKneePitch"),
      detail::named(detail::ankle, "CrankUpLeft"),
      detail::named(detail::ankle, "CrankDownLeft"),
      detail::named(detail::hip_pitch, "RightHipPitch"),
      detail::named(detail::hip_roll, "RightHipRoll"),
      detail::named(detail::hip_yaw, "RightHipYaw"),
      detail::named(detail::knee, "RightKneePitch"),
      detail::named(detail::ankle, "CrankUpRight"),
      detail::named(detail::ankle, "CrankDownRight"),
  };
  static constexpr std::array<double, joint_count> stand_pose{
      0.0,  0.0,                                 // head
      0.10, -1.50, 0.0, -0.20, 0.0, 0.0, 0.0,    // left arm
      0.10, 1.50,  0.0, 0.20,  0.0, 0.0, 0.0,    // right arm
      0.0,                                       // waist
      -0.2, 0.0,   0.0, 0.4,   0.2, 0.14,        // left leg
      -0.2, 0.0,   0.0, 0.4,   0.2, 0.14,        // right leg
  };
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{5,   5,   40,  50,  20,  10,  10,  10,  10,  40,
                                                              50,  20,  10,  10,  10,  10,  100, 350, 350, 180,
                                                              350, 550, 550, 350, 350, 180, 350, 550, 550};
  static constexpr std::array<double, joint_count> default_kd{0.1, 0.1, 0.5, 1.5, 0.2, 0.2, 0.2, 0.2, 0.2, 0.5,
                                                              1.5, 0.2, 0.2, 0.2, 0.2, 0.2, 5.0, 7.5, 7.5, 3,
                                                              5.5, 1.5, 1.5, 7.5, 7.5, 3,   5.5, 1.5, 1.5};
  // Entering Custom from Prepare: hold the measured pose with these (see the header comment).
  static constexpr const std::array<double, joint_count>& prepare_kp = default_kp;
  static constexpr const std::array<double, joint_count>& prepare_kd = default_kd;
};

// K1: the T1 without the waist. HULKs' names for slots 4/5 and 8/9 are shoulder_yaw / elbow.
struct K1 {
  static constexpr std::string_view name = "k1";
  static constexpr bool values_in_motor_space = false;  // HULKs command in serial (joint) space
  static constexpr std::size_t head_yaw_joint = 0;
  static constexpr std::size_t head_pitch_joint = 1;
  static constexpr std::size_t joint_count = 22;
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::head_yaw, "HeadYaw"),
      detail::named(detail::head_pitch, "HeadPitch"),
      detail::named(detail::shoulder_pitch, "LeftShoulderPitch"),
      detail::named(detail::shoulder_roll, "LeftShoulderRoll"),
      detail::named(detail::elbow, "LeftElbowPitch"),
      detail::named(detail::elbow, "LeftElbowYaw"),
      detail::named(detail::shoulder_pitch, "RightShoulderPitch"),
      detail::named(detail::shoulder_roll, "RightShoulderRoll"),
      detail::named(detail::elbow, "RightElbowPitch"),
      detail::named(detail::elbow, "RightElbowYaw"),
      detail::named(detail::hip_pitch, "LeftHipPitch"),
      detail::named(detail::hip_roll, "LeftHipRoll"),
      detail::named(detail::hip_yaw, "LeftHipYaw"),
      detail::named(detail::knee, "LeftKneePitch"),
      detail::named(detail::ankle, "CrankUpLeft"),
      detail::named(detail::ankle, "CrankDownLeft"),
      detail::named(detail::hip_pitch, "RightHipPitch"),
      detail::named(detail::hip_roll, "RightHipRoll"),
      detail::named(detail::hip_yaw, "RightHipYaw"),
      detail::named(detail::knee, "RightKneePitch"),
      detail::named(detail::ankle, "CrankUpRight"),
      detail::named(detail::ankle, "CrankDownRight"),
  };
  // HULKs' prepare set: arms shoulder_pitch 0.2, shoulder_roll -/+1.4, elbow -/+0.5; legs hip_pitch
  // -0.2, knee 0.4, ankle_up -0.175.
  static constexpr std::array<double, joint_count> stand_pose{
      0.0,  0.0,                          // head
      0.2,  -1.4, 0.0, -0.5,              // left arm
      0.2,  1.4,  0.0, 0.5,               // right arm
      -0.2, 0.0,  0.0, 0.4, -0.175, 0.0,  // left leg
      -0.2, 0.0,  0.0, 0.4, -0.175, 0.0,  // right leg
  };
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{10,  10,  10,  10,  10, 10, 10,  10,  10,  10,  140,
                                                              140, 140, 140, 50,  10, 140, 140, 140, 140, 50, 10};
  static constexpr std::array<double, joint_count> default_kd{1,   1,   1,   1,   1,   1, 1,   1,   1,   1,   3.5,
                                                              3.5, 3.5, 3.5, 1.5, 1.0, 3.5, 3.5, 3.5, 3.5, 1.5, 1.0};
  // Entering Custom from Prepare: hold the measured pose with these (see the header comment).
  static constexpr const std::array<double, joint_count>& prepare_kp = default_kp;
  static constexpr const std::array<double, joint_count>& prepare_kd = default_kd;
};

static_assert(validate_model<T1>());
static_assert(validate_model<T1Arms7>());
static_assert(validate_model<K1>());

template <class M>
concept BoosterModel = RobotModel<M> && (M::joint_count == 22 || M::joint_count == 23 || M::joint_count == 29);

// The space the model's published poses and gains are in (models without the member: serial).
template <class M>
[[nodiscard]] constexpr bool values_in_motor_space() {
  if constexpr (requires { M::values_in_motor_space; }) {
    return M::values_in_motor_space;
  } else {
    return false;
  }
}

}  // namespace praxis::booster
