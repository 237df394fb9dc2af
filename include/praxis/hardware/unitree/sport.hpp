#pragma once
// The robot's own locomotion on a Unitree Go2, driven by praxis' RobotRequests: SportHandler turns
// the cycle's wishes into the sport service's calls (unitree_sdk2 go2/sport/sport_api.hpp, service
// "sport": Damp 1001, BalanceStand 1002, StopMove 1003, StandUp 1004, StandDown 1005,
// RecoveryStand 1006, Move 1008 with {"x": vx, "y": vy, "z": vyaw}). It runs on the backend's I/O
// worker (hardware/request_worker.hpp), never on the control thread; each call blocks up to its
// timeout there.
//
// The service reports nothing praxis could read its posture from (SportModeState's `mode` values
// are UNVERIFIED), so the handler keeps the posture the robot's answers confirmed: a call answered
// with code 0 moved the robot there, and that is what RobotStatus reports as both assumed and
// reported. Per wish:
//   damping      walking: StopMove; standing: StandDown, then after `stand_down_settle` Damp (a
//                standing robot is laid down before its motors go soft); lying: Damp
//   prepare      damped, lying or unknown: StandUp (standing, joints locked); walking: StopMove
//   locomotion   damped, lying or unknown: StandUp, then BalanceStand; then Move every `move_period`
//                while the request has a velocity (clamped to the options' limits, counted), and
//                StopMove when it has none
//   get_up       (each new RobotRequests::get_up value, not while the wish is damping)
//                RecoveryStand: balancing, from wherever
// A call refused (non-zero code) or unanswered is tried again after `retry_backoff`, up to
// `max_attempts` for the same wish; then the wish is given up (RequestOutcome::failed) until the
// cycle asks for something else. Nothing is called before the cycle's first request.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::unitree {

struct SportOptions {
  std::string service = sport::k_service;              // rt/api/<service>/request|response
  Duration call_timeout = std::chrono::milliseconds(1000);  // per call (the SDK's clients default to 1 s)
  Duration move_period = std::chrono::milliseconds(50);     // Move at 20 Hz while walking
  Duration retry_backoff = std::chrono::milliseconds(300);
  std::uint32_t max_attempts = 3;
  Duration stand_down_settle = std::chrono::milliseconds(1500);  // lying down before Damp
  // Move's limits: praxis' choice, not the robot's (the Go2's are not in the fact sheet).
  double max_vx = 1.0, max_vy = 0.5, max_vyaw = 1.0;  // m/s, m/s, rad/s
};

// One call: the reply, or dds::RpcUnanswered when nothing answered within the timeout.
using SportCaller = std::function<ApiReply(const ApiCall&, Duration)>;

enum class SportPosture : std::uint8_t { unknown, damped, lying, standing, balancing, walking };

[[nodiscard]] constexpr std::string_view to_string(SportPosture p) {
  switch (p) {
    case SportPosture::unknown: return "unknown";
    case SportPosture::damped: return "damped";
    case SportPosture::lying: return "lying";
    case SportPosture::standing: return "standing";
    case SportPosture::balancing: return "balancing";
    case SportPosture::walking: return "walking";
  }
  return "?";
}

[[nodiscard]] constexpr RobotMode robot_mode_of(SportPosture p) {
  switch (p) {
    case SportPosture::damped: return RobotMode::damping;
    case SportPosture::standing: return RobotMode::prepare;
    case SportPosture::balancing:
    case SportPosture::walking: return RobotMode::locomotion;
    default: return RobotMode::unknown;  // lying: on the way to damping
  }
}

class SportHandler {
 public:
  SportHandler(SportCaller call, SportOptions options = {}) : call_(std::move(call)), options_(std::move(options)) {}

  // RequestWorker's vendor part: called every worker period.
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    if (!wanted.any) return;
    if (wanted.mode != wish_) {  // a new wish gets its attempts afresh
      wish_ = wanted.mode;
      attempts_ = 0;
      given_up_ = false;
    }
    // A get-up asked for while the wish is damping (or the closing request, which carries none) is
    // not carried out: the robot is being laid down.
    if (wanted.mode == RobotMode::damping) get_up_seen_ = wanted.get_up;
    if (wanted.get_up != get_up_seen_ && ready(now)) {
      if (perform(sport::k_recovery_stand, "{}", status, now)) {
        get_up_seen_ = wanted.get_up;
        enter(SportPosture::balancing, status, now);
        ++status.get_ups_completed;
        status.posture = Posture::upright;
      } else if (given_up_) {
        get_up_seen_ = wanted.get_up;  // not retried for ever
      }
    } else if (!given_up_ && ready(now)) {
      step(wanted, status, now);
    }
    status.assumed_mode = robot_mode_of(posture_);
    status.reported_mode = status.assumed_mode;  // confirmed by the robot's answers
  }

  // Whether nothing is left to do for a damping wish (the robot confirmed Damp).
  [[nodiscard]] bool damped() const { return posture_ == SportPosture::damped; }
  [[nodiscard]] SportPosture posture() const { return posture_; }
  [[nodiscard]] std::uint64_t moves_sent() const { return moves_; }
  [[nodiscard]] std::uint64_t velocities_clamped() const { return clamped_; }
  [[nodiscard]] std::uint64_t calls_failed() const { return failed_; }
  [[nodiscard]] std::uint64_t calls() const { return calls_; }
  [[nodiscard]] const SportOptions& options() const { return options_; }

 private:
  void step(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    namespace sp = sport;
    const auto p = posture_;
    const bool down = p == SportPosture::unknown || p == SportPosture::damped || p == SportPosture::lying;
    switch (wanted.mode) {
      case RobotMode::damping:
        if (p == SportPosture::walking) {
          if (perform(sp::k_stop_move, "{}", status, now)) enter(SportPosture::balancing, status, now);
        } else if (p == SportPosture::standing || p == SportPosture::balancing) {
          if (perform(sp::k_stand_down, "{}", status, now)) enter(SportPosture::lying, status, now);
        } else if (p != SportPosture::damped && (p != SportPosture::lying || now - since_ >= options_.stand_down_settle)) {
          if (perform(sp::k_damp, "{}", status, now)) enter(SportPosture::damped, status, now);
        }
        break;
      case RobotMode::prepare:
        if (down) {
          if (perform(sp::k_stand_up, "{}", status, now)) enter(SportPosture::standing, status, now);
        } else if (p == SportPosture::walking) {
          if (perform(sp::k_stop_move, "{}", status, now)) enter(SportPosture::balancing, status, now);
        }
        break;
      case RobotMode::locomotion: {
        if (down) {
          if (perform(sp::k_stand_up, "{}", status, now)) enter(SportPosture::standing, status, now);
          break;
        }
        if (p == SportPosture::standing) {
          if (perform(sp::k_balance_stand, "{}", status, now)) enter(SportPosture::balancing, status, now);
          break;
        }
        const auto& l = wanted.locomotion;
        const double vx = clamp(l.vx, options_.max_vx), vy = clamp(l.vy, options_.max_vy),
                     vyaw = clamp(l.wz, options_.max_vyaw);
        const bool moving = l.active && (vx != 0.0 || vy != 0.0 || vyaw != 0.0);
        if (moving) {
          if (p == SportPosture::balancing || now - last_move_ >= options_.move_period) {
            nlohmann::json j{{"x", vx}, {"y", vy}, {"z", vyaw}};
            last_move_ = now;
            if (perform(sp::k_move, j.dump(), status, now)) {
              ++moves_;
              enter(SportPosture::walking, status, now);
            }
          }
        } else if (p == SportPosture::walking) {
          if (perform(sp::k_stop_move, "{}", status, now)) enter(SportPosture::balancing, status, now);
        }
        break;
      }
      default: break;  // user: joint control is UnitreeBackend's; unknown: no wish
    }
  }

  double clamp(double v, double limit) {
    if (!std::isfinite(v)) {
      ++clamped_;
      return 0.0;
    }
    const double c = std::clamp(v, -limit, limit);
    clamped_ += c != v ? 1 : 0;
    return c;
  }

  [[nodiscard]] bool ready(TimePoint now) const { return now >= retry_at_; }

  // One call; true when the robot answered with code 0.
  bool perform(std::int64_t api, std::string parameter, RobotStatus& status, TimePoint now) {
    status.last_request.id = static_cast<std::uint32_t>(api);
    ++calls_;
    ApiReply reply;
    bool answered = true;
    try {
      reply = call_(ApiCall{api, std::move(parameter)}, options_.call_timeout);
    } catch (const std::exception&) {  // dds::RpcUnanswered, or no server: tried again like a refusal
      answered = false;
    }
    status.last_request.finished = now;
    if (answered && reply.code == 0) {
      status.last_request.outcome = RequestOutcome::ok;
      status.last_request.code = 0;
      attempts_ = 0;
      return true;
    }
    ++failed_;
    status.last_request.code = answered ? reply.code : 0;
    status.last_request.outcome = answered ? RequestOutcome::rejected : RequestOutcome::timed_out;
    if (api == sport::k_move) return false;  // the next period sends a fresh one
    if (++attempts_ >= options_.max_attempts) {
      given_up_ = true;
      status.last_request.outcome = RequestOutcome::failed;
    } else {
      retry_at_ = now + options_.retry_backoff;
    }
    return false;
  }

  void enter(SportPosture p, RobotStatus& status, TimePoint now) {
    if (p == posture_) return;
    posture_ = p;
    since_ = now;
    status.mode_since = now;
    if (p == SportPosture::damped || p == SportPosture::lying) status.posture = Posture::unknown;
  }

  SportCaller call_;
  SportOptions options_;
  SportPosture posture_ = SportPosture::unknown;
  TimePoint since_{};
  TimePoint last_move_{};
  TimePoint retry_at_{};
  RobotMode wish_ = RobotMode::unknown;
  std::uint32_t attempts_ = 0;
  bool given_up_ = false;
  std::uint32_t get_up_seen_ = 0;
  std::uint64_t moves_ = 0, clamped_ = 0, failed_ = 0, calls_ = 0;
};

}  // namespace praxis::unitree
