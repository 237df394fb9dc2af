// Entering Custom (custom_entry.hpp): the first frames hold the measured pose with the model's
// Prepare gains, so a standing robot never goes limp between Prepare and the user's controller.
#include <catch2/catch.hpp>

#include <cstddef>

#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/custom_entry.hpp"
#include "praxis/hardware/booster/models.hpp"

namespace {
namespace booster_custom_entry_test {

namespace b = praxis::booster;
using praxis::JointMode;

TEST_CASE("booster custom entry: the measured pose held with the model's Prepare gains on every joint - never kp 0") {
  praxis::RobotState<b::K1::joint_count> state;
  for (std::size_t j = 0; j < b::K1::joint_count; ++j) state.q[static_cast<Eigen::Index>(j)] = 0.01 * static_cast<double>(j);
  const auto c = b::custom_entry_hold<b::K1>(state);
  for (std::size_t j = 0; j < b::K1::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    INFO(b::K1::joints[j].name);
    CHECK(c.mode[j] == JointMode::position);
    CHECK(c.q[i] == state.q[i]);
    CHECK(c.kp[i] == b::K1::prepare_kp[j]);
    CHECK(c.kp[i] > 0.0);
    CHECK(c.kd[i] == b::K1::prepare_kd[j]);
    CHECK(c.dq[i] == 0.0);
    CHECK(c.tau_ff[i] == 0.0);
  }
  // K1: HULKs' Prepare set (knee 140 / 3.5, ankle_up 50 / 1.5); T1: the SDK example's gains.
  CHECK(b::K1::prepare_kp[13] == 140.0);
  CHECK(b::K1::prepare_kd[14] == 1.5);
  CHECK(b::T1::prepare_kp[14] == 350.0);
}

TEST_CASE("booster custom entry: a moving robot is held where it is: no velocity target and no torque from the state") {
  using M = b::T1Arms7;
  constexpr std::size_t N = M::joint_count;
  praxis::RobotState<N> state;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    state.q[i] = -0.02 * static_cast<double>(j);
    state.dq[i] = 0.7;   // still moving from Prepare
    state.tau[i] = 12.0; // and loaded
  }
  const auto c = b::custom_entry_hold<M>(state);
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    INFO(M::joints[j].name);
    CHECK(c.q[i] == state.q[i]);
    CHECK(c.dq[i] == 0.0);
    CHECK(c.tau_ff[i] == 0.0);
    CHECK(c.kp[i] == M::prepare_kp[j]);
  }
}

TEST_CASE("booster custom entry: on the wire every motor is driven at full weight - none left to the robot") {
  // Custom mode ignores the weight blend (the fact sheet: weight does not work in Custom), but a
  // weight-0 motor in the first frame would still mean praxis sent it nothing to hold.
  using M = b::T1;
  constexpr std::size_t N = M::joint_count;
  praxis::RobotState<N> state;
  for (std::size_t j = 0; j < N; ++j) state.q[static_cast<Eigen::Index>(j)] = M::stand_pose[j];
  b::CodecOptions codec;
  codec.space = b::MotorSpace::parallel;
  b::LowCmdValue<N> out;
  REQUIRE(b::encode_low_cmd<N>(b::custom_entry_hold<M>(state), codec, out));
  for (std::size_t j = 0; j < N; ++j) {
    INFO(M::joints[j].name);
    CHECK(out.motors[j].weight == 1.0f);
    CHECK(out.motors[j].kp > 0.0f);
    CHECK(out.motors[j].q == static_cast<float>(M::stand_pose[j]));
  }
}

}  // namespace booster_custom_entry_test
}  // namespace
