// A controller written for the Unitree deployment framework, compiled and run unchanged.

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "praxis/control/robot_controller.hpp"
#include "praxis/control/unitree_framework.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "../../support/scratch_dir.hpp"

// The only lines a port changes: what used to include the SDK's robot_interface.hpp and gamepad.hpp.
// Global, where the SDK declares them (outside this file's namespace).
using RobotInterface = praxis::control::unitree_framework::RobotInterface<12>;
using Gamepad = praxis::control::unitree_framework::Gamepad;
#include "seed_controller.hpp"

namespace seed_controller_test {

using namespace std::chrono_literals;

static_assert(praxis::control::UnitreeFrameworkController<SeedStyleController, 12>);
static_assert(!praxis::control::SnakeCaseController<SeedStyleController, 12>);

TEST_CASE("a framework-style controller stands, controls and logs through praxis", "[control][seed]") {
  const praxis::test::ScratchDir scratch("seed_params");
  const auto& folder = scratch.path();
  scratch.write("params.json",
                R"({"dt": 0.002, "kp": 40.0, "kd": 1.0, "init_pos": [0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8]})");

  praxis::mock::MockRobot<praxis::unitree::Go2> robot;
  praxis::control::ControllerOptions options;
  options.print = false;
  options.cycle_log = folder / "log.csv";
  options.transition_log = folder / "transitions.csv";
  praxis::control::RobotController<decltype(robot), SeedStyleController> controller(robot, options);
  controller.load_params(folder);
  CHECK(controller.user().kp == 40.0f);
  CHECK(controller.period() == 2ms);

  const praxis::TimePoint t0{};
  robot.hold(praxis::GamepadButton::R2, t0 + 100ms, 1s);
  robot.tap(praxis::GamepadButton::A, t0 + 1300ms);
  robot.set_sticks(0.25f, 0, 0, 0, t0 + 1400ms);
  for (auto t = t0 + 2ms; t <= t0 + 3s; t += 2ms) controller.step(t);

  CHECK(controller.state() == praxis::control::ControlState::ctrl);
  CHECK(controller.user().reset_count == 2);
  CHECK(controller.user().seen_gravity_z == Approx(-1.0f));   // the RobotInterface view was filled
  CHECK(controller.user().lx == 0.25f);                       // and so was the Gamepad
  CHECK(robot.q()[1] == Approx(0.9 + 0.1).margin(1e-3));      // its target reached the motors
  CHECK(controller.user().seen_q0 == Approx(static_cast<float>(robot.q()[0])).margin(1e-3));

  controller.flush();
  std::ifstream log(folder / "log.csv");
  std::string header, last, line;
  std::getline(log, header);
  while (std::getline(log, line)) last = line;
  CHECK_THAT(header, Catch::StartsWith("time,cycle,motion,gain_ratio,compute_us,q_FR_hip,"));
  CHECK_THAT(header, Catch::EndsWith("log_0,log_1"));
  CHECK_THAT(last, Catch::Contains(",user_control,"));  // the log names the motion: CTRL is user_control
  // The fifth field is this cycle's compute time: a graph that ran takes more than nothing.
  std::size_t comma = 0;
  for (int k = 0; k < 4; ++k) comma = last.find(',', comma) + 1;
  CHECK(std::stod(last.substr(comma)) > 0.0);

  // Every motion change with its cause, in order (scripts/plot-run.sh marks them on its plots).
  std::ifstream transitions(folder / "transitions.csv");
  std::vector<std::string> rows;
  while (std::getline(transitions, line)) rows.push_back(line);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == "time,cycle,from,to,dispatching_to,cause,gain_ratio");
  CHECK_THAT(rows[1], Catch::Contains(",damping,stand,damping,requested,"));
  CHECK_THAT(rows[2], Catch::Contains(",stand,user_control,damping,requested,"));
}

}  // namespace seed_controller_test
