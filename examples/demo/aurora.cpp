// praxis_demo on Fourier robots (GR-1, GR-2, GR-3, N1) through Aurora: the mock story, and joint
// control over DDS the robot's way: PdStand until the robot reports itself stable, UserCmd with the
// pose PdStand stood in held, STAND and the user's controller on the operator's R2 and A, and at the
// end a hold of the measured pose with the gains in force while Aurora goes back to PdStand (never
// kp 0 on the legs of a standing robot).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/aurora/backend.hpp>
#include <praxis/hardware/aurora/options_params.hpp>
#endif
#include <praxis/hardware/aurora/models.hpp>

#include "demo.hpp"

namespace demo {
namespace {

#ifdef PRAXIS_WITH_DDS
template <class Model>
int dds_story(const Settings& s) {
  namespace a = praxis::aurora;
  using Backend = a::AuroraBackend<Model>;
  const auto params = params_folder(s);
  Ctrl<Model> probe;
  load_controller(probe, s);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  options.lifecycle_timeout = std::chrono::seconds(20);  // PdStand may take 15 s to report stable

  const bool fake_robot = s.backend == "fake-robot";
  const std::uint32_t domain = s.domain_given || fake_robot ? s.domain : a::k_default_domain;
  FakeProcess fake;
  if (fake_robot) {
    fake = FakeProcess(s, {"praxis-fake-aurora", "--robot", s.robot, "--domain", std::to_string(domain), "--interface",
                           s.interface, "--stable-after", "0.5"});
    std::printf("started praxis-fake-aurora (pid %d): Aurora in Default, stable 0.5 s into PdStand\n",
                static_cast<int>(fake.pid()));
  }
  auto bo = Backend::robot(s.interface);
  bo.dds = {domain, s.interface};
  bo.link_timeout = std::max(bo.link_timeout, options.safety.stale_timeout);
  // --arms-only: the robot stays in PdStand, standing on its own legs; praxis commands waist, head
  // and arms (Aurora's PdStand-in-stance, docs/backends/aurora.md, "Wire facts and their sources";
  // UpperBodyUserCmd would put the legs in zero torque).
  if (s.arm_sdk) bo.sequence.control_state = a::WholeBodyState::pd_stand;
  apply_backend_settings(bo, s);
  // The fake robot starts with this program: its first PdStand report includes DDS discovery, which
  // a loaded machine (sanitizers, parallel tests) stretches past the robot's 3 s.
  if (fake_robot) bo.sequence.pd_stand_timeout = std::max(bo.sequence.pd_stand_timeout, praxis::Duration(std::chrono::seconds(6)));
  Backend robot(bo);
  const double d = s.duration;
  // Aurora's state topics carry no remote: the operator's R2 and A come from a script here.
  using Pad = praxis::control::WithScriptedGamepad<Backend>;
  Pad pad(robot, praxis::control::stand_then_ctrl(d));
  std::printf("Fourier %s through Aurora, DDS domain %u, interface \"%s\": PdStand, stable, %s; "
              "operator script: R2 held %.1f-%.1f s, A at %.1f s\n",
              s.robot.c_str(), bo.dds.domain, bo.dds.interface.c_str(),
              s.arm_sdk ? "arms only (the robot's PdStand keeps the legs)" : "UserCmd", 0.1 * d, 0.4 * d, 0.5 * d);

  const auto outcome = run_story<Model>(pad, options, s, {}, [&] {
    std::printf("group commands sent: %llu, refused by the backend: %llu\n",
                static_cast<unsigned long long>(robot.group_commands_sent()),
                static_cast<unsigned long long>(robot.commands_refused()));
  });
  std::fflush(stdout);
  fake.stop();
  return report_outcome(outcome, false, s);
}
#endif

#ifndef PRAXIS_DEMO_NO_REPLAY
// praxis-replay: the backend type the recording was made with (the operator's script wraps it).
template <class Model>
int replay_model(const Settings& s) {
  if (s.backend == "mock") return replay_story<Model, praxis::mock::MockRobot<Model>>(s);
#ifdef PRAXIS_WITH_DDS
  return replay_story<Model, praxis::control::WithScriptedGamepad<praxis::aurora::AuroraBackend<Model>>>(s);
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
  if (s.backend == "mock") return mock_story<Model>(s, "fourier");
#ifdef PRAXIS_WITH_DDS
  return dds_story<Model>(s);
#else
  throw std::runtime_error("--backend " + s.backend + ": this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
}

}  // namespace

int run_aurora(const Settings& s) {
  namespace a = praxis::aurora;
  if (s.robot == "gr1") return run_model<a::GR1>(s);
  if (s.robot == "gr2") return run_model<a::GR2>(s);
  if (s.robot == "gr3") return run_model<a::GR3>(s);
  if (s.robot == "n1") return run_model<a::N1>(s);
  throw std::invalid_argument("not a Fourier model: " + s.robot);
}

}  // namespace demo
