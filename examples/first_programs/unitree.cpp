// A first praxis program for a Unitree G1: praxis takes every joint, you stand the robot up with
// the remote (R2), start your controller (A) and damp it (L2+B); the run ends in joint damping on
// Ctrl-C, on any fault, or after --duration seconds. Hang the robot on its gantry the first times.
//
//   fake robot:  praxis-fake-robot --robot g1 --domain 6 --sport-mode normal
//                    --script-start first-reader --gamepad "R2:1-3,A:4" &   (its remote's script)
//                first_program_unitree --interface lo --domain 6 --duration 8
//   the robot:   first_program_unitree --interface eth0   (the port on 192.168.123.0/24; domain 0)

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <numbers>
#include <string>

#include <CLI/CLI.hpp>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/hardware/unitree/backend.hpp>
#include <praxis/hardware/unitree/g1.hpp>

using Model = praxis::unitree::G1;
using Robot = praxis::unitree::UnitreeBackend<Model>;

// Your controller (USER_CTRL): a plain struct. praxis calls reset() when CTRL begins, then
// get_input() and calculate() every dt, and sends jpos_des with kp and kd to the motors. This one
// holds the stand pose and swings the left elbow by 0.2 rad at 0.5 Hz, faded in over a second.
struct WaveElbow {
  static constexpr std::size_t N = Model::joint_count;
  static constexpr std::size_t elbow = praxis::joint_index<Model>("left_elbow");
  static_assert(elbow < N, "the model has no joint of that name");
  double dt = 0.002;                                   // control period (s): 500 Hz
  std::array<double, N> kp = Model::default_kp;        // the model's gains: they hold the robot
  std::array<double, N> kd = Model::default_kd;
  std::array<double, N> init_pos = Model::stand_pose;  // the pose STAND (R2) ramps to
  std::array<double, N> jpos_des = Model::stand_pose;  // your targets, sent in CTRL
  double t = 0.0;

  void load_params(const std::filesystem::path&) {}  // no parameter files here
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { t = 0.0; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}  // state.q, state.imu, ...
  void calculate() {
    t += dt;
    jpos_des = init_pos;
    jpos_des[elbow] += std::min(t, 1.0) * 0.2 * std::sin(2.0 * std::numbers::pi * 0.5 * t);
  }
  std::array<float, 1> log() const { return {static_cast<float>(t)}; }  // the run's log columns
};

int main(int argc, char** argv) {
  std::string interface;
  std::uint32_t domain = 0;  // Unitree robots talk on DDS domain 0
  double duration = 0.0;     // 0: until Ctrl-C
  CLI::App app{"first_program_unitree: stand a G1 up (R2), wave its left elbow (A), Ctrl-C ends damped"};
  app.add_option("--interface", interface, "network interface that reaches the robot (lo for a fake robot)")
      ->required();
  app.add_option("--domain", domain, "DDS domain id");
  app.add_option("--duration", duration, "seconds to run once in control (0: until Ctrl-C)");
  CLI11_PARSE(app, argc, argv);

  try {
    // praxis damps the robot when its state is older than 100 ms. A first run usually shares a busy
    // machine with a fake robot, so this program allows 0.3 s (the link's timeout follows);
    // delete these lines on the robot to get the 100 ms back.
    praxis::control::ControllerOptions options;
    options.safety.stale_timeout = std::chrono::milliseconds(300);
    auto robot_options = Robot::robot(interface);
    robot_options.dds.domain = domain;
    robot_options.link_timeout = options.safety.stale_timeout;

    // The robot over DDS. When the run starts, praxis releases the G1's own motion service and
    // waits for its first state; nothing is sent before that.
    Robot robot(robot_options);

    // The behaviour: RobotController's three states, driven by the remote in the robot's state.
    // DAMPING at start; R2: STAND (ramp to init_pos); A: CTRL (your controller); L2+B: DAMPING.
    praxis::control::RobotController<Robot, WaveElbow> controller(robot, options);

    // Ctrl-C (or SIGTERM) ends the run like a stop: joint damping, then the program returns.
    praxis::control::StopOnSignals stop(controller);

    std::printf("G1 on interface %s, domain %u: R2 stands it up, A waves, L2+B damps, Ctrl-C ends\n",
                interface.c_str(), domain);
    const praxis::control::RunOutcome outcome =
        duration > 0 ? controller.run_for(praxis::from_seconds(duration)) : controller.run();

    // How the run ended (a fault names its cause); exit 0 only for a normal end.
    std::printf("%s\n", outcome.summary().c_str());
    return outcome.exit_code();
  } catch (const std::exception& e) {  // before the loop: a bad option, a robot that never answered
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
