// Booster arms only (upper_body.hpp): which joints praxis owns, and how their weight blends in and
// out while the robot walks under its own controller.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <string>

#include "../../../support/alloc_counter.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/upper_body.hpp"

namespace {
namespace booster_upper_body_test {

namespace b = praxis::booster;
using praxis::JointMode;

TEST_CASE("booster upper body: legs and waist at weight 0 with nothing in them: the arms blend in and on damping "
          "out with their last targets held") {
  using M = b::K1;
  constexpr std::size_t N = M::joint_count;
  struct Options {
    b::UpperBodyOptions upper_body{};
  } options;
  options.upper_body.weight_rate = 1.0;  // 1 s in, 1 s out
  b::UpperBodyBlend<M> arms(options);
  const auto owned = b::upper_body_joints<M>(false);
  b::CodecOptions codec;
  b::LowCmdValue<N> out;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };

  praxis::JointCommand<N> damping;  // praxis' safe state: kp 0 everywhere
  for (std::size_t j = 0; j < N; ++j) {
    damping.mode[j] = JointMode::position;
    damping.kp[static_cast<Eigen::Index>(j)] = 0.0;
    damping.kd[static_cast<Eigen::Index>(j)] = 2.0;
  }
  CHECK_FALSE(arms.encode(damping, at(0.0), codec, out));  // nothing to blend out of: nothing sent

  praxis::JointCommand<N> raise = damping;
  for (std::size_t j = 0; j < N; ++j) {
    raise.q[static_cast<Eigen::Index>(j)] = 0.5;
    raise.kp[static_cast<Eigen::Index>(j)] = 30.0;  // also on the legs: never sent
  }
  double weight = -1.0;
  for (double t = 0.0; t <= 0.5 + 1e-9; t += 0.02) {
    REQUIRE(arms.encode(raise, at(t), codec, out));
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << M::joints[j].name);
      if (owned[j]) {
        CHECK(out.motors[j].q == 0.5f);
        CHECK(out.motors[j].kp == 30.0f);
        CHECK(out.motors[j].weight >= weight);  // rising
      } else {
        CHECK(out.motors[j].weight == 0.0f);
        CHECK(out.motors[j].kp == 0.0f);
        CHECK(out.motors[j].q == 0.0f);
      }
    }
    weight = out.motors[2].weight;
  }
  CHECK(weight == Approx(0.5).margin(1e-6));

  // Damping: the weight falls at the same rate while the arms keep the last driven target and gains.
  int frames = 0;
  for (double t = 0.52; t < 2.0; t += 0.02) {
    if (!arms.encode(damping, at(t), codec, out)) break;
    ++frames;
    CHECK(out.motors[2].q == 0.5f);
    CHECK(out.motors[2].kp == 30.0f);
    CHECK(out.motors[2].weight <= weight);
    weight = out.motors[2].weight;
  }
  CHECK(weight == 0.0f);  // the last frame sent hands the arms back
  CHECK(frames == 25);    // 0.5 of weight at 1 per second, one frame per 20 ms
  CHECK_FALSE(arms.blend().holding());
  CHECK_FALSE(arms.encode(damping, at(2.0), codec, out));  // and then nothing
}

TEST_CASE("booster upper body: blending the arms in and out allocates nothing") {
  using M = b::T1;
  constexpr std::size_t N = M::joint_count;
  struct Options {
    b::UpperBodyOptions upper_body{};
  } options;
  b::UpperBodyBlend<M> arms(options);
  b::CodecOptions codec;
  b::LowCmdValue<N> out;
  praxis::JointCommand<N> raise, damping;
  for (std::size_t j = 0; j < N; ++j) {
    raise.mode[j] = damping.mode[j] = JointMode::position;
    raise.kp[static_cast<Eigen::Index>(j)] = 30.0;
    damping.kd[static_cast<Eigen::Index>(j)] = 2.0;
  }
  const auto t0 = praxis::Clock::now();
  std::size_t sent = 0;
  const auto before = praxis::test::thread_allocation_count();
  for (int k = 0; k < 20000; ++k) {  // 20 s at 1 kHz: in, out, in, out
    const auto& c = (k / 5000) % 2 == 0 ? raise : damping;
    sent += arms.encode(c, t0 + std::chrono::milliseconds(k), codec, out) ? 1 : 0;
  }
  CHECK(praxis::test::thread_allocation_count() - before == 0);
  CHECK(sent > 10000);
}

template <class M>
std::string owned_names(bool head) {
  std::string names;
  const auto owned = b::upper_body_joints<M>(head);
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    if (owned[j]) names += std::string(M::joints[j].name) + " ";
  }
  return names;
}

TEST_CASE("booster upper body: praxis owns the arms (and the head if asked) - never the waist or a leg") {
  CHECK(owned_names<b::K1>(false) ==
        "LeftShoulderPitch LeftShoulderRoll LeftElbowPitch LeftElbowYaw RightShoulderPitch RightShoulderRoll "
        "RightElbowPitch RightElbowYaw ");
  CHECK(owned_names<b::T1>(true) ==
        "HeadYaw HeadPitch LeftShoulderPitch LeftShoulderRoll LeftElbowPitch LeftElbowYaw RightShoulderPitch "
        "RightShoulderRoll RightElbowPitch RightElbowYaw ");
  CHECK(owned_names<b::T1Arms7>(false) ==
        "LeftShoulderPitch LeftShoulderRoll LeftElbowPitch LeftElbowYaw LeftWristPitch LeftWristYaw LeftHandRoll "
        "RightShoulderPitch RightShoulderRoll RightElbowPitch RightElbowYaw RightWristPitch RightWristYaw "
        "RightHandRoll ");
}

TEST_CASE("booster upper body: switching an arm motor off under a walking robot is not offered") {
  STATIC_REQUIRE_FALSE(b::UpperBodyBlend<b::T1>::joint_modes.contains(JointMode::disabled));
  STATIC_REQUIRE(b::UpperBodyBlend<b::T1>::joint_modes.contains(JointMode::position));
}

TEST_CASE("booster upper body: the head goes with the arms when asked and the blend scales the codec's weight") {
  using M = b::T1;
  constexpr std::size_t N = M::joint_count;
  struct Options {
    b::UpperBodyOptions upper_body{};
  } options;
  options.upper_body.include_head = true;
  options.upper_body.weight_rate = 1.0;
  b::UpperBodyBlend<M> arms(options);
  b::CodecOptions codec;
  codec.weight = 0.5f;  // the user's ceiling
  praxis::JointCommand<N> raise;
  for (std::size_t j = 0; j < N; ++j) {
    raise.mode[j] = JointMode::position;
    raise.kp[static_cast<Eigen::Index>(j)] = 20.0;
  }
  b::LowCmdValue<N> out;
  const auto t0 = praxis::Clock::now();
  float last = 0.0f;
  for (int k = 0; k <= 150; ++k) {  // 1.5 s at 100 Hz: full blend weight reached after 1 s
    REQUIRE(arms.encode(raise, t0 + std::chrono::milliseconds(10 * k), codec, out));
    last = out.motors[M::head_pitch_joint].weight;
    CHECK(out.motors[2].weight == last);  // head and arm blend together
    CHECK(out.motors[10].weight == 0.0f);  // the waist stays the robot's
    CHECK(last <= 0.5f);
  }
  CHECK(last == Approx(0.5f));
  CHECK(out.motors[M::head_yaw_joint].kp == 20.0f);
  CHECK(out.motors[11].kp == 0.0f);
}

}  // namespace booster_upper_body_test
}  // namespace
