// Unit tests for include/praxis/hardware/aurora/locomotion.hpp: LocomotionHandler, the robot's own
// walking driven from RobotRequests on a simulated clock, against a sink that records what would go on
// the wire and a robot that obeys the fact sheet's transitions (A.5) or refuses them.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/locomotion.hpp"
#include "praxis/hardware/aurora/models.hpp"

namespace aurora_locomotion_test {

using namespace std::chrono_literals;
namespace a = praxis::aurora;

TEST_CASE("aurora locomotion: state 3 - then navigation - then clamped velocities - requests repeated until reported",
          "[aurora][locomotion]") {
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

TEST_CASE("aurora locomotion: walking from Default goes 0 -> 2 -> stable -> 3 - never asking 3 before",
          "[aurora][locomotion][fresh]") {
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

TEST_CASE("aurora locomotion: a state the robot never reaches is a reported timeout - not a resend for ever",
          "[aurora][locomotion][fresh]") {
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
          "[aurora][locomotion][fresh]") {
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

TEST_CASE("aurora locomotion: each mode's whole-body state is A.5's and joint control asks for none",
          "[aurora][locomotion]") {
  CHECK(a::whole_body_state_for(praxis::RobotMode::locomotion) == a::WholeBodyState::user_a);
  CHECK(static_cast<int>(*a::whole_body_state_for(praxis::RobotMode::locomotion)) == 3);
  CHECK(a::whole_body_state_for(praxis::RobotMode::prepare) == a::WholeBodyState::pd_stand);
  // Damping is SecurityProtection (9): damping 2 s, then zero torque.
  CHECK(a::whole_body_state_for(praxis::RobotMode::damping) == a::WholeBodyState::security);
  CHECK_FALSE(a::whole_body_state_for(praxis::RobotMode::user).has_value());
  CHECK_FALSE(a::whole_body_state_for(praxis::RobotMode::unknown).has_value());

  // A wish for joint control reaches nothing: no request, no velocity, no assumed mode.
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  int sent = 0;
  a::LocomotionHandler<a::GR2> handler(
      [&] { return a::FsmReport{2, 0, now, 110, now}; },
      a::LocomotionSink{[&](a::WholeBodyState) { ++sent; }, [&](a::VelocitySource) { ++sent; },
                        [&](const a::VelocityValue&) { ++sent; }});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::user;
  for (int i = 0; i < 20; ++i, now += 20ms) handler.serve(r, status, now);
  CHECK(sent == 0);
  CHECK(status.assumed_mode == praxis::RobotMode::unknown);
  CHECK(status.reported_mode == praxis::RobotMode::prepare);
}

TEST_CASE("aurora locomotion: prepare asks PdStand from walking and settles there without velocities",
          "[aurora][locomotion]") {
  WalkingRobot robot;
  robot.state = 3;
  robot.source = 2;
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  int velocities = 0;
  a::LocomotionHandler<a::GR2> handler(
      [&] { return robot.report(now); },
      a::LocomotionSink{[&](a::WholeBodyState s) { robot.request(static_cast<int>(s), now); },
                        [&](a::VelocitySource s) { robot.source = static_cast<int>(s); },
                        [&](const a::VelocityValue&) { ++velocities; }});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::prepare;
  for (int i = 0; i < 50; ++i, now += 20ms) {
    robot.tick(now);
    handler.serve(r, status, now);
  }
  CHECK(robot.state == 2);
  CHECK(robot.requests == std::vector<int>{2, 2});  // at 0 and 200 ms; reached at 300 ms
  CHECK(velocities == 0);
  CHECK(status.mode_confirmed());
  CHECK(status.last_request.outcome == praxis::RequestOutcome::ok);
  CHECK(status.last_request.id == 2);
  CHECK(status.requests_in_flight == 0);
}

TEST_CASE("aurora locomotion: a stand that never becomes stable times out without ever asking for state 3",
          "[aurora][locomotion]") {
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  std::vector<int> states;
  a::WalkingOptions w;  // stable_timeout 15 s
  a::LocomotionHandler<a::GR2> handler(
      [&] { return a::FsmReport{2, 0, now, 60, now}; },  // PdStand, wobbling
      a::LocomotionSink{[&](a::WholeBodyState s) { states.push_back(static_cast<int>(s)); }, [](a::VelocitySource) {},
                        [](const a::VelocityValue&) {}},
      w);
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  const auto start = now;
  std::optional<praxis::TimePoint> gave_up;
  for (; now < start + 20s; now += 20ms) {
    handler.serve(r, status, now);
    if (!gave_up && status.last_request.outcome == praxis::RequestOutcome::timed_out) gave_up = now;
  }
  CHECK(states.empty());  // already in PdStand: nothing to ask until it is stable
  REQUIRE(gave_up.has_value());
  CHECK(*gave_up - start >= w.stable_timeout);
  CHECK(*gave_up - start < w.stable_timeout + 40ms);
  CHECK(status.last_request.id == 3);
  CHECK(handler.timeouts() == 1);
}

TEST_CASE("aurora locomotion: a stable level reported before PdStand was seen is not a stable stand",
          "[aurora][locomotion]") {
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  const praxis::TimePoint old_level_at = now - 10ms;  // from the stance before, cached
  std::vector<int> states;
  a::LocomotionHandler<a::GR2> handler(
      [&] { return a::FsmReport{2, 0, now, 110, old_level_at}; },
      a::LocomotionSink{[&](a::WholeBodyState s) { states.push_back(static_cast<int>(s)); }, [](a::VelocitySource) {},
                        [](const a::VelocityValue&) {}});
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  handler.serve(r, status, now);
  CHECK(states.empty());
  CHECK(status.last_request.outcome == praxis::RequestOutcome::pending);
  CHECK(status.last_request.id == 3);
  CHECK(status.requests_in_flight == 1);
}

TEST_CASE("aurora locomotion: a velocity source the robot never takes is a timeout and no velocity leaves",
          "[aurora][locomotion]") {
  praxis::TimePoint now = praxis::TimePoint{} + 100s;
  int sources = 0, velocities = 0;
  a::WalkingOptions w;  // state_timeout 3 s, resend 200 ms
  a::LocomotionHandler<a::GR2> handler(
      [&] { return a::FsmReport{3, 0, now, 0, now}; },  // walking, the joystick keeps the source
      a::LocomotionSink{[](a::WholeBodyState) {}, [&](a::VelocitySource) { ++sources; },
                        [&](const a::VelocityValue&) { ++velocities; }},
      w);
  praxis::RobotStatus status;
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 0.2, 0.0, 0.0};
  for (int i = 0; i < 500; ++i, now += 20ms) handler.serve(r, status, now);  // 10 s
  CHECK(sources == 15);  // every 200 ms for 3 s
  CHECK(velocities == 0);
  CHECK(handler.timeouts() == 1);
  CHECK(status.last_request.outcome == praxis::RequestOutcome::timed_out);
  CHECK(status.last_request.id == 3);
  CHECK(handler.requests_sent() == 15);
}

}  // namespace aurora_locomotion_test
