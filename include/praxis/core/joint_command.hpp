#pragma once
// The canonical joint command every backend accepts. Per joint, the motor driver applies
//   tau = kp * (q - q_measured) + kd * (dq - dq_measured) + tau_ff
// when enabled; a disabled joint produces no torque.

#include <array>
#include <cstddef>

#include "praxis/core/joint_vector.hpp"

namespace praxis {

template <std::size_t N>
struct JointCommand {
  static constexpr std::size_t joint_count = N;

  JointVector<N> q = JointVector<N>::Zero();
  JointVector<N> dq = JointVector<N>::Zero();
  JointVector<N> kp = JointVector<N>::Zero();
  JointVector<N> kd = JointVector<N>::Zero();
  JointVector<N> tau_ff = JointVector<N>::Zero();
  std::array<bool, N> enable = [] {
    std::array<bool, N> e{};
    e.fill(true);
    return e;
  }();

  // x * 0 is 0 for every finite x and NaN for NaN and infinity, so one vectorisable sum answers
  // for all five vectors (this runs several times per cycle; Eigen's allFinite is far slower).
  [[nodiscard]] bool all_finite() const {
    const double zero = (q.array() * 0.0 + dq.array() * 0.0 + kp.array() * 0.0 + kd.array() * 0.0 +
                         tau_ff.array() * 0.0)
                            .sum();
    return zero == 0.0;
  }
};

// A pure position command: target q, the same kp and kd on every joint, no velocity target, no
// feed-forward torque, all joints enabled. Damping is kp = 0.
template <std::size_t N>
void set_position_command(JointCommand<N>& cmd, const JointVector<N>& q, double kp, double kd) {
  cmd.q = q;
  cmd.dq.setZero();
  cmd.kp.setConstant(kp);
  cmd.kd.setConstant(kd);
  cmd.tau_ff.setZero();
  cmd.enable.fill(true);
}

}  // namespace praxis
