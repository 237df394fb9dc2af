#pragma once
// Walker Tienkung models for the ROS 2 body service: Pro (30 motors) and Lite (20).
//
// praxis' joint order groups the joints by limb, each limb contiguous, in the order of the state
// table (the legs first: their status topic is the primary one, see topics.hpp); inside a limb the
// motors run in MotorName order (left before right). A model also says, per joint, its motor id on
// the wire and its current-to-torque factor, and per limb which joints it holds.
//
// Facts (docs/backends/tienkung.md, "Wire facts and their sources": motor ids, joints, limits and
// gains):
//   - motor ids and their meaning: MotorName and the official bodyIdMap (51/61 hip_roll, 52/62
//     hip_pitch, 53/63 hip_yaw, 54/64 knee, 55/65 ankle_pitch, 56/66 ankle_roll; 11/21
//     shoulder_pitch ... 17/27 wrist_roll; 31 waist_yaw; 1 head_roll, 2 head_pitch, 3 head_yaw).
//     Simulation / URDF order swaps hip pitch and yaw: a policy trained there must reorder.
//   - Pro: legs 12, waist 1, head 3, arms 7 + 7. Lite (the deploy repository's tg22 config): legs
//     12, arms 4 + 4 (11-14, 21-24); its waist (31) is zeroed separately by the vendor's controller
//     and is not a joint of this model.
//   - position limits: TG2.0 Pro MJCF. The Lite shares them (UNVERIFIED). The ankle motors drive a
//     parallel linkage and /leg/status is in ACTUATOR space (the vendor converts with a closed
//     library): the ankle limits below are the joint-space ones and only approximate the motors'.
//   - gains: the official RL deploy's impedance gains. Its head/waist list "kp 10,5,5,5" is read as
//     waist 10 then head 5,5,5 (UNVERIFIED order).
//   - current-to-torque factors (ct_scale): legs and arms as published; head and waist have none,
//     so their torque reads 0 (not measured).
//   - effort and speed limits: not published. These are praxis' envelope (UNVERIFIED), wide enough
//     for the vendor gains, narrow enough for the collector's clamp to catch a wild target.
//   - stand pose: the official FSM's ZERO state holds every joint at 0; praxis stands there too.
//   - velocity-mode current limits: the vendor's position-mode examples (legs 10-15 A, arms 8 A,
//     head 5 A); the waist has no example and its speed mode failed in field tests (UNVERIFIED).

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace praxis::tienkung {

// A limb: one status topic and one topic per command kind (rt/<limb>/...).
enum class Limb : std::uint8_t { leg, arm, waist, head };
inline constexpr std::size_t k_limb_kinds = 4;

[[nodiscard]] constexpr std::string_view to_string(Limb l) {
  constexpr std::array<std::string_view, k_limb_kinds> names{"leg", "arm", "waist", "head"};
  return names[static_cast<std::size_t>(l)];
}

// The joints [first, first + count) of a model.
struct LimbSpec {
  Limb limb;
  std::size_t first;
  std::size_t count;
  float velocity_current_limit;  // A, sent with every cmd_vel element
};

// The most motors one limb topic carries (both arms of the Pro).
inline constexpr std::size_t k_max_limb_motors = 14;

namespace detail {
// Limits per kind of joint: position from the Pro MJCF, effort and speed praxis' envelope.
inline constexpr JointSpec hip_roll{"", -0.785398, 0.785398, 200.0, 12.0};
inline constexpr JointSpec hip_pitch{"", -2.79253, 2.0944, 250.0, 12.0};
inline constexpr JointSpec hip_yaw{"", -1.0472, 1.0472, 150.0, 12.0};
inline constexpr JointSpec knee{"", 0.0, 2.3911, 300.0, 12.0};
inline constexpr JointSpec ankle_pitch{"", -1.22173, 0.523599, 80.0, 12.0};
inline constexpr JointSpec ankle_roll{"", -0.523599, 0.523599, 80.0, 12.0};
inline constexpr JointSpec shoulder_pitch{"", -2.96706, 2.96706, 60.0, 8.0};
inline constexpr JointSpec left_shoulder_roll{"", -1.0472, 1.8326, 60.0, 8.0};
inline constexpr JointSpec right_shoulder_roll{"", -1.8326, 1.0472, 60.0, 8.0};
inline constexpr JointSpec shoulder_yaw{"", -2.96706, 2.96706, 40.0, 8.0};
inline constexpr JointSpec elbow{"", -2.61799, 0.261799, 40.0, 8.0};
inline constexpr JointSpec wrist_yaw{"", -2.96706, 2.96706, 15.0, 8.0};
inline constexpr JointSpec wrist_pitch{"", -1.309, 1.65806, 15.0, 8.0};
inline constexpr JointSpec left_wrist_roll{"", -1.0472, 0.785398, 15.0, 8.0};
inline constexpr JointSpec right_wrist_roll{"", -0.785398, 1.0472, 15.0, 8.0};
inline constexpr JointSpec waist_yaw{"", -2.96706, 3.14159, 100.0, 6.0};
inline constexpr JointSpec head_roll{"", -0.453786, 0.453786, 10.0, 6.0};
inline constexpr JointSpec head_pitch{"", -0.436332, 0.436332, 10.0, 6.0};
inline constexpr JointSpec head_yaw{"", -1.5708, 1.5708, 10.0, 6.0};

constexpr JointSpec named(JointSpec spec, std::string_view name) {
  spec.name = name;
  return spec;
}

// Velocity-mode current limits (A).
inline constexpr float k_leg_current = 10.0f;
inline constexpr float k_arm_current = 8.0f;
inline constexpr float k_waist_current = 5.0f;
inline constexpr float k_head_current = 5.0f;
}  // namespace detail

struct Pro {
  static constexpr std::string_view name = "tienkung_pro";
  static constexpr std::size_t joint_count = 30;
  static constexpr std::array<LimbSpec, 4> limbs{{
      {Limb::leg, 0, 12, detail::k_leg_current},
      {Limb::waist, 12, 1, detail::k_waist_current},
      {Limb::arm, 13, 14, detail::k_arm_current},
      {Limb::head, 27, 3, detail::k_head_current},
  }};
  static constexpr std::array<std::uint16_t, joint_count> motor_ids{
      51, 52, 53, 54, 55, 56, 61, 62, 63, 64, 65, 66,  // legs
      31,                                              // waist
      11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27,  // arms
      1,  2,  3,                                       // head
  };
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::hip_roll, "left_hip_roll"),
      detail::named(detail::hip_pitch, "left_hip_pitch"),
      detail::named(detail::hip_yaw, "left_hip_yaw"),
      detail::named(detail::knee, "left_knee"),
      detail::named(detail::ankle_pitch, "left_ankle_pitch"),
      detail::named(detail::ankle_roll, "left_ankle_roll"),
      detail::named(detail::hip_roll, "right_hip_roll"),
      detail::named(detail::hip_pitch, "right_hip_pitch"),
      detail::named(detail::hip_yaw, "right_hip_yaw"),
      detail::named(detail::knee, "right_knee"),
      detail::named(detail::ankle_pitch, "right_ankle_pitch"),
      detail::named(detail::ankle_roll, "right_ankle_roll"),
      detail::named(detail::waist_yaw, "waist_yaw"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch"),
      detail::named(detail::left_shoulder_roll, "left_shoulder_roll"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw"),
      detail::named(detail::elbow, "left_elbow"),
      detail::named(detail::wrist_yaw, "left_wrist_yaw"),
      detail::named(detail::wrist_pitch, "left_wrist_pitch"),
      detail::named(detail::left_wrist_roll, "left_wrist_roll"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch"),
      detail::named(detail::right_shoulder_roll, "right_shoulder_roll"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw"),
      detail::named(detail::elbow, "right_elbow"),
      detail::named(detail::wrist_yaw, "right_wrist_yaw"),
      detail::named(detail::wrist_pitch, "right_wrist_pitch"),
      detail::named(detail::right_wrist_roll, "right_wrist_roll"),
      detail::named(detail::head_roll, "head_roll"),
      detail::named(detail::head_pitch, "head_pitch"),
      detail::named(detail::head_yaw, "head_yaw"),
  };
  static constexpr std::array<double, joint_count> ct_scale{
      2.1, 2.1, 3.207, 2.673, 2.6, 2.6, 2.1, 2.1, 3.207, 2.673, 2.6, 2.6,
      0.0,
      3.207, 2.28, 5.89, 5.89, 3.35, 2.3, 2.3, 3.207, 2.28, 5.89, 5.89, 3.35, 2.3, 2.3,
      0.0, 0.0, 0.0,
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      700, 700, 500, 700, 15, 15, 700, 700, 500, 700, 15, 15,
      10,
      60, 20, 10, 10, 15, 8, 8, 60, 20, 10, 10, 15, 8, 8,
      5, 5, 5,
  };
  static constexpr std::array<double, joint_count> default_kd{
      20, 20, 15, 10, 1.25, 1.25, 20, 20, 15, 10, 1.25, 1.25,
      2.5,
      3, 1.5, 1, 1, 1, 0.5, 0.5, 3, 1.5, 1, 1, 1, 0.5, 0.5,
      2.5, 2.5, 2.5,
  };
};

struct Lite {
  static constexpr std::string_view name = "tienkung_lite";
  static constexpr std::size_t joint_count = 20;
  static constexpr std::array<LimbSpec, 2> limbs{{
      {Limb::leg, 0, 12, detail::k_leg_current},
      {Limb::arm, 12, 8, detail::k_arm_current},
  }};
  static constexpr std::array<std::uint16_t, joint_count> motor_ids{
      51, 52, 53, 54, 55, 56, 61, 62, 63, 64, 65, 66,  // legs
      11, 12, 13, 14, 21, 22, 23, 24,                  // arms
  };
  static constexpr std::array<JointSpec, joint_count> joints{
      detail::named(detail::hip_roll, "left_hip_roll"),
      detail::named(detail::hip_pitch, "left_hip_pitch"),
      detail::named(detail::hip_yaw, "left_hip_yaw"),
      detail::named(detail::knee, "left_knee"),
      detail::named(detail::ankle_pitch, "left_ankle_pitch"),
      detail::named(detail::ankle_roll, "left_ankle_roll"),
      detail::named(detail::hip_roll, "right_hip_roll"),
      detail::named(detail::hip_pitch, "right_hip_pitch"),
      detail::named(detail::hip_yaw, "right_hip_yaw"),
      detail::named(detail::knee, "right_knee"),
      detail::named(detail::ankle_pitch, "right_ankle_pitch"),
      detail::named(detail::ankle_roll, "right_ankle_roll"),
      detail::named(detail::shoulder_pitch, "left_shoulder_pitch"),
      detail::named(detail::left_shoulder_roll, "left_shoulder_roll"),
      detail::named(detail::shoulder_yaw, "left_shoulder_yaw"),
      detail::named(detail::elbow, "left_elbow"),
      detail::named(detail::shoulder_pitch, "right_shoulder_pitch"),
      detail::named(detail::right_shoulder_roll, "right_shoulder_roll"),
      detail::named(detail::shoulder_yaw, "right_shoulder_yaw"),
      detail::named(detail::elbow, "right_elbow"),
  };
  static constexpr std::array<double, joint_count> ct_scale{
      2.1, 2.1, 3.207, 2.673, 2.6, 2.6, 2.1, 2.1, 3.207, 2.673, 2.6, 2.6,
      3.207, 2.28, 5.89, 5.89, 3.207, 2.28, 5.89, 5.89,
  };
  static constexpr std::array<double, joint_count> stand_pose{};
  static constexpr std::array<double, joint_count> rest_pose{};
  static constexpr std::array<double, joint_count> default_kp{
      700, 700, 500, 700, 15, 15, 700, 700, 500, 700, 15, 15, 60, 20, 10, 10, 60, 20, 10, 10,
  };
  static constexpr std::array<double, joint_count> default_kd{
      20, 20, 15, 10, 1.25, 1.25, 20, 20, 15, 10, 1.25, 1.25, 3, 1.5, 1, 1, 3, 1.5, 1, 1,
  };
};

namespace detail {
// Limbs contiguous, in table order, covering every joint once; motor ids unique and each within
// its limb's MotorName range.
template <class M>
constexpr bool limbs_cover_joints() {
  std::size_t next = 0;
  for (const auto& l : M::limbs) {
    if (l.first != next || l.count == 0 || l.count > k_max_limb_motors || !(l.velocity_current_limit > 0.0f)) {
      return false;
    }
    next += l.count;
  }
  return next == M::joint_count;
}
constexpr bool id_in_limb(std::uint16_t id, Limb l) {
  switch (l) {
    case Limb::head: return id >= 1 && id <= 3;
    case Limb::arm: return (id >= 11 && id <= 17) || (id >= 21 && id <= 27);
    case Limb::waist: return id >= 31 && id <= 33;
    case Limb::leg: return (id >= 51 && id <= 56) || (id >= 61 && id <= 66);
  }
  return false;
}
template <class M>
constexpr bool motor_ids_valid() {
  for (const auto& l : M::limbs) {
    for (std::size_t j = l.first; j < l.first + l.count; ++j) {
      if (!id_in_limb(M::motor_ids[j], l.limb)) return false;
      for (std::size_t k = j + 1; k < M::joint_count; ++k) {
        if (M::motor_ids[k] == M::motor_ids[j]) return false;
      }
    }
  }
  return true;
}
template <class M>
constexpr bool limb_kinds_unique() {
  for (std::size_t a = 0; a < M::limbs.size(); ++a) {
    for (std::size_t b = a + 1; b < M::limbs.size(); ++b) {
      if (M::limbs[a].limb == M::limbs[b].limb) return false;
    }
  }
  return M::limbs.size() > 0 && M::limbs[0].limb == Limb::leg;  // the legs' status is the primary topic
}
}  // namespace detail

// A Tienkung model: a RobotModel plus the wire tables above.
template <class M>
concept TienkungModel = RobotModel<M> && requires {
  { M::motor_ids } -> std::convertible_to<std::array<std::uint16_t, M::joint_count>>;
  { M::ct_scale } -> std::convertible_to<std::array<double, M::joint_count>>;
  M::limbs.size();
  { M::limbs[0] } -> std::convertible_to<LimbSpec>;
};

template <TienkungModel M>
constexpr bool validate_tienkung_model() {
  static_assert(validate_model<M>());
  static_assert(detail::limbs_cover_joints<M>(),
                "Tienkung model: limbs must be contiguous, in table order, cover every joint once, hold at most "
                "k_max_limb_motors joints and have a positive velocity current limit");
  static_assert(detail::motor_ids_valid<M>(),
                "Tienkung model: motor ids must be unique and each in its limb's MotorName range");
  static_assert(detail::limb_kinds_unique<M>(), "Tienkung model: one entry per limb, the legs first");
  return true;
}

static_assert(validate_tienkung_model<Pro>());
static_assert(validate_tienkung_model<Lite>());

// The joint of motor `id`, or M::joint_count when the model has no such motor.
template <TienkungModel M>
[[nodiscard]] constexpr std::size_t joint_of_motor(std::uint16_t id) {
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    if (M::motor_ids[j] == id) return j;
  }
  return M::joint_count;
}

// The model's entry for a limb kind, or nullptr when the model lacks that limb.
template <TienkungModel M>
[[nodiscard]] constexpr const LimbSpec* find_limb(Limb l) {
  for (const auto& s : M::limbs) {
    if (s.limb == l) return &s;
  }
  return nullptr;
}

// Whether the model has a limb of that kind. For static_asserts: g++ with -fsanitize=undefined does
// not treat a comparison of find_limb's pointer with nullptr as a constant expression.
template <TienkungModel M>
[[nodiscard]] constexpr bool has_limb(Limb l) {
  for (const auto& s : M::limbs) {
    if (s.limb == l) return true;
  }
  return false;
}

}  // namespace praxis::tienkung
