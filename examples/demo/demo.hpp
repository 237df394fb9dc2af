#pragma once
// praxis_demo's shared parts: the settings, the mock story every model runs, the fake robots as
// child processes, the operator's scripted gamepad for robots without a remote, and the summary.
// Each vendor's file (unitree.cpp, booster.cpp, aurora.cpp, tienkung.cpp) builds its own models'
// controllers, so the four compile in parallel.

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/runtime_params.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/control/with_gamepad.hpp>
#include <praxis/core/gamepad.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/io/params.hpp>
#include <praxis/io/reflect_load.hpp>
#include <praxis/io/run_folder.hpp>

#include "../common/shipped_files.hpp"
#include "controller.hpp"
#include "observe.hpp"

#ifndef PRAXIS_EXAMPLE_PARAMS_DIR
#define PRAXIS_EXAMPLE_PARAMS_DIR "examples/custom_controller/params"
#endif
// The example policies: each robot's deploy file next to the network the build generated for it
// (examples/policy/make_example_policy.py).
#ifndef PRAXIS_EXAMPLE_POLICY_DIR
#define PRAXIS_EXAMPLE_POLICY_DIR "examples/policy"
#endif

extern char** environ;

namespace demo {

struct Settings {
  bool strict = false;  // --strict: a run that rode out a stall, a freeze or a state pause exits 3
  std::string robot;  // required: go2, g1, ..., t1, k1, gr1, ..., pro, lite
  double duration = 10.0;
  std::string param_folder;
  std::string runtime_params;  // the runtime's safety settings (docs/parameters.md), optional
  std::string log_base = "logs";
  bool no_log = false;
  bool realtime = false;
  int rt_priority = 0;  // SCHED_FIFO for the run's threads (RealtimeOptions::typical), 0: none
  int rt_cpu = -1;      // the control thread's CPU, -1: any
  std::string backend = "mock";
  std::uint32_t domain = 1;
  bool domain_given = false;
  std::string interface = "lo";
  std::string target = "auto";  // Unitree: robot | simulator | auto (domain 0 = robot)
  bool no_state_crc = false;
  bool arm_sdk = false;  // Unitree hg humanoids: waist and arms over rt/arm_sdk
  std::string backend_params;          // JSON file over the backend's options (UNVERIFIED wire facts)
  std::vector<std::string> settings;   // --set KEY=VALUE over the backend's options, after the file
  std::string status_layout = "with_error";  // Tienkung's MotorStatus layout
  std::vector<std::string> fake_args;        // appended to the fake robot's command line
  std::string self;      // argv[0], to find the fake robots next to this program
  // Observing the run (observe.hpp, docs/observability.md).
  bool record = false;                   // every port to <run folder>/run.mcap
  std::string record_compression = "zstd";
  std::string live;                      // [ADDRESS:]PORT of the live view; empty: none
  double live_rate = 50.0;               // Hz per channel and client; 0: every cycle
  std::string replay;                    // praxis-replay: the recording to replay
  std::string replay_out;                // praxis-replay: where the replayed run goes (default: beside it)
  // The USER_CTRL (controller.hpp): the example sinusoid, or a trained policy.
  std::string controller = "sinusoid";   // sinusoid | policy
  std::string policy;                    // policy: the network (default: the deploy file's "policy")
  std::string deploy;                    // policy: the deploy file (default: the robot's example policy)
  // --backend mujoco (mujoco.cpp): another MJCF than the robot's shipped one, the elastic band's script.
  std::string model;
  std::optional<std::string> band;
  // policy: its velocity command over time, "VX,VY,WZ[@START[-END]];..." (policy/command_timeline.hpp),
  // seconds since the policy took control; empty: the deploy file's source (the robot's sticks).
  std::string command;
};

// Every model's name and its vendor's, for the command line (dispatch.cpp).
std::string model_choices();
std::vector<std::string> all_models();
// Checks the combination (robot, backend, options) and runs its vendor's story, or replays it.
int run_robot(const Settings& s);

// Each vendor's entry point (its own file).
int run_unitree(const Settings& s);
int run_booster(const Settings& s);
int run_aurora(const Settings& s);
int run_tienkung(const Settings& s);
// --backend mujoco: a Unitree go2 or g1 in MuJoCo, in this process, in simulated time (mujoco.cpp).
int run_mujoco(const Settings& s);

// The USER_CTRL of every story: the example sinusoid, its parameters per robot in
// examples/custom_controller/params/<robot>/ (installed: share/praxis/params/<robot>/; or --param),
// or a trained policy (--controller policy; the example ones installed in share/praxis/policy/).
template <class Model>
using Ctrl = DemoController<Model>;

inline std::filesystem::path deploy_file(const Settings& s) {
  return s.deploy.empty() ? praxis::examples::shipped_files("policy", PRAXIS_EXAMPLE_POLICY_DIR) / s.robot / "deploy.json"
                          : std::filesystem::path(s.deploy);
}

// The sinusoid's parameter folder; a policy's is the folder of its deploy file.
inline std::filesystem::path params_folder(const Settings& s) {
  if (s.controller == "policy") return deploy_file(s).parent_path();
  return s.param_folder.empty() ? praxis::examples::shipped_files("params", PRAXIS_EXAMPLE_PARAMS_DIR) / s.robot
                                : std::filesystem::path(s.param_folder);
}

inline ControllerChoice controller_choice(const Settings& s) {
  ControllerChoice c;
  c.kind = s.controller;
  if (s.controller == "policy") {
    c.deploy = deploy_file(s);
    if (!s.policy.empty()) c.policy = std::filesystem::path(s.policy);
  }
  if (!s.command.empty()) c.command = praxis::policy::CommandTimeline::parse(s.command);
  return c;
}

// What --command gives the policy, printed before the run: each item, and where the deploy file's
// min or max limits it.
inline void print_command(const praxis::policy::CommandTimeline& timeline, const praxis::policy::DeployConfig& c) {
  if (timeline.empty()) return;
  std::printf("command (--command, in place of the deploy file's %s; seconds since the policy took control):\n",
              c.command_source == praxis::policy::CommandSource::gamepad ? "sticks" : "behaviour");
  static constexpr const char* names[3] = {"vx", "vy", "wz"};
  static constexpr const char* units[3] = {"m/s", "m/s", "rad/s"};
  for (const auto& seg : timeline.segments()) {
    std::printf("  vx %.3f m/s, vy %.3f m/s, wz %.3f rad/s from %.2f s ", seg.command[0], seg.command[1],
                seg.command[2], seg.from);
    if (std::isinf(seg.until)) {
      std::printf("on\n");
    } else {
      std::printf("to %.2f s\n", seg.until);
    }
    for (std::size_t i = 0; i < 3; ++i) {
      const double v = seg.command[i];
      if (v > c.command_max[i] || v < c.command_min[i]) {
        const bool above = v > c.command_max[i];
        std::printf("  note: \"%s\": %s %.3f %s is beyond the deploy file's %s %.3f: the policy gets %.3f\n",
                    seg.text.c_str(), names[i], v, units[i], above ? "max" : "min",
                    above ? c.command_max[i] : c.command_min[i], above ? c.command_max[i] : c.command_min[i]);
      }
    }
  }
  std::printf("  zero (stand still) outside these\n");
}

// The controller chosen and loaded, checked before a run folder or a robot exists: the probe...
template <class Model>
void load_controller(Ctrl<Model>& probe, const Settings& s) {
  probe.choose(controller_choice(s));
  probe.load_params(params_folder(s));
  if (const auto* c = probe.policy().config(); probe.runs_policy() && c != nullptr) {
    std::printf("controller: policy %s (network %s): %zu of %zu joints, %.0f Hz in the %.0f Hz loop, %zu observation "
                "values, targets blended in over %.2f s\n",
                c->file.string().c_str(), (s.policy.empty() ? c->policy.string() : s.policy).c_str(), c->joint_count(),
                Model::joint_count, c->policy_hz, c->loop_hz, c->observation_size(), c->blend_in);
    print_command(controller_choice(s).command, *c);
  }
}
// ... and the RobotController's own (its load_params checks what praxis relies on).
template <class Controller>
void load_controller_of(Controller& controller, const Settings& s) {
  controller.user().choose(controller_choice(s));
  controller.load_params(params_folder(s));
}

// What a recording says about its run, for replay (observe.hpp).
inline std::map<std::string, std::string> run_facts(const Settings& s) {
  return {{"robot", s.robot},
          {"backend", s.backend},
          {"arms_only", s.arm_sdk ? "1" : "0"},
          {"param_folder", std::filesystem::absolute(params_folder(s)).string()},
          {"runtime_params", s.runtime_params.empty() ? "" : std::filesystem::absolute(s.runtime_params).string()},
          {"status_layout", s.status_layout},
          {"controller", s.controller},
          {"deploy", s.controller == "policy" ? std::filesystem::absolute(deploy_file(s)).string() : ""},
          {"policy", s.policy.empty() ? "" : std::filesystem::absolute(s.policy).string()},
          {"command", s.command},
          {"program", "praxis_demo"}};
}

// A story's run folder (none with --no-log): the cycle and transition logs go into it and cfg.txt
// says what ran.
inline std::filesystem::path open_run_folder(const Settings& s, praxis::control::ControllerOptions& options,
                                             const std::vector<std::pair<std::string, std::string>>& config) {
  if (s.no_log) return {};
  auto run_folder = praxis::io::create_run_folder(s.log_base);
  options.cycle_log = run_folder / "log.csv";
  options.transition_log = run_folder / "transitions.csv";
  praxis::io::write_config(run_folder, config);
  return run_folder;
}

// The run folder of a story that writes none of its own, when --record needs one.
inline std::filesystem::path folder_for_recording(const Settings& s, std::filesystem::path run_folder) {
  if (!s.record || !run_folder.empty()) return run_folder;
  if (s.no_log) throw std::invalid_argument("--record writes run.mcap into the run folder: drop --no-log");
  return praxis::io::create_run_folder(s.log_base);
}

// Options every story shares (statistics print once a second by default): the runtime's safety
// file when given.
template <class Options>
Options controller_options(double /*dt*/, const Settings& s) {
  Options options;
  if (!s.runtime_params.empty()) praxis::control::load_runtime_params(s.runtime_params, options);
  // The command line over the file: a real-time set-up the run reports on (docs/realtime.md).
  if (s.rt_priority > 0) options.realtime = praxis::control::RealtimeOptions::typical(s.rt_priority);
  if (s.rt_cpu >= 0) options.realtime.control.cpus = {s.rt_cpu};
  return options;
}

// The robot in front of you: the backend's options from --backend-params, then --set, over what the
// demo chose (the user's values win). Every key is the options struct's field path, e.g.
// wire.types.aurora_state or dds.domain (docs/backends/<vendor>.md lists the UNVERIFIED ones).
// Call with the vendor's options_params.hpp included.
template <class Options>
void apply_backend_settings(Options& o, const Settings& s) {
  if (!s.backend_params.empty()) praxis::io::load_struct_into(o, std::filesystem::path(s.backend_params));
  if (!s.settings.empty()) praxis::io::apply_settings(o, std::span<const std::string>(s.settings), "--set");
}

// How the run ended, printed, and the program's exit code (docs/safety.md, "Exit codes"): 0 for a
// normal end, and for the story's own scripted tilt (the fault the demo is there to show) when the
// robot was handed back; 1 for anything else (another fault, a lost link, a stall that ended the
// run, an unconfirmed hand-back); with --strict, 3 for a normal end that rode out a stall, a freeze
// or a pause of the robot's state. 2 is main's: bad arguments, or an error before control began.
inline constexpr int k_exit_rode_out = 3;
inline int report_outcome(const praxis::control::RunOutcome& outcome, bool tilt_scripted, const Settings& s) {
  std::printf("%s\n", outcome.summary().c_str());
  const bool scripted = tilt_scripted && outcome.end == praxis::control::RunEnd::fault && outcome.hand_back_ok &&
                        outcome.cause == praxis::motion::to_string(praxis::motion::SelectionCause::tilt);
  if (scripted) std::printf("(the fault is the story's scripted tilt)\n");
  const int code = scripted ? 0 : outcome.exit_code();
  if (code == 0 && s.strict && outcome.rode_out.any()) {
    std::printf("--strict: the run rode out %s: exit code %d\n", outcome.rode_out.describe().c_str(), k_exit_rode_out);
    return k_exit_rode_out;
  }
  return code;
}

template <class Controller>
void print_transitions(const Controller& controller) {
  const auto transitions = controller.transitions();
  std::printf("\n%zu transitions:\n", transitions.size());
  for (const auto& e : transitions) {
    std::printf("  %7.3f s  %-8s -> %-8s  (%s)\n", e.time,
                std::string(praxis::control::to_string(praxis::control::control_state(e.from))).c_str(),
                std::string(praxis::control::to_string(praxis::control::control_state(e.to))).c_str(),
                std::string(praxis::motion::to_string(e.cause)).c_str());
  }
}

// The story on mock hardware, for every model: lying on the floor, damping -> stand (R2 held) ->
// ctrl (A) -> tilt fault -> damping. The mock is a robot whose every joint praxis owns; a robot
// that balances itself shows its own way in and out against its fake robot (--backend fake-robot).
template <class Model>
int mock_story(const Settings& s, std::string_view vendor) {
  using Robot = praxis::mock::MockRobot<Model>;
  const auto params = params_folder(s);
  Ctrl<Model> probe;  // read and check the parameters before a run folder or a robot exists
  load_controller(probe, s);

  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  const auto run_folder = open_run_folder(s, options,
                                          {{"param_folder", std::filesystem::absolute(params).string()},
                                           {"robot", s.robot},
                                           {"backend", "mock"},
                                           {"dt", std::to_string(probe.dt)},
                                           {"mode", s.realtime ? "realtime" : "simulated"}});

  // The script runs on the mock's clock: real time when --realtime, simulated time otherwise.
  const praxis::TimePoint t0 = s.realtime ? praxis::Clock::now() : praxis::TimePoint{};
  Robot robot(praxis::mock::MockOptions{}, t0);
  const auto at = [&](double seconds) { return t0 + praxis::from_seconds(seconds); };
  const double d = s.duration;
  robot.hold(praxis::GamepadButton::R2, at(0.05 * d), praxis::from_seconds(0.35 * d));  // stand up
  robot.tap(praxis::GamepadButton::A, at(0.45 * d));                                    // start ctrl
  robot.tilt(2.0, 0.3, at(0.75 * d));                                                   // it falls over

  praxis::control::RobotController<Robot, Ctrl<Model>> controller(robot, options);
  const praxis::control::StopOnSignals stop_on_signals(controller);  // Ctrl-C: the run ends damped
  load_controller_of(controller, s);
  Observation observation(controller, s.record, s.record_compression, s.live, s.live_rate,
                          folder_for_recording(s, run_folder), run_facts(s));

  std::printf("praxis demo: mock %s lying on the floor, %zu joints, control period %.1f ms, %s\n", s.robot.c_str(),
              Model::joint_count, praxis::to_seconds(controller.period()) * 1e3,
              s.realtime ? "real time (3 threads)" : "simulated time");
  if (vendor != "unitree") {
    std::printf("mock: praxis owns every joint of this %s model here; the robot's own way in and out of control "
                "(its hand-back) runs against its fake robot: --backend fake-robot\n",
                std::string(vendor).c_str());
  }
  std::printf("script: R2 held %.1f-%.1f s, A at %.1f s, tilt fault at %.1f s\n\n", 0.05 * d, 0.4 * d, 0.45 * d,
              0.75 * d);

  double worst_stand_error = 0.0;
  praxis::control::RunOutcome outcome;
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
      if (++cycle % 1024 == 0) {
        controller.flush();
        observation.drain();
      }
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
  observation.finish();

  print_transitions(controller);
  const auto stats = controller.compute_stats();
  std::printf("\ncompute time, last window of %zu cycles: mean %.2f us, p99 %.2f us, max %.2f us\n", stats.samples,
              stats.mean_us, stats.p99_us, stats.max_us);
  if (!s.realtime) std::printf("largest joint error to the stand pose before ctrl: %.4f rad\n", worst_stand_error);
  std::printf("commands that reached the motors: %llu (non-finite: %llu, outside limits: %llu)\n",
              static_cast<unsigned long long>(robot.commands_received()),
              static_cast<unsigned long long>(robot.non_finite_commands()),
              static_cast<unsigned long long>(robot.out_of_limit_commands()));
  std::printf("final state: %s\n", std::string(praxis::control::to_string(controller.state())).c_str());
  if (controller.dropped_reports() > 0) {
    std::printf("log records dropped (reporter queue full): %llu\n",
                static_cast<unsigned long long>(controller.dropped_reports()));
  }
  if (!run_folder.empty()) std::printf("logs: %s\n", run_folder.string().c_str());
  return report_outcome(outcome, true, s);
}

// praxis-replay: the recording's cycle inputs through the configuration it was recorded with (the
// robot, the backend's traits, the parameters — or the ones given now), every port compared
// (observe/replay.hpp). 0: bit-identical; 1: it diverged (where, printed); 2: not replayable.
template <class Model, class B>
int replay_story(const Settings& s) {
  const praxis::observe::McapReader recording(s.replay);
  if (!recording.complete()) {
    std::printf("note: %s ends early (a run that was killed): replaying its %zu complete chunks\n",
                s.replay.c_str(), recording.chunks().size());
  }
  praxis::observe::ReplayBackend<B> robot(replay_facts<Model>(recording_facts(recording)));
  const auto params = params_folder(s);
  Ctrl<Model> probe;
  load_controller(probe, s);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);
  options.print = false;
  praxis::control::RobotController<praxis::observe::ReplayBackend<B>, Ctrl<Model>> controller(robot, options);
  load_controller_of(controller, s);
  praxis::observe::ReplayOptions ro;
  ro.rerecord = s.replay_out.empty() ? std::filesystem::path(s.replay).replace_extension(".replay.mcap")
                                     : std::filesystem::path(s.replay_out);
  ro.metadata = run_facts(s);
  ro.metadata["program"] = "praxis-replay";
  std::printf("replaying %s: %s on %s, parameters %s\n", s.replay.c_str(), s.robot.c_str(), s.backend.c_str(),
              params.string().c_str());
  const auto report = praxis::observe::replay(controller, robot, recording, s.replay, ro);
  std::printf("%s\n", report.summary().c_str());
  return report.identical() ? 0 : 1;
}

// A fake robot as a child process, stopped (SIGTERM, waited for) when this goes. The fakes end by
// themselves when this process dies (PRAXIS_EXIT_WITH_PARENT, set by the tests).
class FakeProcess {
 public:
  FakeProcess() = default;
  // args[0]: the program's file name, found next to this program.
  FakeProcess(const Settings& s, std::vector<std::string> args) {
    const auto exe = std::filesystem::path(s.self).parent_path() / args[0];
    if (!std::filesystem::exists(exe)) {
      throw std::runtime_error("--backend fake-robot: " + exe.string() + " not found (build the target " + args[0] +
                               ")");
    }
    args[0] = exe.string();
    // --fake-arg wins over the demo's own choice of the same option ("--robot k1" against a t1
    // controller: a robot that is not the model praxis was told).
    for (const auto& extra : s.fake_args) {
      if (extra.rfind("--", 0) != 0) continue;
      for (std::size_t k = 1; k + 1 < args.size(); ++k) {
        if (args[k] == extra) {
          args.erase(args.begin() + static_cast<std::ptrdiff_t>(k), args.begin() + static_cast<std::ptrdiff_t>(k + 2));
          break;
        }
      }
    }
    args.insert(args.end(), s.fake_args.begin(), s.fake_args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, args[0].c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start " + args[0]);
    }
  }
  FakeProcess(const FakeProcess&) = delete;
  FakeProcess& operator=(const FakeProcess&) = delete;
  FakeProcess(FakeProcess&& o) noexcept : pid_(std::exchange(o.pid_, 0)) {}
  FakeProcess& operator=(FakeProcess&& o) noexcept {
    stop();
    pid_ = std::exchange(o.pid_, 0);
    return *this;
  }
  ~FakeProcess() { stop(); }
  [[nodiscard]] pid_t pid() const { return pid_; }
  void stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
      pid_ = 0;
    }
  }

 private:
  pid_t pid_ = 0;
};

// The run every DDS story ends with: USER_CTRL under RobotController on `robot`, Ctrl-C ending it in
// the robot's safe state, recording and the live view as asked; then the transitions, what
// `print_counts` says of the backend's own counts, and the final state.
template <class Model, class Robot, class PrintCounts>
praxis::control::RunOutcome run_story(Robot& robot, const praxis::control::ControllerOptions& options,
                                      const Settings& s, const std::filesystem::path& run_folder,
                                      PrintCounts&& print_counts) {
  praxis::control::RobotController<Robot, Ctrl<Model>> controller(robot, options);
  load_controller_of(controller, s);
  const praxis::control::StopOnSignals stop_on_signals(controller);  // Ctrl-C: the run ends in the robot's safe state
  Observation observation(controller, s.record, s.record_compression, s.live, s.live_rate,
                          folder_for_recording(s, run_folder), run_facts(s));
  const auto outcome = controller.run_for(praxis::from_seconds(s.duration));
  controller.flush();
  observation.finish();
  print_transitions(controller);
  print_counts();
  std::printf("final state: %s\n", std::string(praxis::control::to_string(controller.state())).c_str());
  return outcome;
}

// A DDS backend's link counts; `rejected` names what a rejected state was ("rejected", "CRC errors").
template <class Backend>
praxis::LinkHealth print_link(Backend& robot, const char* rejected) {
  praxis::LinkHealth link;
  robot.read_link(link);
  std::printf("states accepted: %llu, %s: %llu, commands sent: %llu\n",
              static_cast<unsigned long long>(link.states_received), rejected,
              static_cast<unsigned long long>(link.states_rejected),
              static_cast<unsigned long long>(link.commands_sent));
  return link;
}

}  // namespace demo
