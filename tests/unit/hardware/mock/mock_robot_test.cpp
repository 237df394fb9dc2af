// MockRobot: dynamics, limits, the gamepad script and every fault.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "praxis/core/plant.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace mock_robot_test {

using namespace std::chrono_literals;
using praxis::GamepadButton;
using praxis::TimePoint;
using Go2 = praxis::unitree::Go2;
using Robot = praxis::mock::MockRobot<Go2>;

static_assert(praxis::Backend<Robot>, "the mock must satisfy the Backend concept");
static_assert(praxis::Plant<Robot>, "the mock must satisfy the Plant concept");

namespace {
praxis::JointCommand<12> hold(const std::array<double, 12>& q, double kp, double kd) {
  praxis::JointCommand<12> c;
  for (int j = 0; j < 12; ++j) c.q[j] = q[static_cast<std::size_t>(j)];
  c.kp.setConstant(kp);
  c.kd.setConstant(kd);
  return c;
}
TimePoint at(double s) { return TimePoint{} + praxis::from_seconds(s); }
}  // namespace

TEST_CASE("states are published every state period with increasing sequence", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  REQUIRE(robot.read(s, at(0.0101)));
  CHECK(s.sequence == 5);  // published at 2, 4, 6, 8 and 10 ms
  CHECK(!robot.read(s, at(0.0102)));  // nothing new yet
  REQUIRE(robot.read(s, at(0.0200)));
  CHECK(s.sequence == 10);
  CHECK(s.stamp <= at(0.0200));
  CHECK(s.q[2] == Approx(Go2::rest_pose[2]));
  CHECK(s.projected_gravity.z() == Approx(-1.0));
  CHECK(s.imu.accelerometer.z() == Approx(9.81));
}

TEST_CASE("the PD law drives a joint to its target: disabled motors do not", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  auto cmd = hold(Go2::stand_pose, 60, 5);
  cmd.mode[7] = praxis::JointMode::disabled;
  robot.write(cmd, at(0));
  robot.read(s, at(2.0));
  CHECK(robot.q()[1] == Approx(Go2::stand_pose[1]).margin(1e-4));
  CHECK(robot.q()[7] == Approx(Go2::rest_pose[7]));
  CHECK(robot.tau()[7] == 0.0);
}

TEST_CASE("torque saturates at the joint's effort limit", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  auto cmd = hold(Go2::rest_pose, 0, 0);
  cmd.tau_ff.setConstant(500.0);  // far above the limits
  robot.write(cmd, at(0));
  robot.read(s, at(0.001));
  CHECK(robot.tau()[0] == Approx(23.7));
  CHECK(robot.tau()[2] == Approx(45.43));
}

TEST_CASE("joints stop at their position limits", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  auto cmd = hold(Go2::rest_pose, 0, 0);
  cmd.tau_ff.setConstant(-20.0);
  robot.write(cmd, at(0));
  robot.read(s, at(3.0));
  CHECK(robot.q()[0] == Approx(Go2::joints[0].lower));
  CHECK(robot.q()[2] == Approx(Go2::joints[2].lower));
}

TEST_CASE("the gamepad script presses and releases at the given times", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.hold(GamepadButton::R2, at(0.1), 100ms);
  robot.set_sticks(0.5f, -0.25f, 0.0f, 1.0f, at(0.15));
  robot.read(s, at(0.099));
  CHECK(!s.gamepad.pressed(GamepadButton::R2));
  robot.read(s, at(0.104));
  CHECK(s.gamepad.pressed(GamepadButton::R2));
  robot.read(s, at(0.16));
  CHECK(s.gamepad.lx == 0.5f);
  CHECK(s.gamepad.ly == -0.25f);
  robot.read(s, at(0.21));
  CHECK(!s.gamepad.pressed(GamepadButton::R2));
}

TEST_CASE("a gamepad script's sticks reach the published states over time, with its buttons", "[mock]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.script_gamepad("R2:0.1-0.3,LY=0.5@0.2-0.6,RX=-1@0.4,A:0.5", at(1.0));
  const auto pad_at = [&](double t) {
    REQUIRE(robot.read(s, at(t)));
    return s.gamepad;
  };
  CHECK(pad_at(1.05) == praxis::GamepadState{});
  const auto pressed = pad_at(1.15);
  CHECK(pressed.pressed(GamepadButton::R2));
  CHECK(pressed.ly == 0.0f);
  const auto both = pad_at(1.25);
  CHECK(both.pressed(GamepadButton::R2));
  CHECK(both.ly == 0.5f);
  const auto turning = pad_at(1.45);
  CHECK(turning.buttons == 0);
  CHECK(turning.ly == 0.5f);
  CHECK(turning.rx == -1.0f);
  CHECK(pad_at(1.55).pressed(GamepadButton::A));
  const auto later = pad_at(2.5);
  CHECK(later.ly == 0.0f);   // centred at 0.6 s
  CHECK(later.rx == -1.0f);  // held to the end
  CHECK(later.lx == 0.0f);
  CHECK(later.ry == 0.0f);
  CHECK(robot.gamepad() == later);
  // A bad script is refused whole: the robot's gamepad goes on as scripted.
  CHECK_THROWS_WITH(robot.script_gamepad("LX=0.5@3,LY=2@3", at(0)),
                    "--gamepad: \"LY=2@3\": the value \"2\" is not a number from -1 to 1");
  CHECK(pad_at(3.5).lx == 0.0f);
}

TEST_CASE("dropped states are never delivered", "[mock][faults]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.drop_states(at(0.1), at(0.2));
  REQUIRE(robot.read(s, at(0.099)));
  CHECK(!robot.read(s, at(0.15)));
  CHECK(!robot.read(s, at(0.199)));
  REQUIRE(robot.read(s, at(0.21)));
  CHECK(s.stamp >= at(0.2));
}

TEST_CASE("delayed states arrive late with their original stamp", "[mock][faults]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.delay_states(50ms, at(0.0), at(1.0));
  CHECK(!robot.read(s, at(0.04)));
  REQUIRE(robot.read(s, at(0.3)));
  CHECK(at(0.3) - s.stamp >= 50ms);
  CHECK(at(0.3) - s.stamp < 53ms);
}

TEST_CASE("frozen states repeat the last content, stamp and sequence", "[mock][faults]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.write(hold(Go2::stand_pose, 60, 5), at(0));
  REQUIRE(robot.read(s, at(0.099)));
  const auto seq = s.sequence;
  const auto q1 = s.q[1];
  robot.freeze_states(at(0.1), at(0.5));
  REQUIRE(robot.read(s, at(0.3)));  // something arrived...
  CHECK(s.sequence == seq);         // ...but it is the old state
  CHECK(s.q[1] == q1);
  CHECK(robot.q()[1] != q1);  // while the real joint kept moving
}

TEST_CASE("NaN injection affects the chosen field only inside the window", "[mock][faults]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.inject_nan(praxis::mock::StateField::q, 3, at(0.1), at(0.2));
  robot.inject_nan(praxis::mock::StateField::orientation, 0, at(0.3), at(0.4));
  robot.read(s, at(0.15));
  CHECK(std::isnan(s.q[3]));
  CHECK(!std::isnan(s.q[2]));
  CHECK(!s.all_finite());
  robot.read(s, at(0.25));
  CHECK(s.all_finite());
  robot.read(s, at(0.35));
  CHECK(!s.all_finite());
}

TEST_CASE("tilt changes orientation, projected gravity and accelerometer", "[mock][faults]") {
  Robot robot;
  praxis::RobotState<12> s;
  robot.tilt(0.0, std::acos(-1.0) / 2, at(0.1));  // pitched 90 degrees
  robot.read(s, at(0.2));
  CHECK(s.projected_gravity.z() == Approx(0.0).margin(1e-9));
  CHECK(s.projected_gravity.x() == Approx(1.0));
  CHECK(s.imu.rpy.y() == Approx(std::acos(-1.0) / 2).margin(1e-6));
  CHECK(s.imu.accelerometer.x() == Approx(-9.81));
}

TEST_CASE("commands are logged in order and counted, non-finite ones flagged", "[mock]") {
  Robot robot;
  auto c = hold(Go2::stand_pose, 60, 5);
  robot.write(c, at(0.002));
  c.q[0] = std::nan("");
  robot.write(c, at(0.004));
  c.q[0] = 5.0;  // outside FR_hip's limits
  robot.write(c, at(0.006));
  CHECK(robot.commands_received() == 3);
  CHECK(robot.non_finite_commands() == 1);
  CHECK(robot.out_of_limit_commands() == 1);
  const auto log = robot.command_log();
  REQUIRE(log.size() == 3);
  CHECK(log[0].time == at(0.002));
  CHECK(log[2].command.q[0] == 5.0);
  CHECK(robot.last_command().time == at(0.006));
}

TEST_CASE("a mock without a start time, first read at Clock::now(), starts there instead of simulating since the epoch",
          "[mock]") {
  Robot robot;
  const TimePoint now = TimePoint{} + 36h;  // a machine up for a day and a half
  praxis::RobotState<Go2::joint_count> state;
  REQUIRE(robot.read(state, now));  // a state right away, as from a robot that was already there
  CHECK(robot.time() == now);
  CHECK(state.stamp == now);
  CHECK(state.sequence == 1);  // not the 64.8 million states of 36 h at 500 Hz
  CHECK(state.q[2] == Approx(Go2::rest_pose[2]));
  // From there on it is simulated step by step as always.
  REQUIRE(robot.read(state, now + 4ms));
  CHECK(robot.time() == now + 4ms);
  CHECK(state.sequence == 3);
  CHECK(state.stamp == now + 4ms);
}

}  // namespace mock_robot_test
