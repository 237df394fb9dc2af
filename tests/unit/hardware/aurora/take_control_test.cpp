// Unit tests for include/praxis/hardware/aurora/take_control.hpp: the take-control / hand-back
// sequence, driven by what a simulated robot reports and a simulated clock: the happy path, each step
// timing out (the error names the step, what was awaited and the topic), the robot refusing a change,
// the robot leaving a state, reports older than the request they would answer.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/take_control.hpp"

namespace aurora_take_control_test {

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

TEST_CASE("aurora take control: PdStand - a stable stand - UserCmd - PD configuration", "[aurora][take_control]") {
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

TEST_CASE("aurora take control: a hanging robot goes straight to UpperBodyUserCmd", "[aurora][take_control]") {
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

TEST_CASE("aurora take control - arms only: a stable PdStand is the control state: no other state - no PD "
          "configuration", "[aurora][take_control]") {
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

TEST_CASE("aurora take control: each step's timeout names the step - what was awaited and the topic",
          "[aurora][take_control]") {
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

TEST_CASE("aurora take control: the robot leaving PdStand or UserCmd ends the sequence at once", "[aurora][take_control]") {
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

TEST_CASE("aurora hand back: PdStand by default - SecurityProtection as an option", "[aurora][take_control]") {
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

// ---- issue 21: start from what the robot reports, never from a cached value ----

TEST_CASE("aurora take control: a second take-control waits for a stand level reported after its own request",
          "[aurora][take_control][fresh]") {
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
          "[aurora][take_control][fresh]") {
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

TEST_CASE("aurora hand back: judged by a recent aurora_state - a lost robot is not moved - errors quote the sample age",
          "[aurora][take_control][fresh]") {
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

TEST_CASE("aurora hand back of walking: the velocity source back to the joystick first - then PdStand from state 3",
          "[aurora][take_control][locomotion]") {
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

// ---- the sequences' steps and the branches the tests above do not reach ----

std::vector<a::StepKind> kinds(const a::FsmSequence& s) {
  std::vector<a::StepKind> out;
  for (const auto& step : s.steps()) out.push_back(step.kind);
  return out;
}

TEST_CASE("aurora take control: the steps of each sequence follow the vendor's order", "[aurora][take_control]") {
  using K = a::StepKind;
  a::SequenceOptions o;
  // A.5's sequence: PdStand, a stable stand, UserCmd, the PD configuration.
  const auto full = a::FsmSequence::take_control(o);
  CHECK(kinds(full) ==
        std::vector<K>{K::request_state, K::await_state, K::await_stable, K::request_state, K::await_state,
                       K::send_motor_config});
  CHECK(full.steps()[1].timeout == o.pd_stand_timeout);
  CHECK(full.steps()[2].timeout == o.stable_timeout);
  CHECK(full.steps()[3].state == a::WholeBodyState::user_cmd);
  CHECK(full.steps()[4].timeout == o.control_state_timeout);
  CHECK(full.name() == "taking control");

  // Arms only in PdStand: standing stable is the state, with or without stand_first.
  o.control_state = a::WholeBodyState::pd_stand;
  const std::vector<K> stand{K::request_state, K::await_state, K::await_stable};
  CHECK(kinds(a::FsmSequence::take_control(o)) == stand);
  o.stand_first = false;
  CHECK(kinds(a::FsmSequence::take_control(o)) == stand);

  o = {};
  const auto back = a::FsmSequence::release(o);
  CHECK(kinds(back) == std::vector<K>{K::check_holding, K::request_state, K::await_state});
  CHECK(back.steps()[0].state == a::WholeBodyState::user_cmd);
  CHECK(back.steps()[1].state == a::WholeBodyState::pd_stand);
  const auto walking = a::FsmSequence::release_walking(o);
  CHECK(kinds(walking) == std::vector<K>{K::restore_source, K::check_walking, K::request_state, K::await_state});
  CHECK(walking.steps()[1].state == a::k_locomotion_state);

  CHECK(a::FsmSequence::step_name(full.steps()[2]) == "await a stable stand");
  CHECK(a::FsmSequence::step_name(full.steps()[5]) == "send the PD configuration");
  CHECK(a::FsmSequence::step_name(back.steps()[0]) == "check the robot is still in UserCmd (10)");
  CHECK(a::FsmSequence::step_name(walking.steps()[0]) == "hand the velocity source back to the joystick");
  CHECK(a::FsmSequence::seconds_text(std::chrono::milliseconds(1299)) == "1.2 s");
  CHECK(a::FsmSequence::seconds_text(std::chrono::milliseconds(99)) == "0.0 s");
}

TEST_CASE("aurora take control: a failed or finished sequence stays so until started again", "[aurora][take_control]") {
  a::SequenceOptions o;
  praxis::TimePoint now{};
  auto s = a::FsmSequence::take_control(o);
  SimRobot robot;
  robot.obeys = false;
  REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
  CHECK(s.failed());
  const std::string error = s.error();
  robot.whole_body = 2;  // too late: the sequence answers nothing more
  CHECK(s.step(robot.observe(now), now).kind == Kind::failed);
  CHECK(s.error() == error);

  // Started again: from the first step, with the error cleared.
  s.start(now);
  CHECK_FALSE(s.failed());
  CHECK(s.step_index() == 0);
  const auto first = s.step(robot.observe(now), now);
  CHECK(first.kind == Kind::request_state);
  CHECK(first.state == a::WholeBodyState::pd_stand);
}

TEST_CASE("aurora take control: a stand level from before the request is named as unused when the stand times out",
          "[aurora][take_control]") {
  a::SequenceOptions o;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SimRobot robot = make_robot(0, 110);
  robot.stand_frozen_at = now - 1s;  // a stable level, but from before this take-control
  auto s = a::FsmSequence::take_control(o);
  REQUIRE(run(s, robot, now, nothing).kind == Kind::failed);
  CHECK(robot.requests == std::vector<std::uint8_t>{2});  // never UserCmd on the old level
  CHECK(contains(s.error(), "step 3 of 6 (await a stable stand): no sample on robot_stand_pose_state within 15000 ms"));
  CHECK(contains(s.error(), "is from before the request and was not used"));
}

TEST_CASE("aurora hand back: with release_when_unknown the last known control state is handed back and noted",
          "[aurora][take_control]") {
  a::SequenceOptions o;
  o.release_when_unknown = true;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SimRobot robot = make_robot(10, 0);
  robot.fsm_frozen_at = now - 2s;
  auto back = a::FsmSequence::release(o);
  const auto start = now;
  const auto act = run(back, robot, now, [&](SimRobot& r, praxis::TimePoint) {
    if (r.whole_body == 2) r.fsm_frozen_at.reset();  // the link is back: the answer arrives
  });
  REQUIRE(act.kind == Kind::done);
  CHECK(now - start >= o.release_timeout);  // waited for a recent report first
  CHECK(robot.requests == std::vector<std::uint8_t>{2});
  CHECK(contains(back.note(), "requested PdStand (2) without a recent aurora_state (no aurora_state for 5.0 s (the "
                              "last one reported UserCmd (10)))"));

  // The last report was not the state praxis held: nothing requested even so.
  SimRobot other = make_robot(9, 0);
  other.fsm_frozen_at = now - 2s;
  auto refused = a::FsmSequence::release(o);
  REQUIRE(run(refused, other, now, nothing).kind == Kind::failed);
  CHECK(other.requests.empty());
  CHECK(contains(refused.error(), "no aurora_state for 5.0 s (the last one reported SecurityProtection (9)); PdStand "
                                  "(2) not requested: where the robot is is unknown"));
  // The option is on: the error must not claim it is off.
  CHECK_FALSE(contains(refused.error(), "release_when_unknown = false"));
}

TEST_CASE("aurora hand back of walking: a source the robot does not confirm is incomplete - not fatal - and PdStand follows",
          "[aurora][take_control]") {
  a::SequenceOptions o;
  o.control_state = a::k_locomotion_state;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  SimRobot robot = make_robot(3, 0);
  robot.velocity_source = 2;
  // Obeys FSM requests, ignores the source.
  auto back = a::FsmSequence::release_walking(o);
  back.start(now);
  const auto start = now;
  std::optional<praxis::TimePoint> pd_stand_at;
  for (int i = 0; i < 1000; ++i, now += 10ms) {
    const auto act = back.step(robot.observe(now), now);
    if (act.kind == Kind::request_source) robot.source_requests.push_back(static_cast<std::uint8_t>(act.source));
    if (act.kind == Kind::request_state) {
      if (!pd_stand_at) pd_stand_at = now;
      robot.apply(act);
    }
    if (act.kind == Kind::done || act.kind == Kind::failed) break;
  }
  INFO(back.error());
  REQUIRE(back.done());
  REQUIRE(pd_stand_at.has_value());
  CHECK(*pd_stand_at - start >= o.release_timeout);
  CHECK(robot.source_requests.size() == 15);  // resent every 200 ms for 3 s
  CHECK(robot.whole_body == 2);
  CHECK(contains(back.incomplete(), "velocity_source_cmd: the velocity source was not reported back to the joystick (0) "
                                    "within 3000 ms (it reports navigation (2)"));

  // Already the joystick's: no source request at all.
  SimRobot joystick = make_robot(3, 0);
  auto quick = a::FsmSequence::release_walking(o);
  REQUIRE(run(quick, joystick, now, nothing).kind == Kind::done);
  CHECK(joystick.source_requests.empty());
  CHECK(joystick.requests == std::vector<std::uint8_t>{2});
  CHECK(quick.incomplete().empty());

  // Walking already handed back to PdStand: nothing requested.
  SimRobot standing = make_robot(2, 0);
  auto none = a::FsmSequence::release_walking(o);
  REQUIRE(run(none, standing, now, nothing).kind == Kind::done);
  CHECK(standing.requests.empty());
  CHECK(none.note() == "the robot was already in PdStand (2); nothing requested");
}

}  // namespace aurora_take_control_test
