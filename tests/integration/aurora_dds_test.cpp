// Two processes over real Cyclone DDS on loopback: praxis with the Aurora backend in this process,
// praxis-fake-aurora in another, judged by what the fake robot recorded (the states it entered,
// the client mistakes it counted by kind, where the joints ended). Aurora has no remote on DDS,
// so the controller reaches its user control through a behaviour (MotionController with
// command::UserControl) instead of a gamepad. Each two-process test case has its own DDS domain
// (217, 218, 219). The fake's acceptance rules are checked alone first.

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
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
#include "praxis/control/user_control_motion.hpp"
#include "praxis/hardware/aurora/backend.hpp"
#include "../../examples/fake_aurora/fsm_rules.hpp"
#include "../support/hold.hpp"

extern char** environ;

using namespace std::chrono_literals;
namespace a = praxis::aurora;
namespace fa = praxis::fake_aurora;
namespace m = praxis::motion;

namespace aurora_dds_test {

using Timetable = praxis::test::Timetable;  // support/timetable.hpp

// Holds the stand pose with one joint offset: GR-2's head_pitch_joint (index 14) by +0.1 rad.
constexpr std::size_t k_offset_joint = 14;
constexpr double k_offset = 0.1;

template <class Model>
using HoldOffset = praxis::test::HoldOffset<Model, k_offset_joint, 100>;

// praxis-fake-aurora as a child process (tests/support/fake_robot_process.hpp).
struct FakeAurora : praxis::test::FakeRobotProcess {
  FakeAurora(const std::string& robot, std::uint32_t domain, std::vector<std::string> extra = {})
      : FakeRobotProcess(PRAXIS_FAKE_AURORA, robot, domain, std::move(extra)) {}
};

std::vector<std::string> states_entered(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& e : report["states"]) out.push_back(e["name"].get<std::string>());
  return out;
}

a::BackendOptions options_for(std::uint32_t domain) {
  a::BackendOptions o;
  o.dds = {domain, "lo"};
  o.sequence.pd_stand_timeout = 5s;  // includes discovery on a loaded machine
  o.sequence.stable_timeout = 5s;
  o.sequence.control_state_timeout = 2s;
  o.sequence.resend_period = 100ms;
  o.link_timeout = 500ms;  // not about the link: a loaded test machine stalls processes ~100 ms
  return o;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A GR-2 group command carrying every group (position mode, zero targets), for the rules test.
a::GroupCommandValue all_groups() {
  a::GroupCommandValue v;
  for (const auto& g : a::GR2::groups) {
    auto& e = v.groups[v.groups.size++];
    e.name.assign(g.name);
    e.position.size = e.velocity.size = e.effort.size = static_cast<std::uint32_t>(g.count);
    for (std::size_t k = 0; k < g.count; ++k) e.position[k] = e.velocity[k] = e.effort[k] = 0.0;
  }
  return v;
}

}  // namespace aurora_dds_test

using namespace aurora_dds_test;

TEST_CASE("fake aurora rules: the FSM's preconditions, complete groups only, commands only where accepted",
          "[aurora][fake]") {
  const auto t0 = praxis::Clock::now();
  fa::FsmRules<a::GR2> rules({.stable_after = 1s, .refuse_state = std::nullopt}, t0);
  CHECK(rules.state() == a::WholeBodyState::no_task);

  // UserCmd from Default, and group commands outside UserCmd: refused, counted by kind.
  CHECK_FALSE(rules.request_whole_body(10, t0));
  CHECK(rules.violations(fa::Violation::transition_precondition) == 1);
  CHECK_FALSE(rules.check_group_command(all_groups(), t0).accepted);
  CHECK(rules.violations(fa::Violation::group_outside_state) == 1);

  // PdStand, then UserCmd only once stable (stable_level above 100 after stable_after).
  CHECK(rules.request_whole_body(2, t0));
  CHECK(rules.stable_level(t0 + 500ms) < 100);
  CHECK_FALSE(rules.request_whole_body(10, t0 + 500ms));
  CHECK(rules.violations(fa::Violation::transition_precondition) == 2);
  CHECK(rules.stable_level(t0 + 1s) > 100);
  CHECK(rules.request_whole_body(10, t0 + 1s));
  CHECK(rules.state() == a::WholeBodyState::user_cmd);

  // In UserCmd: every complete group accepted; one joint short in a group rejects the message.
  const auto verdict = rules.check_group_command(all_groups(), t0);
  CHECK(verdict.accepted);
  CHECK(verdict.groups == a::k_all_groups<a::GR2>);
  auto partial = all_groups();
  partial.groups[4].position.size = 6;  // left_manipulator has 7 joints
  CHECK_FALSE(rules.check_group_command(partial, t0).accepted);
  CHECK(rules.violations(fa::Violation::partial_group) == 1);
  auto unknown = all_groups();
  unknown.groups[2].name.assign("torso");
  CHECK_FALSE(rules.check_group_command(unknown, t0).accepted);
  CHECK(rules.violations(fa::Violation::unknown_group) == 1);

  // UpperBodyUserCmd: the legs are no longer the client's.
  CHECK(rules.request_whole_body(11, t0 + 2s));
  CHECK_FALSE(rules.check_group_command(all_groups(), t0).accepted);
  CHECK(rules.violations(fa::Violation::group_outside_state) == 2);
  auto upper = all_groups();
  for (std::size_t g = 0; g < 4; ++g) upper.groups[g] = upper.groups[g + 2];
  upper.groups.size = 4;
  CHECK(rules.check_group_command(upper, t0).accepted);

  // Walking: velocity_cmd only after the navigation source, and within the GR-2's ranges.
  CHECK(rules.request_whole_body(2, t0 + 3s));
  CHECK(rules.request_whole_body(3, t0 + 5s));
  CHECK_FALSE(rules.check_velocity({0.3, 0.0, 0.0}));
  CHECK(rules.violations(fa::Violation::velocity_without_navigation) == 1);
  CHECK(rules.request_velocity_source(2));
  CHECK(rules.check_velocity({0.3, 0.0, 0.0}));
  CHECK_FALSE(rules.check_velocity({2.0, 0.0, 0.0}));
  CHECK(rules.violations(fa::Violation::velocity_out_of_range) == 1);
  CHECK_FALSE(rules.request_whole_body(5, t0 + 6s));  // no UserController_C on this robot
  CHECK(rules.violations(fa::Violation::unsupported_state) == 1);

  std::vector<int> entered;
  for (const auto& e : rules.entries()) entered.push_back(e.state);
  CHECK(entered == std::vector<int>{0, 2, 10, 11, 2, 3});
  CHECK(rules.refused_requests() == 0);
}

TEST_CASE("aurora over DDS: take control of a fake GR-2, stand, run a controller, hand back",
          "[aurora][dds][two-process]") {
  constexpr std::uint32_t domain = 217;
  using Backend = a::AuroraBackend<a::GR2>;
  using UserNode = praxis::control::UserControlMotion<a::GR2, HoldOffset<a::GR2>>;
  FakeAurora fake("gr2", domain, {"--stable-after", "0.5"});
  Backend robot(options_for(domain));
  praxis::script::ScriptLibrary<a::GR2> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.lifecycle_timeout = 10s;
  options.safety.stale_timeout = 500ms;  // as link_timeout: a loaded machine, not a stale robot
  // The GR-2 does not walk by itself under joint access: the walk body is an empty stand-in.
  praxis::control::MotionController<Backend, Timetable, UserNode, m::BackendWalkBody<a::GR2>> controller(robot, library,
                                                                                                 options);
  controller.behaviour().steps = {{0.0, m::command::Stand{}}, {1.0, m::command::UserControl{}}};
  (void)controller.run_for(4s);  // counted from the loop's start, after taking control
  const auto commands_refused = robot.commands_refused();
  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(controller.acquired().has_value());
  INFO("acquire: " << controller.acquired()->message);
  REQUIRE(controller.acquired()->ok);
  CHECK(contains(controller.acquired()->message, "UserCmd (10)"));
  CHECK(controller.selection().current == m::MotionType::user_control);

  // Aurora's sequence on the robot's side: PdStand, UserCmd, and back to PdStand at the end.
  CHECK(states_entered(report) == std::vector<std::string>{"Default", "PdStand", "UserCmd", "PdStand"});
  CHECK(report["state"] == 2);
  // Not one client mistake: above all no partial group, as the backend only sends complete ones.
  CHECK(report["violations_total"] == 0);
  CHECK(report["violations"]["partial_group"] == 0);
  CHECK(commands_refused == 0);
  CHECK(report["refused_requests"] == 0);
  CHECK(report["motor_configs_applied"].get<int>() >= 1);
  CHECK(report["received"]["robot_control_group_cmd"].get<int>() > 500);
  CHECK(report["groups_applied"].get<int>() > 500 * 6);
  CHECK(report["received"]["robot_control_group_cmd"].get<std::uint64_t>() <= robot.group_commands_sent());
  // acquire() configured the model's example gains, then the user controller's gains reached the
  // robot through robot_motor_cfg_group_cmd.
  const auto& configs = report["motor_configs"];
  REQUIRE(!configs.empty());
  CHECK(configs[0]["kp"][k_offset_joint].get<double>() == a::GR2::default_kp[k_offset_joint]);
  bool user_gains = false;
  for (const auto& c : configs) user_gains = user_gains || c["kp"][k_offset_joint].get<double>() == 60.0;
  CHECK(user_gains);

  // The controller's target reached the joint; the others held the stand pose.
  const double q = report["final_q"][k_offset_joint].get<double>();
  CHECK(q == Approx(a::GR2::stand_pose[k_offset_joint] + k_offset).margin(0.03));
  CHECK(report["final_q"][3].get<double>() == Approx(a::GR2::stand_pose[3]).margin(0.03));
}

TEST_CASE("aurora over DDS: a robot refusing UserCmd fails acquire() naming the step and the state",
          "[aurora][dds][two-process][errors]") {
  constexpr std::uint32_t domain = 218;
  FakeAurora fake("gr2", domain, {"--stable-after", "0.3", "--refuse-state", "10", "--prefix", "gr2/SN0042"});
  auto options = options_for(domain);
  options.wire.topics = a::TopicNames{}.prefixed("gr2", "SN0042");
  options.sequence.control_state_timeout = 700ms;
  a::AuroraBackend<a::GR2> robot(options);
  const auto taken = robot.acquire(10s);
  INFO(taken.message);
  CHECK_FALSE(taken.ok);
  CHECK(taken.stage == praxis::LifecycleStage::failed);
  CHECK(contains(taken.message, "taking control, step 5 of 6 (await UserCmd (10)): "
                                "gr2/SN0042/aurora_state.whole_body_fsm_state stayed PdStand (2) for 700 ms"));
  CHECK(robot.group_commands_sent() == 0);
  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(states_entered(report) == std::vector<std::string>{"Default", "PdStand"});
  CHECK(report["refused_requests"].get<int>() >= 2);  // the first request and its resends
  CHECK(report["violations_total"] == 0);             // refusing was the robot's choice
  CHECK(report["received"]["gr2/SN0042/robot_control_group_cmd"] == 0);
  CHECK(report["received"]["gr2/SN0042/robot_motor_cfg_group_cmd"] == 0);
}

TEST_CASE("aurora over DDS: a robot that never stands stable times acquire() out naming what it awaited, and the "
          "fake counts a careless client's early UserCmd and partial group",
          "[aurora][dds][two-process][errors]") {
  constexpr std::uint32_t domain = 219;
  FakeAurora fake("gr2", domain, {"--stable-after", "1000"});
  auto options = options_for(domain);
  options.sequence.stable_timeout = 1s;
  a::AuroraBackend<a::GR2> robot(options);
  const auto taken = robot.acquire(10s);
  INFO(taken.message);
  CHECK_FALSE(taken.ok);
  CHECK(contains(taken.message, "taking control, step 3 of 6 (await a stable stand): "
                                "robot_stand_pose_state.stable_level was "));
  CHECK(contains(taken.message, "after 1000 ms; expected more than 100"));

  // A careless client (a raw writer, not the backend) asks for UserCmd before the stand is stable
  // and sends the head without its pitch joint: the fake counts both, so the zero counts above and
  // in the controller test are measured, not merely never incremented.
  praxis::transport::Participant careless({domain, "lo"});
  const praxis::transport::TopicQos best_effort{.reliable = false, .depth = 1, .transient_local = false};
  praxis::transport::Publisher<a::WholeBodyRequestWire> requests(careless, "whole_body_fsm_state_change_cmd",
                                                            &fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc,
                                                            best_effort);
  praxis::transport::Publisher<a::GroupCommandWire> commands(careless, "robot_control_group_cmd",
                                                        &fourier_msgs_msg_RobotControlGroupCmd_desc, best_effort);
  const auto deadline = praxis::Clock::now() + 5s;
  while ((requests.matched() == 0 || commands.matched() == 0) && praxis::Clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  REQUIRE(requests.matched() > 0);
  REQUIRE(commands.matched() > 0);
  // Our writers have seen the fake's readers; give the readers time to see our writers too (a best
  // effort sample before that is dropped).
  std::this_thread::sleep_for(500ms);
  char frame[1] = {'\0'};
  a::WholeBodyRequestWire user_cmd{};
  user_cmd.header.frame_id = frame;
  user_cmd.desired_state = static_cast<std::uint8_t>(a::WholeBodyState::user_cmd);
  CHECK(requests.write(user_cmd));
  std::array<double, 1> head_yaw{0.0};
  char head[] = "head";
  fourier_msgs_msg_ControlGroupCmd group{};
  group.group_name = head;
  group.group_motion_state = static_cast<std::uint8_t>(a::GroupMotionState::move);
  group.position = group.velocity = group.effort = {1, 1, head_yaw.data(), false};
  a::GroupCommandWire half_head{};
  half_head.header.frame_id = frame;
  half_head.group_cmd = {1, 1, &group, false};
  CHECK(commands.write(half_head));
  std::this_thread::sleep_for(300ms);

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(states_entered(report) == std::vector<std::string>{"Default", "PdStand"});
  // The backend never asked for UserCmd before the robot was stable: the one precondition
  // violation is the careless client's, and so is the one partial group.
  CHECK(report["violations"]["transition_precondition"] == 1);
  CHECK(report["violations"]["partial_group"] == 1);
  CHECK(report["violations_total"] == 2);
  CHECK(report["received"]["robot_control_group_cmd"] == 1);
  CHECK(report["groups_applied"] == 0);
}

// A GR-2 that restarts under praxis' joints (UserCmd): its process gone, a new one in Default on the
// same domain. A robot that balances itself ends the run on a lost link (control lost), and the
// restarted robot gets at most the hand-back's PdStand (here nothing: the hand-back sees the robot
// is no longer in UserCmd and does not move it): never UserCmd, never a group command, no rule of
// its state machine broken.
TEST_CASE("aurora over DDS: a GR-2 restarted in UserCmd is not taken again: control lost, at most PdStand asked",
          "[aurora][dds][two-process][restart]") {
  constexpr std::uint32_t domain = 216;
  using Backend = a::AuroraBackend<a::GR2>;
  using UserNode = praxis::control::UserControlMotion<a::GR2, HoldOffset<a::GR2>>;
  std::optional<FakeAurora> before(std::in_place, "gr2", domain,
                                   std::vector<std::string>{"--stable-after", "0.5", "--duration", "5"});
  Backend robot(options_for(domain));
  praxis::script::ScriptLibrary<a::GR2> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.lifecycle_timeout = 10s;
  options.safety.stale_timeout = 500ms;
  praxis::control::MotionController<Backend, Timetable, UserNode, m::BackendWalkBody<a::GR2>> controller(robot, library,
                                                                                                 options);
  controller.behaviour().steps = {{0.0, m::command::Stand{}}, {1.0, m::command::UserControl{}}};
  praxis::control::RunOutcome outcome;
  std::thread run([&] { outcome = controller.run_for(8s); });
  REQUIRE(before->wait_for_exit(15000ms));
  const auto first = before->stop();
  CHECK(first["state"] == 10);  // UserCmd when it went
  // Back, in Default, after the link timeout (a robot takes far longer to boot): within it the last
  // report still counts, and commands would still go out (the fake restarts in a fraction of a second).
  std::this_thread::sleep_for(1500ms);
  FakeAurora after("gr2", domain);
  run.join();
  std::this_thread::sleep_for(500ms);
  const auto report = after.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  for (const auto& s : states_entered(report)) CHECK((s == "Default" || s == "PdStand"));
  CHECK(report["received"]["robot_control_group_cmd"] == 0);
  CHECK(report["violations_total"] == 0);
}
