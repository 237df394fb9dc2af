// A first praxis program for a Fourier GR-2 through Aurora: Aurora stands the robot up (PdStand),
// praxis takes every joint (UserCmd), you stand it in praxis' pose and start your controller from
// the keyboard. The run ends by holding the measured pose while Aurora takes the robot back
// (PdStand), on Ctrl-C, on any fault, or after --duration seconds. STAND holds the pose PdStand
// stood the robot in (its bent knees), which also becomes init_pos (ControllerOptions::stand_pose).
//
//   fake robot:  praxis-fake-aurora --robot gr2 --domain 6 --interface lo --stable-after 0.5 &
//                first_program_aurora --interface lo --domain 6        (then s, c: each and Enter)
//   the robot:   first_program_aurora --interface eth0   (the port that reaches the robot; domain 123)

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
#include <praxis/hardware/aurora/backend.hpp>
#include <praxis/hardware/aurora/models.hpp>

using Model = praxis::aurora::GR2;
using Robot = praxis::aurora::AuroraBackend<Model>;

// Your controller (USER_CTRL): a plain struct. praxis calls reset() when CTRL begins, then
// get_input() and calculate() every dt, and sends jpos_des with kp and kd to the motors. This one
// holds the stand pose and swings the left elbow by 0.2 rad at 0.5 Hz, faded in over a second.
struct WaveElbow {
  static constexpr std::size_t N = Model::joint_count;
  static constexpr std::size_t elbow = praxis::joint_index<Model>("left_elbow_pitch_joint");
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
  std::uint32_t domain = praxis::aurora::k_default_domain;  // Aurora's DDS domain: 123
  double duration = 0.0;                                    // 0: until Ctrl-C
  CLI::App app{"first_program_aurora: stand a GR-2 (s), wave its left elbow (c), Ctrl-C ends"};
  app.add_option("--interface", interface, "network interface that reaches the robot (lo for a fake robot)")
      ->required();
  app.add_option("--domain", domain, "DDS domain id");
  app.add_option("--duration", duration, "seconds to run once in control (0: until Ctrl-C)");
  CLI11_PARSE(app, argc, argv);

  try {
    // praxis stops control when the robot's state is older than 100 ms. A first run usually shares
    // a busy machine with a fake robot, so this program allows 0.3 s (the link's timeout follows);
    // delete these lines on the robot to get the 100 ms back. PdStand may take 15 s to be stable.
    praxis::control::ControllerOptions options;
    options.safety.stale_timeout = std::chrono::milliseconds(300);
    options.lifecycle_timeout = std::chrono::seconds(20);
    auto robot_options = Robot::robot(interface);
    robot_options.dds.domain = domain;
    robot_options.link_timeout = options.safety.stale_timeout;

    // The robot over DDS. When the run starts, praxis asks Aurora for PdStand, waits until the
    // robot stands stable, then asks for UserCmd; nothing is sent before that.
    Robot robot(robot_options);

    // Aurora puts no remote on DDS: WithGamepad adds a gamepad of ours to every state read.
    praxis::control::WithGamepad<Robot> pad(robot);

    // The behaviour: RobotController's three states, driven by that gamepad.
    // DAMPING (holding the pose) at start; R2: STAND (ramp to init_pos); A: CTRL (your controller);
    // L2+B: DAMPING.
    praxis::control::RobotController<praxis::control::WithGamepad<Robot>, WaveElbow> controller(pad, options);

    // Ctrl-C (or SIGTERM) ends the run like a stop: hold the pose, Aurora back in PdStand.
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

    std::printf("GR-2 on interface %s, domain %u: s: stand, c: wave, d: damping, Ctrl-C: stop\n",
                interface.c_str(), domain);
    const praxis::control::RunOutcome outcome =
        duration > 0 ? controller.run_for(praxis::from_seconds(duration)) : controller.run();

    // How the run ended (a fault names its cause, the hand-back whether Aurora confirmed PdStand);
    // exit 0 only for a normal end.
    std::printf("%s\n", outcome.summary().c_str());
    return outcome.exit_code();
  } catch (const std::exception& e) {  // before the loop: a bad option, a robot that never answered
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
