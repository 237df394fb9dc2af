// praxis_demo on Unitree robots: the mock story, and the same story over DDS against
// praxis-fake-robot, praxis-sim (MuJoCo), Unitree's simulators or the robot itself.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/unitree/arm_sdk.hpp>
#include <praxis/hardware/unitree/backend.hpp>
#include <praxis/hardware/unitree/options_params.hpp>
#endif
#include <praxis/hardware/unitree/g1.hpp>
#include <praxis/hardware/unitree/g1_23.hpp>
#include <praxis/hardware/unitree/go2.hpp>
#include <praxis/hardware/unitree/h1_2.hpp>

#include "demo.hpp"

namespace demo {
namespace {

#ifdef PRAXIS_WITH_DDS
// The same story over DDS. With --backend fake-robot, praxis-fake-robot is started as a second
// process with the same gamepad script and tilt; with --backend dds, whatever robot is on the
// domain and interface is used (its operator presses the buttons).
template <class Model, bool ArmSdk = false>
int run_demo_dds(const Settings& s) {
  using Backend = std::conditional_t<ArmSdk, praxis::unitree::ArmSdkBackend<Model>, praxis::unitree::UnitreeBackend<Model>>;
  using Ctrl = demo::Ctrl<Model>;
  const auto params = params_folder(s);
  Ctrl probe;
  load_controller(probe, s);

  FakeProcess fake;
  const double d = s.duration;
  std::filesystem::path run_folder;
  if (!s.no_log) run_folder = praxis::io::create_run_folder(s.log_base);
  const bool physics = s.backend == "sim";
  if (physics) {
    // praxis-sim: the same bridge as praxis-fake-robot in front of MuJoCo. Its pictures go into the
    // run folder; the operator's L2+B stands in for the tilt (physics has no hand to tilt it with).
    if (!std::filesystem::exists(std::filesystem::path(s.self).parent_path() / "praxis-sim")) {
      throw std::runtime_error("--backend sim: praxis-sim not found next to this program (this build has no MuJoCo: "
                               "install libmujoco-dev and configure again)");
    }
    char gamepad[160];
    std::snprintf(gamepad, sizeof gamepad, "R2:%.2f-%.2f,A:%.2f,L2:%.2f-%.2f,B:%.2f", 0.15 * d, 0.45 * d, 0.5 * d,
                  0.8 * d, 0.8 * d + 0.4, 0.8 * d + 0.1);
    std::vector<std::string> args{"praxis-sim", "--robot", std::string(Model::name), "--domain", std::to_string(s.domain),
                                  "--interface", s.interface, "--gamepad", gamepad};
    if (!run_folder.empty()) {
      args.insert(args.end(), {"--pictures", (run_folder / "pictures").string(), "--picture-every",
                               d <= 12 ? "0.5" : std::to_string(d / 24)});
    }
    fake = FakeProcess(s, args);
    std::printf("started praxis-sim (pid %d): R2 held %.1f-%.1f s, A at %.1f s, L2+B at %.1f s\n",
                static_cast<int>(fake.pid()), 0.15 * d, 0.45 * d, 0.5 * d, 0.8 * d + 0.1);
  }
  if (s.backend == "fake-robot") {
    char gamepad[128];
    std::snprintf(gamepad, sizeof gamepad, "R2:%.2f-%.2f,A:%.2f", 0.15 * d, 0.45 * d, 0.5 * d);
    char tilt[64];
    std::snprintf(tilt, sizeof tilt, "%.2f:2.0:0.3", 0.8 * d);
    std::vector<std::string> args{"praxis-fake-robot", "--robot", std::string(Model::name), "--domain", std::to_string(s.domain),
                                  "--interface", s.interface, "--gamepad", gamepad, "--tilt", tilt, "--sport-mode", "normal",
                                  // the script counts from when this controller subscribed, however
                                  // long its start took
                                  "--script-start", "first-reader"};
    fake = FakeProcess(s, args);
    std::printf("started praxis-fake-robot (pid %d): R2 held %.1f-%.1f s, A at %.1f s, tilt at %.1f s\n",
                static_cast<int>(fake.pid()), 0.15 * d, 0.45 * d, 0.5 * d, 0.8 * d);
  }
  const bool simulator = s.target == "simulator" || (s.target == "auto" && s.domain != 0);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  // praxis-sim, started here, loads MuJoCo and its renderer before its first state: under
  // sanitizers on a loaded machine that took longer than a robot's 5 s (seen once in CI).
  options.lifecycle_timeout = physics ? std::chrono::seconds(20) : std::chrono::seconds(5);
  auto bo = [&] {
    if constexpr (ArmSdk) {
      praxis::unitree::ArmSdkOptions o;
      o.dds = {s.domain, s.interface};
      o.check_state_crc = !s.no_state_crc;
      // A wider stale-state timeout (--runtime-params) widens the link's with it: both are "how long
      // a silence of the robot is tolerated".
      o.link_timeout = std::max(o.link_timeout, options.safety.stale_timeout);
      apply_backend_settings(o, s);
      std::printf("arm SDK: waist and arms on %s, the robot's motion service keeps the legs\n", o.arm_sdk_topic.c_str());
      return o;
    } else {
      praxis::unitree::BackendOptions o = simulator ? Backend::simulator(s.domain) : Backend::robot(s.interface);
      o.dds = {s.domain, s.interface};
      o.check_state_crc = !s.no_state_crc;
      o.link_timeout = std::max(o.link_timeout, options.safety.stale_timeout);
      apply_backend_settings(o, s);
      std::printf("target: %s (%s)%s\n", simulator ? "simulator" : "robot",
                  simulator ? "a missing motion switcher is a notice" : "the motion switcher must answer",
                  s.no_state_crc ? ", LowState CRC not checked" : "");
      return o;
    }
  }();
  Backend robot(bo);
  // Taking control (releasing the robot's motion service, waiting for its first state) and handing
  // it back are the backend's lifecycle, which the controller runs around run_for(); a robot that
  // cannot be taken over ends the demo with an error naming the service or topic.
  std::printf("DDS domain %u, interface \"%s\"\n", s.domain, s.interface.c_str());
  if (!run_folder.empty()) {
    options.cycle_log = run_folder / "log.csv";
    options.transition_log = run_folder / "transitions.csv";
    praxis::io::write_config(run_folder, {{"param_folder", std::filesystem::absolute(params).string()},
                                      {"robot", s.robot},
                                      {"backend", physics ? "unitree dds, praxis-sim (MuJoCo)" : "unitree dds"},
                                      {"domain", std::to_string(s.domain)},
                                      {"interface", s.interface}});
  }
  praxis::LinkHealth link;
  const auto outcome = run_story<Model>(robot, options, s, run_folder, [&] { link = print_link(robot, "CRC errors"); });
  if (physics) {
    fake.stop();  // praxis-sim writes its pictures as it ends
    const auto sheet = run_folder / "pictures" / "contact_sheet.png";
    if (!run_folder.empty() && std::filesystem::exists(sheet)) std::printf("pictures: %s\n", sheet.string().c_str());
  }
  if (!run_folder.empty()) std::printf("logs: %s\n", run_folder.string().c_str());
  std::fflush(stdout);
  if (!robot.have_state()) {
    std::fprintf(stderr, "error: no valid state ever arrived on %s (%llu rejected)\n", bo.lowstate_topic.c_str(),
                 static_cast<unsigned long long>(link.states_rejected));
    return 3;
  }
  // The fake robot's script tilts it, as the mock story does; a real robot's operator ends with L2+B.
  return report_outcome(outcome, s.backend == "fake-robot", s);
}
#endif

#ifndef PRAXIS_DEMO_NO_REPLAY
// praxis-replay: the backend type the recording was made with.
template <class Model>
int replay_model(const Settings& s) {
  if (s.backend == "mock") return replay_story<Model, praxis::mock::MockRobot<Model>>(s);
#ifdef PRAXIS_WITH_DDS
  if constexpr (!std::is_same_v<Model, praxis::unitree::Go2>) {
    if (s.arm_sdk) return replay_story<Model, praxis::unitree::ArmSdkBackend<Model>>(s);
  }
  return replay_story<Model, praxis::unitree::UnitreeBackend<Model>>(s);
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
  if (s.backend == "mock") return mock_story<Model>(s, "unitree");
#ifdef PRAXIS_WITH_DDS
  if (s.arm_sdk) {
    if constexpr (std::is_same_v<Model, praxis::unitree::Go2>) {
      throw std::invalid_argument("--arms-only: rt/arm_sdk exists on g1, g1_23 and h1_2, not go2");
    } else {
      return run_demo_dds<Model, true>(s);
    }
  }
  return run_demo_dds<Model>(s);
#else
  throw std::runtime_error("--backend " + s.backend + ": this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
}

}  // namespace

int run_unitree(const Settings& s) {
  if (s.backend == "sim" && s.robot != "go2" && s.robot != "g1") {
    throw std::invalid_argument("--backend sim: praxis-sim has MuJoCo models of go2 and g1, not " + s.robot);
  }
  if (s.backend == "sim" && s.arm_sdk) throw std::invalid_argument("--backend sim: --arms-only needs a motion service");
  if (s.robot == "g1") return run_model<praxis::unitree::G1>(s);
  if (s.robot == "g1_23") return run_model<praxis::unitree::G1_23>(s);
  if (s.robot == "go2") return run_model<praxis::unitree::Go2>(s);
  if (s.robot == "h1_2") return run_model<praxis::unitree::H1_2>(s);
  throw std::invalid_argument("not a Unitree model: " + s.robot);
}

}  // namespace demo
