// A Go2's, G1's or H1-2's own locomotion driven by RobotRequests (unitree/sport.hpp), in simulated
// time against a recorded caller that answers like the robot's motion service: which calls go out
// for each wish and in which order, the velocity limits, a refused or unanswered call tried again
// and given up, and nothing before the behaviour's first request; each robot's table of calls.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/hardware/unitree/sport.hpp"

namespace unitree_sport_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
namespace sp = u::sport;

namespace {
struct Robot {
  std::vector<u::ApiCall> calls;
  std::set<std::int64_t> refuse;   // answered with code 4001
  std::set<std::int64_t> silent;   // never answered
  u::SportCaller caller() {
    return [this](const u::ApiCall& c, praxis::Duration) {
      calls.push_back(c);
      if (silent.count(c.api_id) != 0) throw praxis::transport::RpcUnanswered("no answer");
      return u::ApiReply{refuse.count(c.api_id) != 0 ? 4001 : 0, "{}"};
    };
  }
  std::vector<std::int64_t> ids() const {
    std::vector<std::int64_t> out;
    for (const auto& c : calls) out.push_back(c.api_id);
    return out;
  }
};

praxis::RobotRequests wish(praxis::RobotMode mode, double vx = 0.0, double vy = 0.0, double wz = 0.0) {
  praxis::RobotRequests r;
  r.any = true;
  r.mode = mode;
  r.locomotion.active = vx != 0.0 || vy != 0.0 || wz != 0.0;
  r.locomotion.vx = vx;
  r.locomotion.vy = vy;
  r.locomotion.wz = wz;
  return r;
}
}  // namespace

TEST_CASE("go2 sport: walking from lying is StandUp, BalanceStand, then Move at its period and StopMove",
          "[unitree][sport]") {
  Robot robot;
  u::SportHandler h(robot.caller());
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };

  h.serve(praxis::RobotRequests{}, status, at(0.0));  // before the behaviour's first command
  CHECK(robot.calls.empty());

  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.01));
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.02));
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.03));  // balancing, no velocity: nothing
  CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stand_up, sp::k_balance_stand});
  CHECK(status.assumed_mode == praxis::RobotMode::locomotion);
  CHECK(status.mode_confirmed());

  // 2 m/s asked for: clamped to the option's 1 m/s; one Move per 50 ms while it lasts.
  for (int k = 0; k < 20; ++k) h.serve(wish(praxis::RobotMode::locomotion, 2.0, 0.1, -0.2), status, at(0.04 + 0.01 * k));
  std::size_t moves = 0;
  for (const auto& c : robot.calls) {
    if (c.api_id != sp::k_move) continue;
    ++moves;
    const auto j = nlohmann::json::parse(c.parameter);
    CHECK(j["x"] == 1.0);
    CHECK(j["y"].get<double>() == Approx(0.1));
    CHECK(j["z"].get<double>() == Approx(-0.2));
  }
  CHECK(moves == 4);  // at 0.04, 0.09, 0.14, 0.19 s
  CHECK(h.velocities_clamped() == 20);
  CHECK(h.posture() == u::SportPosture::walking);

  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.3));
  CHECK(robot.calls.back().api_id == sp::k_stop_move);
  CHECK(h.posture() == u::SportPosture::balancing);

  // A non-finite velocity is never sent.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto before = robot.calls.size();
  h.serve(wish(praxis::RobotMode::locomotion, nan, 0.0, 0.0), status, at(0.4));
  CHECK(robot.calls.size() == before);
}

TEST_CASE("go2 sport: damping lays a walking robot down before its motors go soft", "[unitree][sport]") {
  Robot robot;
  u::SportOptions o;
  o.stand_down_settle = 1s;
  u::SportHandler h(robot.caller(), o);
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.0));
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.01));
  h.serve(wish(praxis::RobotMode::locomotion, 0.3), status, at(0.02));
  robot.calls.clear();

  auto damping = wish(praxis::RobotMode::damping);
  damping.get_up = 7;  // a get-up is never carried out while the robot is laid down
  for (double t = 0.1; t < 1.0; t += 0.01) h.serve(damping, status, at(t));
  CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stop_move, sp::k_stand_down});
  CHECK(h.posture() == u::SportPosture::lying);
  CHECK_FALSE(h.settled());
  for (double t = 1.0; t < 1.3; t += 0.01) h.serve(damping, status, at(t));
  CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stop_move, sp::k_stand_down, sp::k_damp});
  CHECK(h.settled());
  CHECK(status.assumed_mode == praxis::RobotMode::damping);
}

TEST_CASE("go2 sport: a refused call is tried again after the backoff and given up after max_attempts",
          "[unitree][sport]") {
  Robot robot;
  robot.refuse = {sp::k_stand_up};
  u::SportOptions o;
  o.retry_backoff = 300ms;
  o.max_attempts = 3;
  u::SportHandler h(robot.caller(), o);
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  for (double t = 0.0; t < 2.0; t += 0.01) h.serve(wish(praxis::RobotMode::prepare), status, t0 + praxis::from_seconds(t));
  CHECK(robot.ids() == std::vector<std::int64_t>(3, sp::k_stand_up));
  CHECK(status.last_request.outcome == praxis::RequestOutcome::failed);
  CHECK(status.last_request.code == 4001);
  CHECK_FALSE(status.mode_confirmed());

  // Another wish gets its attempts afresh; an unanswered call is a time-out, tried again too. (The
  // posture is unknown: StandDown first, refused by a robot that is not standing, then Damp.)
  robot.refuse.insert(sp::k_stand_down);
  robot.silent = {sp::k_damp};
  for (double t = 2.0; t < 2.35; t += 0.01) h.serve(wish(praxis::RobotMode::damping), status, t0 + praxis::from_seconds(t));
  CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stand_up, sp::k_stand_up, sp::k_stand_up, sp::k_stand_down,
                                                 sp::k_damp});  // 300 ms apart
  CHECK(status.last_request.outcome == praxis::RequestOutcome::timed_out);
}

TEST_CASE("go2 sport: a lost link forgets the posture: the returning robot is laid down if it stands, damped where "
          "it lies if it does not", "[unitree][sport]") {
  const bool standing = GENERATE(false, true);
  INFO((standing ? "back standing" : "back lying"));
  Robot robot;
  u::SportOptions o;
  o.stand_down_settle = 1s;
  u::SportHandler h(robot.caller(), o);
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  for (double t = 0.0; t < 0.1; t += 0.01) h.serve(wish(praxis::RobotMode::locomotion, 0.3), status, at(t));
  REQUIRE(h.posture() == u::SportPosture::walking);
  robot.calls.clear();

  h.link_lost();  // the robot went out of reach walking; it may come back restarted
  if (!standing) robot.refuse = {sp::k_stand_down, sp::k_stop_move};
  for (double t = 0.1; t < 0.5; t += 0.01) h.serve(wish(praxis::RobotMode::damping), status, at(t));
  if (standing) {
    // Not "StopMove" (praxis no longer knows it walks): StandDown, then Damp after the settle.
    CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stand_down});
    CHECK_FALSE(h.settled());
    for (double t = 0.5; t < 1.2; t += 0.01) h.serve(wish(praxis::RobotMode::damping), status, at(t));
    CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stand_down, sp::k_damp});
  } else {
    // StandDown refused: not standing, damped at once (after the retry backoff), no settle.
    CHECK(robot.ids() == std::vector<std::int64_t>{sp::k_stand_down, sp::k_damp});
  }
  CHECK(h.settled());
  CHECK(status.assumed_mode == praxis::RobotMode::damping);
}

TEST_CASE("g1 loco: walking is FSM 4, FSM 500 and SetVelocity with a duration: damping stops it and never damps "
          "the standing robot", "[unitree][sport]") {
  Robot robot;
  u::SportHandler h(robot.caller(), {}, u::g1_loco_api());
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.0));
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.01));
  h.serve(wish(praxis::RobotMode::locomotion, 0.4, 0.0, 0.1), status, at(0.02));
  REQUIRE(robot.calls.size() == 3);
  CHECK(robot.calls[0].api_id == u::loco::k_set_fsm_id);
  CHECK(nlohmann::json::parse(robot.calls[0].parameter)["data"] == 4);  // StandUp
  CHECK(nlohmann::json::parse(robot.calls[1].parameter)["data"] == 500);  // Start
  CHECK(robot.calls[2].api_id == u::loco::k_set_velocity);
  const auto v = nlohmann::json::parse(robot.calls[2].parameter);
  CHECK(v["velocity"][0].get<double>() == Approx(0.4));
  CHECK(v["velocity"][2].get<double>() == Approx(0.1));
  CHECK(v["duration"] == 1.0);  // a robot whose velocities stop coming stops by itself

  // Damping (the runtime's closing request, a fault's damping motion): stopped, then nothing more.
  for (double t = 0.1; t < 3.0; t += 0.01) h.serve(wish(praxis::RobotMode::damping), status, at(t));
  REQUIRE(robot.calls.size() == 4);
  const auto stop = nlohmann::json::parse(robot.calls[3].parameter);
  CHECK(robot.calls[3].api_id == u::loco::k_set_velocity);
  CHECK(stop["velocity"] == nlohmann::json::array({0.0, 0.0, 0.0}));
  CHECK(h.settled());
  CHECK(h.posture() == u::SportPosture::balancing);
  CHECK(status.assumed_mode == praxis::RobotMode::locomotion);  // what is true: it balances by itself
  for (const auto& c : robot.calls) {
    if (c.api_id == u::loco::k_set_fsm_id) CHECK(nlohmann::json::parse(c.parameter)["data"] != u::loco::k_fsm_damp);
  }
}

TEST_CASE("h1-2 loco: the H1 LocoClient's table: SetFsmId 8101 (StandUp 2, Start 204), SetVelocity 8105 with a "
          "duration, StopMove a zero velocity, no Damp call and no get-up", "[unitree][sport]") {
  const auto api = u::h1_loco_api();
  CHECK(api.name == "H1 loco");
  CHECK(u::h1_loco::k_service == std::string("loco"));
  CHECK(u::h1_loco::k_set_fsm_id == 8101);
  CHECK(u::h1_loco::k_set_balance_mode == 8102);
  CHECK(u::h1_loco::k_set_velocity == 8105);
  CHECK(api.stand_up.api_id == 8101);
  CHECK(nlohmann::json::parse(api.stand_up.parameter) == nlohmann::json{{"data", 2}});
  CHECK(api.balance.api_id == 8101);
  CHECK(nlohmann::json::parse(api.balance.parameter) == nlohmann::json{{"data", 204}});
  CHECK(api.damp.api_id == 8101);
  CHECK(nlohmann::json::parse(api.damp.parameter) == nlohmann::json{{"data", 1}});  // in the table, never called
  CHECK(api.stop_move.api_id == 8105);
  CHECK(nlohmann::json::parse(api.stop_move.parameter) ==
        nlohmann::json{{"velocity", {0.0, 0.0, 0.0}}, {"duration", 1.0}});
  const auto move = api.move(0.5, -0.1, 0.2);
  CHECK(move.api_id == 8105);
  const auto m = nlohmann::json::parse(move.parameter);
  REQUIRE(m["velocity"].size() == 3);
  CHECK(m["velocity"][0].get<double>() == Approx(0.5));
  CHECK(m["velocity"][1].get<double>() == Approx(-0.1));
  CHECK(m["velocity"][2].get<double>() == Approx(0.2));
  CHECK(m["duration"] == 1.0);
  CHECK_FALSE(api.lays_down);
  CHECK_FALSE(api.gets_up);

  // The Start id and the velocity's duration are options (that the H1-2 speaks the H1 client is
  // UNVERIFIED); the G1's table is the same calls with its own ids.
  const auto other = u::h1_loco_api(200, 0.5);
  CHECK(nlohmann::json::parse(other.balance.parameter)["data"] == 200);
  CHECK(nlohmann::json::parse(other.move(0.1, 0.0, 0.0).parameter)["duration"] == 0.5);
  const auto g1 = u::g1_loco_api();
  CHECK(g1.name == "G1 loco");
  CHECK(g1.stand_up.api_id == u::loco::k_set_fsm_id);
  CHECK(nlohmann::json::parse(g1.stand_up.parameter)["data"] == 4);
  CHECK(nlohmann::json::parse(g1.balance.parameter)["data"] == 500);
  CHECK(g1.move(0.1, 0.0, 0.0).api_id == u::loco::k_set_velocity);
}

TEST_CASE("h1-2 loco: walking is FSM 2, FSM 204 and SetVelocity: damping stops it and never damps the standing "
          "robot, which ends balancing", "[unitree][sport]") {
  Robot robot;
  u::SportHandler h(robot.caller(), {}, u::h1_loco_api());
  praxis::RobotStatus status;
  const auto t0 = praxis::Clock::now();
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.0));
  h.serve(wish(praxis::RobotMode::locomotion), status, at(0.01));
  for (int k = 0; k < 10; ++k) h.serve(wish(praxis::RobotMode::locomotion, 0.4, 0.0, 0.1), status, at(0.02 + 0.01 * k));
  REQUIRE(robot.calls.size() == 4);  // StandUp, Start, SetVelocity at 0.02 and 0.07 s
  CHECK(robot.calls[0].api_id == u::h1_loco::k_set_fsm_id);
  CHECK(nlohmann::json::parse(robot.calls[0].parameter)["data"] == u::h1_loco::k_fsm_stand_up);
  CHECK(robot.calls[1].api_id == u::h1_loco::k_set_fsm_id);
  CHECK(nlohmann::json::parse(robot.calls[1].parameter)["data"] == 204);  // Start: walking control
  CHECK(robot.calls[2].api_id == u::h1_loco::k_set_velocity);
  CHECK(robot.calls[3].api_id == u::h1_loco::k_set_velocity);
  CHECK(h.moves_sent() == 2);
  CHECK(h.posture() == u::SportPosture::walking);

  // Damping (the runtime's closing request, a fault's damping motion), a get-up with it: stopped,
  // then nothing more, however long the wish lasts.
  auto damping = wish(praxis::RobotMode::damping);
  damping.get_up = 3;
  for (double t = 0.2; t < 5.0; t += 0.01) h.serve(damping, status, at(t));
  REQUIRE(robot.calls.size() == 5);
  CHECK(robot.calls[4].api_id == u::h1_loco::k_set_velocity);
  CHECK(nlohmann::json::parse(robot.calls[4].parameter)["velocity"] == nlohmann::json::array({0.0, 0.0, 0.0}));
  CHECK(h.settled());
  CHECK(h.posture() == u::SportPosture::balancing);
  CHECK(status.assumed_mode == praxis::RobotMode::locomotion);  // it balances by itself
  for (const auto& c : robot.calls) {
    CHECK(c.api_id != u::h1_loco::k_set_balance_mode);
    if (c.api_id == u::h1_loco::k_set_fsm_id) {
      const int id = nlohmann::json::parse(c.parameter)["data"].get<int>();
      CHECK(id != u::h1_loco::k_fsm_damp);
      CHECK(id != u::h1_loco::k_fsm_zero_torque);
    }
  }

  // A damping wish on an H1-2 that was never walking calls nothing at all.
  Robot idle;
  u::SportHandler standing(idle.caller(), {}, u::h1_loco_api());
  standing.serve(wish(praxis::RobotMode::prepare), status, at(0.0));
  REQUIRE(idle.calls.size() == 1);  // StandUp
  for (double t = 0.1; t < 3.0; t += 0.01) standing.serve(wish(praxis::RobotMode::damping), status, at(t));
  CHECK(idle.calls.size() == 1);
  CHECK(standing.settled());
  CHECK(standing.posture() == u::SportPosture::standing);
}

}  // namespace unitree_sport_test
