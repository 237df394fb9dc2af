// The H1-2 model (h1_2.hpp): joint table and its place in the hg family.

#include <catch2/catch.hpp>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace {
namespace unitree_h1_2_test {

namespace u = praxis::unitree;

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
