// A USER_CTRL may command joints in velocity or torque mode (its `joint_mode`), on a robot that
// accepts them; the rest stay in position. Simulated time on the mock robot.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <filesystem>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace user_joint_modes_test {

using namespace std::chrono_literals;
using Go2 = praxis::unitree::Go2;
constexpr std::size_t N = Go2::joint_count;

// Holds the stand pose, but turns joint 0 at 0.5 rad/s and drives joint 1 by torque alone.
struct MixedModes {
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, praxis::JointMode::velocity,
                                                     praxis::JointMode::torque};
  double dt = 0.002, kp = 40.0, kd = 1.0;
  std::array<double, N> init_pos = Go2::stand_pose;
  std::array<double, N> jpos_des = Go2::stand_pose;
  std::array<double, N> jvel_des{};
  std::array<double, N> tau_ff{};
  std::array<praxis::JointMode, N> joint_mode = [] {
    std::array<praxis::JointMode, N> m{};
    m.fill(praxis::JointMode::position);
    m[0] = praxis::JointMode::velocity;
    m[1] = praxis::JointMode::torque;
    return m;
  }();
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    jvel_des[0] = 0.5;
    tau_ff[1] = 1.5;
  }
  std::array<float, 1> log() const { return {0.0f}; }
};

TEST_CASE("USER_CTRL with joint_mode: velocity and torque joints reach the robot in their modes, the rest in position",
          "[control][user_ctrl][joint_modes]") {
  using Robot = praxis::mock::MockRobot<Go2>;
  Robot robot(praxis::mock::MockOptions{}, praxis::TimePoint{});
  const auto at = [](double s) { return praxis::TimePoint{} + praxis::from_seconds(s); };
  robot.hold(praxis::GamepadButton::R2, at(0.05), 2500ms);  // the Go2's pd ramp takes ~1.7 s at 2 ms
  robot.tap(praxis::GamepadButton::A, at(2.7));
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<Robot, MixedModes> controller(robot, options);
  for (praxis::TimePoint t = at(0.002); t <= at(3.2); t += 2ms) controller.step(t);
  REQUIRE(controller.state() == praxis::control::ControlState::ctrl);
  const auto& sent = robot.last_command().command;
  CHECK(sent.mode[0] == praxis::JointMode::velocity);
  CHECK(sent.dq[0] == Approx(0.5));
  CHECK(sent.mode[1] == praxis::JointMode::torque);
  CHECK(sent.tau_ff[1] == Approx(1.5));
  for (std::size_t j = 2; j < N; ++j) CHECK(sent.mode[j] == praxis::JointMode::position);
  // The joint in velocity mode turned: the mock's drivers obeyed the mode.
  CHECK(robot.dq()[0] > 0.3);
  (void)controller.finish();
}

}  // namespace user_joint_modes_test
