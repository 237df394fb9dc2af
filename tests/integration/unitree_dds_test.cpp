// Two processes over real Cyclone DDS on loopback: RobotController with the Unitree backend (or a
// raw Cyclone writer and readers) in this process, praxis-fake-robot in another. Each test uses its
// own DDS domain, so tests can run in parallel.

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/unitree/arm_sdk.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/rpc.hpp"
#include "../support/fake_robot_process.hpp"
#include "../support/hold.hpp"

extern char** environ;

using namespace std::chrono_literals;
namespace u = praxis::unitree;

namespace {

std::uint32_t unique_domain(std::uint32_t k) {
  // 100-216 (Cyclone's port mapping ends at 232; the demo test has 231): each test its own
  // sub-range of 13, the process id picks within it.
  REQUIRE(k >= 1);
  REQUIRE(k <= 9);
  return 100 + 13 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 13);
}

// The fake robot as a child process; SIGTERM and a JSON report when stopped.
class FakeRobot {
 public:
  FakeRobot(const std::string& robot, std::uint32_t domain, const std::string& gamepad,
            const std::string& sport_mode = "", const std::vector<std::string>& extra = {}) {
    report_ = std::filesystem::temp_directory_path() /
              ("praxis_fake_" + std::to_string(::getpid()) + "_" + std::to_string(domain) + "_" +
               std::to_string(counter()++) + ".json");
    std::vector<std::string> args{PRAXIS_FAKE_ROBOT, "--robot", robot, "--domain", std::to_string(domain),
                                  "--interface", "lo", "--report", report_.string()};
    if (!gamepad.empty()) {
      args.push_back("--gamepad");
      args.push_back(gamepad);
    }
    if (!sport_mode.empty()) {
      args.push_back("--sport-mode");
      args.push_back(sport_mode);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid_, PRAXIS_FAKE_ROBOT, nullptr, nullptr, argv.data(), environ) == 0);
  }
  ~FakeRobot() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove(report_);
  }
  // Ends the process gracefully and returns its report.
  nlohmann::json stop() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::ifstream in(report_);
    return nlohmann::json::parse(in);
  }
  void kill_hard() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = 0;
  }

 private:
  static int& counter() {
    static int c = 0;
    return c;
  }
  pid_t pid_ = 0;
  std::filesystem::path report_;
};

// Shown when a check fails: which transitions happened, when, and why.
template <class Events>
std::string story_of(const Events& transitions) {
  std::string story;
  for (const auto& t : transitions) {
    story += std::string(praxis::motion::to_string(t.from)) + " -> " + std::string(praxis::motion::to_string(t.to)) +
             " (" + std::string(praxis::motion::to_string(t.cause)) + ") at " + std::to_string(t.time) +
             " s, gain ratio " + std::to_string(t.gain_ratio) + "; ";
  }
  return story;
}

template <class Model>
using HoldOffset = praxis::test::HoldOffset<Model, 1, 100>;

template <class Model>
void stand_and_control(const std::string& robot_name, std::uint32_t domain) {
  // The buttons are timed from the controller's first command, not from the fake's start: taking
  // control (release the sport mode, wait for the first state) took over 1.5 s once under TSan in CI,
  // and a button already held when control starts has no press edge, like on the real remote.
  FakeRobot fake(robot_name, domain, "R2:1.5-3.0,A:3.5", "normal", {"--script-start", "first-command"});
  auto backend_options = u::UnitreeBackend<Model>::simulator(domain);
  backend_options.release = {.call_timeout = 5s, .overall_timeout = 10s, .retry_interval = 100ms};
  backend_options.link_timeout = 500ms;  // see stale_timeout below
  u::UnitreeBackend<Model> backend(backend_options);

  // No release_motion_control() by hand: run_for() runs the backend's lifecycle around the loop.
  praxis::control::ControllerOptions options;
  options.print = false;
  // This test is about taking control and the path of commands, not about stale states: a loaded
  // machine (or the TSan build, both processes 5-15x slower) can starve the fake's tick for >100 ms.
  options.safety.stale_timeout = 500ms;
  praxis::control::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  (void)controller.run_for(5s);
  controller.flush();
  REQUIRE(controller.acquired().has_value());
  CHECK(controller.acquired()->ok);
  CHECK_THAT(controller.acquired()->message, Catch::Contains("released motion service \"normal\""));
  const auto transitions = controller.transitions();
  INFO("transitions: " << story_of(transitions));
  CHECK(controller.state() == praxis::control::ControlState::ctrl);
  REQUIRE(transitions.size() >= 2);
  CHECK(transitions[transitions.size() - 2].to == praxis::motion::MotionType::stand);
  CHECK(transitions.back().to == praxis::motion::MotionType::user_control);
  CHECK(backend.crc_errors() == 0);
  CHECK(backend.states_accepted() > 1000);

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["frames_rejected_total"] == 0);
  CHECK(report["frames_received"].get<int>() > 500);
  CHECK(report["frames_checked"] == report["frames_received"]);
  CHECK(report["frames_applied"].get<int>() > 500);
  CHECK(report["active_mode"] == "");
  const double q1 = report["final_q"][1].get<double>();
  CHECK(q1 == Approx(Model::stand_pose[1] + 0.1).margin(0.02));  // the controller's target reached the joint
}

}  // namespace

TEST_CASE("a fake Go2 over DDS: release sport mode, stand up, control", "[unitree][dds][two-process]") {
  stand_and_control<u::Go2>("go2", unique_domain(1));
}

TEST_CASE("a fake G1 over DDS: hg messages, echoed mode_machine", "[unitree][dds][two-process]") {
  stand_and_control<u::G1>("g1", unique_domain(2));
}

// [wallclock]: the robot's absence (700 ms) must outlast the stale timeout (100 ms) while the robots
// before and after it never pause that long; the TSan CTest leaves it out (see tests/CMakeLists.txt).
TEST_CASE("a killed robot means damping and after a restart only the state machine brings it back",
          "[unitree][dds][two-process][wallclock]") {
  using Model = u::Go2;
  const auto domain = unique_domain(3);
  // Unitree's simulator (no motion switcher): a restarted robot with a switcher boots with its motion
  // service on and is not commanded again (the next test).
  auto first = std::make_unique<FakeRobot>("go2", domain, "R2:1.0-2.2", "", std::vector<std::string>{"--simulator"});
  // A killed robot is silent for 700 ms here: 300 ms of silence still finds it, and a machine
  // loaded by parallel builds (seen: a 101 ms gap in the robot's own publishing) does not.
  auto backend_options = u::UnitreeBackend<Model>::simulator(domain);
  backend_options.check_state_crc = false;  // the simulator's crc 0
  backend_options.link_timeout = 300ms;
  u::UnitreeBackend<Model> backend(backend_options);
  REQUIRE(backend.wait_for_state(5s).ok);  // so that the 3 s below are counted from a robot that is up
  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = 300ms;
  praxis::control::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  std::thread run([&] { (void)controller.run_for(10s); });

  std::this_thread::sleep_for(3000ms);
  first->kill_hard();  // the robot disappears while standing
  std::this_thread::sleep_for(700ms);
  // The new robot presses A first (must be ignored in damping), then R2, then A.
  FakeRobot second("go2", domain, "A:0.5,R2:1.2-2.7,A:3.5", "", {"--simulator"});
  run.join();
  controller.flush();
  const auto report = second.stop();
  INFO("second robot: " << report.dump());
  const auto t = controller.transitions();
  std::vector<std::pair<praxis::control::ControlState, praxis::control::ControlState>> seen;
  for (const auto& e : t) {
    seen.emplace_back(praxis::control::control_state(e.from), praxis::control::control_state(e.to));
  }
  using S = praxis::control::ControlState;
  INFO("transitions: " << story_of(t));
  const std::vector<std::pair<S, S>> expected{
      {S::damping, S::stand}, {S::stand, S::damping}, {S::damping, S::stand}, {S::stand, S::ctrl}};
  CHECK(seen == expected);
  REQUIRE(t.size() == 4);
  CHECK(t[1].cause == praxis::motion::SelectionCause::stale_state);
  CHECK(t[3].cause == praxis::motion::SelectionCause::requested);  // the gamepad's A
  CHECK(report["frames_rejected"]["crc"] == 0);
  CHECK(report["frames_rejected"]["motor_mode"] == 0);
  CHECK(backend.robot_restarted());  // seen, and with no switcher nothing withheld
  CHECK(report["frames_applied"].get<int>() > 100);
}

// A G1 under low-level control that restarts (its process gone, a new one on the same domain with
// its motion service on, as a robot boots): its LowState tick goes back, and praxis sends the new
// robot nothing: no LowCmd (not even damping, which would fight its own controller), no second
// ReleaseMode. The run's outcome says control lost, and why.
TEST_CASE("a G1 restarted under low-level control boots with its motion service on and is sent nothing more",
          "[unitree][dds][two-process][restart]") {
  using Model = u::G1;
  constexpr std::uint32_t domain = 62;  // outside unique_domain()'s range
  praxis::test::FakeRobotProcess first(PRAXIS_FAKE_ROBOT, "g1", domain,
                                       {"--gamepad", "R2:1.0-2.2,A:2.7", "--sport-mode", "normal", "--script-start",
                                        "first-command", "--duration", "7"});
  auto backend_options = u::UnitreeBackend<Model>::simulator(domain);
  backend_options.release = {.call_timeout = 5s, .overall_timeout = 10s, .retry_interval = 100ms};
  backend_options.link_timeout = 500ms;
  u::UnitreeBackend<Model> backend(backend_options);
  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = 500ms;
  praxis::control::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  praxis::control::RunOutcome outcome;
  std::thread run([&] { outcome = controller.run_for(10s); });
  REQUIRE(first.wait_for_exit(20000ms));
  const auto before = first.stop();
  CHECK(before["active_mode"] == "");  // released, and under praxis' joints when it went
  CHECK(before["frames_applied"].get<int>() > 500);
  // Past the backend's silence cutoff (1 s): a robot boots far slower. Within it the damping frames
  // would still go out, and a robot back that soon would hear them before praxis heard it.
  std::this_thread::sleep_for(1500ms);
  praxis::test::FakeRobotProcess second(PRAXIS_FAKE_ROBOT, "g1", domain, {"--sport-mode", "normal"});
  run.join();
  controller.flush();
  const auto report = second.stop();
  INFO("second robot: " << report.dump());
  INFO(outcome.summary());
  INFO("transitions: " << story_of(controller.transitions()));
  CHECK(backend.robot_restarted());
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  CHECK_THAT(outcome.cause, Catch::Contains("the robot restarted (LowState tick went back"));
  CHECK_THAT(outcome.cause, Catch::Contains("start a new run"));
  CHECK(report["frames_received"] == 0);  // nothing on rt/lowcmd reached the new robot
  CHECK(report["rpc_requests"] == 0);     // and no ReleaseMode
  CHECK(report["active_mode"] == "normal");
  CHECK(controller.state() == praxis::control::ControlState::damping);
}

// ---- the fake robot seen through raw Cyclone readers and writers ----

namespace {

using HgLowCmd = unitree_hg_msg_dds__LowCmd_;
using HgLowState = unitree_hg_msg_dds__LowState_;
using HgImu = unitree_hg_msg_dds__IMUState_;
using GoWireless = unitree_go_msg_dds__WirelessController_;

template <class Predicate>
bool wait_until(Predicate&& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// A command writer that keeps a whole burst for retransmission, so "exactly N received" measures
// the fake robot, not a lost packet.
praxis::transport::Publisher<HgLowCmd> command_writer(const praxis::transport::Participant& p) {
  return {p, "rt/lowcmd", &unitree_hg_msg_dds__LowCmd__desc, praxis::transport::TopicQos{.reliable = true, .depth = 512}};
}

// A G1 command holding the rest pose with the left ankle's first slot (pitch, or motor B in AB
// mode) at `ankle`.
HgLowCmd g1_frame(double ankle, std::uint8_t mode_pr, std::uint8_t mode_machine) {
  praxis::JointCommand<u::G1::joint_count> cmd;
  for (std::size_t j = 0; j < u::G1::joint_count; ++j) cmd.q[static_cast<Eigen::Index>(j)] = u::G1::rest_pose[j];
  cmd.q[4] = ankle;
  cmd.kp.setConstant(100.0);
  cmd.kd.setConstant(2.0);
  HgLowCmd frame;
  u::encode_command<u::G1>(cmd, {.mode_pr = mode_pr, .mode_machine = mode_machine}, frame);
  return frame;
}

}  // namespace

TEST_CASE("the fake robot checks and counts every frame of a burst far faster than its 500 Hz tick",
          "[unitree][dds][two-process]") {
  const auto domain = unique_domain(4);
  FakeRobot fake("g1", domain, "");
  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<HgLowState> states(participant, "rt/lowstate", &unitree_hg_msg_dds__LowState__desc);
  auto writer = command_writer(participant);
  REQUIRE(wait_until([&] { return states.received() > 0 && writer.matched() > 0; }, 5000ms));

  constexpr int k_frames = 200;
  int bad = 0;
  const auto good = g1_frame(0.2, 0, u::Wire<u::G1>::expected_mode_machine);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < k_frames; ++i) {
    auto frame = good;
    if (i % 40 == 7) {  // 5 frames, none of them the last
      frame.crc ^= 0x1u;
      ++bad;
    }
    REQUIRE(writer.write(frame));
  }
  const double burst_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::this_thread::sleep_for(500ms);
  const auto report = fake.stop();
  INFO(report.dump() << "\nburst took " << burst_ms << " ms");
  CHECK(report["frames_received"] == k_frames);
  CHECK(report["frames_rejected"]["crc"] == bad);
  CHECK(report["frames_rejected_total"] == bad);
  CHECK(report["frames_checked"] == k_frames - bad);
  // The newest good frame of each tick is applied, not every frame: a burst spans a few ticks.
  CHECK(report["frames_applied"].get<int>() >= 1);
  CHECK(report["frames_applied"].get<int>() < k_frames - bad);
  CHECK(report["final_q"][4].get<double>() == Approx(0.2).margin(0.05));
}

TEST_CASE("with --simulator the fake robot is Unitree's simulator: LowState crc 0, mode_machine 0, no RPC",
          "[unitree][dds][two-process]") {
  const auto domain = unique_domain(5);
  FakeRobot fake("g1", domain, "", "normal", {"--simulator"});
  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<HgLowState> states(participant, "rt/lowstate", &unitree_hg_msg_dds__LowState__desc);
  auto writer = command_writer(participant);
  REQUIRE(wait_until([&] { return states.received() > 10 && writer.matched() > 0; }, 5000ms));
  praxis::transport::Stamped<HgLowState> state{};
  REQUIRE(states.fetch(state));
  CHECK(state.message.crc == 0);
  CHECK(state.message.mode_machine == 0);
  CHECK(state.message.tick > 0);
  CHECK_FALSE(u::state_crc_ok<u::G1>(state.message));  // a real robot's frame would carry one

  // The simulator has no motion_switcher: a client finds no server.
  praxis::transport::RpcClient<u::UnitreeApiTraits> switcher(participant,
                                                       u::api_request_topic(u::motion_switcher::k_service),
                                                       u::api_response_topic(u::motion_switcher::k_service));
  CHECK_THROWS_WITH(switcher.call({u::motion_switcher::k_check_mode, "{}"}, 1000ms), Catch::Contains("no RPC server"));

  // Nor does it check command CRCs (Unitree's simulators do not), or keep a motion service.
  constexpr int k_frames = 20;
  for (int i = 0; i < k_frames; ++i) {
    auto frame = g1_frame(0.2, 0, 0);
    frame.crc = 0;
    REQUIRE(writer.write(frame));
  }
  std::this_thread::sleep_for(300ms);
  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["simulator"] == true);
  CHECK(report["frames_received"] == k_frames);
  CHECK(report["frames_checked"] == k_frames);
  CHECK(report["frames_rejected"]["crc"] == 0);
  CHECK(report["rpc_requests"] == 0);
  CHECK(report["frames_applied"].get<int>() >= 1);
}

TEST_CASE("the fake robot publishes what vendor examples read besides rt/lowstate",
          "[unitree][dds][two-process]") {
  const auto domain = unique_domain(6);
  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<HgLowState> states(participant, "rt/lowstate", &unitree_hg_msg_dds__LowState__desc);
  praxis::transport::Subscriber<HgLowState> lf(participant, "rt/lf/lowstate", &unitree_hg_msg_dds__LowState__desc);
  praxis::transport::Subscriber<HgImu> imu(participant, "rt/secondary_imu", &unitree_hg_msg_dds__IMUState__desc);
  praxis::transport::Subscriber<GoWireless> wireless(participant, "rt/wirelesscontroller",
                                               &unitree_go_msg_dds__WirelessController__desc);
  {
    FakeRobot g1("g1", domain, "R2:0.0-30.0");
    REQUIRE(wait_until([&] { return states.received() > 0 && lf.received() > 0 && imu.received() > 0 &&
                                    wireless.received() > 0; },
                       5000ms));
    const auto s0 = states.received(), l0 = lf.received(), i0 = imu.received(), w0 = wireless.received();
    std::this_thread::sleep_for(1000ms);
    const auto ds = states.received() - s0, dl = lf.received() - l0, di = imu.received() - i0,
               dw = wireless.received() - w0;
    INFO("in 1 s: lowstate " << ds << ", lf/lowstate " << dl << ", secondary_imu " << di << ", wirelesscontroller "
                             << dw);
    CHECK(ds > 200);
    CHECK(di > 200);              // with every LowState
    CHECK(dl > 10);
    CHECK(dl * 4 < ds);           // low frequency: 50 Hz against 500 Hz
    CHECK(dw > 20);
    CHECK(dw * 2 < ds);           // 100 Hz

    praxis::transport::Stamped<GoWireless> pad{};
    REQUIRE(wireless.fetch(pad));
    CHECK(pad.message.keys == praxis::button_bit(praxis::GamepadButton::R2));  // the scripted R2, held
    praxis::transport::Stamped<HgLowState> slow{};
    REQUIRE(lf.fetch(slow));
    CHECK(u::state_crc_ok<u::G1>(slow.message));
    CHECK(slow.message.mode_machine == u::Wire<u::G1>::expected_mode_machine);
    praxis::transport::Stamped<HgImu> torso{};
    REQUIRE(imu.fetch(torso));
    const auto& q = torso.message.quaternion;
    CHECK(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] == Approx(1.0).margin(1e-4));
    const auto report = g1.stop();
    CHECK(report["side_topics_published"]["rt/secondary_imu"].get<int>() > 0);
  }
  {
    // A Go2 has no torso IMU: the same domain, a Go2 now, and nothing more on rt/secondary_imu.
    const auto i0 = imu.received(), w0 = wireless.received();
    FakeRobot go2("go2", domain, "", "normal");
    // What the vendor's Go2 low-level example sends before ReleaseMode: StandDown on the sport
    // service, acknowledged while the sport mode runs, refused once it was released.
    praxis::transport::RpcClient<u::UnitreeApiTraits> sport(participant, u::api_request_topic(u::sport::k_service),
                                                      u::api_response_topic(u::sport::k_service));
    praxis::transport::RpcClient<u::UnitreeApiTraits> switcher(participant,
                                                         u::api_request_topic(u::motion_switcher::k_service),
                                                         u::api_response_topic(u::motion_switcher::k_service));
    CHECK(sport.call({u::sport::k_stand_down, "{}"}, 3000ms).code == 0);
    CHECK(sport.call({u::sport::k_damp, "{}"}, 3000ms).code == 0);
    CHECK(sport.call({2047, "{}"}, 3000ms).code == 3203);  // not an id this fake robot knows
    CHECK(switcher.call({u::motion_switcher::k_release_mode, "{}"}, 3000ms).code == 0);
    CHECK(sport.call({u::sport::k_stand_down, "{}"}, 3000ms).code == 3203);  // no sport service any more
    REQUIRE(wait_until([&] { return wireless.received() > w0 + 10; }, 5000ms));
    CHECK(imu.received() == i0);
    const auto report = go2.stop();
    CHECK(report["side_topics_published"]["rt/secondary_imu"] == 0);
    CHECK(report["side_topics_published"]["rt/lf/lowstate"].get<int>() > 0);
    CHECK(report["sport_requests"] == 4);
    CHECK(report["sport_requests_refused"] == 2);
  }
}

// --gamepad's sticks (core/gamepad_script.hpp) on the wire: wireless_remote's float bytes in every
// LowState, decoded by praxis into RobotState::gamepad, and rt/wirelesscontroller's lx, ly, rx, ry.
TEST_CASE("the fake robot's scripted sticks reach praxis' RobotState over DDS, and rt/wirelesscontroller",
          "[unitree][dds][two-process]") {
  // A range of its own beside unique_domain's 100-216.
  const auto domain = 217 + static_cast<std::uint32_t>(::getpid() % 7);
  FakeRobot fake("g1", domain, "R2:0-30,LY=0.5@0-30,RX=-0.25@0,RY=-1@0-0.3,LX=1@0.5-30");
  auto backend_options = u::UnitreeBackend<u::G1>::simulator(domain);
  u::UnitreeBackend<u::G1> backend(backend_options);
  REQUIRE(backend.wait_for_state(5s).ok);
  // One LowState carries one instant of the script: once lx is full right (0.5 s on), ry has been
  // centred again (0.3 s) and the others hold.
  praxis::RobotState<u::G1::joint_count> state;
  REQUIRE(wait_until(
      [&] {
        (void)backend.read(state, praxis::Clock::now());
        return state.gamepad.lx == 1.0f;
      },
      5000ms));
  CHECK(state.gamepad.ly == 0.5f);
  CHECK(state.gamepad.rx == -0.25f);
  CHECK(state.gamepad.ry == 0.0f);
  CHECK(state.gamepad.buttons == praxis::button_bit(praxis::GamepadButton::R2));
  praxis::Gamepad view;
  view.update(state.gamepad);
  CHECK(view.ly == 0.5f);
  CHECK(view.R2.pressed);

  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<GoWireless> wireless(participant, "rt/wirelesscontroller",
                                               &unitree_go_msg_dds__WirelessController__desc);
  praxis::transport::Stamped<GoWireless> pad{};
  REQUIRE(wait_until([&] { return wireless.fetch(pad) && pad.message.lx == 1.0f; }, 5000ms));
  CHECK(pad.message.ly == 0.5f);
  CHECK(pad.message.rx == -0.25f);
  CHECK(pad.message.ry == 0.0f);
  CHECK(pad.message.keys == praxis::button_bit(praxis::GamepadButton::R2));
  const auto report = fake.stop();
  CHECK(report["frames_rejected_total"] == 0);
}

TEST_CASE("hg frames in AB ankle mode are rejected and counted, never applied as pitch/roll",
          "[unitree][dds][two-process]") {
  const auto domain = unique_domain(7);
  FakeRobot fake("g1", domain, "");
  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<HgLowState> states(participant, "rt/lowstate", &unitree_hg_msg_dds__LowState__desc);
  auto writer = command_writer(participant);
  REQUIRE(wait_until([&] { return states.received() > 0 && writer.matched() > 0; }, 5000ms));
  constexpr double k_target = 0.4;
  const double rest = u::G1::rest_pose[4];
  REQUIRE(std::abs(rest - k_target) > 0.2);

  // 500 Hz for `length`, like a controller.
  const auto send_for = [&](const HgLowCmd& frame, std::chrono::milliseconds length) {
    int sent = 0;
    auto next = std::chrono::steady_clock::now();
    const auto end = next + length;
    for (; next < end; next += 2ms, ++sent) {
      REQUIRE(writer.write(frame));
      std::this_thread::sleep_until(next + 2ms);
    }
    return sent;
  };
  const int ab = send_for(g1_frame(k_target, 1, u::Wire<u::G1>::expected_mode_machine), 400ms);
  std::this_thread::sleep_for(100ms);
  praxis::transport::Stamped<HgLowState> state{};
  REQUIRE(states.fetch(state));
  CHECK(state.message.motor_state[4].q == Approx(rest).margin(0.02));  // the AB target did not move it
  CHECK(state.message.mode_pr == 0);
  // mode_pr has two documented values; anything else is no mode at all.
  constexpr int k_unknown = 5;
  for (int i = 0; i < k_unknown; ++i) REQUIRE(writer.write(g1_frame(k_target, 2, u::Wire<u::G1>::expected_mode_machine)));

  // The same target in PR mode is a joint angle, and gets there.
  const int pr = send_for(g1_frame(k_target, 0, u::Wire<u::G1>::expected_mode_machine), 1000ms);
  std::this_thread::sleep_for(100ms);
  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["frames_received"] == ab + k_unknown + pr);
  CHECK(report["frames_rejected"]["mode_pr_ab"] == ab);
  CHECK(report["frames_rejected"]["mode_pr_unknown"] == k_unknown);
  CHECK(report["frames_rejected_total"] == ab + k_unknown);
  CHECK(report["frames_checked"] == pr);
  CHECK(report["final_q"][4].get<double>() == Approx(k_target).margin(0.05));
}

TEST_CASE("praxis against a simulator-mode fake G1 (no motion switcher, crc 0, mode_machine 0): the robot "
          "preset stops with the reason, the simulator preset without CRC checking stands and controls",
          "[unitree][dds][two-process]") {
  using Model = u::G1;
  const auto domain = unique_domain(8);
  FakeRobot fake("g1", domain, "R2:1.5-3.0,A:3.5", "", {"--simulator", "--script-start", "first-command"});
  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = 500ms;  // as in stand_and_control: a starved fake is not what is tested
  options.lifecycle_timeout = 2s;
  {
    // What a robot must do and this one does not: the motion switcher's silence is an error.
    auto robot_options = u::UnitreeBackend<Model>::robot("lo");
    robot_options.dds.domain = domain;
    robot_options.release.call_timeout = 500ms;
    u::UnitreeBackend<Model> backend(robot_options);
    praxis::control::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
    REQUIRE_THROWS_WITH(controller.run_for(1s), Catch::Contains("no RPC server on \"rt/api/motion_switcher/request\"") &&
                                                     Catch::Contains("simulator() preset"));
    CHECK(backend.commands_sent() == 0);
  }
  auto sim_options = u::UnitreeBackend<Model>::simulator(domain);
  sim_options.release.call_timeout = 500ms;
  sim_options.check_state_crc = false;
  sim_options.link_timeout = 500ms;
  u::UnitreeBackend<Model> backend(sim_options);
  praxis::control::RobotController<u::UnitreeBackend<Model>, HoldOffset<Model>> controller(backend, options);
  (void)controller.run_for(5s);
  controller.flush();
  REQUIRE(controller.acquired().has_value());
  INFO("start-up: " << controller.acquired()->message << "; transitions: " << story_of(controller.transitions()));
  CHECK(controller.acquired()->ok);
  CHECK_THAT(controller.acquired()->message, Catch::Contains("notice: no motion switcher answered"));
  CHECK(controller.state() == praxis::control::ControlState::ctrl);
  CHECK(backend.crc_errors() == 0);
  CHECK(backend.robot_mode_machine() == 0);  // learnt from the simulator, echoed

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["frames_rejected_total"] == 0);
  CHECK(report["frames_applied"].get<int>() > 500);
  CHECK(report["final_q"][1].get<double>() == Approx(Model::stand_pose[1] + 0.1).margin(0.02));
}

namespace {
// Waves nothing: holds the stand pose with the left shoulder pitched 0.3 rad forward.
struct ShoulderForward {
  static constexpr std::size_t N = u::G1::joint_count;
  double dt = 0.002, kp = 60.0, kd = 1.5;  // the vendor's arm SDK example gains
  std::array<double, N> init_pos = u::G1::stand_pose;
  std::array<double, N> jpos_des = u::G1::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    jpos_des = init_pos;
    jpos_des[15] += 0.3;
  }
  std::array<float, 0> log() const { return {}; }
};
}  // namespace

TEST_CASE("arm SDK over DDS: a fake G1 keeps its motion service and its legs, praxis blends in its arms and "
          "hands them back",
          "[unitree][dds][two-process][arm_sdk]") {
  using Model = u::G1;
  const auto domain = unique_domain(9);
  // Timed from the fake's start: ArmSdkBackend sends nothing on rt/arm_sdk before STAND, so there is
  // no first command to time from.
  FakeRobot fake("g1", domain, "R2:1.0-2.0,A:2.5", "normal");
  u::ArmSdkOptions arm_options;
  arm_options.dds = {domain, "lo"};
  arm_options.weight_rate = 2.0;  // 0.5 s in and out, so the story fits the test
  arm_options.link_timeout = 500ms;  // not about the link: a loaded test machine stalls processes ~100 ms
  using Arms = u::ArmSdkBackend<Model>;
  Arms arms(arm_options);
  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = 500ms;  // not about staleness: a loaded test machine stalls processes ~100 ms
  praxis::control::RobotController<Arms, ShoulderForward> controller(arms, options);
  (void)controller.run_for(4500ms);
  controller.flush();
  REQUIRE(controller.acquired().has_value());
  INFO("start-up: " << controller.acquired()->message << "; transitions: " << story_of(controller.transitions()));
  CHECK(controller.acquired()->ok);
  CHECK(controller.state() == praxis::control::ControlState::ctrl);
  // At the end of the loop praxis had the arm, at full weight.
  CHECK(controller.last_state().q[15] == Approx(Model::stand_pose[15] + 0.3).margin(0.03));
  CHECK(arms.weight() == 0.0);  // release() blended it back out

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["active_mode"] == "normal");  // its motion service was never released
  CHECK(report["frames_received"] == 0);     // and rt/lowcmd never written
  CHECK(report["arm_sdk"]["frames_checked"] == report["arm_sdk"]["frames_received"]);
  CHECK(report["arm_sdk"]["frames_applied"].get<int>() > 100);
  CHECK(report["arm_sdk"]["max_weight"].get<double>() == 1.0);
  CHECK(report["arm_sdk"]["last_weight"].get<double>() == 0.0);
  // The robot took its arm back, and it always had its legs.
  CHECK(report["final_q"][15].get<double>() == Approx(Model::stand_pose[15]).margin(0.03));
  CHECK(report["final_q"][3].get<double>() == Approx(Model::stand_pose[3]).margin(0.03));
}

TEST_CASE("a discovery tag keeps two setups on one domain apart: a fake robot with another tag is never heard",
          "[unitree][dds][two-process][isolation]") {
  // Domains 225-228: this test only. The test process' participant has this process' tag
  // (catch_main.cpp); each fake gets its tag through the environment it is started with.
  const auto domain = 225 + static_cast<std::uint32_t>(::getpid() % 4);
  const std::string own = praxis::transport::discovery_tag();
  REQUIRE_FALSE(own.empty());
  const std::string other = own + "-other";
  REQUIRE(::setenv(praxis::transport::k_discovery_tag_env, other.c_str(), 1) == 0);
  FakeRobot stranger("g1", domain, "");
  REQUIRE(::setenv(praxis::transport::k_discovery_tag_env, own.c_str(), 1) == 0);

  praxis::transport::Participant participant({domain, "lo"});
  praxis::transport::Subscriber<HgLowState> states(participant, "rt/lowstate", &unitree_hg_msg_dds__LowState__desc);
  std::this_thread::sleep_for(1500ms);  // the stranger publishes at 500 Hz from its start
  CHECK(states.received() == 0);

  FakeRobot ours("g1", domain, "");  // same domain, same tag as this process
  CHECK(wait_until([&] { return states.received() > 10; }, 5000ms));
  const auto stranger_report = stranger.stop();
  INFO(stranger_report.dump());
  CHECK(stranger_report["states_published"].get<int>() > 100);  // it was there all along, unheard
}
