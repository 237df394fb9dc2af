#pragma once
// Aurora's codec: its messages (idl/aurora/fourier_msgs.idl) to and from praxis' canonical types.
// Pure functions; the topic table (topics.hpp) wires them to the DDS backend. Facts:
// docs/backends/aurora.md, "Wire facts and their sources" (messages, control groups, state machine).
//
// Receive, in two halves like every sequence topic (topic_table.hpp): *_from_wire on Cyclone's
// thread copies a sample into a fixed-size value (refusing one that does not fit, with a reason),
// decode_* on the reading thread turns the value into RobotState:
//   robot_control_group_state -> q, dq, tau in the model's order. Every group of the model must be
//       there with exactly its joint count; a group name Aurora uses that the model does not drive
//       (the hands) is skipped; any other name, a wrong count, a missing group or a value that is
//       not finite rejects the whole sample (StateDecode says which and why).
//   base_data_pub -> IMU: quat_xyzw (base to world) is the orientation, omega_B the gyro, acc_B the
//       accelerometer; projected gravity and rpy follow from the orientation. Whether acc_B holds
//       gravity (reads +g level) is UNVERIFIED.
//   contact_data_pub -> ContactValue, kept as it came (6D force per foot, contact probability).
//   ex_data is skipped; see the IDL.
// Send:
//   encode_group_command: a JointCommand -> one RobotControlGroupCmd of COMPLETE groups. A group
//       is sent only when the command drives every joint of it, all in one mode (position: motor
//       mode 0 with position / velocity / effort = q / dq / tau_ff; torque: motor mode 1 with
//       effort = tau_ff). A group the command leaves entirely (JointMode::none) is not sent; a
//       group it covers partly, in mixed or unsupported modes, or with non-finite values refuses
//       the whole command (Aurora rejects partial groups, and half a command is never sent).
//   Aurora takes kp / kd per group on another topic (robot_motor_cfg_group_cmd): motor_config.
//   Headers go out zeroed (stamp 0, empty frame_id) and ex_data empty, as Fourier's client sends them.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/transport/dds_sequence.hpp"

namespace praxis::aurora {

using AuroraStateWire = fourier_msgs_msg_AuroraState;
using StandPoseStateWire = fourier_msgs_msg_RobotStandPoseState;
using BaseDataWire = fourier_msgs_msg_BaseData;
using ContactDataWire = fourier_msgs_msg_ContactData;
using GroupStateWire = fourier_msgs_msg_RobotControlGroupState;
using WholeBodyRequestWire = fourier_msgs_msg_WholeBodyFsmStateChangeCmd;
using UpperBodyRequestWire = fourier_msgs_msg_UpperBodyFsmStateChangeCmd;
using VelocitySourceWire = fourier_msgs_msg_VelocitySourceCmd;
using VelocityWire = fourier_msgs_msg_VelocityCmd;
using GroupCommandWire = fourier_msgs_msg_RobotControlGroupCmd;
using MotorConfigWire = fourier_msgs_msg_RobotMotorCfgGroupCmd;

// Group names Aurora publishes that no praxis model drives: skipped on decode. The hands are in the
// vendor's group list; the end effectors are the newer SDK line's names for them (UNVERIFIED).
inline constexpr std::array<std::string_view, 4> k_undriven_groups{"left_hand", "right_hand", "left_end_effector",
                                                                   "right_end_effector"};

[[nodiscard]] constexpr bool is_undriven_group(std::string_view name) {
  for (const auto g : k_undriven_groups) {
    if (g == name) return true;
  }
  return false;
}

using GroupName = transport::BoundedString<k_max_group_name>;
using GroupValues = transport::BoundedSequence<double, k_max_group_joints>;

// ================================ receive ================================

struct AuroraStateValue {
  std::uint8_t velocity_source = 0;
  std::uint8_t whole_body = 0;
  std::uint8_t upper_body = 0;
  bool allow_upper_body_override = false;
};

inline const char* aurora_state_from_wire(const AuroraStateWire& in, AuroraStateValue& out) {
  out = {in.velocity_command_source, in.whole_body_fsm_state, in.upper_body_fsm_state, in.allow_upper_body_override};
  return nullptr;
}

struct StandPoseValue {
  double delta_z = 0, delta_pitch = 0, delta_yaw = 0;
  std::uint8_t stable_level = 0;
};

inline const char* stand_pose_from_wire(const StandPoseStateWire& in, StandPoseValue& out) {
  out = {in.delta_z, in.delta_pitch, in.delta_yaw, in.stable_level};
  return nullptr;
}

struct GroupStateEntry {
  GroupName name;
  GroupValues q, dq, tau;
};

struct GroupStateValue {
  transport::BoundedSequence<GroupStateEntry, k_max_groups> groups;
  transport::BoundedSequence<std::uint8_t, k_max_groups> motion;  // GroupMotionState per group
  std::uint8_t stable_level = 0;
};

inline const char* group_state_from_wire(const GroupStateWire& in, GroupStateValue& out) {
  if (in.group_state._length > k_max_groups) return "robot_control_group_state: more than 8 groups";
  if (!transport::copy_sequence(in.group_motion_state, out.motion)) {
    return "robot_control_group_state: more than 8 group_motion_state entries";
  }
  for (std::uint32_t i = 0; i < in.group_state._length; ++i) {
    const auto& g = in.group_state._buffer[i];
    auto& e = out.groups[i];
    if (!transport::copy_string(g.group_name, e.name)) return "robot_control_group_state: a group_name longer than 31 characters";
    if (!transport::copy_sequence(g.joint_position, e.q) || !transport::copy_sequence(g.joint_velocity, e.dq) ||
        !transport::copy_sequence(g.joint_effort, e.tau)) {
      return "robot_control_group_state: a group with more than 8 joint values";
    }
  }
  out.groups.size = in.group_state._length;
  out.stable_level = in.stable_level;
  return nullptr;
}

enum class StateFault : std::uint8_t { none, unknown_group, wrong_joint_count, missing_group, not_finite };

[[nodiscard]] constexpr std::string_view to_string(StateFault f) {
  constexpr std::array<std::string_view, 5> names{"none", "unknown group", "wrong joint count", "missing group",
                                                  "value not finite"};
  return names[static_cast<std::size_t>(f)];
}

// Why decode_group_state refused a sample. `group` is the model's group index (unknown_group: the
// sample's entry index); `found` the joint count the sample had.
struct StateDecode {
  StateFault fault = StateFault::none;
  std::size_t group = 0;
  std::uint32_t found = 0;
  [[nodiscard]] constexpr bool ok() const { return fault == StateFault::none; }
};

// The reason in words, naming the topic, the group and what was expected (for logs and errors; allocates).
template <AuroraModel M>
[[nodiscard]] std::string describe(const StateDecode& d, std::string_view topic = "robot_control_group_state") {
  std::string s(topic);
  const auto model_group = [&] {
    return d.group < M::groups.size() ? "'" + std::string(M::groups[d.group].name) + "'" : std::string("?");
  };
  switch (d.fault) {
    case StateFault::none: return s + ": ok";
    case StateFault::unknown_group:
      return s + ": group entry " + std::to_string(d.group) + " has a name that is neither a group of " +
             std::string(M::name) + " nor a hand";
    case StateFault::wrong_joint_count:
      return s + ": group " + model_group() + " has " + std::to_string(d.found) + " values, " + std::string(M::name) +
             " expects " + std::to_string(M::groups[d.group].count) + " (another robot model?)";
    case StateFault::missing_group:
      return s + ": group " + model_group() + " of " + std::string(M::name) + " is missing";
    case StateFault::not_finite: return s + ": group " + model_group() + " has a value that is not finite";
  }
  return s;
}

// Writes q, dq and tau of `out` only when the whole sample is valid.
template <AuroraModel M>
StateDecode decode_group_state(const GroupStateValue& in, RobotState<M::joint_count>& out) {
  constexpr std::size_t G = M::groups.size();
  std::array<bool, G> seen{};
  JointVector<M::joint_count> q = out.q, dq = out.dq, tau = out.tau;
  auto health = out.health;
  for (std::size_t e = 0; e < in.groups.size; ++e) {
    const auto& entry = in.groups[e];
    const std::size_t g = group_index<M>(entry.name.view());
    if (g == G) {
      if (is_undriven_group(entry.name.view())) continue;
      return {StateFault::unknown_group, e, 0};
    }
    const ControlGroup& group = M::groups[g];
    for (const auto* values : {&entry.q, &entry.dq, &entry.tau}) {
      if (values->size != group.count) return {StateFault::wrong_joint_count, g, values->size};
    }
    // group_motion_state runs parallel to the group entries; 3 (error) marks the group's joints as
    // faulted (the runtime damps on a joint fault), anything else clears that fault.
    const bool group_error =
        e < in.motion.size && in.motion[e] == static_cast<std::uint8_t>(GroupMotionState::error);
    for (std::size_t k = 0; k < group.count; ++k) {
      auto& h = health[group.first + k];
      h.faults = group_error ? k_joint_driver_error : k_joint_ok;
      h.error_code = group_error ? static_cast<std::uint32_t>(GroupMotionState::error) : 0u;
    }
    for (std::size_t k = 0; k < group.count; ++k) {
      const auto j = static_cast<Eigen::Index>(group.first + k);
      q[j] = entry.q[k];
      dq[j] = entry.dq[k];
      tau[j] = entry.tau[k];
      if (!std::isfinite(q[j]) || !std::isfinite(dq[j]) || !std::isfinite(tau[j])) return {StateFault::not_finite, g, 0};
    }
    seen[g] = true;
  }
  for (std::size_t g = 0; g < G; ++g) {
    if (!seen[g]) return {StateFault::missing_group, g, 0};
  }
  out.q = q;
  out.dq = dq;
  out.tau = tau;
  out.health = health;
  return {};
}

struct BaseValue {
  std::array<double, 4> quat_xyzw{0, 0, 0, 1};
  std::array<double, 3> omega_b{}, acc_b{};
};

inline const char* base_from_wire(const BaseDataWire& in, BaseValue& out) {
  if (in.quat_xyzw._length != 4) return "base_data_pub: quat_xyzw must hold 4 values (x, y, z, w)";
  if (in.omega_B._length != 3) return "base_data_pub: omega_B must hold 3 values";
  if (in.acc_B._length != 3) return "base_data_pub: acc_B must hold 3 values";
  for (std::size_t i = 0; i < 4; ++i) out.quat_xyzw[i] = in.quat_xyzw._buffer[i];
  for (std::size_t i = 0; i < 3; ++i) {
    out.omega_b[i] = in.omega_B._buffer[i];
    out.acc_b[i] = in.acc_B._buffer[i];
  }
  return nullptr;
}

// False (out unchanged) for a non-finite value or a quaternion far from unit length.
template <std::size_t N>
bool decode_base(const BaseValue& in, RobotState<N>& out) {
  const auto& x = in.quat_xyzw;
  Quaternion orientation(x[3], x[0], x[1], x[2]);
  const double norm = orientation.norm();
  if (!std::isfinite(norm) || std::abs(norm - 1.0) > 0.1) return false;
  const Vector3 gyro(in.omega_b[0], in.omega_b[1], in.omega_b[2]);
  const Vector3 acc(in.acc_b[0], in.acc_b[1], in.acc_b[2]);
  if (!gyro.allFinite() || !acc.allFinite()) return false;
  out.imu.orientation = orientation.normalized();
  out.imu.gyro = gyro;
  out.imu.accelerometer = acc;
  out.update_derived();
  return true;
}

// contact_data_pub as it came: 6D force per foot (left, then right) and each foot's contact probability.
struct ContactValue {
  transport::BoundedSequence<double, 12> force;
  transport::BoundedSequence<double, 4> probability;
};

inline const char* contact_from_wire(const ContactDataWire& in, ContactValue& out) {
  if (!transport::copy_sequence(in.contact_force, out.force)) return "contact_data_pub: contact_force holds more than 12 values";
  if (!transport::copy_sequence(in.contact_prob, out.probability)) return "contact_data_pub: contact_prob holds more than 4 values";
  return nullptr;
}

// ================================ send ================================

struct GroupCommandEntry {
  GroupName name;
  std::uint8_t motion_state = static_cast<std::uint8_t>(GroupMotionState::move);
  std::uint8_t control_type = static_cast<std::uint8_t>(ControlType::joint);
  std::uint8_t motor_mode = static_cast<std::uint8_t>(MotorMode::position);
  GroupValues position, velocity, effort;
};

struct GroupCommandValue {
  transport::BoundedSequence<GroupCommandEntry, k_max_groups> groups;
};

enum class CommandFault : std::uint8_t { none, nothing_covered, partial_group, mixed_modes, unsupported_mode, not_finite };

[[nodiscard]] constexpr std::string_view to_string(CommandFault f) {
  constexpr std::array<std::string_view, 6> names{"none",        "covers no group",  "group covered partly",
                                                  "mixed modes", "unsupported mode", "value not finite"};
  return names[static_cast<std::size_t>(f)];
}

// What encode_group_command did: sent groups, groups withheld (not allowed now, e.g. the legs in
// UpperBodyUserCmd), or why nothing was sent (`group` / `joint` locate the fault).
struct CommandEncode {
  CommandFault fault = CommandFault::none;
  std::size_t group = 0;
  std::size_t joint = 0;
  std::uint32_t withheld = 0;
  [[nodiscard]] constexpr bool sent() const { return fault == CommandFault::none; }
};

// Bit g set: the model's group g may be sent.
using GroupMask = std::uint32_t;
template <AuroraModel M>
inline constexpr GroupMask k_all_groups = (GroupMask{1} << M::groups.size()) - 1;

// The reason in words, naming the topic, group and joint (for logs and errors; allocates).
template <AuroraModel M>
[[nodiscard]] std::string describe(const CommandEncode& r, std::string_view topic = "robot_control_group_cmd") {
  std::string s(topic);
  if (r.fault == CommandFault::none) return s + ": sent";
  if (r.fault == CommandFault::nothing_covered) return s + ": the command covers no control group of " + std::string(M::name);
  const std::string group = r.group < M::groups.size() ? std::string(M::groups[r.group].name) : std::string("?");
  const std::string joint = r.joint < M::joint_count ? std::string(M::joints[r.joint].name) : std::string("?");
  switch (r.fault) {
    case CommandFault::partial_group:
      return s + ": group '" + group + "' is covered partly (" + joint +
             " is not driven); Aurora takes complete groups only, nothing was sent";
    case CommandFault::mixed_modes:
      return s + ": group '" + group + "' mixes joint modes (" + joint + "); one mode per group, nothing was sent";
    case CommandFault::unsupported_mode:
      return s + ": " + joint + " asks for a mode Aurora cannot take (position or torque only), nothing was sent";
    case CommandFault::not_finite: return s + ": " + joint + " has a target that is not finite, nothing was sent";
    default: return s;
  }
}

// The groups UpperBodyUserCmd (11) accepts: everything but the legs.
template <AuroraModel M>
[[nodiscard]] constexpr GroupMask upper_body_groups() {
  GroupMask mask = 0;
  for (std::size_t g = 0; g < M::groups.size(); ++g) {
    if (M::groups[g].name != "left_leg" && M::groups[g].name != "right_leg") mask |= GroupMask{1} << g;
  }
  return mask;
}

template <AuroraModel M>
CommandEncode encode_group_command(const JointCommand<M::joint_count>& c, GroupMask allowed, GroupCommandValue& out) {
  CommandEncode result;
  out.groups.size = 0;
  for (std::size_t g = 0; g < M::groups.size(); ++g) {
    const ControlGroup& group = M::groups[g];
    std::size_t covered = 0;
    for (std::size_t k = 0; k < group.count; ++k) covered += c.mode[group.first + k] != JointMode::none ? 1 : 0;
    if (covered == 0) continue;
    const auto fail = [&](CommandFault f, std::size_t joint) {
      out.groups.size = 0;
      return CommandEncode{f, g, joint, result.withheld};
    };
    if (covered != group.count) {
      for (std::size_t k = 0; k < group.count; ++k) {
        if (c.mode[group.first + k] == JointMode::none) return fail(CommandFault::partial_group, group.first + k);
      }
    }
    const JointMode mode = c.mode[group.first];
    for (std::size_t k = 0; k < group.count; ++k) {
      const std::size_t j = group.first + k;
      if (c.mode[j] != JointMode::position && c.mode[j] != JointMode::torque) return fail(CommandFault::unsupported_mode, j);
      if (c.mode[j] != mode) return fail(CommandFault::mixed_modes, j);
      const auto i = static_cast<Eigen::Index>(j);
      if (!std::isfinite(c.q[i]) || !std::isfinite(c.dq[i]) || !std::isfinite(c.tau_ff[i])) {
        return fail(CommandFault::not_finite, j);
      }
    }
    if ((allowed & (GroupMask{1} << g)) == 0) {
      ++result.withheld;
      continue;
    }
    auto& e = out.groups[out.groups.size++];
    e.name.assign(group.name);
    e.motion_state = static_cast<std::uint8_t>(GroupMotionState::move);
    e.control_type = static_cast<std::uint8_t>(ControlType::joint);
    e.motor_mode = static_cast<std::uint8_t>(mode == JointMode::torque ? MotorMode::effort : MotorMode::position);
    e.position.size = e.velocity.size = e.effort.size = static_cast<std::uint32_t>(group.count);
    for (std::size_t k = 0; k < group.count; ++k) {
      const auto i = static_cast<Eigen::Index>(group.first + k);
      e.position[k] = c.q[i];
      e.velocity[k] = c.dq[i];
      e.effort[k] = c.tau_ff[i];
    }
  }
  if (out.groups.size == 0) result.fault = CommandFault::nothing_covered;
  return result;
}

struct MotorConfigEntry {
  GroupName name;
  GroupValues kp, kd;
};

struct MotorConfigValue {
  transport::BoundedSequence<MotorConfigEntry, k_max_groups> groups;
};

// pd_kp / pd_kd of every allowed group, from per-joint gains in the model's order.
template <AuroraModel M>
void motor_config(const JointVector<M::joint_count>& kp, const JointVector<M::joint_count>& kd, GroupMask allowed,
                  MotorConfigValue& out) {
  out.groups.size = 0;
  for (std::size_t g = 0; g < M::groups.size(); ++g) {
    if ((allowed & (GroupMask{1} << g)) == 0) continue;
    const ControlGroup& group = M::groups[g];
    auto& e = out.groups[out.groups.size++];
    e.name.assign(group.name);
    e.kp.size = e.kd.size = static_cast<std::uint32_t>(group.count);
    for (std::size_t k = 0; k < group.count; ++k) {
      e.kp[k] = kp[static_cast<Eigen::Index>(group.first + k)];
      e.kd[k] = kd[static_cast<Eigen::Index>(group.first + k)];
    }
  }
}

// The model's example gains as vectors.
template <AuroraModel M>
void default_gains(JointVector<M::joint_count>& kp, JointVector<M::joint_count>& kd) {
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    kp[static_cast<Eigen::Index>(j)] = M::default_kp[j];
    kd[static_cast<Eigen::Index>(j)] = M::default_kd[j];
  }
}

struct VelocityValue {
  double vx = 0, vy = 0, yaw = 0;
};

// Clamps a walking command to the model's ranges; a non-finite component becomes 0. True when
// anything was changed.
template <AuroraModel M>
bool clamp_velocity(VelocityValue& v) {
  constexpr VelocityRange r = M::velocity_range;
  const VelocityValue before = v;
  const auto clamp = [](double x, double lo, double hi) { return std::isfinite(x) ? std::fmin(std::fmax(x, lo), hi) : 0.0; };
  v.vx = clamp(v.vx, r.vx_min, r.vx_max);
  v.vy = clamp(v.vy, -r.vy_max, r.vy_max);
  v.yaw = clamp(v.yaw, -r.yaw_max, r.yaw_max);
  return v.vx != before.vx || v.vy != before.vy || v.yaw != before.yaw;
}

// One-field requests (FSM changes, the velocity source).
struct StateRequestValue {
  std::uint8_t desired = 0;
};

// ---- value -> sample, on storage owned by the encoder (allocated with it, once) ----

namespace detail {
inline void zero_header(std_msgs_msg_dds__Header_& h, std::array<char, 1>& frame) {
  h.stamp = {0, 0};
  frame[0] = '\0';
  h.frame_id = frame.data();
}
inline void empty(dds_sequence_octet& s) { s = {0, 0, nullptr, false}; }
}  // namespace detail

class GroupCommandToWire {
 public:
  bool operator()(const GroupCommandValue& v, GroupCommandWire& w) {
    detail::zero_header(w.header, frame_);
    detail::empty(w.ex_data);
    if (!transport::lend(w.group_cmd, std::span(groups_), v.groups.size)) return false;
    for (std::uint32_t i = 0; i < v.groups.size; ++i) {
      const auto& e = v.groups[i];
      auto& g = groups_[i];
      g.group_motion_state = e.motion_state;
      g.control_type = e.control_type;
      g.motor_mode = e.motor_mode;
      if (!transport::lend_string(g.group_name, names_[i], e.name.view()) ||
          !transport::lend(g.position, std::span(position_[i]), e.position) ||
          !transport::lend(g.velocity, std::span(velocity_[i]), e.velocity) ||
          !transport::lend(g.effort, std::span(effort_[i]), e.effort)) {
        return false;
      }
    }
    return true;
  }

 private:
  std::array<char, 1> frame_{};
  std::array<fourier_msgs_msg_ControlGroupCmd, k_max_groups> groups_{};
  std::array<std::array<char, k_max_group_name + 1>, k_max_groups> names_{};
  std::array<std::array<double, k_max_group_joints>, k_max_groups> position_{}, velocity_{}, effort_{};
};

class MotorConfigToWire {
 public:
  bool operator()(const MotorConfigValue& v, MotorConfigWire& w) {
    detail::zero_header(w.header, frame_);
    detail::empty(w.ex_data);
    if (!transport::lend(w.group_cmd, std::span(groups_), v.groups.size)) return false;
    for (std::uint32_t i = 0; i < v.groups.size; ++i) {
      const auto& e = v.groups[i];
      auto& g = groups_[i];
      if (!transport::lend_string(g.group_name, names_[i], e.name.view()) || !transport::lend(g.pd_kp, std::span(kp_[i]), e.kp) ||
          !transport::lend(g.pd_kd, std::span(kd_[i]), e.kd)) {
        return false;
      }
    }
    return true;
  }

 private:
  std::array<char, 1> frame_{};
  std::array<fourier_msgs_msg_MotorCfgGroupCmd, k_max_groups> groups_{};
  std::array<std::array<char, k_max_group_name + 1>, k_max_groups> names_{};
  std::array<std::array<double, k_max_group_joints>, k_max_groups> kp_{}, kd_{};
};

// The messages that are a header and numbers.
template <class Wire, class Value>
class HeaderMessageToWire {
 public:
  bool operator()(const Value& v, Wire& w) {
    detail::zero_header(w.header, frame_);
    fill(v, w);
    return true;
  }

 private:
  static void fill(const StateRequestValue& v, WholeBodyRequestWire& w) { w.desired_state = v.desired; }
  static void fill(const StateRequestValue& v, UpperBodyRequestWire& w) { w.desired_state = v.desired; }
  static void fill(const StateRequestValue& v, VelocitySourceWire& w) { w.desired_source = v.desired; }
  static void fill(const VelocityValue& v, VelocityWire& w) {
    w.vx = v.vx;
    w.vy = v.vy;
    w.yaw = v.yaw;
  }
  std::array<char, 1> frame_{};
};

}  // namespace praxis::aurora
