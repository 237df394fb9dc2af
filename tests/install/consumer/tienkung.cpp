// A Walker Tienkung Pro, built against an installed praxis and run against the installed
// praxis-fake-tienkung: every joint on the limbs' cmd_ctrl topics (the robot's own locomotion is not
// running), STAND and the installed example controller (its installed Pro parameters: arms only) on
// a scripted operator's R2 and A, and joint damping at the end.
//   consumer_tienkung PARAM_FOLDER DOMAIN SECONDS
// Exit status 0 only when the run reached CTRL and ended normally with commands sent.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include <praxis/control/robot_controller.hpp>
#include <praxis/examples/sinusoid_controller.hpp>
#include <praxis/hardware/tienkung/backend.hpp>

#include "judge.hpp"

int main(int argc, char** argv) try {
  if (argc != 4) {
    std::fprintf(stderr, "usage: consumer_tienkung PARAM_FOLDER DOMAIN SECONDS\n");
    return 2;
  }
  namespace tk = praxis::tienkung;
  using Backend = tk::TienkungBackend<tk::Pro>;
  using Pad = praxis::control::WithScriptedGamepad<Backend>;
  const std::string params = argv[1];
  const auto domain = static_cast<std::uint32_t>(std::stoul(argv[2]));
  const double seconds = std::stod(argv[3]);

  praxis::control::ControllerOptions options;
  options.print = false;
  options.safety.stale_timeout = std::chrono::milliseconds(300);  // a loaded test machine
  auto bo = Backend::robot("lo", domain);
  bo.link_timeout = std::max(bo.link_timeout, options.safety.stale_timeout);
  Backend robot(bo);
  Pad pad(robot, praxis::control::stand_then_ctrl(seconds));

  praxis::control::RobotController<Pad, example::SinusoidController<tk::Pro>> controller(pad, options);
  controller.load_params(params);
  const auto outcome = controller.run_for(praxis::from_seconds(seconds));
  controller.flush();
  praxis::LinkHealth link;
  robot.read_link(link);
  std::printf("Walker Tienkung Pro, domain %u: states accepted %llu, rejected %llu, commands sent %llu\n", domain,
              static_cast<unsigned long long>(link.states_received),
              static_cast<unsigned long long>(link.states_rejected),
              static_cast<unsigned long long>(link.commands_sent));
  const int verdict = consumer::judge(controller, outcome);
  return verdict == 0 && link.commands_sent > 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "consumer_tienkung: %s\n", e.what());
  return 1;
}
