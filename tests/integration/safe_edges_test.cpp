// How control ends, per robot kind (docs/safety.md), on mock robots in real
// time: a robot that balances itself (SafeState::hand_back) never gets kp 0 on a joint — not at the
// start, not on a fault, a stall, an exception, a stop or a signal — and is handed back after the
// last command; a fault or a long stall ends its run. A robot praxis owns rides out faults in
// damping. A robot with modes gets the damping mode at the end whether or not a joint command was
// ever written. Every run says how it ended (RunOutcome). Built in the normal suite and under
// ThreadSanitizer.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "loop_scripted_robot.hpp"
#include "probe_controller.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/signals.hpp"
#include "praxis/control/stall_watchdog.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace safe_edges_test {

using namespace std::chrono_literals;

namespace {

using Model = praxis::unitree::G1;
using Mock = praxis::mock::MockRobot<Model>;
using Scripted = praxis::test::LoopScriptedRobot<Mock>;
constexpr std::size_t N = Model::joint_count;
constexpr double k_ctrl_kp = praxis::test::k_probe_kp;

enum class Inject : int { nothing, tilt, knee_offline };

// A mock robot of a given kind with a lifecycle. As a robot that balances itself (hand_back) it has
// the acceptance rule such a robot's owner relies on: it counts every frame that would take the
// stiffness off a joint (kp 0 on a joint in position mode, or a joint disabled), every frame after
// the hand-back began, and when the hand-back came. Its own controller "confirms" the hand-back
// unless told not to. Faults are injected on the thread that advances the mock (inject()).
template <praxis::SafeState Kind>
class KindRobot {
 public:
  using model = Model;
  static constexpr praxis::JointModeSet joint_modes = Mock::joint_modes;
  static constexpr praxis::SafeState safe_state = Kind;

  KindRobot(Mock& mock, Scripted::Script script) : mock_(mock), scripted_(mock, std::move(script)) {}

  void arm() { scripted_.arm(); }
  // From any thread: the fault is applied by the next read().
  void inject(Inject what) { inject_.store(static_cast<int>(what), std::memory_order_release); }
  bool read(praxis::RobotState<N>& s, praxis::TimePoint now) {
    switch (static_cast<Inject>(inject_.exchange(0, std::memory_order_acq_rel))) {
      case Inject::tilt: mock_.tilt(2.5, 0.0, now); break;  // rolled past 90 degrees
      case Inject::knee_offline: mock_.set_joint_offline(3, now); break;
      case Inject::nothing: break;
    }
    return scripted_.read(s, now);
  }
  void write(const praxis::JointCommand<N>& c, praxis::TimePoint now) {
    if (released_.load(std::memory_order_acquire)) {
      after_release_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    for (std::size_t j = 0; j < N; ++j) {
      const bool soft = c.mode[j] == praxis::JointMode::disabled ||
                        (c.mode[j] == praxis::JointMode::position && !(c.kp[static_cast<Eigen::Index>(j)] > 0.0));
      if (soft) {
        limp_frames_.fetch_add(1, std::memory_order_relaxed);
        break;
      }
    }
    std::lock_guard lock(mutex_);
    last_ = c;
    ++frames_;
    scripted_.write(c, now);
  }
  praxis::LifecycleResult acquire(praxis::Duration) {
    released_.store(false, std::memory_order_release);
    return {true, praxis::LifecycleStage::in_control, "hand-back robot: in control"};
  }
  praxis::LifecycleResult release(praxis::Duration) {
    released_.store(true, std::memory_order_release);
    releases_.fetch_add(1, std::memory_order_relaxed);
    if (refuse_release) return {false, praxis::LifecycleStage::failed, "the robot did not confirm within 2000 ms"};
    return {true, praxis::LifecycleStage::released, "the robot's own controller has it back"};
  }

  bool refuse_release = false;
  [[nodiscard]] int limp_frames() const { return limp_frames_.load(); }
  [[nodiscard]] int after_release() const { return after_release_.load(); }
  [[nodiscard]] int releases() const { return releases_.load(); }
  [[nodiscard]] praxis::JointCommand<N> last() {
    std::lock_guard lock(mutex_);
    return last_;
  }
  [[nodiscard]] int frames() {
    std::lock_guard lock(mutex_);
    return frames_;
  }

 private:
  Mock& mock_;
  Scripted scripted_;
  std::atomic<int> inject_{0};
  std::atomic<bool> released_{false};
  std::atomic<int> limp_frames_{0}, after_release_{0}, releases_{0};
  std::mutex mutex_;
  praxis::JointCommand<N> last_{};
  int frames_ = 0;
};

using praxis::test::Probe;
using ProbeController = praxis::test::ProbeController<Model>;
ProbeController probing(Probe& probe) { return praxis::test::probing<Model>(probe); }
void stand_then_ctrl(Mock& mock, praxis::TimePoint origin) { praxis::test::stand_then_ctrl(mock, origin); }

template <class Robot>
praxis::control::ControllerOptions options_for(Robot& robot) {
  praxis::control::ControllerOptions o;
  o.print = false;
  // A hand-back robot's run ends on a lost state and on a long control stall; on a loaded machine
  // (sanitizers, CI) a thread can starve past the 100 ms defaults (seen: a hand-back run ended by a
  // stall in its first second), which is not what these tests are about. The stall test sets its own.
  o.safety.stale_timeout = 500ms;
  o.stall_timeout = 2s;
  o.on_thread_start = [&robot](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) robot.arm();
  };
  return o;
}

using HandBackRobot = KindRobot<praxis::SafeState::hand_back>;
using OwnedRobot = KindRobot<praxis::SafeState::joint_damping>;
using HandBackController = praxis::control::RobotController<HandBackRobot, ProbeController>;
using OwnedController = praxis::control::RobotController<OwnedRobot, ProbeController>;

bool holds_ctrl_gains(const praxis::JointCommand<N>& c) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.mode[j] != praxis::JointMode::position || c.kp[static_cast<Eigen::Index>(j)] != k_ctrl_kp) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("stall watchdog: send, then hold, then safe once per episode: an episode ends with a fresh command",
          "[control][stall]") {
  praxis::control::StallWatchdog w(20ms, 100ms);
  using A = praxis::control::StallWatchdog::Action;
  using E = praxis::control::StallWatchdog::Edge;
  CHECK(w.look(5ms).action == A::send);
  auto l = w.look(25ms);
  CHECK(l.action == A::hold);
  CHECK(l.edge == E::began);
  CHECK(w.look(60ms).action == A::hold);
  l = w.look(101ms);
  CHECK(l.action == A::safe);
  CHECK(l.became_safe);
  l = w.look(150ms);
  CHECK(l.action == A::safe);
  CHECK_FALSE(l.became_safe);
  CHECK(w.held_in_episode() == 2);
  CHECK(w.safe_in_episode() == 2);
  l = w.look(1ms);
  CHECK(l.action == A::send);
  CHECK(l.edge == E::ended);
  CHECK(w.episodes() == 1);
  // A second episode counts afresh and crosses into the safe state again.
  CHECK(w.look(30ms).edge == E::began);
  CHECK(w.look(120ms).became_safe);
  CHECK(w.episodes() == 2);
  CHECK(w.held_in_episode() == 1);
  // A stall timeout below the command timeout means no hold at all.
  praxis::control::StallWatchdog direct(20ms, 5ms);
  CHECK(direct.look(21ms).action == A::safe);
}

TEST_CASE("hand-back robot: a stop in CTRL holds the measured pose with CTRL's gains, then hands back: never kp 0",
          "[control][threads][safe-state]") {
  Mock mock({}, praxis::Clock::now());
  HandBackRobot robot(mock, stand_then_ctrl);
  Probe probe;
  HandBackController controller(robot, options_for(robot), probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 100) controller.request_stop();
  };
  const auto outcome = controller.run_for(20s);
  INFO(outcome.summary());
  CHECK(probe.resets.load() == 2);  // it reached CTRL
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK(outcome.ok());
  CHECK(outcome.safe_state == praxis::SafeState::hand_back);
  CHECK(outcome.hand_back == "the robot's own controller has it back");
  CHECK(robot.frames() > 500);
  CHECK(robot.limp_frames() == 0);   // from the first frame (the damping state) to the last
  CHECK(robot.after_release() == 0);
  CHECK(robot.releases() == 1);
  REQUIRE(controller.final_command().has_value());
  CHECK(holds_ctrl_gains(*controller.final_command()));
  // Held where it stood: the measured pose, which CTRL kept near the stand pose.
  CHECK(controller.final_command()->q[3] == Approx(Model::stand_pose[3]).margin(0.05));
  CHECK(holds_ctrl_gains(robot.last()));
}

TEST_CASE("hand-back robot: a tilt in CTRL ends the run at once with the fault, holding, handed back",
          "[control][threads][safe-state][faults]") {
  Mock mock({}, praxis::Clock::now());
  HandBackRobot robot(mock, stand_then_ctrl);
  Probe probe;
  std::atomic<bool> tilted{false};
  HandBackController controller(robot, options_for(robot), probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 50 && !tilted.exchange(true)) robot.inject(Inject::tilt);
  };
  const auto begin = praxis::Clock::now();
  const auto outcome = controller.run_for(20s);
  const double took = praxis::to_seconds(praxis::Clock::now() - begin);
  INFO(outcome.summary());
  CHECK(tilted.load());
  CHECK(outcome.end == praxis::control::RunEnd::fault);
  CHECK(outcome.cause == "tilt (projected gravity)");
  CHECK_FALSE(outcome.ok());
  CHECK(outcome.exit_code() != 0);
  CHECK(took < 15.0);  // ended by the fault, not by the 20 s duration
  CHECK(robot.limp_frames() == 0);
  CHECK(robot.after_release() == 0);
  CHECK(robot.releases() == 1);
}

TEST_CASE("hand-back robot: a long control stall holds CTRL's command, then the measured pose, and ends the run",
          "[control][threads][safe-state][faults]") {
  // On a loaded machine another stall than the test's may come first and end the run before CTRL
  // (the behaviour under test, but not at the point the test controls): up to three tries until the
  // test's own stall is the one that ended it.
  for (int attempt = 0; attempt < 3; ++attempt) {
    Mock mock({}, praxis::Clock::now());
    HandBackRobot robot(mock, stand_then_ctrl);
    Probe probe;
    auto options = options_for(robot);
    options.stall_timeout = 150ms;
    HandBackController controller(robot, options, probing(probe));
    std::atomic<bool> stalled{false};
    probe.on_calculate = [&](int resets, int calls) {
      if (resets == 2 && calls == 50 && !stalled.exchange(true)) std::this_thread::sleep_for(600ms);
    };
    const auto outcome = controller.run_for(20s);
    INFO(outcome.summary());
    // Whichever stall ended it: held first, then the hold of the measured pose, never limp.
    CHECK(outcome.end == praxis::control::RunEnd::stalled);
    CHECK(outcome.cause.find("stall timeout 150 ms") != std::string::npos);
    CHECK_FALSE(outcome.ok());
    CHECK(controller.stalled_sends() >= 1);
    CHECK(robot.limp_frames() == 0);
    CHECK(robot.after_release() == 0);
    CHECK(robot.releases() == 1);
    REQUIRE(controller.final_command().has_value());
    if (!stalled.load()) continue;
    CHECK(controller.held_sends() >= 1);  // CTRL's command held first
    CHECK(holds_ctrl_gains(*controller.final_command()));
    return;
  }
  FAIL("three runs ended by another stall before the test's own");
}

TEST_CASE("hand-back robot: an exception in USER_CTRL reaches run()'s caller after the hold and the hand-back",
          "[control][threads][safe-state][faults]") {
  Mock mock({}, praxis::Clock::now());
  HandBackRobot robot(mock, stand_then_ctrl);
  Probe probe;
  HandBackController controller(robot, options_for(robot), probing(probe));
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 30) throw std::runtime_error("controller bug");
  };
  CHECK_THROWS_WITH(controller.run_for(20s), "controller bug");
  CHECK(robot.limp_frames() == 0);
  CHECK(robot.after_release() == 0);
  CHECK(robot.releases() == 1);
  REQUIRE(controller.final_command().has_value());
  CHECK(holds_ctrl_gains(*controller.final_command()));
}

TEST_CASE("hand-back robot: a hand-back the robot does not confirm makes the run's outcome fail",
          "[control][threads][safe-state]") {
  Mock mock({}, praxis::Clock::now());
  HandBackRobot robot(mock, nullptr);
  robot.refuse_release = true;
  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = 500ms;
  options.stall_timeout = 2s;
  HandBackController controller(robot, options, [] {
    static Probe probe;
    return probing(probe);
  }());
  const auto outcome = controller.run_for(1s);
  INFO(outcome.summary());
  INFO("cycles " << controller.cycles() << ", overruns " << controller.overruns() << ", no state "
                 << controller.safety().no_state << ", invalid " << controller.safety().invalid << ", covered "
                 << controller.actuated().covers_any());
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK_FALSE(outcome.hand_back_ok);
  CHECK_FALSE(outcome.ok());
  CHECK(outcome.exit_code() == 1);
  CHECK(outcome.summary().find("NOT confirmed") != std::string::npos);
  // Nobody pressed a button: the damping state of a hand-back robot held it, it never went limp.
  CHECK(robot.frames() > 20);
  CHECK(robot.limp_frames() == 0);
}

TEST_CASE("owned robot: a joint going offline in CTRL is damped and named in the outcome: the run goes on",
          "[control][threads][safe-state][faults]") {
  Mock mock({}, praxis::Clock::now());
  OwnedRobot robot(mock, stand_then_ctrl);
  Probe probe;
  OwnedController controller(robot, options_for(robot), probing(probe));
  std::atomic<bool> injected{false};
  std::atomic<int> damping_calls{0};
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 50 && !injected.exchange(true)) robot.inject(Inject::knee_offline);
  };
  // The run goes on in damping after the fault (the gamepad could stand the robot up again); stop
  // it from outside once it is there.
  std::thread stopper([&] {
    const auto until = praxis::Clock::now() + 15s;
    while (praxis::Clock::now() < until && !injected.load()) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(500ms);
    controller.request_stop();
  });
  const auto outcome = controller.run_for(20s);
  stopper.join();
  INFO(outcome.summary());
  CHECK(injected.load());
  CHECK(outcome.end == praxis::control::RunEnd::fault);
  CHECK(outcome.joint == 3);
  CHECK(outcome.cause == "joint fault: " + std::string(Model::joints[3].name) + " (offline)");
  CHECK(outcome.safe_state == praxis::SafeState::joint_damping);
  CHECK(controller.state() == praxis::control::ControlState::damping);
  REQUIRE(controller.final_command().has_value());
  CHECK(controller.final_command()->kp.maxCoeff() == 0.0);  // a robot praxis owns ends damped
  (void)damping_calls;
}

TEST_CASE("Ctrl-C: StopOnSignals ends the run in the safe state and the outcome names the signal",
          "[control][threads][safe-state][signals]") {
  Mock mock({}, praxis::Clock::now());
  OwnedRobot robot(mock, stand_then_ctrl);
  Probe probe;
  OwnedController controller(robot, options_for(robot), probing(probe));
  praxis::control::StopOnSignals stop_on_signals(controller);
  std::atomic<bool> raised{false};
  probe.on_calculate = [&](int resets, int calls) {
    // raise() runs the handler on this thread, inside the cycle: what a signal may interrupt.
    if (resets == 2 && calls == 20 && !raised.exchange(true)) std::raise(SIGINT);
  };
  const auto outcome = controller.run_for(20s);
  INFO(outcome.summary());
  CHECK(raised.load());
  CHECK(outcome.signal == SIGINT);
  CHECK(outcome.ok());
  CHECK(outcome.summary().find("stopped by signal 2") != std::string::npos);
  REQUIRE(controller.final_command().has_value());
  CHECK(controller.final_command()->kp.maxCoeff() == 0.0);
  CHECK(controller.final_command()->kd.minCoeff() > 0.0);
  CHECK(praxis::control::StopOnSignals::received() == 1);
}

TEST_CASE("hand-back robot and SIGTERM: the run ends holding, handed back",
          "[control][threads][safe-state][signals]") {
  Mock mock({}, praxis::Clock::now());
  HandBackRobot robot(mock, stand_then_ctrl);
  Probe probe;
  HandBackController controller(robot, options_for(robot), probing(probe));
  praxis::control::StopOnSignals stop_on_signals(controller);
  std::atomic<bool> raised{false};
  probe.on_calculate = [&](int resets, int calls) {
    if (resets == 2 && calls == 20 && !raised.exchange(true)) std::raise(SIGTERM);
  };
  const auto outcome = controller.run_for(20s);
  INFO(outcome.summary());
  CHECK(outcome.signal == SIGTERM);
  CHECK(outcome.ok());
  CHECK(robot.limp_frames() == 0);
  CHECK(robot.releases() == 1);
}

namespace {
// A behaviour that asks the robot to prepare from its first cycle: no joint command is ever written.
struct PrepareAtOnce {
  static constexpr std::string_view name = "prepare_at_once";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::MotionCommandPort>;
  void cycle(const praxis::CycleInfo&, praxis::motion::MotionCommand& out) { out = praxis::motion::command::Prepare{}; }
};
}  // namespace

TEST_CASE("robot with modes: the run's end requests damping after a behaviour that only asked for prepare",
          "[control][threads][safe-state][modal]") {
  using Robot = praxis::mock::ModalRobot<Model>;
  Robot robot({}, praxis::Clock::now());
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  options.safety.stale_timeout = 500ms;
  praxis::control::MotionController<Robot, PrepareAtOnce> controller(robot, library, options);
  const auto outcome = controller.run_for(600ms);
  std::this_thread::sleep_for(150ms);  // the worker's next periods carry the closing request
  robot.stop_worker();
  INFO(outcome.summary());
  CHECK(outcome.ok());
  CHECK(outcome.safe_state_sent.find("damping mode requested") != std::string::npos);
  std::vector<praxis::RobotMode> modes;
  for (const auto& c : robot.calls()) {
    if (c.call == praxis::mock::RobotCall::change_mode) modes.push_back(c.mode);
  }
  // The closing request is posted because requests were posted, whatever joint commands the first
  // cycles (damping, before the selection reached prepare) wrote or not.
  REQUIRE(!modes.empty());
  CHECK(std::find(modes.begin(), modes.end(), praxis::RobotMode::prepare) != modes.end());
  CHECK(modes.back() == praxis::RobotMode::damping);
}

namespace {
// A robot with modes whose damping mode would drop it (as Fourier's SecurityProtection does): it
// names PdStand (prepare) as the mode to end in, and balances itself (hand back).
class StandingModalRobot : public praxis::mock::ModalRobot<Model> {
 public:
  using praxis::mock::ModalRobot<Model>::ModalRobot;
  static constexpr praxis::SafeState safe_state = praxis::SafeState::hand_back;
  static constexpr praxis::RobotMode safe_mode = praxis::RobotMode::prepare;
};

// Walks from the first cycle.
struct WalkAtOnce {
  static constexpr std::string_view name = "walk_at_once";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::MotionCommandPort>;
  void cycle(const praxis::CycleInfo&, praxis::motion::MotionCommand& out) {
    praxis::motion::command::WalkWithVelocity w;
    w.velocity = {0.2, 0.0};
    out = w;
  }
};
}  // namespace

TEST_CASE("robot whose damping mode drops it: a fault and the run's end ask for its safe mode, never damping",
          "[control][threads][safe-state][modal]") {
  StandingModalRobot robot({}, praxis::Clock::now());
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  options.safety.stale_timeout = 500ms;
  praxis::control::MotionController<StandingModalRobot, WalkAtOnce> controller(robot, library, options);
  // Walking by then: a NaN in the state is a fault, and this robot's run ends on it.
  const auto now = praxis::Clock::now();
  robot.physics().inject_nan(praxis::mock::StateField::q, 0, now + 500ms, now + 700ms);
  const auto outcome = controller.run_for(5s);
  std::this_thread::sleep_for(150ms);
  robot.stop_worker();
  INFO(outcome.summary());
  std::vector<praxis::RobotMode> modes;
  for (const auto& c : robot.calls()) {
    if (c.call == praxis::mock::RobotCall::change_mode) modes.push_back(c.mode);
  }
  CHECK(std::find(modes.begin(), modes.end(), praxis::RobotMode::locomotion) != modes.end());
  CHECK(std::find(modes.begin(), modes.end(), praxis::RobotMode::damping) == modes.end());
  REQUIRE(!modes.empty());
  CHECK(modes.back() == praxis::RobotMode::prepare);
  CHECK(outcome.safe_state_sent.find("prepare mode requested") != std::string::npos);
  CHECK(outcome.end == praxis::control::RunEnd::fault);
  CHECK(outcome.cause == "invalid state (NaN)");
}

namespace {
// Walks from the first cycle; in cycle `stall_at` its control thread stops for `stall_for` (a
// blocked behaviour), and notes when that stall began and ended.
struct WalkThenStall {
  static constexpr std::string_view name = "walk_then_stall";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::MotionCommandPort>;
  int cycles = 0;
  int stall_at = 200;
  praxis::Duration stall_for = std::chrono::seconds(2);
  std::atomic<praxis::Duration::rep> stall_began{0}, stall_ended{0};
  void cycle(const praxis::CycleInfo&, praxis::motion::MotionCommand& out) {
    praxis::motion::command::WalkWithVelocity w;
    w.velocity = {0.2, 0.0};
    out = w;
    if (++cycles == stall_at) {
      stall_began.store(praxis::Clock::now().time_since_epoch().count());
      std::this_thread::sleep_for(stall_for);
      stall_ended.store(praxis::Clock::now().time_since_epoch().count());
    }
  }
};
}  // namespace

TEST_CASE("robot with modes: a control thread stalled while the robot walks gets the safe mode requested during the "
          "stall, not after it", "[control][threads][safe-state][modal][stall]") {
  using Robot = praxis::mock::ModalRobot<Model>;
  static_assert(praxis::OverridesRequests<Robot>);
  Robot robot({}, praxis::Clock::now());
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  options.stall_timeout = 100ms;
  options.safety.stale_timeout = 500ms;
  praxis::control::MotionController<Robot, WalkThenStall> controller(robot, library, options);
  const auto outcome = controller.run_for(10s);
  std::this_thread::sleep_for(150ms);
  robot.stop_worker();
  INFO(outcome.summary());
  CHECK(outcome.end == praxis::control::RunEnd::stalled);
  const auto& b = controller.behaviour();
  const praxis::TimePoint began{praxis::Duration(b.stall_began.load())}, ended{praxis::Duration(b.stall_ended.load())};
  REQUIRE(began != praxis::TimePoint{});
  std::optional<praxis::TimePoint> walking, damping;
  for (const auto& c : robot.calls()) {
    if (c.call != praxis::mock::RobotCall::change_mode) continue;
    if (c.mode == praxis::RobotMode::locomotion && !walking) walking = c.time;
    if (c.mode == praxis::RobotMode::damping && !damping && c.time > began) damping = c.time;
  }
  REQUIRE(walking.has_value());
  CHECK(*walking < began);
  REQUIRE(damping.has_value());
  // stall_timeout (100 ms) plus a worker period or two, well before the thread came back (2 s).
  CHECK(*damping < ended);
  CHECK(*damping - began < 1s);
}

namespace {
// A robot that stands when praxis takes it (as a Booster in Custom after Prepare): it says how to
// hold it, the measured pose with its own gains.
class StandingOwnedRobot : public OwnedRobot {
 public:
  using OwnedRobot::OwnedRobot;
  static constexpr double k_entry_kp = 77.0;
  [[nodiscard]] praxis::JointCommand<N> entry_hold(const praxis::RobotState<N>& s) const {
    praxis::JointCommand<N> c;
    c.q = s.q;
    c.kp.setConstant(k_entry_kp);
    c.kd.setConstant(3.0);
    return c;
  }
};
}  // namespace

TEST_CASE("robot standing when taken: held with its entry gains until the selection leaves damping, then damping is damping",
          "[control][safe-state]") {
  Mock mock({}, praxis::TimePoint{});
  StandingOwnedRobot robot(mock, nullptr);
  praxis::control::ControllerOptions options;
  options.print = false;
  Probe probe;
  praxis::control::RobotController<StandingOwnedRobot, ProbeController> controller(robot, options, probing(probe));
  const auto at = [](double s) { return praxis::TimePoint{} + praxis::from_seconds(s); };
  mock.hold(praxis::GamepadButton::R2, at(0.5), 1500ms);
  mock.press(praxis::GamepadButton::L2, at(2.5));
  mock.tap(praxis::GamepadButton::B, at(2.6));
  praxis::TimePoint t{};
  bool stood = false;
  int sagging = 0;
  while (t < at(3.0)) {
    t += 2ms;
    controller.step(t);
    const auto& a = controller.actuated();
    if (t > at(0.05) && t < at(0.45)) {
      // Before anyone pressed a button: a hold with the robot's entry gains, never kp 0.
      CHECK(controller.state() == praxis::control::ControlState::damping);
      CHECK(a.kp.minCoeff() == StandingOwnedRobot::k_entry_kp);
    }
    if (controller.state() == praxis::control::ControlState::stand) {
      stood = true;
      // The stand ramp starts where the hold was, not at 10 % of the stand gains: no sag.
      for (std::size_t j = 0; j < N; ++j) {
        const double floor = std::min(StandingOwnedRobot::k_entry_kp, Model::default_kp[j]);
        if (a.kp[static_cast<Eigen::Index>(j)] < floor - 1e-9) ++sagging;
      }
    }
  }
  CHECK(stood);
  CHECK(sagging == 0);
  // L2+B after standing: the user asked for damping, and gets it.
  CHECK(controller.state() == praxis::control::ControlState::damping);
  CHECK(controller.actuated().kp.maxCoeff() == 0.0);
  CHECK(robot.limp_frames() > 0);
  (void)controller.finish();
}

TEST_CASE("hand-back robot: a state that comes only after the first cycles is still held on every joint",
          "[control][safe-state]") {
  // Found by CI under ASan: when the first cycles had no state, the hold copied their empty command
  // and held nothing for the whole run.
  Mock mock({}, praxis::TimePoint{});
  const auto at = [](double s) { return praxis::TimePoint{} + praxis::from_seconds(s); };
  mock.drop_states(at(0.0), at(0.05));  // nothing for the first 25 cycles
  HandBackRobot robot(mock, nullptr);
  praxis::control::ControllerOptions options;
  options.print = false;
  Probe probe;
  HandBackController controller(robot, options, probing(probe));
  for (praxis::TimePoint t = at(0.002); t <= at(0.2); t += 2ms) {
    controller.step(t);
    if (t < at(0.04)) CHECK_FALSE(controller.actuated().covers_any());  // nothing to hold yet
  }
  const auto& a = controller.actuated();
  for (std::size_t j = 0; j < N; ++j) {
    CHECK(a.mode[j] == praxis::JointMode::position);
    CHECK(a.kp[static_cast<Eigen::Index>(j)] == Model::default_kp[j]);
  }
  CHECK(robot.frames() > 50);
  CHECK(robot.limp_frames() == 0);
  (void)controller.finish();
}

}  // namespace safe_edges_test
