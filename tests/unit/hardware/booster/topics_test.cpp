// Booster's joint-level topics (topics.hpp): rt/low_state, rt/fall_down and the remote merged into
// the robot state, rt/joint_ctrl out, the remote's and button events' meanings, the type names.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <tuple>

#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/topics.hpp"
#include "praxis/transport/dds.hpp"

namespace {
namespace booster_topics_test {

namespace b = praxis::booster;

struct FallOptions {  // what BoosterTopics' Context reads of the backend's options
  b::WireOptions wire;
};
using FallTopics = b::BoosterTopics<b::T1, FallOptions>;

// A FallDownState sample whose enum field holds `state`, written as DDS deserialisation writes it.
b::FallDownWire fall_sample(std::int32_t state) {
  b::FallDownWire w{};
  std::memcpy(&w.fall_down_state, &state, sizeof state);
  return w;
}

TEST_CASE("booster remote: buttons and sticks on praxis' gamepad - forward positive") {
  b::RemoteWire r{};
  r.a = true;
  r.rt = true;
  r.lt = true;
  r.ly = -1.0f;  // pushed to the front
  r.hat_lu = true;
  const auto g = b::gamepad_from(r);
  CHECK(g.pressed(praxis::GamepadButton::A));
  CHECK(g.pressed(praxis::GamepadButton::R2));
  CHECK(g.pressed(praxis::GamepadButton::L2));
  CHECK_FALSE(g.pressed(praxis::GamepadButton::B));
  CHECK(g.pressed(praxis::GamepadButton::up));
  CHECK(g.pressed(praxis::GamepadButton::left));
  CHECK(g.ly == 1.0f);
}

TEST_CASE("booster fall_down: a state outside FallDownStateType is refused and the fall state kept",
          "[booster][fuzz]") {
  // Found by the booster_fall_down fuzz target: decode_fall read the field through the C enum
  // type, which cannot hold 983040 (undefined behaviour, UBSan's "load of value"); it now reads
  // the field's bits and refuses anything but READY..GETTING_UP.
  const FallOptions options;
  FallTopics::Context context(options);
  praxis::RobotState<FallTopics::N> out;
  REQUIRE(FallTopics::decode_fall(fall_sample(3), {}, out, context));
  CHECK(context.fall_state.load() == static_cast<std::int32_t>(b::FallState::getting_up));
  for (const std::int32_t bad : {4, 983040, -1, std::numeric_limits<std::int32_t>::min()}) {
    CAPTURE(bad);
    CHECK_FALSE(FallTopics::decode_fall(fall_sample(bad), {}, out, context));
    CHECK(context.fall_state.load() == static_cast<std::int32_t>(b::FallState::getting_up));
  }
  CHECK(context.get_ups_finished.load() == 0);
  REQUIRE(FallTopics::decode_fall(fall_sample(0), {}, out, context));  // the get-up finished
  CHECK(context.get_ups_finished.load() == 1);
}

TEST_CASE("booster button events: an event number outside ButtonEventType is named UNKNOWN", "[booster][fuzz]") {
  b::ButtonEventWire e{};
  const std::int32_t beyond = 8;
  std::memcpy(&e.event, &beyond, sizeof beyond);
  CHECK(b::button_event_name(b::detail::enum_bits(e.event)) == "UNKNOWN");
  e.event = booster_interface_msg_dds__LONG_PRESS_END;
  CHECK(b::button_event_name(b::detail::enum_bits(e.event)) == "LONG_PRESS_END");
}

TEST_CASE("booster type names: an UNVERIFIED type name is an option and only equal names connect",
          "[booster][dds]") {
  namespace transport = praxis::transport;
  const auto* original = &booster_interface_msg_dds__FallDownState__desc;
  CHECK(transport::with_type_name(original, "") == original);
  CHECK(transport::with_type_name(original, original->m_typename) == original);
  const auto* renamed = transport::with_type_name(original, "booster::msg::FallDownState");
  CHECK(std::string(renamed->m_typename) == "booster::msg::FallDownState");
  CHECK(transport::with_type_name(original, "booster::msg::FallDownState") == renamed);
  CHECK(renamed->m_size == original->m_size);

  // Over Cyclone (domain 5) a reader and a writer of the renamed type connect. (Between two Cyclone
  // peers XTypes matches by type identifier, so the name only matters to peers that match by name,
  // as vendor stacks without type information do.)
  transport::Participant participant({5, "lo"});
  transport::Subscriber<b::FallDownWire> reader(participant, "rt/type_name_test", renamed);
  transport::Publisher<b::FallDownWire> same(participant, "rt/type_name_test", renamed);
  const auto deadline = praxis::Clock::now() + std::chrono::seconds(5);
  while (same.matched() == 0 && praxis::Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(same.matched() == 1);
  b::FallDownWire sample{};
  sample.fall_down_state = booster_interface_msg_dds__IS_GETTING_UP;
  praxis::transport::Stamped<b::FallDownWire> got;
  bool received = false;
  for (int k = 0; k < 200 && !received; ++k) {
    same.write(sample);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    received = reader.fetch(got);
  }
  REQUIRE(received);
  CHECK(got.message.fall_down_state == booster_interface_msg_dds__IS_GETTING_UP);
}

TEST_CASE("booster remote: a diagonal of the hat presses both of its directions") {
  b::RemoteWire r{};
  r.hat_rd = true;
  auto g = b::gamepad_from(r);
  CHECK(g.pressed(praxis::GamepadButton::down));
  CHECK(g.pressed(praxis::GamepadButton::right));
  CHECK_FALSE(g.pressed(praxis::GamepadButton::up));
  CHECK_FALSE(g.pressed(praxis::GamepadButton::left));
  r = b::RemoteWire{};
  r.hat_ld = true;
  g = b::gamepad_from(r);
  CHECK(g.buttons == (praxis::button_bit(praxis::GamepadButton::down) | praxis::button_bit(praxis::GamepadButton::left)));
  r = b::RemoteWire{};
  r.ry = 1.0f;  // pulled back
  r.rx = -0.5f;
  r.ls = true;  // a stick press has no praxis button
  g = b::gamepad_from(r);
  CHECK(g.buttons == 0);
  CHECK(g.ry == -1.0f);
  CHECK(g.rx == -0.5f);
}

TEST_CASE("booster remote: a remote frame with a stick that is not a number is refused and the last gamepad kept") {
  const FallOptions options;
  FallTopics::Context context(options);
  praxis::RobotState<FallTopics::N> out;
  b::RemoteWire good{};
  good.a = true;
  good.ly = -0.5f;
  REQUIRE(FallTopics::decode_remote(good, {}, out, context));
  CHECK(out.gamepad.ly == 0.5f);
  for (int axis = 0; axis < 4; ++axis) {
    CAPTURE(axis);
    for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
      b::RemoteWire r{};
      r.b = true;
      float* axes[] = {&r.lx, &r.ly, &r.rx, &r.ry};
      *axes[axis] = bad;
      CHECK_FALSE(FallTopics::decode_remote(r, {}, out, context));
      CHECK(out.gamepad.pressed(praxis::GamepadButton::A));
      CHECK_FALSE(out.gamepad.pressed(praxis::GamepadButton::B));
      CHECK(out.gamepad.ly == 0.5f);
    }
  }
}

TEST_CASE("booster fall_down: only getting up then ready counts as a finished get-up") {
  const FallOptions options;
  FallTopics::Context context(options);
  praxis::RobotState<FallTopics::N> out;
  CHECK(context.fall_state.load() == static_cast<std::int32_t>(b::FallState::unknown));
  for (const std::int32_t s : {0, 1, 2, 0, 0}) REQUIRE(FallTopics::decode_fall(fall_sample(s), {}, out, context));
  CHECK(context.get_ups_finished.load() == 0);  // fell and was set up again without the robot's get-up
  CHECK(context.fall_state.load() == static_cast<std::int32_t>(b::FallState::ready));
  for (const std::int32_t s : {1, 2, 3, 3, 0, 0, 2, 3, 2, 3, 0}) REQUIRE(FallTopics::decode_fall(fall_sample(s), {}, out, context));
  CHECK(context.get_ups_finished.load() == 2);
}

TEST_CASE("booster low state: another model's motor count is refused and remembered - in the configured space") {
  constexpr std::size_t N = FallTopics::N;  // a T1 backend
  FallOptions options;
  options.wire.codec.space = b::MotorSpace::parallel;
  FallTopics::Context context(options);
  praxis::RobotState<N> out;
  b::LowStateValue<N> v;
  v.parallel_count = N;
  v.serial_count = 22;  // not the space read: no matter
  REQUIRE(FallTopics::decode_state(v, {}, out, context));
  CHECK(context.wire_joints.load() == 0);
  v.parallel_count = 22;  // a K1 on the wire
  CHECK_FALSE(FallTopics::decode_state(v, {}, out, context));
  CHECK(context.wire_joints.load() == 22);
  v.parallel_count = 29;
  CHECK_FALSE(FallTopics::decode_state(v, {}, out, context));
  CHECK(context.wire_joints.load() == 29);
}

TEST_CASE("booster button events: the fact sheet's ButtonEventType names in order") {
  constexpr const char* names[] = {"PRESS_DOWN",   "PRESS_UP",         "SINGLE_CLICK",    "DOUBLE_CLICK",
                                   "TRIPLE_CLICK", "LONG_PRESS_START", "LONG_PRESS_HOLD", "LONG_PRESS_END"};
  for (int e = 0; e < 8; ++e) CHECK(b::button_event_name(e) == names[e]);
  CHECK(b::button_event_name(-1) == "UNKNOWN");
  CHECK(b::button_event_name(booster_interface_msg_dds__TRIPLE_CLICK) == "TRIPLE_CLICK");
}

TEST_CASE("booster topics: the topic and type names come from the options - the IDL's type where none is given") {
  FallOptions options;
  options.wire.topics.fall_down = "rt/fall_down_test";
  options.wire.types.fall_down = "booster::msg::FallDownState";
  const auto state = FallTopics::state_topics(options);
  CHECK(std::get<0>(state).name == "rt/low_state");
  CHECK(std::string(std::get<0>(state).descriptor->m_typename) ==
        booster_interface_msg_dds__LowState__desc.m_typename);
  CHECK(std::get<1>(state).name == "rt/fall_down_test");
  CHECK(std::string(std::get<1>(state).descriptor->m_typename) == "booster::msg::FallDownState");
  CHECK(std::get<2>(state).name == "rt/remote_controller_state");
  options.wire.types.low_cmd = "booster::msg::LowCmd";
  const auto commands = FallTopics::command_topics(options);
  CHECK(std::get<0>(commands).name == "rt/joint_ctrl");
  CHECK(std::string(std::get<0>(commands).descriptor->m_typename) == "booster::msg::LowCmd");
}

TEST_CASE("booster topics: with joint access a command goes out as the codec encodes it - in the configured space") {
  FallOptions options;
  options.wire.codec.space = b::MotorSpace::parallel;
  options.wire.codec.weight = 0.75f;
  FallTopics::Context context(options);
  praxis::JointCommand<FallTopics::N> c;
  c.mode.fill(praxis::JointMode::none);
  b::LowCmdValue<FallTopics::N> out;
  CHECK_FALSE(FallTopics::encode(c, {}, context, out));  // no joint covered: nothing sent
  c.mode[14] = praxis::JointMode::position;
  c.q[14] = 0.4;
  c.kp[14] = 350;
  REQUIRE(FallTopics::encode(c, {}, context, out));
  CHECK(out.space == b::MotorSpace::parallel);
  CHECK(out.motors[14].q == 0.4f);
  CHECK(out.motors[14].weight == 0.75f);
  CHECK(out.motors[13].weight == 0.0f);
  STATIC_REQUIRE(FallTopics::joint_modes.contains(praxis::JointMode::disabled));
}

}  // namespace booster_topics_test
}  // namespace
