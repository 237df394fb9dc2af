// The arm SDK backend on the loopback transport, in simulated time: only waist and arm slots go out
// on rt/arm_sdk, the weight blends in and out at its rate, damping hands the arms back holding the
// last targets, nothing is sent before the first driving command or after the weight is back at 0.

#include <catch2/catch.hpp>

#include <chrono>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/unitree/arm_sdk.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/transport/loopback.hpp"

namespace unitree_arm_sdk_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
using Loopback = praxis::transport::LoopbackTransport;
using ArmSdk = u::ArmSdkBackend<u::G1, Loopback>;
constexpr std::size_t N = u::G1::joint_count;

static_assert(praxis::Backend<u::ArmSdkBackend<u::G1>>);
static_assert(praxis::HasLifecycle<ArmSdk>);
static_assert(u::arm_sdk_joint<u::G1>(12) && u::arm_sdk_joint<u::G1>(28));  // waist_yaw .. right_wrist_yaw
static_assert(!u::arm_sdk_joint<u::G1>(0) && !u::arm_sdk_joint<u::G1>(11));  // legs

namespace {
struct Rig {
  praxis::transport::LoopbackBus bus;
  ArmSdk arms{bus, options()};
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> states{bus, "rt/lowstate"};
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> frames{bus, "rt/arm_sdk"};
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> lowcmd{bus, "rt/lowcmd"};
  praxis::transport::Stamped<unitree_hg_msg_dds__LowCmd_> got{};
  praxis::TimePoint t0 = praxis::Clock::now();

  static u::ArmSdkOptions options() {
    u::ArmSdkOptions o;
    o.weight_rate = 0.5;  // 2 s in, 2 s out
    return o;
  }
  void robot_state() {
    praxis::RobotState<N> s;
    unitree_hg_msg_dds__LowState_ msg;
    u::encode_state<u::G1>(s, {.tick = 1, .mode_machine = 5}, msg);
    states.write(msg);
    praxis::RobotState<N> out;
    REQUIRE(arms.read(out, t0));
  }
  // Writes `c` every 20 ms over [from, to) seconds; returns the number of frames received.
  int run(const praxis::JointCommand<N>& c, double from, double to) {
    int n = 0;
    for (double t = from; t < to - 1e-9; t += 0.02) {
      arms.write(c, t0 + praxis::from_seconds(t));
      if (frames.fetch(got)) ++n;
    }
    return n;
  }
};

// What a RobotController's stand motion sends: every joint held with a gain.
praxis::JointCommand<N> whole_body_hold(double q, double kp) {
  praxis::JointCommand<N> c;
  c.q.setConstant(q);
  c.kp.setConstant(kp);
  c.kd.setConstant(1.5);
  return c;
}
praxis::JointCommand<N> damping() {
  praxis::JointCommand<N> c;
  c.kd.setConstant(2.0);
  return c;
}
}  // namespace

TEST_CASE("arm SDK: waist and arm slots only, weight ramping in, CRC and mode_machine as on rt/lowcmd",
          "[unitree][arm_sdk]") {
  Rig rig;
  rig.robot_state();
  CHECK(rig.run(damping(), 0.0, 1.0) == 0);  // nothing to hand back: the robot keeps its arms
  CHECK(rig.arms.weight() == 0.0);

  CHECK(rig.run(whole_body_hold(0.1, 60), 1.0, 2.0) == 50);
  CHECK(rig.arms.weight() == Approx(0.49).margin(0.011));  // 49 steps of 20 ms at 0.5/s
  const auto& f = rig.got.message;
  CHECK(f.motor_cmd[29].q == Approx(rig.arms.weight()));
  CHECK(f.mode_machine == 5);
  praxis::JointCommand<N> decoded;
  CHECK(u::decode_command<u::G1>(f, 5, decoded).crc_ok);
  for (std::size_t j = 0; j < 12; ++j) {  // the legs are the robot's: disabled slots, no gains
    CHECK(f.motor_cmd[j].mode == 0);
    CHECK(f.motor_cmd[j].kp == 0.0f);
  }
  for (std::size_t j = 12; j < 29; ++j) {
    CHECK(f.motor_cmd[j].mode == 1);
    CHECK(f.motor_cmd[j].kp == 60.0f);
    CHECK(f.motor_cmd[j].q == Approx(0.1));
  }
  rig.run(whole_body_hold(0.1, 60), 2.0, 5.0);
  CHECK(rig.arms.weight() == 1.0);  // saturates
  CHECK_FALSE(rig.lowcmd.fetch(rig.got));  // and rt/lowcmd is never touched
}

TEST_CASE("arm SDK: damping hands the arms back, holding the last targets while the weight goes to 0",
          "[unitree][arm_sdk]") {
  Rig rig;
  rig.robot_state();
  rig.run(whole_body_hold(0.2, 40), 0.0, 3.0);
  REQUIRE(rig.arms.weight() == 1.0);
  CHECK(rig.run(damping(), 3.0, 4.0) == 50);
  CHECK(rig.arms.weight() == Approx(0.5).margin(0.011));
  CHECK(rig.got.message.motor_cmd[15].kp == 40.0f);  // held, not limp
  CHECK(rig.got.message.motor_cmd[15].q == Approx(0.2));
  const int last = rig.run(damping(), 4.0, 6.0);
  CHECK(rig.arms.weight() == 0.0);
  CHECK(rig.got.message.motor_cmd[29].q == 0.0f);  // the last frame says weight 0
  CHECK(last < 100);                               // and after it nothing more is sent
  CHECK(rig.run(damping(), 6.0, 7.0) == 0);
  // Driving again blends in again from 0.
  CHECK(rig.run(whole_body_hold(0.3, 40), 7.0, 7.5) == 25);
  CHECK(rig.arms.weight() == Approx(0.24).margin(0.011));
}

TEST_CASE("arm SDK: release() blends the arms back before it returns", "[unitree][arm_sdk]") {
  praxis::transport::LoopbackBus bus;
  u::ArmSdkOptions o;
  o.weight_rate = 10.0;  // 0.1 s: keeps the real-time release short
  ArmSdk arms(bus, o);
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> states(bus, "rt/lowstate");
  praxis::RobotState<N> s;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<u::G1>(s, {.tick = 1, .mode_machine = 5}, msg);
  states.write(msg);
  REQUIRE(arms.acquire(1s).ok);
  const auto t0 = praxis::Clock::now();
  for (int k = 0; k < 20; ++k) arms.write(whole_body_hold(0.1, 50), t0 + k * 20ms);
  REQUIRE(arms.weight() == 1.0);
  const auto r = arms.release(2s);
  INFO(r.message);
  CHECK(r.ok);
  CHECK(arms.weight() == 0.0);
}

}  // namespace unitree_arm_sdk_test
