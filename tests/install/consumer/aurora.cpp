// A Fourier GR-2 through Aurora, built against an installed praxis and run against the installed
// praxis-fake-aurora: control taken the robot's way (PdStand until the robot reports itself stable,
// then UserCmd), STAND and the installed example controller (its installed GR-2 parameters: arms
// only, centred on the pose measured on entry) on a scripted operator's R2 and A, and control handed
// back to PdStand at the end.
//   consumer_aurora PARAM_FOLDER DOMAIN SECONDS
// Exit status 0 only when the run reached CTRL, ended normally with the hand-back confirmed and the
// backend refused no command.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include <praxis/control/robot_controller.hpp>
#include <praxis/examples/sinusoid_controller.hpp>
#include <praxis/hardware/aurora/backend.hpp>

#include "judge.hpp"

int main(int argc, char** argv) try {
  if (argc != 4) {
    std::fprintf(stderr, "usage: consumer_aurora PARAM_FOLDER DOMAIN SECONDS\n");
    return 2;
  }
  namespace a = praxis::aurora;
  using Backend = a::AuroraBackend<a::GR2>;
  using Pad = praxis::control::WithScriptedGamepad<Backend>;
  const std::string params = argv[1];
  const auto domain = static_cast<std::uint32_t>(std::stoul(argv[2]));
  const double seconds = std::stod(argv[3]);

  praxis::control::ControllerOptions options;
  options.print = false;
  options.lifecycle_timeout = std::chrono::seconds(20);  // PdStand may take long to report stable
  options.safety.stale_timeout = std::chrono::milliseconds(300);  // a loaded test machine
  auto bo = Backend::robot("lo");
  bo.dds = {domain, "lo"};
  bo.link_timeout = std::max(bo.link_timeout, options.safety.stale_timeout);
  // The fake starts with this program: its first PdStand report includes DDS discovery.
  bo.sequence.pd_stand_timeout = std::max(bo.sequence.pd_stand_timeout, praxis::Duration(std::chrono::seconds(6)));
  Backend robot(bo);
  Pad pad(robot, praxis::control::stand_then_ctrl(seconds));

  praxis::control::RobotController<Pad, example::SinusoidController<a::GR2>> controller(pad, options);
  controller.load_params(params);
  const auto outcome = controller.run_for(praxis::from_seconds(seconds));
  controller.flush();
  std::printf("Fourier GR-2 through Aurora, domain %u: group commands sent %llu, refused %llu\n", domain,
              static_cast<unsigned long long>(robot.group_commands_sent()),
              static_cast<unsigned long long>(robot.commands_refused()));
  const int verdict = consumer::judge(controller, outcome);
  return verdict == 0 && robot.group_commands_sent() > 0 && robot.commands_refused() == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer_aurora: %s\n", e.what());
  return 1;
}
