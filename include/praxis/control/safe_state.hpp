#pragma once
// The last command a robot gets from praxis, by its kind (the backend's SafeState; docs/safety.md,
// "How control ends, per robot kind"): what the runtime writes when a run ends and when a stall outlasts its limit.
//
//   joint_damping   kp 0 and the damping gain at the measured position on every joint the command
//                   covered: praxis owns the joints, and a motor that only brakes hurts nobody.
//   hand_back /     the measured pose held with the gains in force (the model's defaults where none
//   mode_request    were): the robot balances itself, and some of these joints carry its weight.
//
// Joints the command left to the robot (mode none) stay left. Allocates nothing.

#include "praxis/core/joint_command.hpp"
#include "praxis/core/joint_vector.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis::control {

template <SafeState Kind, RobotModel M>
void make_safe(JointCommand<M::joint_count>& cmd, const JointVector<M::joint_count>& q_measured, double damping_kd) {
  if constexpr (Kind == SafeState::joint_damping) {
    damp_covered(cmd, q_measured, damping_kd);
  } else {
    hold_covered(cmd, q_measured, M::default_kp, M::default_kd);
  }
}

}  // namespace praxis::control
