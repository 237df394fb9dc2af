#pragma once
// An example walking node for robots that do not walk by themselves: it marks time by bending the
// knees (or calves) alternately around the stand pose, faster with more requested speed. A real
// walking engine has the same shape: it reads the locomotion request and writes the walk motion's
// joint command.

#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include <praxis/core/cycle.hpp>
#include <praxis/core/ports.hpp>
#include <praxis/core/robot_model.hpp>
#include <praxis/motion/ports.hpp>

namespace example {

template <praxis::RobotModel M>
struct StepInPlace {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "step_in_place";
  using inputs = praxis::ports<praxis::motion::MotionSelectionPort, praxis::motion::LocomotionRequestPort,
                               praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::BodyCommandPort<praxis::motion::MotionType::walk, N>,
                                praxis::motion::SafeExitPort<praxis::motion::MotionType::walk>>;
  double amplitude = 0.15;  // rad
  double frequency = 1.5;   // steps per second at rest

  void cycle(const praxis::motion::MotionSelection& selection, const praxis::LocomotionRequest& request,
             const praxis::CycleInfo& info, praxis::JointCommand<N>& cmd, bool& safe) {
    const double dt = have_time_ ? praxis::to_seconds(info.now - last_) : 0.0;
    last_ = info.now;
    have_time_ = true;
    if (selection.current != praxis::motion::MotionType::walk) {
      phase_ = 0.0;
      safe = true;
      return;
    }
    const double speed = std::hypot(request.vx, request.vy) + std::abs(request.wz) * 0.2;
    phase_ += dt * frequency * (1.0 + speed) * 2.0 * std::numbers::pi;
    int side = 0;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const std::string_view joint = M::joints[j].name;
      double q = M::stand_pose[j];
      if (joint.ends_with("knee") || joint.ends_with("calf")) {
        const double wave = std::sin(phase_ + (side++ % 2 == 0 ? 0.0 : std::numbers::pi));
        q += amplitude * std::max(0.0, wave) * (joint.ends_with("calf") ? -1.0 : 1.0);
      }
      cmd.q[i] = q;
      cmd.kp[i] = M::default_kp[j];
      cmd.kd[i] = M::default_kd[j];
    }
    cmd.dq.setZero();
    cmd.tau_ff.setZero();
    cmd.mode.fill(praxis::JointMode::position);
    // A step may be left when both feet are down: near the phase's zero crossings.
    safe = std::abs(std::sin(phase_)) < 0.2;
  }

 private:
  double phase_ = 0.0;
  praxis::TimePoint last_{};
  bool have_time_ = false;
};

}  // namespace example
