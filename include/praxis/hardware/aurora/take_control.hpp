#pragma once
// Taking joint control of an Aurora robot and handing it back, as a state machine that is only
// told what the robot reported and what time it is, and answers with what to send. No DDS and no
// clock of its own, so every path (a step timing out, the robot refusing, the robot leaving the
// state) is testable with a simulated clock; AuroraBackend::acquire() / release() drive it.
//
// Taking control (docs/backends/aurora.md, "Wire facts and their sources": the vendor's sequence to
// take full joint control):
//   1. request PdStand (2) on whole_body_fsm_state_change_cmd; await it on aurora_state
//   2. await robot_stand_pose_state.stable_level > threshold (real robot: > 100 of 0..110; sim: > 10)
//   3. request UserCmd (10), or UpperBodyUserCmd (11) for the upper body only; await it on aurora_state
//   4. send the PD configuration (robot_motor_cfg_group_cmd), a few times: the topic is best effort
//   5. in control: the backend streams complete groups on robot_control_group_cmd
// Steps 1-2 are for a robot standing on the ground; a hanging robot may go to UserCmd directly
// (stand_first = false: "UserCmd available for hanging: yes / standing: no").
// Handing back: first what the robot reports now decides (check_holding): praxis requests PdStand
// (default) or SecurityProtection (9) only from the control state it holds. A robot already there
// needs nothing; a robot elsewhere (back in Default after a restart, in SecurityProtection from its
// joystick) is no longer praxis' to hand back, and a request would move a robot praxis does not
// control: nothing is requested and the hand-back fails saying so. Walking (release_walking) hands
// the velocity source back to the joystick first, then asks PdStand only from the locomotion state.
// Requests are repeated every resend_period until the robot reports the state (best effort, volatile:
// one lost sample must not stall the sequence). While awaiting the stable level or UserCmd, the
// robot leaving PdStand (joystick, its own safety) ends the sequence with an error at once.
//
// What the robot reported is believed only when it is recent and, for an awaited state or stand
// level, when it arrived after the request it answers: every value comes with its arrival time
// (Observation), a value older than sample_timeout is "no sample", and errors quote how old the
// last sample was instead of repeating a cached state.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/aurora/fsm.hpp"

namespace praxis::aurora {

// What the robot reported so far (nullopt: nothing on that topic yet), with arrival times.
struct Observation {
  std::optional<std::uint8_t> whole_body;       // aurora_state.whole_body_fsm_state
  std::optional<std::uint8_t> velocity_source;  // aurora_state.velocity_command_source (same sample)
  TimePoint whole_body_at{};                    // when that aurora_state arrived
  std::optional<std::uint8_t> stable_level;     // robot_stand_pose_state.stable_level
  TimePoint stable_level_at{};
};

struct SequenceTopics {
  std::string aurora_state = "aurora_state";
  std::string stand_pose = "robot_stand_pose_state";
  std::string fsm_request = "whole_body_fsm_state_change_cmd";
  std::string motor_config = "robot_motor_cfg_group_cmd";
  std::string velocity_source = "velocity_source_cmd";
};

struct SequenceOptions {
  bool stand_first = true;  // false: a hanging robot, straight to UserCmd
  // user_cmd: every group. upper_body_user_cmd: waist, head and arms, the legs in ZERO TORQUE (a
  // hanging robot only). pd_stand: waist, head and arms while PdStand keeps standing the robot on
  // its legs (Aurora's "PdStand-in-stance", docs/backends/aurora.md, "Wire facts and their
  // sources"; no PD configuration is accepted there, the arms run with PdStand's gains): the
  // arms-only control of a standing robot.
  WholeBodyState control_state = WholeBodyState::user_cmd;
  WholeBodyState release_state = WholeBodyState::pd_stand;  // or security
  std::uint8_t stable_threshold = 100;                      // PdStand's stable_level must exceed it
  Duration pd_stand_timeout = std::chrono::seconds(3);
  Duration stable_timeout = std::chrono::seconds(15);
  Duration control_state_timeout = std::chrono::seconds(3);
  Duration release_timeout = std::chrono::seconds(3);
  Duration resend_period = std::chrono::milliseconds(200);
  int motor_config_sends = 3;
  // A report older than this is not believed (the backend sets it to its link_timeout).
  Duration sample_timeout = std::chrono::milliseconds(100);
  // Handing back with no recent aurora_state (the link is down): false (default) requests nothing,
  // as nobody knows where the robot is; true requests the release state anyway when the last report,
  // however old, was the state praxis held.
  bool release_when_unknown = false;
  SequenceTopics topics{};
};

enum class StepKind : std::uint8_t {
  request_state,
  await_state,
  await_stable,
  send_motor_config,
  check_holding,   // handing back joint control: only from the control state praxis holds
  check_walking,   // handing back walking: PdStand only from the locomotion state
  restore_source,  // handing back walking: the velocity source back to the joystick (its default)
};

struct SequenceStep {
  StepKind kind;
  WholeBodyState state;  // request / await: that state; await_stable: the state it must stay in;
                         // check_*: the state praxis holds
  Duration timeout;
};

struct SequenceAction {
  enum class Kind : std::uint8_t { none, request_state, send_motor_config, request_source, done, failed };
  Kind kind = Kind::none;
  WholeBodyState state = WholeBodyState::no_task;  // request_state
  VelocitySource source = VelocitySource::joystick;  // request_source
};

class FsmSequence {
 public:
  // The sequences of the file comment.
  static FsmSequence take_control(const SequenceOptions& o) {
    std::vector<SequenceStep> steps;
    if (o.stand_first) {
      steps.push_back({StepKind::request_state, WholeBodyState::pd_stand, {}});
      steps.push_back({StepKind::await_state, WholeBodyState::pd_stand, o.pd_stand_timeout});
      steps.push_back({StepKind::await_stable, WholeBodyState::pd_stand, o.stable_timeout});
    }
    if (o.control_state == WholeBodyState::pd_stand) {
      // Arms only in PdStand's stance: standing stable is the state itself; no PD configuration.
      if (!o.stand_first) {
        steps.push_back({StepKind::request_state, WholeBodyState::pd_stand, {}});
        steps.push_back({StepKind::await_state, WholeBodyState::pd_stand, o.pd_stand_timeout});
        steps.push_back({StepKind::await_stable, WholeBodyState::pd_stand, o.stable_timeout});
      }
      return FsmSequence("taking control", o, std::move(steps));
    }
    steps.push_back({StepKind::request_state, o.control_state, {}});
    steps.push_back({StepKind::await_state, o.control_state, o.control_state_timeout});
    steps.push_back({StepKind::send_motor_config, o.control_state, {}});
    return FsmSequence("taking control", o, std::move(steps));
  }
  static FsmSequence release(const SequenceOptions& o) {
    return FsmSequence("handing back control", o,
                       {{StepKind::check_holding, o.control_state, o.release_timeout},
                        {StepKind::request_state, o.release_state, {}},
                        {StepKind::await_state, o.release_state, o.release_timeout}});
  }
  static FsmSequence release_walking(const SequenceOptions& o) {
    return FsmSequence("handing back walking", o,
                       {{StepKind::restore_source, k_locomotion_state, o.release_timeout},
                        {StepKind::check_walking, k_locomotion_state, o.release_timeout},
                        {StepKind::request_state, o.release_state, {}},
                        {StepKind::await_state, o.release_state, o.release_timeout}});
  }

  void start(TimePoint now) {
    index_ = 0;
    step_started_ = now;
    last_send_ = now;
    sends_ = 0;
    error_.clear();
    note_.clear();
    incomplete_.clear();
    finished_ = false;
  }

  // What to send now, given what the robot reported. Call it at any rate faster than resend_period.
  SequenceAction step(const Observation& seen, TimePoint now) {
    using Kind = SequenceAction::Kind;
    if (!error_.empty()) return {Kind::failed, {}, {}};
    if (finished_) return {Kind::done, {}, {}};
    if (index_ >= steps_.size()) {
      finished_ = true;
      return {Kind::done, {}, {}};
    }
    const SequenceStep& s = steps_[index_];
    const Duration in_step = now - step_started_;
    // Reports that answer this step: arrived since it started (for an await, since the request).
    const bool state_since = seen.whole_body.has_value() && seen.whole_body_at >= step_started_;
    const bool state_fresh = seen.whole_body.has_value() && now - seen.whole_body_at <= options_.sample_timeout;
    switch (s.kind) {
      case StepKind::request_state:
        advance(now);
        last_send_ = now;
        return {Kind::request_state, s.state, {}};
      case StepKind::await_state:
        if (state_since && *seen.whole_body == static_cast<std::uint8_t>(s.state)) {
          advance(now);
          return step(seen, now);
        }
        if (in_step >= s.timeout) return fail(awaited_state_error(s, seen, now));
        if (now - last_send_ >= options_.resend_period) {
          last_send_ = now;
          return {Kind::request_state, s.state, {}};
        }
        return {};
      case StepKind::await_stable:
        if (state_since && *seen.whole_body != static_cast<std::uint8_t>(s.state)) {
          return fail(left_state_error(s, *seen.whole_body));
        }
        if (seen.stable_level.has_value() && seen.stable_level_at >= step_started_ &&
            *seen.stable_level > options_.stable_threshold) {
          advance(now);
          return step(seen, now);
        }
        if (in_step >= s.timeout) return fail(stable_error(s, seen, now));
        return {};
      case StepKind::send_motor_config:
        if (state_since && *seen.whole_body != static_cast<std::uint8_t>(s.state)) {
          return fail(left_state_error(s, *seen.whole_body));
        }
        if (sends_ >= options_.motor_config_sends) {
          advance(now);
          return step(seen, now);
        }
        if (sends_ == 0 || now - last_send_ >= options_.resend_period) {
          ++sends_;
          last_send_ = now;
          return {Kind::send_motor_config, s.state, {}};
        }
        return {};
      case StepKind::check_holding:
      case StepKind::check_walking: {
        const auto release = static_cast<std::uint8_t>(options_.release_state);
        if (state_fresh) {
          if (*seen.whole_body == static_cast<std::uint8_t>(s.state)) {
            advance(now);
            return step(seen, now);
          }
          if (*seen.whole_body == release) return finish("the robot was already in " + state_name(release) +
                                                         "; nothing requested");
          if (s.kind == StepKind::check_walking) {
            return finish("the robot is in " + state_name(*seen.whole_body) + ", not walking; " +
                          state_name(release) + " not requested");
          }
          return fail(prefix(s) + "control was lost before the hand-back: " + options_.topics.aurora_state +
                      " reports " + state_name(*seen.whole_body) + " where praxis held " +
                      state_name(static_cast<std::uint8_t>(s.state)) +
                      " (the robot restarted, or its joystick or its own safety took over); " + state_name(release) +
                      " not requested: the robot is not praxis' to move");
        }
        if (in_step < s.timeout) return {};
        // No recent report: where the robot is, nobody knows.
        if (options_.release_when_unknown && seen.whole_body == static_cast<std::uint8_t>(s.state)) {
          note_ = "requested " + state_name(release) + " without a recent " + options_.topics.aurora_state + " (" +
                  age_text(seen, now) + ")";
          advance(now);
          return step(seen, now);
        }
        // With release_when_unknown the last report, quoted, was not the state praxis held.
        return fail(prefix(s) + age_text(seen, now) + "; " + state_name(release) +
                    " not requested: where the robot is is unknown" +
                    (options_.release_when_unknown ? "" : " (release_when_unknown = false)"));
      }
      case StepKind::restore_source: {
        const auto joystick = static_cast<std::uint8_t>(VelocitySource::joystick);
        // Already the joystick's, by a recent report: nothing to send.
        if (sends_ == 0 && state_fresh && seen.velocity_source == joystick) {
          advance(now);
          return step(seen, now);
        }
        if (sends_ > 0 && state_since && seen.whole_body_at >= last_send_ && seen.velocity_source == joystick) {
          advance(now);
          return step(seen, now);
        }
        if (in_step >= s.timeout) {
          // Not fatal: the FSM request after it still stops the walking.
          incomplete_ = options_.topics.velocity_source + ": the velocity source was not reported back to the " +
                        "joystick (0) within " + std::to_string(to_ms(s.timeout)) + " ms (" +
                        (seen.velocity_source.has_value()
                             ? "it reports " + std::string(to_string(static_cast<VelocitySource>(*seen.velocity_source))) +
                                   " (" + std::to_string(*seen.velocity_source) + "), " + age_text(seen, now)
                             : age_text(seen, now)) +
                        ")";
          advance(now);
          return step(seen, now);
        }
        if (sends_ == 0 || now - last_send_ >= options_.resend_period) {
          ++sends_;
          last_send_ = now;
          return {Kind::request_source, {}, VelocitySource::joystick};
        }
        return {};
      }
    }
    return {};
  }

  [[nodiscard]] bool done() const { return finished_; }
  [[nodiscard]] bool failed() const { return !error_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  // Done early, and why (e.g. "the robot was already in PdStand (2); nothing requested"), or how a
  // request went out without a recent report.
  [[nodiscard]] const std::string& note() const { return note_; }
  // Done, but a part that is not fatal was not confirmed (the velocity source).
  [[nodiscard]] const std::string& incomplete() const { return incomplete_; }
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
      case StepKind::check_holding: return "check the robot is still in " + state_name(static_cast<std::uint8_t>(s.state));
      case StepKind::check_walking: return "check where the robot is";
      case StepKind::restore_source: return "hand the velocity source back to the joystick";
    }
    return "?";
  }

  // "PdStand (2)"
  [[nodiscard]] static std::string state_name(std::uint8_t s) {
    return std::string(to_string(static_cast<WholeBodyState>(s))) + " (" + std::to_string(s) + ")";
  }
  // "11.0 s"
  [[nodiscard]] static std::string seconds_text(Duration d) {
    const long long tenths = std::chrono::duration_cast<std::chrono::milliseconds>(d).count() / 100;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
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
    return {SequenceAction::Kind::failed, {}, {}};
  }
  SequenceAction finish(std::string why) {
    note_ = std::move(why);
    finished_ = true;
    return {SequenceAction::Kind::done, {}, {}};
  }
  std::string prefix(const SequenceStep& s) const {
    return name_ + ", step " + std::to_string(index_ + 1) + " of " + std::to_string(steps_.size()) + " (" +
           step_name(s) + "): ";
  }

  // "no aurora_state for 11.0 s (the last one reported UserCmd (10))", or "no sample on aurora_state at all".
  std::string age_text(const Observation& seen, TimePoint now) const {
    const auto& t = options_.topics;
    if (!seen.whole_body.has_value()) return "no sample on " + t.aurora_state + " at all";
    return "no " + t.aurora_state + " for " + seconds_text(now - seen.whole_body_at) + " (the last one reported " +
           state_name(*seen.whole_body) + ")";
  }

  std::string awaited_state_error(const SequenceStep& s, const Observation& seen, TimePoint now) const {
    const auto& t = options_.topics;
    const std::string expected = state_name(static_cast<std::uint8_t>(s.state));
    if (!seen.whole_body.has_value()) {
      return prefix(s) + "no sample on " + t.aurora_state + " within " + std::to_string(to_ms(s.timeout)) +
             " ms (is Aurora running, on this domain and topic prefix?)";
    }
    if (seen.whole_body_at < step_started_ || now - seen.whole_body_at > options_.sample_timeout) {
      return prefix(s) + age_text(seen, now) + "; " + expected + " requested on " + t.fsm_request +
             " and not confirmed within " + std::to_string(to_ms(s.timeout)) + " ms (the link to the robot is down, or "
             "the robot stopped publishing)";
    }
    return prefix(s) + t.aurora_state + ".whole_body_fsm_state stayed " + state_name(*seen.whole_body) + " for " +
           std::to_string(to_ms(s.timeout)) + " ms; expected " + expected + " after requesting it on " + t.fsm_request +
           " (the robot refused the change, or does not get " + t.fsm_request + ")";
  }
  std::string stable_error(const SequenceStep& s, const Observation& seen, TimePoint now) const {
    const auto& t = options_.topics;
    if (!seen.stable_level.has_value() || seen.stable_level_at < step_started_) {
      std::string why = prefix(s) + "no sample on " + t.stand_pose + " within " + std::to_string(to_ms(s.timeout)) +
                        " ms of the robot reporting PdStand (it is published only in PdStand's stance stage)";
      if (seen.stable_level.has_value()) {
        why += "; the last one, " + seconds_text(now - seen.stable_level_at) +
               " old, is from before the request and was not used";
      }
      return why;
    }
    return prefix(s) + t.stand_pose + ".stable_level was " + std::to_string(*seen.stable_level) + " after " +
           std::to_string(to_ms(s.timeout)) + " ms; expected more than " + std::to_string(options_.stable_threshold) +
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
  std::string note_;
  std::string incomplete_;
};

}  // namespace praxis::aurora
