// A controller written for 12 joints used on the 29-joint G1.
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

struct Go2Controller {
  double dt = 0.01, kp = 40, kd = 1;
  std::array<double, 12> init_pos{};
  std::array<double, 12> jpos_des{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

praxis::mock::MockRobot<praxis::unitree::G1> robot;
praxis::control::RobotController<decltype(robot), Go2Controller> controller(robot);

// expect: USER_CTRL was written for a different number of joints than this robot has
