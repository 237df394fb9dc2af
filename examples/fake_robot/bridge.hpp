#pragma once
// The fake robot's DDS bridge, over any praxis::Plant (core/plant.hpp) with a gamepad: it takes every rt/lowcmd frame
// and checks each the way the robot would (CRC, header, motor mode, mode_machine, hg mode_pr),
// counting each violation; once per 500 Hz tick it applies the newest frame that passed to the plant
// and publishes rt/lowstate (CRC, tick, the scripted gamepad in wireless_remote) with the topics
// vendor examples also read (side_topics.hpp). It answers the motion_switcher RPCs.
//
// On the hg humanoids it also takes rt/arm_sdk while its motion service runs: the waist and arm
// targets blended into its own stand-pose control by the frame's weight (slot 29's q).
//
// praxis-fake-robot drives mock::MockRobot with it, praxis-sim a MuJoCo plant: one bridge, so both
// speak exactly the same DDS.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/core/gamepad_script.hpp>
#include <praxis/core/plant.hpp>
#include <praxis/hardware/unitree/arm_sdk.hpp>
#include <praxis/hardware/unitree/robot_codec.hpp>
#include <praxis/hardware/unitree/rpc.hpp>
#include <praxis/transport/dds.hpp>
#include <praxis/transport/rpc.hpp>

#include "command_intake.hpp"
#include "../common/fake_robot_main.hpp"
#include "side_topics.hpp"
#include "sport_service.hpp"

namespace fake_robot {

// rt/arm_sdk: the LowCmd slot whose q carries the blend weight (the G1's, per unitree_sdk2's arm SDK
// example: docs/backends/unitree.md, "Wire facts and their sources").
inline constexpr std::size_t k_weight_slot = 29;
struct ArmSdkStats {
  std::uint64_t applied = 0, ignored = 0;
  double last_weight = 0.0, max_weight = 0.0;
};

// The shared options (fake_common::Settings: --robot, --domain, --interface, --duration, --report)
// and the bridge's own.
struct Settings : fake_common::Settings {
  std::string program = "praxis-fake-robot";  // names the messages
  std::string gamepad;
  std::string sport_mode;
  // The sport service's own control of the joints while a motion service runs (sport_service.hpp):
  // its posture at start; empty: the service acknowledges posture calls and drives nothing.
  std::string sport_posture;
  double sport_transition = 1.0;  // s from one posture's pose to the next
  // The motion service's name (rt/api/<name>/request|response); empty: the model's own: "loco" for
  // the H1-2 (the H1 LocoClient's), "sport" for the others.
  std::string sport_service;
  std::string tilt;
  // When the gamepad and tilt scripts start counting: "start" (the robot's), "first-reader" (the
  // first reader of rt/lowstate: a controller has started) or "first-command" (the first command
  // frame). A controller that is slow to start, as under sanitizers on a loaded machine, then still
  // sees the whole script.
  std::string script_start = "start";
  int mode_machine = -1;
  bool simulator = false;
  bool echo = false;      // benchmark: answer every command at once instead of at 500 Hz
  bool echo_raw = false;  // benchmark baseline: answer with a fixed state, no checks, no dynamics
};

// The start-up both programs share: the shared options' Unitree defaults (fake_robot_main.hpp).
inline fake_common::Fake unitree_fake(std::string program, std::string description, std::string robot) {
  return {.program = std::move(program),
          .description = std::move(description),
          .robots = {"g1", "g1_23", "go2", "h1_2"},
          .robot = std::move(robot),
          .domain = 1,
          .domain_help = "DDS domain id (Unitree simulator convention: 1)",
          .report_help = "write the counters as JSON to this file at exit"};
}

// The command line both programs share, beyond fake_robot_main's.
inline void add_bridge_options(CLI::App& app, Settings& s) {
  app.add_option("-g,--gamepad", s.gamepad,
                 "gamepad script, seconds from the script's start: buttons BUTTON:START[-END], sticks "
                 "AXIS=VALUE@START[-END] (lx ly rx ry, -1..1), e.g. \"R2:0.5-3.0,A:4.0,LY=0.5@10-30\"");
  app.add_option("--sport-mode", s.sport_mode, "motion service active at start (\"\" = none)");
  app.add_option("--sport-posture", s.sport_posture,
                 "with --sport-mode: the motion service stands and walks the robot itself (go2: SportClient's Damp, "
                 "StandUp, StandDown, RecoveryStand, BalanceStand, Move, StopMove; g1: LocoClient's SetFsmId and "
                 "SetVelocity; h1_2: the H1 LocoClient's SetFsmId, SetVelocity and SetBalanceMode), starting in "
                 "this posture")
      ->check(CLI::IsMember({"damped", "lying", "standing", "balancing"}));
  app.add_option("--sport-service", s.sport_service,
                 "the motion service's name, answered on rt/api/<name>/request (default: loco for h1_2, sport "
                 "for the others)");
  app.add_option("--sport-transition", s.sport_transition, "seconds from one sport posture's pose to the next")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--mode-machine", s.mode_machine, "hg robots: the mode_machine this robot reports");
  app.add_flag("--simulator", s.simulator,
               "behave like Unitree's MuJoCo bridge: no motion_switcher service, LowState crc 0 and mode_machine 0, "
               "command CRCs not checked (--sport-mode is ignored: the simulator runs no motion service)");
  app.add_option("--script-start", s.script_start,
                 "when the --gamepad and --tilt times start counting: at the robot's start, when a reader of "
                 "rt/lowstate appears, or at the first command frame (printed as \"script started\" with the "
                 "wall-clock time)")
      ->check(CLI::IsMember({"start", "first-reader", "first-command"}));
}

// How long the robot has run: its own clock where it has one (a simulation in lock-step runs slower
// than the wall clock when its controller is starved), else the wall clock's.
template <praxis::Plant Robot>
praxis::Duration elapsed(Robot& robot, praxis::Duration wall) {
  if constexpr (requires { robot.elapsed(); }) {
    return robot.elapsed();
  } else {
    return wall;
  }
}

// Runs the robot until fake_common::stop_requested() or --duration and returns its report.
// `make_robot(t0)` builds the plant (MockRobot<M>, praxis-sim's SimRobot<M>: a praxis::Plant of model
// M with gamepad(), script_gamepad() and q()) once DDS is up, so the gamepad script's times count from
// when the robot can first be heard. Optional plant
// members: tilt() for --tilt, finish() for work at the end of the run, add_to_report(json&) for
// plant-specific report fields, elapsed() for a clock of its own that --duration counts.
template <praxis::unitree::UnitreeModel M, class MakeRobot>
fake_common::Report run_bridge(const Settings& s, MakeRobot make_robot) {
  namespace u = praxis::unitree;
  using Family = typename u::Wire<M>::Family;
  constexpr std::size_t N = M::joint_count;
  std::uint8_t mode_machine = 0;  // go robots have none; Unitree's simulators report 0
  if constexpr (std::is_same_v<Family, u::HgFamily>) {
    if (!s.simulator) {
      mode_machine = s.mode_machine >= 0 ? static_cast<std::uint8_t>(s.mode_machine) : u::Wire<M>::expected_mode_machine;
    }
  }

  praxis::transport::Participant participant({s.domain, s.interface});
  fake_robot::CommandIntake<M> commands(participant, {.topic = "rt/lowcmd", .check_crc = !s.simulator,
                                                      .mode_machine = mode_machine});
  praxis::transport::Publisher<typename Family::LowState> states(participant, "rt/lowstate", Family::low_state_descriptor());
  fake_robot::SideTopics<M> side(participant);
  // hg humanoids: rt/arm_sdk, the arms blended into the robot's own control while it walks.
  std::optional<fake_robot::CommandIntake<M>> arm_sdk;
  if constexpr (std::is_same_v<Family, u::HgFamily>) {
    arm_sdk.emplace(participant, fake_robot::IntakeOptions{.topic = "rt/arm_sdk", .check_crc = !s.simulator,
                                                          .mode_machine = mode_machine});
  }
  ArmSdkStats arm_stats;
  // The vendor simulator has no motion services, so a client calling one gets no answer.
  std::optional<praxis::transport::RpcServer<u::UnitreeApiTraits>> switcher;
  // The sport service: the posture requests vendor examples send before ReleaseMode (StandDown,
  // Damp, ...) are acknowledged while a motion service runs; this fake robot has no postures.
  std::optional<praxis::transport::RpcServer<u::UnitreeApiTraits>> sport;
  if (!s.simulator) {
    switcher.emplace(participant, u::api_request_topic(u::motion_switcher::k_service),
                     u::api_response_topic(u::motion_switcher::k_service));
    const std::string service = !s.sport_service.empty()             ? s.sport_service
                                : std::is_same_v<M, u::H1_2> ? std::string(u::h1_loco::k_service)
                                                             : std::string(u::sport::k_service);
    sport.emplace(participant, u::api_request_topic(service), u::api_response_topic(service));
  }
  std::uint64_t sport_requests = 0, sport_refused = 0;

  const auto t0 = praxis::Clock::now();
  auto robot = make_robot(t0);
  using Robot = decltype(robot);
  static_assert(praxis::check_plant<Robot>(), "the bridge drives a praxis::Plant: see the message above");
  static_assert(std::is_same_v<typename Robot::model, M>, "make_robot must build a plant of the bridge's robot model");
  static_assert(requires(Robot& r) {
    { r.gamepad() } -> std::convertible_to<praxis::GamepadState>;
    r.script_gamepad(std::span<const praxis::GamepadScriptItem>(), praxis::TimePoint{});
    { r.q() } -> std::convertible_to<praxis::JointVector<N>>;
  }, "the bridge plays --gamepad on the plant (script_gamepad()), publishes its gamepad() and reports its q(): the "
     "plant needs all three");
  std::optional<SportService<M>> sport_control;
  if (!s.sport_posture.empty() && !s.simulator) {
    if (s.sport_mode.empty()) throw std::invalid_argument("--sport-posture: needs a motion service (--sport-mode normal)");
    const Posture start = s.sport_posture == "damped"     ? Posture::damped
                          : s.sport_posture == "lying"    ? Posture::lying
                          : s.sport_posture == "standing" ? Posture::standing_locked
                                                          : Posture::balancing;
    constexpr Dialect dialect = std::is_same_v<M, u::Go2>    ? Dialect::go2_sport
                                : std::is_same_v<M, u::H1_2> ? Dialect::h1_loco
                                                             : Dialect::g1_loco;
    sport_control.emplace(dialect, start, s.sport_transition, t0);
    // A plant pacing a scene of its own (praxis-sim: plant()) starts where that scene put it.
    if constexpr (!requires { robot.plant(); }) {
      if (start != Posture::damped && start != Posture::lying) robot.set_joint_positions(M::stand_pose);
    }
  }
  // The scripts are checked now (a bad one is an error before anything runs) and scheduled from `at`.
  const auto gamepad_script = praxis::parse_gamepad_script(s.gamepad);
  const auto schedule_scripts = [&](auto& plant, praxis::TimePoint at) {
    if constexpr (requires { plant.script_gamepad(gamepad_script, at); }) plant.script_gamepad(gamepad_script, at);
    if (!s.tilt.empty()) {  // "T:ROLL:PITCH"
      if constexpr (!requires { plant.tilt(0.0, 0.0, at); }) {
        throw std::invalid_argument("--tilt: this robot cannot be tilted by hand");
      } else {
        double t = 0, roll = 0, pitch = 0;
        char c1 = 0, c2 = 0;
        std::stringstream in(s.tilt);
        if (!(in >> t >> c1 >> roll >> c2 >> pitch) || c1 != ':' || c2 != ':') {
          throw std::invalid_argument("--tilt: expected T:ROLL:PITCH, got \"" + s.tilt + "\"");
        }
        plant.tilt(roll, pitch, at + praxis::from_seconds(t));
      }
    }
  };
  bool script_started = s.script_start == "start";
  if (script_started) {
    schedule_scripts(robot, t0);
  } else {
    // Checked on a stand-in that only records nothing; scheduled on the robot at the first command.
    struct Check {
      void tilt(double, double, praxis::TimePoint) {}
    } check;
    if constexpr (!requires { robot.tilt(0.0, 0.0, t0); }) {
      if (!s.tilt.empty()) throw std::invalid_argument("--tilt: this robot cannot be tilted by hand");
    }
    schedule_scripts(check, t0);
  }
  const auto start_script = [&](praxis::TimePoint now, const char* why) {
    if (script_started) return;
    script_started = true;
    schedule_scripts(robot, now);
    const auto wall = std::chrono::system_clock::now();
    const auto secs = std::chrono::system_clock::to_time_t(wall);
    std::tm tm{};
    localtime_r(&secs, &tm);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count() % 1000;
    std::printf("%s: script started at the %s, %02d:%02d:%02d.%03lld (epoch %lld.%03lld)\n",
                s.program.c_str(), why, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(ms),
                static_cast<long long>(secs), static_cast<long long>(ms));
    std::fflush(stdout);
  };
  std::string active_mode = s.simulator ? std::string() : s.sport_mode;
  std::uint64_t states_published = 0, rpcs = 0;
  praxis::JointCommand<N> cmd, arm_cmd;
  praxis::RobotState<N> state;
  typename Family::LowState out{};
  std::uint32_t tick = 0;
  bool warned_ab = false;
  praxis::TimePoint last_publish{};
  praxis::Duration longest_gap{};
  praxis::Duration longest_gap_end{};

  std::printf("%s: %s on DDS domain %u, interface %s%s%s\n", s.program.c_str(), std::string(M::name).c_str(), s.domain,
              s.interface.c_str(), s.simulator ? ", as Unitree's simulator (no RPC, LowState crc 0)" : "",
              active_mode.empty() ? "" : (", motion service \"" + active_mode + "\" active").c_str());
  std::fflush(stdout);
  auto next = t0;
  double last_stiff_s = -1.0, damping_since_s = -1.0;  // the applied frames (report: last_applied)
  while (!fake_common::stop_requested()) {
    bool fresh = false;
    if (s.echo || s.echo_raw) {
      // Benchmark modes: poll for commands every 20 us and answer at once.
      fresh = s.echo_raw ? commands.drain_unchecked() : commands.drain(cmd);
      if (!fresh) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        continue;
      }
      if (s.echo_raw) {
        out.tick = ++tick;
        states.write(out);
        continue;
      }
    } else {
      next += std::chrono::milliseconds(2);
      std::this_thread::sleep_until(next);
      fresh = commands.drain(cmd);
    }
    const auto now = praxis::Clock::now();
    if (s.duration > 0 && elapsed(robot, now - t0) > praxis::from_seconds(s.duration)) break;
    if (!warned_ab && commands.counts().mode_pr_ab > 0) {
      std::fprintf(stderr, "%s: rejecting rt/lowcmd frames with mode_pr 1: mode_pr AB not supported "
                           "(the parallel-ankle mapping is unknown here; send PR frames, mode_pr 0)\n",
                   s.program.c_str());
      warned_ab = true;
    }

    if (fresh && s.script_start == "first-command") start_script(now, "first command");
    if (!script_started && s.script_start == "first-reader" && states.matched() > 0) {
      start_script(now, "first reader of rt/lowstate");
    }
    if (fresh) {
      // While a motion service runs, the robot's own controller owns the motors.
      if (active_mode.empty()) {
        robot.write(cmd, now);
        commands.count_applied();
        // Damping (every covered joint kp 0) since when, and the last stiff frame: how control ended.
        bool stiff = false;
        for (std::size_t j = 0; j < N; ++j) {
          stiff = stiff || (cmd.mode[j] == praxis::JointMode::position && cmd.kp[static_cast<Eigen::Index>(j)] > 0.0);
        }
        const double t = praxis::to_seconds(now - t0);
        if (stiff) {
          last_stiff_s = t;
          damping_since_s = -1.0;
        } else if (damping_since_s < 0.0) {
          damping_since_s = t;
        }
      } else {
        commands.count_held();
      }
    }
    if (sport_control && !active_mode.empty()) robot.write(sport_control->command(now), now);
    if constexpr (std::is_same_v<Family, u::HgFamily>) {
      if (arm_sdk && arm_sdk->drain(arm_cmd)) {
        if (s.script_start == "first-command") start_script(now, "first command");
        if (active_mode.empty()) {
          ++arm_stats.ignored;  // low-level control has the arms already
        } else {
          // The robot's own controller holds its stand pose; the weight blends the arm SDK's targets
          // into the waist and arm joints.
          const double w = std::clamp(static_cast<double>(arm_sdk->newest_frame().motor_cmd[k_weight_slot].q), 0.0, 1.0);
          praxis::JointCommand<N> own;
          for (std::size_t j = 0; j < N; ++j) {
            const auto i = static_cast<Eigen::Index>(j);
            own.q[i] = M::stand_pose[j];
            own.kp[i] = M::default_kp[j];
            own.kd[i] = M::default_kd[j];
            if (!u::arm_sdk_joint<M>(j)) continue;
            own.q[i] = w * arm_cmd.q[i] + (1.0 - w) * own.q[i];
            own.kp[i] = w * arm_cmd.kp[i] + (1.0 - w) * own.kp[i];
            own.kd[i] = w * arm_cmd.kd[i] + (1.0 - w) * own.kd[i];
            own.tau_ff[i] = w * arm_cmd.tau_ff[i];
          }
          robot.write(own, now);
          ++arm_stats.applied;
          arm_stats.last_weight = w;
          arm_stats.max_weight = std::max(arm_stats.max_weight, w);
        }
      }
    }
    robot.read(state, now);  // advances the joints to now
    state.gamepad = robot.gamepad();
    u::encode_state<M>(state, {++tick, mode_machine, 0}, out);
    if (s.simulator) out.crc = 0;  // what Unitree's Python simulator sends
    if (states.write(out)) ++states_published;
    // A controller declares the robot lost after a silence (100 ms by default); on a loaded machine
    // this tells whether the silence was here.
    if (tick > 1 && now - last_publish > longest_gap) {
      longest_gap = now - last_publish;
      longest_gap_end = now - t0;
    }
    last_publish = now;
    // The benchmark's answer must be the LowState alone, as in its plain Cyclone baseline.
    if (!s.echo) side.publish(out, state.gamepad, tick);

    if (sport) {
      sport->poll([&](const auto& request, auto& response) {
        response.header.identity = request.header.identity;
        const auto id = request.header.identity.api_id;
        const bool posture = id >= u::sport::k_damp && id <= u::sport::k_recovery_stand;
        // 3203 "not implemented" for the rest, and for everything once the service was released.
        if (active_mode.empty()) {
          response.header.status.code = 3203;
        } else if (sport_control) {
          response.header.status.code =
              sport_control->handle(id, request.parameter ? request.parameter : "", robot.q(), praxis::Clock::now());
          if (s.script_start == "first-command") start_script(praxis::Clock::now(), "first sport call");
        } else {
          response.header.status.code = posture ? 0 : 3203;
        }
        ++sport_requests;
        sport_refused += response.header.status.code != 0;
        auto storage = std::make_shared<std::string>("{}");
        response.data = storage->data();
        return storage;
      });
    }
    if (!switcher) continue;
    rpcs += static_cast<std::uint64_t>(switcher->poll([&](const auto& request, auto& response) {
      response.header.identity = request.header.identity;
      response.header.status.code = 0;
      std::string data;
      switch (request.header.identity.api_id) {
        case u::motion_switcher::k_check_mode: data = R"({"name":")" + active_mode + R"(","form":"0"})"; break;
        case u::motion_switcher::k_release_mode: active_mode.clear(); data = "{}"; break;
        case u::motion_switcher::k_select_mode: {
          const auto j = nlohmann::json::parse(request.parameter ? request.parameter : "{}", nullptr, false);
          active_mode = j.is_object() ? j.value("name", std::string()) : std::string();
          data = "{}";
          break;
        }
        default: response.header.status.code = 3203; data = "{}";  // not implemented
      }
      auto storage = std::make_shared<std::string>(std::move(data));
      response.data = storage->data();
      return storage;
    }));
  }

  if constexpr (requires { robot.finish(); }) robot.finish();
  auto report = fake_robot::to_json(commands.counts());
  report["robot"] = std::string(M::name);
  report["simulator"] = s.simulator;
  report["states_published"] = states_published;
  report["side_topics_published"] = {{"rt/wirelesscontroller", side.counts().wireless_controller},
                                     {"rt/lf/lowstate", side.counts().lf_lowstate},
                                     {"rt/secondary_imu", side.counts().secondary_imu}};
  report["longest_state_gap_ms"] = std::chrono::duration<double, std::milli>(longest_gap).count();
  report["longest_state_gap_end_s"] = praxis::to_seconds(longest_gap_end);
  report["rpc_requests"] = rpcs;
  report["sport_requests"] = sport_requests;
  report["sport_requests_refused"] = sport_refused;
  report["active_mode"] = active_mode;
  report["last_applied"] = {{"damping", damping_since_s >= 0.0}, {"damping_since_s", damping_since_s},
                            {"last_stiff_s", last_stiff_s}};
  if (sport_control) report["sport"] = sport_control->report();
  report["final_q"] = std::vector<double>(robot.q().data(), robot.q().data() + N);
  if constexpr (requires { robot.add_to_report(report); }) robot.add_to_report(report);
  if (arm_sdk) {
    auto arm = fake_robot::to_json(arm_sdk->counts());
    report["arm_sdk"] = {{"frames_received", arm["frames_received"]},
                         {"frames_checked", arm["frames_checked"]},
                         {"frames_applied", arm_stats.applied},
                         {"frames_ignored_in_low_level_control", arm_stats.ignored},
                         {"last_weight", arm_stats.last_weight},
                         {"max_weight", arm_stats.max_weight}};
  }
  return {report, ""};
}

}  // namespace fake_robot
