// A struct that is neither spelling of USER_CTRL gets a sentence naming what is missing.
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

struct AlmostController {
  double dt = 0.01, kp = 40, kd = 1;
  std::array<double, 12> init_pos{};
  std::array<double, 12> jpos_des{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
  // get_input is missing
};

praxis::mock::MockRobot<praxis::unitree::Go2> robot;
praxis::control::RobotController<decltype(robot), AlmostController> controller(robot);

// expect: USER_CTRL needs `void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&)`
// expect once: see the USER_CTRL message above
