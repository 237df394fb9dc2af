#pragma once
// The robot's own walking, driven by praxis' RobotRequests (AuroraBackend<M, Access::locomotion>).
//
// Aurora walks in whole-body state 3 (UserController_A, RL locomotion on every model), entered from
// a stable PdStand: for walking, state 2 -> state 3, then velocity_source 2, then velocity_cmd
// (docs/backends/aurora.md, "Wire facts and their sources"). The handler runs on the backend's I/O
// worker (hardware/request_worker.hpp), never on the control thread: each period it compares what
// the cycle wants with what aurora_state reports and sends the next message of
//   locomotion: PdStand (2) first from any other state; once robot_stand_pose_state reports a
//               stable stand (a sample that arrived after the robot was seen in PdStand), state 3;
//               then velocity source 2; then velocity_cmd every period (clamped to the model's
//               ranges, counted; zero while the request is not active)
//   prepare:    request PdStand (2)
//   damping:    request SecurityProtection (9)
// repeating a request every resend_period until the robot reports it (best-effort topics). Each
// state on the way has a deadline (WalkingOptions): a state the robot does not reach in time, or a
// stand that never becomes stable, ends the wish with RequestOutcome::timed_out in RobotStatus and
// nothing more is sent for it until the cycle asks for something else (a refused request is not
// resent for ever). Only recent reports count (sample_timeout): without them nothing is requested
// and no velocity is sent. Nothing is sent before the cycle's first request (RobotRequests::any).

#include <cstdint>
#include <functional>
#include <optional>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/models.hpp"

namespace praxis::aurora {

// What aurora_state and robot_stand_pose_state said last (-1: nothing yet), with arrival times.
struct FsmReport {
  int whole_body = -1;
  int velocity_source = -1;
  TimePoint whole_body_at{};  // aurora_state's arrival
  int stable_level = -1;
  TimePoint stable_level_at{};
};

// Where the handler's messages go (the backend's publishers, or a test).
struct LocomotionSink {
  std::function<void(WholeBodyState)> request_state;
  std::function<void(VelocitySource)> velocity_source;
  std::function<void(const VelocityValue&)> velocity;
};

struct WalkingOptions {
  Duration resend_period = std::chrono::milliseconds(200);
  Duration sample_timeout = std::chrono::milliseconds(100);  // older reports are not believed
  std::uint8_t stable_threshold = 100;                       // PdStand's stable_level must exceed it
  Duration state_timeout = std::chrono::seconds(3);          // each requested state (and the source)
  Duration stable_timeout = std::chrono::seconds(15);        // PdStand becoming stable before state 3
};

[[nodiscard]] constexpr std::optional<WholeBodyState> whole_body_state_for(RobotMode m) {
  switch (m) {
    case RobotMode::locomotion: return k_locomotion_state;
    case RobotMode::prepare: return WholeBodyState::pd_stand;
    case RobotMode::damping: return WholeBodyState::security;
    default: return std::nullopt;  // user: joint control is Access::joints; unknown: no wish
  }
}

template <AuroraModel M>
class LocomotionHandler {
 public:
  LocomotionHandler(std::function<FsmReport()> observe, LocomotionSink sink, WalkingOptions options = {})
      : observe_(std::move(observe)), sink_(std::move(sink)), options_(options) {}

  // RequestWorker's vendor part: called every worker period.
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    const FsmReport seen = observe_();
    const bool fresh = seen.whole_body >= 0 && now - seen.whole_body_at <= options_.sample_timeout;
    status.reported_mode = fresh ? robot_mode_of(seen.whole_body) : RobotMode::unknown;
    if (fresh && seen.whole_body == static_cast<int>(WholeBodyState::pd_stand)) {
      if (!pd_stand_seen_) pd_stand_seen_ = now;
    } else if (fresh) {
      pd_stand_seen_.reset();
    }
    if (!wanted.any) return;
    const auto target = whole_body_state_for(wanted.mode);
    if (!target) return;
    if (wanted.mode != status.assumed_mode) {  // a new wish: asked for at once, with fresh deadlines
      status.assumed_mode = wanted.mode;
      status.mode_since = now;
      gave_up_ = false;
      pursuit_.reset();
      source_since_.reset();
      last_state_request_.reset();
      last_source_request_.reset();
    }
    if (gave_up_) return;  // reported as timed out; a new wish starts again

    // What to ask for now: the target, or PdStand (then a stable stand) on the way to walking.
    const int current = fresh ? seen.whole_body : -1;
    WholeBodyState next = *target;
    if (*target == k_locomotion_state && current != static_cast<int>(k_locomotion_state)) {
      next = WholeBodyState::pd_stand;
      if (current == static_cast<int>(WholeBodyState::pd_stand)) {
        if (!stable(seen, now)) return pursue(status, Phase::stabilising, k_locomotion_state, current, now, false);
        next = k_locomotion_state;
      }
    }
    if (current != static_cast<int>(next)) {
      return pursue(status, Phase::state, next, current, now, fresh);
    }
    // The target is reached.
    pursuit_.reset();
    if (status.last_request.outcome != RequestOutcome::ok || status.last_request.id != static_cast<std::uint32_t>(next)) {
      status.last_request = {static_cast<std::uint32_t>(next), RequestOutcome::ok, current, now};
    }
    if (next != k_locomotion_state) {
      status.requests_in_flight = 0;
      return;
    }
    if (seen.velocity_source != static_cast<int>(VelocitySource::navigation)) {
      if (!source_since_) {
        source_since_ = now;
        last_source_request_.reset();
      }
      if (now - *source_since_ >= options_.state_timeout) return give_up(status, next, current, now);
      status.requests_in_flight = 1;
      if (due(last_source_request_, now)) {
        sink_.velocity_source(VelocitySource::navigation);
        ++requests_sent_;
      }
      return;
    }
    source_since_.reset();
    status.requests_in_flight = 0;
    VelocityValue v{};
    if (wanted.locomotion.active) v = {wanted.locomotion.vx, wanted.locomotion.vy, wanted.locomotion.wz};
    if (clamp_velocity<M>(v)) ++clamped_;
    sink_.velocity(v);
    ++velocities_sent_;
  }

  [[nodiscard]] std::uint64_t velocities_clamped() const { return clamped_; }
  [[nodiscard]] std::uint64_t velocities_sent() const { return velocities_sent_; }
  [[nodiscard]] std::uint64_t requests_sent() const { return requests_sent_; }
  // Wishes given up: a state not reached, a stand not stable, a source not taken in time.
  [[nodiscard]] std::uint64_t timeouts() const { return timeouts_; }

 private:
  enum class Phase : std::uint8_t { state, stabilising };
  struct Pursuit {
    Phase phase;
    WholeBodyState state;
    TimePoint since;
  };

  // A stand-pose sample that arrived since the robot was seen in PdStand, recent, above the threshold.
  bool stable(const FsmReport& seen, TimePoint now) const {
    return pd_stand_seen_.has_value() && seen.stable_level > static_cast<int>(options_.stable_threshold) &&
           seen.stable_level_at >= *pd_stand_seen_ && now - seen.stable_level_at <= options_.sample_timeout;
  }

  // Starts timing a phase (true when it is new).
  bool start(Phase phase, TimePoint now, WholeBodyState state) {
    if (pursuit_ && pursuit_->phase == phase && pursuit_->state == state) return false;
    pursuit_ = Pursuit{phase, state, now};
    return true;
  }
  bool expired(TimePoint now, Duration limit) const { return pursuit_ && now - pursuit_->since >= limit; }

  // Asks for `next` (when `send`) until reported, within its deadline.
  void pursue(RobotStatus& status, Phase phase, WholeBodyState next, int current, TimePoint now, bool send) {
    if (start(phase, now, next)) last_state_request_.reset();
    const Duration limit = phase == Phase::stabilising ? options_.stable_timeout : options_.state_timeout;
    if (expired(now, limit)) return give_up(status, next, current, now);
    status.requests_in_flight = 1;
    status.last_request = {static_cast<std::uint32_t>(next), RequestOutcome::pending, current, {}};
    if (send && phase == Phase::state && due(last_state_request_, now)) {
      sink_.request_state(next);
      ++requests_sent_;
    }
  }
  void give_up(RobotStatus& status, WholeBodyState state, int current, TimePoint now) {
    gave_up_ = true;
    ++timeouts_;
    status.requests_in_flight = 0;
    status.last_request = {static_cast<std::uint32_t>(state), RequestOutcome::timed_out, current, now};
  }

  bool due(std::optional<TimePoint>& last, TimePoint now) const {
    if (last && now - *last < options_.resend_period) return false;
    last = now;
    return true;
  }

  std::function<FsmReport()> observe_;
  LocomotionSink sink_;
  WalkingOptions options_;
  std::optional<TimePoint> last_state_request_, last_source_request_;
  std::optional<TimePoint> pd_stand_seen_;  // since when fresh reports say PdStand
  std::optional<Pursuit> pursuit_;
  std::optional<TimePoint> source_since_;  // since when the source is asked for
  bool gave_up_ = false;
  std::uint64_t clamped_ = 0;
  std::uint64_t velocities_sent_ = 0;
  std::uint64_t requests_sent_ = 0;
  std::uint64_t timeouts_ = 0;
};

}  // namespace praxis::aurora
