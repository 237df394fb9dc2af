// The seed's "Manual validation on a Booster robot" list, automated: praxis' motion pipeline
// (MotionController, driven by motion commands) on a Booster robot whose requests go through the
// backend's real RequestHandler to the fake robot's loco and light services, in simulated time
// (tests/support/booster_sim.hpp). Each TEST_CASE is one line of the list; the fake robot records
// every call with its time and answers as the robot's state machine would (409 for a request its
// mode does not allow), so a schedule that works here is also one the robot accepts.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "booster_sim.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/booster/models.hpp"

using namespace std::chrono_literals;
namespace m = praxis::motion;
namespace b = praxis::booster;
using Robot = praxis::test::SimulatedBooster<b::K1>;
using praxis::TimePoint;

namespace booster_test {
// The behaviour's LED wish, set from the test. (Outside the anonymous namespace: clang counts a
// node's name, read only through templates, as unused there.)
struct LedWish {
  static constexpr std::string_view name = "led_wish";
  using outputs = praxis::ports<m::LedCommandPort>;
  praxis::LedRequest wish{};
  void cycle(praxis::LedRequest& out) const { out = wish; }
};
}  // namespace booster_test
using booster_test::LedWish;

namespace {

using Controller = praxis::control::MotionController<Robot, praxis::control::CommandInput, LedWish>;
static_assert(praxis::HasModes<Robot> && praxis::HasLocomotion<Robot>);

TimePoint at(double s) { return TimePoint{} + praxis::from_seconds(s); }
double seconds(TimePoint t) { return praxis::to_seconds(t.time_since_epoch()); }

struct Rig {
  explicit Rig(b::InterfaceParams params = {}, praxis::fake_booster::LocoServiceOptions loco = {})
      : robot(params, std::move(loco)), controller(robot, library, options()) {}
  static praxis::control::MotionOptions options() {
    praxis::control::MotionOptions o;
    o.print = false;
    return o;
  }
  void command(const m::MotionCommand& c) { controller.behaviour().command = c; }
  void run_until(double s) {
    while (now < at(s)) controller.step(now += 2ms);
  }

  Robot robot;
  praxis::script::ScriptLibrary<b::K1> library;
  Controller controller;
  TimePoint now{};
};

struct Call {
  double t;
  std::int64_t api;
  nlohmann::json body;
  std::int32_t status;
};

std::vector<Call> calls(const Robot& robot, std::int64_t api, double from = 0.0, double to = 1e9) {
  std::vector<Call> out;
  for (const auto& c : robot.loco_service.calls()) {
    const double t = seconds(c.at);
    if (c.api_id != api || t < from || t >= to) continue;
    out.push_back({t, c.api_id, c.body.empty() ? nlohmann::json::object() : nlohmann::json::parse(c.body), c.status});
  }
  return out;
}

std::vector<int> modes_requested(const Robot& robot) {
  std::vector<int> out;
  for (const auto& c : calls(robot, b::loco_api::k_change_mode)) out.push_back(c.body.at("mode").get<int>());
  return out;
}

m::command::WalkWithVelocity walking(double vx, double wz = 0.0) {
  m::command::WalkWithVelocity w;
  w.velocity = {vx, 0.0};
  w.angular_velocity = wz;
  return w;
}

m::command::VisualKick kick() {
  m::command::VisualKick k;
  k.ball_position = {1.0, -0.5};
  k.kick_direction = 0.2;
  k.target_position = {4.0, 0.5};
  k.kick_power = m::KickPower::strong;
  return k;
}

// Prepare, stand up, stand: the way onto the feet every later test starts from. Returns when Stand runs.
void stand_up(Rig& r) {
  r.command(m::command::Prepare{});
  r.run_until(1.0);
  r.command(m::command::StandUp{});
  r.run_until(3.0);
  r.command(m::command::Stand{});
  r.run_until(3.5);
  REQUIRE(r.controller.selection().current == m::MotionType::stand);
}

}  // namespace

TEST_CASE("booster validation: no RPC before the first motion command", "[booster][validation]") {
  Rig r;
  r.run_until(3.0);  // command::Unset: the behaviour has not spoken
  CHECK(r.robot.loco_service.calls().empty());
  CHECK(r.robot.light_service.calls().empty());
  CHECK(r.robot.kicks.empty());
  CHECK(r.robot.log->entries("rpc").empty());
  r.command(m::command::Prepare{});
  r.run_until(3.1);
  CHECK(calls(r.robot, b::loco_api::k_change_mode).size() == 1);
}

TEST_CASE("booster validation: one change_mode per change of the desired mode: Damping -> Damping, Prepare and "
          "StandUp -> Prepare, Stand / Walk / WalkWithVelocity / VisualKick -> Soccer, never Walking",
          "[booster][validation]") {
  Rig r;
  r.command(m::command::Damping{});  // the robot is assumed in Damping already: nothing to ask
  r.run_until(0.5);
  CHECK(r.robot.loco_service.calls().empty());
  stand_up(r);  // Prepare, StandUp: one change to Prepare
  m::command::Walk walk;
  walk.path.add({2.0, 0.0});
  walk.speed = 0.3;
  r.command(walk);
  r.run_until(4.5);
  CHECK(r.controller.selection().current == m::MotionType::walk);
  r.command(walking(0.2));
  r.run_until(5.5);
  r.command(kick());
  r.run_until(6.5);
  CHECK(r.controller.selection().current == m::MotionType::visual_kick);
  r.command(m::command::Stand{});
  r.run_until(7.5);
  r.command(m::command::Damping{});
  r.run_until(8.0);
  r.command(m::command::Prepare{});
  r.run_until(8.5);

  CHECK(modes_requested(r.robot) == std::vector<int>{1, 4, 0, 1});
  for (const auto& c : calls(r.robot, b::loco_api::k_change_mode)) {
    INFO("change_mode " << c.body.dump() << " at " << c.t << " s");
    CHECK(c.status == 0);  // the robot accepted each: the order is one its state machine allows
  }
  // The mode is assumed as soon as it is asked for, and confirmed by the robot's answer.
  CHECK(r.controller.status().assumed_mode == praxis::RobotMode::prepare);
  CHECK(r.controller.status().reported_mode == praxis::RobotMode::prepare);
  const auto& modes = r.robot.loco_service.mode_entries();
  CHECK(std::none_of(modes.begin(), modes.end(), [](const auto& e) { return e.mode == b::Mode::walking; }));
}

TEST_CASE("booster validation: move_robot at about 50 Hz while walking and zero-velocity move_robot while standing, "
          "only in Soccer", "[booster][validation]") {
  Rig r;
  r.command(m::command::Prepare{});
  r.run_until(2.0);
  CHECK(calls(r.robot, b::loco_api::k_move).empty());  // Prepare: no walking requests
  r.command(m::command::StandUp{});
  r.run_until(4.0);
  r.command(m::command::Stand{});
  r.run_until(6.0);
  r.command(walking(0.3, 0.1));
  r.run_until(8.0);
  r.command(m::command::Damping{});
  r.run_until(9.0);

  const auto standing = calls(r.robot, b::loco_api::k_move, 4.5, 6.0);
  const auto walking_moves = calls(r.robot, b::loco_api::k_move, 6.5, 8.0);
  CHECK(standing.size() >= 73);  // 1.5 s at 50 Hz
  CHECK(standing.size() <= 77);
  for (const auto& c : standing) {
    CHECK(c.body.at("vx").get<double>() == 0.0);
    CHECK(c.body.at("vy").get<double>() == 0.0);
    CHECK(c.body.at("vyaw").get<double>() == 0.0);
  }
  CHECK(walking_moves.size() >= 73);
  CHECK(walking_moves.size() <= 77);
  for (const auto& c : walking_moves) {
    CHECK(c.body.at("vx").get<double>() == Approx(0.3));
    CHECK(c.body.at("vyaw").get<double>() == Approx(0.1));
    CHECK(c.status == 0);
  }
  CHECK(calls(r.robot, b::loco_api::k_move, 8.05).empty());  // Damping: no more walking requests
}

TEST_CASE("booster validation: rotate_head at about 50 Hz, only while Soccer is assumed", "[booster][validation]") {
  Rig r;
  r.command(m::command::Prepare{});
  r.run_until(2.0);
  CHECK(calls(r.robot, b::loco_api::k_rotate_head).empty());
  r.command(m::command::StandUp{});
  r.run_until(4.0);
  m::command::Stand stand;
  stand.head = m::HeadMotion::look_at_angles(0.4, 0.2);
  r.command(stand);
  r.run_until(7.0);
  const auto heads = calls(r.robot, b::loco_api::k_rotate_head, 5.0, 7.0);
  CHECK(heads.size() >= 98);  // 2 s at 50 Hz
  CHECK(heads.size() <= 102);
  REQUIRE(!heads.empty());
  CHECK(heads.back().body.at("yaw").get<double>() == Approx(0.4).margin(0.05));
  CHECK(heads.back().body.at("pitch").get<double>() == Approx(0.2).margin(0.05));
  for (const auto& c : heads) CHECK(c.status == 0);
}

TEST_CASE("booster validation: one get_up on stand-up entry while Prepare is assumed", "[booster][validation]") {
  Rig r;
  r.command(m::command::StandUp{});  // straight from Damping: Prepare and get_up in the same period
  r.run_until(3.0);
  const auto get_ups = calls(r.robot, b::loco_api::k_get_up);
  REQUIRE(get_ups.size() == 1);
  CHECK(get_ups[0].status == 0);
  const auto prepare = calls(r.robot, b::loco_api::k_change_mode);
  REQUIRE(prepare.size() == 1);
  CHECK(get_ups[0].t == prepare[0].t);
  // The robot reported it stood up (rt/fall_down), so the stand-up motion may be left.
  CHECK(r.controller.status().get_ups_completed == 1);
  r.command(m::command::Stand{});
  r.run_until(3.5);
  CHECK(r.controller.selection().current == m::MotionType::stand);
  CHECK(calls(r.robot, b::loco_api::k_get_up).size() == 1);
}

TEST_CASE("booster validation: visual kick publishes rt/kick_ball and one visual_kick(true) on entry, fresh "
          "kick_ball at about 50 Hz, one visual_kick(false) on leaving for Stand / Walk while Soccer stays",
          "[booster][validation]") {
  Rig r;
  stand_up(r);
  r.command(kick());
  r.run_until(5.5);
  const auto starts = calls(r.robot, b::loco_api::k_visual_kick);
  REQUIRE(starts.size() == 1);
  CHECK(starts[0].body.at("start").get<bool>());
  CHECK(starts[0].status == 0);
  REQUIRE(!r.robot.kicks.empty());
  CHECK(seconds(r.robot.kicks.front().time) == Approx(starts[0].t).margin(0.011));
  std::size_t active = 0;
  for (const auto& k : r.robot.kicks) active += seconds(k.time) >= 4.0 && seconds(k.time) < 5.5;
  CHECK(active >= 73);  // 1.5 s at 50 Hz
  CHECK(active <= 77);
  const auto& last = r.robot.kicks.back().message;
  CHECK(last.x == 1.0);
  CHECK(last.y == -0.5);
  CHECK(last.goal_x == 4.0);
  CHECK(last.goal_y == 0.5);
  CHECK(last.power == 6.0);  // strong (HULKs' Schlong)
  // No walking requests while the robot kicks.
  CHECK(calls(r.robot, b::loco_api::k_move, starts[0].t + 0.011, 5.5).empty());

  const auto modes_before = modes_requested(r.robot);
  r.command(walking(0.2));
  r.run_until(6.5);
  const auto kicks = calls(r.robot, b::loco_api::k_visual_kick);
  REQUIRE(kicks.size() == 2);
  CHECK_FALSE(kicks[1].body.at("start").get<bool>());
  CHECK(kicks[1].status == 0);
  CHECK(modes_requested(r.robot) == modes_before);  // Soccer stays
  CHECK(r.robot.loco_service.mode() == b::Mode::soccer);
  const auto kicks_after = std::count_if(r.robot.kicks.begin(), r.robot.kicks.end(),
                                         [&](const auto& k) { return seconds(k.time) > kicks[1].t + 0.011; });
  CHECK(kicks_after == 0);
  CHECK(calls(r.robot, b::loco_api::k_move, 6.0, 6.5).size() >= 24);  // walking requests again
}

TEST_CASE("booster validation: LED colours are forwarded once per change, and handed back", "[booster][validation]") {
  Rig r;
  auto& wish = r.controller.template node<LedWish>().wish;
  wish = {true, 255, 0, 0};
  r.run_until(1.0);
  CHECK(r.robot.light_service.calls().empty());  // nothing before the first motion command
  r.command(m::command::Prepare{});
  r.run_until(2.0);
  wish = {true, 0, 255, 50};
  r.run_until(3.0);
  wish = {};
  r.run_until(4.0);
  const auto lights = r.robot.light_service.calls();
  REQUIRE(lights.size() == 3);
  CHECK(lights[0].api_id == b::light_api::k_set_led_light_color);
  CHECK(nlohmann::json::parse(lights[0].body) == nlohmann::json{{"r", 255}, {"g", 0}, {"b", 0}});
  CHECK(nlohmann::json::parse(lights[1].body) == nlohmann::json{{"r", 0}, {"g", 255}, {"b", 50}});
  CHECK(lights[2].api_id == b::light_api::k_stop_led_light_control);
  for (const auto& c : lights) CHECK(c.status == 0);
}

TEST_CASE("booster: a mode change the robot refuses (409) is reported, not repeated, and the planner takes the "
          "robot's word for its mode", "[booster][errors]") {
  Rig r;
  r.command(m::command::Stand{});  // Soccer straight from Damping: the robot's state machine refuses
  r.run_until(1.0);
  const auto modes = calls(r.robot, b::loco_api::k_change_mode);
  REQUIRE(modes.size() == 1);  // 409 is the robot's decision: not retried, not asked again
  CHECK(modes[0].status == 409);
  const auto& status = r.controller.status();
  // After the refusal praxis asked the robot (GetMode) and believes it: still Damping.
  CHECK(calls(r.robot, b::loco_api::k_get_mode).size() == 1);
  CHECK(status.assumed_mode == praxis::RobotMode::damping);
  CHECK(status.reported_mode == praxis::RobotMode::damping);
  // So no walking request goes to a robot that is not in a walking mode.
  CHECK(calls(r.robot, b::loco_api::k_move).empty());
  CHECK(status.last_request.outcome == praxis::RequestOutcome::rejected);
  CHECK(status.last_request.code == 409);
  const auto failures = r.robot.log->entries("rpc");
  CHECK(std::any_of(failures.begin(), failures.end(), [](const auto& e) {
    return e.json.find("booster rpc failed") != std::string::npos && e.json.find("409") != std::string::npos;
  }));
  // Another mode wanted, then Soccer again: a fresh try, which the robot now accepts.
  r.command(m::command::Prepare{});
  r.run_until(2.0);
  r.command(m::command::Stand{});
  r.run_until(3.0);
  CHECK(modes_requested(r.robot) == std::vector<int>{4, 1, 4});
  CHECK(r.robot.loco_service.mode() == b::Mode::soccer);
  CHECK(!calls(r.robot, b::loco_api::k_move, 2.1, 3.0).empty());
}

TEST_CASE("booster: a 502 on Prepare is retried after the backoff, and the get_up planned with it goes out after it",
          "[booster][errors]") {
  praxis::fake_booster::LocoServiceOptions loco;
  loco.refuse_once[b::loco_api::k_change_mode] = 502;
  Rig r({}, loco);
  r.command(m::command::StandUp{});
  r.run_until(3.0);
  const auto modes = calls(r.robot, b::loco_api::k_change_mode);
  REQUIRE(modes.size() == 2);
  CHECK(modes[0].status == 502);
  CHECK(modes[1].status == 0);
  CHECK(modes[1].t - modes[0].t == Approx(0.1).margin(0.011));  // retry.backoff
  const auto get_ups = calls(r.robot, b::loco_api::k_get_up);
  REQUIRE(get_ups.size() == 1);
  CHECK(get_ups[0].status == 0);
  CHECK(get_ups[0].t >= modes[1].t);
  CHECK(r.controller.status().get_ups_completed == 1);
  std::size_t retries = 0;
  for (const auto& e : r.robot.log->entries("rpc")) retries += e.json.find("booster rpc retry") != std::string::npos;
  CHECK(retries == 1);
}

TEST_CASE("booster: an RPC the robot never answers times out after sdk_request_timeout: later calls go out",
          "[booster][errors]") {
  praxis::fake_booster::LocoServiceOptions loco;
  loco.never_answer.insert(b::loco_api::k_rotate_head);
  Rig r({}, loco);
  stand_up(r);
  r.run_until(5.0);
  const auto& status = r.controller.status();
  CHECK(status.reported_mode == praxis::RobotMode::locomotion);
  const auto completed = r.robot.log->entries("rpc");
  std::size_t head_timeouts = 0, move_ok = 0;
  for (const auto& e : completed) {
    const auto j = nlohmann::json::parse(e.json);
    if (j.value("event", "") != "booster rpc completed") continue;
    if (j.at("action") == "rotate_head" && j.at("status") == "timeout") ++head_timeouts;
    if (j.at("action") == "move_robot" && j.at("status") == "ok") ++move_ok;
  }
  CHECK(head_timeouts >= 50);
  CHECK(move_ok >= 50);  // the hung head calls did not stop the walking requests
}

TEST_CASE("booster: structured logs of behaviour input, primary state, RPC schedule and completion",
          "[booster][logs]") {
  Rig r;
  stand_up(r);
  r.run_until(4.0);
  const auto inputs = r.robot.log->entries("behaviour_input");
  REQUIRE(inputs.size() >= 3);
  const auto first = nlohmann::json::parse(inputs.front().json);
  CHECK(first.at("motion") == "prepare");
  CHECK(first.at("desired_mode") == "Prepare");
  CHECK(first.contains("assumed_mode"));
  CHECK(first.contains("visual_kick_active"));
  CHECK(first.contains("head_present"));

  std::vector<nlohmann::json> scheduled, completed;
  for (const auto& e : r.robot.log->entries("rpc")) {
    const auto j = nlohmann::json::parse(e.json);
    if (j.value("event", "") == "booster rpc scheduled") scheduled.push_back(j);
    if (j.value("event", "") == "booster rpc completed") completed.push_back(j);
  }
  REQUIRE(scheduled.size() >= 3);
  for (std::size_t k = 0; k < scheduled.size(); ++k) CHECK(scheduled[k].at("sequence") == k + 1);
  CHECK(scheduled[0].at("action") == "change_mode");
  CHECK(scheduled[0].at("mode") == "Prepare");
  CHECK(scheduled[0].at("in_flight") == 1);
  CHECK(scheduled[1].at("action") == "get_up");
  REQUIRE(!completed.empty());
  CHECK(completed[0].at("sequence") == 1);
  CHECK(completed[0].at("status") == "ok");
  CHECK(completed[0].at("remaining_in_flight") == 0);
  CHECK(completed[0].contains("elapsed_ms"));
  CHECK(completed[0].contains("in_flight_at_start"));

  const auto primary = r.robot.log->entries("primary_state");
  REQUIRE(primary.size() >= 2);
  CHECK(std::any_of(primary.begin(), primary.end(),
                    [](const auto& e) { return e.json.find("\"fall_state\":\"getting_up\"") != std::string::npos; }));
  CHECK(nlohmann::json::parse(primary.back().json).at("confirmed_mode") == "locomotion");
}
