#pragma once
// WalkingBackend<Model>: a Walker Tienkung that stands and walks under its own motion controller
// (HRIC), for praxis' motion pipeline (MotionController). The cycle posts RobotRequests; the
// backend's I/O worker turns them into walk-mode requests and cmd_vel (walking.hpp, hric.hpp).
// praxis owns no joint: the limbs' status and the IMU come in (the cycle's state, the fault
// monitors), and no limb command topic is even created, so no command of praxis' can reach a motor
// the robot's controller drives. The safe state is the robot's own: stopped, standing, balancing.
//
//   praxis::tienkung::WalkingBackend<praxis::tienkung::Pro> robot(WalkingBackend<Pro>::robot("eth0"));
//   praxis::control::MotionController<decltype(robot), MyBehaviour> controller(robot, library);
//
// acquire() takes nothing from the robot; it checks that praxis may steer: a valid state, a recent
// MotionStatus, a program (not the remote) steering, the controller standing or walking (praxis
// never stands a robot up from zero or stop: that is the operator's, with the remote) and the
// SetMotionMode service matched. release() serves the damping wish until the robot reports
// standing, or the timeout.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>

#include <praxis/idl/hric_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/request_worker.hpp"
#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/hric.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/tienkung/topics.hpp"
#include "praxis/hardware/tienkung/walking.hpp"
#include "praxis/hardware/tienkung/walking_params.hpp"
#include "praxis/io/reflect_save.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_decoding_subscriber.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"
#include "praxis/transport/dds_sequence.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::tienkung {

// The Tienkung topic table with its state topics only: no command writer exists.
template <TienkungModel M, StatusLayout Layout>
struct StateOnlyTopics : TienkungTopics<M, Layout> {
  static auto command_topics(const BackendOptions&) { return std::tuple<>{}; }
};

namespace detail {
struct Velocity {
  double vx = 0.0, vy = 0.0, wz = 0.0;
};
struct VelocityToWire {
  std::array<char, 1> frame{};
  void operator()(const Velocity& v, hric_msgs_geometry_TwistStamped& out) {
    const RosStamp now = ros_now();
    out.header.stamp.sec = now.sec;
    out.header.stamp.nanosec = now.nanosec;
    out.header.frame_id = frame.data();
    out.twist.linear = {v.vx, v.vy, 0.0};
    out.twist.angular = {0.0, 0.0, v.wz};
  }
};
// Runs on Cyclone's listener thread; also notes the arrival, so the control thread can tell a
// silent controller without taking the sample (the worker does).
struct MotionStatusDecoder {
  std::atomic<Duration::rep>* arrived;
  bool operator()(const hric_msgs_msg_dds__MotionStatus_& in, MotionReport& out) const {
    out.walk_mode = in.walk_mode;
    out.console_control = in.is_console_control;
    out.swing_arm = in.is_swing_arm;
    out.error_code = in.error_code;
    arrived->store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    return true;
  }
};
using MotionStatusSubscriber =
    transport::DecodingSubscriber<hric_msgs_msg_dds__MotionStatus_, MotionReport, MotionStatusDecoder>;
using VelocityPublisher = transport::EncodingPublisher<hric_msgs_geometry_TwistStamped, Velocity, VelocityToWire>;
}  // namespace detail

template <TienkungModel M, StatusLayout Layout = StatusLayout::with_error>
class WalkingBackend : public DdsBackend<StateOnlyTopics<M, Layout>> {
  using Base = DdsBackend<StateOnlyTopics<M, Layout>>;
  static constexpr std::size_t N = M::joint_count;

 public:
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true};
  static constexpr SafeState safe_state = SafeState::mode_request;  // stand, balancing
  static constexpr bool has_remote = false;

  static BackendOptions robot(std::string interface, std::uint32_t domain = 0) {
    BackendOptions o;
    o.dds = {domain, std::move(interface)};
    return o;
  }

  explicit WalkingBackend(BackendOptions options, WalkingOptions walking = {}, HricOptions hric = {},
                          Duration worker_period = std::chrono::milliseconds(10))
      : Base(std::move(options)),
        hric_(std::move(hric)),
        status_(std::make_unique<detail::MotionStatusSubscriber>(
            this->context(), hric_.names.status,
            transport::with_type_name(&hric_msgs_msg_dds__MotionStatus__desc, hric_.names.status_type),
            detail::MotionStatusDecoder{&status_at_}, hric_.status_qos)),
        cmd_vel_(std::make_unique<detail::VelocityPublisher>(
            this->context(), hric_.names.cmd_vel,
            transport::with_type_name(&hric_msgs_geometry_TwistStamped_desc, hric_.names.cmd_vel_type),
            detail::VelocityToWire{}, hric_.cmd_vel_qos)),
        handler_([this] { return observe(); },
                 WalkingSink{make_caller(), [this](double vx, double vy, double wz) {
                               if (worker_.silenced()) return;  // praxis-guard has the robot
                               cmd_vel_->write(detail::Velocity{vx, vy, wz});
                             }},
                 walking),
        worker_(handler_, worker_period) {}
  ~WalkingBackend() { worker_.stop(); }
  WalkingBackend(const WalkingBackend&) = delete;
  WalkingBackend& operator=(const WalkingBackend&) = delete;

  // The robot's own controller has every joint: nothing is sent (counted).
  void write(const JointCommand<N>&, TimePoint) { withheld_.fetch_add(1, std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t commands_withheld() const { return withheld_.load(std::memory_order_relaxed); }

  void post(const RobotRequests& r) {
    if (lifecycle_.load(std::memory_order_relaxed) == LifecycleStage::in_control) worker_.post(r);
  }
  // From any thread: the worker serves `mode` from now on (the runtime's send thread, on a stall).
  void post_safe_mode(RobotMode mode) noexcept { worker_.post_safe_mode(mode); }
  // The link is up while the limbs' status and, in control, the controller's MotionStatus are
  // recent: a controller praxis cannot hear is one it cannot steer, and the run ends (control lost).
  bool read_status(RobotStatus& out) {
    (void)worker_.read_status(out);
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    this->read_link(out.link);
    if (out.lifecycle == LifecycleStage::in_control && !controller_heard(Clock::now())) out.link.connected = false;
    return true;
  }
  // Whether a MotionStatus arrived within the handler's sample_timeout before `now`.
  [[nodiscard]] bool controller_heard(TimePoint now) const {
    const auto at = status_at_.load(std::memory_order_relaxed);
    return at != 0 && now - TimePoint(Duration(at)) <= handler_.options().sample_timeout;
  }

  LifecycleResult acquire(Duration timeout) {
    lifecycle_.store(LifecycleStage::acquiring);
    const auto deadline = Clock::now() + timeout;
    const auto& o = this->options();
    const auto primary = o.topics.of(M::limbs[0].limb).status;
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      std::string why = no_valid_sample_text("status", primary, timeout, o.dds);
      if (auto seen = this->state_near_misses("set topics.limbs or types.motor_status (docs/backends/tienkung.md)");
          !seen.empty()) {
        why += "; " + seen;
      }
      return fail(why);
    }
    // Every limb and the IMU; a state the wait consumed is waited for again below.
    bool consumed = false;
    const std::string missing =
        wait_for_every_state_topic<M>(static_cast<Base&>(*this), o.topics, deadline, consumed);
    if (!missing.empty()) {
      return fail("receiving " + primary + " but no valid sample within " + std::to_string(to_ms(timeout)) + " ms on: " +
                  missing);
    }
    if (consumed) (void)this->wait_for_state(deadline > Clock::now() ? deadline - Clock::now() : Duration::zero());
    while (observe().walk_mode < 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const MotionReport seen = observe();
    if (seen.walk_mode < 0) {
      return fail("no MotionStatus on " + hric_.names.status + " within " + std::to_string(to_ms(timeout)) +
                  " ms: the robot's motion controller (HRIC) is not running, or its status is named otherwise "
                  "(hric.names.status / status_type)");
    }
    if (!program_may_steer(seen, handler_.options().console)) {
      return fail("the remote steers the robot (" + hric_.names.status + ": is_console_control = " +
                  (seen.console_control ? "true" : "false") + ", read as " + console_text() +
                  "): hand it to programs on the remote, or set walking.console if the robot means the opposite");
    }
    const bool upright = seen.walk_mode == static_cast<int>(WalkMode::stand) ||
                         seen.walk_mode == static_cast<int>(WalkMode::stand_to_walk) ||
                         seen.walk_mode == static_cast<int>(WalkMode::walk);
    if (!upright) {
      return fail("the robot's motion controller is in " + walk_mode_name(seen.walk_mode) +
                  ": stand it up with the remote first (praxis never stands a robot up from zero or stop)");
    }
    while (!service_matched() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!service_matched()) {
      return fail("no SetMotionMode service on " + hric_.names.service_request + " / " + hric_.names.service_reply +
                  " within " + std::to_string(to_ms(timeout)) + " ms (hric.wire = " + std::string(to_string(hric_.wire)) +
                  ": a robot whose ROS 2 runs the other middleware registers other types, and nothing matches)");
    }
    worker_.start();
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "receiving " + primary + " and " + hric_.names.status + " (the controller in " +
                walk_mode_name(seen.walk_mode) + "); walk modes on " + hric_.names.service_request + " (" +
                std::string(to_string(hric_.wire)) + "), velocities on " + hric_.names.cmd_vel +
                "; no limb command topic is written; no request before the behaviour's first command"};
  }

  // The run's closing damping request served until the robot reports standing, or `timeout`. A run
  // that asked the robot for nothing leaves it as it was.
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    worker_.stop();
    if (handler_.calls() == 0 && handler_.velocities_sent() == 0) {
      lifecycle_.store(LifecycleStage::released);
      return {true, LifecycleStage::released, "no request in this run: the robot left as it was"};
    }
    RobotRequests damping;
    damping.any = true;
    damping.mode = RobotMode::damping;
    worker_.post(damping);
    const auto deadline = Clock::now() + timeout;
    worker_.serve_once(Clock::now());
    while (!handler_.settled() && Clock::now() < deadline) {
      std::this_thread::sleep_for(worker_.period());
      worker_.serve_once(Clock::now());
    }
    const bool ok = handler_.settled();
    lifecycle_.store(ok ? LifecycleStage::released : LifecycleStage::failed);
    return {ok, ok ? LifecycleStage::released : LifecycleStage::failed,
            ok ? "the robot stands, balancing under its own controller (praxis never asks for stop or zero)"
               : "stand not reported after " + std::to_string(to_ms(timeout)) + " ms (the controller is in " +
                     walk_mode_name(handler_.last_walk_mode()) + ")"};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  // The guard builds this backend again from these options (WalkingParams, its I/O worker at the
  // default period); the status layout is its name's.
  static constexpr std::string_view guard_backend = Layout == StatusLayout::with_error ? "tienkung-walking"
                                                    : Layout == StatusLayout::without_error
                                                        ? "tienkung-walking-without-error"
                                                        : "tienkung-walking-with-voltage";
  [[nodiscard]] std::string guard_options() const {
    return io::to_json_text(WalkingParams{this->options(), handler_.options(), hric_});
  }
  // The guard's start: as acquire(), which asks the robot nothing (its worker idle until a request).
  LifecycleResult adopt(Duration timeout) { return acquire(timeout); }
  // praxis-guard's flag: once set, the worker asks the robot nothing more (checked before each call
  // and each velocity too, so that a period begun before the controller stopped sends nothing).
  void set_request_gate(const std::atomic<std::uint8_t>* silenced) noexcept { worker_.set_silenced_flag(silenced); }
  // The guard took the robot: the worker stops without serving anything more (no release()).
  void yield_to_guard() {
    worker_.stop();
    lifecycle_.store(LifecycleStage::released);
  }

  [[nodiscard]] const WalkingHandler& walking() const { return handler_; }
  [[nodiscard]] const HricOptions& hric() const { return hric_; }
  [[nodiscard]] std::uint64_t states_accepted() const { return Base::template states_accepted<0>(); }

 private:

  LifecycleResult fail(std::string why) {
    lifecycle_.store(LifecycleStage::failed);
    return {false, LifecycleStage::failed, std::move(why)};
  }

  std::string console_text() const {
    switch (handler_.options().console) {
      case ConsoleMeaning::program_steers: return "true: a program steers";
      case ConsoleMeaning::remote_steers: return "true: the remote steers";
      case ConsoleMeaning::ignore: return "not judged";
    }
    return "?";
  }

  // The newest MotionStatus (the worker's and acquire()'s: never concurrently).
  MotionReport observe() {
    transport::Stamped<MotionReport> s;
    if (status_->fetch(s)) {
      last_report_ = s.message;
      last_report_.at = s.received;
    }
    return last_report_;
  }

  bool service_matched() const {
    return fast_ ? fast_->matched() > 0 && fast_->response_matched() > 0
                 : cyclone_->matched() > 0 && cyclone_->response_matched() > 0;
  }

  // Every call checks praxis-guard's flag right before it leaves.
  std::function<ModeReply(const ModeCall&, Duration)> make_caller() {
    const auto& n = hric_.names;
    if (hric_.wire == ServiceWire::fastrtps) {
      fast_ = std::make_unique<transport::RpcClient<FastRtpsModeTraits>>(this->context(), n.service_request, n.service_reply,
                                                                   n.request_type, n.reply_type);
      return [this, c = fast_.get()](const ModeCall& call, Duration t) {
        if (worker_.silenced()) throw transport::RpcUnanswered("not sent: praxis-guard has the robot");
        return c->call(call, t);
      };
    }
    cyclone_ = std::make_unique<transport::RpcClient<CycloneModeTraits>>(this->context(), n.service_request, n.service_reply,
                                                                   n.request_type, n.reply_type);
    return [this, c = cyclone_.get()](const ModeCall& call, Duration t) {
      if (worker_.silenced()) throw transport::RpcUnanswered("not sent: praxis-guard has the robot");
      return c->call(call, t);
    };
  }

  HricOptions hric_;
  std::atomic<Duration::rep> status_at_{0};  // the last MotionStatus' arrival, Clock ticks
  std::unique_ptr<transport::RpcClient<FastRtpsModeTraits>> fast_;
  std::unique_ptr<transport::RpcClient<CycloneModeTraits>> cyclone_;
  std::unique_ptr<detail::MotionStatusSubscriber> status_;
  std::unique_ptr<detail::VelocityPublisher> cmd_vel_;
  MotionReport last_report_{};
  WalkingHandler handler_;
  RequestWorker<WalkingHandler> worker_;
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<std::uint64_t> withheld_{0};
};

}  // namespace praxis::tienkung
