// RobotController on a robot whose state carries no gamepad (as Fourier Aurora and Walker Tienkung
// declare): it would sit in damping for ever, so it does not compile.
#include <array>
#include <filesystem>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/unitree/go2.hpp"

struct NoRemoteRobot {
  using model = praxis::unitree::Go2;
  static constexpr bool has_remote = false;
  bool read(praxis::RobotState<12>&, praxis::TimePoint) { return false; }
  void write(const praxis::JointCommand<12>&, praxis::TimePoint) {}
};

struct Hold {
  double dt = 0.002, kp = 40, kd = 1;
  std::array<double, 12> init_pos = praxis::unitree::Go2::stand_pose;
  std::array<double, 12> jpos_des = praxis::unitree::Go2::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

NoRemoteRobot robot;
praxis::control::RobotController<NoRemoteRobot, Hold> controller(robot);

// expect: this robot's state carries none
// expect: praxis::control::WithGamepad
