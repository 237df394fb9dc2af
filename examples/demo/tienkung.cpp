// praxis_demo on Walker Tienkung robots (Pro, Lite): the mock story, and joint control over DDS the
// robot's way: praxis commands every joint on the limbs' cmd_ctrl topics (the vendor's locomotion
// is not running), STAND and the user's controller on the operator's R2 and A, joint damping at the
// end, and speed 0 for any joint left in velocity mode.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/tienkung/backend.hpp>
#include <praxis/hardware/tienkung/options_params.hpp>
#endif
#include <praxis/hardware/tienkung/models.hpp>

#include "demo.hpp"

namespace demo {
namespace {

#ifdef PRAXIS_WITH_DDS
template <class Model, praxis::tienkung::StatusLayout Layout>
int dds_story(const Settings& s) {
  namespace tk = praxis::tienkung;
  using Backend = tk::TienkungBackend<Model, Layout>;
  const auto params = params_folder(s);
  Ctrl<Model> probe;
  load_controller(probe, s);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  options.lifecycle_timeout = std::chrono::seconds(10);

  const bool fake_robot = s.backend == "fake-robot";
  const std::uint32_t domain = s.domain_given || fake_robot ? s.domain : 0;  // ROS' default (UNVERIFIED)
  FakeProcess fake;
  if (fake_robot) {
    fake = FakeProcess(s, {"praxis-fake-tienkung", "--robot", s.robot, "--domain", std::to_string(domain),
                           "--interface", s.interface, "--layout", s.status_layout});
    std::printf("started praxis-fake-tienkung (pid %d)\n", static_cast<int>(fake.pid()));
  }
  auto bo = Backend::robot(s.interface, domain);
  bo.link_timeout = std::max(bo.link_timeout, options.safety.stale_timeout);
  bo.upper_body_only = s.arm_sdk;  // --arms-only: the leg topics are never written
  apply_backend_settings(bo, s);
  Backend robot(bo);
  const double d = s.duration;
  // The limbs' status topics carry no remote: the operator's R2 and A come from a script here.
  using Pad = praxis::control::WithScriptedGamepad<Backend>;
  Pad pad(robot, praxis::control::stand_then_ctrl(d));
  std::printf("Tienkung %s over DDS domain %u, interface \"%s\": %s; operator script: R2 held %.1f-%.1f s, A at "
              "%.1f s\n",
              s.robot.c_str(), bo.dds.domain, bo.dds.interface.c_str(),
              bo.upper_body_only ? "arms only: arm, head and waist on cmd_ctrl, the legs' topics never written"
                                 : "every joint on cmd_ctrl",
              0.1 * d, 0.4 * d, 0.5 * d);

  const auto outcome = run_story<Model>(pad, options, s, {}, [&] { print_link(robot, "rejected"); });
  std::fflush(stdout);
  fake.stop();
  return report_outcome(outcome, false, s);
}
#endif

#ifndef PRAXIS_DEMO_NO_REPLAY
// praxis-replay: the backend type the recording was made with. The MotorStatus layout changes how
// the wire is read, never the backend's traits or the graph, so one layout's type replays them all.
template <class Model>
int replay_model(const Settings& s) {
  if (s.backend == "mock") return replay_story<Model, praxis::mock::MockRobot<Model>>(s);
#ifdef PRAXIS_WITH_DDS
  namespace tk = praxis::tienkung;
  return replay_story<Model, praxis::control::WithScriptedGamepad<tk::TienkungBackend<Model, tk::StatusLayout::with_error>>>(s);
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
  if (s.backend == "mock") return mock_story<Model>(s, "tienkung");
#ifdef PRAXIS_WITH_DDS
  // The MotorStatus layout is the message type itself (UNVERIFIED per firmware): one backend each.
  namespace tk = praxis::tienkung;
  if (s.status_layout == "with_error") return dds_story<Model, tk::StatusLayout::with_error>(s);
  if (s.status_layout == "without_error") return dds_story<Model, tk::StatusLayout::without_error>(s);
  if (s.status_layout == "with_voltage") return dds_story<Model, tk::StatusLayout::with_voltage>(s);
  throw std::invalid_argument("--status-layout: expected with_error, without_error or with_voltage, got " +
                              s.status_layout);
#else
  throw std::runtime_error("--backend " + s.backend + ": this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
}

}  // namespace

int run_tienkung(const Settings& s) {
  namespace tk = praxis::tienkung;
  if (s.robot == "pro") return run_model<tk::Pro>(s);
  if (s.robot == "lite") return run_model<tk::Lite>(s);
  throw std::invalid_argument("not a Tienkung model: " + s.robot);
}

}  // namespace demo
