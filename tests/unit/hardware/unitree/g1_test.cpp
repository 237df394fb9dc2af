// The G1 29-DOF model (g1.hpp) against the vendor's published numbers (docs/backends/unitree_wire.md,
// "Robot models"): the hg slot order, URDF limits, rl_gym's standing pose, the low-level example's
// gains, and its place on the hg wire. Its MuJoCo model is tested in tests/unit/sim/g1_model_test.cpp.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/wire.hpp"

namespace {
namespace unitree_g1_test {

using praxis::unitree::G1;
namespace u = praxis::unitree;

// Left and right are mirror images through the sagittal plane: a roll or yaw joint's right range
// is the left one negated, every other joint's (pitch, knee, elbow) is the same; torque and speed
// limits are the same on both sides.
template <std::size_t N>
void check_mirrored(const std::array<praxis::JointSpec, N>& joints, std::size_t unpaired) {
  std::size_t pairs = 0;
  for (const auto& left : joints) {
    if (!left.name.starts_with("left_")) continue;
    const std::string right_name = "right_" + std::string(left.name.substr(5));
    const auto* right = std::find_if(joints.begin(), joints.end(), [&](const auto& j) { return j.name == right_name; });
    REQUIRE(right != joints.end());
    ++pairs;
    INFO(left.name);
    const bool mirrored = left.name.find("roll") != std::string_view::npos || left.name.find("yaw") != std::string_view::npos;
    CHECK(right->lower == (mirrored ? -left.upper : left.lower));
    CHECK(right->upper == (mirrored ? -left.lower : left.upper));
    CHECK(right->effort == left.effort);
    CHECK(right->velocity == left.velocity);
  }
  CHECK(pairs * 2 + unpaired == N);
}

TEST_CASE("G1: 29 joints in hg slot order with the PR ankle and waist names", "[unitree][model]") {
  STATIC_REQUIRE(G1::joint_count == 29);
  STATIC_REQUIRE(G1::name == "g1");
  constexpr std::array<std::string_view, 6> leg{"hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll"};
  constexpr std::array<std::string_view, 7> arm{"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow",
                                                "wrist_roll",     "wrist_pitch",   "wrist_yaw"};
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(G1::joints[k].name == "left_" + std::string(leg[k]));
    CHECK(G1::joints[6 + k].name == "right_" + std::string(leg[k]));
  }
  CHECK(G1::joints[12].name == "waist_yaw");
  CHECK(G1::joints[13].name == "waist_roll");
  CHECK(G1::joints[14].name == "waist_pitch");
  for (std::size_t k = 0; k < 7; ++k) {
    CHECK(G1::joints[15 + k].name == "left_" + std::string(arm[k]));
    CHECK(G1::joints[22 + k].name == "right_" + std::string(arm[k]));
  }
}

TEST_CASE("G1 limits: left and right mirrored and the URDF's motor classes", "[unitree][model]") {
  check_mirrored(G1::joints, 3);
  auto spec = [](std::string_view name) {
    return *std::find_if(G1::joints.begin(), G1::joints.end(), [&](const auto& j) { return j.name == name; });
  };
  // Four motor sizes: 88 N m / 32 rad/s, 139 / 20, 35 / 30 (ankles, waist roll and pitch), 25 / 37
  // (arms) and the 5 / 22 wrist pitch and yaw.
  for (const auto* n : {"left_hip_pitch", "left_hip_yaw", "waist_yaw"}) {
    CHECK(spec(n).effort == 88);
    CHECK(spec(n).velocity == 32);
  }
  for (const auto* n : {"left_hip_roll", "left_knee"}) {
    CHECK(spec(n).effort == 139);
    CHECK(spec(n).velocity == 20);
  }
  for (const auto* n : {"left_ankle_pitch", "left_ankle_roll", "waist_roll", "waist_pitch"}) {
    CHECK(spec(n).effort == 35);
    CHECK(spec(n).velocity == 30);
  }
  for (const auto* n : {"left_shoulder_pitch", "left_elbow", "left_wrist_roll"}) {
    CHECK(spec(n).effort == 25);
    CHECK(spec(n).velocity == 37);
  }
  CHECK(spec("left_wrist_yaw").effort == 5);
  CHECK(spec("left_wrist_pitch").velocity == 22);
  CHECK(spec("left_hip_roll").lower == -0.5236);
  CHECK(spec("left_hip_roll").upper == 2.9671);
  CHECK(spec("left_knee").lower == -0.087267);  // the knee barely straightens past zero
  CHECK(spec("left_ankle_pitch").lower == -0.87267);
  CHECK(spec("left_ankle_pitch").upper == 0.5236);
  CHECK(spec("waist_roll").upper == 0.52);
  CHECK(spec("left_shoulder_roll").lower == -1.5882);
  CHECK(spec("left_wrist_roll").upper == Approx(1.972222054));
  CHECK(spec("left_wrist_yaw").upper == Approx(1.614429558));
}

TEST_CASE("G1 standing pose is rl_gym's deploy default: bent legs, waist and arms at zero", "[unitree][model]") {
  constexpr std::array<double, 6> leg{-0.1, 0, 0, 0.3, -0.2, 0};
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(G1::stand_pose[k] == leg[k]);
    CHECK(G1::stand_pose[6 + k] == leg[k]);
  }
  for (std::size_t j = 12; j < 29; ++j) CHECK(G1::stand_pose[j] == 0.0);
  for (std::size_t j = 0; j < 29; ++j) CHECK(G1::rest_pose[j] == 0.0);
}

TEST_CASE("G1 gains are g1_ankle_swing_example's: stiffer knees and hips than ankles and arms", "[unitree][model]") {
  constexpr std::array<double, 6> leg_kp{60, 60, 60, 100, 40, 40}, leg_kd{1, 1, 1, 2, 1, 1};
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(G1::default_kp[k] == leg_kp[k]);
    CHECK(G1::default_kp[6 + k] == leg_kp[k]);
    CHECK(G1::default_kd[k] == leg_kd[k]);
    CHECK(G1::default_kd[6 + k] == leg_kd[k]);
  }
  CHECK(G1::default_kp[12] == 60);  // waist yaw
  CHECK(G1::default_kp[13] == 40);
  CHECK(G1::default_kp[14] == 40);
  for (std::size_t j = 15; j < 29; ++j) CHECK(G1::default_kp[j] == 40);
  for (std::size_t j = 12; j < 29; ++j) CHECK(G1::default_kd[j] == 1);
}

TEST_CASE("G1 speaks the hg family: joint j in slot j of 35 and mode_machine 5 (g1_29dof_rev_1_0)",
          "[unitree][model]") {
  using W = u::Wire<G1>;
  STATIC_REQUIRE(std::is_same_v<W::Family, u::HgFamily>);
  STATIC_REQUIRE(W::Family::slots == 35);
  STATIC_REQUIRE(W::motor_mode == 1);
  STATIC_REQUIRE(W::expected_mode_machine == 5);
  for (std::size_t j = 0; j < G1::joint_count; ++j) CHECK(W::slot[j] == j);
}

}  // namespace unitree_g1_test
}  // namespace
