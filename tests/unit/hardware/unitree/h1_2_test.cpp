// The H1-2 model (h1_2.hpp) against the vendor's published numbers (docs/backends/unitree_wire.md,
// "Robot models"): joint order (hips yaw first), h1_2_handless URDF limits, rl_gym's h1_2 deploy
// pose and gains, and its place on the hg wire.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace {
namespace unitree_h1_2_test {

using praxis::unitree::H1_2;
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

TEST_CASE("H1-2: 27 joints, legs hip yaw pitch roll, torso, arms of seven", "[unitree][model]") {
  STATIC_REQUIRE(H1_2::joint_count == 27);
  STATIC_REQUIRE(H1_2::name == "h1_2");
  constexpr std::array<std::string_view, 6> leg{"hip_yaw", "hip_pitch", "hip_roll", "knee", "ankle_pitch", "ankle_roll"};
  constexpr std::array<std::string_view, 7> arm{"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow",
                                                "wrist_roll",     "wrist_pitch",   "wrist_yaw"};
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(H1_2::joints[k].name == "left_" + std::string(leg[k]));
    CHECK(H1_2::joints[6 + k].name == "right_" + std::string(leg[k]));
  }
  CHECK(H1_2::joints[12].name == "torso");
  for (std::size_t k = 0; k < 7; ++k) {
    CHECK(H1_2::joints[13 + k].name == "left_" + std::string(arm[k]));
    CHECK(H1_2::joints[20 + k].name == "right_" + std::string(arm[k]));
  }
}

TEST_CASE("H1-2 limits: mirrored left and right and the URDF's values", "[unitree][model]") {
  check_mirrored(H1_2::joints, 1);
  auto spec = [](std::string_view name) {
    return *std::find_if(H1_2::joints.begin(), H1_2::joints.end(), [&](const auto& j) { return j.name == name; });
  };
  CHECK(spec("left_hip_yaw").upper == 0.43);
  CHECK(spec("left_hip_pitch").lower == -3.14);
  CHECK(spec("left_hip_pitch").upper == 2.5);
  CHECK(spec("left_hip_roll").upper == 3.14);
  CHECK(spec("left_knee").effort == 300);
  CHECK(spec("left_knee").velocity == 14);
  CHECK(spec("left_ankle_pitch").effort == 60);
  CHECK(spec("left_ankle_roll").effort == 40);
  CHECK(spec("torso").lower == -2.35);
  CHECK(spec("torso").effort == 200);
  CHECK(spec("left_shoulder_roll").upper == 3.4);
  CHECK(spec("left_shoulder_yaw").lower == -2.66);
  CHECK(spec("left_elbow").upper == 3.18);
  CHECK(spec("left_wrist_roll").lower == -3.01);
  CHECK(spec("left_wrist_pitch").upper == 0.4625);
  CHECK(spec("left_wrist_yaw").velocity == 31.4);
}

TEST_CASE("H1-2 pose and gains are rl_gym's h1_2.yaml", "[unitree][model]") {
  constexpr std::array<double, 6> leg_q{0, -0.16, 0, 0.36, -0.2, 0};
  constexpr std::array<double, 6> leg_kp{200, 200, 200, 300, 40, 40}, leg_kd{2.5, 2.5, 2.5, 4, 2, 2};
  constexpr std::array<double, 7> arm_kp{120, 120, 120, 80, 80, 80, 80}, arm_kd{2, 2, 2, 1, 1, 1, 1};
  for (std::size_t k = 0; k < 6; ++k) {
    for (const std::size_t base : {std::size_t{0}, std::size_t{6}}) {
      CHECK(H1_2::stand_pose[base + k] == leg_q[k]);
      CHECK(H1_2::default_kp[base + k] == leg_kp[k]);
      CHECK(H1_2::default_kd[base + k] == leg_kd[k]);
    }
  }
  CHECK(H1_2::default_kp[12] == 300);  // torso
  CHECK(H1_2::default_kd[12] == 3);
  for (std::size_t k = 0; k < 7; ++k) {
    for (const std::size_t base : {std::size_t{13}, std::size_t{20}}) {
      CHECK(H1_2::default_kp[base + k] == arm_kp[k]);
      CHECK(H1_2::default_kd[base + k] == arm_kd[k]);
    }
  }
  for (std::size_t j = 12; j < 27; ++j) CHECK(H1_2::stand_pose[j] == 0.0);
  for (std::size_t j = 0; j < 27; ++j) CHECK(H1_2::rest_pose[j] == 0.0);
}

TEST_CASE("H1-2 speaks the hg family: joint j in slot j and no mode_machine of its own", "[unitree][model]") {
  using W = u::Wire<H1_2>;
  STATIC_REQUIRE(std::is_same_v<W::Family, u::HgFamily>);
  STATIC_REQUIRE(W::motor_mode == 1);
  // None is documented: the robot's own is echoed; 0 is what a simulator reports.
  STATIC_REQUIRE(W::expected_mode_machine == 0);
  for (std::size_t j = 0; j < H1_2::joint_count; ++j) CHECK(W::slot[j] == j);
}

TEST_CASE("H1-2 uses the hg family with 27 joints, hips yaw first", "[unitree][model]") {
  using praxis::unitree::H1_2;
  STATIC_REQUIRE(H1_2::joints[0].name == "left_hip_yaw");
  STATIC_REQUIRE(H1_2::joints[12].name == "torso");
  praxis::RobotState<27> s;
  s.q[26] = 0.4;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<H1_2>(s, {}, msg);
  CHECK(msg.motor_state[26].q == Approx(0.4f));
  praxis::RobotState<27> back;
  REQUIRE(u::decode_state<H1_2>(msg, {}, back));
  CHECK(back.q[26] == Approx(0.4));
}

}  // namespace unitree_h1_2_test
}  // namespace
