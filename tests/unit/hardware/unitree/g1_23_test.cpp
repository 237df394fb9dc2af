// The G1 23-DOF model (g1_23.hpp): its joints picked from the 29-DOF G1's and their wire slots.

#include <catch2/catch.hpp>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace {
namespace unitree_g1_23_test {

namespace u = praxis::unitree;

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
