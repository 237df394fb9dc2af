// The whole controller story on mock hardware with a simulated clock.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>

#include "../support/alloc_counter.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace controller_story_test {

using namespace std::chrono_literals;
using praxis::control::ControlState;
using praxis::GamepadButton;
using praxis::TimePoint;
using praxis::motion::MotionType;
using praxis::motion::SelectionCause;

namespace {

// A deterministic USER_CTRL: holds init_pos plus a fixed offset on joint 0; can be told to emit NaN
// or out-of-limit targets.
template <class Model>
struct OffsetController {
  static constexpr std::size_t N = Model::joint_count;
  double dt = 0.002, kp = 50.0, kd = 2.0;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double offset = 0.05;
  bool emit_nan = false;
  bool emit_far = false;
  int resets = 0, inputs = 0, calculations = 0;
  double last_q0 = 0.0;

  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { ++resets; }
  void get_input(const praxis::RobotState<N>& s, const praxis::Gamepad&) {
    ++inputs;
    last_q0 = s.q[0];
  }
  void calculate() {
    ++calculations;
    jpos_des = init_pos;
    jpos_des[0] += offset;
    if (emit_nan) jpos_des[1] = std::numeric_limits<double>::quiet_NaN();
    if (emit_far) jpos_des[2] = 100.0;
  }
  std::array<float, 1> log() const { return {static_cast<float>(calculations)}; }
};

template <class Model>
struct Rig {
  using Robot = praxis::mock::MockRobot<Model>;
  using Controller = praxis::control::RobotController<Robot, OffsetController<Model>>;
  Robot robot;
  Controller controller;
  TimePoint now{};

  explicit Rig(praxis::control::ControllerOptions o = quiet()) : robot(), controller(robot, o) {}
  static praxis::control::ControllerOptions quiet() {
    praxis::control::ControllerOptions o;
    o.print = false;
    return o;
  }
  TimePoint at(double s) const { return TimePoint{} + praxis::from_seconds(s); }
  void run_until(double seconds) {
    while (now < at(seconds)) {
      now += 2ms;
      controller.step(now);
    }
  }
  // Stand up fully: R2 held from `from` long enough for pd_ratio to reach 1.
  void stand_up(double from = 0.1) {
    robot.hold(GamepadButton::R2, at(from), 1s);
    run_until(from + 1.2);
  }
};

}  // namespace

TEST_CASE("the robot starts in damping and sends damping commands", "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.run_until(0.5);
  CHECK(rig.controller.state() == ControlState::damping);
  const auto& cmd = rig.robot.last_command().command;
  CHECK(cmd.kp.maxCoeff() == 0.0);
  CHECK(cmd.kd.minCoeff() == 2.0);
  // Damping holds where the joints are (kp 0 makes the target matter only for logs and drivers).
  for (Eigen::Index i = 0; i < 29; ++i) CHECK(cmd.q[i] == Approx(rig.controller.last_state().q[i]));
  CHECK(rig.controller.user().calculations == 0);  // USER_CTRL does not run in damping
}

TEST_CASE("R2 enters stand, holding it raises pd_ratio, and the joints converge to init_pos",
          "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.robot.hold(GamepadButton::R2, rig.at(0.1), 1s);
  rig.run_until(0.2);
  CHECK(rig.controller.state() == ControlState::stand);
  const double early = rig.controller.pd_ratio();
  CHECK(early > 0.1);
  CHECK(early < 0.5);
  rig.run_until(1.5);
  CHECK(rig.controller.pd_ratio() == 1.0);
  // The stand command: init_pos with the model's gains (the default stand gains) scaled by pd_ratio.
  const auto& cmd = rig.robot.last_command().command;
  CHECK(cmd.kp[3] == Approx(praxis::unitree::G1::default_kp[3]));
  CHECK(cmd.kd[3] == Approx(praxis::unitree::G1::default_kd[3]));
  rig.run_until(3.0);
  for (std::size_t j = 0; j < 29; ++j) {
    INFO("joint " << praxis::unitree::G1::joints[j].name);
    CHECK(rig.robot.q()[static_cast<Eigen::Index>(j)] ==
          Approx(praxis::unitree::G1::stand_pose[j]).margin(1e-3));
  }
}

TEST_CASE("R1 lowers pd_ratio while standing", "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  REQUIRE(rig.controller.pd_ratio() == 1.0);
  rig.robot.hold(GamepadButton::R1, rig.at(1.5), 200ms);
  rig.run_until(1.8);
  // 100 cycles of 2 ms at 0.005 each.
  CHECK(rig.controller.pd_ratio() == Approx(0.5).margin(0.011));
  CHECK(rig.controller.state() == ControlState::stand);
  CHECK(rig.robot.last_command().command.kp[0] ==
        Approx(praxis::unitree::G1::default_kp[0] * rig.controller.pd_ratio()));
}

TEST_CASE("A is ignored while pd_ratio <= 0.95 and accepted above", "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.robot.hold(GamepadButton::R2, rig.at(0.1), 200ms);  // pd_ratio ends near 0.6
  rig.robot.tap(GamepadButton::A, rig.at(0.5));
  rig.run_until(0.7);
  CHECK(rig.controller.pd_ratio() < 0.95);
  CHECK(rig.controller.state() == ControlState::stand);

  rig.robot.hold(GamepadButton::R2, rig.at(0.8), 500ms);
  rig.robot.tap(GamepadButton::A, rig.at(1.4));
  rig.run_until(1.6);
  CHECK(rig.controller.pd_ratio() > 0.95);
  CHECK(rig.controller.state() == ControlState::ctrl);
}

TEST_CASE("controller output reaches the motors only in CTRL", "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  // STAND: USER_CTRL runs (like the framework) but its offset target is not sent.
  CHECK(rig.controller.user().calculations > 0);
  CHECK(rig.robot.last_command().command.q[0] == Approx(praxis::unitree::G1::stand_pose[0]));

  rig.robot.tap(GamepadButton::A, rig.at(1.4));
  rig.run_until(1.6);
  REQUIRE(rig.controller.state() == ControlState::ctrl);
  const auto& cmd = rig.robot.last_command().command;
  CHECK(cmd.q[0] == Approx(praxis::unitree::G1::stand_pose[0] + 0.05));
  CHECK(cmd.kp[0] == 50.0);
  CHECK(rig.controller.user().resets == 2);  // entering STAND, entering CTRL
  rig.run_until(2.5);
  CHECK(rig.robot.q()[0] == Approx(praxis::unitree::G1::stand_pose[0] + 0.05).margin(1e-3));

  // R2 in CTRL returns to STAND: the offset disappears from the command again.
  rig.robot.tap(GamepadButton::R2, rig.at(2.6));
  rig.run_until(2.7);
  CHECK(rig.controller.state() == ControlState::stand);
  CHECK(rig.robot.last_command().command.q[0] == Approx(praxis::unitree::G1::stand_pose[0]));
}

TEST_CASE("L2 + B returns to damping from every state", "[control][story]") {
  for (const auto target : {ControlState::damping, ControlState::stand, ControlState::ctrl}) {
    Rig<praxis::unitree::G1> rig;
    if (target != ControlState::damping) rig.stand_up();
    if (target == ControlState::ctrl) {
      rig.robot.tap(GamepadButton::A, rig.at(1.4));
      rig.run_until(1.5);
    }
    REQUIRE(rig.controller.state() == target);
    rig.robot.hold(GamepadButton::L2, rig.at(1.6), 300ms);
    rig.robot.tap(GamepadButton::B, rig.at(1.7));
    rig.run_until(1.8);
    INFO("from " << praxis::control::to_string(target));
    CHECK(rig.controller.state() == ControlState::damping);
    CHECK(rig.controller.pd_ratio() == 0.0);
    CHECK(rig.robot.last_command().command.kp.maxCoeff() == 0.0);
  }
}

TEST_CASE("a tilt in CTRL terminates to damping: in STAND it does not", "[control][story]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.tilt(0.0, 2.0, rig.at(1.3));  // pitched past 90 degrees while standing
  rig.run_until(1.4);
  CHECK(rig.controller.state() == ControlState::stand);  // the framework checks only in CTRL
  rig.robot.tilt(0.0, 0.0, rig.at(1.45));
  rig.robot.tap(GamepadButton::A, rig.at(1.5));
  rig.run_until(1.6);
  REQUIRE(rig.controller.state() == ControlState::ctrl);
  rig.robot.tilt(0.0, 1.5, rig.at(1.7));  // 86 degrees: still upright enough
  rig.run_until(1.75);
  CHECK(rig.controller.state() == ControlState::ctrl);
  rig.robot.tilt(2.5, 0.0, rig.at(1.8));  // rolled past 90 degrees
  rig.run_until(1.85);
  CHECK(rig.controller.state() == ControlState::damping);
  CHECK(rig.controller.selection().cause == SelectionCause::none);  // the transition was earlier
  rig.controller.flush();
  const auto t = rig.controller.transitions();
  REQUIRE(!t.empty());
  CHECK(t.back().cause == SelectionCause::tilt);
  CHECK(t.back().from == MotionType::user_control);
  CHECK(praxis::control::control_state(t.back().from) == ControlState::ctrl);
  CHECK(t.back().to == MotionType::damping);
}

TEST_CASE("stale state sends the robot to damping from any state", "[control][story][faults]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.drop_states(rig.at(1.3), rig.at(1.6));
  rig.run_until(1.35);
  CHECK(rig.controller.state() == ControlState::stand);  // 50 ms silent: within the 100 ms timeout
  rig.run_until(1.45);
  CHECK(rig.controller.state() == ControlState::damping);
  CHECK(rig.controller.safety().stale);
  // States come back: the robot stays in damping until someone presses R2 again.
  rig.run_until(2.0);
  CHECK(!rig.controller.safety().stale);
  CHECK(rig.controller.state() == ControlState::damping);
}

TEST_CASE("a pause of the robot's state shorter than the stale timeout is ridden out and counted in the outcome",
          "[control][story][faults]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.drop_states(rig.at(1.3), rig.at(1.36));  // 60 ms silent: past command_timeout (20 ms), not stale
  rig.robot.drop_states(rig.at(1.5), rig.at(1.51));  // 10 ms: not a pause
  rig.run_until(2.0);
  CHECK(rig.controller.state() == ControlState::stand);
  auto outcome = rig.controller.finish();
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK(outcome.ok());  // the robot never left control: the exit code stays 0
  CHECK(outcome.rode_out.state_pauses == 1);
  // The age of the newest state, at the last cycle before states came back (60 ms, within a period).
  CHECK(outcome.rode_out.longest_state_pause_ms >= 56.0);
  CHECK(outcome.rode_out.longest_state_pause_ms <= 66.0);
  CHECK(outcome.rode_out.stalls == 0);  // step(): no send thread
  CHECK(outcome.rode_out.freezes == 0);
  CHECK_THAT(outcome.summary(), Catch::Matches(".*; rode out 1 pause of the robot's state \\(longest [56][0-9] ms\\)"));

  // A silence that goes stale is a fault, not a pause ridden out; and each finish() starts afresh.
  rig.stand_up(2.1);
  rig.robot.drop_states(rig.at(3.4), rig.at(3.6));
  rig.run_until(4.0);
  outcome = rig.controller.finish();
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  CHECK(outcome.rode_out.state_pauses == 0);
  CHECK_FALSE(outcome.rode_out.any());
}

TEST_CASE("delayed and frozen states count as stale", "[control][story][faults]") {
  {
    Rig<praxis::unitree::G1> rig;
    rig.stand_up();
    rig.robot.delay_states(150ms, rig.at(1.3), rig.at(2.0));
    rig.run_until(1.6);
    CHECK(rig.controller.state() == ControlState::damping);
    CHECK(rig.controller.safety().age >= 100ms);
  }
  {
    Rig<praxis::unitree::G1> rig;
    rig.stand_up();
    rig.robot.freeze_states(rig.at(1.3), rig.at(2.0));
    rig.run_until(1.6);
    CHECK(rig.controller.state() == ControlState::damping);
  }
}

TEST_CASE("NaN in the state sends the robot to damping", "[control][story][faults]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.inject_nan(praxis::mock::StateField::dq, 4, rig.at(1.3), rig.at(1.31));
  rig.run_until(1.4);
  CHECK(rig.controller.state() == ControlState::damping);
  rig.controller.flush();
  CHECK(rig.controller.transitions().back().cause == SelectionCause::invalid_state);
  CHECK(rig.robot.non_finite_commands() == 0);
}

TEST_CASE("a NaN command from USER_CTRL never reaches the motors", "[control][story][faults]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.tap(GamepadButton::A, rig.at(1.4));
  rig.run_until(1.5);
  REQUIRE(rig.controller.state() == ControlState::ctrl);
  rig.controller.user().emit_nan = true;
  rig.run_until(1.502);  // one cycle
  CHECK(rig.controller.report().fallback_to_damping);
  CHECK(rig.robot.last_command().command.kp.maxCoeff() == 0.0);  // damping went out instead
  rig.run_until(1.6);
  CHECK(rig.controller.state() == ControlState::damping);
  CHECK(rig.robot.non_finite_commands() == 0);
  for (const auto& c : rig.robot.command_log()) REQUIRE(c.command.all_finite());
}

TEST_CASE("out-of-limit targets are clamped to the joint limits", "[control][story][faults]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.tap(GamepadButton::A, rig.at(1.4));
  rig.run_until(1.5);
  rig.controller.user().emit_far = true;
  rig.run_until(1.6);
  CHECK(rig.controller.state() == ControlState::ctrl);
  CHECK(rig.controller.report().clamped_joints == 1);
  // The clamped target is approached at the collector's max_target_rate (10 rad/s), not jumped to.
  CHECK(rig.controller.report().rate_limited_joints == 1);
  CHECK(rig.robot.last_command().command.q[2] < praxis::unitree::G1::joints[2].upper);
  rig.run_until(2.0);
  CHECK(rig.controller.report().clamped_joints == 1);
  CHECK(rig.robot.last_command().command.q[2] == praxis::unitree::G1::joints[2].upper);
  CHECK(rig.robot.out_of_limit_commands() == 0);
}

TEST_CASE("no state at all keeps the robot in damping", "[control][story][faults]") {
  Rig<praxis::unitree::Go2> rig;
  rig.robot.drop_states(rig.at(0.0), rig.at(10.0));
  rig.robot.hold(GamepadButton::R2, rig.at(0.1), 1s);
  rig.run_until(0.5);
  CHECK(rig.controller.safety().no_state);
  CHECK(rig.controller.state() == ControlState::damping);
}

TEST_CASE("an offline joint keeps the robot in damping: R2 cannot stand it up", "[control][story][faults]") {
  Rig<praxis::unitree::Go2> rig;
  rig.robot.set_joint_offline(4, rig.at(0.0));
  rig.stand_up();
  rig.run_until(3.0);
  CHECK(rig.controller.safety().joint_fault);
  CHECK(rig.controller.safety().faulted_joint == 4);
  CHECK(rig.controller.state() == ControlState::damping);
  CHECK(rig.robot.last_command().command.kp.maxCoeff() == 0.0);
  CHECK(rig.robot.q()[4] == Approx(praxis::unitree::Go2::rest_pose[4]));
  CHECK(rig.robot.q()[1] == Approx(praxis::unitree::Go2::rest_pose[1]).margin(1e-3));
}

TEST_CASE("the cycle allocates nothing over 10,000 steps", "[control][realtime]") {
  Rig<praxis::unitree::G1> rig;
  rig.stand_up();
  rig.robot.tap(GamepadButton::A, rig.at(1.4));
  rig.run_until(1.5);
  REQUIRE(rig.controller.state() == ControlState::ctrl);
  const auto before = praxis::test::thread_allocation_count();
  rig.run_until(21.5);
  CHECK(praxis::test::thread_allocation_count() == before);
  CHECK(rig.controller.cycles() > 10'000);
}

}  // namespace controller_story_test
