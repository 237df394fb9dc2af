#pragma once
// The Tienkung's own walking, driven by praxis' RobotRequests (WalkingBackend, walking_backend.hpp).
//
// The robot's motion controller (HRIC) stands and steps by itself; praxis asks it for a walk mode
// (the SetMotionMode service) and steers it with cmd_vel. The handler runs on the backend's I/O
// worker (hardware/request_worker.hpp), never on the control thread; a service call blocks there
// up to its timeout. Per wish, judged from a recent MotionStatus (older than sample_timeout: nothing
// is asked for, and a zero velocity is sent once if praxis was steering):
//   locomotion   with a velocity: walk (4) from stand, then cmd_vel every velocity_period, clamped
//                to the options' limits (counted); without one: zero velocity once, then stand (3)
//   prepare      zero velocity once if stepping, then stand
//   damping      the same: the robot's safe state here is its own stand, balancing. praxis never
//                asks for stop or zero (both take the balance from a standing robot), and never
//                stands a robot up from zero or stop: that is the operator's, with the remote.
// A request the service refuses (success false) or does not answer is tried again after
// retry_backoff, up to max_attempts; a mode asked for and not reported within transition_timeout
// is given up too (RequestOutcome::timed_out); a given-up wish asks for nothing more until the
// cycle wants something else. While MotionStatus says the remote steers, nothing is sent and the
// request is reported rejected. Nothing is sent before the cycle's first request.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/tienkung/hric.hpp"
#include "praxis/hardware/velocity_limit.hpp"

namespace praxis::tienkung {

struct WalkingOptions {
  Duration call_timeout = std::chrono::milliseconds(1000);
  Duration velocity_period = std::chrono::milliseconds(50);  // cmd_vel at 20 Hz while walking
  Duration retry_backoff = std::chrono::milliseconds(300);
  std::uint32_t max_attempts = 3;
  // MotionStatus older than this is not believed (no source gives its rate: UNVERIFIED;
  // docs/backends/tienkung.md, "Wire facts and their sources").
  Duration sample_timeout = std::chrono::milliseconds(300);
  Duration transition_timeout = std::chrono::seconds(5);  // a mode asked for, reported within
  bool swing_arms = true;  // is_need_swing_arm with walk
  ConsoleMeaning console = ConsoleMeaning::program_steers;  // UNVERIFIED (hric.hpp)
  // cmd_vel's limits: praxis' choice, not the robot's (no source gives those:
  // docs/backends/tienkung.md, "Wire facts and their sources").
  double max_vx = 0.5, max_vy = 0.3, max_wz = 0.5;  // m/s, m/s, rad/s
};

// Where the handler's messages go (the backend's service client and publisher, or a test). `call`
// throws (transport::RpcUnanswered) when nothing answered.
struct WalkingSink {
  std::function<ModeReply(const ModeCall&, Duration)> call;
  std::function<void(double vx, double vy, double wz)> velocity;
};

// What a walk mode means to praxis: the robot's own standing and walking is locomotion; a stand is
// also where a prepare or damping wish leads (the robot's own safe state).
[[nodiscard]] constexpr RobotMode robot_mode_of(int walk_mode, RobotMode wish) {
  switch (walk_mode) {
    case static_cast<int>(WalkMode::stand):
      return wish == RobotMode::prepare || wish == RobotMode::damping ? wish : RobotMode::locomotion;
    case static_cast<int>(WalkMode::stand_to_walk):
    case static_cast<int>(WalkMode::walk):
    case static_cast<int>(WalkMode::run): return RobotMode::locomotion;
    default: return RobotMode::unknown;  // stop, zero, on the way up, not reported
  }
}

class WalkingHandler {
 public:
  WalkingHandler(std::function<MotionReport()> observe, WalkingSink sink, WalkingOptions options = {})
      : observe_(std::move(observe)), sink_(std::move(sink)), options_(options) {}

  // RequestWorker's vendor part: called every worker period.
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    const MotionReport seen = observe_();
    const bool fresh = seen.walk_mode >= 0 && now - seen.at <= options_.sample_timeout;
    last_seen_ = fresh ? seen.walk_mode : -1;
    status.reported_mode = fresh ? robot_mode_of(seen.walk_mode, wish_) : RobotMode::unknown;
    if (!wanted.any) return;
    if (wanted.mode != wish_) {  // a new wish: its attempts and deadlines afresh
      wish_ = wanted.mode;
      status.assumed_mode = wanted.mode;
      status.mode_since = now;
      attempts_ = 0;
      given_up_ = false;
      pursuit_.reset();
      status.reported_mode = fresh ? robot_mode_of(seen.walk_mode, wish_) : RobotMode::unknown;
    }
    if (!fresh && velocity_sent_) {
      // The controller fell silent while praxis steered it: whatever it does, a zero velocity is
      // the one command that cannot make it worse (whether HRIC stops a walk by itself is UNVERIFIED).
      send_velocity(0.0, 0.0, 0.0, now);
      velocity_sent_ = false;
    }
    if (!fresh || given_up_ || now < retry_at_) return;
    if (!program_may_steer(seen, options_.console)) {
      ++remote_held_;
      status.requests_in_flight = 0;
      status.last_request = {static_cast<std::uint32_t>(ModeRequest::stand), RequestOutcome::rejected,
                             static_cast<std::int32_t>(seen.walk_mode), now};
      return;
    }

    const auto& l = wanted.locomotion;
    const double vx = clamp(l.vx, options_.max_vx), vy = clamp(l.vy, options_.max_vy),
                 wz = clamp(l.wz, options_.max_wz);
    const bool moving = wanted.mode == RobotMode::locomotion && l.active && (vx != 0.0 || vy != 0.0 || wz != 0.0);
    std::optional<ModeRequest> target;
    switch (wanted.mode) {
      case RobotMode::locomotion: target = moving ? ModeRequest::walk : ModeRequest::stand; break;
      case RobotMode::prepare:
      case RobotMode::damping: target = ModeRequest::stand; break;
      default: return;  // user: joint control is TienkungBackend's; unknown: no wish
    }

    const int current = seen.walk_mode;
    const bool stepping = current == static_cast<int>(WalkMode::walk) ||
                          current == static_cast<int>(WalkMode::stand_to_walk) ||
                          current == static_cast<int>(WalkMode::run);
    if (*target == ModeRequest::walk) {
      if (current == static_cast<int>(WalkMode::walk)) {
        reached(status, *target, current, now);
        if (now - last_velocity_ >= options_.velocity_period || !velocity_sent_) send_velocity(vx, vy, wz, now);
        return;
      }
      if (current == static_cast<int>(WalkMode::stand_to_walk)) return wait(status, *target, current, now);
      if (current == static_cast<int>(WalkMode::stand)) return ask(status, *target, current, now);
      return refuse_to_raise(status, *target, current, now);
    }
    // stand
    if (current == static_cast<int>(WalkMode::stand)) {
      reached(status, *target, current, now);
      return;
    }
    if (stepping) {
      // Stop steering first: also a velocity another program left in force (praxis-guard taking
      // over from a controller that died walking the robot), once per stand pursued.
      if (velocity_sent_ || !pursuit_ || pursuit_->mode != *target) send_velocity(0.0, 0.0, 0.0, now);
      velocity_sent_ = false;
      return ask(status, *target, current, now);
    }
    if (current == static_cast<int>(WalkMode::zero_to_stand)) return wait(status, *target, current, now);
    refuse_to_raise(status, *target, current, now);
  }

  // Whether a damping wish is done: the robot reports standing (balancing under its own controller).
  [[nodiscard]] bool settled() const { return last_seen_ == static_cast<int>(WalkMode::stand); }
  [[nodiscard]] int last_walk_mode() const { return last_seen_; }
  [[nodiscard]] std::uint64_t calls() const { return calls_; }
  [[nodiscard]] std::uint64_t calls_failed() const { return failed_; }
  [[nodiscard]] std::uint64_t velocities_sent() const { return velocities_; }
  [[nodiscard]] std::uint64_t velocities_clamped() const { return clamped_; }
  // Periods in which the remote steered (nothing was sent).
  [[nodiscard]] std::uint64_t remote_held() const { return remote_held_; }
  [[nodiscard]] std::uint64_t given_up() const { return gave_up_count_; }
  [[nodiscard]] const WalkingOptions& options() const { return options_; }

 private:
  struct Pursuit {
    ModeRequest mode;
    TimePoint since;
  };

  double clamp(double v, double limit) { return limit_velocity(v, limit, clamped_); }

  void send_velocity(double vx, double vy, double wz, TimePoint now) {
    sink_.velocity(vx, vy, wz);
    ++velocities_;
    velocity_sent_ = true;
    last_velocity_ = now;
  }

  void reached(RobotStatus& status, ModeRequest mode, int current, TimePoint now) {
    pursuit_.reset();
    attempts_ = 0;
    status.requests_in_flight = 0;
    if (status.last_request.outcome != RequestOutcome::ok || status.last_request.id != static_cast<std::uint32_t>(mode)) {
      status.last_request = {static_cast<std::uint32_t>(mode), RequestOutcome::ok, current, now};
    }
  }

  // The robot is on its way (a transition it reports): wait, within the deadline.
  void wait(RobotStatus& status, ModeRequest mode, int current, TimePoint now) {
    if (!pursuit_ || pursuit_->mode != mode) pursuit_ = Pursuit{mode, now};
    if (now - pursuit_->since >= options_.transition_timeout) return give_up(status, mode, current, now, RequestOutcome::timed_out);
    status.requests_in_flight = 1;
    status.last_request = {static_cast<std::uint32_t>(mode), RequestOutcome::pending, current, {}};
  }

  // Asks for `mode` once per pursuit (again only after a refusal), then waits for the report.
  void ask(RobotStatus& status, ModeRequest mode, int current, TimePoint now) {
    if (pursuit_ && pursuit_->mode == mode) return wait(status, mode, current, now);
    ++calls_;
    ModeReply reply;
    bool answered = true;
    try {
      reply = sink_.call(ModeCall{mode, mode == ModeRequest::walk && options_.swing_arms}, options_.call_timeout);
    } catch (const std::exception&) {  // transport::RpcUnanswered: tried again like a refusal
      answered = false;
    }
    if (answered && reply.success) {
      attempts_ = 0;
      pursuit_ = Pursuit{mode, now};
      status.requests_in_flight = 1;
      status.last_request = {static_cast<std::uint32_t>(mode), RequestOutcome::pending, current, {}};
      return;
    }
    ++failed_;
    const auto outcome = answered ? RequestOutcome::rejected : RequestOutcome::timed_out;
    status.last_request = {static_cast<std::uint32_t>(mode), outcome,
                           answered ? static_cast<std::int32_t>(reply.error_code) : 0, now};
    if (++attempts_ >= options_.max_attempts) return give_up(status, mode, current, now, outcome);
    retry_at_ = now + options_.retry_backoff;
  }

  // stop, zero, start or nothing known: standing the robot up is the operator's.
  void refuse_to_raise(RobotStatus& status, ModeRequest mode, int current, TimePoint now) {
    give_up(status, mode, current, now, RequestOutcome::failed);
  }

  void give_up(RobotStatus& status, ModeRequest mode, int current, TimePoint now, RequestOutcome outcome) {
    given_up_ = true;
    ++gave_up_count_;
    pursuit_.reset();
    status.requests_in_flight = 0;
    status.last_request = {static_cast<std::uint32_t>(mode), outcome, current, now};
  }

  std::function<MotionReport()> observe_;
  WalkingSink sink_;
  WalkingOptions options_;
  RobotMode wish_ = RobotMode::unknown;
  std::optional<Pursuit> pursuit_;
  std::uint32_t attempts_ = 0;
  bool given_up_ = false;
  TimePoint retry_at_{};
  TimePoint last_velocity_{};
  bool velocity_sent_ = false;
  int last_seen_ = -1;
  std::uint64_t calls_ = 0, failed_ = 0, velocities_ = 0, clamped_ = 0, remote_held_ = 0, gave_up_count_ = 0;
};

}  // namespace praxis::tienkung
