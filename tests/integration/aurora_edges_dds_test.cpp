// Issue 21, the edges of control on a Fourier robot, in two processes over real Cyclone DDS on
// loopback: AuroraBackend in this process, driven by a loop of its own (read, write a hold of the
// measured stand pose, read_status, as a runtime does), praxis-fake-aurora in another with the
// acceptance rules the findings rest on (a stance stage before PdStand reports its stand level, a
// state-switch latency, a restart mid-run, 3 only from a stable PdStand). Judged by what the fake
// robot recorded. No control/ header: these cases hold whatever the runtime does around them.
// Domains 229-232, one per test case (233 and above are out of the port range).

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/fake_robot_process.hpp"

#include "praxis/hardware/aurora/backend.hpp"
#include "../../examples/fake_aurora/fsm_rules.hpp"

using namespace std::chrono_literals;
namespace a = praxis::aurora;
namespace fa = praxis::fake_aurora;

namespace aurora_edges_dds_test {

constexpr std::size_t N = a::GR2::joint_count;
constexpr std::size_t k_left_knee = 3;  // GR-2: left_leg = hip_pitch, hip_roll, hip_yaw, knee_pitch, ...

struct FakeAurora : praxis::test::FakeRobotProcess {
  FakeAurora(std::uint32_t domain, std::vector<std::string> extra)
      : FakeRobotProcess(PRAXIS_FAKE_AURORA, "gr2", domain, std::move(extra)) {}
};

std::vector<std::string> states_entered(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& e : report["states"]) out.push_back(e["name"].get<std::string>());
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

a::BackendOptions options_for(std::uint32_t domain) {
  a::BackendOptions o;
  o.dds = {domain, "lo"};
  o.sequence.pd_stand_timeout = 5s;  // includes discovery on a loaded machine
  o.sequence.stable_timeout = 5s;
  o.sequence.control_state_timeout = 3s;
  o.sequence.release_timeout = 3s;
  o.sequence.resend_period = 100ms;
  o.link_timeout = 500ms;  // not about the link: a loaded test machine stalls processes ~100 ms
  return o;
}

// A hold of `pose` with the model's example gains (the gains acquire() configured).
praxis::JointCommand<N> hold(const std::array<double, N>& pose) {
  praxis::JointCommand<N> c;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = pose[j];
    c.kp[i] = a::GR2::default_kp[j];
    c.kd[i] = a::GR2::default_kd[j];
  }
  return c;
}

// What a run loop saw in read_status().
struct Seen {
  bool lifecycle_failed = false;
  bool link_down = false;
  std::string loss;  // control_loss() when the loss was first seen
};

// The runtime's part, timer-driven at 500 Hz: read, write the hold every cycle (fresh state or not,
// as a send thread does), read the status; until `until` returns true or `limit` passes.
template <class Backend, class Until>
Seen run_loop(Backend& robot, const praxis::JointCommand<N>& command, praxis::Duration limit, Until&& until) {
  Seen seen;
  praxis::RobotState<N> s;
  praxis::RobotStatus status;
  const auto end = praxis::Clock::now() + limit;
  while (praxis::Clock::now() < end && !until(seen)) {
    robot.read(s, praxis::Clock::now());
    robot.write(command, praxis::Clock::now());
    robot.read_status(status);
    if (status.lifecycle == praxis::LifecycleStage::failed && !seen.lifecycle_failed) {
      seen.lifecycle_failed = true;
      seen.loss = robot.control_loss();
    }
    seen.link_down = seen.link_down || (seen.lifecycle_failed && !status.link.connected);
    std::this_thread::sleep_for(2ms);
  }
  return seen;
}

}  // namespace aurora_edges_dds_test

using namespace aurora_edges_dds_test;

TEST_CASE("fake aurora rules: 3 only from a stable PdStand, the stance stage, the switch latency, a restart",
          "[aurora][fake][edges]") {
  const auto t0 = praxis::Clock::now();
  fa::FsmRules<a::GR2> rules({.stable_after = 1s, .refuse_state = std::nullopt, .switch_latency = 500ms,
                              .stance_after = 300ms},
                             t0);
  // "0 -> 3": refused and counted.
  CHECK_FALSE(rules.request_whole_body(3, t0));
  CHECK(rules.violations(fa::Violation::transition_precondition) == 1);
  // PdStand accepted, in effect only after the latency.
  CHECK(rules.request_whole_body(2, t0));
  rules.tick(t0 + 400ms);
  CHECK(rules.state() == a::WholeBodyState::no_task);
  CHECK(rules.pending() == a::WholeBodyState::pd_stand);
  CHECK(rules.request_whole_body(2, t0 + 450ms));  // a resend while switching: no second switch
  rules.tick(t0 + 500ms);
  CHECK(rules.state() == a::WholeBodyState::pd_stand);
  // No stance yet: no stand level, no group command; in the stance the upper groups only.
  a::GroupCommandValue upper;
  for (std::size_t g = 2; g < a::GR2::groups.size(); ++g) {
    const auto& group = a::GR2::groups[g];
    auto& e = upper.groups[upper.groups.size++];
    e.name.assign(group.name);
    e.position.size = e.velocity.size = e.effort.size = static_cast<std::uint32_t>(group.count);
    for (std::size_t k = 0; k < group.count; ++k) e.position[k] = e.velocity[k] = e.effort[k] = 0.0;
  }
  CHECK_FALSE(rules.in_stance(t0 + 700ms));
  CHECK(rules.stable_level(t0 + 700ms) == 0);
  CHECK_FALSE(rules.check_group_command(upper, t0 + 700ms).accepted);
  CHECK(rules.violations(fa::Violation::group_outside_state) == 1);
  CHECK(rules.in_stance(t0 + 900ms));
  CHECK(rules.check_group_command(upper, t0 + 900ms).accepted);
  // Stable 1 s into the stance (0.8 s + 1 s), then 3 is accepted.
  CHECK_FALSE(rules.request_whole_body(3, t0 + 1500ms));
  CHECK(rules.violations(fa::Violation::transition_precondition) == 2);
  CHECK(rules.stable_level(t0 + 1850ms) > fa::k_stable_level_threshold);
  CHECK(rules.request_whole_body(3, t0 + 1850ms));
  CHECK(rules.request_velocity_source(2));
  // A restart: Default at once, nothing pending, the joystick's source.
  CHECK(rules.request_whole_body(2, t0 + 2s));
  rules.restart(t0 + 2100ms);
  CHECK(rules.state() == a::WholeBodyState::no_task);
  CHECK_FALSE(rules.pending().has_value());
  CHECK(rules.velocity_source() == 0);
  CHECK(rules.restarts() == 1);
  rules.tick(t0 + 3s);
  CHECK(rules.state() == a::WholeBodyState::no_task);
  std::vector<int> entered;
  for (const auto& e : rules.entries()) entered.push_back(e.state);
  CHECK(entered == std::vector<int>{0, 2, 0});  // 3 was accepted but never took effect before the restart
}

TEST_CASE("aurora over DDS: a second take-control waits for a stand level reported after its own request, and Stand "
          "holds the pose PdStand stood in",
          "[aurora][dds][two-process][edges]") {
  constexpr std::uint32_t domain = 230;
  // The stance (and robot_stand_pose_state) begins 0.4 s after PdStand is entered, stable 0.4 s
  // later; switches take 0.2 s; PdStand bends the knees by 0.3 rad.
  FakeAurora fake(domain, {"--stable-after", "0.4", "--stance-after", "0.4", "--switch-latency", "0.2",
                           "--pd-stand-knee", "0.3"});
  a::AuroraBackend<a::GR2> robot(options_for(domain));

  const auto first = robot.acquire(10s);
  INFO("first acquire: " << first.message);
  REQUIRE(first.ok);
  // The pose PdStand stood in, measured: knees bent, not the model's zero pose.
  REQUIRE(robot.measured_stand_pose().has_value());
  CHECK((*robot.measured_stand_pose())[k_left_knee] == Approx(0.3).margin(0.05));
  CHECK(robot.stand_pose()[k_left_knee] == Approx(0.3).margin(0.05));
  run_loop(robot, hold(robot.stand_pose()), 300ms, [](const Seen&) { return false; });
  const auto back = robot.release(3s);
  INFO("release: " << back.message);
  REQUIRE(back.ok);

  // At once again: the robot is in PdStand, but its stand level is not reported yet.
  const auto second = robot.acquire(10s);
  INFO("second acquire: " << second.message);
  CHECK(second.ok);
  run_loop(robot, hold(robot.stand_pose()), 300ms, [](const Seen&) { return false; });
  const auto back2 = robot.release(3s);
  INFO("second release: " << back2.message);
  CHECK(back2.ok);
  const auto sent = robot.group_commands_sent();

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(states_entered(report) ==
        std::vector<std::string>{"Default", "PdStand", "UserCmd", "PdStand", "UserCmd", "PdStand"});
  // Not one UserCmd requested before the robot said it stood stable (the finding: 15 refused).
  CHECK(report["violations"]["transition_precondition"] == 0);
  CHECK(report["violations_total"] == 0);
  CHECK(sent > 0);
  CHECK(report["group_commands_in_state"]["10"].get<std::uint64_t>() > 0);
  // Neither the holds nor the hand-backs took the stiffness off a joint (never kp 0 on the legs).
  for (const auto& config : report["motor_configs"]) {
    for (const auto& kp : config["kp"]) CHECK(kp.get<double>() > 0.0);
  }
  // The hold kept the knees where PdStand had them.
  CHECK(report["final_q"][k_left_knee].get<double>() == Approx(0.3).margin(0.05));

  a::BackendOptions model_pose = options_for(domain);
  model_pose.stand_pose = a::StandPoseSource::model;
  a::AuroraBackend<a::GR2> other(model_pose);
  CHECK(other.stand_pose() == a::GR2::stand_pose);
}

TEST_CASE("aurora over DDS: a robot restarting mid-run gets no group command in Default, the loss is reported, and "
          "release() does not move it",
          "[aurora][dds][two-process][edges]") {
  constexpr std::uint32_t domain = 231;
  // 0.5 s after UserCmd the robot restarts: 1 s silent and deaf, then back in Default, its
  // aurora_state 0.3 s after its other topics.
  FakeAurora fake(domain, {"--stable-after", "0.3", "--restart-after-control", "0.5", "--restart-silence", "1.0",
                           "--restart-fsm-delay", "0.3"});
  a::AuroraBackend<a::GR2> robot(options_for(domain));
  const auto taken = robot.acquire(10s);
  INFO("acquire: " << taken.message);
  REQUIRE(taken.ok);
  const auto command = hold(robot.stand_pose());
  // Until well after the robot is back and its aurora_state too.
  std::optional<praxis::TimePoint> back_in_default;
  const Seen seen = run_loop(robot, command, 10s, [&](const Seen& s) {
    if (!back_in_default && s.lifecycle_failed && robot.whole_body_state() == 0) back_in_default = praxis::Clock::now();
    return back_in_default && praxis::Clock::now() - *back_in_default > 500ms;
  });
  INFO("loss seen: " << seen.loss);
  CHECK(seen.lifecycle_failed);
  CHECK(seen.link_down);  // without aurora_state the link is down for the runtime's safety
  REQUIRE(back_in_default.has_value());
  CHECK(contains(robot.control_loss(), "aurora_state reports Default (0) where praxis held UserCmd (10)"));
  // The robot talks again, in Default: still control lost, and the link down for the runtime.
  praxis::RobotState<N> state;
  praxis::RobotStatus status;
  robot.read(state, praxis::Clock::now());
  robot.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::failed);
  CHECK_FALSE(status.link.connected);
  CHECK(status.reported_mode == praxis::RobotMode::unknown);
  CHECK(robot.commands_without_fresh_state() > 0);

  const auto released = robot.release(1s);
  INFO("release: " << released.message);
  CHECK_FALSE(released.ok);
  CHECK(contains(released.message, "control was lost before the hand-back: aurora_state reports Default (0)"));
  CHECK(contains(released.message, "PdStand (2) not requested"));

  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(report["restarts"] == 1);
  CHECK(report["group_commands_in_state"]["10"].get<std::uint64_t>() > 0);
  // The finding: 22 group commands in Default after the restart. Here: none.
  CHECK(report["group_commands_in_state"]["0"] == 0);
  CHECK(report["violations"]["group_outside_state"] == 0);
  // And no PdStand asked of the restarted robot.
  CHECK(states_entered(report) == std::vector<std::string>{"Default", "PdStand", "UserCmd", "Default"});
  CHECK(report["state"] == 0);
}

TEST_CASE("aurora over DDS: a release without aurora_state quotes how old the last sample is, not a cached state",
          "[aurora][dds][two-process][edges]") {
  constexpr std::uint32_t domain = 229;
  FakeAurora fake(domain, {"--stable-after", "0.3"});
  a::AuroraBackend<a::GR2> robot(options_for(domain));
  const auto taken = robot.acquire(10s);
  INFO("acquire: " << taken.message);
  REQUIRE(taken.ok);
  const auto report = fake.stop();  // the robot is gone
  REQUIRE(report["state"] == 10);
  const Seen seen = run_loop(robot, hold(robot.stand_pose()), 1200ms, [](const Seen&) { return false; });
  CHECK(seen.lifecycle_failed);
  CHECK(seen.link_down);
  CHECK(contains(seen.loss, "no aurora_state for "));
  const auto released = robot.release(500ms);
  INFO("release: " << released.message);
  CHECK_FALSE(released.ok);
  // "no aurora_state for 1.8 s (the last one reported UserCmd (10)); ...": at least the 1.2 s of the
  // loop and the 0.5 s release() waited for a sample (more on a loaded machine).
  const std::string age_at = "no aurora_state for ";
  const auto at = released.message.find(age_at);
  REQUIRE(at != std::string::npos);
  const double age = std::stod(released.message.substr(at + age_at.size()));
  CHECK(age >= 1.6);
  CHECK(age < 60.0);
  CHECK(contains(released.message, " s (the last one reported UserCmd (10)); PdStand (2) not requested"));
  CHECK_FALSE(contains(released.message, "stayed"));
}

TEST_CASE("aurora over DDS: walking from Default goes 0 -> 2 -> 3 without a refusal, and release hands the velocity "
          "source back before PdStand",
          "[aurora][dds][two-process][edges][locomotion]") {
  constexpr std::uint32_t domain = 232;
  FakeAurora fake(domain, {"--stable-after", "0.5", "--stance-after", "0.2", "--switch-latency", "0.2"});
  a::AuroraBackend<a::GR2, a::Access::locomotion> robot(options_for(domain));
  const auto taken = robot.acquire(10s);
  INFO("acquire: " << taken.message);
  REQUIRE(taken.ok);
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 0.2, 0.0, 0.0};
  praxis::RobotState<N> s;
  praxis::RobotStatus status;
  std::optional<praxis::TimePoint> walking;
  const auto end = praxis::Clock::now() + 15s;
  while (praxis::Clock::now() < end) {
    robot.read(s, praxis::Clock::now());
    robot.post(r);
    robot.read_status(status);
    if (!walking && status.mode_confirmed() && robot.locomotion()->velocities_sent() > 0) walking = praxis::Clock::now();
    if (walking && praxis::Clock::now() - *walking > 500ms) break;
    std::this_thread::sleep_for(2ms);
  }
  INFO("last request: " << status.last_request.id << " " << praxis::to_string(status.last_request.outcome));
  REQUIRE(walking.has_value());
  CHECK(robot.locomotion()->timeouts() == 0);

  const auto released = robot.release(3s);
  INFO("release: " << released.message);
  CHECK(released.ok);
  CHECK(contains(released.message, "velocity source handed back to the joystick"));

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(states_entered(report) ==
        std::vector<std::string>{"Default", "PdStand", "UserController_A (locomotion)", "PdStand"});
  // The finding: "0 -> 3" refused 33 times. Here: never asked before a stable PdStand.
  CHECK(report["violations"]["transition_precondition"] == 0);
  CHECK(report["violations_total"] == 0);
  CHECK(report["velocities_accepted"].get<int>() > 0);
  // The velocity source: navigation while walking, the joystick's again at the end, before PdStand.
  CHECK(report["velocity_source"] == 0);
  const auto& sources = report["velocity_sources"];
  REQUIRE(sources.size() >= 2);
  CHECK(sources.back()["source"] == 0);
  const auto& states = report["states"];
  REQUIRE(states.size() == 4);
  CHECK(sources.back()["t"].get<double>() < states[3]["t"].get<double>());
}
