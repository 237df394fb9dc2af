// The main demo: a robot lying on the floor is taken through the whole safety story of the
// controller runtime: damping -> stand (R2 held) -> ctrl (A) -> tilt fault -> damping.
//
//   praxis_demo --robot g1 --duration 10 [--param DIR] [--log-folder logs | --no-log] [--realtime]
//   praxis_demo --backend fake-robot      the same over real DDS, against praxis-fake-robot
//   praxis_demo --backend sim --robot go2 the same in MuJoCo physics, against praxis-sim, with pictures
//                                         (L2+B instead of the tilt: the operator lets it down)
//   praxis_demo --backend dds --domain 0 --interface eth0    a real Unitree robot (careful!)
//   praxis_demo --backend fake-robot --arm-sdk              waist and arms only (rt/arm_sdk), while the
//                                                           robot's motion service keeps the legs
//   praxis_demo --backend dds --domain 1 --interface lo      Unitree's simulator (--no-state-crc for the
//                                                           Python one, which sends crc = 0)
//
// --robot: g1, g1_23, go2 or h1_2. The exit status is 0 whenever a run ends normally, whatever
// state it ended in (a real robot's operator decides that); only errors (bad parameters, no robot,
// control not taken, no valid state ever) give a non-zero status.

#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <vector>

extern char** environ;

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/runtime_params.hpp>
#include <praxis/control/signals.hpp>
#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/unitree/arm_sdk.hpp>
#include <praxis/hardware/unitree/backend.hpp>
#endif
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/hardware/unitree/g1.hpp>
#include <praxis/hardware/unitree/g1_23.hpp>
#include <praxis/hardware/unitree/go2.hpp>
#include <praxis/hardware/unitree/h1_2.hpp>
#include <praxis/io/params.hpp>
#include <praxis/io/run_folder.hpp>

#include "../custom_controller/sinusoid_controller.hpp"

#ifndef PRAXIS_EXAMPLE_PARAMS_DIR
#define PRAXIS_EXAMPLE_PARAMS_DIR "examples/custom_controller/params"
#endif

namespace {

using namespace std::chrono_literals;

struct Settings {
  std::string robot = "g1";
  double duration = 10.0;
  std::string param_folder;
  std::string runtime_params;  // the runtime's safety settings (docs/parameters.md), optional
  std::string log_base = "logs";
  bool no_log = false;
  bool realtime = false;
  std::string backend = "mock";
  std::uint32_t domain = 1;
  std::string interface = "lo";
  std::string target = "auto";  // robot | simulator | auto (domain 0 = robot, Unitree's convention)
  bool no_state_crc = false;
  bool arm_sdk = false;  // hg humanoids: waist and arms over rt/arm_sdk, the robot keeps walking
  std::string self;  // argv[0], to find praxis-fake-robot next to this program
};

// How the run ended, printed, and the program's exit code: 0 for a normal end, and for the story's
// own scripted tilt (the fault the demo is there to show) when the robot was handed back; 1 for
// anything else (another fault, a lost link, a stall, an unconfirmed hand-back).
int report_outcome(const praxis::RunOutcome& outcome, bool tilt_scripted) {
  std::printf("%s\n", outcome.summary().c_str());
  const bool scripted = tilt_scripted && outcome.end == praxis::RunEnd::fault && outcome.hand_back_ok &&
                        outcome.cause == praxis::motion::to_string(praxis::motion::SelectionCause::tilt);
  if (scripted) std::printf("(the fault is the story's scripted tilt)\n");
  return scripted ? 0 : outcome.exit_code();
}

template <class Controller>
void print_transitions(const Controller& controller) {
  const auto transitions = controller.transitions();
  std::printf("\n%zu transitions:\n", transitions.size());
  for (const auto& e : transitions) {
    std::printf("  %7.3f s  %-8s -> %-8s  (%s)\n", e.time,
                std::string(praxis::to_string(praxis::control::control_state(e.from))).c_str(),
                std::string(praxis::to_string(praxis::control::control_state(e.to))).c_str(),
                std::string(praxis::motion::to_string(e.cause)).c_str());
  }
}

// Calls f.template operator()<Model>() for the model named `robot`.
template <class F>
int with_model(const std::string& robot, F&& f) {
  if (robot == "g1") return f.template operator()<praxis::unitree::G1>();
  if (robot == "g1_23") return f.template operator()<praxis::unitree::G1_23>();
  if (robot == "go2") return f.template operator()<praxis::unitree::Go2>();
  if (robot == "h1_2") return f.template operator()<praxis::unitree::H1_2>();
  throw std::invalid_argument("unknown robot model \"" + robot + "\" (expected g1, g1_23, go2 or h1_2)");
}

template <class Model>
std::filesystem::path params_folder(const Settings& s) {
  return s.param_folder.empty() ? std::filesystem::path(PRAXIS_EXAMPLE_PARAMS_DIR) / std::string(Model::name)
                                : std::filesystem::path(s.param_folder);
}

template <class Model>
int run_demo(const Settings& s) {
  using Robot = praxis::mock::MockRobot<Model>;
  using Ctrl = example::SinusoidController<Model>;
  const auto params = params_folder<Model>(s);
  Ctrl probe;  // read and check the parameters before a run folder or a robot exists
  probe.load_params(params);

  praxis::ControllerOptions options;
  options.stats_every = static_cast<std::size_t>(std::max(1.0, 1.0 / probe.dt));  // once a second
  if (!s.runtime_params.empty()) praxis::load_runtime_params(s.runtime_params, options);
  std::filesystem::path run_folder;
  if (!s.no_log) {
    run_folder = praxis::create_run_folder(s.log_base);
    options.cycle_log = run_folder / "log.csv";
    options.transition_log = run_folder / "transitions.csv";
    praxis::write_config(run_folder, {{"param_folder", std::filesystem::absolute(params).string()},
                                      {"robot", std::string(Model::name)},
                                      {"backend", "mock"},
                                      {"dt", std::to_string(probe.dt)},
                                      {"mode", s.realtime ? "realtime" : "simulated"}});
  }

  // The script runs on the mock's clock: real time when --realtime, simulated time otherwise.
  const praxis::TimePoint t0 = s.realtime ? praxis::Clock::now() : praxis::TimePoint{};
  Robot robot(praxis::mock::MockOptions{}, t0);
  const auto at = [&](double seconds) { return t0 + praxis::from_seconds(seconds); };
  const double d = s.duration;
  robot.hold(praxis::GamepadButton::R2, at(0.05 * d), praxis::from_seconds(0.35 * d));  // stand up
  robot.tap(praxis::GamepadButton::A, at(0.45 * d));                                    // start ctrl
  robot.tilt(2.0, 0.3, at(0.75 * d));                                                   // it falls over

  praxis::RobotController<Robot, Ctrl> controller(robot, options);
  const praxis::StopOnSignals stop_on_signals(controller);  // Ctrl-C: the run ends damped
  controller.load_params(params);

  std::printf("praxis demo: mock %s lying on the floor, %zu joints, control period %.1f ms, %s\n",
              std::string(Model::name).c_str(), Model::joint_count,
              praxis::to_seconds(controller.period()) * 1e3, s.realtime ? "real time (3 threads)" : "simulated time");
  std::printf("script: R2 held %.1f-%.1f s, A at %.1f s, tilt fault at %.1f s\n\n", 0.05 * d, 0.4 * d,
              0.45 * d, 0.75 * d);

  double worst_stand_error = 0.0;
  praxis::RunOutcome outcome;
  if (s.realtime) {
    outcome = controller.run_for(praxis::from_seconds(d));
  } else {
    const auto period = controller.period();
    std::size_t cycle = 0;
    for (praxis::TimePoint t = t0 + period; t <= at(d) && !controller.stop_requested(); t += period) {
      controller.step(t);
      // Simulated time outruns the reporter thread, whose cycle-log queue holds 2048 rows: without
      // a pause the log loses rows and the plots get gaps. Waiting here, between cycles, costs the
      // simulation nothing; a real-time run never waits.
      if (++cycle % 1024 == 0) controller.flush();
      if (t > at(0.40 * d) && t < at(0.45 * d)) {  // standing, before ctrl
        for (std::size_t j = 0; j < Model::joint_count; ++j) {
          const auto i = static_cast<Eigen::Index>(j);
          worst_stand_error = std::max(worst_stand_error, std::abs(robot.q()[i] - controller.user().init_pos[j]));
        }
      }
    }
  }
  if (!s.realtime) outcome = controller.finish();  // step()-driven: the safe state, the outcome
  controller.flush();

  print_transitions(controller);
  const auto stats = controller.compute_stats();
  std::printf("\ncompute time, last window of %zu cycles: mean %.2f us, p99 %.2f us, max %.2f us\n",
              stats.samples, stats.mean_us, stats.p99_us, stats.max_us);
  if (!s.realtime) std::printf("largest joint error to the stand pose before ctrl: %.4f rad\n", worst_stand_error);
  std::printf("commands that reached the motors: %llu (non-finite: %llu, outside limits: %llu)\n",
              static_cast<unsigned long long>(robot.commands_received()),
              static_cast<unsigned long long>(robot.non_finite_commands()),
              static_cast<unsigned long long>(robot.out_of_limit_commands()));
  std::printf("final state: %s\n", std::string(praxis::to_string(controller.state())).c_str());
  if (controller.dropped_reports() > 0) {
    std::printf("log records dropped (reporter queue full): %llu\n",
                static_cast<unsigned long long>(controller.dropped_reports()));
  }
  if (!run_folder.empty()) std::printf("logs: %s\n", run_folder.string().c_str());
  return report_outcome(outcome, true);
}

#ifdef PRAXIS_WITH_DDS
// Starts args[0] with these arguments and this environment (the fake robots inherit the DDS tag).
pid_t spawn(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, args[0].c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error("cannot start " + args[0]);
  }
  return pid;
}

// The same story over DDS. With --backend fake-robot, praxis-fake-robot is started as a second
// process with the same gamepad script and tilt; with --backend dds, whatever robot is on the
// domain and interface is used (its operator presses the buttons).
template <class Model, bool ArmSdk = false>
int run_demo_dds(const Settings& s) {
  using Backend = std::conditional_t<ArmSdk, praxis::unitree::ArmSdkBackend<Model>, praxis::unitree::UnitreeBackend<Model>>;
  using Ctrl = example::SinusoidController<Model>;
  const auto params = params_folder<Model>(s);
  Ctrl probe;
  probe.load_params(params);

  pid_t fake = 0;
  const double d = s.duration;
  std::filesystem::path run_folder;
  if (!s.no_log) run_folder = praxis::create_run_folder(s.log_base);
  const bool physics = s.backend == "sim";
  if (physics) {
    // praxis-sim: the same bridge as praxis-fake-robot in front of MuJoCo. Its pictures go into the
    // run folder; the operator's L2+B stands in for the tilt (physics has no hand to tilt it with).
    const auto exe = std::filesystem::path(s.self).parent_path() / "praxis-sim";
    if (!std::filesystem::exists(exe)) {
      throw std::runtime_error("--backend sim: " + exe.string() + " not found (this build has no MuJoCo: install "
                               "libmujoco-dev and configure again)");
    }
    char gamepad[160];
    std::snprintf(gamepad, sizeof gamepad, "R2:%.2f-%.2f,A:%.2f,L2:%.2f-%.2f,B:%.2f", 0.15 * d, 0.45 * d, 0.5 * d,
                  0.8 * d, 0.8 * d + 0.4, 0.8 * d + 0.1);
    std::vector<std::string> args{exe.string(), "--robot", std::string(Model::name), "--domain", std::to_string(s.domain),
                                  "--interface", s.interface, "--gamepad", gamepad};
    if (!run_folder.empty()) {
      args.insert(args.end(), {"--pictures", (run_folder / "pictures").string(), "--picture-every",
                               d <= 12 ? "0.5" : std::to_string(d / 24)});
    }
    fake = spawn(args);
    std::printf("started praxis-sim (pid %d): R2 held %.1f-%.1f s, A at %.1f s, L2+B at %.1f s\n",
                static_cast<int>(fake), 0.15 * d, 0.45 * d, 0.5 * d, 0.8 * d + 0.1);
  }
  if (s.backend == "fake-robot") {
    const auto exe = std::filesystem::path(s.self).parent_path() / "praxis-fake-robot";
    char gamepad[128];
    std::snprintf(gamepad, sizeof gamepad, "R2:%.2f-%.2f,A:%.2f", 0.15 * d, 0.45 * d, 0.5 * d);
    char tilt[64];
    std::snprintf(tilt, sizeof tilt, "%.2f:2.0:0.3", 0.8 * d);
    std::vector<std::string> args{exe.string(), "--robot", std::string(Model::name), "--domain", std::to_string(s.domain),
                                  "--interface", s.interface, "--gamepad", gamepad, "--tilt", tilt, "--sport-mode", "normal",
                                  // the script counts from when this controller subscribed, however
                                  // long its start took
                                  "--script-start", "first-reader"};
    fake = spawn(args);
    std::printf("started praxis-fake-robot (pid %d): R2 held %.1f-%.1f s, A at %.1f s, tilt at %.1f s\n",
                static_cast<int>(fake), 0.15 * d, 0.45 * d, 0.5 * d, 0.8 * d);
  }
  struct StopFake {
    pid_t pid;
    void stop() {
      if (pid > 0) {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
        pid = 0;
      }
    }
    ~StopFake() { stop(); }
  } stop_fake{fake};

  const bool simulator = s.target == "simulator" || (s.target == "auto" && s.domain != 0);
  praxis::ControllerOptions options;
  options.stats_every = static_cast<std::size_t>(std::max(1.0, 1.0 / probe.dt));
  options.lifecycle_timeout = std::chrono::seconds(5);
  if (!s.runtime_params.empty()) praxis::load_runtime_params(s.runtime_params, options);
  auto bo = [&] {
    if constexpr (ArmSdk) {
      praxis::unitree::ArmSdkOptions o;
      o.dds = {s.domain, s.interface};
      o.check_state_crc = !s.no_state_crc;
      // A wider stale-state timeout (--runtime-params) widens the link's with it: both are "how long
      // a silence of the robot is tolerated".
      o.link_timeout = std::max(o.link_timeout, options.safety.stale_timeout);
      std::printf("arm SDK: waist and arms on %s, the robot's motion service keeps the legs\n", o.arm_sdk_topic.c_str());
      return o;
    } else {
      praxis::unitree::BackendOptions o = simulator ? Backend::simulator(s.domain) : Backend::robot(s.interface);
      o.dds = {s.domain, s.interface};
      o.check_state_crc = !s.no_state_crc;
      o.link_timeout = std::max(o.link_timeout, options.safety.stale_timeout);
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
    praxis::write_config(run_folder, {{"param_folder", std::filesystem::absolute(params).string()},
                                      {"robot", std::string(Model::name)},
                                      {"backend", physics ? "unitree dds, praxis-sim (MuJoCo)" : "unitree dds"},
                                      {"domain", std::to_string(s.domain)},
                                      {"interface", s.interface}});
  }
  praxis::RobotController<Backend, Ctrl> controller(robot, options);
  controller.load_params(params);
  const praxis::StopOnSignals stop_on_signals(controller);  // Ctrl-C: the run ends in the robot's safe state
  const auto outcome = controller.run_for(praxis::from_seconds(d));
  controller.flush();
  print_transitions(controller);
  praxis::LinkHealth link;
  robot.read_link(link);
  std::printf("states accepted: %llu, CRC errors: %llu, commands sent: %llu\n",
              static_cast<unsigned long long>(link.states_received),
              static_cast<unsigned long long>(link.states_rejected),
              static_cast<unsigned long long>(link.commands_sent));
  std::printf("final state: %s\n", std::string(praxis::to_string(controller.state())).c_str());
  if (physics) {
    stop_fake.stop();  // praxis-sim writes its pictures as it ends
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
  return report_outcome(outcome, s.backend == "fake-robot");
}
#endif

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  CLI::App app{"praxis demo: a mock robot through damping, stand, ctrl and a tilt fault"};
  app.add_option("-r,--robot", s.robot, "robot model")->check(CLI::IsMember({"g1", "g1_23", "go2", "h1_2"}));
  app.add_option("-d,--duration", s.duration, "seconds to run")->check(CLI::Range(2.0, 3600.0));
  app.add_option("-p,--param", s.param_folder, "folder with params.json (default: the example's)");
  app.add_option("--runtime-params", s.runtime_params,
                 "JSON file with the runtime's safety settings (safety.stale_timeout, fall, collector limits; "
                 "docs/parameters.md)")
      ->check(CLI::ExistingFile);
  app.add_option("-l,--log-folder", s.log_base, "where run folders are created");
  app.add_flag("--no-log", s.no_log, "write no log files");
  app.add_flag("--realtime", s.realtime, "run in real time with receive/control/send threads");
  app.add_option("-b,--backend", s.backend,
                 "mock (in process), fake-robot (praxis-fake-robot over DDS), sim (praxis-sim: MuJoCo physics over "
                 "DDS, go2 or g1, with pictures) or dds (a robot on the network)")
      ->check(CLI::IsMember({"mock", "fake-robot", "sim", "dds"}));
  app.add_option("--domain", s.domain, "DDS domain id (robot: 0; simulator and fake robot: 1)");
  app.add_option("--interface", s.interface, "network interface for DDS (robot: the one on 192.168.123.x)");
  app.add_option("--target", s.target,
                 "robot (the motion switcher must answer), simulator (Unitree's simulators run none) or auto "
                 "(domain 0 = robot)")
      ->check(CLI::IsMember({"auto", "robot", "simulator"}));
  app.add_flag("--arm-sdk", s.arm_sdk,
               "g1, g1_23, h1_2 over DDS: command waist and arms on rt/arm_sdk while the robot's own motion "
               "service keeps the legs");
  app.add_flag("--no-state-crc", s.no_state_crc,
               "accept LowState without checking its CRC (Unitree's Python simulator sends crc = 0)");
  CLI11_PARSE(app, argc, argv);
  s.self = argv[0];

  try {
    if (s.backend == "sim" && s.robot != "go2" && s.robot != "g1") {
      throw std::invalid_argument("--backend sim: praxis-sim has MuJoCo models of go2 and g1, not " + s.robot);
    }
    if (s.backend == "sim" && s.arm_sdk) throw std::invalid_argument("--backend sim: --arm-sdk needs a motion service");
    if (s.backend != "mock") {
#ifdef PRAXIS_WITH_DDS
      if (s.arm_sdk) {
        if (s.robot == "go2") throw std::invalid_argument("--arm-sdk: rt/arm_sdk exists on g1, g1_23 and h1_2, not go2");
        if (s.robot == "g1_23") return run_demo_dds<praxis::unitree::G1_23, true>(s);
        if (s.robot == "h1_2") return run_demo_dds<praxis::unitree::H1_2, true>(s);
        return run_demo_dds<praxis::unitree::G1, true>(s);
      }
      return with_model(s.robot, [&]<class Model>() { return run_demo_dds<Model>(s); });
#else
      throw std::runtime_error("this build has no DDS (PRAXIS_WITH_DDS=OFF)");
#endif
    }
    return with_model(s.robot, [&]<class Model>() { return run_demo<Model>(s); });
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}
