// run(): receive, control and send threads in real time against the mock. Built twice: in the
// normal suite (with allocation counting) and under ThreadSanitizer (tests/CMakeLists.txt).
//
// Gamepad scripts and faults are laid out when the control loop starts (LoopScriptedRobot, armed
// from the control thread's start hook), not when the test sets up: under load, set-up and thread
// start can take longer than a script's first steps.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include <sys/resource.h>

#include "../support/sanitized.hpp"
#include "loop_scripted_robot.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

#ifdef PRAXIS_COUNT_ALLOCATIONS
#include "../support/alloc_counter.hpp"
#endif
#include "../support/scratch_dir.hpp"

namespace controller_threads_test {

using namespace std::chrono_literals;

// Sanitizers fault in shadow memory of their own; page-fault counts mean nothing under them
// (PRAXIS_TEST_SANITIZED, support/sanitized.hpp).

namespace {
template <class Model>
struct WaveController {
  static constexpr std::size_t N = Model::joint_count;
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double t = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { t = 0; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    t += dt;
    jpos_des = init_pos;
    jpos_des[15] += 0.2 * std::sin(6.0 * t);
  }
  std::array<float, 1> log() const { return {static_cast<float>(t)}; }
};

using Mock = praxis::mock::MockRobot<praxis::unitree::G1>;
using ScriptedRobot = praxis::test::LoopScriptedRobot<Mock>;

// Options whose control-thread start hook starts the robot's script.
praxis::control::ControllerOptions scripted_options(ScriptedRobot& robot) {
  praxis::control::ControllerOptions options;
  options.print = false;
  options.on_thread_start = [&robot](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) robot.arm();
  };
  return options;
}
}  // namespace

TEST_CASE("run() stands the robot up and controls it with three threads", "[control][threads]") {
  using Model = praxis::unitree::G1;
  Mock mock(praxis::mock::MockOptions{}, praxis::Clock::now());
  ScriptedRobot robot(mock, [](Mock& m, praxis::TimePoint loop_start) {
    m.hold(praxis::GamepadButton::R2, loop_start + 100ms, 700ms);
    m.tap(praxis::GamepadButton::A, loop_start + 1000ms, 200ms);  // long enough to survive a starved cycle
  });

  std::atomic<int> threads_started{0};
#ifdef PRAXIS_COUNT_ALLOCATIONS
  std::uint64_t control_allocations_at_start = 0, control_allocations_at_exit = 0;
#endif
  praxis::control::ControllerOptions options;
  options.print = false;
  options.on_thread_start = [&](praxis::control::ThreadRole role) {
    ++threads_started;
    if (role == praxis::control::ThreadRole::control) robot.arm();
#ifdef PRAXIS_COUNT_ALLOCATIONS
    if (role == praxis::control::ThreadRole::control) control_allocations_at_start = praxis::test::thread_allocation_count();
#endif
  };
  options.on_thread_exit = [&](praxis::control::ThreadRole role) {
#ifdef PRAXIS_COUNT_ALLOCATIONS
    if (role == praxis::control::ThreadRole::control) control_allocations_at_exit = praxis::test::thread_allocation_count();
#else
    (void)role;
#endif
  };

  praxis::control::RobotController<decltype(robot), WaveController<Model>> controller(robot, options);
  (void)controller.run_for(3s);

  controller.flush();
  std::string transitions;
  for (const auto& t : controller.transitions()) {
    transitions += std::to_string(t.time) + " s: " + std::string(praxis::motion::to_string(t.from)) + " -> " +
                   std::string(praxis::motion::to_string(t.to)) + " (cause " + std::to_string(static_cast<int>(t.cause)) +
                   ", ratio " + std::to_string(t.gain_ratio) + ")\n";
  }
  INFO("transitions:\n" << transitions << "overruns " << controller.overruns() << ", stalls "
                         << controller.command_stalls());
  CHECK(threads_started == 3);
  CHECK(controller.state() == praxis::control::ControlState::ctrl);
  // About 1500 cycles at 2 ms; a loaded machine may miss a few deadlines but not most of them.
  CHECK(controller.cycles() > 1000);
  CHECK(controller.cycles() <= 1501);
  CHECK(mock.commands_received() > 500);
  CHECK(mock.non_finite_commands() == 0);
  CHECK(mock.q()[3] == Approx(Model::stand_pose[3]).margin(0.01));
#ifdef PRAXIS_COUNT_ALLOCATIONS
  CHECK(control_allocations_at_exit == control_allocations_at_start);
#endif
  controller.flush();
  CHECK(controller.transitions().size() == 2);
}

TEST_CASE("killing the state stream in run() falls back to damping", "[control][threads]") {
  using Model = praxis::unitree::G1;
  Mock mock(praxis::mock::MockOptions{}, praxis::Clock::now());
  ScriptedRobot robot(mock, [](Mock& m, praxis::TimePoint loop_start) {
    m.hold(praxis::GamepadButton::R2, loop_start + 100ms, 700ms);
    m.drop_states(loop_start + 1200ms, loop_start + 10s);
  });
  praxis::control::RobotController<ScriptedRobot, WaveController<Model>> controller(robot, scripted_options(robot));
  (void)controller.run_for(1600ms);
  CHECK(controller.state() == praxis::control::ControlState::damping);
  CHECK(controller.safety().stale);
}

namespace {
// Blocks the control thread once for 60 ms (30 periods), as a controller doing something it should
// not, once.
template <class Model>
struct StallOnce : WaveController<Model> {
  int calls = 0;
  void calculate() {
    WaveController<Model>::calculate();
    if (++calls == 100) std::this_thread::sleep_for(std::chrono::milliseconds(60));
  }
};
}  // namespace

TEST_CASE("after a stall, missed control deadlines are skipped and counted, not run back to back",
          "[control][threads]") {
  using Model = praxis::unitree::G1;
  Mock mock(praxis::mock::MockOptions{}, praxis::Clock::now());
  ScriptedRobot robot(mock, [](Mock& m, praxis::TimePoint loop_start) {
    m.hold(praxis::GamepadButton::R2, loop_start + 50ms, 1500ms);
  });
  praxis::control::RobotController<ScriptedRobot, StallOnce<Model>> controller(robot, scripted_options(robot));
  const auto outcome = controller.run_for(2s);
  CHECK(controller.user().calls >= 100);
  CHECK(controller.overruns() >= 25);  // about 29 periods fell inside the stall
  INFO(outcome.summary());
  CHECK(outcome.rode_out.freezes >= 1);
  CHECK(outcome.rode_out.longest_freeze_ms >= 50.0);  // 60 ms blocked
  CHECK(controller.cycles() + controller.overruns() <= 1001);
}

TEST_CASE("a stop requested before run() reaches its loop ends that run at once, and only that run",
          "[control][threads]") {
  using Model = praxis::unitree::G1;
  const auto start = praxis::Clock::now();
  praxis::mock::MockRobot<Model> robot(praxis::mock::MockOptions{}, start);
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<decltype(robot), WaveController<Model>> controller(robot, options);
  controller.request_stop();  // e.g. Ctrl-C while the program was still starting
  const auto t0 = praxis::Clock::now();
  (void)controller.run_for(5s);
  CHECK(praxis::Clock::now() - t0 < 1s);
  CHECK(controller.cycles() == 0);
  CHECK(robot.commands_received() == 0);
  // The request was consumed: the next run runs. Its start-up (the reporter, written through once)
  // counts towards its duration and takes long under ThreadSanitizer on a loaded machine, hence
  // 1 s for about 500 cycles.
  (void)controller.run_for(1s);
  CHECK(controller.cycles() > 20);
}

TEST_CASE("every run ends with damping on the joints it commanded", "[control][threads]") {
  using Model = praxis::unitree::G1;
  Mock mock(praxis::mock::MockOptions{}, praxis::Clock::now());
  ScriptedRobot robot(mock, [](Mock& m, praxis::TimePoint loop_start) {
    m.hold(praxis::GamepadButton::R2, loop_start + 50ms, 5s);
  });
  auto options = scripted_options(robot);
  options.damping_kd = 3.0;
  praxis::control::RobotController<ScriptedRobot, WaveController<Model>> controller(robot, options);
  (void)controller.run_for(600ms);
  REQUIRE(controller.state() == praxis::control::ControlState::stand);  // stiff when the run ended
  REQUIRE(controller.final_command().has_value());
  const auto& last = mock.last_command().command;
  CHECK(last.kp.maxCoeff() == 0.0);
  CHECK(last.kd.minCoeff() == 3.0);
  CHECK(last.kd.maxCoeff() == 3.0);
  CHECK(last.q[3] == Approx(controller.last_state().q[3]));  // held where the joint was
}

TEST_CASE("the reporter's queues are touched before the loop: no page faults in the cycles that feed them",
          "[control][threads][realtime]") {
  using Model = praxis::unitree::G1;
  praxis::mock::MockRobot<Model> robot;
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 100ms, 5s);
  praxis::control::ControllerOptions options;
  options.print = false;
  const praxis::test::ScratchDir scratch("prefault");
  options.cycle_log = scratch / "cycles.csv";
  praxis::control::RobotController<decltype(robot), WaveController<Model>> controller(robot, options);
  praxis::TimePoint now{};
  for (int i = 0; i < 200; ++i) controller.step(now += 2ms);  // start-up, first cycles
  auto minor_faults = [] {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
  };
  const auto before = minor_faults();
  for (int i = 0; i < 1500; ++i) controller.step(now += 2ms);  // 1500 CSV records, transitions, stats
  const auto faults = minor_faults() - before;
  INFO("minor page faults on the control thread over 1500 cycles: " << faults);
#if PRAXIS_TEST_SANITIZED
  (void)faults;  // sanitizers fault in shadow memory of their own: the count means nothing there
#else
  CHECK(faults < 20);  // 657 before the queues were pre-faulted
#endif
  controller.flush();
}

#undef PRAXIS_TEST_SANITIZED

}  // namespace controller_threads_test
