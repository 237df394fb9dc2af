// praxis-fake-robot: impersonates a Unitree robot on DDS, for controllers to talk to before the
// real one, with mock joint dynamics (mock::MockRobot) behind the bridge of bridge.hpp.
//
// --simulator behaves like Unitree's MuJoCo bridge instead: no motion_switcher service, LowState
// with crc 0 and (hg) mode_machine 0, command CRCs not checked.
//
//   praxis-fake-robot --robot g1 --domain 1 --interface lo --gamepad "R2:0.5-3.0,A:4.0"
//                     [--sport-mode normal] [--simulator] [--duration 10] [--report report.json]

#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

#include <praxis/hardware/mock/mock_robot.hpp>

#include "bridge.hpp"

namespace {

void on_signal(int) { fake_robot::g_stop_requested = true; }

template <praxis::unitree::UnitreeModel M>
int run(const fake_robot::Settings& s) {
  return fake_robot::run_bridge<M>(
      s, [](praxis::TimePoint t0) { return praxis::mock::MockRobot<M>(praxis::mock::MockOptions{}, t0); });
}

}  // namespace

int main(int argc, char** argv) {
  fake_robot::Settings s;
  CLI::App app{"praxis-fake-robot: a Unitree robot impersonated on DDS, with mock dynamics"};
  fake_robot::add_bridge_options(app, s);
  app.add_option("--tilt", s.tilt, "tilt the body at a time: T:ROLL:PITCH (s, rad, rad)");
  app.add_flag("--echo", s.echo, "benchmark: answer each command immediately (full checks and dynamics)");
  app.add_flag("--echo-raw", s.echo_raw, "benchmark baseline: answer each command with a fixed state");
  CLI11_PARSE(app, argc, argv);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  try {
    if (s.robot == "g1") return run<praxis::unitree::G1>(s);
    if (s.robot == "g1_23") return run<praxis::unitree::G1_23>(s);
    if (s.robot == "h1_2") return run<praxis::unitree::H1_2>(s);
    return run<praxis::unitree::Go2>(s);
  } catch (const std::exception& e) {
    std::cerr << "praxis-fake-robot: " << e.what() << '\n';
    return 2;
  }
}
