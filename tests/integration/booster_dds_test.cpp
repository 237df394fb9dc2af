// Two processes over real Cyclone DDS on loopback: praxis with the Booster backend in this process,
// praxis-fake-booster in another. The seed's validation list end to end (the behaviour's motion
// commands through the pipeline, the I/O worker, the loco RPC and rt/kick_ball, judged by what
// the fake robot recorded), a robot that stops answering, a request the robot refuses, and
// joint-level control of a T1 through the RobotController. Each test case has its own DDS domain.

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/fake_robot_process.hpp"
#include "../support/timetable.hpp"

#include "praxis/control/motion_controller.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/booster/backend.hpp"
#include "../support/alloc_counter.hpp"
#include "../support/hold.hpp"

extern char** environ;

using namespace std::chrono_literals;
namespace b = praxis::booster;
namespace m = praxis::motion;

namespace booster_test {
using Timetable = praxis::test::Timetable;  // support/timetable.hpp

}  // namespace booster_test
using booster_test::Timetable;

namespace {

// praxis-fake-booster as a child process (tests/support/fake_robot_process.hpp).
struct FakeBooster : praxis::test::FakeRobotProcess {
  FakeBooster(const std::string& robot, std::uint32_t domain, std::vector<std::string> extra = {})
      : FakeRobotProcess(PRAXIS_FAKE_BOOSTER, robot, domain, std::move(extra)) {}
};

std::vector<nlohmann::json> loco_calls(const nlohmann::json& report, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (const auto& c : report["loco_calls"]) {
    if (c["name"] == name) out.push_back(c);
  }
  return out;
}

std::size_t count_between(const std::vector<nlohmann::json>& calls, double from, double to) {
  return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), [&](const auto& c) {
    const double t = c["t"].template get<double>();
    return t >= from && t < to;
  }));
}

double time_of_first(const std::vector<nlohmann::json>& calls) {
  REQUIRE(!calls.empty());
  return calls.front()["t"].get<double>();
}

b::BackendOptions options_for(std::uint32_t domain, std::shared_ptr<b::EventLog> log) {
  auto o = b::BoosterBackend<b::K1>::fake_robot(domain);
  o.log = std::move(log);
  return o;
}

m::command::WalkWithVelocity walking(double vx) {
  m::command::WalkWithVelocity w;
  w.velocity = {vx, 0.0};
  return w;
}

praxis::control::MotionOptions motion_options() {
  praxis::control::MotionOptions o;
  o.print = false;
  o.lifecycle_timeout = 10s;
  o.safety.stale_timeout = 500ms;  // a loaded CI machine may starve a thread; this test is about requests
  return o;
}

}  // namespace

// [wallclock]: call rates (~50 Hz) and exactly one call per change, with a 100 ms per-call timeout;
// the TSan CTest leaves it out (see tests/CMakeLists.txt).
TEST_CASE("booster over DDS: the validation list end to end against praxis-fake-booster",
          "[booster][dds][two-process][wallclock]") {
  constexpr std::uint32_t domain = 97;
  FakeBooster fake("k1", domain, {"--lying", "--get-up-seconds", "1.0", "--button", "4.0:1:2"});
  auto log = std::make_shared<b::RecordingEventLog>();
  b::BoosterBackend<b::K1> robot(options_for(domain, log));
  praxis::script::ScriptLibrary<b::K1> library;
  auto options = motion_options();
  // The control thread posts requests, reads the status and the state, and never allocates: the
  // RPCs, their JSON and the log live on the I/O worker and the executors.
  std::uint64_t allocations_at_start = 0, allocations_at_exit = 0;
  options.on_thread_start = [&](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) allocations_at_start = praxis::test::thread_allocation_count();
  };
  options.on_thread_exit = [&](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) allocations_at_exit = praxis::test::thread_allocation_count();
  };
  praxis::control::MotionController<b::BoosterBackend<b::K1>, Timetable> controller(robot, library, options);
  m::command::Stand stand;
  stand.head = m::HeadMotion::look_at_angles(0.3, 0.1);
  m::command::VisualKick kick;
  kick.ball_position = {1.0, -0.5};
  kick.target_position = {4.0, 0.5};
  controller.behaviour().steps = {{0.5, m::command::Prepare{}}, {1.0, m::command::StandUp{}}, {3.5, stand},
                                  {5.0, walking(0.3)},           {6.0, kick},                   {7.0, walking(0.2)}};
  (void)controller.run_for(8s);
  REQUIRE(controller.acquired().has_value());
  INFO("acquire: " << controller.acquired()->message);
  CHECK(controller.acquired()->ok);
  CHECK(controller.cycles() > 2000);
  CHECK(allocations_at_exit == allocations_at_start);
  const auto report = fake.stop();
  INFO(report.dump());

  // One change_mode per change: Prepare, Soccer, and Damping when the run ends; never Walking.
  std::vector<int> modes;
  for (const auto& c : loco_calls(report, "ChangeMode")) {
    modes.push_back(nlohmann::json::parse(c["body"].get<std::string>())["mode"].get<int>());
    CHECK(c["status"] == 0);
  }
  CHECK(modes == std::vector<int>{1, 4, 0});
  for (const auto& e : report["modes"]) CHECK(e["mode"] != "Walking");
  const double prepare_at = time_of_first(loco_calls(report, "ChangeMode"));
  // Nothing before it (the behaviour said nothing for its first 0.5 s) but acquire()'s question
  // which mode the robot is in.
  CHECK(report["loco_calls"][0]["name"] == "GetMode");
  CHECK(report["loco_calls"][1]["name"] == "ChangeMode");

  // One get_up, at stand-up entry, accepted in Prepare; the robot stood up.
  const auto get_ups = loco_calls(report, "GetUp");
  REQUIRE(get_ups.size() == 1);
  CHECK(get_ups[0]["status"] == 0);
  CHECK(report["standing"] == true);

  // move_robot and rotate_head at ~50 Hz in Soccer: 1 s windows well inside Stand and the walk.
  const auto moves = loco_calls(report, "Move");
  const double soccer_at = loco_calls(report, "ChangeMode")[1]["t"].get<double>();
  const double stand_window = soccer_at + 0.2;
  CHECK(count_between(moves, stand_window, stand_window + 1.0) >= 35);
  CHECK(count_between(moves, stand_window, stand_window + 1.0) <= 55);
  CHECK(count_between(loco_calls(report, "RotateHead"), stand_window, stand_window + 1.0) >= 35);
  CHECK(count_between(moves, prepare_at, soccer_at) == 0);  // not in Prepare
  for (const auto& c : moves) CHECK(c["status"] == 0);
  bool walked = false;
  for (const auto& c : moves) {
    walked = walked || nlohmann::json::parse(c["body"].get<std::string>())["vx"].get<double>() == Approx(0.3);
  }
  CHECK(walked);
  CHECK(report["odometry"]["x"].get<double>() > 0.1);

  // Visual kick: one start, kick_ball at ~50 Hz, one stop when leaving for the walk; Soccer stayed.
  const auto kicks = loco_calls(report, "VisualKick");
  REQUIRE(kicks.size() == 2);
  CHECK(nlohmann::json::parse(kicks[0]["body"].get<std::string>())["start"] == true);
  CHECK(nlohmann::json::parse(kicks[1]["body"].get<std::string>())["start"] == false);
  CHECK(kicks[0]["status"] == 0);
  CHECK(kicks[1]["status"] == 0);
  CHECK(report["kick_ball"]["received"].get<int>() >= 30);
  CHECK(report["kick_ball"]["rate_hz"].get<double>() > 35.0);
  CHECK(report["kick_ball"]["rate_hz"].get<double>() < 60.0);
  CHECK(report["kick_ball"]["last_x"].get<double>() == 1.0);

  // The robot's own controller had the joints all along: not one rt/joint_ctrl frame (a damping
  // frame with weight 1 would have taken them from it).
  CHECK(report["joint_ctrl"]["received"] == 0);
  CHECK(robot.commands_withheld_in_robot_modes() > 0);

  // The structured log has every kind of entry, and every scheduled call completed.
  CHECK(!log->entries("behaviour_input").empty());
  CHECK(!log->entries("primary_state").empty());
  const auto buttons = log->entries("button_input");
  REQUIRE(buttons.size() == 1);
  CHECK(nlohmann::json::parse(buttons[0].json)["button_event"] == "SINGLE_CLICK");
  CHECK(nlohmann::json::parse(buttons[0].json)["button"] == 1);
  std::size_t scheduled = 0, completed = 0;
  for (const auto& e : log->entries("rpc")) {
    scheduled += e.json.find("booster rpc scheduled") != std::string::npos;
    completed += e.json.find("booster rpc completed") != std::string::npos;
  }
  CHECK(scheduled > 200);
  CHECK(completed == scheduled);
}

// [wallclock]: each hung call is cut within 150 ms and the head's calls get through between them;
// the TSan CTest leaves it out (see tests/CMakeLists.txt).
TEST_CASE("booster over DDS: a robot that stops answering move_robot costs timeouts, not cycles",
          "[booster][dds][two-process][errors][wallclock]") {
  constexpr std::uint32_t domain = 98;
  FakeBooster fake("k1", domain, {"--hang-api", "2001"});
  auto log = std::make_shared<b::RecordingEventLog>();
  b::BoosterBackend<b::K1> robot(options_for(domain, log));
  praxis::script::ScriptLibrary<b::K1> library;
  praxis::control::MotionController<b::BoosterBackend<b::K1>, Timetable> controller(robot, library, motion_options());
  m::command::Stand stand;
  stand.head = m::HeadMotion::look_at_angles(0.2, 0.0);
  controller.behaviour().steps = {{0.2, m::command::Prepare{}}, {2.5, stand}, {3.0, walking(0.3)}};
  (void)controller.run_for(5s);
  const auto report = fake.stop();
  INFO(report.dump());

  // The control loop kept its period (2 ms) while every move_robot hung for its 100 ms timeout.
  CHECK(controller.cycles() >= 2000);
  std::size_t move_timeouts = 0, head_ok = 0;
  double longest = 0.0;
  for (const auto& e : log->entries("rpc")) {
    const auto j = nlohmann::json::parse(e.json);
    if (j.value("event", "") != "booster rpc completed") continue;
    if (j["action"] == "move_robot" && j["status"] == "timeout") {
      ++move_timeouts;
      longest = std::max(longest, j["elapsed_ms"].get<double>());
    }
    if (j["action"] == "rotate_head" && j["status"] == "ok") ++head_ok;
  }
  CHECK(move_timeouts >= 10);
  CHECK(longest < 150.0);  // cut at the 100 ms timeout (plus scheduling slack)
  // The head's calls still went through between the hung moves: the loco client is single flight
  // (as Booster's is), so each hung move holds the next call back for its 100 ms.
  CHECK(head_ok >= 8);
  CHECK(controller.status().requests_in_flight < 10);
  CHECK(loco_calls(report, "RotateHead").size() >= 8);
}

TEST_CASE("booster over DDS: a request the robot refuses is a typed error with its status, reported back",
          "[booster][dds][two-process][errors]") {
  constexpr std::uint32_t domain = 2;
  FakeBooster fake("k1", domain);
  auto log = std::make_shared<b::RecordingEventLog>();
  b::BoosterBackend<b::K1> robot(options_for(domain, log));
  praxis::script::ScriptLibrary<b::K1> library;
  praxis::control::MotionController<b::BoosterBackend<b::K1>, Timetable> controller(robot, library, motion_options());
  controller.behaviour().steps = {{0.2, m::command::Stand{}}};  // Soccer straight from Damping
  (void)controller.run_for(1500ms);
  const auto report = fake.stop();
  INFO(report.dump());
  const auto modes = loco_calls(report, "ChangeMode");
  REQUIRE(!modes.empty());
  CHECK(modes[0]["status"] == 409);
  CHECK(report["mode"] == "Damping");
  const auto failures = log->entries("rpc");
  CHECK(std::any_of(failures.begin(), failures.end(), [](const auto& e) {
    return e.json.find("booster rpc failed") != std::string::npos &&
           e.json.find("ChangeMode (2000) failed with status 409") != std::string::npos;
  }));

  // The client's typed error, as a user calling the loco API directly sees it.
  FakeBooster again("k1", domain + 1);
  praxis::transport::Participant participant({domain + 1, "lo"});
  b::DdsRpcChannel channel(participant, b::TopicNames{}.loco_channel);
  REQUIRE(channel.wait_for_server(5s));
  b::LocoClient loco(channel);
  CHECK_THROWS_AS(loco.visual_kick(true), b::Conflict);
  try {
    loco.move(0.1, 0.0, 0.0);
    FAIL("Move in Damping was accepted");
  } catch (const b::RpcStatusError& e) {
    CHECK(e.status() == 409);
    CHECK(e.api_id() == b::loco_api::k_move);
  }
  loco.change_mode(b::Mode::prepare);
  CHECK(loco.get_mode() == b::Mode::prepare);
}

namespace {
template <class Model>
using HoldOffset = praxis::test::HoldOffset<Model, 1, 100>;  // head pitch

// A T1 under joint-level control against its fake. Taking control and the command path are what
// these tests are about, not stale states: a loaded machine (or the TSan build, both processes 5-15x
// slower) can starve the fake's state for more than 100 ms, so link and stale timeouts are 500 ms.
b::BackendOptions t1_joint_options(std::uint32_t domain) {
  auto options = b::BoosterBackend<b::T1, b::Access::joints>::fake_robot(domain);
  options.prepare_settle = 300ms;
  options.link_timeout = 500ms;
  return options;
}
praxis::control::ControllerOptions t1_controller_options() {
  praxis::control::ControllerOptions copts;
  copts.print = false;
  copts.lifecycle_timeout = 10s;
  copts.safety.stale_timeout = 500ms;
  return copts;
}
}  // namespace

TEST_CASE("booster over DDS: joint-level control of a fake T1 through the RobotController (Prepare, Custom, "
          "rt/joint_ctrl, the remote's buttons)", "[booster][dds][two-process]") {
  constexpr std::uint32_t domain = 99;
  using Backend = b::BoosterBackend<b::T1, b::Access::joints>;
  static_assert(!praxis::PostsRequests<Backend> || !praxis::HasModes<Backend>);
  FakeBooster fake("t1", domain, {"--gamepad", "R2:2.5-4.0,A:4.5"});
  Backend robot(t1_joint_options(domain));
  praxis::control::RobotController<Backend, HoldOffset<b::T1>> controller(robot, t1_controller_options());
  (void)controller.run_for(5s);  // counted from the loop's start, after taking control
  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(controller.acquired().has_value());
  INFO("acquire: " << controller.acquired()->message);
  CHECK(controller.acquired()->ok);
  CHECK_THAT(controller.acquired()->message, Catch::Contains("Custom"));
  CHECK(controller.state() == praxis::control::ControlState::ctrl);

  std::vector<std::string> modes;
  for (const auto& e : report["modes"]) modes.push_back(e["mode"].get<std::string>());
  CHECK(modes == std::vector<std::string>{"Damping", "Prepare", "Custom", "Damping"});  // release: Damping
  CHECK(report["joint_ctrl"]["wrong_space"] == 0);
  CHECK(report["joint_ctrl"]["rejected"] == 0);
  CHECK(report["joint_ctrl"]["applied_in_custom"].get<int>() > 500);
  // The backend's hold for Custom's first frames: the measured pose with the Prepare gains.
  praxis::RobotState<b::T1::joint_count> measured;
  measured.q[14] = 0.37;
  const auto hold = robot.entry_hold(measured);
  CHECK(hold.q[14] == 0.37);
  CHECK(hold.kp[14] == b::T1::prepare_kp[14]);
  const double q1 = report["final_q"][1].get<double>();
  CHECK(q1 == Approx(b::T1::stand_pose[1] + 0.1).margin(0.03));  // the controller's target reached the joint
  CHECK(robot.states_rejected() == 0);
}

// A T1 under joint-level control (Custom) that restarts: its process gone mid-CTRL, a new one in
// Damping on the same domain. praxis' state goes stale (control lost, joint damping), and the
// restarted robot is asked for nothing: no Prepare, no Custom, its joint frames never applied.
TEST_CASE("booster over DDS: a T1 restarted in Custom is not taken again: control lost, nothing asked of the new "
          "robot", "[booster][dds][two-process][restart]") {
  constexpr std::uint32_t domain = 96;
  using Backend = b::BoosterBackend<b::T1, b::Access::joints>;
  std::optional<FakeBooster> before(std::in_place, "t1", domain,
                                    std::vector<std::string>{"--gamepad", "R2:2.5-4.0,A:4.5", "--duration", "7"});
  Backend robot(t1_joint_options(domain));
  praxis::control::RobotController<Backend, HoldOffset<b::T1>> controller(robot, t1_controller_options());
  praxis::control::RunOutcome outcome;
  std::thread run([&] { outcome = controller.run_for(9s); });
  REQUIRE(before->wait_for_exit(15000ms));
  const auto first = before->stop();
  CHECK(first["mode"] == "Custom");  // it was under praxis' joints when it went
  CHECK(first["joint_ctrl"]["applied_in_custom"].get<int>() > 100);
  std::this_thread::sleep_for(500ms);
  FakeBooster after("t1", domain, {});  // back, in Damping
  run.join();
  const auto report = after.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  CHECK(controller.state() == praxis::control::ControlState::damping);
  for (const auto& c : report["loco_calls"]) {
    if (c["name"] != "ChangeMode") continue;
    // Only the end's Damping (release()), never Prepare or Custom.
    CHECK(nlohmann::json::parse(c["body"].get<std::string>())["mode"] == static_cast<int>(b::Mode::damping));
  }
  for (const auto& e : report["modes"]) CHECK(e["mode"] == "Damping");
  CHECK(report["joint_ctrl"]["applied_in_custom"] == 0);
}
