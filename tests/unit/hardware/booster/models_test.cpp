// Booster's model tables (models.hpp) against the fact sheet: the SDK's joint order and counts
// (b1_api_const.hpp), the T1 SDK example's gains and pose, HULKs' K1 Prepare set.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string_view>

#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {
namespace booster_models_test {

namespace b = praxis::booster;

constexpr std::array<std::string_view, 23> k_t1_names{
    "HeadYaw",        "HeadPitch",      "LeftShoulderPitch", "LeftShoulderRoll", "LeftElbowPitch", "LeftElbowYaw",
    "RightShoulderPitch", "RightShoulderRoll", "RightElbowPitch", "RightElbowYaw", "Waist",          "LeftHipPitch",
    "LeftHipRoll",    "LeftHipYaw",     "LeftKneePitch",     "CrankUpLeft",      "CrankDownLeft",  "RightHipPitch",
    "RightHipRoll",   "RightHipYaw",    "RightKneePitch",    "CrankUpRight",     "CrankDownRight"};

TEST_CASE("booster models: the T1's 23 joints in the SDK's order") {
  STATIC_REQUIRE(b::T1::joint_count == 23);
  for (std::size_t j = 0; j < 23; ++j) {
    CAPTURE(j);
    CHECK(b::T1::joints[j].name == k_t1_names[j]);
  }
  CHECK(b::T1::head_yaw_joint == 0);
  CHECK(b::T1::head_pitch_joint == 1);
}

TEST_CASE("booster models: the K1 is the T1 without the waist") {
  STATIC_REQUIRE(b::K1::joint_count == 22);
  for (std::size_t j = 0; j < 22; ++j) {
    CAPTURE(j);
    const std::size_t t1 = j < 10 ? j : j + 1;  // the T1's slot 10 is the waist
    CHECK(b::K1::joints[j].name == k_t1_names[t1]);
    CHECK(b::K1::joints[j].lower == b::T1::joints[t1].lower);
    CHECK(b::K1::joints[j].upper == b::T1::joints[t1].upper);
  }
}

TEST_CASE("booster models: the 7-DoF T1 adds three wrist joints per arm and keeps the T1's head and waist and legs") {
  using M = b::T1Arms7;
  STATIC_REQUIRE(M::joint_count == 29);
  for (std::size_t j = 0; j < 6; ++j) CHECK(M::joints[j].name == k_t1_names[j]);       // head, left arm
  for (std::size_t j = 0; j < 4; ++j) CHECK(M::joints[9 + j].name == k_t1_names[6 + j]);  // right arm
  for (std::size_t j = 0; j < 13; ++j) {  // waist and legs, and their gains
    CAPTURE(j);
    CHECK(M::joints[16 + j].name == k_t1_names[10 + j]);
    CHECK(M::default_kp[16 + j] == b::T1::default_kp[10 + j]);
    CHECK(M::default_kd[16 + j] == b::T1::default_kd[10 + j]);
    CHECK(M::stand_pose[16 + j] == b::T1::stand_pose[10 + j]);
  }
  CHECK(M::joints[6].name == "LeftWristPitch");
  CHECK(M::joints[8].name == "LeftHandRoll");
  CHECK(M::joints[15].name == "RightHandRoll");
}

TEST_CASE("booster models: the T1's gains and stand pose are the SDK low-level example's") {
  constexpr std::array<double, 23> kp{5,   5,   40,  50,  20,  10,  40,  50,  20,  10,  100, 350,
                                      350, 180, 350, 550, 550, 350, 350, 180, 350, 550, 550};
  constexpr std::array<double, 23> kd{0.1, 0.1, 0.5, 1.5, 0.2, 0.2, 0.5, 1.5, 0.2, 0.2, 5.0, 7.5,
                                      7.5, 3,   5.5, 1.5, 1.5, 7.5, 7.5, 3,   5.5, 1.5, 1.5};
  constexpr std::array<double, 23> pose{0,    0,   0.10, -1.50, 0,   -0.20, 0.10, 1.50, 0,   0.20, 0,  -0.2,
                                        0,    0,   0.4,  0.2,   0.14, -0.2, 0,    0,    0.4, 0.2,  0.14};
  for (std::size_t j = 0; j < 23; ++j) {
    CAPTURE(b::T1::joints[j].name);
    CHECK(b::T1::default_kp[j] == kp[j]);
    CHECK(b::T1::default_kd[j] == kd[j]);
    CHECK(b::T1::stand_pose[j] == pose[j]);
  }
}

TEST_CASE("booster models: the K1's gains and stand pose are HULKs' Prepare set") {
  // head and arms 10 / 1; hip pitch, roll, yaw and knee 140 / 3.5; ankle_up 50 / 1.5; ankle_down 10 / 1.
  for (std::size_t j = 0; j < 10; ++j) {
    CAPTURE(b::K1::joints[j].name);
    CHECK(b::K1::default_kp[j] == 10.0);
    CHECK(b::K1::default_kd[j] == 1.0);
  }
  for (const std::size_t leg : {std::size_t{10}, std::size_t{16}}) {
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(b::K1::default_kp[leg + k] == 140.0);
      CHECK(b::K1::default_kd[leg + k] == 3.5);
    }
    CHECK(b::K1::default_kp[leg + 4] == 50.0);
    CHECK(b::K1::default_kd[leg + 4] == 1.5);
    CHECK(b::K1::default_kp[leg + 5] == 10.0);
    CHECK(b::K1::default_kd[leg + 5] == 1.0);
    CHECK(b::K1::stand_pose[leg] == -0.2);       // hip pitch
    CHECK(b::K1::stand_pose[leg + 3] == 0.4);    // knee
    CHECK(b::K1::stand_pose[leg + 4] == -0.175); // ankle_up
  }
  // Arms: shoulder_pitch 0.2, shoulder_roll -1.4 left / +1.4 right, HULKs' elbow (Booster's ElbowYaw) -0.5 / +0.5.
  CHECK(b::K1::stand_pose[2] == 0.2);
  CHECK(b::K1::stand_pose[3] == -1.4);
  CHECK(b::K1::stand_pose[5] == -0.5);
  CHECK(b::K1::stand_pose[6] == 0.2);
  CHECK(b::K1::stand_pose[7] == 1.4);
  CHECK(b::K1::stand_pose[9] == 0.5);
}

TEST_CASE("booster models: the Prepare gains are each model's own set and every one holds a joint (kp above 0)") {
  CHECK(&b::T1::prepare_kp == &b::T1::default_kp);
  CHECK(&b::K1::prepare_kd == &b::K1::default_kd);
  CHECK(&b::T1Arms7::prepare_kp == &b::T1Arms7::default_kp);
  for (const double kp : b::T1::prepare_kp) CHECK(kp > 0.0);
  for (const double kp : b::T1Arms7::prepare_kp) CHECK(kp > 0.0);
  for (const double kp : b::K1::prepare_kp) CHECK(kp > 0.0);
}

struct NoSpaceModel {};  // a user's model without values_in_motor_space

TEST_CASE("booster models: the space the values were published in: T1 parallel (the SDK example) - K1 serial") {
  STATIC_REQUIRE(b::values_in_motor_space<b::T1>());
  STATIC_REQUIRE(b::values_in_motor_space<b::T1Arms7>());
  STATIC_REQUIRE_FALSE(b::values_in_motor_space<b::K1>());
  STATIC_REQUIRE_FALSE(b::values_in_motor_space<NoSpaceModel>());
}

TEST_CASE("booster models: a Booster model has 22 23 or 29 joints: another robot's model is not one") {
  STATIC_REQUIRE(b::BoosterModel<b::T1>);
  STATIC_REQUIRE(b::BoosterModel<b::T1Arms7>);
  STATIC_REQUIRE(b::BoosterModel<b::K1>);
  STATIC_REQUIRE(praxis::RobotModel<praxis::unitree::Go2>);
  STATIC_REQUIRE_FALSE(b::BoosterModel<praxis::unitree::Go2>);
}

}  // namespace booster_models_test
}  // namespace
