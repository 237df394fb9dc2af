#pragma once
// The robot's own locomotion on a Unitree robot, driven by praxis' RobotRequests: SportHandler turns
// the cycle's wishes into calls of the robot's motion service, through a table (SportApi) per robot:
//   go2_sport_api()   Go2 SportClient (unitree_sdk2 go2/sport/sport_api.hpp, service "sport"):
//                     Damp 1001, BalanceStand 1002, StopMove 1003, StandUp 1004, StandDown 1005,
//                     RecoveryStand 1006, Move 1008 with {"x": vx, "y": vy, "z": vyaw}
//   g1_loco_api()     G1 LocoClient (unitree_sdk2 g1/loco/g1_loco_api.hpp and g1_loco_client.hpp):
//                     SetFsmId 7101 {"data": id} (Damp 1, StandUp 4, Start 500), SetVelocity 7105
//                     {"velocity": [vx, vy, omega], "duration": s}, StopMove = SetVelocity(0, 0, 0)
//   h1_loco_api()     H1 LocoClient (unitree_sdk2 h1/loco/h1_loco_api.hpp and h1_loco_client.hpp,
//                     service "loco"), for the H1-2 (UNVERIFIED that the H1-2 speaks it): the G1's
//                     calls with other ids: SetFsmId 8101 (Damp 1, StandUp 2, Start 204),
//                     SetVelocity 8105
// It runs on the backend's I/O worker (hardware/request_worker.hpp), never on the control thread;
// each call blocks up to its timeout there.
//
// The service reports nothing praxis could read its posture from (SportModeState's `mode` values
// are UNVERIFIED), so the handler keeps the posture the robot's answers confirmed: a call answered
// with code 0 moved the robot there, and that is what RobotStatus reports as both assumed and
// reported; a lost link (link_lost()) forgets it. Per wish:
//   damping      walking: StopMove; then, on a robot that may lie down (the Go2): standing,
//                StandDown, then after `stand_down_settle` Damp (a standing robot is laid down
//                before its motors go soft); lying: Damp; unknown: StandDown, and Damp at once
//                when it is refused (the robot was not standing). A humanoid (G1, H1-2) is never damped by
//                praxis: damping its motors while it stands drops it. Its damping wish ends with
//                the robot stopped, balancing under its own controller.
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
#include <atomic>
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
#include "praxis/hardware/velocity_limit.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::unitree {

// The calls of one robot's motion service.
struct SportApi {
  std::string name;  // for messages: "Go2 sport", "G1 loco", "H1 loco"
  ApiCall damp, stand_up, balance, stop_move, stand_down, recovery_stand;
  std::function<ApiCall(double vx, double vy, double vyaw)> move;
  bool lays_down = true;   // damping: StandDown, then Damp (false: stop and keep balancing)
  bool gets_up = true;     // recovery_stand exists (RobotRequests::get_up)
};

// Go2: the SportClient's calls.
[[nodiscard]] inline SportApi go2_sport_api() {
  SportApi a;
  a.name = "Go2 sport";
  a.damp = {sport::k_damp, "{}"};
  a.stand_up = {sport::k_stand_up, "{}"};
  a.balance = {sport::k_balance_stand, "{}"};
  a.stop_move = {sport::k_stop_move, "{}"};
  a.stand_down = {sport::k_stand_down, "{}"};
  a.recovery_stand = {sport::k_recovery_stand, "{}"};
  a.move = [](double vx, double vy, double vyaw) {
    return ApiCall{sport::k_move, nlohmann::json{{"x", vx}, {"y", vy}, {"z", vyaw}}.dump()};
  };
  return a;
}

// What tells one LocoClient from another (the G1's, the H1's): their calls are the same, with other
// ids and another FSM id for walking control.
struct LocoDialect {
  const char* name;  // SportApi::name
  std::int64_t set_fsm_id, set_velocity;
  int fsm_damp, fsm_stand_up;
};
inline constexpr LocoDialect k_g1_loco{"G1 loco", loco::k_set_fsm_id, loco::k_set_velocity, loco::k_fsm_damp,
                                       loco::k_fsm_stand_up};
inline constexpr LocoDialect k_h1_loco{"H1 loco", h1_loco::k_set_fsm_id, h1_loco::k_set_velocity,
                                       h1_loco::k_fsm_damp, h1_loco::k_fsm_stand_up};

// A humanoid's LocoClient: StandUp and Start (walking control, `start_fsm`) by SetFsmId {"data": id},
// Move by SetVelocity {"velocity": [vx, vy, omega], "duration": s} and StopMove the same with zero
// velocity. A velocity holds for `move_duration` seconds (the clients' default: 1 s), so a robot
// whose Moves stop coming stops by itself. Never lays down, never damped (a standing humanoid
// would drop), no get-up.
[[nodiscard]] inline SportApi loco_api(const LocoDialect& d, int start_fsm, double move_duration) {
  const auto fsm = [&d](int id) { return ApiCall{d.set_fsm_id, nlohmann::json{{"data", id}}.dump()}; };
  const auto velocity = [set_velocity = d.set_velocity, move_duration](double vx, double vy, double vyaw) {
    return ApiCall{set_velocity, nlohmann::json{{"velocity", {vx, vy, vyaw}}, {"duration", move_duration}}.dump()};
  };
  SportApi a;
  a.name = d.name;
  a.damp = fsm(d.fsm_damp);
  a.stand_up = fsm(d.fsm_stand_up);
  a.balance = fsm(start_fsm);
  a.stop_move = velocity(0.0, 0.0, 0.0);
  a.move = velocity;
  a.lays_down = false;
  a.gets_up = false;
  return a;
}

// G1: FSM StandUp 4; which FSM id starts walking control changed between SDK versions (200 in older
// examples, 500 in the current client): `start_fsm`.
[[nodiscard]] inline SportApi g1_loco_api(int start_fsm = loco::k_fsm_start, double move_duration = 1.0) {
  return loco_api(k_g1_loco, start_fsm, move_duration);
}

// H1-2: the H1 LocoClient (UNVERIFIED that the H1-2 speaks it; `start_fsm` and the service name,
// SportOptions::service, are options for that): FSM StandUp 2, Start 204. praxis' BalanceStand is
// the client's Start, as on the G1; the client's own BalanceStand (SetBalanceMode 8102 {"data": 0})
// is not called.
[[nodiscard]] inline SportApi h1_loco_api(int start_fsm = h1_loco::k_fsm_start, double move_duration = 1.0) {
  return loco_api(k_h1_loco, start_fsm, move_duration);
}

struct SportOptions {
  // rt/api/<service>/request|response; empty: the robot's own (SportBackend<M>::default_service():
  // Go2 and G1 "sport", H1-2 "loco").
  std::string service;
  Duration call_timeout = std::chrono::milliseconds(1000);  // per call (the SDK's clients default to 1 s)
  Duration move_period = std::chrono::milliseconds(50);     // Move at 20 Hz while walking
  Duration retry_backoff = std::chrono::milliseconds(300);
  std::uint32_t max_attempts = 3;
  Duration stand_down_settle = std::chrono::milliseconds(1500);  // lying down before Damp
  // Move's limits: praxis' choice, not the robot's (no source gives the Go2's:
  // docs/backends/unitree.md, "Wire facts and their sources").
  double max_vx = 1.0, max_vy = 0.5, max_vyaw = 1.0;  // m/s, m/s, rad/s
};

// One call: the reply, or transport::RpcUnanswered when nothing answered within the timeout.
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
  SportHandler(SportCaller call, SportOptions options = {}, SportApi api = go2_sport_api())
      : call_(std::move(call)), options_(std::move(options)), api_(std::move(api)) {}

  // RequestWorker's vendor part: called every worker period.
  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    // Out of reach: what the robot's answers confirmed may no longer hold (it may have restarted,
    // lying or standing).
    if (link_lost_.exchange(false, std::memory_order_acquire)) posture_ = SportPosture::unknown;
    if (!wanted.any) return;
    if (wanted.mode != wish_) {  // a new wish gets its attempts afresh
      wish_ = wanted.mode;
      attempts_ = 0;
      given_up_ = false;
    }
    // A get-up asked for while the wish is damping (or the closing request, which carries none) is
    // not carried out: the robot is being laid down.
    if (wanted.mode == RobotMode::damping || !api_.gets_up) get_up_seen_ = wanted.get_up;
    if (wanted.get_up != get_up_seen_ && ready(now)) {
      if (perform(api_.recovery_stand, status, now)) {
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

  // Before the worker runs (praxis-guard taking over): the posture the controller knew.
  void assume_posture(SportPosture p) { posture_ = p; }

  // From any thread (the backend, when the robot's state stops coming): the posture is forgotten.
  void link_lost() noexcept { link_lost_.store(true, std::memory_order_release); }

  // Whether nothing is left to do for a damping wish: the robot confirmed Damp, or (a humanoid,
  // which praxis never damps) it is not walking.
  [[nodiscard]] bool settled() const {
    return posture_ == SportPosture::damped || (!api_.lays_down && posture_ != SportPosture::walking);
  }
  [[nodiscard]] const SportApi& api() const { return api_; }
  [[nodiscard]] SportPosture posture() const { return posture_; }
  [[nodiscard]] std::uint64_t moves_sent() const { return moves_; }
  [[nodiscard]] std::uint64_t velocities_clamped() const { return clamped_; }
  [[nodiscard]] std::uint64_t calls_failed() const { return failed_; }
  [[nodiscard]] std::uint64_t calls() const { return calls_; }
  [[nodiscard]] const SportOptions& options() const { return options_; }

 private:
  void step(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    const auto p = posture_;
    const bool down = p == SportPosture::unknown || p == SportPosture::damped || p == SportPosture::lying;
    switch (wanted.mode) {
      case RobotMode::damping:
        if (p == SportPosture::walking) {
          if (perform(api_.stop_move, status, now)) enter(SportPosture::balancing, status, now);
        } else if (!api_.lays_down) {
          break;  // a humanoid keeps its balance
        } else if (p == SportPosture::standing || p == SportPosture::balancing) {
          if (perform(api_.stand_down, status, now)) enter(SportPosture::lying, status, now);
        } else if (p == SportPosture::unknown) {
          // Standing or not: laid down first if it stands; one that does not refuses StandDown and
          // is damped where it lies, at once.
          if (perform(api_.stand_down, status, now)) {
            enter(SportPosture::lying, status, now);
          } else if (status.last_request.outcome == RequestOutcome::rejected) {
            enter(SportPosture::lying, status, now);
            since_ = now - options_.stand_down_settle;
          }
        } else if (p != SportPosture::damped && (p != SportPosture::lying || now - since_ >= options_.stand_down_settle)) {
          if (perform(api_.damp, status, now)) enter(SportPosture::damped, status, now);
        }
        break;
      case RobotMode::prepare:
        if (down) {
          if (perform(api_.stand_up, status, now)) enter(SportPosture::standing, status, now);
        } else if (p == SportPosture::walking) {
          if (perform(api_.stop_move, status, now)) enter(SportPosture::balancing, status, now);
        }
        break;
      case RobotMode::locomotion: {
        if (down) {
          if (perform(api_.stand_up, status, now)) enter(SportPosture::standing, status, now);
          break;
        }
        if (p == SportPosture::standing) {
          if (perform(api_.balance, status, now)) enter(SportPosture::balancing, status, now);
          break;
        }
        const auto& l = wanted.locomotion;
        const double vx = clamp(l.vx, options_.max_vx), vy = clamp(l.vy, options_.max_vy),
                     vyaw = clamp(l.wz, options_.max_vyaw);
        const bool moving = l.active && (vx != 0.0 || vy != 0.0 || vyaw != 0.0);
        if (moving) {
          if (p == SportPosture::balancing || now - last_move_ >= options_.move_period) {
            last_move_ = now;
            if (perform(api_.move(vx, vy, vyaw), status, now, /*periodic=*/true)) {
              ++moves_;
              enter(SportPosture::walking, status, now);
            }
          }
        } else if (p == SportPosture::walking) {
          if (perform(api_.stop_move, status, now)) enter(SportPosture::balancing, status, now);
        }
        break;
      }
      default: break;  // user: joint control is UnitreeBackend's; unknown: no wish
    }
  }

  double clamp(double v, double limit) { return limit_velocity(v, limit, clamped_); }

  [[nodiscard]] bool ready(TimePoint now) const { return now >= retry_at_; }

  // One call; true when the robot answered with code 0. A periodic one (a Move) is never retried:
  // the next period sends a fresh one.
  bool perform(const ApiCall& call, RobotStatus& status, TimePoint now, bool periodic = false) {
    status.last_request.id = static_cast<std::uint32_t>(call.api_id);
    ++calls_;
    ApiReply reply;
    bool answered = true;
    try {
      reply = call_(call, options_.call_timeout);
    } catch (const std::exception&) {  // transport::RpcUnanswered, or no server: tried again like a refusal
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
    if (periodic) return false;
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
  SportApi api_;
  SportPosture posture_ = SportPosture::unknown;
  TimePoint since_{};
  TimePoint last_move_{};
  TimePoint retry_at_{};
  RobotMode wish_ = RobotMode::unknown;
  std::uint32_t attempts_ = 0;
  bool given_up_ = false;
  std::uint32_t get_up_seen_ = 0;
  std::uint64_t moves_ = 0, clamped_ = 0, failed_ = 0, calls_ = 0;
  std::atomic<bool> link_lost_{false};
};

}  // namespace praxis::unitree
