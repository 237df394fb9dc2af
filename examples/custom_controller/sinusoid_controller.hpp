#pragma once
// An example USER_CTRL: joints follow a slow sinusoid around a pose, with a phase shift per joint
// so the motion is visible on the whole body. Parameters (params.json):
//   dt                   control period (s), as in the Unitree deployment framework
//   kp, kd               one number for every joint, one per joint, or "model" (the model's own
//                        per-joint gains: what holds a standing humanoid's legs)
//   init_pos[N]          the pose STAND brings the robot to (optional: the model's stand pose)
//   amplitude (rad), frequency (Hz)
//   move                 optional: "all" (default) or "arms" (shoulder, elbow and wrist joints
//                        only; the rest hold the pose: for robots that stand on their own legs)
//   center               optional: "init_pos" (default) or "entry" (the pose measured when CTRL
//                        began: a robot whose stand pose is its own, Fourier's PdStand)
// A bad file throws praxis::io::ParamError naming the file and the key, and changes nothing.

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <string_view>

#include <praxis/control/user_controller.hpp>
#include <praxis/core/robot_model.hpp>
#include <praxis/core/robot_state.hpp>
#include <praxis/io/params.hpp>

namespace example {

// An arm joint by its name, in every vendor's naming (Unitree, Booster, Fourier, Tienkung).
// Any case: Unitree names joints left_shoulder_pitch_joint, Booster LeftShoulderPitch.
constexpr bool is_arm_joint(std::string_view name) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::string_view part : {"shoulder", "elbow", "wrist"}) {
    for (std::size_t at = 0; at + part.size() <= name.size(); ++at) {
      std::size_t k = 0;
      while (k < part.size() && lower(name[at + k]) == part[k]) ++k;
      if (k == part.size()) return true;
    }
  }
  return false;
}

template <praxis::RobotModel Model>
struct SinusoidController {
  static constexpr std::size_t N = Model::joint_count;
  // The members RobotController reads.
  double dt = 0.01;
  std::array<double, N> kp = filled(40.0);
  std::array<double, N> kd = filled(1.0);
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double amplitude = 0.1;
  double frequency = 0.5;
  std::array<bool, N> moving = all_true();
  bool center_on_entry = false;

  void load_params(const std::filesystem::path& folder) {
    // Everything is read into locals first: a bad file leaves the controller untouched.
    const auto file = praxis::io::ParamFile::load_folder(folder);
    const double new_dt = file.number("dt");
    const auto new_kp = gains(file, "kp", Model::default_kp);
    const auto new_kd = gains(file, "kd", Model::default_kd);
    const auto new_init = file.has("init_pos") ? file.array<double, N>("init_pos") : Model::stand_pose;
    const double new_amplitude = file.number("amplitude");
    const double new_frequency = file.number("frequency");
    if (new_amplitude < 0.0 || new_amplitude > 0.5) {
      throw praxis::io::ParamError(file.path().string() + ": key \"amplitude\": expected 0 to 0.5 rad, found " +
                               std::to_string(new_amplitude));
    }
    if (new_frequency <= 0.0 || new_frequency > 5.0) {
      throw praxis::io::ParamError(file.path().string() + ": key \"frequency\": expected more than 0 and at most 5 Hz, found " +
                               std::to_string(new_frequency));
    }
    const std::string move = file.has("move") ? file.text("move") : "all";
    if (move != "all" && move != "arms") {
      throw praxis::io::ParamError(file.path().string() + ": key \"move\": expected \"all\" or \"arms\", found \"" + move + "\"");
    }
    const std::string center = file.has("center") ? file.text("center") : "init_pos";
    if (center != "init_pos" && center != "entry") {
      throw praxis::io::ParamError(file.path().string() + ": key \"center\": expected \"init_pos\" or \"entry\", found \"" +
                               center + "\"");
    }
    std::array<bool, N> new_moving{};
    for (std::size_t j = 0; j < N; ++j) new_moving[j] = move == "all" || is_arm_joint(Model::joints[j].name);
    dt = new_dt;
    kp = new_kp;
    kd = new_kd;
    init_pos = new_init;
    jpos_des = new_init;
    amplitude = new_amplitude;
    frequency = new_frequency;
    moving = new_moving;
    center_on_entry = center == "entry";
  }
  void reset(const praxis::RobotState<N>& state, const praxis::Gamepad&) {
    time_ = 0.0;
    for (std::size_t j = 0; j < N; ++j) {
      center_[j] = center_on_entry ? state.q[static_cast<Eigen::Index>(j)] : init_pos[j];
    }
  }
  void get_input(const praxis::RobotState<N>& state, const praxis::Gamepad&) { measured_first_ = state.q[0]; }
  void calculate() {
    time_ += dt;
    // Fade the motion in over one second so entering CTRL does not jerk.
    const double fade = std::min(1.0, time_);
    const double w = 2.0 * std::numbers::pi * frequency;
    for (std::size_t j = 0; j < N; ++j) {
      const double wave = moving[j] ? amplitude * std::sin(w * time_ + 0.4 * static_cast<double>(j)) : 0.0;
      jpos_des[j] = center_[j] + fade * wave;
    }
  }
  // Logged per cycle: controller time, first joint target and measurement.
  [[nodiscard]] std::array<float, 3> log() const {
    return {static_cast<float>(time_), static_cast<float>(jpos_des[0]), static_cast<float>(measured_first_)};
  }

 private:
  static constexpr std::array<double, N> filled(double v) {
    std::array<double, N> a{};
    a.fill(v);
    return a;
  }
  static constexpr std::array<bool, N> all_true() {
    std::array<bool, N> a{};
    a.fill(true);
    return a;
  }
  // "kp": 40, "kp": [one per joint] or "kp": "model".
  static std::array<double, N> gains(const praxis::io::ParamFile& file, std::string_view key,
                                     const std::array<double, N>& model) {
    if (file.is_number(key)) return filled(file.number(key));
    if (file.is_text(key)) {
      const std::string text = file.text(key);
      if (text != "model") {
        throw praxis::io::ParamError(file.path().string() + ": key \"" + std::string(key) +
                                 "\": expected a number, " + std::to_string(N) + " numbers or \"model\", found \"" +
                                 text + "\"");
      }
      return model;
    }
    if (!file.has(key)) (void)file.number(key);  // "expected a number, found no such key"
    return file.array<double, N>(key);
  }

  double time_ = 0.0;
  double measured_first_ = 0.0;
  std::array<double, N> center_ = Model::stand_pose;
};

}  // namespace example
