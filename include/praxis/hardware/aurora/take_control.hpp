#pragma once
// Taking joint control of an Aurora robot and handing it back, as a state machine that is only
// told what the robot reported and what time it is, and answers with what to send. No DDS and no
// clock of its own, so every path (a step timing out, the robot refusing, the robot leaving the
// state) is testable with a simulated clock; AuroraBackend::acquire() / release() drive it.
//
// Taking control (fact sheet shared/vendors/aurora-and-tienkung.md, A.5, "Sequence to take full
// joint control"):
//   1. request PdStand (2) on whole_body_fsm_state_change_cmd; await it on aurora_state
//   2. await robot_stand_pose_state.stable_level > threshold (real robot: > 100 of 0..110; sim: > 10)
//   3. request UserCmd (10), or UpperBodyUserCmd (11) for the upper body only; await it on aurora_state
//   4. send the PD configuration (robot_motor_cfg_group_cmd), a few times: the topic is best effort
//   5. in control: the backend streams complete groups on robot_control_group_cmd
// Steps 1-2 are for a robot standing on the ground; a hanging robot may go to UserCmd directly
// (stand_first = false: "UserCmd available for hanging: yes / standing: no").
// Handing back: request PdStand (default) or SecurityProtection (9) and await it.
// Requests are repeated every resend_period until the robot reports the state (best effort, volatile:
// one lost sample must not stall the sequence). While awaiting the stable level or UserCmd, the
// robot leaving PdStand (joystick, its own safety) ends the sequence with an error at once.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/aurora/fsm.hpp"

namespace praxis::aurora {

// What the robot reported so far (nullopt: nothing on that topic yet).
struct Observation {
  std::optional<std::uint8_t> whole_body;    // aurora_state.whole_body_fsm_state
  std::optional<std::uint8_t> stable_level;  // robot_stand_pose_state.stable_level
};

struct SequenceTopics {
  std::string aurora_state = "aurora_state";
  std::string stand_pose = "robot_stand_pose_state";
  std::string fsm_request = "whole_body_fsm_state_change_cmd";
  std::string motor_config = "robot_motor_cfg_group_cmd";
};

struct SequenceOptions {
  bool stand_first = true;  // false: a hanging robot, straight to UserCmd
  WholeBodyState control_state = WholeBodyState::user_cmd;  // or upper_body_user_cmd
  WholeBodyState release_state = WholeBodyState::pd_stand;  // or security
  std::uint8_t stable_threshold = 100;                      // PdStand's stable_level must exceed it
  Duration pd_stand_timeout = std::chrono::seconds(3);
  Duration stable_timeout = std::chrono::seconds(15);
  Duration control_state_timeout = std::chrono::seconds(3);
  Duration release_timeout = std::chrono::seconds(3);
  Duration resend_period = std::chrono::milliseconds(200);
  int motor_config_sends = 3;
  SequenceTopics topics{};
};

enum class StepKind : std::uint8_t { request_state, await_state, await_stable, send_motor_config };

struct SequenceStep {
  StepKind kind;
  WholeBodyState state;  // request_state / await_state; await_stable: the state it must stay in
  Duration timeout;
};

struct SequenceAction {
  enum class Kind : std::uint8_t { none, request_state, send_motor_config, done, failed };
  Kind kind = Kind::none;
  WholeBodyState state = WholeBodyState::no_task;  // request_state
};

class FsmSequence {
 public:
  // The two sequences of the file comment.
  static FsmSequence take_control(const SequenceOptions& o) {
    std::vector<SequenceStep> steps;
    if (o.stand_first) {
      steps.push_back({StepKind::request_state, WholeBodyState::pd_stand, {}});
      steps.push_back({StepKind::await_state, WholeBodyState::pd_stand, o.pd_stand_timeout});
      steps.push_back({StepKind::await_stable, WholeBodyState::pd_stand, o.stable_timeout});
    }
    steps.push_back({StepKind::request_state, o.control_state, {}});
    steps.push_back({StepKind::await_state, o.control_state, o.control_state_timeout});
    steps.push_back({StepKind::send_motor_config, o.control_state, {}});
    return FsmSequence("taking control", o, std::move(steps));
  }
  static FsmSequence release(const SequenceOptions& o) {
    return FsmSequence("handing back control", o,
                       {{StepKind::request_state, o.release_state, {}},
                        {StepKind::await_state, o.release_state, o.release_timeout}});
  }

  void start(TimePoint now) {
    index_ = 0;
    step_started_ = now;
    last_send_ = now;
    sends_ = 0;
    error_.clear();
    finished_ = false;
  }

  // What to send now, given what the robot reported. Call it at any rate faster than resend_period.
  SequenceAction step(const Observation& seen, TimePoint now) {
    using Kind = SequenceAction::Kind;
    if (!error_.empty()) return {Kind::failed, {}};
    if (finished_) return {Kind::done, {}};
    if (index_ >= steps_.size()) {
      finished_ = true;
      return {Kind::done, {}};
    }
    const SequenceStep& s = steps_[index_];
    const Duration in_step = now - step_started_;
    switch (s.kind) {
      case StepKind::request_state:
        advance(now);
        last_send_ = now;
        return {Kind::request_state, s.state};
      case StepKind::await_state:
        if (seen.whole_body == static_cast<std::uint8_t>(s.state)) {
          advance(now);
          return step(seen, now);
        }
        if (in_step >= s.timeout) return fail(awaited_state_error(s, seen));
        if (now - last_send_ >= options_.resend_period) {
          last_send_ = now;
          return {Kind::request_state, s.state};
        }
        return {};
      case StepKind::await_stable:
        if (seen.whole_body.has_value() && *seen.whole_body != static_cast<std::uint8_t>(s.state)) {
          return fail(left_state_error(s, *seen.whole_body));
        }
        if (seen.stable_level.has_value() && *seen.stable_level > options_.stable_threshold) {
          advance(now);
          return step(seen, now);
        }
        if (in_step >= s.timeout) return fail(stable_error(s, seen));
        return {};
      case StepKind::send_motor_config:
        if (seen.whole_body.has_value() && *seen.whole_body != static_cast<std::uint8_t>(s.state)) {
          return fail(left_state_error(s, *seen.whole_body));
        }
        if (sends_ >= options_.motor_config_sends) {
          advance(now);
          return step(seen, now);
        }
        if (sends_ == 0 || now - last_send_ >= options_.resend_period) {
          ++sends_;
          last_send_ = now;
          return {Kind::send_motor_config, s.state};
        }
        return {};
    }
    return {};
  }

  [[nodiscard]] bool done() const { return finished_; }
  [[nodiscard]] bool failed() const { return !error_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] std::size_t step_index() const { return index_; }
  [[nodiscard]] const std::vector<SequenceStep>& steps() const { return steps_; }
  [[nodiscard]] std::string_view name() const { return name_; }

  // The name of a step in the words errors use.
  [[nodiscard]] static std::string step_name(const SequenceStep& s) {
    switch (s.kind) {
      case StepKind::request_state: return "request " + state_name(static_cast<std::uint8_t>(s.state));
      case StepKind::await_state: return "await " + state_name(static_cast<std::uint8_t>(s.state));
      case StepKind::await_stable: return "await a stable stand";
      case StepKind::send_motor_config: return "send the PD configuration";
    }
    return "?";
  }

  // "PdStand (2)"
  [[nodiscard]] static std::string state_name(std::uint8_t s) {
    return std::string(to_string(static_cast<WholeBodyState>(s))) + " (" + std::to_string(s) + ")";
  }

 private:
  FsmSequence(std::string name, const SequenceOptions& o, std::vector<SequenceStep> steps)
      : name_(std::move(name)), options_(o), steps_(std::move(steps)) {}

  void advance(TimePoint now) {
    ++index_;
    step_started_ = now;
    sends_ = 0;
  }
  SequenceAction fail(std::string why) {
    error_ = std::move(why);
    return {SequenceAction::Kind::failed, {}};
  }
  std::string prefix(const SequenceStep& s) const {
    return name_ + ", step " + std::to_string(index_ + 1) + " of " + std::to_string(steps_.size()) + " (" +
           step_name(s) + "): ";
  }
  static long long ms(Duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

  std::string awaited_state_error(const SequenceStep& s, const Observation& seen) const {
    const auto& t = options_.topics;
    if (!seen.whole_body.has_value()) {
      return prefix(s) + "no sample on " + t.aurora_state + " within " + std::to_string(ms(s.timeout)) +
             " ms (is Aurora running, on this domain and topic prefix?)";
    }
    return prefix(s) + t.aurora_state + ".whole_body_fsm_state stayed " + state_name(*seen.whole_body) + " for " +
           std::to_string(ms(s.timeout)) + " ms; expected " + state_name(static_cast<std::uint8_t>(s.state)) +
           " after requesting it on " + t.fsm_request + " (the robot refused the change, or does not get " +
           t.fsm_request + ")";
  }
  std::string stable_error(const SequenceStep& s, const Observation& seen) const {
    const auto& t = options_.topics;
    if (!seen.stable_level.has_value()) {
      return prefix(s) + "no sample on " + t.stand_pose + " within " + std::to_string(ms(s.timeout)) +
             " ms (it is published only in PdStand's stance stage)";
    }
    return prefix(s) + t.stand_pose + ".stable_level was " + std::to_string(*seen.stable_level) + " after " +
           std::to_string(ms(s.timeout)) + " ms; expected more than " + std::to_string(options_.stable_threshold) +
           " (is the robot standing on the ground? a hanging robot: stand_first = false)";
  }
  std::string left_state_error(const SequenceStep& s, std::uint8_t now_in) const {
    return prefix(s) + "the robot left " + state_name(static_cast<std::uint8_t>(s.state)) + " for " +
           state_name(now_in) + " (reported on " + options_.topics.aurora_state +
           "; the joystick or the robot's own safety took over)";
  }

  std::string name_;
  SequenceOptions options_;
  std::vector<SequenceStep> steps_;
  std::size_t index_ = 0;
  TimePoint step_started_{};
  TimePoint last_send_{};
  int sends_ = 0;
  bool finished_ = false;
  std::string error_;
};

}  // namespace praxis::aurora
