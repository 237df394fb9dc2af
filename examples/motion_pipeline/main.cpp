// The motion pipeline on a mock robot: a behaviour script (stand, walk, a keyframe script, damping)
// drives selection -> execution -> command sending. Prints every motion change, and the pipeline as
// Graphviz DOT with --dot. With --backend fake-booster the same pipeline drives a Booster robot
// over DDS (praxis-fake-booster, started for you; booster_story.hpp), --backend booster a real one;
// --backend fake-aurora a Fourier robot walking by itself (aurora_story.hpp), --backend aurora a
// real one; --backend fake-unitree a Go2, G1 or H1-2 walking by itself through its motion service
// (unitree_story.hpp), --backend unitree a real one; --backend fake-tienkung a Tienkung walking by
// itself under its HRIC controller (tienkung_story.hpp), --backend tienkung a real one.
//
//   praxis_motion_demo --robot g1 [--dot pipeline.dot]
//   praxis_motion_demo --backend fake-booster --robot k1|t1 [--domain 0]
//   praxis_motion_demo --backend fake-aurora --robot gr1|gr2|gr3|n1 [--domain 123]
//   praxis_motion_demo --backend fake-unitree --robot go2|g1|h1_2 [--domain 1]
//   praxis_motion_demo --backend fake-tienkung --robot pro|lite [--service-wire cyclonedds] [--domain 2]

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/graph/introspection.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/hardware/unitree/g1.hpp>
#include <praxis/hardware/unitree/g1_23.hpp>
#include <praxis/hardware/unitree/go2.hpp>
#include <praxis/hardware/unitree/h1_2.hpp>

#include "../common/shipped_files.hpp"
#include "step_in_place.hpp"
#ifdef PRAXIS_WITH_MUJOCO
#include "../sim/sim_robot.hpp"
#endif
#ifdef PRAXIS_WITH_DDS
#include <praxis/hardware/aurora/models.hpp>
#include <praxis/hardware/booster/models.hpp>

#include "booster_story.hpp"
#include "aurora_story.hpp"
#include "tienkung_story.hpp"
#include "unitree_story.hpp"
#endif

#ifndef PRAXIS_EXAMPLE_SCRIPTS_DIR
#define PRAXIS_EXAMPLE_SCRIPTS_DIR "examples/scripts"
#endif

namespace {

namespace m = praxis::motion;

// The timeline on `robot`: the mock, or (--backend mujoco) praxis-sim's MuJoCo plant in simulated time.
template <class Model, class Robot>
int run_on(Robot& robot, const std::string& what, const std::string& dot_file, const std::string& scripts_dir) {
  using Motion = praxis::control::MotionController<Robot, praxis::control::CommandInput, example::StepInPlace<Model>>;
  praxis::script::ScriptLibrary<Model> library;
  library.load_folder(std::filesystem::path(scripts_dir) / std::string(Model::name));
  praxis::control::MotionOptions options;
  options.print = false;  // the demo prints the changes itself
  Motion motion(robot, library, options);
  const praxis::control::StopOnSignals stop_on_signals(motion);  // Ctrl-C: the timeline ends in damping

  if (!dot_file.empty()) {
    std::ofstream out(dot_file);
    if (!out) throw std::runtime_error("cannot write '" + dot_file + "'");
    out << praxis::to_dot(praxis::describe<std::remove_cvref_t<decltype(motion.graph())>>(), "motion pipeline");
    std::printf("pipeline written to %s\n", dot_file.c_str());
  }

  // The behaviour: a timeline of motion commands.
  m::command::Script wave;
  wave.request.names = {"wave"};
  wave.request.count = 1;
  wave.id = 1;
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, 0.0};
  const std::pair<double, m::MotionCommand> timeline[] = {
      {0.5, m::command::Stand{}}, {3.0, walk}, {6.0, m::command::Stand{}}, {8.0, wave}, {14.0, m::command::Damping{}}};

  std::printf("%s %s, %zu library scripts\n", what.c_str(), std::string(Model::name).c_str(), library.size());
  praxis::TimePoint now{};
  const auto at = [](double s) { return praxis::TimePoint{} + praxis::from_seconds(s); };
  std::size_t next = 0;
  auto last = m::MotionType::damping;
  while (now < at(15.0) && !motion.stop_requested()) {
    now += std::chrono::milliseconds(2);
    if (next < std::size(timeline) && now >= at(timeline[next].first)) {
      motion.behaviour().command = timeline[next].second;
      std::printf("%6.3f s  command: %s\n", praxis::to_seconds(now.time_since_epoch()),
                  std::string(m::to_string(m::requested_type(timeline[next].second))).c_str());
      ++next;
    }
    motion.step(now);
    const auto& sel = motion.selection();
    if (sel.current != last) {
      std::printf("%6.3f s    motion: %-11s%s%s\n", praxis::to_seconds(now.time_since_epoch()),
                  std::string(m::to_string(sel.current)).c_str(),
                  sel.current == m::MotionType::dispatching ? " -> " : "",
                  sel.current == m::MotionType::dispatching ? std::string(m::to_string(sel.dispatching_to)).c_str() : "");
      last = sel.current;
    }
  }
  const auto outcome = motion.finish();  // the robot's safe state, and how the run went
  if constexpr (requires { robot.commands_received(); }) {
    std::printf("commands sent: %llu, non-finite: %llu\n", static_cast<unsigned long long>(robot.commands_received()),
                static_cast<unsigned long long>(robot.non_finite_commands()));
  } else {
    std::printf("physics: %.2f s simulated, %llu steps, diverged: %s\n", praxis::to_seconds(robot.elapsed()),
                static_cast<unsigned long long>(robot.plant().world().step_count()),
                robot.plant().diverged() ? "yes" : "no");
    std::printf("base trajectory: %s\n", praxis::sim::describe(robot.trajectory().summary()).c_str());
  }
  std::printf("%s\n", outcome.summary().c_str());
  return outcome.exit_code();
}

template <class Model>
int run(const std::string& dot_file, const std::string& scripts_dir) {
  praxis::mock::MockRobot<Model> robot;
  return run_on<Model>(robot, "mock", dot_file, scripts_dir);
}

#ifdef PRAXIS_WITH_MUJOCO
// In MuJoCo as praxis_demo --backend mujoco starts a robot: the Go2 lying after power-on, the G1 on
// the elastic band.
template <class Model>
int run_mujoco(const std::string& scripts_dir) {
  sim::SimOptions o;
  o.model = sim::shipped_model(std::string(Model::name));
  o.lying = std::string_view(Model::name) == "go2";
  o.band = sim::default_band(std::string(Model::name));
  o.run_length = std::chrono::seconds(15);
  o.program = "praxis_motion_demo";
  sim::SimRobot<Model> robot(o, praxis::TimePoint{});
  return run_on<Model>(robot, "MuJoCo (in this process, simulated time)", "", scripts_dir);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"praxis motion pipeline demo on a mock robot, or on a Booster robot over DDS"};
  std::string robot, dot, scripts = praxis::examples::shipped_files("scripts", PRAXIS_EXAMPLE_SCRIPTS_DIR).string(), backend = "mock", interface = "lo", params;
  std::uint32_t domain = 0;
  app.add_option("-r,--robot", robot,
                 "robot model (required): g1 or go2 (mock), k1 or t1 (Booster), gr1, gr2, gr3 or "
                 "n1 (Fourier); go2, g1, g1_23 or h1_2 walking by itself (fake-unitree, unitree); pro or lite (Tienkung, "
                 "fake-tienkung, tienkung)")
      ->check(CLI::IsMember({"g1", "go2", "g1_23", "h1_2", "k1", "t1", "gr1", "gr2", "gr3", "n1", "pro", "lite"}));
  app.add_option("--backend", backend,
                 "mock: in-process mock robot; mujoco: g1 or go2 in MuJoCo physics in this process, simulated time; "
                 "fake-booster: praxis-fake-booster started as a second process, over "
                 "DDS; booster: a Booster robot already on the domain and interface; fake-aurora / aurora: the "
                 "same for a Fourier robot walking by itself; fake-unitree / unitree: a Go2, G1 or H1-2 walking by itself "
                 "(its motion service); fake-tienkung / tienkung: a Tienkung walking by itself (its HRIC controller)")
      ->check(CLI::IsMember(
          {"mock", "mujoco", "fake-booster", "booster", "fake-aurora", "aurora", "fake-unitree", "unitree", "fake-tienkung", "tienkung"}));
  std::string service_wire = "fastrtps";
  app.add_option("--service-wire", service_wire,
                 "Tienkung: the envelope of the robot's ROS 2 services, by its ROS middleware (UNVERIFIED; Humble's "
                 "default is fastrtps)")
      ->check(CLI::IsMember({"fastrtps", "cyclonedds"}));
  std::vector<std::string> settings;
  std::string backend_params;
  app.add_option("--set", settings,
                 "Tienkung: KEY=VALUE over the walking backend's settings (backend.*, walking.*, hric.*; "
                 "docs/backends/tienkung.md, \"Walking by itself\"), after --backend-params; repeatable");
  app.add_option("--backend-params", backend_params, "Tienkung: the walking backend's settings as a JSON file")
      ->check(CLI::ExistingFile);
  app.add_option("--domain", domain, "DDS domain (Booster robots: 0)");
  app.add_option("--interface", interface, "network interface that reaches the robot");
  app.add_option("--booster-params", params, "booster_interface parameters file (JSON with comments)");
  std::string runtime_params;
  app.add_option("--runtime-params", runtime_params,
                 "DDS backends: the runtime's safety file (docs/parameters.md); a wider stale timeout widens the "
                 "backend's link timeout with it")
      ->check(CLI::ExistingFile);
  app.add_option("--dot", dot, "write the pipeline as Graphviz DOT to this file");
  app.add_option("--scripts", scripts, "folder with one script folder per robot");
  CLI11_PARSE(app, argc, argv);
  [[maybe_unused]] const std::string self = praxis::examples::own_path(argv[0]).string();
  try {
    if (robot.empty()) {
      throw std::invalid_argument("--robot is required: g1 or go2 (mock), k1 or t1 (--backend fake-booster or booster), "
                                  "gr1, gr2, gr3 or n1 (--backend fake-aurora or aurora), go2, g1, g1_23 or h1_2 "
                                  "(--backend fake-unitree or unitree), pro or lite (--backend fake-tienkung or tienkung)");
    }
    if ((!settings.empty() || !backend_params.empty()) && backend != "fake-tienkung" && backend != "tienkung") {
      throw std::invalid_argument("--set and --backend-params apply to --backend fake-tienkung and tienkung (Booster "
                                  "robots take --booster-params)");
    }
    if (backend == "mujoco") {
#ifdef PRAXIS_WITH_MUJOCO
      if (robot != "g1" && robot != "go2") throw std::invalid_argument("--backend mujoco: g1 or go2, not " + robot);
      return robot == "g1" ? run_mujoco<praxis::unitree::G1>(scripts) : run_mujoco<praxis::unitree::Go2>(scripts);
#else
      throw std::runtime_error("--backend mujoco needs praxis built with MuJoCo (PRAXIS_WITH_MUJOCO)");
#endif
    }
    if (backend != "mock") {
#ifdef PRAXIS_WITH_DDS
      if (backend == "fake-aurora" || backend == "aurora") {
        if (robot != "gr1" && robot != "gr2" && robot != "gr3" && robot != "n1") {
          throw std::invalid_argument("--robot " + robot + ": --backend " + backend +
                                      " drives a Fourier robot: gr1, gr2, gr3 or n1");
        }
        namespace fa = praxis::aurora;
        const bool spawn_aurora = backend == "fake-aurora";
        const std::uint32_t d = app.count("--domain") > 0 || spawn_aurora ? domain : fa::k_default_domain;
        const auto& rp = runtime_params;
        if (robot == "gr1") return example::run_aurora_story<fa::GR1>(self, d, interface, spawn_aurora, robot, rp);
        if (robot == "gr3") return example::run_aurora_story<fa::GR3>(self, d, interface, spawn_aurora, robot, rp);
        if (robot == "n1") return example::run_aurora_story<fa::N1>(self, d, interface, spawn_aurora, robot, rp);
        return example::run_aurora_story<fa::GR2>(self, d, interface, spawn_aurora, robot, rp);
      }
      if (backend == "fake-unitree" || backend == "unitree") {
        if (robot != "go2" && robot != "g1" && robot != "g1_23" && robot != "h1_2") {
          throw std::invalid_argument("--robot " + robot + ": --backend " + backend +
                                      " drives a Go2, G1 or H1-2 through its own motion service: go2, g1, g1_23 or h1_2");
        }
        const bool spawn_unitree = backend == "fake-unitree";
        // Unitree robots: domain 0; praxis-fake-robot, like Unitree's simulators: 1.
        const std::uint32_t d = app.count("--domain") > 0 ? domain : spawn_unitree ? 1 : 0;
        if (robot == "h1_2") {
          return example::run_unitree_story<praxis::unitree::H1_2>(self, d, interface, spawn_unitree, runtime_params);
        }
        if (robot == "g1_23") {
          return example::run_unitree_story<praxis::unitree::G1_23>(self, d, interface, spawn_unitree, runtime_params);
        }
        return robot == "g1"
                   ? example::run_unitree_story<praxis::unitree::G1>(self, d, interface, spawn_unitree, runtime_params)
                   : example::run_unitree_story<praxis::unitree::Go2>(self, d, interface, spawn_unitree, runtime_params);
      }
      if (backend == "fake-tienkung" || backend == "tienkung") {
        if (robot != "pro" && robot != "lite") {
          throw std::invalid_argument("--robot " + robot + ": --backend " + backend +
                                      " drives a Tienkung through its own motion controller: pro or lite");
        }
        namespace tk = praxis::tienkung;
        const bool spawn_tienkung = backend == "fake-tienkung";
        tk::WalkingParams p;
        p.hric.wire = service_wire == "cyclonedds" ? tk::ServiceWire::cyclonedds : tk::ServiceWire::fastrtps;
        // The robot's ROS_DOMAIN_ID: ROS' default 0 (UNVERIFIED); the fake's: 2, away from other fakes.
        p.backend.dds = {app.count("--domain") > 0 ? domain : spawn_tienkung ? 2u : 0u, interface};
        if (!backend_params.empty()) praxis::io::load_struct_into(p, std::filesystem::path(backend_params));
        praxis::io::apply_settings(p, settings, "--set");
        return robot == "lite" ? example::run_tienkung_story<tk::Lite>(self, spawn_tienkung, runtime_params, p)
                               : example::run_tienkung_story<tk::Pro>(self, spawn_tienkung, runtime_params, p);
      }
      // A Unitree model on a Booster backend is a mistake, not a request for some Booster.
      if (robot != "k1" && robot != "t1") {
        throw std::invalid_argument("--robot " + robot + ": --backend " + backend + " drives a Booster robot: k1 or t1");
      }
      const bool spawn = backend == "fake-booster";
      return robot == "t1"
                 ? example::run_booster_story<praxis::booster::T1>(self, domain, interface, spawn, params, runtime_params)
                 : example::run_booster_story<praxis::booster::K1>(self, domain, interface, spawn, params, runtime_params);
#else
      throw std::runtime_error("--backend " + backend + " needs praxis built with DDS (PRAXIS_WITH_DDS)");
#endif
    }
    if (robot != "g1" && robot != "go2") {
      throw std::runtime_error("--robot " + robot +
                               " needs a DDS backend (fake-booster, booster, fake-aurora, aurora, fake-unitree, unitree, "
                               "fake-tienkung, tienkung)");
    }
    return robot == "g1" ? run<praxis::unitree::G1>(dot, scripts) : run<praxis::unitree::Go2>(dot, scripts);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}
