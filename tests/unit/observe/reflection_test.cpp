// observe/reflection.hpp: praxis' port types reflected member by member (every member, in order, so
// a record holds all of a cycle's input) and the projections of the two that cannot be.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <boost/hana/accessors.hpp>
#include <boost/hana/for_each.hpp>

#include "praxis/observe/cdr.hpp"
#include "praxis/observe/reflection.hpp"

namespace {
namespace observe_reflection_test {

using namespace praxis::observe;

template <class T>
std::vector<std::string> members() {
  std::vector<std::string> names;
  boost::hana::for_each(boost::hana::accessors<T>(),
                        [&](const auto& pair) { names.emplace_back(praxis::io::detail::member_name(pair)); });
  return names;
}

std::uint8_t read_u8(const std::vector<std::byte>& bytes, std::size_t at) { return static_cast<std::uint8_t>(bytes[at]); }

TEST_CASE("reflection adapts the robot state with every member in declaration order") {
  using S = praxis::RobotState<12>;
  CHECK(members<S>() == std::vector<std::string>{"q", "dq", "tau", "imu", "projected_gravity", "gamepad", "health",
                                                 "stamp", "age", "sequence"});
  CHECK(members<praxis::ImuState>() == std::vector<std::string>{"orientation", "gyro", "accelerometer", "rpy"});
  CHECK(members<praxis::JointHealth>() == std::vector<std::string>{"faults", "error_code", "temperature"});
  // Every byte of the state's data is covered: the encoding's size is the sum of the members'
  // sizes plus alignment, nothing left out (a member missing from the adaptation would shrink it).
  constexpr std::size_t doubles = 3 * 12 + 4 + 3 + 3 + 3 + 3;  // q dq tau, quaternion, gyro acc rpy, gravity
  constexpr std::size_t gamepad = 2 + 2 + 5 * 4;                // buttons, padding, five floats
  constexpr std::size_t health = 12 * (1 + 3 + 4 + 4);          // faults, padding, code, temperature
  STATIC_REQUIRE(cdr_max_size<S>() == 4 + doubles * 8 + gamepad + health + 8 + 8 + 8);
}

TEST_CASE("reflection adapts a joint command template for any joint count") {
  CHECK(members<praxis::JointCommand<3>>() == std::vector<std::string>{"q", "dq", "kp", "kd", "tau_ff", "mode"});
  STATIC_REQUIRE(cdr_max_size<praxis::JointCommand<3>>() == 4 + 5 * 3 * 8 + 3);
  STATIC_REQUIRE(cdr_max_size<praxis::JointCommand<29>>() == 4 + 5 * 29 * 8 + 29);
}

TEST_CASE("reflection adapts the status the requests and the motion layer's ports") {
  CHECK(members<praxis::RobotStatus>() == std::vector<std::string>{"reported_mode", "assumed_mode", "mode_since",
                                                                   "last_request", "requests_in_flight",
                                                                   "get_ups_completed", "posture", "lifecycle", "link",
                                                                   "sequence"});
  CHECK(members<praxis::RobotRequests>() ==
        std::vector<std::string>{"any", "motion", "mode", "locomotion", "head", "kick", "get_up", "leds"});
  CHECK(members<praxis::motion::MotionSelection>() ==
        std::vector<std::string>{"current", "dispatching_to", "previous", "changed", "cause", "commanded", "gain_ratio",
                                 "stand_up_attempts"});
  CHECK(members<praxis::motion::SafetyStatus>() == std::vector<std::string>{"no_state", "stale", "invalid", "tilted",
                                                                            "joint_fault", "faulted_joint",
                                                                            "link_lost", "age"});
  CHECK(members<praxis::CycleInfo>() == std::vector<std::string>{"now", "cycle", "have_state"});
}

TEST_CASE("reflection projections show a variant and a class with private state but are never decoded") {
  STATIC_REQUIRE(CdrEncodable<praxis::motion::MotionCommand>);
  STATIC_REQUIRE_FALSE(cdr_decodable<praxis::motion::MotionCommand>());
  STATIC_REQUIRE(cdr_decodable<praxis::RobotState<12>>());
  STATIC_REQUIRE(cdr_decodable<praxis::RobotStatus>());
  STATIC_REQUIRE(cdr_decodable<praxis::CycleInfo>());
  praxis::motion::MotionCommand walk = praxis::motion::command::WalkWithVelocity{};
  const auto bytes = encode_cdr(walk);
  REQUIRE(bytes.size() == 6);
  CHECK(read_u8(bytes, 4) == walk.index());
  CHECK(read_u8(bytes, 5) == static_cast<std::uint8_t>(praxis::motion::requested_type(walk)));
  praxis::Gamepad pad;
  praxis::GamepadState raw;
  raw.set(praxis::GamepadButton::A, true);
  pad.update(raw);
  const auto view = Projection<praxis::Gamepad>::project(pad);
  CHECK(view.pressed == praxis::button_bit(praxis::GamepadButton::A));
  CHECK(view.on_press == praxis::button_bit(praxis::GamepadButton::A));
  raw.set(praxis::GamepadButton::A, false);
  pad.update(raw);
  CHECK(Projection<praxis::Gamepad>::project(pad).on_release == praxis::button_bit(praxis::GamepadButton::A));
}


}  // namespace observe_reflection_test
}  // namespace
