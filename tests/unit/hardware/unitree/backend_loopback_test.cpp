// The Unitree backend on the in-process loopback transport: encode, CRC, mailbox and decode without
// a network, from both ends of the wire.

#include <catch2/catch.hpp>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/transport/loopback.hpp"

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

  msg.motor_state[0].q = 5.0f;  // corrupted after signing
  robot_states.write(msg);
  CHECK(!backend.read(s, {}));
  CHECK(backend.crc_errors() == 1);
  CHECK(s.q[0] == Approx(0.3));  // the bad frame changed nothing
}
