// Booster codec: LowState -> RobotState, JointCommand -> LowCmd (the robot's side: robot_codec_test.cpp).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

#include "../../../support/alloc_counter.hpp"
#include "praxis/hardware/booster/backend.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/custom_entry.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/topics.hpp"
#include "praxis/transport/dds.hpp"

namespace b = praxis::booster;
using praxis::JointMode;

namespace {

template <std::size_t N>
b::LowStateValue<N> state_value(float base) {
  b::LowStateValue<N> v;
  v.serial_count = v.parallel_count = N;
  for (std::size_t j = 0; j < N; ++j) {
    v.serial[j].q = base + 0.01f * static_cast<float>(j);
    v.serial[j].dq = -0.5f;
    v.serial[j].tau_est = 2.0f;
    v.serial[j].temperature = 40;
    v.parallel[j].q = 100.0f;  // recognisably not the serial array
  }
  v.imu.rpy[0] = 0.1f;
  v.imu.rpy[1] = -0.2f;
  v.imu.rpy[2] = 0.3f;
  v.imu.gyro[2] = 1.5f;
  v.imu.acc[2] = 9.8f;
  return v;
}

}  // namespace

TEST_CASE("booster codec: the serial array of a K1 LowState becomes the joint state, the IMU's rpy its orientation") {
  constexpr std::size_t N = b::K1::joint_count;
  praxis::RobotState<N> s;
  REQUIRE(b::decode_low_state<N>(state_value<N>(0.2f), b::CodecOptions{}, s));
  CHECK(s.q[0] == Approx(0.2));
  CHECK(s.q[21] == Approx(0.41));
  CHECK(s.dq[5] == Approx(-0.5));
  CHECK(s.tau[7] == Approx(2.0));
  CHECK(s.health[3].temperature == 40.0f);
  CHECK(s.health[3].ok());
  CHECK(s.imu.rpy[0] == Approx(0.1).margin(1e-6));
  CHECK(s.imu.rpy[1] == Approx(-0.2).margin(1e-6));
  CHECK(s.imu.rpy[2] == Approx(0.3).margin(1e-6));
  CHECK(s.imu.gyro[2] == Approx(1.5));
  CHECK(s.projected_gravity[2] < -0.9);
}

TEST_CASE("booster codec: the parallel space reads the motor array") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::RobotState<N> s;
  b::CodecOptions o;
  o.space = b::MotorSpace::parallel;
  REQUIRE(b::decode_low_state<N>(state_value<N>(0.0f), o, s));
  CHECK(s.q[4] == Approx(100.0));
}

TEST_CASE("booster codec: a LowState of another robot's size, or with non-finite values, is rejected whole") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::RobotState<N> s;
  s.q.setConstant(7.0);
  auto v = state_value<N>(0.0f);
  v.serial_count = 22;  // a K1's LowState reaching a T1 backend
  CHECK_FALSE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK(s.q[0] == 7.0);
  v = state_value<N>(0.0f);
  v.serial[3].dq = std::nanf("");
  CHECK_FALSE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK(s.q[0] == 7.0);
}

TEST_CASE("booster codec: motor error flags and heat become joint health") {
  constexpr std::size_t N = b::K1::joint_count;
  auto v = state_value<N>(0.0f);
  v.serial[2].reserve[0] = 17;
  v.serial[9].temperature = 95;
  praxis::RobotState<N> s;
  REQUIRE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK((s.health[2].faults & praxis::k_joint_driver_error) != 0);
  CHECK(s.health[2].error_code == 17u);
  CHECK((s.health[9].faults & praxis::k_joint_overheated) != 0);
  CHECK(s.first_faulted_joint() == 2);
}

TEST_CASE("booster codec: a joint command becomes one MotorCmd per joint: uncovered joints carry weight 0") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::JointCommand<N> c;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.1 * static_cast<double>(j);
    c.kp[i] = 50;
    c.kd[i] = 2;
    c.tau_ff[i] = 0.5;
  }
  c.mode[0] = c.mode[1] = JointMode::none;  // the head stays with the robot
  c.mode[2] = JointMode::disabled;
  c.mode[3] = JointMode::torque;
  b::LowCmdValue<N> v;
  REQUIRE(b::encode_low_cmd<N>(c, b::CodecOptions{}, v));
  CHECK(v.space == b::MotorSpace::serial);
  CHECK(v.motors[0].weight == 0.0f);
  CHECK(v.motors[1].weight == 0.0f);
  CHECK(v.motors[2].kp == 0.0f);
  CHECK(v.motors[2].kd == 0.0f);
  CHECK(v.motors[2].tau == 0.0f);
  CHECK(v.motors[2].weight == 1.0f);
  CHECK(v.motors[3].kp == 0.0f);
  CHECK(v.motors[3].tau == 0.5f);
  CHECK(v.motors[10].q == Approx(1.0));
  CHECK(v.motors[10].kp == 50.0f);
  CHECK(v.motors[10].kd == 2.0f);
  CHECK(v.motors[10].weight == 1.0f);

  // Through the wire encoder: the space as cmd_type, the motors in a sequence of N.
  b::LowCmdToWire<N> to_wire;
  b::LowCmdWire wire{};
  REQUIRE(to_wire(v, wire));
  CHECK(wire.cmd_type == booster_interface_msg_dds__SERIAL);
  REQUIRE(wire.motor_cmd._length == N);
  CHECK(wire.motor_cmd._buffer[10].q == v.motors[10].q);
  CHECK(wire.motor_cmd._buffer[0].weight == 0.0f);
}

TEST_CASE("booster codec: a command covering no joint sends nothing") {
  constexpr std::size_t N = b::K1::joint_count;
  praxis::JointCommand<N> c;
  c.mode.fill(JointMode::none);
  b::LowCmdValue<N> v;
  CHECK_FALSE(b::encode_low_cmd<N>(c, b::CodecOptions{}, v));
}

TEST_CASE("booster remote: buttons and sticks on praxis' gamepad, forward positive") {
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

namespace booster_codec_test {

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

}  // namespace booster_codec_test

TEST_CASE("booster fall_down: a state outside FallDownStateType is refused and the fall state kept",
          "[booster][fuzz]") {
  // Found by the booster_fall_down fuzz target: decode_fall read the field through the C enum
  // type, which cannot hold 983040 (undefined behaviour, UBSan's "load of value"); it now reads
  // the field's bits and refuses anything but READY..GETTING_UP.
  using booster_codec_test::fall_sample;
  using booster_codec_test::FallTopics;
  const booster_codec_test::FallOptions options;
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

TEST_CASE("booster type names: an UNVERIFIED type name is an option, and only equal names connect",
          "[booster][dds]") {
  namespace dds = praxis::dds;
  const auto* original = &booster_interface_msg_dds__FallDownState__desc;
  CHECK(dds::with_type_name(original, "") == original);
  CHECK(dds::with_type_name(original, original->m_typename) == original);
  const auto* renamed = dds::with_type_name(original, "booster::msg::FallDownState");
  CHECK(std::string(renamed->m_typename) == "booster::msg::FallDownState");
  CHECK(dds::with_type_name(original, "booster::msg::FallDownState") == renamed);
  CHECK(renamed->m_size == original->m_size);

  // Over Cyclone (domain 5) a reader and a writer of the renamed type connect. (Between two Cyclone
  // peers XTypes matches by type identifier, so the name only matters to peers that match by name,
  // as vendor stacks without type information do.)
  dds::Participant participant({5, "lo"});
  dds::Subscriber<b::FallDownWire> reader(participant, "rt/type_name_test", renamed);
  dds::Publisher<b::FallDownWire> same(participant, "rt/type_name_test", renamed);
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

TEST_CASE("booster custom entry: the measured pose held with the model's Prepare gains on every joint, never kp 0") {
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

TEST_CASE("booster backend: commands go in the space the model's values were published in (T1 parallel, K1 serial)") {
  static_assert(b::values_in_motor_space<b::T1>() && !b::values_in_motor_space<b::K1>());
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::robot("eth0").wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::fake_robot(3).wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::K1>::robot("eth0").wire.codec.space == b::MotorSpace::serial);
  // The T1's ankle targets are its crank motors' (the SDK example's parallel values).
  CHECK(b::T1::joints[15].name == "CrankUpLeft");
  CHECK(b::T1::stand_pose[15] == 0.2);
}

TEST_CASE("booster RPC: the envelope registers under the type names it is given") {
  praxis::dds::Participant p({static_cast<std::uint32_t>(150 + ::getpid() % 10), "lo"});
  b::DdsRpcChannel named(p, "test/TypedChannel", "RpcReqMsg", "RpcRespMsg");
  b::DdsRpcChannel plain(p, "test/PlainChannel");
  bool typed = false, idl = false;
  for (const auto& w : praxis::dds::discovered_writers(p)) {
    typed = typed || (w.topic == "test/TypedChannelReq" && w.type == "RpcReqMsg");
    idl = idl || (w.topic == "test/PlainChannelReq" && w.type == "booster_msgs::msg::dds_::RpcReqMsg_");
  }
  CHECK(typed);
  CHECK(idl);
}

TEST_CASE("booster upper body: legs and waist at weight 0 with nothing in them: the arms blend in, and on damping "
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
