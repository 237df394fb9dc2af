#pragma once
// The fake Tienkung's own motion controller (HRIC, praxis-fake-tienkung --hric): the walk-mode
// service, the motion status and the velocity command, as tienkung/hric.hpp puts them on the wire,
// answered the way the robot's walking controller would once the operator has started it with the
// remote (STOP -> ZERO -> stand). While it runs it owns every joint.
//
//   rq/hric/motion/set_motion_modeRequest, rr/...Reply  SetMotionMode, in one envelope (--service-wire):
//                                       fastrtps: the payload alone; cyclonedds: the client id and
//                                       sequence number ahead of it, echoed in the reply. The type
//                                       names are hric_msgs::srv::dds_::SetMotionMode_Request_ /
//                                       _Response_ in both.
//   rt/hric/motion/status               MotionStatus at 100 Hz (not from --hric-silent-after on)
//   rt/hric/robot/cmd_vel               TwistStamped (type geometry_msgs::msg::dds_::TwistStamped_)
//
// The requests (walk_mode_request), from the mode the controller reports (walk_mode):
//   stand (3)   from walk, stand-to-walk (or run): stand after the transition (the mode reported
//               stays what it was until then; the velocity is forgotten at once); from stand:
//               success, nothing changes; from zero or stop: the way the remote does it,
//               zero-to-stand for the transition, then stand, counted as raise_requests (praxis must
//               never ask this; so is a stand asked while already rising, also counted)
//   walk (4)    from stand only: stand-to-walk for the transition, then walk (is_need_swing_arm
//               swings the arms and is reported as is_swing_arm while stepping); from anything
//               else, a walk already under way included: refused, k_hric_not_from_mode
//   stop (1)    obeyed at once: stopped stiff where the joints are ("僵停"), counted as balance_taken
//   zero (2)    obeyed at once: the joints go to the zero pose over the transition, counted as
//               balance_taken (praxis must never ask either: a standing robot would fall)
//   start (0), run (5)   refused, k_hric_operator_only
//   another value        refused, k_hric_unknown_request
// While is_console_control says the remote holds the robot (--console-control false, or from
// --hric-remote-at on) every request is refused with k_hric_remote_holds and every cmd_vel is
// ignored; the velocity a program set is forgotten when the remote takes over. The codes are the
// fake's own: which codes the robot answers is not published (UNVERIFIED), so a client must treat
// every success=false as a refusal. Every request asked for that praxis must never ask (stop, zero,
// start, run, a stand from a robot not up) is also counted in forbidden_requests, answered or not.
//
// cmd_vel: while walking (walk_mode 5, not on the way back to stand) and a program steers, sets the
// walking velocity (linear x, y and angular z; echoed in MotionStatus.velocity; counted, largest
// |vx|, |vy|, |wz| recorded); otherwise, or with a non-finite value, ignored and counted.
//
// The joints, with the model's stiff gains: stand -> the stand pose; stand-to-walk, walk -> legs
// stepping around the stand pose (hip pitch and knee, a few centiradians, ramped in and out over
// the transition; the shoulders too with is_need_swing_arm); zero-to-stand -> from where the joints
// were to the stand pose over the transition; zero -> the zero pose; stop -> frozen where they were.
// (The models' stand pose is all zeros, the zero pose too: stand and zero differ by their mode here.)
//
// The report's "hric" section (times in seconds since the fake's start): wire, console_control
// (the option), console_control_at_exit, remote_at, remote_took_over_at, transition, silent_after,
// mode_timeline [{t, mode}], calls [{t, request, swing, success, error_code, from}], refused,
// raise_requests, balance_taken (stop and zero obeyed), forbidden_requests, velocities_received
// (every cmd_vel sample) = velocities_applied + velocities_ignored, max_speed {vx, vy, wz}
// (applied ones), final_mode; main.cpp adds status_published and limb_commands_while_hric.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/core/clock.hpp>
#include <praxis/core/joint_command.hpp>
#include <praxis/hardware/tienkung/codec.hpp>
#include <praxis/hardware/tienkung/hric.hpp>
#include <praxis/hardware/tienkung/models.hpp>
#include <praxis/idl/hric_msgs.h>
#include <praxis/transport/dds.hpp>
#include <praxis/transport/dds_decoding_subscriber.hpp>
#include <praxis/transport/rpc.hpp>

namespace fake_tienkung {

namespace tk = praxis::tienkung;

// SetMotionMode's error_code with success=false (the fake's own, see above).
inline constexpr std::uint32_t k_hric_unknown_request = 1;  // walk_mode_request is none of 0..5
inline constexpr std::uint32_t k_hric_remote_holds = 2;     // the remote holds the robot
inline constexpr std::uint32_t k_hric_not_from_mode = 3;    // not allowed from the current walk mode
inline constexpr std::uint32_t k_hric_operator_only = 4;    // start and run: the operator's

struct HricSettings {
  tk::WalkMode start = tk::WalkMode::stand;  // stand, walk, zero or stop
  tk::ServiceWire wire = tk::ServiceWire::fastrtps;
  bool console_control = true;     // is_console_control: true, a program may steer; false, the remote holds
  double transition = 0.5;         // s: stand-to-walk, walk-to-stand, zero-to-stand, the way to zero
  std::optional<double> silent_after;  // s: no MotionStatus from then on
  std::optional<double> remote_at;     // s: the remote holds the robot from then on
};

// The motion status as published.
struct HricStatus {
  tk::WalkMode mode = tk::WalkMode::stand;
  bool console_control = true;
  bool swing_arm = false;
  double vx = 0.0, vy = 0.0, wz = 0.0;
};

namespace detail {
template <tk::TienkungModel M>
constexpr std::size_t joint_named(std::string_view name) {
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    if (M::joints[j].name == name) return j;
  }
  return M::joint_count;
}

inline std::string request_name(std::uint8_t r) {
  if (r <= static_cast<std::uint8_t>(tk::ModeRequest::run)) return std::string(tk::to_string(static_cast<tk::ModeRequest>(r)));
  return "unknown " + std::to_string(r);
}
}  // namespace detail

template <tk::TienkungModel M>
class HricController {
 public:
  static constexpr std::size_t N = M::joint_count;

  HricController(const HricSettings& settings, praxis::TimePoint t0) : settings_(settings), t0_(t0) {
    console_ = settings.console_control;
    mode_ = settings.start;
    base_from_ = base_to_ = M::stand_pose;
    if (mode_ == tk::WalkMode::zero) base_to_ = zero_pose();
    if (mode_ == tk::WalkMode::walk) amp_from_ = amp_to_ = 1.0;
    for (std::size_t j = 0; j < N; ++j) last_q_[j] = M::stand_pose[j];
    timeline_.push_back({0.0, std::string(tk::to_string(mode_))});
  }

  // SetMotionMode, at `now` (any thread).
  tk::ModeReply request(std::uint8_t walk_mode_request, bool swing, praxis::TimePoint now) {
    std::lock_guard lock(mutex_);
    advance(now);
    const tk::WalkMode before = mode_;
    const tk::ModeReply reply = decide(walk_mode_request, swing, now);
    if (!reply.success) ++refused_;
    calls_.push_back({seconds(now), walk_mode_request, swing, reply.success, reply.error_code,
                      std::string(tk::to_string(before))});
    return reply;
  }

  // A cmd_vel sample, at `now` (Cyclone's receive thread).
  void velocity(double vx, double vy, double wz, praxis::TimePoint now) {
    std::lock_guard lock(mutex_);
    advance(now);
    ++velocities_received_;
    const bool finite = std::isfinite(vx) && std::isfinite(vy) && std::isfinite(wz);
    if (!console_ || !walking() || !finite) {
      ++velocities_ignored_;
      return;
    }
    velocity_ = {vx, vy, wz};
    ++velocities_applied_;
    max_speed_[0] = std::max(max_speed_[0], std::abs(vx));
    max_speed_[1] = std::max(max_speed_[1], std::abs(vy));
    max_speed_[2] = std::max(max_speed_[2], std::abs(wz));
  }

  // The controller advanced to `now` and its command for the joints; `q`: where they are.
  praxis::JointCommand<N> command(praxis::TimePoint now, const praxis::JointVector<N>& q) {
    std::lock_guard lock(mutex_);
    for (std::size_t j = 0; j < N; ++j) last_q_[j] = q[static_cast<Eigen::Index>(j)];
    advance(now);
    const double dt = last_tick_ == praxis::TimePoint{} ? 0.0 : std::clamp(praxis::to_seconds(now - last_tick_), 0.0, 0.1);
    last_tick_ = now;
    phase_ = std::fmod(phase_ + 2.0 * std::numbers::pi * dt / k_step_period, 2.0 * std::numbers::pi);
    const double base = progress(base_since_, now);
    const double amp = amplitude(now);
    std::array<double, N> offset{};
    const double s = std::sin(phase_);
    offset[k_left_hip] = -k_hip_amplitude * s;
    offset[k_right_hip] = k_hip_amplitude * s;
    offset[k_left_knee] = k_knee_amplitude * std::max(0.0, s);
    offset[k_right_knee] = k_knee_amplitude * std::max(0.0, -s);
    if (swing_) {
      offset[k_left_shoulder] = k_shoulder_amplitude * s;
      offset[k_right_shoulder] = -k_shoulder_amplitude * s;
    }
    praxis::JointCommand<N> c;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      c.mode[j] = praxis::JointMode::position;
      const double target = base_from_[j] + base * (base_to_[j] - base_from_[j]) + amp * offset[j];
      c.q[i] = std::clamp(target, M::joints[j].lower, M::joints[j].upper);
      c.dq[i] = 0.0;
      c.kp[i] = M::default_kp[j];
      c.kd[i] = M::default_kd[j];
      c.tau_ff[i] = 0.0;
    }
    return c;
  }

  [[nodiscard]] HricStatus status(praxis::TimePoint now) {
    std::lock_guard lock(mutex_);
    advance(now);
    return {mode_, console_, swing_ && stepping(), velocity_[0], velocity_[1], velocity_[2]};
  }

  [[nodiscard]] nlohmann::json report() const {
    std::lock_guard lock(mutex_);
    const auto optional = [](const std::optional<double>& x) { return x ? nlohmann::json(*x) : nlohmann::json(); };
    nlohmann::json timeline = nlohmann::json::array();
    for (const auto& [t, mode] : timeline_) timeline.push_back({{"t", t}, {"mode", mode}});
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& c : calls_) {
      calls.push_back({{"t", c.t},
                       {"request", detail::request_name(c.request)},
                       {"swing", c.swing},
                       {"success", c.success},
                       {"error_code", c.error_code},
                       {"from", c.from}});
    }
    return {{"wire", std::string(tk::to_string(settings_.wire))},
            {"console_control", settings_.console_control},
            {"remote_at", optional(settings_.remote_at)},
            {"remote_took_over_at", optional(remote_took_over_at_)},
            {"console_control_at_exit", console_},
            {"transition", settings_.transition},
            {"silent_after", optional(settings_.silent_after)},
            {"mode_timeline", timeline},
            {"calls", calls},
            {"refused", refused_},
            {"raise_requests", raise_requests_},
            {"balance_taken", balance_taken_},
            {"forbidden_requests", forbidden_requests_},
            {"velocities_received", velocities_received_},
            {"velocities_applied", velocities_applied_},
            {"velocities_ignored", velocities_ignored_},
            {"max_speed", {{"vx", max_speed_[0]}, {"vy", max_speed_[1]}, {"wz", max_speed_[2]}}},
            {"velocity_at_exit", {{"vx", velocity_[0]}, {"vy", velocity_[1]}, {"wz", velocity_[2]}}},
            {"final_mode", std::string(tk::to_string(mode_))}};
  }

 private:
  struct Call {
    double t = 0;
    std::uint8_t request = 0;
    bool swing = false;
    bool success = false;
    std::uint32_t error_code = 0;
    std::string from;
  };

  static constexpr double k_step_period = 0.8;          // s, one left-right cycle
  static constexpr double k_hip_amplitude = 0.05;       // rad
  static constexpr double k_knee_amplitude = 0.08;      // rad, bent only (the knee's limit is 0)
  static constexpr double k_shoulder_amplitude = 0.10;  // rad, with is_need_swing_arm
  static constexpr std::size_t k_left_hip = detail::joint_named<M>("left_hip_pitch");
  static constexpr std::size_t k_right_hip = detail::joint_named<M>("right_hip_pitch");
  static constexpr std::size_t k_left_knee = detail::joint_named<M>("left_knee");
  static constexpr std::size_t k_right_knee = detail::joint_named<M>("right_knee");
  static constexpr std::size_t k_left_shoulder = detail::joint_named<M>("left_shoulder_pitch");
  static constexpr std::size_t k_right_shoulder = detail::joint_named<M>("right_shoulder_pitch");
  static_assert(k_left_hip < N && k_right_hip < N && k_left_knee < N && k_right_knee < N && k_left_shoulder < N &&
                    k_right_shoulder < N,
                "the fake's stepping needs the hip pitch, knee and shoulder pitch joints by name");

  static constexpr std::array<double, N> zero_pose() { return {}; }

  double seconds(praxis::TimePoint now) const { return praxis::to_seconds(now - t0_); }
  double progress(praxis::TimePoint since, praxis::TimePoint now) const {
    if (settings_.transition <= 0.0) return 1.0;
    return std::clamp(praxis::to_seconds(now - since) / settings_.transition, 0.0, 1.0);
  }
  double amplitude(praxis::TimePoint now) const {
    return amp_from_ + progress(amp_since_, now) * (amp_to_ - amp_from_);
  }
  bool stepping() const {
    return mode_ == tk::WalkMode::stand_to_walk || mode_ == tk::WalkMode::walk || mode_ == tk::WalkMode::run;
  }
  bool walking() const { return mode_ == tk::WalkMode::walk && !target_; }
  bool up() const { return mode_ == tk::WalkMode::stand || stepping(); }

  void show(tk::WalkMode m, praxis::TimePoint now) {
    if (m == mode_) return;
    mode_ = m;
    timeline_.push_back({seconds(now), std::string(tk::to_string(m))});
  }

  // Transitions that ended by `now`, and the remote taking over.
  void advance(praxis::TimePoint now) {
    if (target_ && now >= target_until_) {
      const tk::WalkMode to = *target_;
      target_.reset();
      if (to != tk::WalkMode::walk) swing_ = false;
      show(to, now);
    }
    if (settings_.remote_at && !remote_took_over_at_ && seconds(now) >= *settings_.remote_at) {
      console_ = false;  // the remote holds the robot; its sticks, not the program's velocity, steer
      remote_took_over_at_ = seconds(now);
      velocity_ = {};
    }
  }

  // Shows `shown` now and `to` after the transition.
  void transition(tk::WalkMode shown, tk::WalkMode to, praxis::TimePoint now) {
    show(shown, now);
    target_ = to;
    target_until_ = now + praxis::from_seconds(std::max(0.0, settings_.transition));
  }
  void ramp_amplitude(double to, praxis::TimePoint now) {
    amp_from_ = amplitude(now);
    amp_to_ = to;
    amp_since_ = now;
  }
  void move_base(const std::array<double, N>& to, praxis::TimePoint now) {
    base_from_ = last_q_;
    base_to_ = to;
    base_since_ = now;
    amp_from_ = amp_to_ = 0.0;  // where the joints are includes the step's offsets
  }

  tk::ModeReply decide(std::uint8_t raw, bool swing, praxis::TimePoint now) {
    using tk::WalkMode;
    if (raw > static_cast<std::uint8_t>(tk::ModeRequest::run)) return {false, k_hric_unknown_request};
    const auto request = static_cast<tk::ModeRequest>(raw);
    const bool raising = request == tk::ModeRequest::stand && !up();
    if (request != tk::ModeRequest::stand && request != tk::ModeRequest::walk) ++forbidden_requests_;
    if (raising) {
      ++forbidden_requests_;
      ++raise_requests_;
    }
    if (!console_) return {false, k_hric_remote_holds};
    switch (request) {
      case tk::ModeRequest::stand:
        if (stepping()) {
          if (target_ != WalkMode::stand) {  // on its way back already: nothing new
            velocity_ = {};
            ramp_amplitude(0.0, now);
            transition(mode_, WalkMode::stand, now);
          }
        } else if (mode_ != WalkMode::stand && mode_ != WalkMode::zero_to_stand) {  // zero, stop, start
          move_base(M::stand_pose, now);
          transition(WalkMode::zero_to_stand, WalkMode::stand, now);
        }
        return {true, 0};
      case tk::ModeRequest::walk:
        if (mode_ != WalkMode::stand || target_) return {false, k_hric_not_from_mode};
        swing_ = swing;
        ramp_amplitude(1.0, now);
        transition(WalkMode::stand_to_walk, WalkMode::walk, now);
        return {true, 0};
      case tk::ModeRequest::stop:
      case tk::ModeRequest::zero: {
        const bool stop = request == tk::ModeRequest::stop;
        ++balance_taken_;
        velocity_ = {};
        swing_ = false;
        target_.reset();
        move_base(stop ? last_q_ : zero_pose(), now);
        show(stop ? WalkMode::stop : WalkMode::zero, now);
        return {true, 0};
      }
      case tk::ModeRequest::start:
      case tk::ModeRequest::run: return {false, k_hric_operator_only};
    }
    return {false, k_hric_unknown_request};
  }

  const HricSettings settings_;
  const praxis::TimePoint t0_;
  mutable std::mutex mutex_;
  tk::WalkMode mode_;
  bool console_ = true;
  bool swing_ = false;
  std::optional<tk::WalkMode> target_;
  praxis::TimePoint target_until_{};
  std::array<double, N> base_from_{}, base_to_{}, last_q_{};
  praxis::TimePoint base_since_{};
  double amp_from_ = 0.0, amp_to_ = 0.0;
  praxis::TimePoint amp_since_{};
  double phase_ = 0.0;
  praxis::TimePoint last_tick_{};
  std::array<double, 3> velocity_{};
  std::array<double, 3> max_speed_{};
  std::optional<double> remote_took_over_at_;
  std::uint64_t refused_ = 0, raise_requests_ = 0, balance_taken_ = 0, forbidden_requests_ = 0;
  std::uint64_t velocities_received_ = 0, velocities_applied_ = 0, velocities_ignored_ = 0;
  std::vector<Call> calls_;
  std::vector<std::pair<double, std::string>> timeline_;
};

// The controller's DDS side: the service (on its own thread, so that a reply waiting for discovery
// never stalls the joints), the cmd_vel reader (Cyclone's thread) and the status writer (publish(),
// from the physics loop).
template <tk::TienkungModel M>
class HricEndpoints {
 public:
  HricEndpoints(const praxis::transport::Participant& participant, HricController<M>& controller,
                const HricSettings& settings, praxis::TimePoint t0)
      : controller_(controller),
        silent_at_(settings.silent_after ? t0 + praxis::from_seconds(*settings.silent_after) : praxis::TimePoint::max()),
        status_pub_(participant, names_.status,
                    praxis::transport::with_type_name(&hric_msgs_msg_dds__MotionStatus__desc, names_.status_type), k_qos),
        cmd_vel_(participant, names_.cmd_vel,
                 praxis::transport::with_type_name(&hric_msgs_geometry_TwistStamped_desc, names_.cmd_vel_type),
                 VelocityIntake{&controller}, k_qos) {
    if (settings.wire == tk::ServiceWire::fastrtps) {
      fastrtps_.emplace(participant, names_.service_request, names_.service_reply, names_.request_type,
                        names_.reply_type);
    } else {
      cyclone_.emplace(participant, names_.service_request, names_.service_reply, names_.request_type,
                       names_.reply_type);
    }
    service_thread_ = std::thread([this] {
      const auto serve = [this](const auto& rq, auto& rs) {
        const tk::ModeReply reply =
            controller_.request(rq.walk_mode_request, rq.is_need_swing_arm, praxis::Clock::now());
        if constexpr (requires { rq.client_id; }) {  // the cyclonedds envelope: echoed
          rs.client_id = rq.client_id;
          rs.sequence_number = rq.sequence_number;
        }
        rs.success = reply.success;
        rs.error_code = reply.error_code;
        return 0;
      };
      while (!stop_.load()) {
        if (fastrtps_) fastrtps_->poll(serve);
        if (cyclone_) cyclone_->poll(serve);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  ~HricEndpoints() {
    stop_ = true;
    service_thread_.join();
  }
  HricEndpoints(const HricEndpoints&) = delete;
  HricEndpoints& operator=(const HricEndpoints&) = delete;

  // MotionStatus at `now`, unless silent by then.
  void publish(praxis::TimePoint now) {
    if (now >= silent_at_) return;
    const HricStatus s = controller_.status(now);
    hric_msgs_msg_dds__MotionStatus_ msg{};
    const tk::RosStamp stamp = tk::ros_now();
    msg.header.stamp.sec = stamp.sec;
    msg.header.stamp.nanosec = stamp.nanosec;
    msg.header.frame_id = empty_frame_;
    msg.velocity.linear = {s.vx, s.vy, 0.0};
    msg.velocity.angular = {0.0, 0.0, s.wz};
    msg.walk_mode = static_cast<std::uint8_t>(s.mode);
    msg.is_console_control = s.console_control;
    msg.is_swing_arm = s.swing_arm;
    msg.error_code = 0;
    if (status_pub_.write(msg)) ++published_;
  }

  [[nodiscard]] std::uint64_t status_published() const { return published_; }
  [[nodiscard]] std::uint64_t cmd_vel_samples() const { return cmd_vel_.received(); }

 private:
  static constexpr praxis::transport::TopicQos k_qos{.reliable = true, .depth = 10};  // rclcpp's default

  struct Velocity {
    double vx = 0.0, vy = 0.0, wz = 0.0;
  };
  struct VelocityIntake {
    HricController<M>* controller;
    const char* operator()(const hric_msgs_geometry_TwistStamped& w, Velocity& out) const {
      out = {w.twist.linear.x, w.twist.linear.y, w.twist.angular.z};
      controller->velocity(out.vx, out.vy, out.wz, praxis::Clock::now());
      return nullptr;
    }
  };

  const tk::HricNames names_;
  HricController<M>& controller_;
  const praxis::TimePoint silent_at_;
  char empty_frame_[1] = "";
  praxis::transport::Publisher<hric_msgs_msg_dds__MotionStatus_> status_pub_;
  praxis::transport::DecodingSubscriber<hric_msgs_geometry_TwistStamped, Velocity, VelocityIntake> cmd_vel_;
  std::optional<praxis::transport::RpcServer<tk::FastRtpsModeTraits>> fastrtps_;
  std::optional<praxis::transport::RpcServer<tk::CycloneModeTraits>> cyclone_;
  std::atomic<bool> stop_{false};
  std::thread service_thread_;
  std::uint64_t published_ = 0;
};

}  // namespace fake_tienkung
