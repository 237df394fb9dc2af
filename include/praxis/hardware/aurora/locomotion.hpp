#pragma once
// The robot's own walking, driven by praxis' RobotRequests (AuroraBackend<M, Access::locomotion>).
//
// Aurora walks in whole-body state 3 (UserController_A, RL locomotion on every model) and obeys
// velocity_cmd only after velocity_source_cmd chose navigation (2), the DDS client (fact sheet
// shared/vendors/aurora-and-tienkung.md, A.5). The handler runs on the backend's I/O worker
// (hardware/request_worker.hpp), never on the control thread: each period it compares what the
// cycle wants with what aurora_state reports and sends the next message of
//   locomotion: request state 3 -> velocity source 2 -> velocity_cmd every period (clamped to the
//               model's ranges, counted; zero while the request is not active)
//   prepare:    request PdStand (2)
//   damping:    request SecurityProtection (9)
// repeating a request every resend_period until the robot reports it (best-effort topics).
// Nothing is sent before the cycle's first request (RobotRequests::any).

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

// What aurora_state said last (-1: nothing yet).
struct FsmReport {
  int whole_body = -1;
  int velocity_source = -1;
};

// Where the handler's messages go (the backend's publishers, or a test).
struct LocomotionSink {
  std::function<void(WholeBodyState)> request_state;
  std::function<void(VelocitySource)> velocity_source;
  std::function<void(const VelocityValue&)> velocity;
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
  LocomotionHandler(std::function<FsmReport()> observe, LocomotionSink sink, Duration resend_period)
      : observe_(std::move(observe)), sink_(std::move(sink)), resend_period_(resend_period) {}

  // RequestWorker's vendor part: called every worker period.
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    const FsmReport seen = observe_();
    status.reported_mode = robot_mode_of(seen.whole_body);
    if (!wanted.any) return;
    const auto target = whole_body_state_for(wanted.mode);
    if (!target) return;
    if (wanted.mode != status.assumed_mode) {
      status.assumed_mode = wanted.mode;
      status.mode_since = now;
      last_state_request_.reset();  // a new wish is asked for at once
    }
    if (seen.whole_body != static_cast<int>(*target)) {
      status.requests_in_flight = 1;
      status.last_request = {static_cast<std::uint32_t>(*target), RequestOutcome::pending, seen.whole_body, {}};
      if (due(last_state_request_, now)) sink_.request_state(*target);
      return;
    }
    status.requests_in_flight = 0;
    status.last_request = {static_cast<std::uint32_t>(*target), RequestOutcome::ok, seen.whole_body, now};
    if (*target != k_locomotion_state) return;
    if (seen.velocity_source != static_cast<int>(VelocitySource::navigation)) {
      if (due(last_source_request_, now)) sink_.velocity_source(VelocitySource::navigation);
      return;
    }
    VelocityValue v{};
    if (wanted.locomotion.active) v = {wanted.locomotion.vx, wanted.locomotion.vy, wanted.locomotion.wz};
    if (clamp_velocity<M>(v)) ++clamped_;
    sink_.velocity(v);
    ++velocities_sent_;
  }

  [[nodiscard]] std::uint64_t velocities_clamped() const { return clamped_; }
  [[nodiscard]] std::uint64_t velocities_sent() const { return velocities_sent_; }

 private:
  bool due(std::optional<TimePoint>& last, TimePoint now) const {
    if (last && now - *last < resend_period_) return false;
    last = now;
    return true;
  }

  std::function<FsmReport()> observe_;
  LocomotionSink sink_;
  Duration resend_period_;
  std::optional<TimePoint> last_state_request_, last_source_request_;
  std::uint64_t clamped_ = 0;
  std::uint64_t velocities_sent_ = 0;
};

}  // namespace praxis::aurora
