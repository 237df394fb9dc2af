// core/robot_requests.hpp: what the cycle asks of a robot's own controller. The decisions it holds
// are its defaults — a fresh RobotRequests asks for nothing (any false) and names damping, the
// motion that ends control — the modes' names, and LED requests compared by value (the worker
// forwards each change, so two equal colours must compare equal and any field must count).
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string_view>

#include "praxis/core/robot_requests.hpp"

namespace robot_requests_test {

using praxis::RobotMode;

TEST_CASE("robot requests: every mode has its own name", "[core][robot_requests]") {
  CHECK(praxis::to_string(RobotMode::unknown) == "unknown");
  CHECK(praxis::to_string(RobotMode::damping) == "damping");
  CHECK(praxis::to_string(RobotMode::prepare) == "prepare");
  CHECK(praxis::to_string(RobotMode::locomotion) == "locomotion");
  CHECK(praxis::to_string(RobotMode::user) == "user");
  // The count covers the last enumerator, so a mode added without a name fails here.
  STATIC_REQUIRE(static_cast<std::size_t>(RobotMode::user) + 1 == praxis::k_robot_modes);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < praxis::k_robot_modes; ++i) names.insert(praxis::to_string(static_cast<RobotMode>(i)));
  CHECK(names.size() == praxis::k_robot_modes);
}

TEST_CASE("robot requests: a fresh picture asks for nothing and names damping", "[core][robot_requests]") {
  const praxis::RobotRequests r;
  CHECK_FALSE(r.any);  // the worker sends nothing before the behaviour's first command
  CHECK(r.motion == praxis::MotionType::damping);
  CHECK(r.mode == RobotMode::unknown);  // no mode wanted
  CHECK(r.get_up == 0u);
  CHECK_FALSE(r.head.active);
  CHECK_FALSE(r.leds.set);  // the LEDs stay the robot's
  CHECK(r.kick.kick_power == praxis::KickPower::soft);
  CHECK(r.kick.ball_position.isZero());
  CHECK(r.kick.target_position.isZero());
}

TEST_CASE("robot requests: LED requests compare by every field", "[core][robot_requests]") {
  const praxis::LedRequest red{true, 255, 0, 0};
  CHECK(red == praxis::LedRequest{true, 255, 0, 0});
  CHECK_FALSE(red == praxis::LedRequest{false, 255, 0, 0});  // handing the LEDs back is a change
  CHECK_FALSE(red == praxis::LedRequest{true, 254, 0, 0});
  CHECK_FALSE(red == praxis::LedRequest{true, 255, 1, 0});
  CHECK_FALSE(red == praxis::LedRequest{true, 255, 0, 1});
  CHECK(red != praxis::LedRequest{});
  STATIC_REQUIRE(praxis::LedRequest{} == praxis::LedRequest{false, 0, 0, 0});
}

}  // namespace robot_requests_test
