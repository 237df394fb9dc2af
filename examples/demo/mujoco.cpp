// praxis_demo --backend mujoco: the story in MuJoCo physics in this process, in simulated time.
//
// The robot is praxis-sim's plant (examples/sim/sim_robot.hpp: MujocoPlant, the Go2 lying after
// power-on, the G1's elastic band, the pictures, the base trajectory) without the DDS bridge in
// front of it; its gamepad script reaches RobotController through WithGamepad. Nothing reads a wall
// clock: the loop steps the controller period by period on the simulated clock and the plant steps
// the physics up to each `now`, so a run goes as fast as the CPU allows and two runs with the same
// options write the same files bit for bit (log.csv's compute_us column aside: it is the CPU time
// each cycle took).
//
// The run folder gets what --backend sim's does (cfg.txt, log.csv, transitions.csv, pictures/) and
// base_trajectory.csv: x, y, z and yaw of the floating base at 50 Hz of simulated time, and
// handover_state.json: the physics state at the controller's first CTRL cycle.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/signals.hpp>
#include <praxis/control/with_gamepad.hpp>
#include <praxis/hardware/unitree/g1.hpp>
#include <praxis/hardware/unitree/go2.hpp>

#include "../sim/sim_robot.hpp"
#include "demo.hpp"

namespace demo {
namespace {

template <class Model>
using SimBackend = praxis::control::WithGamepad<sim::SimRobot<Model>>;

// The elastic band praxis-sim starts a robot on, unless --band says otherwise.
std::string band_script(const Settings& s) { return s.band ? *s.band : sim::default_band(s.robot); }

// What the recording says of the simulation: the model, the band and where the base went.
std::map<std::string, std::string> sim_facts(const sim::SimOptions& so, const praxis::sim::TrajectorySummary& t) {
  const auto number = [](double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return std::string(text);
  };
  return {{"model", std::filesystem::absolute(so.model).string()},
          {"band", so.band},
          {"trajectory_duration_s", number(t.duration)},
          {"upright_s", number(t.upright_seconds)},
          {"distance_m", number(t.distance)},
          {"displacement_m", number(t.displacement)},
          {"end_x", number(t.end.x)},
          {"end_y", number(t.end.y)},
          {"end_z", number(t.end.z)},
          {"heading_rad", number(t.end.yaw)},
          {"turned_rad", number(t.turned)}};
}

// The physics state the controller's first CTRL cycle read (the plant steps only when the next
// cycle reads), so a check can start another loop on the same plant from where the user's
// controller took over: praxis-reference-loop --initial-state.
void write_handover_state(const nlohmann::json& state, const std::filesystem::path& folder) {
  const auto file = folder / "handover_state.json";
  std::ofstream out(file);
  out << state.dump(1) << '\n';
  out.close();
  if (!out) {
    std::fprintf(stderr, "praxis demo: %s: could not write the hand-over state\n", file.string().c_str());
    return;
  }
  std::printf("hand-over to the controller at %.3f s: physics state in %s%s\n", state["elapsed_s"].get<double>(),
              file.string().c_str(), state["band_on"].get<bool>() ? " (the elastic band still holds the robot)" : "");
  std::fflush(stdout);
}

template <class Model>
int mujoco_story(const Settings& s) {
  using Robot = SimBackend<Model>;
  const auto params = params_folder(s);
  Ctrl<Model> probe;  // read and check the parameters before a run folder or a robot exists
  load_controller(probe, s);
  auto options = controller_options<praxis::control::ControllerOptions>(probe.dt, s);

  const double d = s.duration;
  sim::SimOptions so;
  so.model = s.model.empty() ? sim::shipped_model(s.robot) : std::filesystem::path(s.model);
  so.lying = s.robot == "go2";  // as praxis-sim starts it: lying after power-on; a G1 on its band
  so.band = band_script(s);
  so.run_length = praxis::from_seconds(d);
  so.program = "praxis_demo";
  // The model and the band checked before a run folder exists: a bad file or script leaves nothing.
  (void)sim::ElasticBand::parse(so.band);
  (void)praxis::sim::MujocoPlant<Model>(so.model);

  const auto run_folder = open_run_folder(s, options,
                                          {{"param_folder", std::filesystem::absolute(params).string()},
                                           {"robot", s.robot},
                                           {"backend", "mujoco (in process, simulated time)"},
                                           {"model", std::filesystem::absolute(so.model).string()},
                                           {"band", so.band},
                                           {"dt", std::to_string(probe.dt)},
                                           {"mode", "simulated"}});
  if (!run_folder.empty()) {
    so.pictures.folder = run_folder / "pictures";
    so.pictures.every = praxis::from_seconds(d <= 12 ? 0.5 : d / 24);
    so.pictures.camera = sim::robot_view(s.robot != "go2");
    so.pictures.every_frame = true;  // no tick to keep: every frame at its time, equal runs, equal pictures
  }

  // The operator's script of --backend sim, on the simulated clock: R2 held (stand up), A (the
  // user's controller), L2+B (damping: the story's end, a hand praxis-sim has no tilt for).
  const praxis::TimePoint t0{};
  const auto at = [&](double seconds) { return t0 + praxis::from_seconds(seconds); };
  sim::SimRobot<Model> plant(so, t0);
  plant.press(praxis::GamepadButton::R2, at(0.15 * d));
  plant.release(praxis::GamepadButton::R2, at(0.45 * d));
  plant.press(praxis::GamepadButton::A, at(0.5 * d));
  plant.release(praxis::GamepadButton::A, at(0.5 * d + 0.1));
  plant.press(praxis::GamepadButton::L2, at(0.8 * d));
  plant.press(praxis::GamepadButton::B, at(0.8 * d + 0.1));
  plant.release(praxis::GamepadButton::B, at(0.8 * d + 0.2));
  plant.release(praxis::GamepadButton::L2, at(0.8 * d + 0.4));
  Robot robot(plant);

  praxis::control::RobotController<Robot, Ctrl<Model>> controller(robot, options);
  const praxis::control::StopOnSignals stop_on_signals(controller);  // Ctrl-C: the run ends damped
  load_controller_of(controller, s);
  Observation observation(controller, s.record, s.record_compression, s.live, s.live_rate,
                          folder_for_recording(s, run_folder), run_facts(s));

  std::printf("praxis demo: %s in MuJoCo (%s), in this process, simulated time: %zu joints, control period %.1f "
              "ms, physics step %.1f ms%s\n",
              s.robot.c_str(), so.model.string().c_str(), Model::joint_count,
              praxis::to_seconds(controller.period()) * 1e3, praxis::to_seconds(plant.plant().step_period()) * 1e3,
              so.band.empty() ? "" : (", elastic band \"" + so.band + "\"").c_str());
  std::printf("script: R2 held %.1f-%.1f s, A at %.1f s, L2+B at %.1f s\n\n", 0.15 * d, 0.45 * d, 0.5 * d,
              0.8 * d + 0.1);
  std::fflush(stdout);

  const auto wall0 = std::chrono::steady_clock::now();
  const auto period = controller.period();
  std::size_t cycle = 0;
  bool handed_over = false;
  for (praxis::TimePoint t = t0 + period; t <= at(d) && !controller.stop_requested(); t += period) {
    robot.set_gamepad(plant.gamepad());
    controller.step(t);
    if (!handed_over && controller.state() == praxis::control::ControlState::ctrl) {
      handed_over = true;
      if (!run_folder.empty()) write_handover_state(plant.physics_state(), run_folder);
    }
    // The reporter's queue and the recorder's ring hold about two thousand cycles: let them catch
    // up between cycles, which costs simulated time nothing.
    if (++cycle % 1024 == 0) {
      controller.flush();
      observation.drain();
    }
  }
  const auto outcome = controller.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  controller.flush();
  const auto where = plant.trajectory().summary();
  observation.finish({{"praxis.sim", sim_facts(so, where)}});
  plant.finish();  // the pictures are drawn and written

  print_transitions(controller);
  const auto stats = controller.compute_stats();
  std::printf("\ncompute time, last window of %zu cycles: mean %.2f us, p99 %.2f us, max %.2f us\n", stats.samples,
              stats.mean_us, stats.p99_us, stats.max_us);
  const double simulated = praxis::to_seconds(plant.elapsed());
  std::printf("physics: %.2f s simulated in %.2f s of wall time (%.1fx real time), %llu steps, diverged: %s\n",
              simulated, wall, wall > 0 ? simulated / wall : 0.0,
              static_cast<unsigned long long>(plant.plant().world().step_count()),
              plant.plant().diverged() ? "yes" : "no");
  std::printf("base trajectory: %s\n", praxis::sim::describe(where).c_str());
  std::printf("final state: %s\n", std::string(praxis::control::to_string(controller.state())).c_str());
  if (controller.dropped_reports() > 0) {
    std::printf("log records dropped (reporter queue full): %llu\n",
                static_cast<unsigned long long>(controller.dropped_reports()));
  }
  if (!run_folder.empty()) {
    const auto csv = run_folder / "base_trajectory.csv";
    plant.trajectory().write_csv(csv);
    std::printf("base trajectory: %s\n", csv.string().c_str());
    const auto sheet = run_folder / "pictures" / "contact_sheet.png";
    if (std::filesystem::exists(sheet)) std::printf("pictures: %s\n", sheet.string().c_str());
    std::printf("logs: %s\n", run_folder.string().c_str());
  }
  std::fflush(stdout);
  return report_outcome(outcome, false, s);
}

template <class Model>
int run_model(const Settings& s) {
#ifndef PRAXIS_DEMO_NO_REPLAY
  if (!s.replay.empty()) return replay_story<Model, SimBackend<Model>>(s);
#endif
  return mujoco_story<Model>(s);
}

}  // namespace

int run_mujoco(const Settings& s) {
  if (s.robot != "go2" && s.robot != "g1") {
    throw std::invalid_argument("--backend mujoco: the MuJoCo models are of go2 and g1, not " + s.robot);
  }
  if (s.arm_sdk) throw std::invalid_argument("--backend mujoco: --arms-only needs the robot's motion service");
  if (s.realtime) throw std::invalid_argument("--backend mujoco runs in simulated time: drop --realtime");
  if (!s.backend_params.empty() || !s.settings.empty()) {
    throw std::invalid_argument("--backend-params / --set: they set a DDS backend's options; --backend mujoco has none");
  }
  if (s.robot == "g1") return run_model<praxis::unitree::G1>(s);
  return run_model<praxis::unitree::Go2>(s);
}

}  // namespace demo
