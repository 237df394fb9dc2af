// What run() does on its own faults: a stalled control thread (the send side damps instead of
// re-sending a stale command), an exception from user code or a hook on any thread (damping, threads
// joined, control handed back, the exception rethrown to run()'s caller), a second run (starts from
// damping with fresh mailboxes) and the destructor (stops a run on another thread, damps after
// step()). Built in the normal suite and under ThreadSanitizer (tests/CMakeLists.txt).
//
// Gamepad scripts start when the control loop starts (LoopScriptedRobot), and every fault is placed
// at a known point of the user's controller (the n-th calculate() after its k-th reset), so nothing
// here depends on how fast the machine is.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include "loop_scripted_robot.hpp"
#include "probe_controller.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace runtime_faults_test {

using namespace std::chrono_literals;

namespace {

using Model = praxis::unitree::G1;
using Mock = praxis::mock::MockRobot<Model>;
using Robot = praxis::test::LoopScriptedRobot<Mock>;
constexpr std::size_t N = Model::joint_count;
constexpr double k_ctrl_kp = praxis::test::k_probe_kp;

using praxis::test::Probe;
using ProbeController = praxis::test::ProbeController<Model>;
ProbeController probing(Probe& probe) { return praxis::test::probing<Model>(probe); }

using Controller = praxis::control::RobotController<Robot, ProbeController>;

// DAMPING -> STAND -> CTRL (probe_controller.hpp).
void stand_then_ctrl(Mock& mock, praxis::TimePoint origin) { praxis::test::stand_then_ctrl(mock, origin); }
void stand_only(Mock& mock, praxis::TimePoint origin) { mock.hold(praxis::GamepadButton::R2, origin + 50ms, 20s); }

praxis::control::ControllerOptions options_for(Robot& robot) {
  praxis::control::ControllerOptions o;
  o.print = false;
  o.on_thread_start = [&robot](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) robot.arm();
  };
  return o;
}

// Damping on every joint: no stiffness, the run's damping kd, position mode.
bool is_damping(const praxis::JointCommand<N>& c, double kd) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.mode[j] != praxis::JointMode::position || c.kp[j] != 0.0 || c.kd[j] != kd) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a stalled control thread: the send thread holds the last command, then damps, counts the stall, and resumes",
          "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_then_ctrl);
  Probe probe;
  auto options = options_for(robot);
  Controller controller(robot, options, probing(probe));
  const auto timeout = controller.command_timeout(controller.period());
  CHECK(timeout == 20ms);  // 5 periods of 2 ms would be 10 ms: the 20 ms floor
  const auto stall_timeout = controller.stall_timeout(controller.period());
  CHECK(stall_timeout == 100ms);  // the default

  praxis::TimePoint stall_begin{}, stall_end{};
  probe.on_calculate = [&](int resets, int calls) {
    if (resets != 2) return;  // only in CTRL
    if (calls == 50) {
      stall_begin = praxis::Clock::now();
      std::this_thread::sleep_for(300ms);  // the controller blocks, once
      stall_end = praxis::Clock::now();
    }
    if (calls == 150) controller.request_stop();
  };
  const auto outcome = controller.run_for(20s);
  REQUIRE(stall_end > stall_begin);
  // A robot praxis owns rides the stall out in damping and comes back: the run went on to its stop.
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK(outcome.ok());

  CHECK(controller.command_stalls() >= 1);
  CHECK(controller.held_sends() >= 1);
  CHECK(controller.stalled_sends() >= 1);
  // The outcome counts what the run rode out: the stall (damped), as the send thread saw it, and
  // the freeze of the control loop, whose deadlines were skipped. exit_code() stays 0.
  INFO(outcome.summary());
  CHECK(outcome.rode_out.stalls >= 1);
  CHECK(outcome.rode_out.stalls_damped >= 1);
  CHECK(outcome.rode_out.longest_stall_ms >= 250.0);  // the controller blocked 300 ms
  CHECK(outcome.rode_out.freezes >= 1);
  CHECK(outcome.rode_out.longest_freeze_ms >= 250.0);
  CHECK(outcome.summary().find("; rode out ") != std::string::npos);
  CHECK(outcome.exit_code() == 0);
  const auto log = mock.command_log();
  int held = 0, damped = 0, resumed = 0;
  // The newest command when the stall began was computed up to a period before stall_begin; 10 ms
  // either side of each limit leaves the send thread's own lateness out of the count.
  for (const auto& entry : log) {
    if (entry.time > stall_begin + timeout + 10ms && entry.time < stall_begin + stall_timeout - 10ms) {
      // Held: CTRL's command as it was (kp 60), not damping.
      INFO("sent " << praxis::to_seconds(entry.time - stall_begin) * 1e3 << " ms into the stall");
      CHECK(entry.command.kp.maxCoeff() == k_ctrl_kp);
      CHECK_FALSE(is_damping(entry.command, options.damping_kd));
      ++held;
    }
    if (entry.time > stall_begin + stall_timeout + 10ms && entry.time < stall_end) {
      INFO("sent " << praxis::to_seconds(entry.time - stall_begin) * 1e3 << " ms into the stall");
      CHECK(is_damping(entry.command, options.damping_kd));
      CHECK(entry.command.q[3] == Approx(Model::stand_pose[3]).margin(0.05));  // damped where it stood
      ++damped;
    }
    if (entry.time > stall_end && entry.command.kp.maxCoeff() == k_ctrl_kp) ++resumed;
  }
  CHECK(held > 0);
  CHECK(damped > 0);
  CHECK(resumed > 0);  // fresh CTRL commands were sent again after the stall

  controller.flush();
  const auto events = controller.stall_events();
  bool began = false, safe = false, ended = false;
  for (const auto& e : events) {
    if (e.stalled && !e.safe && e.command_age > 0.005) began = true;
    if (e.stalled && e.safe && began) safe = true;
    if (!e.stalled && safe && e.damped_sends > 0 && e.held_sends > 0) ended = true;
  }
  CHECK(began);
  CHECK(safe);
  CHECK(ended);
}

TEST_CASE("a short stall is held through: no damping frame reaches the robot",
          "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());
  Robot robot(mock, stand_then_ctrl);
  Probe probe;
  auto options = options_for(robot);
  options.stall_timeout = 1s;  // far beyond the 40 ms stall below, also on a loaded machine under TSan
  Controller controller(robot, options, probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets != 2) return;
    if (calls == 50) std::this_thread::sleep_for(40ms);  // twice the command timeout
    if (calls == 150) controller.request_stop();
  };
  const auto outcome = controller.run_for(20s);
  CHECK(outcome.ok());
  CHECK(controller.command_stalls() >= 1);
  CHECK(controller.held_sends() >= 1);
  CHECK(controller.stalled_sends() == 0);
  INFO(outcome.summary());
  CHECK(outcome.rode_out.stalls >= 1);
  CHECK(outcome.rode_out.stalls_damped == 0);  // held through, never damped
  CHECK(outcome.rode_out.longest_stall_ms >= 30.0);  // 40 ms blocked
  // Once in CTRL, every frame until the run's last was CTRL's (kp 60): the stall never went soft.
  const auto log = mock.command_log();
  bool in_ctrl = false;
  int soft = 0;
  for (std::size_t i = 0; i + 1 < log.size(); ++i) {
    if (log[i].command.kp.maxCoeff() == k_ctrl_kp) in_ctrl = true;
    if (in_ctrl && log[i].command.kp.maxCoeff() != k_ctrl_kp) ++soft;
  }
  CHECK(in_ctrl);
  CHECK(soft == 0);
}

TEST_CASE("an exception in USER_CTRL's calculate() in CTRL reaches run()'s caller after damping",
          "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_then_ctrl);
  Probe probe;
  auto options = options_for(robot);
  options.damping_kd = 3.0;
  Controller controller(robot, options, probing(probe));
  bool thrown = false;
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 20 && !thrown) {
      thrown = true;
      throw std::runtime_error("calculate() failed on purpose in CTRL");
    }
  };
  REQUIRE_THROWS_WITH(controller.run_for(20s), "calculate() failed on purpose in CTRL");
  REQUIRE(thrown);
  REQUIRE(mock.commands_received() > 0);
  CHECK(is_damping(mock.last_command().command, 3.0));
  REQUIRE(controller.final_command().has_value());
  CHECK(is_damping(*controller.final_command(), 3.0));

  // The runtime is usable again: the next run starts in damping and ends normally.
  const auto before = mock.commands_received();
  CHECK_NOTHROW(controller.run_for(300ms));
  REQUIRE(mock.commands_received() > before + 1);
  CHECK(is_damping(mock.command_log()[before].command, 3.0));
  CHECK(is_damping(mock.last_command().command, 3.0));
}

TEST_CASE("an exception from user code in a state-triggered run reaches the caller after damping",
          "[control][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_only);
  Probe probe;
  auto options = options_for(robot);
  options.trigger = praxis::control::Trigger::state;
  Controller controller(robot, options, probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 1 && calls == 100) throw std::runtime_error("calculate() failed on purpose in STAND");
  };
  REQUIRE_THROWS_WITH(controller.run_for(20s), "calculate() failed on purpose in STAND");
  const auto log = mock.command_log();
  REQUIRE(log.size() > 2);
  CHECK(log[log.size() - 2].command.kp.maxCoeff() > 0.0);  // it was standing, stiff
  CHECK(is_damping(log.back().command, options.damping_kd));
}

TEST_CASE("an exception from a thread hook stops the run, damps, and reaches the caller", "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_only);
  Probe probe;
  auto options = options_for(robot);
  std::atomic<int> failures{0};
  options.on_thread_exit = [&](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::send && failures.fetch_add(1) == 0) {
      throw std::runtime_error("the send thread's exit hook failed");
    }
  };
  Controller controller(robot, options, probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 1 && calls == 100) controller.request_stop();  // standing, stiff
  };
  REQUIRE_THROWS_WITH(controller.run_for(20s), "the send thread's exit hook failed");
  REQUIRE(probe.resets == 1);
  CHECK(is_damping(mock.last_command().command, options.damping_kd));
  // Reusable: the hook fails only once.
  CHECK_NOTHROW(controller.run_for(100ms));
}

TEST_CASE("a second run starts in damping and re-enters CTRL only through STAND, resetting USER_CTRL",
          "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_then_ctrl);
  Probe probe;
  auto options = options_for(robot);
  Controller controller(robot, options, probing(probe));
  int stop_after_resets = 2;
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == stop_after_resets && calls == 50) controller.request_stop();  // 50 cycles into CTRL
  };
  (void)controller.run_for(20s);
  REQUIRE(probe.resets == 2);
  REQUIRE(controller.state() == praxis::control::ControlState::ctrl);
  const auto first_run = mock.commands_received();

  stop_after_resets = 4;
  (void)controller.run_for(20s);
  CHECK(robot.scripted() == 2);
  // The second run's first command is damping, not the first run's CTRL command.
  REQUIRE(mock.commands_received() > first_run);
  CHECK(is_damping(mock.command_log()[first_run].command, options.damping_kd));
  // CTRL was re-entered the normal way: STAND (reset #3), then CTRL (reset #4).
  CHECK(probe.resets == 4);
  CHECK(controller.state() == praxis::control::ControlState::ctrl);
}

TEST_CASE("destroying a controller while run() runs on another thread stops the run and damps",
          "[control][threads][faults]") {
  Mock mock({}, praxis::Clock::now());  // simulated time = the real clock
  Robot robot(mock, stand_only);
  Probe probe;
  auto options = options_for(robot);
  std::atomic<bool> standing{false};
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 1 && calls == 50) standing.store(true);
  };
  auto controller = std::make_unique<Controller>(robot, options, probing(probe));
  std::atomic<bool> threw{false};
  std::thread runner([&] {
    try {
      (void)controller->run();  // no end of its own
    } catch (...) {
      threw = true;
    }
  });
  for (int i = 0; i < 20000 && !standing; ++i) std::this_thread::sleep_for(1ms);
  REQUIRE(standing);
  controller.reset();  // while run() runs; returns once run() let go of the controller
  runner.join();
  CHECK_FALSE(threw);
  const auto log = mock.command_log();
  REQUIRE(log.size() > 2);
  CHECK(log[log.size() - 2].command.kp.maxCoeff() > 0.0);  // stiff until the end
  CHECK(is_damping(log.back().command, options.damping_kd));
}

TEST_CASE("destroying a controller after step()-driven use sends damping once", "[control][faults]") {
  Mock mock;
  Robot robot(mock, stand_only);
  robot.arm();  // the script starts with the first step
  Probe probe;
  auto options = options_for(robot);
  options.damping_kd = 2.5;
  praxis::TimePoint now{};
  {
    Controller controller(robot, options, probing(probe));
    for (int i = 0; i < 200; ++i) controller.step(now += 2ms);
    REQUIRE(controller.state() == praxis::control::ControlState::stand);
    REQUIRE(mock.last_command().command.kp.maxCoeff() > 0.0);
  }
  const auto log = mock.command_log();
  REQUIRE(log.size() == 201);  // 200 cycles, then damping once
  CHECK(is_damping(log.back().command, 2.5));
  CHECK(log.back().command.q[3] == Approx(mock.q()[3]).margin(0.01));
}

TEST_CASE("guard events are printed once a second per kind, with the count of those left out", "[control][faults]") {
  using praxis::control::GuardEvent;
  using praxis::control::GuardThrottle;
  GuardThrottle throttle;
  std::uint64_t left_out = 99;
  const auto clamp_at = [](double t) { return GuardEvent{t, 0, false, 2, 0}; };
  // A joint past its limit every 2 ms for 2.5 s: the first event, then one per second.
  int printed = 0;
  std::uint64_t reported = 0;
  for (int k = 0; k <= 1250; ++k) {
    if (throttle.admit(clamp_at(k / 500.0), left_out)) {
      ++printed;
      reported += left_out;
    }
  }
  CHECK(printed == 3);                      // t = 0, 1.0, 2.0
  CHECK(reported == 2 * 499);               // the events between the printed ones, counted
  CHECK(throttle.pending(GuardThrottle::clamped) == 1250 - 1000);
  // Another kind is not held back by the clamps, and a non-finite command is its own kind.
  CHECK(throttle.admit(GuardEvent{2.5, 0, true, 0, 0}, left_out));
  CHECK(left_out == 0);
  CHECK(throttle.admit(GuardEvent{2.5, 0, false, 0, 3}, left_out));
  CHECK_FALSE(throttle.admit(GuardEvent{2.6, 0, true, 0, 0}, left_out));
  CHECK(throttle.pending(GuardThrottle::non_finite) == 1);
}

}  // namespace runtime_faults_test
