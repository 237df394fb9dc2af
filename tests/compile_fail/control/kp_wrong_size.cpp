// Per-joint gains with one entry too few for the joints init_pos declares.
#include <array>
#include <filesystem>

#include "praxis/control/user_controller.hpp"

struct ElevenGains {
  double dt = 0.002, kd = 1;
  std::array<double, 11> kp{};
  std::array<double, 12> init_pos{};
  std::array<double, 12> jpos_des{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

static_assert(praxis::control::check_user_controller<ElevenGains, 12>());

// expect: USER_CTRL: `kp` must be a number, or one gain per joint
