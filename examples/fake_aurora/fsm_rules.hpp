#pragma once
// The fake Aurora's acceptance rules, as a pure class: what a request or command does in the
// current whole-body state, and which client mistake it is when it is refused. No DDS, no clock of
// its own (every call takes `now`), so the rules are unit-testable; main.cpp only feeds it samples.
//
// Rules (docs/backends/aurora.md, "Wire facts and their sources": control groups, the state machine,
// rates):
//   whole_body_fsm_state_change_cmd
//     Default (0), JointStand (1), PdStand (2), SecurityProtection (9): accepted from any state
//       (the joystick reaches them from anywhere, LB+RB, LB+A, LB+B, LT+RT).
//     UserCmd (10), UpperBodyUserCmd (11): only from a PdStand that reports stable (this robot
//       stands on the ground: UserCmd is "available for hanging: yes / standing: no"), or from
//       the other of the two.
//     UserController_A (3, locomotion): only from a stable PdStand.
//     UserController_B..F (4-8): this fake has no such controllers; refused.
//   upper_body_fsm_state_change_cmd: only inside locomotion (3); values 0, 1, 2, 4.
//   robot_control_group_cmd: UserCmd takes every group, UpperBodyUserCmd and locomotion with the
//     upper-body FSM in RemoteCtrl (2) the upper groups (waist, head, arms). A message with one
//     incomplete group (not exactly the group's joint count), an unknown group name or a value
//     that is not finite is rejected whole. Hand groups are accepted and ignored (no hands here).
//   robot_motor_cfg_group_cmd: UserCmd every group, UpperBodyUserCmd the upper groups; complete
//     groups only, gains finite and not negative.
//   velocity_source_cmd: 0, 1 or 2. velocity_cmd: only in locomotion (3) with the velocity source
//     navigation (2), and within the model's velocity ranges (a command outside is refused, not
//     clamped: it says the client ignored the ranges).
//   PdStand's stance stage (same section): robot_stand_pose_state is published only in it, stable_level
//     rises from 0 once it began (stance_after after entering PdStand), and group commands for the
//     upper groups (waist, head, arms) are accepted in it.
// `refuse_state` makes the robot refuse one whole-body state for the error tests; that refusal is
// the robot's choice, not the client's mistake, so it is counted apart from the violations.
// `switch_latency`: an accepted request takes effect that much later (a real GR-2 was measured at
// 1.5 s); until then aurora_state keeps reporting the old state. restart(): the robot's software
// started again, back in Default with the joystick's velocity source.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <praxis/core/clock.hpp>
#include <praxis/hardware/aurora/codec.hpp>
#include <praxis/hardware/aurora/fsm.hpp>
#include <praxis/hardware/aurora/models.hpp>

namespace praxis::fake_aurora {

using aurora::GroupMask;
using aurora::WholeBodyState;

enum class Violation : std::uint8_t {
  transition_precondition,  // e.g. UserCmd before PdStand reported stable
  unsupported_state,        // a state number this robot does not have
  upper_body_outside_locomotion,
  group_outside_state,      // a group command in a state that does not take that group
  partial_group,            // a group with another joint count than the model's
  unknown_group,
  non_finite,
  motor_config_outside_state,
  motor_config_partial_group,
  motor_config_bad_gain,
  bad_velocity_source,
  velocity_outside_locomotion,
  velocity_without_navigation,
  velocity_out_of_range,
};
inline constexpr std::size_t k_violation_kinds = 14;

[[nodiscard]] constexpr std::string_view to_string(Violation v) {
  constexpr std::array<std::string_view, k_violation_kinds> names{
      "transition_precondition",     "unsupported_state",          "upper_body_outside_locomotion",
      "group_outside_state",         "partial_group",              "unknown_group",
      "non_finite",                  "motor_config_outside_state", "motor_config_partial_group",
      "motor_config_bad_gain",       "bad_velocity_source",        "velocity_outside_locomotion",
      "velocity_without_navigation", "velocity_out_of_range"};
  return names[static_cast<std::size_t>(v)];
}

struct RulesOptions {
  Duration stable_after = std::chrono::seconds(2);  // PdStand's stance reaches stable_level > 100 after this
  std::optional<std::uint8_t> refuse_state;         // a whole-body state the robot refuses
  Duration switch_latency = Duration::zero();       // an accepted request takes effect this much later
  Duration stance_after = Duration::zero();         // PdStand's stance stage begins this long after entering
};

// Aurora's stable_level runs 0..110 on the real robot; > 100 is "stable".
inline constexpr std::uint8_t k_stable_level_max = 110;
inline constexpr std::uint8_t k_stable_level_threshold = 100;

struct StateEntry {
  TimePoint at;
  std::uint8_t state;
};

// What a group command or configuration message may set: the model's groups in bit order.
struct GroupVerdict {
  bool accepted = false;
  GroupMask groups = 0;  // accepted: the model groups the message carries
};

template <aurora::AuroraModel M>
class FsmRules {
 public:
  FsmRules(RulesOptions options, TimePoint now) : options_(options) { enter(WholeBodyState::no_task, now); }

  // ---- reports ----
  [[nodiscard]] WholeBodyState state() const { return state_; }
  [[nodiscard]] std::uint8_t upper_body() const { return upper_body_; }
  [[nodiscard]] std::uint8_t velocity_source() const { return velocity_source_; }
  [[nodiscard]] TimePoint entered_at() const { return entered_at_; }
  [[nodiscard]] const std::vector<StateEntry>& entries() const { return entries_; }
  [[nodiscard]] std::uint64_t violations(Violation v) const { return violations_[static_cast<std::size_t>(v)]; }
  [[nodiscard]] std::uint64_t total_violations() const {
    std::uint64_t n = 0;
    for (auto c : violations_) n += c;
    return n;
  }
  [[nodiscard]] std::uint64_t refused_requests() const { return refused_; }

  [[nodiscard]] std::uint64_t restarts() const { return restarts_; }
  // A request accepted and not yet in effect (switch_latency).
  [[nodiscard]] std::optional<WholeBodyState> pending() const {
    return pending_ ? std::optional<WholeBodyState>(pending_->state) : std::nullopt;
  }

  // PdStand's stance stage: robot_stand_pose_state is published, the upper groups take commands.
  [[nodiscard]] bool in_stance(TimePoint now) const {
    return state_ == WholeBodyState::pd_stand && now - entered_at_ >= options_.stance_after;
  }
  // PdStand's stability, rising linearly from the stance's start to the maximum at stable_after
  // (0 outside the stance).
  [[nodiscard]] std::uint8_t stable_level(TimePoint now) const {
    if (!in_stance(now)) return 0;
    const Duration in = now - entered_at_ - options_.stance_after;
    if (in >= options_.stable_after) return k_stable_level_max;
    const double share = to_seconds(in) / to_seconds(options_.stable_after);
    return static_cast<std::uint8_t>(share * k_stable_level_threshold);
  }
  [[nodiscard]] bool stable(TimePoint now) const { return stable_level(now) > k_stable_level_threshold; }

  // The groups joint commands may drive now.
  [[nodiscard]] GroupMask commandable_groups(TimePoint now) const {
    switch (state_) {
      case WholeBodyState::user_cmd: return aurora::k_all_groups<M>;
      case WholeBodyState::upper_body_user_cmd: return aurora::upper_body_groups<M>();
      case WholeBodyState::pd_stand: return in_stance(now) ? aurora::upper_body_groups<M>() : GroupMask{0};
      default:
        if (state_ == aurora::k_locomotion_state &&
            upper_body_ == static_cast<std::uint8_t>(aurora::UpperBodyState::remote_ctrl)) {
          return aurora::upper_body_groups<M>();
        }
        return 0;
    }
  }
  [[nodiscard]] GroupMask configurable_groups() const {
    if (state_ == WholeBodyState::user_cmd) return aurora::k_all_groups<M>;
    if (state_ == WholeBodyState::upper_body_user_cmd) return aurora::upper_body_groups<M>();
    return 0;
  }

  // A message that could not even be read (too many groups or values, a name too long).
  void record(Violation v) { count(v); }

  // ---- requests ----

  // Applies a request accepted switch_latency ago; call it every tick before reporting.
  void tick(TimePoint now) {
    if (pending_ && now >= pending_->at) {
      enter(pending_->state, now);
      pending_.reset();
    }
  }

  // The robot's software started again: Default, no stand, the joystick's source, nothing pending.
  void restart(TimePoint now) {
    pending_.reset();
    velocity_source_ = 0;
    ++restarts_;
    enter(WholeBodyState::no_task, now);
  }

  // True when the robot accepted the change (it takes effect after switch_latency) or already was
  // in the state.
  bool request_whole_body(std::uint8_t desired, TimePoint now) {
    if (desired >= aurora::k_whole_body_states) return count(Violation::unsupported_state);
    const auto want = static_cast<WholeBodyState>(desired);
    if (pending_ && pending_->state == want) return true;  // a resend while the switch is under way
    if (want == state_ && !pending_) return true;
    if (options_.refuse_state == desired) {
      ++refused_;
      return false;
    }
    switch (want) {
      case WholeBodyState::no_task:
      case WholeBodyState::joint_stand:
      case WholeBodyState::pd_stand:
      case WholeBodyState::security: break;
      case WholeBodyState::user_cmd:
      case WholeBodyState::upper_body_user_cmd: {
        const bool from_other = state_ == WholeBodyState::user_cmd || state_ == WholeBodyState::upper_body_user_cmd;
        if (!from_other && !stable(now)) return count(Violation::transition_precondition);
        break;
      }
      case WholeBodyState::user_a:
        if (!stable(now)) return count(Violation::transition_precondition);
        break;
      default: return count(Violation::unsupported_state);
    }
    if (options_.switch_latency > Duration::zero()) {
      pending_ = Pending{want, now + options_.switch_latency};
    } else {
      pending_.reset();
      enter(want, now);
    }
    return true;
  }

  bool request_upper_body(std::uint8_t desired) {
    if (state_ != aurora::k_locomotion_state) return count(Violation::upper_body_outside_locomotion);
    if (desired != 0 && desired != 1 && desired != 2 && desired != 4) return count(Violation::unsupported_state);
    upper_body_ = desired;
    return true;
  }

  bool request_velocity_source(std::uint8_t desired) {
    if (desired > static_cast<std::uint8_t>(aurora::VelocitySource::navigation)) {
      return count(Violation::bad_velocity_source);
    }
    velocity_source_ = desired;
    return true;
  }

  bool check_velocity(const aurora::VelocityValue& v) {
    if (state_ != aurora::k_locomotion_state) return count(Violation::velocity_outside_locomotion);
    if (velocity_source_ != static_cast<std::uint8_t>(aurora::VelocitySource::navigation)) {
      return count(Violation::velocity_without_navigation);
    }
    constexpr aurora::VelocityRange r = M::velocity_range;
    const bool inside = std::isfinite(v.vx) && std::isfinite(v.vy) && std::isfinite(v.yaw) && v.vx >= r.vx_min &&
                        v.vx <= r.vx_max && std::abs(v.vy) <= r.vy_max && std::abs(v.yaw) <= r.yaw_max;
    return inside || count(Violation::velocity_out_of_range);
  }

  // ---- commands ----

  GroupVerdict check_group_command(const aurora::GroupCommandValue& c, TimePoint now) {
    GroupMask carried = 0;
    for (std::size_t e = 0; e < c.groups.size; ++e) {
      const auto& entry = c.groups[e];
      const std::size_t g = aurora::group_index<M>(entry.name.view());
      if (g == M::groups.size()) {
        if (aurora::is_undriven_group(entry.name.view())) continue;
        return refuse(Violation::unknown_group);
      }
      const auto count = M::groups[g].count;
      if (entry.position.size != count || entry.velocity.size != count || entry.effort.size != count) {
        return refuse(Violation::partial_group);
      }
      for (std::size_t k = 0; k < count; ++k) {
        if (!std::isfinite(entry.position[k]) || !std::isfinite(entry.velocity[k]) || !std::isfinite(entry.effort[k])) {
          return refuse(Violation::non_finite);
        }
      }
      carried |= GroupMask{1} << g;
    }
    if ((carried & ~commandable_groups(now)) != 0 || carried == 0) return refuse(Violation::group_outside_state);
    return {true, carried};
  }

  GroupVerdict check_motor_config(const aurora::MotorConfigValue& c) {
    GroupMask carried = 0;
    for (std::size_t e = 0; e < c.groups.size; ++e) {
      const auto& entry = c.groups[e];
      const std::size_t g = aurora::group_index<M>(entry.name.view());
      if (g == M::groups.size()) {
        if (aurora::is_undriven_group(entry.name.view())) continue;
        return refuse(Violation::unknown_group);
      }
      const auto count = M::groups[g].count;
      if (entry.kp.size != count || entry.kd.size != count) return refuse(Violation::motor_config_partial_group);
      for (std::size_t k = 0; k < count; ++k) {
        const bool ok = std::isfinite(entry.kp[k]) && std::isfinite(entry.kd[k]) && entry.kp[k] >= 0 && entry.kd[k] >= 0;
        if (!ok) return refuse(Violation::motor_config_bad_gain);
      }
      carried |= GroupMask{1} << g;
    }
    if ((carried & ~configurable_groups()) != 0 || carried == 0) return refuse(Violation::motor_config_outside_state);
    return {true, carried};
  }

 private:
  void enter(WholeBodyState s, TimePoint now) {
    state_ = s;
    entered_at_ = now;
    if (s != aurora::k_locomotion_state) upper_body_ = 0;
    entries_.push_back({now, static_cast<std::uint8_t>(s)});
  }
  bool count(Violation v) {
    ++violations_[static_cast<std::size_t>(v)];
    return false;
  }
  GroupVerdict refuse(Violation v) {
    count(v);
    return {};
  }

  struct Pending {
    WholeBodyState state;
    TimePoint at;
  };

  RulesOptions options_;
  std::optional<Pending> pending_;
  std::uint64_t restarts_ = 0;
  WholeBodyState state_ = WholeBodyState::no_task;
  std::uint8_t upper_body_ = 0;
  std::uint8_t velocity_source_ = 0;
  TimePoint entered_at_{};
  std::vector<StateEntry> entries_;
  std::array<std::uint64_t, k_violation_kinds> violations_{};
  std::uint64_t refused_ = 0;
};

}  // namespace praxis::fake_aurora
