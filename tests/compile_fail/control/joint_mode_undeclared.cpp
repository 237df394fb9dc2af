// A USER_CTRL with per-joint modes that does not say which modes it uses: the robot's backend could
// not be checked at compile time, so it does not compile.
#include <array>
#include <filesystem>

#include "praxis/control/user_controller.hpp"

struct VelocityWithoutDeclaration {
  double dt = 0.002, kp = 40, kd = 1;
  std::array<double, 12> init_pos{};
  std::array<double, 12> jpos_des{};
  std::array<praxis::JointMode, 12> joint_mode{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

static_assert(praxis::control::check_user_controller<VelocityWithoutDeclaration, 12>());

// expect: a controller with it declares the modes it uses
