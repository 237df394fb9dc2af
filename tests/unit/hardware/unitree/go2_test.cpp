// The Go2 model (go2.hpp) against the vendor's published numbers (docs/backends/unitree_wire.md,
// "Robot models"): joint order, URDF limits, example poses and gains, its place on the go wire.

#include <catch2/catch.hpp>

#include <array>
#include <string_view>
#include <type_traits>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/hardware/unitree/wire.hpp"

namespace {
namespace unitree_go2_test {

using praxis::unitree::Go2;
namespace u = praxis::unitree;

TEST_CASE("Go2: 12 joints leg by leg FR FL RR RL and hip thigh calf in each", "[unitree][model]") {
  STATIC_REQUIRE(Go2::joint_count == 12);
  STATIC_REQUIRE(Go2::name == "go2");
  constexpr std::array<std::string_view, 4> legs{"FR", "FL", "RR", "RL"};
  constexpr std::array<std::string_view, 3> parts{"hip", "thigh", "calf"};
  for (std::size_t l = 0; l < 4; ++l) {
    for (std::size_t p = 0; p < 3; ++p) {
      CHECK(Go2::joints[3 * l + p].name == std::string(legs[l]) + "_" + std::string(parts[p]));
    }
  }
}

TEST_CASE("Go2 limits are the URDF's: front and rear thighs differ and every calf is bent backwards",
          "[unitree][model]") {
  for (std::size_t l = 0; l < 4; ++l) {
    const auto& hip = Go2::joints[3 * l];
    const auto& thigh = Go2::joints[3 * l + 1];
    const auto& calf = Go2::joints[3 * l + 2];
    const bool front = l < 2;
    CHECK(hip.lower == -1.0472);
    CHECK(hip.upper == 1.0472);
    CHECK(thigh.lower == (front ? -1.5708 : -0.5236));
    CHECK(thigh.upper == (front ? 3.4907 : 4.5379));
    CHECK(calf.lower == -2.7227);
    CHECK(calf.upper == -0.83776);
    CHECK(calf.upper < 0.0);
    CHECK(hip.effort == 23.7);
    CHECK(thigh.effort == 23.7);
    CHECK(calf.effort == 45.43);  // the calf motor is geared down: more torque, less speed
    CHECK(hip.velocity == 30.1);
    CHECK(calf.velocity == 15.70);
  }
}

TEST_CASE("Go2 poses: unitree_mujoco's stand_go2 targets, left and right hips mirrored, lying lower than standing",
          "[unitree][model]") {
  for (std::size_t l = 0; l < 4; ++l) {
    const double side = (l == 0 || l == 2) ? 1.0 : -1.0;  // right legs first in each pair
    CHECK(Go2::stand_pose[3 * l] == side * 0.00571868);
    CHECK(Go2::stand_pose[3 * l + 1] == 0.608813);
    CHECK(Go2::stand_pose[3 * l + 2] == -1.21763);
    CHECK(Go2::rest_pose[3 * l] == side * 0.0473455);
    CHECK(Go2::rest_pose[3 * l + 1] == 1.22187);
    CHECK(Go2::rest_pose[3 * l + 2] == -2.44375);
    // Lying down folds the leg: the thigh forward and the calf further back than standing.
    CHECK(Go2::rest_pose[3 * l + 1] > Go2::stand_pose[3 * l + 1]);
    CHECK(Go2::rest_pose[3 * l + 2] < Go2::stand_pose[3 * l + 2]);
  }
}

TEST_CASE("Go2 gains are go2_stand_example's: kp 60 and kd 5 on every joint", "[unitree][model]") {
  for (std::size_t j = 0; j < Go2::joint_count; ++j) {
    CHECK(Go2::default_kp[j] == 60.0);
    CHECK(Go2::default_kd[j] == 5.0);
  }
}

TEST_CASE("Go2 speaks the go family: servo mode 0x01 and joint j in motor slot j of 20", "[unitree][model]") {
  using W = u::Wire<Go2>;
  STATIC_REQUIRE(std::is_same_v<W::Family, u::GoFamily>);
  STATIC_REQUIRE(W::Family::slots == 20);
  STATIC_REQUIRE(W::motor_mode == 0x01);
  for (std::size_t j = 0; j < Go2::joint_count; ++j) CHECK(W::slot[j] == j);
  praxis::JointCommand<12> c;
  for (int j = 0; j < 12; ++j) c.q[j] = 0.1 * (j + 1);
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(c, {}, msg);
  CHECK(msg.motor_cmd[0].q == Approx(0.1f));   // FR_hip
  CHECK(msg.motor_cmd[11].q == Approx(1.2f));  // RL_calf
  CHECK(msg.motor_cmd[12].q == u::k_pos_stop);  // the first slot that is no joint
}

}  // namespace unitree_go2_test
}  // namespace
