// praxis_demo on Booster robots (T1, K1): the mock story, and joint control over DDS the robot's way:
// Prepare (the robot stands in its prepare pose), Custom (praxis has the joints, held as Prepare
// left them until STAND takes over), the user's controller on the remote's A, and at the end
// joint damping, then the Damping mode. With --arms-only the robot walks by itself (Walking, then
// UpperBodyCustomControl) while praxis blends in the arms by rt/joint_ctrl's weight; at the end the
// arms are blended out and the robot keeps walking, its legs never commanded.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/booster/backend.hpp>
#include <praxis/hardware/booster/options_params.hpp>
#endif
#include <praxis/hardware/booster/models.hpp>

#include "demo.hpp"

namespace demo {
namespace {

#ifdef PRAXIS_WITH_DDS
template <class Model, praxis::booster::Access A>
int dds_story(const Settings& s) {
  namespace b = praxis::booster;
  using Backend = b::BoosterBackend<Model, A>;
  constexpr bool arms_only = A == b::Access::upper_body;
  const auto params = params_folder(s);
  Ctrl<Model> probe;
  load_controller(probe, s);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  options.lifecycle_timeout = std::chrono::seconds(10);

  const bool fake_robot = s.backend == "fake-robot";
  const std::uint32_t domain = s.domain_given || fake_robot ? s.domain : 0;  // Booster robots: domain 0
  const double d = s.duration;
  FakeProcess fake;
  if (fake_robot) {
    // The robot's own remote carries the operator's buttons; the script counts from the first joint
    // command the robot takes in Custom, however long taking it took.
    fake = FakeProcess(s, {"praxis-fake-booster", "--robot", s.robot, "--domain", std::to_string(domain), "--interface",
                           s.interface, "--gamepad", praxis::control::stand_then_ctrl(d), "--script-start", "first-command"});
    std::printf("started praxis-fake-booster (pid %d), standing in Damping: R2 held %.1f-%.1f s, A at %.1f s "
                "(counted from when control is taken)\n",
                static_cast<int>(fake.pid()), 0.1 * d, 0.4 * d, 0.5 * d);
  }
  auto bo = Backend::robot(s.interface);
  bo.dds = {domain, s.interface};
  bo.link_timeout = std::max(bo.link_timeout, options.safety.stale_timeout);
  apply_backend_settings(bo, s);
  Backend robot(bo);
  std::printf("Booster %s over DDS domain %u, interface \"%s\": %s\n", s.robot.c_str(), bo.dds.domain,
              bo.dds.interface.c_str(),
              arms_only ? "arms only: Walking and UpperBodyCustomControl, the robot's own controller keeps the legs"
                        : "Prepare, then Custom (joint control)");

  const auto outcome = run_story<Model>(robot, options, s, {}, [&] {
    print_link(robot, "rejected");
    if constexpr (arms_only) std::printf("arms' weight at the end: %.2f\n", robot.weight());
  });
  std::fflush(stdout);
  fake.stop();
  return report_outcome(outcome, false, s);
}
#endif

#ifndef PRAXIS_DEMO_NO_REPLAY
// praxis-replay: the backend type the recording was made with.
template <class Model>
int replay_model(const Settings& s) {
  if (s.backend == "mock") return replay_story<Model, praxis::mock::MockRobot<Model>>(s);
#ifdef PRAXIS_WITH_DDS
  namespace b = praxis::booster;
  return s.arm_sdk ? replay_story<Model, b::BoosterBackend<Model, b::Access::upper_body>>(s)
                   : replay_story<Model, b::BoosterBackend<Model, b::Access::joints>>(s);
#else
  throw std::runtime_error("a recording over " + s.backend + ": this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
}
#endif

template <class Model>
int run_model(const Settings& s) {
#ifndef PRAXIS_DEMO_NO_REPLAY
  if (!s.replay.empty()) return replay_model<Model>(s);
#endif
  if (s.backend == "mock") return mock_story<Model>(s, "booster");
#ifdef PRAXIS_WITH_DDS
  namespace b = praxis::booster;
  return s.arm_sdk ? dds_story<Model, b::Access::upper_body>(s) : dds_story<Model, b::Access::joints>(s);
#else
  throw std::runtime_error("--backend " + s.backend + ": this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
}

}  // namespace

int run_booster(const Settings& s) {
  if (s.robot == "t1") return run_model<praxis::booster::T1>(s);
  if (s.robot == "k1") return run_model<praxis::booster::K1>(s);
  throw std::invalid_argument("not a Booster model: " + s.robot);
}

}  // namespace demo
