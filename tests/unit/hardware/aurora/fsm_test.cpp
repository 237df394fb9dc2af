// Aurora's FSM numbers and the take-control / hand-back sequence, driven by what a simulated robot
// reports and a simulated clock: the happy path, each step timing out (the error names the step,
// what was awaited and the topic), the robot refusing a change, the robot leaving a state.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/locomotion.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/aurora/take_control.hpp"

namespace aurora_fsm_test {

using namespace std::chrono_literals;
namespace a = praxis::aurora;
using Kind = a::SequenceAction::Kind;

// A robot that reports one whole-body state and stand level, and obeys requests unless told not to.
// Its reports arrive at every step (stamped "now") unless one is frozen at an older arrival time:
// the samples stopped coming, and the cached value is all there is.
struct SimRobot {
  std::optional<std::uint8_t> whole_body;
  std::optional<std::uint8_t> stable_level;
  std::uint8_t velocity_source = 0;
  std::optional<praxis::TimePoint> fsm_frozen_at, stand_frozen_at;
  bool obeys = true;
  std::vector<std::uint8_t> requests;
  std::vector<std::uint8_t> source_requests;
  int motor_configs = 0;

  a::Observation observe(praxis::TimePoint now) const {
    return {whole_body, velocity_source, fsm_frozen_at.value_or(now), stable_level, stand_frozen_at.value_or(now)};
  }
  void apply(const a::SequenceAction& act) {
    if (act.kind == Kind::request_state) {
      requests.push_back(static_cast<std::uint8_t>(act.state));
      if (obeys) whole_body = static_cast<std::uint8_t>(act.state);
    }
    if (act.kind == Kind::request_source) {
      source_requests.push_back(static_cast<std::uint8_t>(act.source));
      if (obeys) velocity_source = static_cast<std::uint8_t>(act.source);
    }
    if (act.kind == Kind::send_motor_config) ++motor_configs;
  }
};

SimRobot make_robot(std::optional<std::uint8_t> whole_body, std::optional<std::uint8_t> stable_level = {},
                    bool obeys = true) {
  SimRobot r;
  r.whole_body = whole_body;
  r.stable_level = stable_level;
  r.obeys = obeys;
  return r;
}

// Steps the sequence every 10 ms of simulated time until it ends or `limit` passes; the robot's
// reports are updated by `world` before each step.
template <class World>
a::SequenceAction run(a::FsmSequence& s, SimRobot& robot, praxis::TimePoint& now, World&& world,
                      praxis::Duration limit = 60s) {
  const auto end = now + limit;
  s.start(now);
  for (; now < end; now += 10ms) {
    world(robot, now);
    const auto act = s.step(robot.observe(now), now);
    robot.apply(act);
    if (act.kind == Kind::done || act.kind == Kind::failed) return act;
  }
  return {};
}

constexpr auto nothing = [](SimRobot&, praxis::TimePoint) {};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("aurora fsm: the numbers of A.5 and their names", "[aurora][fsm]") {
  CHECK(static_cast<int>(a::WholeBodyState::pd_stand) == 2);
  CHECK(static_cast<int>(a::k_locomotion_state) == 3);
  CHECK(static_cast<int>(a::WholeBodyState::security) == 9);
  CHECK(static_cast<int>(a::WholeBodyState::user_cmd) == 10);
  CHECK(static_cast<int>(a::WholeBodyState::upper_body_user_cmd) == 11);
  CHECK(static_cast<int>(a::UpperBodyState::move_command) == 4);
  CHECK(static_cast<int>(a::VelocitySource::navigation) == 2);
  CHECK(a::to_string(a::WholeBodyState::upper_body_user_cmd) == "UpperBodyUserCmd");
  CHECK(a::to_string(a::WholeBodyState::security) == "SecurityProtection");
  CHECK(a::to_string(static_cast<a::WholeBodyState>(42)) == "unknown");
  CHECK(a::to_string(a::VelocitySource::navigation) == "navigation");
  CHECK(a::to_string(a::GroupMotionState::error) == "error");
  CHECK(a::FsmSequence::state_name(2) == "PdStand (2)");
}

TEST_CASE("aurora take control: PdStand, a stable stand, UserCmd, PD configuration", "[aurora][fsm]") {
  a::SequenceOptions o;
  auto s = a::FsmSequence::take_control(o);
  SimRobot robot = make_robot(0);
  praxis::TimePoint now{};
  const auto start = now;
  // The stand settles 2 s after PdStand was reached.
  praxis::TimePoint stood{};
  const auto act = run(s, robot, now, [&](SimRobot& r, praxis::TimePoint t) {
    if (r.whole_body == 2 && stood == praxis::TimePoint{}) stood = t;
    if (stood != praxis::TimePoint{}) r.stable_level = t - stood > 2s ? 105 : 60;
  });
  REQUIRE(act.kind == Kind::done);
  CHECK(s.done());
  CHECK(robot.requests == std::vector<std::uint8_t>{2, 10});
  CHECK(robot.whole_body == 10);
  CHECK(robot.motor_configs == o.motor_config_sends);
  CHECK(now - start > 2s);
  CHECK(now - start < 3s);
  CHECK(s.step(robot.observe(now + 1s), now + 1s).kind == Kind::done);  // stays done
}

TEST_CASE("aurora take control: a hanging robot goes straight to UpperBodyUserCmd", "[aurora][fsm]") {
  a::SequenceOptions o;
  o.stand_first = false;
  o.control_state = a::WholeBodyState::upper_body_user_cmd;
  auto s = a::FsmSequence::take_control(o);
  SimRobot robot = make_robot(0);
  praxis::TimePoint now{};
  REQUIRE(run(s, robot, now, nothing).kind == Kind::done);
  CHECK(robot.requests == std::vector<std::uint8_t>{11});
  CHECK(robot.motor_configs == 3);
}

TEST_CASE("aurora take control, arms only: a stable PdStand is the control state: no other state, no PD "
          "configuration", "[aurora][fsm]") {
  a::SequenceOptions o;
  o.control_state = a::WholeBodyState::pd_stand;
  auto s = a::FsmSequence::take_control(o);
  SimRobot robot = make_robot(0, 0);
  praxis::TimePoint now{};
  const auto act = run(s, robot, now, [](SimRobot& r, praxis::TimePoint) {
    if (r.whole_body == 2) r.stable_level = 105;
  });
  REQUIRE(act.kind == Kind::done);
  CHECK(robot.requests == std::vector<std::uint8_t>{2});
  CHECK(robot.motor_configs == 0);
  CHECK(robot.whole_body == 2);

  // Not yet stable: control is not taken.
  auto unstable = a::FsmSequence::take_control(o);
  SimRobot wobbly = make_robot(0, 0);
  praxis::TimePoint t{};
  CHECK(run(unstable, wobbly, t, [](SimRobot& r, praxis::TimePoint) { r.stable_level = 60; }).kind == Kind::failed);
  CHECK(wobbly.motor_configs == 0);
}

TEST_CASE("aurora take control: each step's timeout names the step, what was awaited and the topic",
          "[aurora][fsm]") {
  a::SequenceOptions o;
  o.topics.aurora_state = "gr2/SN1/aurora_state";
  praxis::TimePoint now{};
  SECTION("no aurora_state at all") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot;
    robot.obeys = false;
    const auto start = now;
    REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
    CHECK(now - start >= o.pd_stand_timeout);
    CHECK(now - start < o.pd_stand_timeout + 50ms);
    CHECK(contains(s.error(), "taking control, step 2 of 6 (await PdStand (2)): no sample on gr2/SN1/aurora_state within 3000 ms"));
    // Requests are repeated while awaiting (best effort): the first, then every resend_period.
    CHECK(robot.requests.size() == 15);
  }
  SECTION("the robot refuses PdStand: its state does not change") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(3, {}, false);  // walking by itself
    REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
    CHECK(contains(s.error(), "(await PdStand (2)): gr2/SN1/aurora_state.whole_body_fsm_state stayed "
                              "UserController_A (locomotion) (3) for 3000 ms; expected PdStand (2) after requesting it "
                              "on whole_body_fsm_state_change_cmd"));
  }
  SECTION("the stand never becomes stable") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(0, 80);
    const auto start = now;
    REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
    CHECK(now - start >= o.stable_timeout);
    CHECK(contains(s.error(), "step 3 of 6 (await a stable stand): robot_stand_pose_state.stable_level was 80 after "
                              "15000 ms; expected more than 100"));
  }
  SECTION("no stand pose state at all") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(0);
    REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
    CHECK(contains(s.error(), "no sample on robot_stand_pose_state within 15000 ms"));
  }
  SECTION("the robot refuses UserCmd") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(0, 110);
    REQUIRE(run(s, robot, now, [](SimRobot& r, praxis::TimePoint) {
              if (r.whole_body == 2) r.obeys = false;  // stands, then refuses everything
            }).kind == Kind::failed);
    CHECK(robot.whole_body == 2);
    CHECK(contains(s.error(), "step 5 of 6 (await UserCmd (10)): gr2/SN1/aurora_state.whole_body_fsm_state stayed "
                              "PdStand (2) for 3000 ms; expected UserCmd (10)"));
  }
}

TEST_CASE("aurora take control: the robot leaving PdStand or UserCmd ends the sequence at once", "[aurora][fsm]") {
  a::SequenceOptions o;
  praxis::TimePoint now{};
  SECTION("the joystick's LT+RT while the stand settles") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(0, 20);
    const auto start = now;
    REQUIRE(run(s, robot, now, [&](SimRobot& r, praxis::TimePoint t) {
              if (t - start > 500ms) r.whole_body = 9;
            }).kind == Kind::failed);
    CHECK(now - start < 600ms);
    CHECK(contains(s.error(), "(await a stable stand): the robot left PdStand (2) for SecurityProtection (9)"));
  }
  SECTION("back to PdStand while the PD configuration goes out") {
    auto s = a::FsmSequence::take_control(o);
    SimRobot robot = make_robot(0, 110);
    REQUIRE(run(s, robot, now, [](SimRobot& r, praxis::TimePoint) {
              if (r.motor_configs == 1) r.whole_body = 2;
            }).kind == Kind::failed);
    CHECK(robot.motor_configs == 1);
    CHECK(contains(s.error(), "(send the PD configuration): the robot left UserCmd (10) for PdStand (2)"));
  }
}

TEST_CASE("aurora hand back: PdStand by default, SecurityProtection as an option", "[aurora][fsm]") {
  a::SequenceOptions o;
  praxis::TimePoint now{};
  SimRobot robot = make_robot(10, 110);
  auto back = a::FsmSequence::release(o);
  REQUIRE(run(back, robot, now, nothing).kind == Kind::done);
  CHECK(robot.whole_body == 2);

  o.release_state = a::WholeBodyState::security;
  robot.whole_body = 10;
  auto safe = a::FsmSequence::release(o);
  REQUIRE(run(safe, robot, now, nothing).kind == Kind::done);
  CHECK(robot.whole_body == 9);

  robot.whole_body = 10;
  robot.obeys = false;
  auto refused = a::FsmSequence::release(o);
  REQUIRE(run(refused, robot, now, nothing).kind == Kind::failed);
  CHECK(contains(refused.error(), "handing back control, step 3 of 3 (await SecurityProtection (9)): "
                                  "aurora_state.whole_body_fsm_state stayed UserCmd (10) for 3000 ms"));
}

TEST_CASE("aurora locomotion: state 3, then navigation, then clamped velocities, requests repeated until reported",
          "[aurora][fsm][locomotion]") {
  a::FsmReport seen{2, 0, {}, 105, {}};  // standing stable in PdStand, joystick source
  std::vector<int> states, sources;
  std::vector<a::VelocityValue> velocities;
  praxis::TimePoint now{};
  a::LocomotionHandler<a::GR2> handler(
      [&] {
        auto fresh = seen;
        fresh.whole_body_at = fresh.stable_level_at = now;
        return fresh;
      },
      a::LocomotionSink{[&](a::WholeBodyState s) { states.push_back(static_cast<int>(s)); },
                        [&](a::VelocitySource s) { sources.push_back(static_cast<int>(s)); },
                        [&](const a::VelocityValue& v) { velocities.push_back(v); }});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  handler.serve(r, status, now);  // no request yet: nothing
  CHECK(states.empty());
  CHECK(status.reported_mode == praxis::RobotMode::prepare);

  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 0.3, -0.9, 0.2};
  for (int i = 0; i < 25; ++i, now += 20ms) handler.serve(r, status, now);  // 500 ms, robot not moving
  CHECK(states == std::vector<int>{3, 3, 3});  // at 0, 200 and 400 ms
  CHECK(status.assumed_mode == praxis::RobotMode::locomotion);
  CHECK(status.last_request.outcome == praxis::RequestOutcome::pending);
  CHECK_FALSE(status.mode_confirmed());

  seen.whole_body = 3;
  handler.serve(r, status, now);
  CHECK(status.mode_confirmed());
  CHECK(status.last_request.outcome == praxis::RequestOutcome::ok);
  CHECK(sources == std::vector<int>{2});
  CHECK(velocities.empty());  // not before the source is navigation

  seen.velocity_source = 2;
  now += 20ms;
  handler.serve(r, status, now);
  REQUIRE(velocities.size() == 1);
  CHECK(velocities[0].vx == 0.3);
  CHECK(velocities[0].vy == -0.5);  // GR-2: |vy| <= 0.5
  CHECK(velocities[0].yaw == 0.2);
  CHECK(handler.velocities_clamped() == 1);

  r.locomotion.active = false;
  handler.serve(r, status, now += 20ms);
  CHECK(velocities.back().vx == 0.0);

  // Asked for damping: SecurityProtection, at once (a new wish is not held back by the resend period).
  r.mode = praxis::RobotMode::damping;
  handler.serve(r, status, now += 1ms);
  CHECK(states.back() == 9);
  CHECK(velocities.size() == 2);  // no velocity outside locomotion
}

// ---- issue 21: start from what the robot reports, never from a cached value ----

TEST_CASE("aurora take control: a second take-control waits for a stand level reported after its own request",
          "[aurora][fsm][fresh]") {
  a::SequenceOptions o;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  // Already in PdStand after a hand-back; the last stand-pose sample (110) is from the first
  // take-control, 20 s ago, and the new stance publishes nothing for 1 s, then rises to stable at 2 s.
  SimRobot robot = make_robot(2, 110);
  robot.stand_frozen_at = now - 20s;
  const auto start = now;
  auto s = a::FsmSequence::take_control(o);
  std::optional<praxis::TimePoint> user_cmd_requested;
  s.start(now);
  for (; now < start + 10s; now += 10ms) {
    if (now - start >= 1s) {
      robot.stand_frozen_at.reset();
      robot.stable_level = now - start >= 2s ? 110 : 40;
    }
    const auto act = s.step(robot.observe(now), now);
    if (act.kind == Kind::request_state && act.state == a::WholeBodyState::user_cmd && !user_cmd_requested) {
      user_cmd_requested = now;
    }
    robot.apply(act);
    if (act.kind == Kind::done || act.kind == Kind::failed) break;
  }
  INFO(s.error());
  REQUIRE(s.done());
  REQUIRE(user_cmd_requested.has_value());
  CHECK(*user_cmd_requested - start >= 2s);  // not on the cached 110
  CHECK(robot.requests == std::vector<std::uint8_t>{2, 10});
}

TEST_CASE("aurora take control: a PdStand state cached from before the request is not the answer to it",
          "[aurora][fsm][fresh]") {
  a::SequenceOptions o;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SimRobot robot = make_robot(2, 110);
  robot.fsm_frozen_at = now - 5s;  // aurora_state stopped 5 s ago, in PdStand
  robot.stand_frozen_at = now - 5s;
  robot.obeys = false;
  auto s = a::FsmSequence::take_control(o);
  REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
  CHECK(robot.requests.size() == 15);  // PdStand only, resent: never UserCmd
  CHECK(contains(s.error(), "step 2 of 6 (await PdStand (2)): no aurora_state for 8.0 s (the last one reported "
                            "PdStand (2)); PdStand (2) requested on whole_body_fsm_state_change_cmd and not confirmed"));
}

TEST_CASE("aurora hand back: judged by a recent aurora_state, a lost robot is not moved, errors quote the sample age",
          "[aurora][fsm][fresh]") {
  a::SequenceOptions o;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SECTION("restarted: Default (0) reported, nothing requested") {
    SimRobot robot = make_robot(0, 0);
    auto back = a::FsmSequence::release(o);
    REQUIRE(run(back, robot, now, nothing).kind == Kind::failed);
    CHECK(robot.requests.empty());
    CHECK(contains(back.error(), "handing back control, step 1 of 3 (check the robot is still in UserCmd (10)): "
                                 "control was lost before the hand-back: aurora_state reports Default (0) where praxis "
                                 "held UserCmd (10)"));
    CHECK(contains(back.error(), "PdStand (2) not requested"));
  }
  SECTION("already in PdStand: nothing to do") {
    SimRobot robot = make_robot(2, 110);
    auto back = a::FsmSequence::release(o);
    REQUIRE(run(back, robot, now, nothing).kind == Kind::done);
    CHECK(robot.requests.empty());
    CHECK(back.note() == "the robot was already in PdStand (2); nothing requested");
  }
  SECTION("no aurora_state for 11 s: the age, not the cached state") {
    SimRobot robot = make_robot(10, 0);
    robot.fsm_frozen_at = now - 8s;
    const auto start = now;
    auto back = a::FsmSequence::release(o);
    REQUIRE(run(back, robot, now, nothing).kind == Kind::failed);
    CHECK(now - start == o.release_timeout);
    CHECK(robot.requests.empty());
    CHECK(contains(back.error(), "no aurora_state for 11.0 s (the last one reported UserCmd (10)); PdStand (2) not "
                                 "requested: where the robot is is unknown"));
    CHECK_FALSE(contains(back.error(), "stayed"));
  }
  SECTION("no aurora_state, release_when_unknown: requested, and the await quotes the age") {
    o.release_when_unknown = true;
    SimRobot robot = make_robot(10, 0, false);  // the link is down: it hears nothing either
    robot.fsm_frozen_at = now - 8s;
    auto back = a::FsmSequence::release(o);
    REQUIRE(run(back, robot, now, nothing).kind == Kind::failed);
    CHECK(robot.requests.size() == 15);
    INFO(back.error());
    CHECK(contains(back.error(), "step 3 of 3 (await PdStand (2)): no aurora_state for 14.0 s (the last one "
                                 "reported UserCmd (10)); PdStand (2) requested"));
  }
}

TEST_CASE("aurora hand back of walking: the velocity source back to the joystick first, then PdStand from state 3",
          "[aurora][fsm][locomotion]") {
  a::SequenceOptions o;
  o.control_state = a::k_locomotion_state;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SimRobot robot = make_robot(3, 0);
  robot.velocity_source = 2;
  std::vector<std::string> order;
  auto back = a::FsmSequence::release_walking(o);
  back.start(now);
  for (int i = 0; i < 1000; ++i, now += 10ms) {
    const auto act = back.step(robot.observe(now), now);
    if (act.kind == Kind::request_source) order.push_back("source " + std::to_string(static_cast<int>(act.source)));
    if (act.kind == Kind::request_state) order.push_back("state " + std::to_string(static_cast<int>(act.state)));
    robot.apply(act);
    if (act.kind == Kind::done || act.kind == Kind::failed) break;
  }
  INFO(back.error());
  REQUIRE(back.done());
  CHECK(order == std::vector<std::string>{"source 0", "state 2"});
  CHECK(robot.velocity_source == 0);
  CHECK(robot.whole_body == 2);

  // Not walking (the cycle asked for damping: SecurityProtection): the source goes back, no PdStand.
  SimRobot damped = make_robot(9, 0);
  damped.velocity_source = 2;
  auto back2 = a::FsmSequence::release_walking(o);
  REQUIRE(run(back2, damped, now, nothing).kind == Kind::done);
  CHECK(damped.source_requests == std::vector<std::uint8_t>{0});
  CHECK(damped.requests.empty());
  CHECK(back2.note() == "the robot is in SecurityProtection (9), not walking; PdStand (2) not requested");
}

namespace {
// A robot behind the locomotion handler: obeys the fact sheet's transitions only (3 from a stable
// PdStand), takes `latency` to switch, stands stable 1 s after reaching PdStand.
struct WalkingRobot {
  int state = 0;
  int source = 0;
  praxis::Duration latency = 300ms;
  std::optional<std::pair<int, praxis::TimePoint>> pending;
  praxis::TimePoint pd_stand_since{};
  std::vector<int> requests;
  int refused = 0;
  bool obeys = true;

  int stable_level(praxis::TimePoint now) const {
    return state == 2 ? (now - pd_stand_since >= 1s ? 110 : 50) : 0;
  }
  a::FsmReport report(praxis::TimePoint now) const { return {state, source, now, stable_level(now), now}; }
  void request(int s, praxis::TimePoint now) {
    requests.push_back(s);
    const bool allowed = obeys && (s != 3 || (state == 2 && stable_level(now) > 100));
    if (!allowed) {
      ++refused;
      return;
    }
    if (!pending || pending->first != s) pending = {{s, now + latency}};
  }
  void tick(praxis::TimePoint now) {
    if (pending && now >= pending->second) {
      state = pending->first;
      if (state == 2) pd_stand_since = now;
      pending.reset();
    }
  }
};
}  // namespace

TEST_CASE("aurora locomotion: walking from Default goes 0 -> 2 -> stable -> 3, never asking 3 before",
          "[aurora][fsm][locomotion][fresh]") {
  WalkingRobot robot;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  std::vector<a::VelocityValue> velocities;
  a::LocomotionHandler<a::GR2> handler(
      [&] { return robot.report(now); },
      a::LocomotionSink{[&](a::WholeBodyState s) { robot.request(static_cast<int>(s), now); },
                        [&](a::VelocitySource s) { robot.source = static_cast<int>(s); },
                        [&](const a::VelocityValue& v) { velocities.push_back(v); }});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 0.2, 0.0, 0.0};
  for (int i = 0; i < 250 && velocities.empty(); ++i, now += 20ms) {
    robot.tick(now);
    handler.serve(r, status, now);
  }
  REQUIRE_FALSE(velocities.empty());
  CHECK(robot.refused == 0);
  CHECK(robot.state == 3);
  CHECK(robot.requests.front() == 2);
  CHECK(std::count(robot.requests.begin(), robot.requests.end(), 3) >= 1);
  CHECK(status.mode_confirmed());
  CHECK(handler.timeouts() == 0);
}

TEST_CASE("aurora locomotion: a state the robot never reaches is a reported timeout, not a resend for ever",
          "[aurora][fsm][locomotion][fresh]") {
  WalkingRobot robot;
  robot.obeys = false;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  a::WalkingOptions w;  // 3 s per state
  a::LocomotionHandler<a::GR2> handler([&] { return robot.report(now); },
                                       a::LocomotionSink{[&](a::WholeBodyState s) { robot.request(static_cast<int>(s), now); },
                                                         [](a::VelocitySource) {}, [](const a::VelocityValue&) {}},
                                       w);
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  for (int i = 0; i < 1000; ++i, now += 20ms) handler.serve(r, status, now);  // 20 s
  CHECK(robot.requests.size() == 15);  // 2 every 200 ms for 3 s, then no more
  CHECK(std::count(robot.requests.begin(), robot.requests.end(), 3) == 0);
  CHECK(status.last_request.outcome == praxis::RequestOutcome::timed_out);
  CHECK(status.last_request.id == 2);
  CHECK(status.requests_in_flight == 0);
  CHECK(handler.timeouts() == 1);

  // A new wish starts again.
  r.mode = praxis::RobotMode::prepare;
  handler.serve(r, status, now);
  CHECK(robot.requests.size() == 16);
  CHECK(status.last_request.outcome == praxis::RequestOutcome::pending);
}

TEST_CASE("aurora locomotion: without a recent aurora_state nothing is requested and no velocity leaves",
          "[aurora][fsm][locomotion][fresh]") {
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  const a::FsmReport stale{3, 2, now - 1s, 110, now - 1s};  // walking, navigation, but a second old
  int sent = 0;
  a::LocomotionHandler<a::GR2> handler([&] { return stale; },
                                       a::LocomotionSink{[&](a::WholeBodyState) { ++sent; }, [&](a::VelocitySource) { ++sent; },
                                                         [&](const a::VelocityValue&) { ++sent; }});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 0.2, 0.0, 0.0};
  for (int i = 0; i < 50; ++i, now += 20ms) handler.serve(r, status, now);
  CHECK(sent == 0);
  CHECK(status.reported_mode == praxis::RobotMode::unknown);
}

}  // namespace aurora_fsm_test
