// A controller process for praxis-guard's Tienkung test (tests/support/guard_test.sh): a Tienkung Pro
// whose user's controller turns the waist yaw in velocity mode (0.4 rad/s, the joint with room to
// turn for seconds) and holds the stand pose elsewhere: R2 from 0.3 s to 1.5 s of the run, A at 2 s.
// The test kills or stops it while the waist turns; the motor, latched in velocity mode, would turn
// on without the guard.
//
//   guard_spin_controller --robot pro --domain 71 --interface lo [--duration 60]

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/control/with_gamepad.hpp>
#include <praxis/hardware/tienkung/backend.hpp>
#include <praxis/hardware/tienkung/models.hpp>

namespace {

using Model = praxis::tienkung::Pro;
using Robot = praxis::tienkung::TienkungBackend<Model>;
constexpr std::size_t N = Model::joint_count;
constexpr std::size_t k_waist = praxis::joint_index<Model>("waist_yaw");
static_assert(k_waist < N, "the Pro has a waist yaw");

struct TurnWaist {
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, praxis::JointMode::velocity};
  double dt = 0.002;
  std::array<double, N> kp = Model::default_kp;
  std::array<double, N> kd = Model::default_kd;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  std::array<double, N> jvel_des{};
  std::array<praxis::JointMode, N> joint_mode = [] {
    std::array<praxis::JointMode, N> m{};
    m.fill(praxis::JointMode::position);
    return m;
  }();

  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {
    joint_mode[k_waist] = praxis::JointMode::velocity;
    jvel_des[k_waist] = 0.4;
  }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {}
  [[nodiscard]] std::array<float, 1> log() const { return {static_cast<float>(jvel_des[k_waist])}; }
};

}  // namespace

int main(int argc, char** argv) {
  std::string robot_name = "pro", interface = "lo";
  std::uint32_t domain = 0;
  double duration = 60.0;
  CLI::App app{"guard_spin_controller: a Tienkung Pro's waist turned in velocity mode, for praxis-guard's test"};
  app.add_option("--robot", robot_name, "the model (pro only)")->check(CLI::IsMember({"pro"}));
  app.add_option("--domain", domain, "DDS domain id")->required();
  app.add_option("--interface", interface, "network interface");
  app.add_option("--duration", duration, "seconds of the run");
  CLI11_PARSE(app, argc, argv);
  try {
    praxis::control::ControllerOptions options;
    options.safety.stale_timeout = std::chrono::milliseconds(300);  // a loaded test machine
    options.lifecycle_timeout = std::chrono::seconds(10);
    auto robot_options = Robot::robot(interface, domain);
    robot_options.link_timeout = robot_options.limb_timeout = robot_options.imu_timeout = options.safety.stale_timeout;
    Robot robot(robot_options);
    praxis::control::WithScriptedGamepad<Robot> pad(robot, "R2:0.3-1.5,A:2");
    praxis::control::RobotController<praxis::control::WithScriptedGamepad<Robot>, TurnWaist> controller(pad, options);
    const praxis::control::StopOnSignals stop(controller);
    std::printf("Tienkung Pro on domain %u: the waist turns in velocity mode from CTRL on\n", domain);
    std::fflush(stdout);
    const auto outcome = controller.run_for(praxis::from_seconds(duration));
    std::printf("%s\n", outcome.summary().c_str());
    return outcome.exit_code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "guard_spin_controller: %s\n", e.what());
    return 2;
  }
}
