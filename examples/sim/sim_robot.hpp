#pragma once
// The plant praxis-sim puts behind the fake robot's bridge: a praxis::Plant (core/plant.hpp) over a
// MujocoPlant, with MockRobot's extras the bridge uses (gamepad, script_gamepad, q) and one of two
// clocks, which decide how far read() and advance_to() step.
//
//  - realtime: the simulated clock follows the wall clock; every tick steps the physics up to the
//    tick's time. Behind by more than k_max_catch_up (a stalled process), the simulation slips
//    instead of stepping a burst the controller never saw, so wall and simulated time then differ.
//  - lockstep: the physics advances one control period for each tick in which a command arrived,
//    and stands still otherwise (the state is republished unchanged). A controller that is starved
//    of CPU, or one that has not taken control yet, stops the world with it, so a test on a loaded
//    machine sees the same physics as on an idle one: one command per physics period. The gamepad
//    script runs on the simulated clock, so its times count the controller's periods.
//
// The report gets the simulated time, whether MuJoCo diverged, and the base trajectory
// (praxis/sim/base_trajectory.hpp: x, y, z, yaw at 50 Hz of simulated time; the report has its
// summary and every fifth sample), which is what the tests check the physics with.
//
// praxis_demo --backend mujoco drives the same plant in its own process, in simulated time: the
// realtime pacing then follows the `now` of each read, which is the demo's simulated clock.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/core/clock.hpp>
#include <praxis/core/gamepad_script.hpp>
#include <praxis/core/joint_command.hpp>
#include <praxis/core/robot_model.hpp>
#include <praxis/core/robot_state.hpp>
#include <praxis/sim/base_trajectory.hpp>
#include <praxis/sim/mujoco_plant.hpp>

#include "../common/shipped_files.hpp"
#include "elastic_band.hpp"
#include "pictures.hpp"

namespace sim {

enum class Pacing { realtime, lockstep };

// The elastic band a robot starts on unless told otherwise: a humanoid held with its feet just
// touching the floor, a quadruped on its own.
inline std::string default_band(const std::string& robot) { return robot == "go2" ? "" : "0:feet"; }

// The shipped model of a robot: next to an installed binary in ../share/praxis/models, else the
// source tree's models/ this binary was built from (PRAXIS_MODELS_DIR).
inline std::filesystem::path shipped_model(const std::string& robot) {
  std::string file;
  if (robot == "go2") file = "go2.xml";
  if (robot == "g1") file = "g1_29dof.xml";
  if (file.empty()) {
    throw std::invalid_argument("--robot " + robot + ": no shipped model; pass --model FILE (e.g. the vendor's published MJCF)");
  }
  return praxis::examples::shipped_files("models", PRAXIS_MODELS_DIR) / file;
}

struct SimOptions {
  std::filesystem::path model;
  Pacing pacing = Pacing::realtime;
  // Start on the ground in the robot's rest pose (Go2: lying as after power-on) instead of the
  // model's keyframe.
  bool lying = false;
  praxis::Duration control_period = std::chrono::milliseconds(2);  // the bridge's tick
  std::string band;  // the elastic band's script (elastic_band.hpp); empty: no band
  PictureOptions pictures;  // --pictures (pictures.hpp); no folder: none
  praxis::Duration run_length{};  // room for the base trajectory of a run this long (0: it grows)
  const char* program = "praxis-sim";  // who speaks in messages
};

template <praxis::RobotModel M>
class SimRobot {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  static constexpr praxis::Duration k_max_catch_up = std::chrono::milliseconds(50);
  static constexpr praxis::Duration k_trajectory_period = std::chrono::milliseconds(20);
  static constexpr praxis::Duration k_trace_period = std::chrono::milliseconds(100);  // the report's trace

  SimRobot(const SimOptions& options, praxis::TimePoint t0)
      : options_(options),
        plant_(options.model, options.lying ? t0 - k_settle : t0),
        t0_(t0),
        pictures_(std::make_unique<Pictures>(options.pictures, options.model,
                                             praxis::sim::MujocoPlant<M>::k_joint_names, options.program)) {
    trajectory_.reserve(options.run_length);
    describe_model();
    if (options.lying) lie_down();
    if (!options.band.empty()) {
      band_.emplace(plant_.world().model(), plant_.world().data(), ElasticBand::parse(options.band));
    }
    plant_.current_state(state_);
    q_ = state_.q;
    record();  // the trajectory from the start, before the first tick
  }

  void write(const praxis::JointCommand<N>& command, praxis::TimePoint now) {
    plant_.write(command, now);
    commanded_ = true;
  }

  // The state after the tick at `now`, published whether or not the physics stepped (lockstep
  // without a command republishes it unchanged); true when it stepped.
  bool read(praxis::RobotState<N>& out, praxis::TimePoint now) {
    const praxis::TimePoint before = plant_.time();
    advance_to(now);
    if (band_) band_by_hand();
    plant_.current_state(out);
    q_ = out.q;
    finite_ = finite_ && out.q.allFinite() && out.dq.allFinite();
    record();
    pictures_->offer(plant_.world().model(), plant_.world().data(), plant_.time() - t0_);
    return plant_.time() != before;
  }

  // The physics of the tick at `now`, by the pacing: up to `now` (less any slip) in realtime, one
  // control period if a command came since the last tick in lockstep. read() does this itself.
  void advance_to(praxis::TimePoint now) {
    if (options_.pacing == Pacing::lockstep) {
      if (commanded_) physics(steps_per_period());
    } else {
      praxis::TimePoint target = now - slip_;
      if (target - plant_.time() > k_max_catch_up) {
        slip_ += (target - plant_.time()) - k_max_catch_up;
        target = now - slip_;
      }
      if (target > plant_.time()) physics(static_cast<std::size_t>((target - plant_.time()) / plant_.step_period()));
    }
    commanded_ = false;
  }
  [[nodiscard]] praxis::TimePoint time() const { return plant_.time(); }
  void set_joint_positions(const std::array<double, N>& q) { plant_.set_joint_positions(q); }

  // At the end of the run (the bridge calls it before its report): the pictures are written.
  void finish() {
    const auto sheet = pictures_->finish();
    if (sheet.empty()) return;
    std::printf("%s: %zu pictures, contact sheet %s\n", options_.program, pictures_->frame_count(), sheet.string().c_str());
    pictures_sheet_ = sheet;
  }

  [[nodiscard]] const praxis::GamepadState& gamepad() { return gamepad_.state_at(plant_.time()); }
  void script_gamepad(std::span<const praxis::GamepadScriptItem> items, praxis::TimePoint t0) { gamepad_.add(items, t0); }
  // A button scheduled by a program of its own (the in-process demo, the benchmark), on the simulated clock.
  void press(praxis::GamepadButton b, praxis::TimePoint at) { gamepad_.press(b, at); }
  void release(praxis::GamepadButton b, praxis::TimePoint at) { gamepad_.release(b, at); }
  [[nodiscard]] const praxis::JointVector<N>& q() const { return q_; }
  [[nodiscard]] praxis::sim::MujocoPlant<M>& plant() { return plant_; }
  // Simulated time since the start: what --duration counts.
  [[nodiscard]] praxis::Duration elapsed() const { return plant_.time() - t0_; }
  // Where the base went, from the first read on.
  [[nodiscard]] const praxis::sim::BaseTrajectory& trajectory() const { return trajectory_; }

  // The physics state now, whole: what a second simulation of the same model needs to go on from
  // here exactly (MuJoCo's solver starts from the warm start, so it is part of the state). Doubles
  // are written to round-trip. The band is the plant's too: whether it still pulls is said.
  [[nodiscard]] nlohmann::json physics_state() const {
    const mjModel* m = plant_.world().model();
    const mjData* d = plant_.world().data();
    const auto array = [](const double* v, int n) { return std::vector<double>(v, v + n); };
    return {{"model", std::filesystem::absolute(options_.model).string()},
            {"elapsed_s", praxis::to_seconds(elapsed())},
            {"time", d->time},
            {"qpos", array(d->qpos, m->nq)},
            {"qvel", array(d->qvel, m->nv)},
            {"qacc_warmstart", array(d->qacc_warmstart, m->nv)},
            {"act", array(d->act, m->na)},
            {"band_on", band_ && band_->on()}};
  }

  void add_to_report(nlohmann::json& report) {
    const auto base = plant_.base();
    nlohmann::json missing = nlohmann::json::array();
    for (const std::size_t j : plant_.missing_joints()) missing.push_back(std::string(M::joints[j].name));
    report["sim"] = {{"model", options_.model.string()},
                     {"missing_joints", missing},
                     {"imu", plant_.world().imu_source().description},
                     {"pacing", options_.pacing == Pacing::lockstep ? "lockstep" : "realtime"},
                     {"time_s", praxis::to_seconds(plant_.time() - t0_)},
                     {"steps", plant_.world().step_count()},
                     {"diverged", plant_.diverged()},
                     {"finite", finite_ && base.position.allFinite()},
                     {"base_height", base.position.z()},
                     {"band", band_ ? nlohmann::json{{"on", band_->on()}, {"releasing", band_->releasing()},
                                                     {"length", band_->length()}, {"force", band_->force()}}
                                    : nlohmann::json()},
                     {"base_trajectory", trajectory_json()},
                     {"pictures", pictures_sheet_.empty() ? nlohmann::json()
                                                          : nlohmann::json{{"contact_sheet", pictures_sheet_.string()},
                                                                           {"frames", pictures_->frame_count()}}}};
  }

 private:
  // Before t0 (the plant's clock starts k_settle early): the rest pose held under the model's
  // gains, then the motors off, the way a robot lies after it was laid down and powered off. Dropped
  // with the motors already off, the Go2's legs splay (rear hips 0.5 rad) and it cannot stand up
  // from that stance to its stand height.
  static constexpr praxis::Duration k_settle = std::chrono::seconds(1);
  static constexpr double k_lying_drop_height = 0.2;  // above the folded legs' reach (Go2: 0.174 m)

  // What the model brought at start: what was translated for MuJoCo 2.2.2, the robot's joints it
  // lacks (held at 0, commands to them ignored) and where the IMU readings come from.
  void describe_model() {
    const auto& world = plant_.world();
    std::printf("%s: model %s\n", options_.program, options_.model.string().c_str());
    for (const auto& change : world.translations()) std::printf("%s: translated for MuJoCo 2.2.2: %s\n", options_.program, change.c_str());
    if (!plant_.missing_joints().empty()) {
      std::string names;
      for (const std::size_t j : plant_.missing_joints()) names += (names.empty() ? "" : ", ") + std::string(M::joints[j].name);
      std::printf("%s: %zu of the %s's %zu joints are not in the model (held at 0, commands to them ignored): %s\n",
                  options_.program, plant_.missing_joints().size(), std::string(M::name).c_str(), N, names.c_str());
    }
    std::printf("%s: IMU from %s\n", options_.program, world.imu_source().description.c_str());
    std::fflush(stdout);
  }

  void lie_down() {
    plant_.set_joint_positions(M::rest_pose);
    plant_.set_base_pose(praxis::Vector3(0, 0, k_lying_drop_height));
    praxis::JointCommand<N> hold;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      hold.q[i] = M::rest_pose[j];
      hold.kp[i] = M::default_kp[j];
      hold.kd[i] = M::default_kd[j];
    }
    plant_.write(hold);
    plant_.advance_to(t0_);
    praxis::JointCommand<N> off;
    off.mode.fill(praxis::JointMode::disabled);
    plant_.write(off);
  }


  // The d-pad works the band as the keys of Unitree's simulator do: up shortens it by 0.1 m (the
  // robot rises), down lengthens it, left switches it off and on. RobotController's state machine
  // uses none of them; a controller of yours that reads the d-pad sees them too.
  void band_by_hand() {
    const praxis::GamepadState pad = gamepad_.state_at(plant_.time());
    const auto pressed = [&](praxis::GamepadButton b) { return pad.pressed(b) && !band_pad_.pressed(b); };
    if (pressed(praxis::GamepadButton::up)) band_->lengthen(-0.1);
    if (pressed(praxis::GamepadButton::down)) band_->lengthen(0.1);
    if (pressed(praxis::GamepadButton::left)) band_->toggle();
    band_pad_ = pad;
  }

  void physics(std::size_t steps) {
    if (!band_) return plant_.step(steps);
    // The band's force depends on the state, so it is set before every step, as Unitree's simulator does.
    for (std::size_t k = 0; k < steps; ++k) {
      band_->apply(plant_.world().model(), plant_.world().data(), plant_.time() - t0_);
      plant_.step(1);
    }
  }

  [[nodiscard]] std::size_t steps_per_period() const {
    return static_cast<std::size_t>(std::max<praxis::Duration::rep>(1, options_.control_period / plant_.step_period()));
  }

  void record() {
    if (trajectory_.due(elapsed())) trajectory_.offer(elapsed(), plant_.base());
  }

  // The summary, and the trajectory every k_trace_period as [t, x, y, z, yaw] (null where not finite).
  [[nodiscard]] nlohmann::json trajectory_json() const {
    nlohmann::json trace = nlohmann::json::array();
    double next = -1.0;
    for (const auto& b : trajectory_.samples()) {
      if (b.time < next) continue;
      next = b.time + praxis::to_seconds(k_trace_period) - 1e-9;
      trace.push_back({b.time, b.x, b.y, b.z, b.yaw});
    }
    const auto t = trajectory_.summary();
    return {{"duration_s", t.duration},
            {"upright_s", t.upright_seconds},
            {"distance_m", t.distance},
            {"displacement_m", t.displacement},
            {"end", {t.end.x, t.end.y, t.end.z}},
            {"heading_rad", t.end.yaw},
            {"turned_rad", t.turned},
            {"finite", t.finite},
            {"trace", trace}};
  }

  SimOptions options_;
  praxis::sim::MujocoPlant<M> plant_;
  praxis::TimePoint t0_;
  praxis::Duration slip_{};
  bool commanded_ = false;
  bool finite_ = true;
  praxis::RobotState<N> state_;
  praxis::JointVector<N> q_ = praxis::JointVector<N>::Zero();
  praxis::GamepadScript gamepad_;
  std::optional<ElasticBand> band_;
  praxis::GamepadState band_pad_{};
  praxis::sim::BaseTrajectory trajectory_{k_trajectory_period};
  std::unique_ptr<Pictures> pictures_;  // not movable (its thread points at it); SimRobot is
  std::filesystem::path pictures_sheet_;
};

}  // namespace sim
