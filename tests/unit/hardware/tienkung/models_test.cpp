// Unit tests for include/praxis/hardware/tienkung/models.hpp: the Pro's and the Lite's motor ids,
// joint order, limits, gains and current-to-torque factors against the fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md: B.4 motor ids, joint order and limits; B.5 gains,
// ct_scale and currents), and the compile-time checks that refuse a malformed model.

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "praxis/hardware/tienkung/models.hpp"

namespace tienkung_models_test {

namespace tk = praxis::tienkung;
using tk::Limb;
using tk::Lite;
using tk::Pro;

template <class M>
std::vector<std::uint16_t> ids_of(Limb l) {
  const tk::LimbSpec& s = *tk::find_limb<M>(l);
  return {M::motor_ids.begin() + static_cast<std::ptrdiff_t>(s.first),
          M::motor_ids.begin() + static_cast<std::ptrdiff_t>(s.first + s.count)};
}

template <std::size_t N>
std::vector<double> as_vector(const std::array<double, N>& a) {
  return {a.begin(), a.end()};
}

TEST_CASE("tienkung models: motor ids - limbs and the canonical joint order", "[tienkung][models]") {
  CHECK(tk::joint_of_motor<Pro>(51) == 0);
  CHECK(tk::joint_of_motor<Pro>(54) == 3);
  CHECK(Pro::joints[3].name == "left_knee");
  CHECK(tk::joint_of_motor<Pro>(31) == 12);
  CHECK(Pro::joints[12].name == "waist_yaw");
  CHECK(tk::joint_of_motor<Pro>(12) == 14);
  CHECK(Pro::joints[14].name == "left_shoulder_roll");
  CHECK(Pro::joints[tk::joint_of_motor<Pro>(25)].name == "right_wrist_yaw");
  CHECK(Pro::joints[tk::joint_of_motor<Pro>(1)].name == "head_roll");
  CHECK(tk::joint_of_motor<Pro>(40) == Pro::joint_count);
  CHECK(tk::joint_of_motor<Lite>(15) == Lite::joint_count);  // the Lite's arms stop at the elbow
  CHECK(tk::joint_of_motor<Lite>(31) == Lite::joint_count);
  CHECK(tk::find_limb<Lite>(Limb::head) == nullptr);
  CHECK(tk::find_limb<Pro>(Limb::arm)->count == 14);
  CHECK(Pro::default_kp[tk::joint_of_motor<Pro>(53)] == 500);   // hip yaw
  CHECK(Pro::default_kd[tk::joint_of_motor<Pro>(56)] == 1.25);  // ankle roll
}


TEST_CASE("tienkung models: each motor id names the joint of the official bodyIdMap", "[tienkung][models]") {
  // B.4: 51/61 hip_roll, 52/62 hip_pitch, 53/63 hip_yaw, 54/64 knee, 55/65 ankle_pitch, 56/66
  // ankle_roll; 11/21 shoulder_pitch, 12/22 shoulder_roll, 13/23 shoulder_yaw, 14/24 elbow, 15/25
  // wrist_yaw, 16/26 wrist_pitch, 17/27 wrist_roll; 31 waist_yaw; 1 head_roll, 2 head_pitch, 3 head_yaw.
  const std::vector<std::pair<std::uint16_t, std::string>> map{
      {51, "left_hip_roll"},       {52, "left_hip_pitch"},       {53, "left_hip_yaw"},        {54, "left_knee"},
      {55, "left_ankle_pitch"},    {56, "left_ankle_roll"},      {61, "right_hip_roll"},      {62, "right_hip_pitch"},
      {63, "right_hip_yaw"},       {64, "right_knee"},           {65, "right_ankle_pitch"},   {66, "right_ankle_roll"},
      {11, "left_shoulder_pitch"}, {12, "left_shoulder_roll"},   {13, "left_shoulder_yaw"},   {14, "left_elbow"},
      {15, "left_wrist_yaw"},      {16, "left_wrist_pitch"},     {17, "left_wrist_roll"},     {21, "right_shoulder_pitch"},
      {22, "right_shoulder_roll"}, {23, "right_shoulder_yaw"},   {24, "right_elbow"},         {25, "right_wrist_yaw"},
      {26, "right_wrist_pitch"},   {27, "right_wrist_roll"},     {31, "waist_yaw"},           {1, "head_roll"},
      {2, "head_pitch"},           {3, "head_yaw"}};
  REQUIRE(map.size() == Pro::joint_count);
  for (const auto& [id, name] : map) {
    CAPTURE(id);
    const std::size_t j = tk::joint_of_motor<Pro>(id);
    REQUIRE(j < Pro::joint_count);
    CHECK(Pro::joints[j].name == name);
    const std::size_t l = tk::joint_of_motor<Lite>(id);
    if (l < Lite::joint_count) CHECK(Lite::joints[l].name == name);  // the Lite names its joints alike
  }
  // B.4: the Lite is legs 12 and arms 4 + 4 (11-14, 21-24); its waist is not a joint of this model.
  CHECK(ids_of<Lite>(Limb::arm) == std::vector<std::uint16_t>{11, 12, 13, 14, 21, 22, 23, 24});
  CHECK(ids_of<Lite>(Limb::leg) == ids_of<Pro>(Limb::leg));
  CHECK_FALSE(tk::has_limb<Lite>(Limb::waist));
  CHECK_FALSE(tk::has_limb<Lite>(Limb::head));
  // The Pro: legs 12, waist 1, head 3, arms 7 + 7; the legs first (their status is the primary topic).
  CHECK(Pro::limbs[0].limb == Limb::leg);
  CHECK(Lite::limbs[0].limb == Limb::leg);
  CHECK(tk::find_limb<Pro>(Limb::leg)->count == 12);
  CHECK(tk::find_limb<Pro>(Limb::waist)->count == 1);
  CHECK(tk::find_limb<Pro>(Limb::head)->count == 3);
  CHECK(ids_of<Pro>(Limb::head) == std::vector<std::uint16_t>{1, 2, 3});
  CHECK(tk::to_string(Limb::waist) == "waist");
  CHECK(tk::to_string(Limb::head) == "head");
}

TEST_CASE("tienkung models: the Pro MJCF's position limits", "[tienkung][models]") {
  struct Limit {
    const char* joint;
    double lower, upper;
  };
  // B.4, joint limits (hard, rad) for TG2.0 Pro.
  const std::vector<Limit> limits{
      {"left_hip_roll", -0.785398, 0.785398},       {"right_hip_pitch", -2.79253, 2.0944},
      {"left_hip_yaw", -1.0472, 1.0472},            {"right_knee", 0.0, 2.3911},
      {"left_ankle_pitch", -1.22173, 0.523599},     {"right_ankle_roll", -0.523599, 0.523599},
      {"left_shoulder_pitch", -2.96706, 2.96706},   {"left_shoulder_roll", -1.0472, 1.8326},
      {"right_shoulder_roll", -1.8326, 1.0472},     {"right_shoulder_yaw", -2.96706, 2.96706},
      {"left_elbow", -2.61799, 0.261799},           {"right_wrist_yaw", -2.96706, 2.96706},
      {"left_wrist_pitch", -1.309, 1.65806},        {"left_wrist_roll", -1.0472, 0.785398},
      {"right_wrist_roll", -0.785398, 1.0472},      {"waist_yaw", -2.96706, 3.14159},
      {"head_pitch", -0.436332, 0.436332},          {"head_roll", -0.453786, 0.453786},
      {"head_yaw", -1.5708, 1.5708}};
  for (const auto& l : limits) {
    CAPTURE(l.joint);
    const std::size_t j = praxis::joint_index<Pro>(l.joint);
    REQUIRE(j < Pro::joint_count);
    CHECK(Pro::joints[j].lower == l.lower);
    CHECK(Pro::joints[j].upper == l.upper);
  }
  // The Lite shares them (UNVERIFIED, the model's comment).
  CHECK(Lite::joints[praxis::joint_index<Lite>("right_knee")].upper == 2.3911);
}

TEST_CASE("tienkung models: the RL deploy's gains - ct_scale and velocity-mode currents", "[tienkung][models]") {
  // B.5: legs kp 700,700,500,700,15,15 / kd 20,20,15,10,1.25,1.25; arms kp 60,20,10,10 / kd 3,1.5,1,1;
  // Pro wrists kp 15,8,8 / kd 1,0.5,0.5; head/waist kp 10,5,5,5 (waist 10, head 5) / kd 2.5.
  CHECK(as_vector(Pro::default_kp) ==
        std::vector<double>{700, 700, 500, 700, 15, 15, 700, 700, 500, 700, 15, 15, 10, 60, 20,
                            10,  10,  15,  8,   8,  60, 20,  10,  10,  15,  8,  8,  5,  5,  5});
  CHECK(as_vector(Pro::default_kd) ==
        std::vector<double>{20, 20, 15,  10, 1.25, 1.25, 20, 20,  15,  10, 1.25, 1.25, 2.5, 3,   1.5,
                            1,  1,  1,   0.5, 0.5, 3,    1.5, 1,  1,   1,  0.5,  0.5,  2.5, 2.5, 2.5});
  CHECK(as_vector(Lite::default_kp) ==
        std::vector<double>{700, 700, 500, 700, 15, 15, 700, 700, 500, 700, 15, 15, 60, 20, 10, 10, 60, 20, 10, 10});
  // B.5 ct_scale: legs 2.1,2.1,3.207,2.673,2.6,2.6; arms 3.207,2.28,5.89,5.89,3.35,2.3,2.3. Head and
  // waist have none: 0, their torque is not measured.
  CHECK(as_vector(Pro::ct_scale) ==
        std::vector<double>{2.1,  2.1,  3.207, 2.673, 2.6, 2.6, 2.1,   2.1,  3.207, 2.673, 2.6, 2.6, 0.0, 3.207, 2.28,
                            5.89, 5.89, 3.35,  2.3,   2.3, 3.207, 2.28, 5.89, 5.89,  3.35,  2.3, 2.3, 0.0, 0.0,   0.0});
  CHECK(as_vector(Lite::ct_scale) == std::vector<double>{2.1,   2.1,  3.207, 2.673, 2.6,   2.6,  2.1,  2.1,  3.207, 2.673,
                                                         2.6,   2.6,  3.207, 2.28,  5.89,  5.89, 3.207, 2.28, 5.89,  5.89});
  // B.5: position-mode examples, legs 10-15 A, arms 8 A, head 5 A.
  CHECK(tk::find_limb<Pro>(Limb::leg)->velocity_current_limit == 10.0f);
  CHECK(tk::find_limb<Pro>(Limb::arm)->velocity_current_limit == 8.0f);
  CHECK(tk::find_limb<Pro>(Limb::head)->velocity_current_limit == 5.0f);
  // ZERO state: every joint at 0.
  CHECK(Pro::stand_pose == std::array<double, Pro::joint_count>{});
}

// Malformed models: each must fail the check the real ones pass.
struct SwappedIds : Pro {  // a head motor id in the waist's slot
  static constexpr std::array<std::uint16_t, joint_count> motor_ids{
      51, 52, 53, 54, 55, 56, 61, 62, 63, 64, 65, 66, 1,  11, 12, 13, 14, 15,
      16, 17, 21, 22, 23, 24, 25, 26, 27, 31, 2,  3};
};
struct DuplicateId : Pro {
  static constexpr std::array<std::uint16_t, joint_count> motor_ids{
      51, 52, 53, 54, 55, 56, 61, 62, 63, 64, 65, 66, 31, 11, 12, 13, 14, 15,
      16, 17, 21, 22, 23, 24, 25, 26, 26, 1,  2,  3};
};
struct GapInLimbs : Pro {
  static constexpr std::array<tk::LimbSpec, 4> limbs{{
      {Limb::leg, 0, 12, 10.0f}, {Limb::waist, 12, 1, 5.0f}, {Limb::arm, 14, 13, 8.0f}, {Limb::head, 27, 3, 5.0f}}};
};
struct NoCurrent : Pro {
  static constexpr std::array<tk::LimbSpec, 4> limbs{{
      {Limb::leg, 0, 12, 10.0f}, {Limb::waist, 12, 1, 0.0f}, {Limb::arm, 13, 14, 8.0f}, {Limb::head, 27, 3, 5.0f}}};
};
struct ArmsFirst : Pro {
  static constexpr std::array<tk::LimbSpec, 4> limbs{{
      {Limb::arm, 0, 14, 8.0f}, {Limb::leg, 14, 12, 10.0f}, {Limb::waist, 26, 1, 5.0f}, {Limb::head, 27, 3, 5.0f}}};
};
struct TwoLegs : Pro {
  static constexpr std::array<tk::LimbSpec, 4> limbs{{
      {Limb::leg, 0, 6, 10.0f}, {Limb::leg, 6, 6, 10.0f}, {Limb::arm, 12, 14, 8.0f}, {Limb::head, 26, 4, 5.0f}}};
};

TEST_CASE("tienkung models: the checks refuse misplaced or repeated ids - gaps - no current - the legs not first",
          "[tienkung][models]") {
  STATIC_REQUIRE(tk::detail::motor_ids_valid<Pro>());
  STATIC_REQUIRE(tk::detail::limbs_cover_joints<Lite>());
  STATIC_REQUIRE_FALSE(tk::detail::motor_ids_valid<SwappedIds>());
  STATIC_REQUIRE_FALSE(tk::detail::motor_ids_valid<DuplicateId>());
  STATIC_REQUIRE_FALSE(tk::detail::limbs_cover_joints<GapInLimbs>());
  STATIC_REQUIRE_FALSE(tk::detail::limbs_cover_joints<NoCurrent>());
  STATIC_REQUIRE(tk::detail::limbs_cover_joints<ArmsFirst>());
  STATIC_REQUIRE_FALSE(tk::detail::limb_kinds_unique<ArmsFirst>());
  STATIC_REQUIRE_FALSE(tk::detail::limb_kinds_unique<TwoLegs>());
  STATIC_REQUIRE(tk::detail::id_in_limb(33, Limb::waist));
  STATIC_REQUIRE_FALSE(tk::detail::id_in_limb(18, Limb::arm));
  STATIC_REQUIRE_FALSE(tk::detail::id_in_limb(57, Limb::leg));
}

}  // namespace tienkung_models_test
