#pragma once
// An example USER_CTRL: every joint follows a slow sinusoid around the stand pose, with a phase
// shift per joint so the motion is visible on the whole body. Parameters (params.json):
//   dt, kp, kd, init_pos[N]   as in the Unitree deployment framework
//   amplitude (rad), frequency (Hz)

#include <array>
#include <cmath>
#include <filesystem>

#include <praxis/control/user_controller.hpp>
#include <praxis/core/robot_model.hpp>
#include <praxis/core/robot_state.hpp>
#include <praxis/io/params.hpp>

namespace example {

template <praxis::RobotModel Model>
struct SinusoidController {
  static constexpr std::size_t N = Model::joint_count;

  // The members RobotController reads.
  double dt = 0.01;
  double kp = 40.0;
  double kd = 1.0;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;

  double amplitude = 0.1;
  double frequency = 0.5;

  void load_params(const std::filesystem::path& folder) {
    // Everything is read into locals first: a bad file leaves the controller untouched.
    const auto file = praxis::ParamFile::load_folder(folder);
    const double new_dt = file.number("dt");
    const double new_kp = file.number("kp");
    const double new_kd = file.number("kd");
    const auto new_init = file.array<double, N>("init_pos");
    const double new_amplitude = file.number("amplitude");
    const double new_frequency = file.number("frequency");
    if (new_amplitude < 0.0 || new_amplitude > 0.5) {
      throw praxis::ParamError(file.path().string() +
                               ": key \"amplitude\": expected 0 to 0.5 rad, found " +
                               std::to_string(new_amplitude));
    }
    if (new_frequency <= 0.0 || new_frequency > 5.0) {
      throw praxis::ParamError(file.path().string() +
                               ": key \"frequency\": expected more than 0 and at most 5 Hz, found " +
                               std::to_string(new_frequency));
    }
    dt = new_dt;
    kp = new_kp;
    kd = new_kd;
    init_pos = new_init;
    jpos_des = new_init;
    amplitude = new_amplitude;
    frequency = new_frequency;
  }

  void reset(const praxis::RobotState<N>& state, const praxis::Gamepad&) {
    time_ = 0.0;
    for (std::size_t j = 0; j < N; ++j) start_[j] = state.q[static_cast<Eigen::Index>(j)];
  }

  void get_input(const praxis::RobotState<N>& state, const praxis::Gamepad&) {
    measured_first_ = state.q[0];
  }

  void calculate() {
    time_ += dt;
    // Fade the motion in over one second so entering CTRL does not jerk.
    const double fade = std::min(1.0, time_);
    const double w = 2.0 * 3.14159265358979323846 * frequency;
    for (std::size_t j = 0; j < N; ++j) {
      const double wave = amplitude * std::sin(w * time_ + 0.4 * static_cast<double>(j));
      jpos_des[j] = init_pos[j] + fade * wave;
    }
  }

  // Logged per cycle: controller time, first joint target and measurement.
  [[nodiscard]] std::array<float, 3> log() const {
    return {static_cast<float>(time_), static_cast<float>(jpos_des[0]),
            static_cast<float>(measured_first_)};
  }

 private:
  double time_ = 0.0;
  double measured_first_ = 0.0;
  std::array<double, N> start_{};
};

}  // namespace example
