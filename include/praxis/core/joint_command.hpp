#pragma once
// The canonical joint command every backend accepts. Per joint, a control mode says what the
// motor driver does with the targets:
//   position  tau = kp * (q - q_measured) + kd * (dq - dq_measured) + tau_ff  (the PD law)
//   velocity  tau = kd * (dq - dq_measured) + tau_ff                           (q and kp unused)
//   torque    tau = tau_ff                                                     (targets unused)
//   disabled  no torque: the motor is off
//   none      the command does not cover this joint: the robot's own controller keeps it (partial
//             commands, e.g. only the arms of a robot that balances by itself)
// A backend declares which modes it can send (hardware/backend.hpp); a command node asking for
// another mode does not compile.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "praxis/core/enum_names.hpp"
#include "praxis/core/joint_vector.hpp"

namespace praxis {

enum class JointMode : std::uint8_t { position, velocity, torque, disabled, none };
inline constexpr std::size_t k_joint_modes = 5;

inline constexpr EnumNameTable<JointMode, k_joint_modes> k_joint_mode_names{{
    {JointMode::position, "position"},
    {JointMode::velocity, "velocity"},
    {JointMode::torque, "torque"},
    {JointMode::disabled, "disabled"},
    {JointMode::none, "none"},
}};
static_assert(in_enum_order(k_joint_mode_names), "k_joint_mode_names: one entry per JointMode, in the enum's order");

[[nodiscard]] constexpr std::string_view to_string(JointMode m) { return name_in(k_joint_mode_names, m); }

// A set of joint modes, as a bit mask usable in constant expressions.
struct JointModeSet {
  std::uint8_t bits = 0;
  constexpr JointModeSet() = default;
  constexpr JointModeSet(std::initializer_list<JointMode> modes) {
    for (auto m : modes) bits = static_cast<std::uint8_t>(bits | (1u << static_cast<unsigned>(m)));
  }
  [[nodiscard]] constexpr bool contains(JointMode m) const { return (bits >> static_cast<unsigned>(m)) & 1u; }
  [[nodiscard]] constexpr bool contains(JointModeSet other) const { return (other.bits & ~bits) == 0; }
};

// What every backend can do: hold a PD target, or switch a motor off.
inline constexpr JointModeSet k_basic_joint_modes{JointMode::position, JointMode::disabled};

template <std::size_t N>
struct JointCommand {
  static constexpr std::size_t joint_count = N;

  JointVector<N> q = JointVector<N>::Zero();
  JointVector<N> dq = JointVector<N>::Zero();
  JointVector<N> kp = JointVector<N>::Zero();
  JointVector<N> kd = JointVector<N>::Zero();
  JointVector<N> tau_ff = JointVector<N>::Zero();
  std::array<JointMode, N> mode = [] {
    std::array<JointMode, N> m{};
    m.fill(JointMode::position);
    return m;
  }();

  // Whether the joint's motor produces torque under this command (any mode but disabled / none).
  [[nodiscard]] constexpr bool drives(std::size_t j) const {
    return mode[j] != JointMode::disabled && mode[j] != JointMode::none;
  }

  // Whether the command covers any joint (a command covering none is not sent).
  [[nodiscard]] constexpr bool covers_any() const {
    for (const auto m : mode) {
      if (m != JointMode::none) return true;
    }
    return false;
  }

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
// feed-forward torque, every joint in position mode. Damping is kp = 0.
template <std::size_t N>
void set_position_command(JointCommand<N>& cmd, const JointVector<N>& q, double kp, double kd) {
  cmd.q = q;
  cmd.dq.setZero();
  cmd.kp.setConstant(kp);
  cmd.kd.setConstant(kd);
  cmd.tau_ff.setZero();
  cmd.mode.fill(JointMode::position);
}

// The damping gain praxis damps a joint with unless told otherwise (RuntimeOptions::damping_kd, the
// runtime parameters' "damping_kd", the collector's fallback, the damping motion): one default.
inline constexpr double k_default_damping_kd = 2.0;  // N m s / rad

// Damping for joint j: no stiffness, kd brakes it, the target where it was measured. A non-finite
// measurement is no target (kp is 0, so the target only matters to what a log shows).
template <std::size_t N>
void damp_joint(JointCommand<N>& cmd, std::size_t j, double q_measured, double kd) {
  const auto i = static_cast<Eigen::Index>(j);
  cmd.mode[j] = JointMode::position;
  cmd.q[i] = std::isfinite(q_measured) ? q_measured : 0.0;
  cmd.dq[i] = 0.0;
  cmd.kp[i] = 0.0;
  cmd.tau_ff[i] = 0.0;
  cmd.kd[i] = kd;
}

// Damping on every joint the command covers; the joints it leaves to the robot stay left.
template <std::size_t N>
void damp_covered(JointCommand<N>& cmd, const JointVector<N>& q_measured, double kd) {
  for (std::size_t j = 0; j < N; ++j) {
    if (cmd.mode[j] != JointMode::none) damp_joint(cmd, j, q_measured[static_cast<Eigen::Index>(j)], kd);
  }
}

// A hold for joint j of a robot that balances itself (the hand-back safe state): the measured
// position with the gains in force, never kp 0, because the joint may carry the robot's weight.
// Where the command in force has no stiffness on it (kp 0, a velocity or torque joint), the
// fallback gains. A joint whose position was never measured cannot be held: it is left to the
// robot's own controller (mode none).
template <std::size_t N>
void hold_joint(JointCommand<N>& cmd, std::size_t j, double q_measured, double fallback_kp, double fallback_kd) {
  const auto i = static_cast<Eigen::Index>(j);
  if (!std::isfinite(q_measured)) {
    cmd.mode[j] = JointMode::none;
    return;
  }
  const bool stiff = cmd.mode[j] == JointMode::position && std::isfinite(cmd.kp[i]) && cmd.kp[i] > 0.0 &&
                     std::isfinite(cmd.kd[i]);
  if (!stiff) {
    cmd.kp[i] = fallback_kp;
    cmd.kd[i] = fallback_kd;
  }
  cmd.mode[j] = JointMode::position;
  cmd.q[i] = q_measured;
  cmd.dq[i] = 0.0;
  cmd.tau_ff[i] = 0.0;
}

// The hold on every joint the command covers; the joints it leaves to the robot stay left.
template <std::size_t N>
void hold_covered(JointCommand<N>& cmd, const JointVector<N>& q_measured, const std::array<double, N>& fallback_kp,
                  const std::array<double, N>& fallback_kd) {
  for (std::size_t j = 0; j < N; ++j) {
    if (cmd.mode[j] != JointMode::none) {
      hold_joint(cmd, j, q_measured[static_cast<Eigen::Index>(j)], fallback_kp[j], fallback_kd[j]);
    }
  }
}

}  // namespace praxis
