// A first praxis program for a Walker Tienkung Pro: praxis takes every joint on the limbs' command
// topics, you stand the robot up and start your controller from the keyboard. The run ends in joint
// damping (and speed 0 for any joint in velocity mode) on Ctrl-C, on any fault, or after --duration
// seconds. Stop the vendor's locomotion on the robot first, and hang the robot the first times.
//
//   fake robot:  praxis-fake-tienkung --robot pro --domain 6 --interface lo &
//                first_program_tienkung --interface lo --domain 6        (then s, c: each and Enter)
//   the robot:   first_program_tienkung --interface eth0   (the port that reaches the robot; domain 0)

#include <numbers>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <stop_token>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/control/with_gamepad.hpp>
#include <praxis/hardware/tienkung/backend.hpp>
#include <praxis/hardware/tienkung/models.hpp>

using Model = praxis::tienkung::Pro;
using Robot = praxis::tienkung::TienkungBackend<Model>;

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
  std::array<double, N> init_pos = Model::stand_pose;  // the pose STAND ramps to
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
  std::uint32_t domain = 0;  // Tienkung's DDS domain (ROS' default; unverified on a robot)
  double duration = 0.0;     // 0: until Ctrl-C
  CLI::App app{"first_program_tienkung: stand a Tienkung Pro (s), wave its left elbow (c), Ctrl-C ends"};
  app.add_option("--interface", interface, "network interface that reaches the robot (lo for a fake robot)")
      ->required();
  app.add_option("--domain", domain, "DDS domain id");
  app.add_option("--duration", duration, "seconds to run once in control (0: until Ctrl-C)");
  CLI11_PARSE(app, argc, argv);

  try {
    // praxis damps the robot when its state is older than 100 ms (a limb's status 50 ms). A first
    // run usually shares a busy machine with a fake robot, so this program allows 0.3 s (the link,
    // each limb and the IMU alike); delete these lines on the robot to get the defaults back.
    praxis::control::ControllerOptions options;
    options.safety.stale_timeout = std::chrono::milliseconds(300);
    auto robot_options = Robot::robot(interface, domain);
    robot_options.link_timeout = robot_options.limb_timeout = robot_options.imu_timeout = options.safety.stale_timeout;

    // The robot over DDS. When the run starts, praxis waits for every limb's status and the IMU;
    // nothing is sent before that.
    Robot robot(robot_options);

    // This backend reads no remote: WithGamepad adds a gamepad of ours to every state read.
    praxis::control::WithGamepad<Robot> pad(robot);

    // The behaviour: RobotController's three states, driven by that gamepad.
    // DAMPING at start; R2: STAND (ramp to init_pos); A: CTRL (your controller); L2+B: DAMPING.
    praxis::control::RobotController<praxis::control::WithGamepad<Robot>, WaveElbow> controller(pad, options);

    // Ctrl-C (or SIGTERM) ends the run like a stop: joint damping, speed 0 where a joint turned.
    praxis::control::StopOnSignals stop(controller);

    // The keyboard is that gamepad: s then Enter holds R2 for 2 s (STAND), c taps A (CTRL), d taps
    // L2+B (DAMPING). A thread of its own, polling, so it ends with the program.
    std::jthread keyboard([&pad](std::stop_token stop_keys) {
      using Button = praxis::GamepadButton;
      praxis::GamepadState buttons;
      auto release_at = praxis::Clock::now();
      while (!stop_keys.stop_requested()) {
        pollfd in{STDIN_FILENO, POLLIN, 0};
        char key = 0;
        if (::poll(&in, 1, 50) > 0 && ::read(STDIN_FILENO, &key, 1) <= 0) break;  // stdin closed
        if (key == 's' || key == 'c' || key == 'd') {
          buttons = {};
          buttons.set(key == 's' ? Button::R2 : key == 'c' ? Button::A : Button::L2, true);
          buttons.set(Button::B, key == 'd');
          release_at = praxis::Clock::now() + std::chrono::milliseconds(key == 's' ? 2000 : 200);
        }
        if (praxis::Clock::now() >= release_at) buttons = {};
        pad.set_gamepad(buttons);
      }
      pad.set_gamepad({});
    });

    std::printf("Tienkung Pro on interface %s, domain %u: s: stand, c: wave, d: damping, Ctrl-C: stop\n",
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
