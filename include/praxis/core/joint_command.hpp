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

  [[nodiscard]] bool all_finite() const {
    return q.allFinite() && dq.allFinite() && kp.allFinite() && kd.allFinite() && tau_ff.allFinite();
  }
};

}  // namespace praxis
