// WalkingHandler in simulated time against a scripted motion controller: what it asks the
// Tienkung's HRIC for, per wish and per walk mode, and what it never asks for.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

#include <praxis/hardware/tienkung/walking.hpp>
#include <praxis/transport/rpc.hpp>

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;

namespace {

// A motion controller that obeys stand and walk after `transition`, refuses what it is told to,
// and records every call and velocity.
struct ScriptedHric {
  tk::WalkMode mode = tk::WalkMode::stand;
  bool console = true;
  bool answers = true;
  bool refuse = false;
  bool obeys = true;  // false: answers success but never changes mode
  std::optional<praxis::TimePoint> silent_since;  // the status stops arriving
  praxis::Duration transition = 200ms;
  praxis::TimePoint now{};
  std::optional<std::pair<tk::WalkMode, praxis::TimePoint>> pending;
  std::vector<tk::ModeRequest> calls;
  std::vector<std::array<double, 3>> velocities;

  tk::MotionReport report() {
    if (pending && now >= pending->second) {
      mode = pending->first;
      pending.reset();
    }
    return {static_cast<int>(mode), console, false, 0, silent_since ? *silent_since : now};
  }
  tk::ModeReply call(const tk::ModeCall& c) {
    calls.push_back(c.mode);
    if (!answers) throw praxis::transport::RpcUnanswered("no reply");
    if (refuse) return {false, 7};
    if (!obeys) return {true, 0};
    if (c.mode == tk::ModeRequest::walk && mode == tk::WalkMode::stand) {
      mode = tk::WalkMode::stand_to_walk;
      pending = {{tk::WalkMode::walk, now + transition}};
    } else if (c.mode == tk::ModeRequest::stand && mode == tk::WalkMode::walk) {
      pending = {{tk::WalkMode::stand, now + transition}};
    } else if (c.mode == tk::ModeRequest::stand && mode == tk::WalkMode::stand) {
    } else {
      return {false, 1};
    }
    return {true, 0};
  }
  [[nodiscard]] std::size_t count(tk::ModeRequest r) const { return static_cast<std::size_t>(std::count(calls.begin(), calls.end(), r)); }
};

struct Rig {
  ScriptedHric robot;
  tk::WalkingHandler handler;
  praxis::RobotStatus status;
  praxis::TimePoint t{};

  explicit Rig(tk::WalkingOptions o = {})
      : handler([this] { return robot.report(); },
                tk::WalkingSink{[this](const tk::ModeCall& c, praxis::Duration) { return robot.call(c); },
                                [this](double vx, double vy, double wz) { robot.velocities.push_back({vx, vy, wz}); }},
                o) {}

  void run(const praxis::RobotRequests& r, praxis::Duration d, praxis::Duration step = 10ms) {
    for (praxis::Duration e{}; e < d; e += step) {
      t += step;
      robot.now = t;
      handler.serve(r, status, t);
    }
  }
};

praxis::RobotRequests wish(praxis::RobotMode m, double vx = 0.0, double wz = 0.0) {
  praxis::RobotRequests r;
  r.any = true;
  r.mode = m;
  if (m == praxis::RobotMode::locomotion && (vx != 0.0 || wz != 0.0)) {
    r.locomotion.active = true;
    r.locomotion.vx = vx;
    r.locomotion.wz = wz;
  }
  return r;
}

}  // namespace

TEST_CASE("walking: a velocity asks for walk once, waits for it, then steers at the velocity period", "[tienkung][walking]") {
  Rig rig;
  rig.run(wish(praxis::RobotMode::locomotion, 0.3), 1s);
  CHECK(rig.robot.mode == tk::WalkMode::walk);
  CHECK(rig.robot.count(tk::ModeRequest::walk) == 1);
  REQUIRE_FALSE(rig.robot.velocities.empty());
  // 1 s, 200 ms of it in the transition, at 20 Hz: about 16 velocities.
  CHECK(rig.robot.velocities.size() >= 14);
  CHECK(rig.robot.velocities.size() <= 18);
  CHECK(rig.robot.velocities.back()[0] == Approx(0.3));
  CHECK(rig.status.reported_mode == praxis::RobotMode::locomotion);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::ok);
}

TEST_CASE("walking: velocities are clamped to the options' limits, and a NaN steers nothing", "[tienkung][walking]") {
  tk::WalkingOptions o;
  o.max_vx = 0.4;
  Rig rig(o);
  rig.run(wish(praxis::RobotMode::locomotion, 2.0), 500ms);
  REQUIRE_FALSE(rig.robot.velocities.empty());
  CHECK(rig.robot.velocities.back()[0] == Approx(0.4));
  CHECK(rig.handler.velocities_clamped() > 0);
  const auto before = rig.robot.velocities.size();
  rig.run(wish(praxis::RobotMode::locomotion, std::nan("")), 300ms);
  // NaN is zero velocity: the robot is stopped and stood, never steered with NaN.
  for (std::size_t i = before; i < rig.robot.velocities.size(); ++i) CHECK(rig.robot.velocities[i][0] == 0.0);
  CHECK(rig.robot.count(tk::ModeRequest::stand) == 1);
}

TEST_CASE("walking: no velocity, prepare and damping all end in stand - zero velocity first - never stop or zero",
          "[tienkung][walking]") {
  for (const auto end : {praxis::RobotMode::locomotion, praxis::RobotMode::prepare, praxis::RobotMode::damping}) {
    Rig rig;
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 600ms);
    REQUIRE(rig.robot.mode == tk::WalkMode::walk);
    const auto sent = rig.robot.velocities.size();
    rig.run(wish(end), 600ms);
    CHECK(rig.robot.mode == tk::WalkMode::stand);
    REQUIRE(rig.robot.velocities.size() == sent + 1);
    CHECK(rig.robot.velocities.back() == std::array<double, 3>{0.0, 0.0, 0.0});
    CHECK(rig.robot.count(tk::ModeRequest::stand) == 1);
    CHECK(rig.robot.count(tk::ModeRequest::stop) == 0);
    CHECK(rig.robot.count(tk::ModeRequest::zero) == 0);
    CHECK(rig.handler.settled());
    CHECK(rig.status.reported_mode == (end == praxis::RobotMode::locomotion ? praxis::RobotMode::locomotion : end));
  }
}

// praxis-guard's case: a fresh handler takes over a robot another program walked (its velocity in
// force): the steering is stopped too, once, before the stand.
TEST_CASE("walking: a robot walked by another program gets a zero velocity before the stand", "[tienkung][walking]") {
  Rig rig;
  rig.robot.mode = tk::WalkMode::walk;
  rig.run(wish(praxis::RobotMode::damping), 600ms);
  REQUIRE(rig.robot.velocities.size() == 1);
  CHECK(rig.robot.velocities.front() == std::array<double, 3>{0.0, 0.0, 0.0});
  CHECK(rig.robot.count(tk::ModeRequest::stand) == 1);
  CHECK(rig.robot.mode == tk::WalkMode::stand);
  CHECK(rig.handler.settled());
}

TEST_CASE("walking: a robot in zero or stop is never stood up by praxis", "[tienkung][walking]") {
  for (const auto m : {tk::WalkMode::zero, tk::WalkMode::stop}) {
    Rig rig;
    rig.robot.mode = m;
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 1s);
    rig.run(wish(praxis::RobotMode::damping), 1s);
    CHECK(rig.robot.calls.empty());
    CHECK(rig.robot.velocities.empty());
    CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::failed);
    CHECK(rig.status.reported_mode == praxis::RobotMode::unknown);
    CHECK_FALSE(rig.handler.settled());
  }
}

TEST_CASE("walking: refusals and silence are retried up to max_attempts, then the wish is given up", "[tienkung][walking]") {
  for (const bool answers : {true, false}) {
    Rig rig;
    rig.robot.refuse = answers;
    rig.robot.answers = answers;
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 3s);
    CHECK(rig.robot.count(tk::ModeRequest::walk) == 3);
    CHECK(rig.robot.velocities.empty());
    CHECK(rig.handler.given_up() == 1);
    CHECK(rig.status.last_request.outcome ==
          (answers ? praxis::RequestOutcome::rejected : praxis::RequestOutcome::timed_out));
    // A new wish is tried afresh.
    rig.robot.refuse = false;
    rig.robot.answers = true;
    rig.run(wish(praxis::RobotMode::prepare), 100ms);
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 600ms);
    CHECK(rig.robot.mode == tk::WalkMode::walk);
  }
}

TEST_CASE("walking: a mode accepted but never reached times out after transition_timeout", "[tienkung][walking]") {
  tk::WalkingOptions o;
  o.transition_timeout = 1s;
  Rig rig(o);
  rig.robot.obeys = false;
  rig.run(wish(praxis::RobotMode::locomotion, 0.3), 2s);
  CHECK(rig.robot.count(tk::ModeRequest::walk) == 1);
  CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::timed_out);
  CHECK(rig.robot.velocities.empty());
}

TEST_CASE("walking: while the remote steers nothing is sent, by the configured reading of is_console_control",
          "[tienkung][walking]") {
  SECTION("program_steers: false means the remote") {
    Rig rig;
    rig.robot.console = false;
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 500ms);
    CHECK(rig.robot.calls.empty());
    CHECK(rig.robot.velocities.empty());
    CHECK(rig.handler.remote_held() > 0);
    CHECK(rig.status.last_request.outcome == praxis::RequestOutcome::rejected);
    rig.robot.console = true;  // handed to programs: walking starts
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 600ms);
    CHECK(rig.robot.mode == tk::WalkMode::walk);
  }
  SECTION("remote_steers: true means the remote") {
    tk::WalkingOptions o;
    o.console = tk::ConsoleMeaning::remote_steers;
    Rig rig(o);
    rig.robot.console = true;
    rig.run(wish(praxis::RobotMode::locomotion, 0.3), 500ms);
    CHECK(rig.robot.calls.empty());
  }
}

TEST_CASE("walking: nothing is asked before the first request, nor on a stale status", "[tienkung][walking]") {
  tk::WalkingOptions o;
  o.sample_timeout = 100ms;
  Rig rig(o);
  rig.run(praxis::RobotRequests{}, 500ms);
  CHECK(rig.robot.calls.empty());
  CHECK(rig.status.reported_mode == praxis::RobotMode::locomotion);  // its own standing
  // A status that stopped arriving: the report's time freezes.
  tk::WalkingHandler stale([] { return tk::MotionReport{static_cast<int>(tk::WalkMode::stand), true, false, 0, {}}; },
                           tk::WalkingSink{[&](const tk::ModeCall& c, praxis::Duration) { return rig.robot.call(c); },
                                           [](double, double, double) {}},
                           o);
  praxis::RobotStatus status;
  stale.serve(wish(praxis::RobotMode::locomotion, 0.3), status, praxis::TimePoint{} + 1s);
  CHECK(rig.robot.calls.empty());
  CHECK(status.reported_mode == praxis::RobotMode::unknown);
}

TEST_CASE("walking: a controller falling silent while praxis steers it gets one zero velocity, then nothing",
          "[tienkung][walking]") {
  Rig rig;
  rig.run(wish(praxis::RobotMode::locomotion, 0.3), 1s);
  REQUIRE(rig.robot.mode == tk::WalkMode::walk);
  rig.robot.silent_since = rig.t;
  const auto sent = rig.robot.velocities.size();
  const auto calls = rig.robot.calls.size();
  rig.run(wish(praxis::RobotMode::locomotion, 0.3), 2s);
  rig.run(wish(praxis::RobotMode::damping), 1s);
  // The status goes stale after sample_timeout (300 ms): until then steering goes on, then one zero.
  REQUIRE(rig.robot.velocities.size() > sent);
  CHECK(rig.robot.velocities.size() <= sent + 8);
  CHECK(rig.robot.velocities.back() == std::array<double, 3>{0.0, 0.0, 0.0});
  CHECK(rig.robot.calls.size() == calls);  // nothing asked of a controller praxis cannot hear
  CHECK(rig.status.reported_mode == praxis::RobotMode::unknown);
}
