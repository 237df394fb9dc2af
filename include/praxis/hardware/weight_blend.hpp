#pragma once
// WeightBlend<N>: part of the body lent to praxis by a robot that keeps balancing itself, blended in
// and out by a weight (0 = the robot's own controller, 1 = praxis). Unitree's rt/arm_sdk carries one
// weight for all arm joints, Booster's rt/joint_ctrl one per motor; the rule is the same:
//
//   - praxis' joints are `owned` (a compile-time-sized mask the backend fills from joint names);
//     what a command says about any other joint is never sent (JointMode::none);
//   - while a command drives an owned joint (a gain, or a velocity / torque mode), the weight rises
//     at `rate` per second towards 1 and the command is held;
//   - otherwise (damping, kp 0: praxis' safe state, or no command for the owned joints) the weight
//     falls towards 0 while the last driven targets are held: a walking robot gets its arms back
//     moving, never limp;
//   - nothing is sent before the first driving command, and nothing after the frame whose weight
//     reached 0.
//
//   step(command, now, out)   false: nothing to send; true: `out` is the frame's command (owned
//                             joints only) and weight() the weight to send with it
//
// Called on the writer's thread only; weight() may be read from any thread.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>
#include <thread>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis {

template <std::size_t N>
class WeightBlend {
 public:
  WeightBlend(const std::array<bool, N>& owned, double rate) : owned_(owned), rate_(rate) {}

  // Whether the command drives a joint praxis owns (rather than letting go of them).
  [[nodiscard]] bool drives(const JointCommand<N>& command) const {
    for (std::size_t j = 0; j < N; ++j) {
      if (!owned_[j] || !command.drives(j)) continue;
      if (command.mode[j] != JointMode::position || command.kp[static_cast<Eigen::Index>(j)] > 0.0) return true;
    }
    return false;
  }

  bool step(const JointCommand<N>& command, TimePoint now, JointCommand<N>& out) {
    const bool driving = drives(command);
    if (!driving && !holding_) return false;  // the robot has those joints: nothing to blend out of
    const double dt = holding_ ? std::clamp(to_seconds(now - last_), 0.0, 0.1) : 0.0;
    last_ = now;
    double w = weight_.load(std::memory_order_relaxed);
    const double change = rate_ * dt;
    w = driving ? std::min(1.0, w + change) : std::max(0.0, w - change);
    weight_.store(w, std::memory_order_relaxed);
    if (driving) {
      held_ = command;
      holding_ = true;
    } else if (w == 0.0) {
      holding_ = false;  // this frame, weight 0, is the last one
    }
    out = held_;
    for (std::size_t j = 0; j < N; ++j) {
      if (!owned_[j]) out.mode[j] = JointMode::none;
    }
    return true;
  }

  // Takes over from a writer that went away mid-blend (praxis-guard: the controller died with the
  // joints lent): from `weight`, holding `held`, as if its last driving command had been `held`. The
  // next non-driving steps blend out from there.
  void resume(const JointCommand<N>& held, double weight, TimePoint now) {
    held_ = held;
    holding_ = true;
    last_ = now;
    weight_.store(std::clamp(weight, 0.0, 1.0), std::memory_order_relaxed);
  }

  [[nodiscard]] double weight() const { return weight_.load(std::memory_order_relaxed); }
  // Frames are still being sent (from the first driving command until the weight is back at 0).
  [[nodiscard]] bool holding() const { return holding_; }
  [[nodiscard]] const std::array<bool, N>& owned() const { return owned_; }

 private:
  std::array<bool, N> owned_;
  double rate_;
  std::atomic<double> weight_{0.0};
  JointCommand<N> held_{};
  bool holding_ = false;
  TimePoint last_{};
};

// The mask of joints whose names contain any of `parts` (e.g. {"shoulder", "elbow", "wrist"}),
// from a model's joint table.
template <class Model, std::size_t K>
[[nodiscard]] constexpr std::array<bool, Model::joint_count> joints_named(const std::array<std::string_view, K>& parts) {
  std::array<bool, Model::joint_count> mask{};
  for (std::size_t j = 0; j < Model::joint_count; ++j) {
    for (const std::string_view part : parts) mask[j] = mask[j] || Model::joints[j].name.find(part) != std::string_view::npos;
  }
  return mask;
}

// praxis-guard's take-over of lent joints (the backends' guard_take): the newest measured pose of
// the owned joints, held with the model's gains; nullopt when no state arrived within `timeout`.
template <class Model, class B>
[[nodiscard]] std::optional<JointCommand<Model::joint_count>> measured_hold(
    B& backend, const std::array<bool, Model::joint_count>& owned, Duration timeout) {
  RobotState<Model::joint_count> state{};
  const auto deadline = Clock::now() + timeout;
  while (!backend.read(state, Clock::now())) {
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  JointCommand<Model::joint_count> hold;
  hold.mode.fill(JointMode::none);
  for (std::size_t j = 0; j < Model::joint_count; ++j) {
    if (owned[j]) hold_joint(hold, j, state.q[static_cast<Eigen::Index>(j)], Model::default_kp[j], Model::default_kd[j]);
  }
  return hold;
}

}  // namespace praxis
