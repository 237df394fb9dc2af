#pragma once
// Fourier robots driven through Aurora: GR-1 (32 joints), GR-2 (29), GR-3 (31), N1 (23), in joint
// space (Aurora solves the parallel mechanisms itself and never exposes actuators).
//
// Sources (docs/backends/aurora.md, "Wire facts and their sources", which names the Aurora SDK's
// robot_specs, controller_reference and demo files):
//   - control groups, their order and joint order: "Control groups and joints" there. Whole-body
//     order is left_leg, right_leg, waist, head, left_manipulator, right_manipulator. The hands
//     (left_hand / right_hand, 6 values each) are not part of the body count and their per-finger
//     names are UNVERIFIED, so no model drives them; the codec skips their groups.
//   - joint names: "left_" / "right_" + the listed name + "_joint"; the waist and head joints carry
//     no side.
//   - limits: only a few are quoted there (GR-2 hip_pitch, GR-3 knee_pitch, N1 hip_pitch, GR-1
//     knee_pitch); those are used. Every other limit is praxis' own envelope, UNVERIFIED: wide enough
//     for the vendor's poses, narrow enough that the collector's clamp catches a wild target. Check
//     them against robot_specs before relying on them.
//   - stand_pose / rest_pose: all zeros, the pose Aurora's JointStand drives every joint to (the
//     state machine there); a bent-knee stand pose is UNVERIFIED and not given.
//   - gains: the vendor UserCmd examples ("Gains, rates and ranges") for GR-2, GR-3 and N1. GR-1
//     has none there: its values are GR-2's per kind of joint, UNVERIFIED.
//   - velocity ranges of the robot's own locomotion ("Gains, rates and ranges"; GR-3: its WBC's
//     normalised command scale). N1's vy and yaw ranges are UNVERIFIED (GR-1's used).

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::aurora {

// One control group: Aurora's name and the model's joints [first, first + count).
struct ControlGroup {
  std::string_view name;
  std::size_t first;
  std::size_t count;
};

// Velocity limits of the robot's own walking (velocity_cmd), m/s and rad/s.
struct VelocityRange {
  double vx_min, vx_max, vy_max, yaw_max;
};

// The largest group any model has (a manipulator, 7) with room for a 6-value hand.
inline constexpr std::size_t k_max_group_joints = 8;
// Aurora's state carries up to eight groups (body and hands).
inline constexpr std::size_t k_max_groups = 8;
inline constexpr std::size_t k_max_group_name = 31;

template <class M>
concept AuroraModel = RobotModel<M> && requires {
  { M::groups.size() } -> std::convertible_to<std::size_t>;
  { M::groups[0] } -> std::convertible_to<ControlGroup>;
  { M::velocity_range } -> std::convertible_to<VelocityRange>;
};

namespace detail {

constexpr JointSpec named(JointSpec spec, std::string_view name) {
  spec.name = name;
  return spec;
}

// The groups follow each other and cover every joint exactly once, in order, with names that fit.
template <AuroraModel M>
constexpr bool groups_tile_joints() {
  std::size_t next = 0;
  for (const ControlGroup& g : M::groups) {
    if (g.first != next || g.count == 0 || g.count > k_max_group_joints || g.name.size() > k_max_group_name) {
      return false;
    }
    next += g.count;
  }
  return next == M::joint_count && M::groups.size() <= k_max_groups;
}

// UNVERIFIED envelope per kind of joint (see the file comment): lower, upper (rad), effort (N m),
// velocity (rad/s).
inline constexpr JointSpec hip_roll{"", -0.8, 0.8, 200.0, 8.0};
inline constexpr JointSpec hip_yaw{"", -1.0, 1.0, 200.0, 8.0};
inline constexpr JointSpec hip_pitch{"", -2.0, 2.0, 300.0, 8.0};
inline constexpr JointSpec knee{"", -0.09, 2.0, 300.0, 8.0};
inline constexpr JointSpec ankle_pitch{"", -0.8, 0.8, 100.0, 8.0};
inline constexpr JointSpec ankle_roll{"", -0.4, 0.4, 60.0, 8.0};
inline constexpr JointSpec waist_yaw{"", -1.0, 1.0, 100.0, 6.0};
inline constexpr JointSpec waist_pitch{"", -0.5, 0.5, 100.0, 6.0};
inline constexpr JointSpec waist_roll{"", -0.5, 0.5, 100.0, 6.0};
inline constexpr JointSpec head_yaw{"", -1.0, 1.0, 20.0, 6.0};
inline constexpr JointSpec head_pitch{"", -0.5, 0.5, 20.0, 6.0};
inline constexpr JointSpec head_roll{"", -0.5, 0.5, 20.0, 6.0};
inline constexpr JointSpec shoulder_pitch{"", -2.8, 2.8, 100.0, 8.0};
inline constexpr JointSpec shoulder_roll{"", -2.5, 2.5, 100.0, 8.0};
inline constexpr JointSpec shoulder_yaw{"", -2.0, 2.0, 60.0, 8.0};
inline constexpr JointSpec elbow_pitch{"", -2.0, 2.0, 60.0, 8.0};
inline constexpr JointSpec wrist_yaw{"", -2.0, 2.0, 20.0, 8.0};
inline constexpr JointSpec wrist_roll{"", -1.0, 1.0, 20.0, 8.0};
inline constexpr JointSpec wrist_pitch{"", -0.8, 0.8, 20.0, 8.0};

// N1 is a smaller robot: its envelope keeps the angles and takes the quoted hip_pitch torque
// (90 N m) and speed (16.2 rad/s) as the scale of every leg joint (UNVERIFIED).
constexpr JointSpec n1_scaled(JointSpec spec, double effort, double velocity) {
  spec.effort = effort;
  spec.velocity = velocity;
  return spec;
}

}  // namespace detail

// ---- GR-1 / GR-1P (robot_name gr1) ----
struct GR1 {
  static constexpr std::string_view name = "gr1";
  static constexpr std::size_t joint_count = 32;
  static constexpr std::array<ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                        {"right_leg", 6, 6},
                                                        {"waist", 12, 3},
                                                        {"head", 15, 3},
                                                        {"left_manipulator", 18, 7},
                                                        {"right_manipulator", 25, 7}}};
  // Aurora SDK doc/EN/gr1/robot_specs_EN.md: GR-1 knee_pitch -0.09..1.92 rad, 135 N m (speed: envelope).
  static constexpr JointSpec knee{"", -0.09, 1.92, 135.0, 8.0};
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::hip_roll, "left_hip_roll_joint"),
      detail::named(detail::hip_yaw, "left_hip_yaw_joint"),
      detail::named(detail::hip_pitch, "left_hip_pitch_joint"),
      detail::named(knee, "left_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "left_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "left_ankle_roll_joint"),
      detail::named(detail::hip_roll, "right_hip_roll_joint"),
      detail::named(detail::hip_yaw, "right_hip_yaw_joint"),
      detail::named(detail::hip_pitch, "right_hip_pitch_joint"),
      detail::named(knee, "right_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "right_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "right_ankle_roll_joint"),
      detail::named(detail::waist_yaw, "waist_yaw_joint"),
      detail::named(detail::waist_pitch, "waist_pitch_joint"),
      detail::named(detail::waist_roll, "waist_roll_joint"),
      detail::named(detail::head_roll, "head_roll_joint"),
      detail::named(detail::head_yaw, "head_yaw_joint"),
      detail::named(detail::head_pitch, "head_pitch_joint"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "left_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "left_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "left_wrist_yaw_joint"),
      detail::named(detail::wrist_roll, "left_wrist_roll_joint"),
      detail::named(detail::wrist_pitch, "left_wrist_pitch_joint"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "right_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "right_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "right_wrist_yaw_joint"),
      detail::named(detail::wrist_roll, "right_wrist_roll_joint"),
      detail::named(detail::wrist_pitch, "right_wrist_pitch_joint"),
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  // UNVERIFIED: GR-2's example gains per kind of joint, in GR-1's joint order.
  static constexpr std::array<double, joint_count> default_kp{
      150, 150, 200, 400, 150, 80,   150, 150, 200, 400, 150, 80,  // legs
      200, 200, 200,                                               // waist
      100, 100, 100,                                               // head
      300, 300, 100, 100, 50,  50,  50,                            // left arm
      300, 300, 100, 100, 50,  50,  50};                           // right arm
  static constexpr std::array<double, joint_count> default_kd{
      15, 15, 20, 30, 15, 8,  15, 15, 20, 30, 15, 8,  //
      10, 10, 10,                                     //
      10, 10, 10,                                     //
      10, 10, 5,  5,  5,  5,  5,                      //
      10, 10, 5,  5,  5,  5,  5};
  static constexpr VelocityRange velocity_range{-0.4, 0.5, 0.3, 0.8};
};

// ---- GR-2 (robot_name gr2) ----
struct GR2 {
  static constexpr std::string_view name = "gr2";
  static constexpr std::size_t joint_count = 29;
  static constexpr std::array<ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                        {"right_leg", 6, 6},
                                                        {"waist", 12, 1},
                                                        {"head", 13, 2},
                                                        {"left_manipulator", 15, 7},
                                                        {"right_manipulator", 22, 7}}};
  // Aurora SDK doc/EN/gr2/robot_specs_EN.md: GR-2 hip_pitch +-2.618 rad, 6.4997 rad/s, 366.05 N m.
  static constexpr JointSpec hip_pitch{"", -2.618, 2.618, 366.05, 6.4997};
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(hip_pitch, "left_hip_pitch_joint"),
      detail::named(detail::hip_roll, "left_hip_roll_joint"),
      detail::named(detail::hip_yaw, "left_hip_yaw_joint"),
      detail::named(detail::knee, "left_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "left_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "left_ankle_roll_joint"),
      detail::named(hip_pitch, "right_hip_pitch_joint"),
      detail::named(detail::hip_roll, "right_hip_roll_joint"),
      detail::named(detail::hip_yaw, "right_hip_yaw_joint"),
      detail::named(detail::knee, "right_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "right_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "right_ankle_roll_joint"),
      detail::named(detail::waist_yaw, "waist_yaw_joint"),
      detail::named(detail::head_yaw, "head_yaw_joint"),
      detail::named(detail::head_pitch, "head_pitch_joint"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "left_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "left_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "left_wrist_yaw_joint"),
      detail::named(detail::wrist_pitch, "left_wrist_pitch_joint"),
      detail::named(detail::wrist_roll, "left_wrist_roll_joint"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "right_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "right_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "right_wrist_yaw_joint"),
      detail::named(detail::wrist_pitch, "right_wrist_pitch_joint"),
      detail::named(detail::wrist_roll, "right_wrist_roll_joint"),
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      200, 150, 150, 400, 150, 80,  200, 150, 150, 400, 150, 80,  // legs
      200,                                                        // waist
      100, 100,                                                   // head
      300, 300, 100, 100, 50,  50,  50,                           // left arm
      300, 300, 100, 100, 50,  50,  50};
  static constexpr std::array<double, joint_count> default_kd{
      20, 15, 15, 30, 15, 8,  20, 15, 15, 30, 15, 8,  //
      10,                                             //
      10, 10,                                         //
      10, 10, 5,  5,  5,  5,  5,                      //
      10, 10, 5,  5,  5,  5,  5};
  static constexpr VelocityRange velocity_range{-0.5, 0.75, 0.5, 1.0};
};

// ---- GR-3 (robot_name gr3) ----
struct GR3 {
  static constexpr std::string_view name = "gr3";
  static constexpr std::size_t joint_count = 31;
  static constexpr std::array<ControlGroup, 6> groups{{{"left_leg", 0, 6},
                                                        {"right_leg", 6, 6},
                                                        {"waist", 12, 3},
                                                        {"head", 15, 2},
                                                        {"left_manipulator", 17, 7},
                                                        {"right_manipulator", 24, 7}}};
  // Aurora SDK doc/EN/gr3/robot_specs_EN.md: GR-3 knee_pitch 0..2.3562 rad, 366 N m (speed: envelope).
  static constexpr JointSpec knee{"", 0.0, 2.3562, 366.0, 8.0};
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::hip_pitch, "left_hip_pitch_joint"),
      detail::named(detail::hip_roll, "left_hip_roll_joint"),
      detail::named(detail::hip_yaw, "left_hip_yaw_joint"),
      detail::named(knee, "left_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "left_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "left_ankle_roll_joint"),
      detail::named(detail::hip_pitch, "right_hip_pitch_joint"),
      detail::named(detail::hip_roll, "right_hip_roll_joint"),
      detail::named(detail::hip_yaw, "right_hip_yaw_joint"),
      detail::named(knee, "right_knee_pitch_joint"),
      detail::named(detail::ankle_pitch, "right_ankle_pitch_joint"),
      detail::named(detail::ankle_roll, "right_ankle_roll_joint"),
      detail::named(detail::waist_yaw, "waist_yaw_joint"),
      detail::named(detail::waist_roll, "waist_roll_joint"),
      detail::named(detail::waist_pitch, "waist_pitch_joint"),
      detail::named(detail::head_yaw, "head_yaw_joint"),
      detail::named(detail::head_pitch, "head_pitch_joint"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "left_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "left_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "left_wrist_yaw_joint"),
      detail::named(detail::wrist_pitch, "left_wrist_pitch_joint"),
      detail::named(detail::wrist_roll, "left_wrist_roll_joint"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "right_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "right_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "right_wrist_yaw_joint"),
      detail::named(detail::wrist_pitch, "right_wrist_pitch_joint"),
      detail::named(detail::wrist_roll, "right_wrist_roll_joint"),
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      400, 200, 200, 400, 200, 26,  400, 200, 200, 400, 200, 26,  // legs
      200, 300, 200,                                              // waist
      100, 100,                                                   // head
      400, 200, 200, 200, 50,  50,  50,                           // left arm
      400, 200, 200, 200, 50,  50,  50};
  static constexpr std::array<double, joint_count> default_kd{
      20, 20, 20, 20, 20, 2.6,  20, 20, 20, 20, 20, 2.6,  //
      10, 15, 10,                                         //
      10, 10,                                             //
      20, 10, 10, 10, 2.5, 2.5, 2.5,                      //
      20, 10, 10, 10, 2.5, 2.5, 2.5};
  static constexpr VelocityRange velocity_range{-1.0, 1.0, 0.4, 0.6};
};

// ---- Fourier N1 (robot_name fouriern1) ----
struct N1 {
  static constexpr std::string_view name = "fouriern1";
  static constexpr std::size_t joint_count = 23;
  static constexpr std::array<ControlGroup, 5> groups{{{"left_leg", 0, 6},
                                                        {"right_leg", 6, 6},
                                                        {"waist", 12, 1},
                                                        {"left_manipulator", 13, 5},
                                                        {"right_manipulator", 18, 5}}};
  // Aurora SDK doc/EN/fouriern1/robot_specs_EN.md: N1 hip_pitch +-2.617 rad, 16.2 rad/s, 90 N m.
  static constexpr JointSpec hip_pitch{"", -2.617, 2.617, 90.0, 16.2};
  static constexpr JointSpec hip_roll = detail::n1_scaled(detail::hip_roll, 90.0, 16.2);
  static constexpr JointSpec hip_yaw = detail::n1_scaled(detail::hip_yaw, 90.0, 16.2);
  static constexpr JointSpec knee = detail::n1_scaled(detail::knee, 90.0, 16.2);
  static constexpr JointSpec ankle_roll = detail::n1_scaled(detail::ankle_roll, 30.0, 16.2);
  static constexpr JointSpec ankle_pitch = detail::n1_scaled(detail::ankle_pitch, 30.0, 16.2);
  static constexpr JointSpec waist = detail::n1_scaled(detail::waist_yaw, 60.0, 16.2);
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(hip_pitch, "left_hip_pitch_joint"),
      detail::named(hip_roll, "left_hip_roll_joint"),
      detail::named(hip_yaw, "left_hip_yaw_joint"),
      detail::named(knee, "left_knee_pitch_joint"),
      detail::named(ankle_roll, "left_ankle_roll_joint"),  // N1: roll before pitch
      detail::named(ankle_pitch, "left_ankle_pitch_joint"),
      detail::named(hip_pitch, "right_hip_pitch_joint"),
      detail::named(hip_roll, "right_hip_roll_joint"),
      detail::named(hip_yaw, "right_hip_yaw_joint"),
      detail::named(knee, "right_knee_pitch_joint"),
      detail::named(ankle_roll, "right_ankle_roll_joint"),
      detail::named(ankle_pitch, "right_ankle_pitch_joint"),
      detail::named(waist, "waist_yaw_joint"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "left_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "left_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "left_wrist_yaw_joint"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch_joint"),
      detail::named(detail::shoulder_roll, "right_shoulder_roll_joint"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw_joint"),
      detail::named(detail::elbow_pitch, "right_elbow_pitch_joint"),
      detail::named(detail::wrist_yaw, "right_wrist_yaw_joint"),
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      180, 120, 90, 120, 45, 45,  180, 120, 90, 120, 45, 45,  // legs
      90,                                                     // waist
      90,  45,  45, 45,  45,                                  // left arm
      90,  45,  45, 45,  45};
  static constexpr std::array<double, joint_count> default_kd{
      10, 10,  8,   8,   2.5, 2.5,  10, 10, 8, 8, 2.5, 2.5,  //
      8,                                                     //
      8,  2.5, 2.5, 2.5, 2.5,                                //
      8,  2.5, 2.5, 2.5, 2.5};
  static constexpr VelocityRange velocity_range{-0.5, 0.5, 0.3, 0.8};
};

static_assert(AuroraModel<GR1> && AuroraModel<GR2> && AuroraModel<GR3> && AuroraModel<N1>);
static_assert(validate_model<GR1>() && validate_model<GR2>() && validate_model<GR3>() && validate_model<N1>());
static_assert(detail::groups_tile_joints<GR1>(), "aurora::GR1: the control groups must tile the joints in order");
static_assert(detail::groups_tile_joints<GR2>(), "aurora::GR2: the control groups must tile the joints in order");
static_assert(detail::groups_tile_joints<GR3>(), "aurora::GR3: the control groups must tile the joints in order");
static_assert(detail::groups_tile_joints<N1>(), "aurora::N1: the control groups must tile the joints in order");

// The index of a model group by Aurora's name, or groups.size() when the model has none.
template <AuroraModel M>
[[nodiscard]] constexpr std::size_t group_index(std::string_view name) {
  for (std::size_t g = 0; g < M::groups.size(); ++g) {
    if (M::groups[g].name == name) return g;
  }
  return M::groups.size();
}

}  // namespace praxis::aurora
