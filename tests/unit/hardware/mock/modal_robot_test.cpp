// hardware/mock/modal_robot.hpp: the mock robot with a controller of its own, in simulated time
// (threaded = false: read() runs the worker's periods up to `now`). Pinned here: nothing is called
// before the behaviour's first command; change_mode once per change, assumed at once and reported
// confirm_delay later; get_up only in the prepare mode and once per new value (a value asked for in
// another mode is acted on once prepare is reached), finished get_up_time later; move every period
// in locomotion (zero velocity when not walking) and rotate_head only with the head requested; the
// safe mode served alone once posted. integration/modal_robot_test.cpp runs it with real threads
// under MotionController.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>
#include <vector>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace modal_robot_unit_test {

using namespace std::chrono_literals;
using praxis::RobotMode;
using praxis::mock::RobotCall;
using Go2 = praxis::unitree::Go2;
using Robot = praxis::mock::ModalRobot<Go2>;
const praxis::TimePoint t0{};

praxis::mock::ModalOptions simulated() {
  praxis::mock::ModalOptions o;
  o.threaded = false;
  o.period = 20ms;
  o.confirm_delay = 100ms;
  o.get_up_time = 200ms;
  return o;
}

struct Sim {
  Robot robot{simulated(), t0};
  praxis::RobotState<Go2::joint_count> state;
  praxis::RobotStatus status;
  // Reads at `at` (serving every worker period up to it) and takes the newest status.
  void at(praxis::Duration at) {
    robot.read(state, t0 + at);
    robot.read_status(status);
  }
  std::size_t count(RobotCall c) const {
    std::size_t n = 0;
    for (const auto& r : robot.calls()) n += r.call == c ? 1 : 0;
    return n;
  }
};

praxis::RobotRequests asking(RobotMode mode) {
  praxis::RobotRequests r;
  r.any = true;
  r.mode = mode;
  return r;
}

TEST_CASE("modal robot: a robot with modes and walking and get-up and head whose safe state is a mode request",
          "[control][modal_robot]") {
  STATIC_REQUIRE(Robot::capabilities.modes);
  STATIC_REQUIRE(Robot::capabilities.locomotion);
  STATIC_REQUIRE(Robot::capabilities.get_up);
  STATIC_REQUIRE(Robot::capabilities.head);
  STATIC_REQUIRE(Robot::safe_state == praxis::SafeState::mode_request);
  STATIC_REQUIRE(praxis::HasModes<Robot> && praxis::ReportsStatus<Robot>);
  CHECK(praxis::mock::to_string(RobotCall::change_mode) == "change_mode");
  CHECK(praxis::mock::to_string(RobotCall::move) == "move");
  CHECK(praxis::mock::to_string(RobotCall::get_up) == "get_up");
  CHECK(praxis::mock::to_string(RobotCall::rotate_head) == "rotate_head");
}

TEST_CASE("modal robot: nothing is called before the first command but the link is up", "[control][modal_robot]") {
  Sim s;
  auto r = asking(RobotMode::locomotion);
  r.any = false;  // a picture the behaviour has not sent yet
  r.locomotion.active = true;
  s.robot.post(r);
  s.at(200ms);
  CHECK(s.robot.calls().empty());
  CHECK(s.status.link.connected);
  CHECK(s.status.lifecycle == praxis::LifecycleStage::in_control);
  CHECK(s.status.assumed_mode == RobotMode::unknown);
  CHECK(s.status.sequence == 11u);  // one status per period, 0 to 200 ms
}

TEST_CASE("modal robot: a mode change is called once and assumed at once and reported after the confirm delay",
          "[control][modal_robot]") {
  Sim s;
  s.robot.post(asking(RobotMode::prepare));
  s.at(0ms);
  REQUIRE(s.robot.calls().size() == 1);
  CHECK(s.robot.calls()[0].call == RobotCall::change_mode);
  CHECK(s.robot.calls()[0].mode == RobotMode::prepare);
  CHECK(s.robot.calls()[0].time == t0);
  CHECK(s.status.assumed_mode == RobotMode::prepare);
  CHECK(s.status.reported_mode == RobotMode::unknown);
  CHECK(s.status.requests_in_flight == 1u);
  CHECK(s.status.last_request.outcome == praxis::RequestOutcome::pending);

  s.at(80ms);  // within the confirm delay
  CHECK(s.status.reported_mode == RobotMode::unknown);
  s.at(100ms);
  CHECK(s.status.reported_mode == RobotMode::prepare);
  CHECK(s.status.requests_in_flight == 0u);
  CHECK(s.status.last_request.outcome == praxis::RequestOutcome::ok);
  CHECK(s.status.last_request.finished == t0 + 100ms);
  // The same mode asked for again, every period: no further call.
  s.at(300ms);
  CHECK(s.count(RobotCall::change_mode) == 1);

  s.robot.post(asking(RobotMode::damping));
  s.at(320ms);
  CHECK(s.count(RobotCall::change_mode) == 2);
  CHECK(s.robot.calls().back().mode == RobotMode::damping);
  CHECK(s.status.assumed_mode == RobotMode::damping);
  CHECK(s.status.reported_mode == RobotMode::prepare);  // not yet confirmed
}

TEST_CASE("modal robot: a get-up is called in the prepare mode only and once per new value and then reported finished",
          "[control][modal_robot]") {
  Sim s;
  auto r = asking(RobotMode::damping);
  r.get_up = 1;
  s.robot.post(r);
  s.at(100ms);
  CHECK(s.count(RobotCall::get_up) == 0);  // not in damping

  r.mode = RobotMode::prepare;  // the same value, now in prepare: acted on once
  s.robot.post(r);
  s.at(120ms);
  REQUIRE(s.count(RobotCall::get_up) == 1);
  CHECK(s.robot.calls().back().call == RobotCall::get_up);
  CHECK(s.robot.calls().back().time == t0 + 120ms);
  s.at(300ms);
  CHECK(s.status.get_ups_completed == 0u);  // 180 ms into a 200 ms get-up
  s.at(320ms);
  CHECK(s.status.get_ups_completed == 1u);
  s.at(600ms);
  CHECK(s.count(RobotCall::get_up) == 1);  // the same value is not repeated
  CHECK(s.status.get_ups_completed == 1u);

  r.get_up = 2;
  s.robot.post(r);
  s.at(620ms);
  CHECK(s.count(RobotCall::get_up) == 2);
}

TEST_CASE("modal robot: in locomotion move is called every period (zero when not walking) and the head only when asked",
          "[control][modal_robot]") {
  Sim s;
  auto r = asking(RobotMode::locomotion);
  r.locomotion = {true, 0.3, -0.1, 0.2};
  s.robot.post(r);
  s.at(100ms);  // periods at 0, 20, ..., 100 ms
  CHECK(s.count(RobotCall::move) == 6);
  CHECK(s.count(RobotCall::rotate_head) == 0);
  const auto last = s.robot.calls().back();
  CHECK(last.call == RobotCall::move);
  CHECK(last.a == 0.3);
  CHECK(last.b == -0.1);
  CHECK(last.c == 0.2);

  r.locomotion.active = false;  // standing: the velocity is not passed on
  r.head = {true, 0.4, 0.1};
  s.robot.post(r);
  s.at(120ms);
  std::vector<praxis::mock::RecordedCall> at_120;
  for (const auto& c : s.robot.calls()) {
    if (c.time == t0 + 120ms) at_120.push_back(c);
  }
  REQUIRE(at_120.size() == 2);
  CHECK(at_120[0].call == RobotCall::move);
  CHECK(at_120[0].a == 0.0);
  CHECK(at_120[0].b == 0.0);
  CHECK(at_120[0].c == 0.0);
  CHECK(at_120[1].call == RobotCall::rotate_head);
  CHECK(at_120[1].a == 0.4);
  CHECK(at_120[1].b == 0.1);

  // Out of locomotion: neither move nor head.
  r.mode = RobotMode::prepare;
  s.robot.post(r);
  const auto moves = s.count(RobotCall::move);
  s.at(200ms);
  CHECK(s.count(RobotCall::move) == moves);
  CHECK(s.count(RobotCall::rotate_head) == 1);
}

TEST_CASE("modal robot: once the safe mode is posted it is served alone whatever is posted after",
          "[control][modal_robot]") {
  Sim s;
  auto walk = asking(RobotMode::locomotion);
  walk.locomotion = {true, 0.5, 0.0, 0.0};
  s.robot.post(walk);
  s.at(40ms);
  const auto moves = s.count(RobotCall::move);
  REQUIRE(moves == 3);
  s.robot.post_safe_mode(RobotMode::damping);
  s.robot.post(walk);
  s.at(200ms);
  CHECK(s.count(RobotCall::move) == moves);
  CHECK(s.status.assumed_mode == RobotMode::damping);
  CHECK(s.robot.calls().back().call == RobotCall::change_mode);
  CHECK(s.robot.calls().back().mode == RobotMode::damping);
  CHECK(s.robot.calls().back().time == t0 + 60ms);
  CHECK(s.status.reported_mode == RobotMode::damping);  // confirmed by 160 ms
}

TEST_CASE("modal robot: joint commands drive the mock's physics", "[control][modal_robot]") {
  Sim s;
  praxis::JointCommand<Go2::joint_count> c;
  for (std::size_t j = 0; j < Go2::joint_count; ++j) {
    c.q[static_cast<Eigen::Index>(j)] = Go2::stand_pose[j];
    c.kp[static_cast<Eigen::Index>(j)] = 60.0;
    c.kd[static_cast<Eigen::Index>(j)] = 2.0;
  }
  s.robot.write(c, t0);
  REQUIRE(s.robot.physics().commands_received() == 1);
  for (auto t = 2ms; t <= 2s; t += 2ms) {
    s.robot.write(c, t0 + t);
    s.robot.read(s.state, t0 + t);
  }
  CHECK(s.state.q[1] == Approx(Go2::stand_pose[1]).margin(0.05));
  CHECK(s.robot.calls().empty());  // joint commands are no requests
}

}  // namespace modal_robot_unit_test
