// A controller that commands torque, on a robot whose backend sends only position commands.
#include <array>
#include <filesystem>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/unitree/go2.hpp"

// A backend without joint_modes: position and disabled only (praxis::k_basic_joint_modes).
struct PositionOnlyRobot {
  using model = praxis::unitree::Go2;
  bool read(praxis::RobotState<12>&, praxis::TimePoint) { return false; }
  void write(const praxis::JointCommand<12>&, praxis::TimePoint) {}
};

struct TorqueController {
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::torque};
  double dt = 0.002, kp = 0, kd = 1;
  std::array<double, 12> init_pos = praxis::unitree::Go2::stand_pose;
  std::array<double, 12> jpos_des = praxis::unitree::Go2::stand_pose;
  std::array<double, 12> tau_ff{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

PositionOnlyRobot robot;
praxis::control::RobotController<PositionOnlyRobot, TorqueController> controller(robot);

// expect: a node of this graph commands joints in a mode this backend cannot send
// expect: JointMode::torque
