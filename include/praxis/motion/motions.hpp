#pragma once
// Motion execution: one node per motion. Every node runs every cycle; a node whose motion is not
// selected leaves early (and forgets its progress), so only the selected motion does work. Each
// writes its joint-level command (BodyCommandPort) and whether it may be left now (SafeExitPort).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/core/clock.hpp"
#include "praxis/core/cycle.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"
#include "praxis/motion/registry.hpp"
#include "praxis/motion/walking.hpp"
#include "praxis/script/library.hpp"
#include "praxis/script/player.hpp"

namespace praxis::motion {

template <std::size_t N>
using Pose = std::array<double, N>;

namespace detail {
template <std::size_t N>
void hold_pose(const Pose<N>& q, const Pose<N>& kp, const Pose<N>& kd, JointCommand<N>& cmd) {
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    cmd.q[i] = q[j];
    cmd.kp[i] = kp[j];
    cmd.kd[i] = kd[j];
  }
  cmd.dq.setZero();
  cmd.tau_ff.setZero();
  cmd.mode.fill(JointMode::position);
}
// Joints a script owns follow it; the others hold `hold` with the model's gains.
template <RobotModel M>
void script_command(const script::JointTargets<M::joint_count>& targets, const Pose<M::joint_count>& hold,
                    JointCommand<M::joint_count>& cmd) {
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    const bool owned = targets.owned.test(j);
    cmd.q[i] = owned ? targets.q[j] : hold[j];
    cmd.kp[i] = owned ? targets.kp[j] : M::default_kp[j];
    cmd.kd[i] = owned ? targets.kd[j] : M::default_kd[j];
  }
  cmd.dq.setZero();
  cmd.tau_ff.setZero();
  cmd.mode.fill(JointMode::position);
}
// Every joint damped where it is (damp_joint): no stiffness, damping kd; the joints only brake.
template <std::size_t N>
void damped_at(const JointVector<N>& q, double kd, JointCommand<N>& cmd) {
  for (std::size_t j = 0; j < N; ++j) damp_joint(cmd, j, q[static_cast<Eigen::Index>(j)], kd);
}
template <std::size_t N>
Pose<N> to_pose(const JointVector<N>& v) {
  Pose<N> p{};
  for (std::size_t j = 0; j < N; ++j) p[j] = v[static_cast<Eigen::Index>(j)];
  return p;
}
}  // namespace detail

struct FallOptions {
  double falling_tilt = 1.0;  // rad (about 57 degrees) from the vertical
  double rest_rate = 0.3;     // rad/s: |gyro| below this counts as lying still
  Duration rest_time = std::chrono::milliseconds(300);  // still this long past the tilt: fallen
};

// Tilt and angular speed of the body from the IMU: upright, falling, or fallen (lying still).
template <std::size_t N>
struct FallDetector {
  static constexpr std::string_view name = "fall_detector";
  using inputs = ports<StatePort<N>, CyclePort>;
  using outputs = ports<FallStatePort>;
  FallOptions options;

  void cycle(const RobotState<N>& s, const CycleInfo& info, FallState& out) {
    out.tilt = std::acos(std::clamp(-s.projected_gravity.z(), -1.0, 1.0));
    out.angular_speed = s.imu.gyro.norm();
    if (!(out.tilt > options.falling_tilt)) {  // NaN counts as upright: the safety monitor handles it
      out.phase = FallPhase::upright;
      resting_ = false;
      return;
    }
    if (out.angular_speed >= options.rest_rate) {
      resting_ = false;
    } else if (!resting_) {
      resting_ = true;
      rest_since_ = info.now;
    }
    out.phase = resting_ && info.now - rest_since_ >= options.rest_time ? FallPhase::fallen : FallPhase::falling;
  }
  void reset() { resting_ = false; }

 private:
  bool resting_ = false;
  TimePoint rest_since_{};
};

struct SafetyOptions {
  Duration stale_timeout = std::chrono::milliseconds(100);
  double tilt_threshold = 0.0;  // projected gravity z above this is "tilted" (0 = past 90 degrees)
  bool use_link_status = false;  // set by the runtime for backends that report their link
};

// Checks the state before any motion uses it: missing, stale, non-finite, tilted, faulted joints.
template <std::size_t N>
struct SafetyMonitor {
  static constexpr std::string_view name = "safety_monitor";
  using inputs = ports<StatePort<N>, CyclePort, RobotStatusPort>;
  using outputs = ports<SafetyPort>;
  SafetyOptions options;
  void cycle(const RobotState<N>& state, const CycleInfo& info, const RobotStatus& status, SafetyStatus& out) const {
    out.no_state = !info.have_state;
    out.age = info.have_state ? info.now - state.stamp : Duration::zero();
    out.stale = info.have_state && out.age > options.stale_timeout;
    out.invalid = info.have_state && !state.all_finite();
    out.tilted = info.have_state && !out.invalid && state.projected_gravity.z() > options.tilt_threshold;
    out.faulted_joint = info.have_state ? state.first_faulted_joint() : N;
    out.joint_fault = out.faulted_joint < N;
    out.link_lost = options.use_link_status && info.have_state && !status.link.connected;
  }
};

// DAMPING: no stiffness; kd holds the joints back where they are.
template <RobotModel M>
//
// On a robot that balances itself (SafeState::hand_back, set by the runtime from the backend) the
// safe motion is a hold instead: the pose measured when it was selected, with the gains in force
// then (hold_kp / hold_kd where none were: the model's defaults), never kp 0 on joints that may
// carry the robot's weight. Before any state arrived there is nothing to hold and nothing is
// commanded. `hold_at_start`: a robot that stands when praxis takes it (Booster's Custom after
// Prepare) is held the same way until the selection first leaves damping; damping after that is
// damping.
struct DampingMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "damping";
  using inputs = ports<MotionSelectionPort, StatePort<N>, SafetyPort, previous<ActuatedCommandPort<N>>>;
  using outputs = ports<BodyCommandPort<MotionType::damping, N>, SafeExitPort<MotionType::damping>>;
  double kd = k_default_damping_kd;
  SafeState style = SafeState::joint_damping;
  bool hold_at_start = false;
  Pose<N> hold_kp = M::default_kp;
  Pose<N> hold_kd = M::default_kd;
  void cycle(const MotionSelection& sel, const RobotState<N>& s, const SafetyStatus& safety,
             const JointCommand<N>& in_force, JointCommand<N>& cmd, bool& safe) {
    safe = true;
    if (sel.current != MotionType::damping) {
      holding_ = false;
      left_once_ = true;
      waited_for_state_ = false;
      return;
    }
    if (style != SafeState::hand_back && !(hold_at_start && !left_once_)) {
      detail::damped_at<N>(s.q, kd, cmd);
      return;
    }
    if (!holding_) {
      if (safety.no_state || safety.invalid) {
        cmd.mode.fill(JointMode::none);
        waited_for_state_ = true;
        return;
      }
      // Joints the command in force left to the robot (mode none) stay with it — but not the ones
      // this motion itself left while it waited for a state: nothing was in force then.
      hold_ = waited_for_state_ ? JointCommand<N>{} : in_force;
      hold_covered(hold_, s.q, hold_kp, hold_kd);
      holding_ = true;
      waited_for_state_ = false;
    }
    cmd = hold_;
  }
  void reset() {
    holding_ = false;
    left_once_ = false;
    waited_for_state_ = false;
  }

 private:
  JointCommand<N> hold_{};
  bool holding_ = false;
  bool left_once_ = false;         // the selection left damping since the last reset
  bool waited_for_state_ = false;  // its last output covered nothing, for want of a state
};
template <>
struct motion_node<motions::Damping> {
  template <class Model, Capabilities C>
  using node = DampingMotion<Model>;
};

// STAND: hold the stand pose with the stand gains, both options (the model's stand_pose and
// default_kp / default_kd unless configured), the gains scaled by the selection's gain_ratio
// (RobotController's pd_ratio ramp; 1 for the behaviour-driven pipeline).
template <RobotModel M>
//
// The ramp never takes a joint below the stiffness in force when STAND began (capped at the stand
// gains): from damping it starts at pd_ratio as the framework does, but a robot that was held
// standing (a Booster entering Custom after Prepare, a Fourier robot's hold) does not sag into the
// ramp's first 10 %.
struct StandMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "stand";
  using inputs = ports<MotionSelectionPort, previous<ActuatedCommandPort<N>>>;
  using outputs = ports<BodyCommandPort<MotionType::stand, N>, SafeExitPort<MotionType::stand>>;
  Pose<N> pose = M::stand_pose;
  Pose<N> kp = M::default_kp;
  Pose<N> kd = M::default_kd;
  void cycle(const MotionSelection& sel, const JointCommand<N>& in_force, JointCommand<N>& cmd, bool& safe) {
    safe = true;
    if (sel.current != MotionType::stand) return;
    if (sel.changed) {
      for (std::size_t j = 0; j < N; ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        const bool stiff = in_force.mode[j] == JointMode::position && std::isfinite(in_force.kp[i]) &&
                           std::isfinite(in_force.kd[i]);
        kp_floor_[j] = stiff ? std::clamp(in_force.kp[i], 0.0, kp[j]) : 0.0;
        kd_floor_[j] = stiff ? std::clamp(in_force.kd[i], 0.0, kd[j]) : 0.0;
      }
    }
    detail::hold_pose(pose, kp, kd, cmd);
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      cmd.kp[i] = std::max(cmd.kp[i] * sel.gain_ratio, kp_floor_[j]);
      // Damping's kd braked the joints; it is no stiffness to keep.
      cmd.kd[i] = kp_floor_[j] > 0.0 ? std::max(cmd.kd[i] * sel.gain_ratio, kd_floor_[j]) : cmd.kd[i] * sel.gain_ratio;
    }
  }
  void reset() {
    kp_floor_.fill(0.0);
    kd_floor_.fill(0.0);
  }
  [[nodiscard]] const Pose<N>& start_pose() const { return pose; }

 private:
  Pose<N> kp_floor_{};
  Pose<N> kd_floor_{};
};
template <>
struct motion_node<motions::Stand> {
  template <class Model, Capabilities C>
  using node = StandMotion<Model>;
};

// FALL PROTECTION: go soft (low damping, no stiffness) while falling; safe once no longer falling.
template <RobotModel M>
struct FallProtectionMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "fall_protection";
  using inputs = ports<MotionSelectionPort, StatePort<N>, FallStatePort>;
  using outputs = ports<BodyCommandPort<MotionType::fall_protection, N>, SafeExitPort<MotionType::fall_protection>>;
  double kd = 1.0;
  void cycle(const MotionSelection& sel, const RobotState<N>& s, const FallState& fall, JointCommand<N>& cmd,
             bool& safe) const {
    safe = !fall.falling();
    if (sel.current != MotionType::fall_protection) return;
    detail::damped_at<N>(s.q, kd, cmd);
  }
};
template <>
struct motion_node<motions::FallProtection> {
  template <class Model, Capabilities C>
  using node = FallProtectionMotion<Model>;
};

// A motion played from the script library: PREPARE and STAND_UP on a joint-controlled robot. The
// script starts on entry; joints it does not use hold where they were, with the model's gains.
template <RobotModel M, MotionType Type>
struct ScriptedMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = to_string(Type);
  using inputs = ports<MotionSelectionPort, StatePort<N>, CyclePort>;
  using outputs = ports<BodyCommandPort<Type, N>, SafeExitPort<Type>>;

  const script::ScriptLibrary<M>* library = nullptr;
  std::string script_name = "stand";  // set before the loop; read only in the cycle
  std::optional<Duration> duration;

  void cycle(const MotionSelection& sel, const RobotState<N>& s, const CycleInfo& info, JointCommand<N>& cmd,
             bool& safe) {
    if (sel.current != Type) {
      running_ = false;
      player_.clear();
      safe = true;
      return;
    }
    if (!running_) {
      hold_ = detail::to_pose<N>(s.q);
      script::ExecuteScript<N> r;
      r.scripts[0] = library != nullptr ? library->find(script_name) : nullptr;
      r.count = r.scripts[0] != nullptr ? 1 : 0;
      r.duration = duration;
      r.start = info.now;
      player_.execute(r, s.q);  // a missing script leaves the player idle: the motion holds
      running_ = true;
    }
    player_.evaluate(info.now, targets_);
    detail::script_command<M>(targets_, hold_, cmd);
    safe = player_.finished(info.now);
  }

 private:
  script::ScriptPlayer<N> player_;
  script::JointTargets<N> targets_;
  Pose<N> hold_{};
  bool running_ = false;
};

// SCRIPT: plays what the command asks for. A new request id starts a request (others keep running
// and share the joints by priority); joints no request owns hold where they were at entry.
template <RobotModel M>
struct ScriptMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "script";
  using inputs = ports<MotionSelectionPort, MotionCommandPort, StatePort<N>, CyclePort>;
  using outputs = ports<BodyCommandPort<MotionType::script, N>, SafeExitPort<MotionType::script>>;

  const script::ScriptLibrary<M>* library = nullptr;

  void cycle(const MotionSelection& sel, const MotionCommand& command, const RobotState<N>& s,
             const CycleInfo& info, JointCommand<N>& cmd, bool& safe) {
    if (sel.current != MotionType::script) {
      active_ = false;
      player_.clear();
      safe = true;
      return;
    }
    if (!active_) {
      hold_ = detail::to_pose<N>(s.q);
      active_ = true;
      last_id_ = 0;
      have_id_ = false;
    }
    if (const auto* c = std::get_if<command::Script>(&command); c != nullptr && (!have_id_ || c->id != last_id_)) {
      last_id_ = c->id;
      have_id_ = true;
      auto r = c->objects.count > 0 ? c->objects.resolve<N>()
               : library != nullptr  ? library->resolve(c->request)
                                     : std::nullopt;
      if (r) {
        if (r->start == TimePoint{}) r->start = info.now;
        if (!player_.execute(*r, s.q)) ++rejected_;
      } else {
        ++rejected_;
      }
    }
    player_.evaluate(info.now, targets_);
    detail::script_command<M>(targets_, hold_, cmd);
    safe = player_.finished(info.now);
  }
  // Requests whose names were unknown, whose scripts were missing or for another robot, or that
  // found the player full.
  [[nodiscard]] std::uint64_t rejected() const { return rejected_; }

 private:
  script::ScriptPlayer<N> player_;
  script::JointTargets<N> targets_;
  Pose<N> hold_{};
  bool active_ = false;
  bool have_id_ = false;
  std::uint32_t last_id_ = 0;
  std::uint64_t rejected_ = 0;
};
template <>
struct motion_node<motions::Script> {
  template <class Model, Capabilities C>
  using node = ScriptMotion<Model>;
};

// WALK / WALK WITH VELOCITY: turns the command into a velocity request for whatever walks the robot
// (the step computation is in walking.hpp).
struct WalkMotion {
  static constexpr std::string_view name = "walk";
  using inputs = ports<MotionSelectionPort, MotionCommandPort>;
  using outputs = ports<LocomotionRequestPort>;
  WalkOptions options;
  void cycle(const MotionSelection& sel, const MotionCommand& command, LocomotionRequest& out) const {
    out = sel.current == MotionType::walk ? locomotion_from(command, options) : LocomotionRequest{};
  }
};

// A motion the robot's own controller carries out — PREPARE and STAND_UP on a robot with its own
// modes, WALK on a robot that walks by itself: no joint command (every joint "none": the sender
// hands the robot the mode or walking request instead). It may be left once the robot reports the
// mode the backend assumes for it, or after `confirm_timeout` (a robot that reports no mode).
template <RobotModel M, MotionType Type>
struct RobotRunMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr auto name_storage = detail::motion_port_name("robot/", Type);
  static constexpr std::string_view name{name_storage.data()};
  using inputs = ports<MotionSelectionPort, RobotStatusPort, CyclePort>;
  using outputs = ports<BodyCommandPort<Type, N>, SafeExitPort<Type>>;
  Duration confirm_timeout = std::chrono::seconds(2);
  // STAND_UP on a robot that gets up by itself: also wait until it reports the get-up finished
  // (the prepare mode it gets up from is confirmed long before it stands) — unless it reported
  // itself upright when the stand-up began: then there is nothing to get up from (the sender asks
  // for no get-up either).
  bool wait_for_get_up = false;
  Duration get_up_timeout = std::chrono::seconds(15);
  void cycle(const MotionSelection& sel, const RobotStatus& status, const CycleInfo& info, JointCommand<N>& cmd,
             bool& safe) {
    cmd.mode.fill(JointMode::none);
    if (sel.current != Type) {
      safe = true;
      return;
    }
    if (sel.changed) {
      entered_ = info.now;
      get_ups_at_entry_ = status.get_ups_completed;
      upright_at_entry_ = status.posture == Posture::upright;
    }
    const auto in_motion = info.now - entered_;
    if (wait_for_get_up) {
      const bool stood = upright_at_entry_ || status.get_ups_completed != get_ups_at_entry_;
      safe = (status.mode_confirmed() && stood) || in_motion >= get_up_timeout;
    } else {
      safe = status.mode_confirmed() || in_motion >= confirm_timeout;
    }
  }

 private:
  TimePoint entered_{};
  std::uint32_t get_ups_at_entry_ = 0;
  bool upright_at_entry_ = false;
};

template <RobotModel M, MotionType Type>
using ModeMotion = RobotRunMotion<M, Type>;

// Prepare and stand-up: the robot's own modes where it has them, else scripts from the library.
template <>
struct motion_node<motions::Prepare> {
  template <class Model, Capabilities C>
  using node = std::conditional_t<C.modes, ModeMotion<Model, MotionType::prepare>,
                                  ScriptedMotion<Model, MotionType::prepare>>;
};
template <>
struct motion_node<motions::StandUp> {
  template <class Model, Capabilities C>
  using node = std::conditional_t<C.modes, ModeMotion<Model, MotionType::stand_up>,
                                  ScriptedMotion<Model, MotionType::stand_up>>;
};

// WALK on a robot that walks by itself: no joint command, and stand <-> walk switch freely.
template <RobotModel M>
struct BackendWalkBody {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "robot/walk";
  using inputs = ports<MotionSelectionPort>;
  using outputs = ports<BodyCommandPort<MotionType::walk, N>, SafeExitPort<MotionType::walk>>;
  void cycle(const MotionSelection&, JointCommand<N>& cmd, bool& safe) const {
    cmd.mode.fill(JointMode::none);
    safe = true;
  }
};
// Walking: the robot's own where it walks by itself; otherwise a node of yours (a robot without
// locomotion does not compile without one, control/motion_controller.hpp says so).
template <>
struct motion_node<motions::Walk> {
  template <class Model, Capabilities C>
  using node = std::conditional_t<C.locomotion, BackendWalkBody<Model>, needs_a_node_of_yours>;
};
// The user's controller: offered when a node of yours carries it (control::UserControlMotion).
template <>
struct motion_node<motions::UserControl> {
  template <class Model, Capabilities C>
  using node = offered_with_a_node_of_yours;
};

// Outputs for motions a configuration does not offer (RobotController has no walk or scripts):
// their ports keep their defaults (a command with zero gains, safe to exit), and the selector of
// that configuration never selects them.
template <class... Ps>
struct Unoffered {
  static constexpr std::string_view name = "unoffered";
  using outputs = ports<Ps...>;
  void cycle(typename Ps::type&...) const {}
};

// VISUAL KICK: on a robot without a kick of its own (every robot praxis has a backend for so far),
// the kick holds the stand pose; a robot with a kick capability takes the request instead.
template <RobotModel M>
struct VisualKickMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "visual_kick";
  using inputs = ports<MotionSelectionPort>;
  using outputs = ports<BodyCommandPort<MotionType::visual_kick, N>, SafeExitPort<MotionType::visual_kick>>;
  void cycle(const MotionSelection& sel, JointCommand<N>& cmd, bool& safe) const {
    safe = true;
    if (sel.current != MotionType::visual_kick) return;
    detail::hold_pose(M::stand_pose, M::default_kp, M::default_kd, cmd);
  }
};
template <>
struct motion_node<motions::VisualKick> {
  template <class Model, Capabilities C>
  using node = VisualKickMotion<Model>;
};

// DISPATCHING: from the last command that reached the motors to the next motion's start pose, in a
// configurable time (a smooth, cosine-shaped interpolation); safe to exit once there.
template <RobotModel M>
struct DispatchingMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "dispatching";
  using inputs = ports<MotionSelectionPort, previous<ActuatedCommandPort<N>>, StatePort<N>, CyclePort>;
  using outputs = ports<BodyCommandPort<MotionType::dispatching, N>, SafeExitPort<MotionType::dispatching>>;

  Duration duration = std::chrono::seconds(1);
  std::array<Pose<N>, k_motion_types> start_pose = [] {
    std::array<Pose<N>, k_motion_types> a{};
    a.fill(M::stand_pose);
    return a;
  }();
  Pose<N> kp = M::default_kp;
  Pose<N> kd = M::default_kd;

  void cycle(const MotionSelection& sel, const JointCommand<N>& last, const RobotState<N>& s, const CycleInfo& info,
             JointCommand<N>& cmd, bool& safe) {
    if (sel.current != MotionType::dispatching) {
      safe = true;
      return;
    }
    if (sel.changed) {
      // A joint that was limp (kp 0) is wherever it is, not where its last target said.
      for (std::size_t j = 0; j < N; ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        const bool held = last.kp[i] > 0.0 && last.mode[j] == JointMode::position && std::isfinite(last.q[i]);
        from_[j] = held ? last.q[i] : s.q[i];
      }
      begin_ = info.now;
    }
    const auto& to = start_pose[static_cast<std::size_t>(sel.dispatching_to)];
    const double alpha = duration <= Duration::zero()
                             ? 1.0
                             : std::clamp(to_seconds(info.now - begin_) / to_seconds(duration), 0.0, 1.0);
    const double shape = 0.5 - 0.5 * std::cos(alpha * std::numbers::pi);
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      cmd.q[i] = from_[j] + shape * (to[j] - from_[j]);
      cmd.kp[i] = kp[j];
      cmd.kd[i] = kd[j];
    }
    cmd.dq.setZero();
    cmd.tau_ff.setZero();
    cmd.mode.fill(JointMode::position);
    safe = alpha >= 1.0;
  }

 private:
  Pose<N> from_{};
  TimePoint begin_{};
};
template <>
struct motion_node<motions::Dispatching> {
  template <class Model, Capabilities C>
  using node = DispatchingMotion<Model>;
};

}  // namespace praxis::motion
