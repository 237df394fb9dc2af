// praxis-fake-robot: impersonates a Unitree robot on DDS, for controllers to talk to before the
// real one, with mock joint dynamics (mock::MockRobot) behind the bridge of bridge.hpp.
//
// --simulator behaves like Unitree's MuJoCo bridge instead: no motion_switcher service, LowState
// with crc 0 and (hg) mode_machine 0, command CRCs not checked.
//
//   praxis-fake-robot --robot g1 --domain 1 --interface lo --gamepad "R2:0.5-3.0,A:4.0"
//                     [--sport-mode normal] [--simulator] [--duration 10] [--report report.json]

#include <CLI/CLI.hpp>

#include <praxis/hardware/mock/mock_robot.hpp>

#include "bridge.hpp"

namespace {

template <praxis::unitree::UnitreeModel M>
fake_common::Report run(const fake_robot::Settings& s) {
  return fake_robot::run_bridge<M>(
      s, [](praxis::TimePoint t0) { return praxis::mock::MockRobot<M>(praxis::mock::MockOptions{}, t0); });
}

}  // namespace

int main(int argc, char** argv) {
  fake_robot::Settings s;
  const auto fake = fake_robot::unitree_fake(
      "praxis-fake-robot", "praxis-fake-robot: a Unitree robot impersonated on DDS, with mock dynamics", "g1");
  const auto add_options = [&](CLI::App& app) {
    fake_robot::add_bridge_options(app, s);
    app.add_option("--tilt", s.tilt, "tilt the body at a time: T:ROLL:PITCH (s, rad, rad)");
    app.add_flag("--echo", s.echo, "benchmark: answer each command immediately (full checks and dynamics)");
    app.add_flag("--echo-raw", s.echo_raw, "benchmark baseline: answer each command with a fixed state");
  };
  return fake_common::fake_robot_main(argc, argv, fake, s, add_options, [&] {
    if (s.robot == "g1") return run<praxis::unitree::G1>(s);
    if (s.robot == "g1_23") return run<praxis::unitree::G1_23>(s);
    if (s.robot == "h1_2") return run<praxis::unitree::H1_2>(s);
    return run<praxis::unitree::Go2>(s);
  });
}
