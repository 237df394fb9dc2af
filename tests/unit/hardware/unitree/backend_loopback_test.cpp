// The Unitree backend on the in-process loopback transport: encode, CRC, mailbox and decode without
// a network, from both ends of the wire.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <limits>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/transport/loopback.hpp"

namespace unitree_backend_loopback_test {

namespace u = praxis::unitree;
using Loopback = praxis::transport::LoopbackTransport;

static_assert(praxis::Backend<u::UnitreeBackend<u::G1>>);
static_assert(praxis::Backend<u::UnitreeBackend<u::Go2, Loopback>>);

TEST_CASE("loopback: the backend reads what a robot publishes and the robot gets valid commands",
          "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::UnitreeBackend<u::G1, Loopback> backend(bus, u::BackendOptions{});
  // The robot's side of the wire.
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");

  praxis::RobotState<29> s;
  praxis::JointCommand<29> cmd;
  cmd.q.setConstant(0.05);
  cmd.kp.setConstant(50);

  CHECK(!backend.read(s, {}));  // nothing published yet
  backend.write(cmd, {});       // withheld: the robot's mode_machine is not known yet
  CHECK(backend.commands_withheld() == 1);
  praxis::transport::Stamped<unitree_hg_msg_dds__LowCmd_> received{};
  CHECK(!robot_commands.fetch(received));

  praxis::RobotState<29> truth;
  truth.q.setConstant(0.3);
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<u::G1>(truth, {.tick = 9, .mode_machine = 6, .mode_pr = 0}, msg);
  robot_states.write(msg);
  REQUIRE(backend.read(s, {}));
  CHECK(s.q[20] == Approx(0.3));
  CHECK(backend.robot_mode_machine() == 6);

  backend.write(cmd, {});
  REQUIRE(robot_commands.fetch(received));
  praxis::JointCommand<29> decoded;
  const auto check = u::decode_command<u::G1>(received.message, 6, decoded);
  CHECK(check.crc_ok);
  CHECK(check.mode_machine_ok);  // echoed
  CHECK(decoded.q[0] == Approx(0.05));

  // A correctly signed state whose remote reads NaN on lx: used, counted, the gamepad as it was.
  CHECK(backend.remotes_ignored() == 0);
  truth.q.setConstant(0.35);
  truth.gamepad.lx = 0.5f;
  u::encode_state<u::G1>(truth, {.tick = 10, .mode_machine = 6, .mode_pr = 0}, msg);
  robot_states.write(msg);
  REQUIRE(backend.read(s, {}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(msg.wireless_remote + 4, &nan, 4);
  msg.crc = u::message_crc(msg);
  robot_states.write(msg);
  REQUIRE(backend.read(s, {}));
  CHECK(s.gamepad.lx == 0.5f);
  CHECK(backend.remotes_ignored() == 1);
  CHECK(backend.crc_errors() == 0);

  msg.motor_state[0].q = 5.0f;  // corrupted after signing
  robot_states.write(msg);
  CHECK(!backend.read(s, {}));
  CHECK(backend.crc_errors() == 1);
  CHECK(s.q[0] == Approx(0.35));  // the bad frame changed nothing
}

TEST_CASE("loopback: nothing is sent before a valid state: CRC-bad and non-finite states are not one",
          "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, u::BackendOptions{});
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");
  praxis::transport::Stamped<unitree_go_msg_dds__LowCmd_> received{};
  praxis::RobotState<12> s;
  praxis::JointCommand<12> damping;
  damping.kd.setConstant(2.0);

  praxis::RobotState<12> truth;
  truth.q.setConstant(0.4);
  unitree_go_msg_dds__LowState_ good;
  u::encode_state<u::Go2>(truth, {.tick = 1}, good);
  auto bad_crc = good;
  bad_crc.crc ^= 1u;
  auto not_finite = good;
  truth.q[3] = std::numeric_limits<double>::quiet_NaN();
  u::encode_state<u::Go2>(truth, {.tick = 2}, not_finite);  // correctly signed, but a NaN position

  // A stream of invalid states: start-up does not pass, and it says how many arrived.
  for (int k = 0; k < 5; ++k) {
    robot_states.write(k % 2 == 0 ? bad_crc : not_finite);
    CHECK_FALSE(backend.read(s, {}));
    backend.write(damping, {});
  }
  CHECK(backend.crc_errors() == 5);  // counted as rejected states, whatever the reason
  CHECK_FALSE(robot_commands.fetch(received));  // not one command, not even damping
  CHECK(backend.commands_withheld() == 5);
  CHECK(backend.commands_sent() == 0);
  robot_states.write(bad_crc);
  const auto wait = backend.wait_for_state(std::chrono::milliseconds(30));
  CHECK_FALSE(wait.ok);
  CHECK(wait.invalid == 1);

  robot_states.write(good);
  REQUIRE(backend.wait_for_state(std::chrono::milliseconds(30)).ok);
  REQUIRE(backend.read(s, {}));  // the state start-up found is handed to the first read
  CHECK(s.q[0] == Approx(0.4));
  backend.write(damping, {});
  CHECK(robot_commands.fetch(received));
  CHECK(backend.commands_sent() == 1);
}

TEST_CASE("loopback: Unitree's Python simulator (crc = 0, mode_machine 0) with CRC checking off",
          "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  praxis::RobotState<29> truth;
  truth.q.setConstant(0.2);
  unitree_hg_msg_dds__LowState_ sim;
  u::encode_state<u::G1>(truth, {.tick = 3, .mode_machine = 0}, sim);
  sim.crc = 0;  // what that bridge publishes

  {  // default: the frames are rejected (a robot never sends them)
    u::UnitreeBackend<u::G1, Loopback> backend(bus, u::BackendOptions{});
    praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> states(bus, "rt/lowstate");
    praxis::RobotState<29> s;
    states.write(sim);
    CHECK_FALSE(backend.read(s, {}));
    CHECK(backend.crc_errors() == 1);
  }
  u::BackendOptions options;
  options.check_state_crc = false;
  u::UnitreeBackend<u::G1, Loopback> backend(bus, options);
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> commands(bus, "rt/lowcmd");
  praxis::RobotState<29> s;
  states.write(sim);
  REQUIRE(backend.read(s, {}));
  CHECK(s.q[10] == Approx(0.2));
  praxis::JointCommand<29> cmd;
  cmd.q.setConstant(0.1);
  backend.write(cmd, {});  // mode_machine 0 reported = a simulator: echoed, and the command goes out
  praxis::transport::Stamped<unitree_hg_msg_dds__LowCmd_> got{};
  REQUIRE(commands.fetch(got));
  CHECK(got.message.mode_machine == 0);
  praxis::JointCommand<29> decoded;
  // The vendor's rule on the robot's side: a robot reporting mode_machine 0 takes any.
  CHECK(u::decode_command<u::G1>(got.message, 0, decoded).mode_machine_ok);
  got.message.mode_machine = 6;
  CHECK(u::decode_command<u::G1>(got.message, 0, decoded).mode_machine_ok);
  CHECK_FALSE(u::decode_command<u::G1>(got.message, 5, decoded).mode_machine_ok);
}

}  // namespace unitree_backend_loopback_test
