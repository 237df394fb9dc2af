// The Booster call schedule's diagnostics (action_log.hpp): sequence numbers, in-flight counts,
// what became of each call, and the JSON lines with HULKs' field names.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "praxis/hardware/booster/action_log.hpp"

namespace {
namespace booster_action_log_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;

TEST_CASE("booster action log: global sequences 1 2 3 and per-action in-flight counts") {
  b::ActionLog log;
  b::PlannedAction change;
  change.action = b::Action::change_mode;
  change.mode = b::Mode::soccer;
  b::PlannedAction move;
  move.action = b::Action::move_robot;
  const auto s1 = log.schedule(change);
  const auto s2 = log.schedule(change);
  const auto s3 = log.schedule(move);
  CHECK(s1.sequence == 1);
  CHECK(s2.sequence == 2);
  CHECK(s3.sequence == 3);
  CHECK(s1.in_flight == 1);
  CHECK(s2.in_flight == 2);
  CHECK(s3.in_flight == 1);
  CHECK(log.in_flight(b::Action::change_mode) == 2);
  CHECK(log.total_in_flight() == 3);
}

TEST_CASE("booster action log: finishing a call lowers its action's in-flight count back to 0") {
  b::ActionLog log;
  b::PlannedAction head;
  head.action = b::Action::rotate_head;
  const auto a = log.schedule(head);
  const auto c = log.schedule(head);
  const auto done_a = log.complete(a, b::Completed::ok, 3ms, 0);
  CHECK(done_a.in_flight_at_start == 1);
  CHECK(done_a.remaining_in_flight == 1);
  const auto done_c = log.complete(c, b::Completed::timeout, 100ms, 100);
  CHECK(done_c.in_flight_at_start == 2);
  CHECK(done_c.remaining_in_flight == 0);
  CHECK(done_c.elapsed_ms == Approx(100.0));
  CHECK(log.in_flight(b::Action::rotate_head) == 0);
  CHECK(log.complete(c, b::Completed::ok, 1ms, 0).remaining_in_flight == 0);  // a double report does not wrap
}

TEST_CASE("booster action log: entries are one JSON line each with the fact sheet's field names") {
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  b::PlannedAction change;
  change.action = b::Action::change_mode;
  change.mode = b::Mode::soccer;
  const auto s = log.schedule(change);
  b::PlannedAction move;
  move.action = b::Action::move_robot;
  move.forward = 0.5;
  move.left = -0.25;
  move.turn = 1.0;
  log.schedule(move);
  b::PlannedAction kick;
  kick.action = b::Action::visual_kick;
  kick.enabled = true;
  kick.version = 1;
  log.schedule(kick);
  b::PlannedAction head;
  head.action = b::Action::rotate_head;
  head.pitch = 0.125;
  head.yaw = -0.5;
  log.schedule(head);
  log.complete(s, b::Completed::error, 1500us, 409);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == R"({"event":"booster rpc scheduled","sequence":1,"action":"change_mode","in_flight":1,"mode":"Soccer"})");
  CHECK(lines[1] ==
        R"({"event":"booster rpc scheduled","sequence":2,"action":"move_robot","in_flight":1,"forward":0.5,"left":-0.25,"turn":1})");
  CHECK(lines[2] == R"({"event":"booster rpc scheduled","sequence":3,"action":"visual_kick","in_flight":1,"enabled":true,"version":1})");
  CHECK(lines[3] == R"({"event":"booster rpc scheduled","sequence":4,"action":"rotate_head","in_flight":1,"pitch":0.125,"yaw":-0.5})");
  CHECK(lines[4] ==
        R"({"event":"booster rpc completed","sequence":1,"action":"change_mode","status":"error","elapsed_ms":1.5,"in_flight_at_start":1,"remaining_in_flight":0,"code":409,"attempts":1,"sent":true,"answered":true})");
}

TEST_CASE("booster action log: what became of the calls: dropped was never sent - a timeout never answered") {
  b::ActionLog log;
  b::PlannedAction move;
  move.action = b::Action::move_robot;
  const auto call = [&] { return log.schedule(move); };
  // The status overrides what the caller says: a dropped call did not go out, a timed-out one was
  // not answered, whatever sent / answered were passed.
  CHECK_FALSE(log.complete(call(), b::Completed::dropped, 1ms, 0, 1, true, true).sent);
  const auto timed_out = log.complete(call(), b::Completed::timeout, 1ms, 100, 1, true, true);
  CHECK(timed_out.sent);
  CHECK_FALSE(timed_out.answered);
  log.complete(call(), b::Completed::ok, 1ms, 0);
  log.complete(call(), b::Completed::ok, 1ms, 0, 3);
  log.complete(call(), b::Completed::error, 1ms, 409);                  // refused by the robot
  log.complete(call(), b::Completed::error, 1ms, -1, 1, false, false);  // e.g. the kick stream not written
  log.complete(call(), b::Completed::error, 1ms, -1, 1, true, false);   // sent, failed without an answer
  const auto n = log.counts(b::Action::move_robot);
  CHECK(n.scheduled == 7);
  CHECK(n.sent == 5);
  CHECK(n.answered == 3);
  CHECK(n.ok == 2);
  CHECK(n.refused == 1);
  CHECK(n.failed == 2);
  CHECK(n.timed_out == 1);
  CHECK(n.dropped == 1);
  CHECK(n.retries == 0);  // counted by retry(), not by attempts
  CHECK(log.counts(b::Action::rotate_head).scheduled == 0);
  CHECK(log.total_in_flight() == 0);
  CHECK(log.last_sequence() == 7);
}

TEST_CASE("booster action log: a retry is counted and logged with its cause escaped and its backoff") {
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  b::PlannedAction change;
  change.action = b::Action::change_mode;
  change.mode = b::Mode::damping;
  const auto s = log.schedule(change);
  log.retry(s, 2, 502, "robot said \"no\"\\\n", 250ms);
  CHECK(log.counts(b::Action::change_mode).retries == 1);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] ==
        R"({"event":"booster rpc retry","sequence":1,"action":"change_mode","mode":"Damping","attempt":2,"after_code":502,"after":"robot said \"no\"\\ ","backoff_ms":250})");
  b::PlannedAction head;
  head.action = b::Action::rotate_head;
  log.retry(log.schedule(head), 2, 100, "", 1ms);  // no mode on other actions
  CHECK(lines[3] == R"({"event":"booster rpc retry","sequence":2,"action":"rotate_head","attempt":2,"after_code":100,"after":"","backoff_ms":1})");
}

TEST_CASE("booster action log: a value that is not a number is logged as null and the line stays JSON") {
  b::Scheduled s;
  s.sequence = 9;
  s.action = b::Action::move_robot;
  s.in_flight = 1;
  s.what.action = b::Action::move_robot;
  s.what.forward = std::numeric_limits<double>::quiet_NaN();
  s.what.left = std::numeric_limits<double>::infinity();
  s.what.turn = 1e-12;
  CHECK(b::to_json_line(s) ==
        R"({"event":"booster rpc scheduled","sequence":9,"action":"move_robot","in_flight":1,"forward":null,"left":null,"turn":1e-12})");
}

TEST_CASE("booster action log: each action's scheduled line carries its own arguments") {
  b::Scheduled s;
  s.sequence = 1;
  s.in_flight = 1;
  s.action = s.what.action = b::Action::set_leds;
  s.what.leds.r = 255;
  s.what.leds.g = 0;
  s.what.leds.b = 16;
  CHECK(b::to_json_line(s) == R"({"event":"booster rpc scheduled","sequence":1,"action":"set_leds","in_flight":1,"r":255,"g":0,"b":16})");
  s.action = s.what.action = b::Action::stop_leds;
  CHECK(b::to_json_line(s) == R"({"event":"booster rpc scheduled","sequence":1,"action":"stop_leds","in_flight":1})");
  s.action = s.what.action = b::Action::get_up;
  s.what.version = 1;
  CHECK(b::to_json_line(s) == R"({"event":"booster rpc scheduled","sequence":1,"action":"get_up","in_flight":1,"version":1})");
  s.action = s.what.action = b::Action::kick_publish;
  s.what.kick = {1.0, -0.5, 0.25, 4.0, 0.5, -1.25, 2.0, {}};
  CHECK(b::to_json_line(s) ==
        R"({"event":"booster rpc scheduled","sequence":1,"action":"kick_publish","in_flight":1,"x":1,"y":-0.5,"dir":0.25,"goal_x":4,"goal_y":0.5,"robot_theta_to_field":-1.25,"power":2})");
}

TEST_CASE("booster action log: a completion's line says whether it was sent and answered and how often tried") {
  b::Scheduled s;
  s.sequence = 4;
  s.action = b::Action::visual_kick;
  s.in_flight = 2;
  b::ActionLog log;
  const auto c = log.complete(s, b::Completed::dropped, 20ms, 0, 1, true, true);
  CHECK(b::to_json_line(c) ==
        R"({"event":"booster rpc completed","sequence":4,"action":"visual_kick","status":"dropped","elapsed_ms":20,"in_flight_at_start":2,"remaining_in_flight":0,"code":0,"attempts":1,"sent":false,"answered":false})");
  CHECK(b::to_string(b::Completed::timeout) == "timeout");
}

}  // namespace booster_action_log_test
}  // namespace
