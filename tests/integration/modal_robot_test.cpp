// A robot with a controller of its own, reached through an I/O worker off the control thread
// (mock::ModalRobot over RequestWorker): the cycle only posts requests; the worker calls the
// robot at its own rate and reports back. Real threads, real time; assertions leave room for a
// busy machine.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <string_view>
#include <thread>
#include <vector>

#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace modal_robot_test {

using namespace std::chrono_literals;
namespace m = praxis::motion;
using G1 = praxis::unitree::G1;
using Robot = praxis::mock::ModalRobot<G1>;
using praxis::mock::RobotCall;

static_assert(praxis::HasModes<Robot> && praxis::HasLocomotion<Robot> && praxis::ReportsStatus<Robot>);

// A behaviour that follows a timetable from the first cycle: nothing, prepare, stand up, stand, walk.
struct ModalTimetable {
  static constexpr std::string_view name = "timetable";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<m::MotionCommandPort>;
  praxis::TimePoint start{};
  bool started = false;
  void cycle(const praxis::CycleInfo& info, m::MotionCommand& out) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = praxis::to_seconds(info.now - start);
    if (t < 0.3) {
      out = m::command::Unset{};
    } else if (t < 0.6) {
      out = m::command::Prepare{};
    } else if (t < 1.0) {
      out = m::command::StandUp{};
    } else if (t < 1.4) {
      out = m::command::Stand{};
    } else {
      m::command::WalkWithVelocity w;
      w.velocity = {0.3, 0.0};
      w.angular_velocity = 0.1;
      out = w;
    }
  }
};

TEST_CASE("requests reach a modal robot through its I/O worker, at its rate, only after the first command",
          "[control][modal][threads]") {
  Robot robot({}, praxis::Clock::now());  // the mock's clock is the real one here
  praxis::script::ScriptLibrary<G1> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  // This test is about requests; on a loaded machine a receive thread can starve past 100 ms.
  options.safety.stale_timeout = 500ms;
  praxis::control::MotionController<Robot, ModalTimetable> controller(robot, library, options);
  const auto begin = praxis::Clock::now();
  (void)controller.run_for(1800ms);
  std::this_thread::sleep_for(100ms);  // the worker's next periods: the run's closing damping request
  robot.stop_worker();
  const auto calls = robot.calls();
  controller.flush();

  REQUIRE(!calls.empty());
  // Nothing before the behaviour's first command (0.3 s into the run).
  CHECK(praxis::to_seconds(calls.front().time - begin) > 0.25);
  // One change_mode per change of the wanted mode: prepare (for prepare and stand-up alike), then
  // locomotion (stand and walk alike).
  for (const auto& e : controller.transitions()) {
    UNSCOPED_INFO(e.time << " s: " << to_string(e.from) << " -> " << to_string(e.to) << " (" << to_string(e.cause) << ")");
  }
  std::vector<praxis::RobotMode> modes;
  for (const auto& c : calls) {
    if (c.call == RobotCall::change_mode) modes.push_back(c.mode);
  }
  // The run ends by asking for the robot's damping.
  CHECK(modes == std::vector<praxis::RobotMode>{praxis::RobotMode::prepare, praxis::RobotMode::locomotion,
                                                praxis::RobotMode::damping});
  // One get_up, on entering stand-up.
  CHECK(std::count_if(calls.begin(), calls.end(), [](const auto& c) { return c.call == RobotCall::get_up; }) == 1);
  // move every 20 ms while locomotion is assumed: zero while standing, the velocity while walking.
  int standing = 0, walking = 0;
  for (const auto& c : calls) {
    if (c.call != RobotCall::move) continue;
    if (c.a == 0.0 && c.b == 0.0 && c.c == 0.0) ++standing;
    if (c.a == Approx(0.3) && c.c == Approx(0.1)) ++walking;
  }
  INFO("moves standing " << standing << ", walking " << walking);
  CHECK(standing >= 5);   // ~0.4 s at 50 Hz = 20, on a quiet machine
  CHECK(standing <= 25);
  CHECK(walking >= 5);    // ~0.4 s
  CHECK(walking <= 25);
  // The status came back into the cycle: the robot reported the locomotion mode it was asked for.
  CHECK(controller.status().assumed_mode == praxis::RobotMode::locomotion);
  CHECK(controller.status().reported_mode == praxis::RobotMode::locomotion);
  CHECK(controller.selection().current == m::MotionType::walk);
  // and the reporter logged the mode changes and their completion.
  const auto events = controller.status_events();
  CHECK(std::any_of(events.begin(), events.end(), [](const auto& e) {
    return e.status.reported_mode == praxis::RobotMode::prepare &&
           e.status.last_request.outcome == praxis::RequestOutcome::ok;
  }));
}

TEST_CASE("a modal robot in simulated time: stand-up waits for the robot to confirm the prepare mode",
          "[control][modal]") {
  praxis::mock::ModalOptions o;
  o.threaded = false;
  o.confirm_delay = 300ms;
  Robot robot(o);
  praxis::script::ScriptLibrary<G1> library;
  praxis::control::MotionOptions options;
  options.print = false;
  praxis::control::MotionController<Robot, praxis::control::CommandInput> controller(robot, library, options);
  praxis::TimePoint now{};
  auto run_until = [&](double s) {
    while (now < praxis::TimePoint{} + praxis::from_seconds(s)) controller.step(now += 2ms);
  };
  run_until(0.1);
  CHECK(robot.calls().empty());  // command::Unset: nothing asked
  controller.behaviour().command = m::command::StandUp{};
  run_until(0.2);
  REQUIRE(controller.selection().current == m::MotionType::stand_up);
  CHECK(controller.requests().mode == praxis::RobotMode::prepare);
  controller.behaviour().command = m::command::Stand{};
  run_until(0.35);
  // Not confirmed yet (300 ms): stand-up may not be left.
  CHECK(controller.selection().current == m::MotionType::stand_up);
  CHECK(controller.status().reported_mode == praxis::RobotMode::unknown);
  run_until(0.6);
  // Confirmed at ~0.42 s: stand runs, locomotion is assumed and not yet reported.
  CHECK(controller.selection().current == m::MotionType::stand);
  CHECK(controller.status().assumed_mode == praxis::RobotMode::locomotion);
  CHECK(controller.status().reported_mode == praxis::RobotMode::prepare);
  CHECK(!controller.status().mode_confirmed());
  run_until(0.9);
  CHECK(controller.status().mode_confirmed());
  CHECK(controller.status().get_ups_completed == 1);
  const auto calls = robot.calls();
  REQUIRE(calls.size() >= 3);
  CHECK(calls[0].call == RobotCall::change_mode);
  CHECK(calls[1].call == RobotCall::get_up);  // in the same period as the change to prepare
  // No joint command while the robot runs its own motions.
  CHECK(controller.actuated().mode[0] == praxis::JointMode::none);
}

}  // namespace modal_robot_test
