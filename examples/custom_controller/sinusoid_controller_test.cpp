// How a robot team tests its own controller against praxis' mock hardware, before the real robot:
// build RobotController<MockRobot, YourController>, script the gamepad, step a simulated clock,
// inject faults, and assert on states and on the commands that reached the motors.

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include <praxis/control/robot_controller.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/hardware/unitree/g1.hpp>

#include "sinusoid_controller.hpp"

using namespace std::chrono_literals;
using Model = praxis::unitree::G1;
using Robot = praxis::mock::MockRobot<Model>;
using Controller = praxis::control::RobotController<Robot, example::SinusoidController<Model>>;

namespace {
struct Bench {
  Robot robot;
  Controller controller{robot, quiet()};
  praxis::TimePoint now{};

  Bench() { controller.load_params(PRAXIS_EXAMPLE_PARAMS_DIR "/g1"); }
  static praxis::control::ControllerOptions quiet() {
    praxis::control::ControllerOptions o;
    o.print = false;
    return o;
  }
  praxis::TimePoint at(double s) const { return praxis::TimePoint{} + praxis::from_seconds(s); }
  void run_until(double s) {
    while (now < at(s)) controller.step(now += controller.period());
  }
  void stand_and_start() {
    robot.hold(praxis::GamepadButton::R2, at(0.1), 1s);
    robot.tap(praxis::GamepadButton::A, at(1.5));
    run_until(1.6);
  }
};
}  // namespace

TEST_CASE("the sinusoid is sent only in CTRL and fades in", "[example]") {
  Bench b;
  b.robot.hold(praxis::GamepadButton::R2, b.at(0.1), 1s);
  b.run_until(1.4);
  REQUIRE(b.controller.state() == praxis::control::ControlState::stand);
  const auto& init = b.controller.user().init_pos;
  CHECK(b.robot.last_command().command.q[15] == Approx(init[15]));  // stand: no wave sent

  b.robot.tap(praxis::GamepadButton::A, b.at(1.5));
  b.run_until(1.6);
  REQUIRE(b.controller.state() == praxis::control::ControlState::ctrl);
  const double early = std::abs(b.robot.last_command().command.q[15] - init[15]);
  CHECK(early < 0.1 * 0.1 + 1e-9);  // within the first 0.1 s the fade keeps it at a tenth

  double largest = 0.0;
  for (double t = 2.7; t < 5.0; t += 0.05) {
    b.run_until(t);
    largest = std::max(largest, std::abs(b.robot.last_command().command.q[15] - init[15]));
  }
  CHECK(largest == Approx(0.1).margin(0.005));  // full amplitude after the fade
  // The mock's joint follows the command.
  CHECK(std::abs(b.robot.q()[15] - b.robot.last_command().command.q[15]) < 0.02);
}

TEST_CASE("a fall during the wave ends in damping", "[example]") {
  Bench b;
  b.stand_and_start();
  b.robot.tilt(0.0, 2.2, b.at(2.0));
  b.run_until(2.1);
  CHECK(b.controller.state() == praxis::control::ControlState::damping);
  const auto& cmd = b.robot.last_command().command;
  CHECK(cmd.kp.maxCoeff() == 0.0);
  CHECK(cmd.kd.minCoeff() == 2.0);
}

TEST_CASE("losing the robot's state ends in damping, and only R2 brings it back", "[example]") {
  Bench b;
  b.stand_and_start();
  b.robot.drop_states(b.at(2.0), b.at(2.5));
  b.run_until(3.0);
  CHECK(b.controller.state() == praxis::control::ControlState::damping);
  b.robot.hold(praxis::GamepadButton::R2, b.at(3.1), 1s);
  b.run_until(4.5);
  CHECK(b.controller.state() == praxis::control::ControlState::stand);
  CHECK(b.robot.non_finite_commands() == 0);
  CHECK(b.robot.out_of_limit_commands() == 0);
}

TEST_CASE("move arms finds the arm joints whatever the vendor's case", "[example]") {
  // Unitree's snake case and Booster's camel case (found by replaying a T1 recording whose arms
  // never moved: the match was lower case only).
  CHECK(example::is_arm_joint("left_shoulder_pitch_joint"));
  CHECK(example::is_arm_joint("LeftShoulderPitch"));
  CHECK(example::is_arm_joint("RightElbowYaw"));
  CHECK(example::is_arm_joint("left_wrist_roll_joint"));
  CHECK_FALSE(example::is_arm_joint("LeftHipPitch"));
  CHECK_FALSE(example::is_arm_joint("waist_yaw_joint"));
  CHECK_FALSE(example::is_arm_joint("Should"));  // a prefix of a part is no match
}
