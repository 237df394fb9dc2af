// The G1 23-DOF model (g1_23.hpp): the 29-DOF G1's joints minus waist roll and pitch and wrist
// pitch and yaw, on the 29-DOF slot layout (docs/backends/unitree_wire.md, "Robot models").

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <type_traits>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace {
namespace unitree_g1_23_test {

using praxis::unitree::G1;
using praxis::unitree::G1_23;
namespace u = praxis::unitree;

TEST_CASE("G1 23-DOF: its valid slots are 0 to 12, 15 to 19 and 22 to 26", "[unitree][model]") {
  STATIC_REQUIRE(G1_23::joint_count == 23);
  STATIC_REQUIRE(G1_23::name == "g1_23");
  std::array<std::size_t, 23> expected{};
  std::size_t n = 0;
  for (std::size_t s = 0; s < 29; ++s) {
    const bool invalid = s == 13 || s == 14 || s == 20 || s == 21 || s == 27 || s == 28;
    if (!invalid) expected[n++] = s;
  }
  REQUIRE(n == 23);
  CHECK(G1_23::g1_slot == expected);
  CHECK(u::Wire<G1_23>::slot == expected);
}

TEST_CASE("G1 23-DOF joints are the 29-DOF G1's at the same slot: names limits poses and gains",
          "[unitree][model]") {
  for (std::size_t j = 0; j < G1_23::joint_count; ++j) {
    const std::size_t s = G1_23::g1_slot[j];
    INFO("joint " << j << " slot " << s);
    CHECK(G1_23::joints[j].name == G1::joints[s].name);
    CHECK(G1_23::joints[j].lower == G1::joints[s].lower);
    CHECK(G1_23::joints[j].upper == G1::joints[s].upper);
    CHECK(G1_23::joints[j].effort == G1::joints[s].effort);
    CHECK(G1_23::stand_pose[j] == G1::stand_pose[s]);
    CHECK(G1_23::rest_pose[j] == G1::rest_pose[s]);
    CHECK(G1_23::default_kp[j] == G1::default_kp[s]);
    CHECK(G1_23::default_kd[j] == G1::default_kd[s]);
  }
  for (const auto& joint : G1_23::joints) {
    CHECK(joint.name != "waist_roll");
    CHECK(joint.name != "waist_pitch");
    CHECK(joint.name != "left_wrist_pitch");
    CHECK(joint.name != "right_wrist_yaw");
  }
}

TEST_CASE("G1_23::pick takes any 29-entry table to the 23 joints", "[unitree][model]") {
  std::array<int, 29> by_slot{};
  for (std::size_t s = 0; s < 29; ++s) by_slot[s] = static_cast<int>(100 + s);
  const auto picked = G1_23::pick(by_slot);
  CHECK(picked[12] == 112);  // waist yaw
  CHECK(picked[13] == 115);  // left shoulder pitch: slots 13 and 14 skipped
  CHECK(picked[17] == 119);  // left wrist roll
  CHECK(picked[18] == 122);  // right shoulder pitch: slots 20 and 21 skipped
  CHECK(picked[22] == 126);  // right wrist roll, the last
}

TEST_CASE("G1 23-DOF speaks the hg family with mode_machine 4 (g1_23dof_rev_1_0)", "[unitree][model]") {
  using W = u::Wire<G1_23>;
  STATIC_REQUIRE(std::is_same_v<W::Family, u::HgFamily>);
  STATIC_REQUIRE(W::motor_mode == 1);
  STATIC_REQUIRE(W::expected_mode_machine == 4);
}

TEST_CASE("G1 23-DOF keeps the 29-slot layout with unused waist and wrist slots", "[unitree][model]") {
  using praxis::unitree::G1_23;
  STATIC_REQUIRE(G1_23::joints[13].name == "left_shoulder_pitch");  // slot 15
  STATIC_REQUIRE(G1_23::joints[18].name == "right_shoulder_pitch");  // slot 22
  praxis::JointCommand<23> c;
  for (int j = 0; j < 23; ++j) c.q[j] = 0.01 * (j + 1);
  unitree_hg_msg_dds__LowCmd_ msg;
  u::encode_command<G1_23>(c, {.mode_pr = 0, .mode_machine = 4}, msg);
  CHECK(msg.motor_cmd[12].q == Approx(0.13f));
  CHECK(msg.motor_cmd[13].mode == 0);  // waist roll: not on this robot
  CHECK(msg.motor_cmd[14].mode == 0);
  CHECK(msg.motor_cmd[15].q == Approx(0.14f));
  CHECK(msg.motor_cmd[20].mode == 0);
  CHECK(msg.motor_cmd[22].q == Approx(0.19f));
  CHECK(msg.motor_cmd[28].mode == 0);
  praxis::JointCommand<23> back;
  CHECK(u::decode_command<G1_23>(msg, 4, back).mode_ok);
  CHECK(back.q[22] == Approx(0.23));
}

}  // namespace unitree_g1_23_test
}  // namespace
