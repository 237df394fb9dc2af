// UnitreeBackend (backend.hpp): on the in-process loopback transport (encode, CRC, mailbox and
// decode without a network, from both ends of the wire) and over real Cyclone DDS for taking
// control against a robot that runs no motion switcher (what Unitree's simulators are): with the
// simulator preset start-up carries on with a notice, with the robot preset it fails naming the
// service; either way it needs a valid state first.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/loopback.hpp"

namespace {
namespace unitree_backend_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
namespace transport = praxis::transport;
using Loopback = praxis::transport::LoopbackTransport;

// ---- loopback ----

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

TEST_CASE("the presets: a robot on domain 0 with its motion switcher required and a simulator on lo without one",
          "[unitree][backend]") {
  const auto robot = u::UnitreeBackend<u::G1>::robot("enp3s0");
  CHECK(robot.dds.domain == 0u);
  CHECK(robot.dds.interface == "enp3s0");
  CHECK(robot.motion_switcher_required);
  CHECK(robot.release_motion_service);
  CHECK(robot.check_state_crc);
  const auto sim = u::UnitreeBackend<u::G1>::simulator();
  CHECK(sim.dds.domain == 1u);
  CHECK(sim.dds.interface == "lo");
  CHECK_FALSE(sim.motion_switcher_required);
  CHECK(sim.release_motion_service);  // it still asks: the vendor's examples carry on without an answer
  CHECK(sim.check_state_crc);         // the C++ simulator signs its LowState
  CHECK(u::UnitreeBackend<u::G1>::simulator(7).dds.domain == 7u);
  CHECK(robot.lowcmd_topic == "rt/lowcmd");
  CHECK(robot.lowstate_topic == "rt/lowstate");
}

TEST_CASE("loopback: a fixed mode_machine is sent from the first state on and wins over the robot's",
          "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::BackendOptions options;
  options.mode_machine = 9;
  options.mode_pr = 1;
  u::UnitreeBackend<u::G1, Loopback> backend(bus, options);
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");
  praxis::transport::Stamped<unitree_hg_msg_dds__LowCmd_> received{};

  praxis::RobotState<29> truth;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<u::G1>(truth, {.tick = 1, .mode_machine = 5, .mode_pr = 0}, msg);
  robot_states.write(msg);
  praxis::RobotState<29> s;
  REQUIRE(backend.read(s, {}));
  CHECK(backend.robot_mode_machine() == 5);  // learnt, but not what is sent
  praxis::JointCommand<29> cmd;
  backend.write(cmd, {});
  REQUIRE(robot_commands.fetch(received));
  CHECK(received.message.mode_machine == 9);
  CHECK(received.message.mode_pr == 1);
  CHECK(backend.commands_withheld() == 0);
  CHECK(backend.commands_sent() == 1);
}

TEST_CASE("loopback: a go robot (no mode_machine) gets commands after its first state", "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, u::BackendOptions{});
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");
  praxis::RobotState<12> truth;
  unitree_go_msg_dds__LowState_ msg;
  u::encode_state<u::Go2>(truth, {.tick = 1}, msg);
  robot_states.write(msg);
  praxis::RobotState<12> s;
  REQUIRE(backend.read(s, {}));
  praxis::JointCommand<12> cmd;
  cmd.q.setConstant(0.2);
  backend.write(cmd, {});
  praxis::transport::Stamped<unitree_go_msg_dds__LowCmd_> received{};
  REQUIRE(robot_commands.fetch(received));
  praxis::JointCommand<12> decoded;
  const auto check = u::decode_command<u::Go2>(received.message, 0, decoded);
  CHECK(check.crc_ok);
  CHECK(check.header_ok);
  CHECK(decoded.q[11] == Approx(0.2));
  CHECK(backend.commands_withheld() == 0);
}

TEST_CASE("loopback: a LowState tick that goes back is a restart: once a switcher answered, nothing more is sent "
          "and the link reads down", "[unitree][loopback][restart]") {
  praxis::transport::LoopbackBus bus;
  const bool switcher = GENERATE(false, true);
  INFO((switcher ? "a robot whose motion switcher answered" : "a simulator (no switcher)"));
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, u::BackendOptions{});
  // What acquire() sets when the motion switcher answered (acquire needs real DDS).
  backend.codec_context().withhold_after_restart = switcher;
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");
  praxis::RobotState<12> truth, s;
  unitree_go_msg_dds__LowState_ msg;
  praxis::transport::Stamped<unitree_go_msg_dds__LowCmd_> received{};
  const auto state_then_command = [&](std::uint32_t tick) {
    u::encode_state<u::Go2>(truth, {.tick = tick}, msg);
    robot_states.write(msg);
    REQUIRE(backend.read(s, {}));
    backend.write(praxis::JointCommand<12>{}, {});
    return robot_commands.fetch(received);
  };
  // The counter wrapping (every 49.7 days at 1 kHz) is not a restart.
  CHECK(state_then_command(UINT32_MAX - 5));
  CHECK(state_then_command(3));
  CHECK(state_then_command(4000));
  CHECK_FALSE(backend.robot_restarted());
  CHECK(backend.control_loss().empty());

  CHECK(state_then_command(4001) == true);
  CHECK(state_then_command(12) == !switcher);  // restarted: 4001 -> 12
  CHECK(backend.robot_restarted());
  CHECK_THAT(backend.control_loss(), Catch::Contains("tick went back from 4001 to 12"));
  praxis::RobotStatus status;
  REQUIRE(backend.read_status(status));
  CHECK(status.link.connected == !switcher);
  CHECK(state_then_command(13) == !switcher);  // for the rest of the run
  if (switcher) CHECK_THAT(backend.control_loss(), Catch::Contains("start a new run"));
}

TEST_CASE("loopback: detect_restart false never reads the tick", "[unitree][loopback][restart]") {
  praxis::transport::LoopbackBus bus;
  u::BackendOptions options;
  options.detect_restart = false;
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, options);
  backend.codec_context().withhold_after_restart = true;
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> robot_commands(bus, "rt/lowcmd");
  praxis::RobotState<12> truth, s;
  unitree_go_msg_dds__LowState_ msg;
  praxis::transport::Stamped<unitree_go_msg_dds__LowCmd_> received{};
  for (const std::uint32_t tick : {500u, 2u}) {
    u::encode_state<u::Go2>(truth, {.tick = tick}, msg);
    robot_states.write(msg);
    REQUIRE(backend.read(s, {}));
    backend.write(praxis::JointCommand<12>{}, {});
    CHECK(robot_commands.fetch(received));
  }
  CHECK_FALSE(backend.robot_restarted());
}

TEST_CASE("loopback: the topic names are options", "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::BackendOptions options;
  options.lowstate_topic = "rt/lowstate_b";
  options.lowcmd_topic = "rt/lowcmd_b";
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, options);
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> default_states(bus, "rt/lowstate");
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> named_states(bus, "rt/lowstate_b");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> default_commands(bus, "rt/lowcmd");
  praxis::transport::LoopbackSubscriber<unitree_go_msg_dds__LowCmd_> named_commands(bus, "rt/lowcmd_b");
  praxis::RobotState<12> truth;
  unitree_go_msg_dds__LowState_ msg;
  u::encode_state<u::Go2>(truth, {.tick = 1}, msg);
  praxis::RobotState<12> s;
  default_states.write(msg);
  CHECK_FALSE(backend.read(s, {}));
  named_states.write(msg);
  REQUIRE(backend.read(s, {}));
  backend.write(praxis::JointCommand<12>{}, {});
  praxis::transport::Stamped<unitree_go_msg_dds__LowCmd_> received{};
  CHECK_FALSE(default_commands.fetch(received));
  CHECK(named_commands.fetch(received));
}

TEST_CASE("loopback: read_status reports the link and no mode before control was taken", "[unitree][loopback]") {
  praxis::transport::LoopbackBus bus;
  u::UnitreeBackend<u::Go2, Loopback> backend(bus, u::BackendOptions{});
  praxis::transport::LoopbackPublisher<unitree_go_msg_dds__LowState_> robot_states(bus, "rt/lowstate");
  praxis::RobotStatus status;
  REQUIRE(backend.read_status(status));
  CHECK(status.lifecycle == praxis::LifecycleStage::idle);
  CHECK(status.reported_mode == praxis::RobotMode::unknown);
  CHECK(status.assumed_mode == praxis::RobotMode::unknown);
  CHECK_FALSE(status.link.connected);
  CHECK(status.sequence == 1u);

  praxis::RobotState<12> truth;
  unitree_go_msg_dds__LowState_ msg;
  u::encode_state<u::Go2>(truth, {.tick = 1}, msg);
  robot_states.write(msg);
  msg.crc ^= 1u;
  robot_states.write(msg);  // the mailbox keeps the newest: this one, rejected
  praxis::RobotState<12> s;
  CHECK_FALSE(backend.read(s, {}));
  u::encode_state<u::Go2>(truth, {.tick = 2}, msg);
  robot_states.write(msg);
  REQUIRE(backend.read(s, {}));
  backend.write(praxis::JointCommand<12>{}, {});
  REQUIRE(backend.read_status(status));
  CHECK(status.sequence == 2u);
  CHECK(status.link.connected);  // a state just arrived, well within the 100 ms link timeout
  CHECK(status.link.states_received == 1u);
  CHECK(status.link.states_rejected == 1u);
  CHECK(status.link.commands_sent == 1u);
  CHECK(status.lifecycle == praxis::LifecycleStage::idle);
}

// ---- over Cyclone DDS: taking control ----

// Domains 90-93 (free between the transport tests' 10-84 and the two-process tests' 100-189).
std::uint32_t domain(std::uint32_t k) { return 90 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

// Publishes Go2 LowStates at 500 Hz, signed or not, as a simulator would; no RPC service at all.
class StateStream {
 public:
  StateStream(std::uint32_t domain, bool signed_frames) : participant_({domain, "lo"}) {
    thread_ = std::thread([this, signed_frames] {
      transport::Publisher<unitree_go_msg_dds__LowState_> states(participant_, "rt/lowstate",
                                                           u::GoFamily::low_state_descriptor());
      praxis::RobotState<12> truth;
      truth.q.setConstant(0.5);
      unitree_go_msg_dds__LowState_ msg;
      std::uint32_t tick = 0;
      while (!stop_.load()) {
        u::encode_state<u::Go2>(truth, {.tick = ++tick}, msg);
        if (!signed_frames) msg.crc = 0;
        states.write(msg);
        std::this_thread::sleep_for(2ms);
      }
    });
  }
  ~StateStream() {
    stop_.store(true);
    thread_.join();
  }
  StateStream(const StateStream&) = delete;
  StateStream& operator=(const StateStream&) = delete;

 private:
  transport::Participant participant_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

u::BackendOptions quick(u::BackendOptions o, std::uint32_t d) {
  o.dds = {d, "lo"};
  o.release.call_timeout = 300ms;  // no server will ever match
  return o;
}


TEST_CASE("start-up against a simulator without a motion switcher: a notice with the simulator preset, an error "
          "with the robot preset",
          "[unitree][lifecycle][dds]") {
  const auto d = domain(1);
  StateStream sim(d, true);
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::simulator(d), d));
    const auto r = backend.acquire(3s);
    INFO(r.message);
    CHECK(r.ok);
    CHECK(r.stage == praxis::LifecycleStage::in_control);
    CHECK(r.message.find("notice: no motion switcher answered") != std::string::npos);
    CHECK(r.message.find("rt/api/motion_switcher/request") != std::string::npos);
    CHECK(r.message.find("receiving rt/lowstate") != std::string::npos);
  }
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::robot("lo"), d));
    const auto r = backend.acquire(3s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(r.stage == praxis::LifecycleStage::failed);
    CHECK(r.message.find("motion switcher: no RPC server on \"rt/api/motion_switcher/request\"") != std::string::npos);
    CHECK(r.message.find("simulator() preset") != std::string::npos);
  }
}

TEST_CASE("start-up waits for a VALID state and says how many invalid ones arrived", "[unitree][lifecycle][dds]") {
  const auto d = domain(2);
  StateStream python_sim(d, false);  // crc = 0 on every frame
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::simulator(d), d));
    const auto r = backend.acquire(1s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("no valid state on rt/lowstate within 1000 ms") != std::string::npos);
    CHECK(r.message.find("invalid ones arrived") != std::string::npos);
    CHECK(r.message.find("check_state_crc = false") != std::string::npos);
    CHECK(backend.crc_errors() > 10);
    CHECK_FALSE(backend.have_state());
  }
  auto options = quick(u::UnitreeBackend<u::Go2>::simulator(d), d);
  options.check_state_crc = false;
  u::UnitreeBackend<u::Go2> backend(options);
  const auto r = backend.acquire(3s);
  INFO(r.message);
  CHECK(r.ok);
  praxis::RobotState<12> s;
  REQUIRE(backend.read(s, praxis::Clock::now()));
  CHECK(s.q[7] == Approx(0.5));
}

TEST_CASE("start-up without releasing the motion service asks no switcher, and release() hands nothing back",
          "[unitree][lifecycle][dds]") {
  // Domain 1's signed stream again (no free domain is left near it): a second identical stream on
  // it, when CTest runs the first test case at the same time, changes nothing either test checks.
  const auto d = domain(1);
  StateStream sim(d, true);
  // The robot preset requires a switcher; none runs here, so only not asking lets start-up pass.
  auto options = quick(u::UnitreeBackend<u::Go2>::robot("lo"), d);
  options.release_motion_service = false;
  u::UnitreeBackend<u::Go2> backend(options);
  const auto r = backend.acquire(3s);
  INFO(r.message);
  CHECK(r.ok);
  CHECK(r.message == "receiving rt/lowstate");
  praxis::RobotStatus status;
  REQUIRE(backend.read_status(status));
  CHECK(status.lifecycle == praxis::LifecycleStage::in_control);
  CHECK(status.reported_mode == praxis::RobotMode::user);
  CHECK(status.assumed_mode == praxis::RobotMode::user);

  const auto released = backend.release(1s);
  CHECK(released.ok);
  CHECK(released.stage == praxis::LifecycleStage::released);
  CHECK(released.message.find("stopped sending rt/lowcmd") != std::string::npos);
  REQUIRE(backend.read_status(status));
  CHECK(status.lifecycle == praxis::LifecycleStage::released);
  CHECK(status.reported_mode == praxis::RobotMode::unknown);
}

}  // namespace unitree_backend_test
}  // namespace
