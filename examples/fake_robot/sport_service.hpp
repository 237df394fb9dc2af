#pragma once
// The fake robot's sport service: the posture and walking calls of Unitree's SportClient (Go2,
// service "sport", unitree_sdk2 go2/sport/sport_api.hpp) or LocoClient (G1, g1/loco; H1-2: the H1's,
// h1/loco, service "loco"), answered the way a robot with its own locomotion would, with the robot's
// own controller driving the joints while the motion service runs. Every call is recorded with its
// arrival time and answer.
//
// Postures and the calls that lead between them (the robot starts lying, damped, unless told
// otherwise):
//   Damp (1001)           any posture -> damped (every joint kp 0)
//   StandUp (1004)        damped, lying or locked -> standing locked (the stand pose, joints locked)
//   StandDown (1005)      standing locked or balancing -> lying (locked, low)
//   RecoveryStand (1006)  any -> balancing, from wherever the joints are
//   BalanceStand (1002)   standing locked or walking -> balancing
//   Move (1008)           {"x": vx, "y": vy, "z": vyaw}: balancing or walking -> walking at that velocity
//   StopMove (1003)       walking -> balancing (velocity 0); elsewhere a no-op
// The G1's LocoClient (Dialect::g1_loco) reaches the same postures by FSM id and velocity:
//   SetFsmId (7101) {"data": id}   0 ZeroTorque, 1 Damp -> damped; 4 StandUp (from damped, lying or
//                                  standing) -> standing locked; 500 Start (from standing, balancing
//                                  or walking) -> balancing; 2 Squat, 3 Sit (from standing or
//                                  balancing) -> lying; another id is refused
//   SetVelocity (7105) {"velocity": [vx, vy, omega], "duration": s}   balancing or walking ->
//                                  walking for `duration` seconds, then balancing again by itself
//                                  (zero velocity: balancing at once)
// The H1 LocoClient (Dialect::h1_loco, for the H1-2; that a real H1-2 speaks it is UNVERIFIED) the
// same way with the H1's ids:
//   SetFsmId (8101) {"data": id}   0 ZeroTorque, 1 Damp -> damped; 2 StandUp (from damped, lying or
//                                  standing) -> standing locked; 204 Start (from standing, balancing
//                                  or walking) -> balancing; another id is 8302 (the H1 API's
//                                  "invalid fsm id")
//   SetVelocity (8105)             as the G1's SetVelocity
//   SetBalanceMode (8102) {"data": 0 BalanceStand | 1 continuous gait}   balancing or walking: the
//                                  posture stays (the fake does not step in place); another mode is
//                                  3204
// A call the current posture does not allow is refused with k_refused_in_posture. Which code the
// robot answers then, and whether it refuses at all, is UNVERIFIED: a client must treat every
// non-zero code as a refusal. A parameter that is not the JSON the API takes is 3204. The service
// answers only while a motion service is active (the motion switcher's name is not empty).
//
// The joints: lying and damped postures hold the rest pose (damped: kp 0), standing ones the stand
// pose with the model's gains, reached over `transition` seconds from where the joints were.
// Walking moves an odometry estimate at the commanded velocity.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/core/clock.hpp>
#include <praxis/core/joint_command.hpp>
#include <praxis/hardware/unitree/rpc.hpp>

namespace fake_robot {

inline constexpr std::int32_t k_refused_in_posture = 4001;  // the fake's own code (see above)
inline constexpr std::int32_t k_bad_parameter = 3204;       // the RPC layer's "parameter" error

enum class Posture : std::uint8_t { damped, lying, standing_locked, balancing, walking };
enum class Dialect : std::uint8_t { go2_sport, g1_loco, h1_loco };

// The ids of one LocoClient (the G1's, the H1's): the fake answers both the same way.
struct LocoIds {
  std::int64_t set_fsm_id, set_velocity;
  std::int64_t set_balance_mode;  // 0: not in this client
  int zero_torque, damp, stand_up, start;
  int squat, sit;                 // -1: not in this client
  std::int32_t invalid_fsm;       // the answer to an FSM id the client does not have
};

[[nodiscard]] constexpr LocoIds loco_ids(Dialect d) {
  namespace g1 = praxis::unitree::loco;
  namespace h1 = praxis::unitree::h1_loco;
  if (d == Dialect::h1_loco) {
    return {h1::k_set_fsm_id, h1::k_set_velocity, h1::k_set_balance_mode, h1::k_fsm_zero_torque, h1::k_fsm_damp,
            h1::k_fsm_stand_up, h1::k_fsm_start, -1, -1, h1::k_error_invalid_fsm_id};
  }
  return {g1::k_set_fsm_id, g1::k_set_velocity, 0, g1::k_fsm_zero_torque, g1::k_fsm_damp, g1::k_fsm_stand_up,
          g1::k_fsm_start, g1::k_fsm_squat, g1::k_fsm_sit, k_refused_in_posture};
}

[[nodiscard]] constexpr std::string_view to_string(Posture p) {
  switch (p) {
    case Posture::damped: return "damped";
    case Posture::lying: return "lying";
    case Posture::standing_locked: return "standing_locked";
    case Posture::balancing: return "balancing";
    case Posture::walking: return "walking";
  }
  return "?";
}

struct SportCall {
  double t = 0;  // s since the robot's start
  std::int64_t api_id = 0;
  std::string parameter;
  std::int32_t code = 0;
  std::string posture_before;
};

template <class M>
class SportService {
 public:
  static constexpr std::size_t N = M::joint_count;

  SportService(Dialect dialect, Posture start, double transition_seconds, praxis::TimePoint t0)
      : dialect_(dialect), posture_(start), transition_(transition_seconds), t0_(t0) {
    postures_.push_back({0.0, std::string(to_string(start))});
  }

  // Answers one call at `now`; `joints` is where the joints are (a new posture starts from there).
  std::int32_t handle(std::int64_t api_id, std::string_view parameter, const praxis::JointVector<N>& joints,
                      praxis::TimePoint now) {
    const Posture before = posture_;
    const std::int32_t code = dialect_ == Dialect::go2_sport ? sport(api_id, parameter, joints, now)
                                                             : loco(api_id, parameter, joints, now);
    calls_.push_back({seconds(now), api_id, std::string(parameter), code, std::string(to_string(before))});
    return code;
  }

 private:
  bool allowed(std::initializer_list<Posture> from) const {
    return std::find(from.begin(), from.end(), posture_) != from.end();
  }

  std::int32_t sport(std::int64_t api_id, std::string_view parameter, const praxis::JointVector<N>& joints,
                     praxis::TimePoint now) {
    namespace sp = praxis::unitree::sport;
    std::int32_t code = 0;
    switch (api_id) {
      case sp::k_damp: enter(Posture::damped, joints, now); break;
      case sp::k_stand_up:
        if (allowed({Posture::damped, Posture::lying, Posture::standing_locked})) {
          enter(Posture::standing_locked, joints, now);
        } else {
          code = k_refused_in_posture;
        }
        break;
      case sp::k_stand_down:
        if (allowed({Posture::standing_locked, Posture::balancing})) {
          enter(Posture::lying, joints, now);
        } else {
          code = k_refused_in_posture;
        }
        break;
      case sp::k_recovery_stand: enter(Posture::balancing, joints, now); break;
      case sp::k_balance_stand:
        if (allowed({Posture::standing_locked, Posture::walking, Posture::balancing})) {
          velocity_ = {};
          enter(Posture::balancing, joints, now);
        } else {
          code = k_refused_in_posture;
        }
        break;
      case sp::k_move: {
        const auto j = nlohmann::json::parse(parameter, nullptr, false);
        if (!j.is_object() || !j.contains("x") || !j.contains("y") || !j.contains("z") || !j["x"].is_number() ||
            !j["y"].is_number() || !j["z"].is_number()) {
          code = k_bad_parameter;
        } else if (!allowed({Posture::balancing, Posture::walking})) {
          code = k_refused_in_posture;
        } else {
          velocity_ = {j["x"].get<double>(), j["y"].get<double>(), j["z"].get<double>()};
          ++moves_;
          enter(Posture::walking, joints, now);
        }
        break;
      }
      case sp::k_stop_move:
        velocity_ = {};
        if (posture_ == Posture::walking) enter(Posture::balancing, joints, now);
        break;
      default: code = 3203;  // not implemented here
    }
    return code;
  }

  std::int32_t loco(std::int64_t api_id, std::string_view parameter, const praxis::JointVector<N>& joints,
                    praxis::TimePoint now) {
    const LocoIds lo = loco_ids(dialect_);
    const auto j = nlohmann::json::parse(parameter, nullptr, false);
    if (api_id == lo.set_fsm_id) {
      if (!j.is_object() || !j.contains("data") || !j["data"].is_number_integer()) return k_bad_parameter;
      const int id = j["data"].get<int>();
      if (id == lo.zero_torque || id == lo.damp) {
        enter(Posture::damped, joints, now);
        return 0;
      }
      if (id == lo.stand_up) {
        if (!allowed({Posture::damped, Posture::lying, Posture::standing_locked})) return k_refused_in_posture;
        enter(Posture::standing_locked, joints, now);
        return 0;
      }
      if (id == lo.start) {
        if (!allowed({Posture::standing_locked, Posture::balancing, Posture::walking})) return k_refused_in_posture;
        enter(Posture::balancing, joints, now);
        return 0;
      }
      if (id >= 0 && (id == lo.squat || id == lo.sit)) {
        if (!allowed({Posture::standing_locked, Posture::balancing})) return k_refused_in_posture;
        enter(Posture::lying, joints, now);
        return 0;
      }
      return lo.invalid_fsm;
    }
    if (lo.set_balance_mode != 0 && api_id == lo.set_balance_mode) {
      if (!j.is_object() || !j.contains("data") || !j["data"].is_number_integer()) return k_bad_parameter;
      const int mode = j["data"].get<int>();
      if (mode != 0 && mode != 1) return k_bad_parameter;
      if (!allowed({Posture::balancing, Posture::walking})) return k_refused_in_posture;
      return 0;
    }
    if (api_id == lo.set_velocity) {
      if (!j.is_object() || !j.contains("velocity") || !j["velocity"].is_array() || j["velocity"].size() != 3 ||
          !j.contains("duration") || !j["duration"].is_number()) {
        return k_bad_parameter;
      }
      for (const auto& v : j["velocity"]) {
        if (!v.is_number()) return k_bad_parameter;
      }
      if (!allowed({Posture::balancing, Posture::walking})) return k_refused_in_posture;
      velocity_ = {j["velocity"][0].get<double>(), j["velocity"][1].get<double>(), j["velocity"][2].get<double>()};
      const bool moving = velocity_[0] != 0.0 || velocity_[1] != 0.0 || velocity_[2] != 0.0;
      if (moving) {
        ++moves_;
        velocity_until_ = now + praxis::from_seconds(j["duration"].get<double>());
        enter(Posture::walking, joints, now);
      } else {
        enter(Posture::balancing, joints, now);
      }
      return 0;
    }
    return 3203;  // not implemented here
  }

 public:
  // The robot's own command for its joints at `now`, and the odometry advanced to it.
  praxis::JointCommand<N> command(praxis::TimePoint now) {
    const double dt = last_ == praxis::TimePoint{} ? 0.0 : std::clamp(praxis::to_seconds(now - last_), 0.0, 0.1);
    last_ = now;
    if (dialect_ != Dialect::go2_sport && posture_ == Posture::walking && now >= velocity_until_) {
      velocity_ = {};  // the velocity's duration ran out: the robot stops by itself
      posture_ = Posture::balancing;
      postures_.push_back({seconds(now), std::string(to_string(posture_))});
    }
    if (posture_ == Posture::walking) {
      odometry_[2] += velocity_[2] * dt;
      odometry_[0] += (velocity_[0] * std::cos(odometry_[2]) - velocity_[1] * std::sin(odometry_[2])) * dt;
      odometry_[1] += (velocity_[0] * std::sin(odometry_[2]) + velocity_[1] * std::cos(odometry_[2])) * dt;
    }
    const bool up = posture_ == Posture::standing_locked || posture_ == Posture::balancing || posture_ == Posture::walking;
    const auto& target = up ? M::stand_pose : M::rest_pose;
    const double progress = transition_ <= 0.0 ? 1.0 : std::clamp(praxis::to_seconds(now - since_) / transition_, 0.0, 1.0);
    praxis::JointCommand<N> c;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      c.mode[j] = praxis::JointMode::position;
      c.q[i] = from_[j] + progress * (target[j] - from_[j]);
      c.dq[i] = 0.0;
      c.kp[i] = posture_ == Posture::damped ? 0.0 : M::default_kp[j];
      c.kd[i] = M::default_kd[j];
      c.tau_ff[i] = 0.0;
    }
    return c;
  }

  [[nodiscard]] Posture posture() const { return posture_; }
  [[nodiscard]] const std::vector<SportCall>& calls() const { return calls_; }
  [[nodiscard]] std::uint64_t moves() const { return moves_; }

  nlohmann::json report() const {
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& c : calls_) {
      calls.push_back({{"t", c.t}, {"api", c.api_id}, {"parameter", c.parameter}, {"code", c.code}, {"from", c.posture_before}});
    }
    nlohmann::json postures = nlohmann::json::array();
    for (const auto& [t, p] : postures_) postures.push_back({{"t", t}, {"posture", p}});
    return {{"posture", std::string(to_string(posture_))},
            {"postures", postures},
            {"calls", calls},
            {"moves_accepted", moves_},
            {"odometry", {{"x", odometry_[0]}, {"y", odometry_[1]}, {"theta", odometry_[2]}}}};
  }

 private:
  double seconds(praxis::TimePoint now) const { return praxis::to_seconds(now - t0_); }

  void enter(Posture p, const praxis::JointVector<N>& joints, praxis::TimePoint now) {
    if (p == posture_) return;
    const bool was_up = posture_ == Posture::standing_locked || posture_ == Posture::balancing || posture_ == Posture::walking;
    const bool up = p == Posture::standing_locked || p == Posture::balancing || p == Posture::walking;
    if (was_up != up || p == Posture::damped) {  // a new target: start from where the joints are
      for (std::size_t j = 0; j < N; ++j) from_[j] = joints[static_cast<Eigen::Index>(j)];
      since_ = now;
    }
    if (p != Posture::walking) velocity_ = {};
    posture_ = p;
    postures_.push_back({seconds(now), std::string(to_string(p))});
  }

  Dialect dialect_;
  Posture posture_;
  double transition_;
  praxis::TimePoint velocity_until_{};
  praxis::TimePoint t0_;
  praxis::TimePoint since_{};
  praxis::TimePoint last_{};
  std::array<double, N> from_ = M::rest_pose;
  std::array<double, 3> velocity_{};
  std::array<double, 3> odometry_{};
  std::uint64_t moves_ = 0;
  std::vector<SportCall> calls_;
  std::vector<std::pair<double, std::string>> postures_;
};

}  // namespace fake_robot
