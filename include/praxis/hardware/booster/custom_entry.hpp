#pragma once
// Entering Custom (Access::joints): the robot stood in Prepare under its own controller; from the
// first frame in Custom praxis owns every joint. Those first frames must carry the robot's weight:
// hold the pose it stands in (measured), with the Prepare gains of its model (models.hpp), until the
// user's controller takes over. A kp-0 frame there lets a standing robot go limp (issue 21: 3 s of
// kp 0 between Custom and the remote's R2).
//
// The runtime decides when these frames go out; this is the data it needs:
//   custom_entry_hold<M>(state)   every joint in position mode at state.q, kp / kd = M::prepare_kp /
//                                 prepare_kd, no velocity target, no feed-forward torque.

#include <cstddef>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/booster/models.hpp"

namespace praxis::booster {

template <BoosterModel M>
[[nodiscard]] JointCommand<M::joint_count> custom_entry_hold(const RobotState<M::joint_count>& state) {
  JointCommand<M::joint_count> c;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.mode[j] = JointMode::position;
    c.q[i] = state.q[i];
    c.dq[i] = 0.0;
    c.kp[i] = M::prepare_kp[j];
    c.kd[i] = M::prepare_kd[j];
    c.tau_ff[i] = 0.0;
  }
  return c;
}

}  // namespace praxis::booster
