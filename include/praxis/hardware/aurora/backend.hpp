#pragma once
// AuroraBackend<Model, Access, Transport>: a Fourier robot (GR-1, GR-2, GR-3, N1) through Fourier's Aurora
// over Cyclone DDS. The joint level is the generic DdsBackend running AuroraTopics (topics.hpp);
// this class adds what is Aurora's own: taking control through its state machine and handing it
// back (take_control.hpp), the FSM as RobotStatus, contact data for readers outside the cycle.
//
//   praxis::aurora::AuroraBackend<praxis::aurora::GR2> robot(praxis::aurora::BackendOptions{});
//   auto taken = robot.acquire(3s);      // PdStand, stable, UserCmd, PD configuration
//   ... read() / write() in the loop: complete control groups on robot_control_group_cmd
//   robot.release(3s);                   // PdStand (or SecurityProtection)
//
// FSM requests and the initial PD configuration are sent by acquire() / release() only, on the
// caller's thread, never from the cycle (write() sends the command's kp / kd on
// robot_motor_cfg_group_cmd when they change, at most every WireOptions::gain_period). read() and write() never block. Commands leave only
// between a successful acquire() and release(), and only while aurora_state reports the state
// acquire() established.
//
// Two ways in, like Booster's backend:
//   Access::joints       (default) joint control as above: UserCmd / UpperBodyUserCmd.
//   Access::locomotion   the robot walks by itself (state 3); the cycle posts RobotRequests and an I/O
//                        worker (locomotion.hpp) sends the FSM requests, the velocity source and
//                        velocity_cmd; joint commands are never sent.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/locomotion.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/aurora/take_control.hpp"
#include "praxis/hardware/aurora/topics.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/request_worker.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::aurora {

inline constexpr std::uint32_t k_default_domain = 123;  // Aurora's config.yaml DomainID

enum class Access : std::uint8_t { joints, locomotion };

struct BackendOptions {
  dds::DdsOptions dds{k_default_domain, ""};
  Duration link_timeout = std::chrono::milliseconds(100);  // state topics run at 500 Hz
  WireOptions wire{};
  SequenceOptions sequence{};  // its topic names are taken from `wire` by the backend
  Duration poll_period = std::chrono::milliseconds(2);  // acquire() / release() look this often
  // Access::locomotion: the worker's period (Aurora's RL runs at 50 Hz).
  Duration worker_period = std::chrono::milliseconds(20);
};

template <AuroraModel M, Access A = Access::joints, class Transport = dds::DdsTransport>
class AuroraBackend : public DdsBackend<AuroraTopics<M, BackendOptions>, Transport> {
  using Topics = AuroraTopics<M, BackendOptions>;
  using Base = DdsBackend<Topics, Transport>;
  static constexpr std::size_t N = M::joint_count;

 public:
  static constexpr Access access = A;
  static constexpr Capabilities capabilities =
      A == Access::locomotion ? Capabilities{.modes = true, .locomotion = true} : Capabilities{};
  // The robot balances itself: control ends by holding the measured pose with the gains in force
  // while release() asks for PdStand (never kp 0 on the legs), or, walking, by the FSM request.
  static constexpr SafeState safe_state = A == Access::locomotion ? SafeState::mode_request : SafeState::hand_back;
  // Aurora's state topics carry no remote.
  static constexpr bool has_remote = false;

  // The robot: Aurora's domain on the interface that reaches it, topics prefixed when a serial is given.
  static BackendOptions robot(std::string interface, const std::string& robot_name = {}, const std::string& serial = {}) {
    BackendOptions o;
    o.dds = {k_default_domain, std::move(interface)};
    o.wire.topics = TopicNames{}.prefixed(robot_name, serial);
    return o;
  }

  explicit AuroraBackend(BackendOptions options)
    requires std::is_same_v<Transport, dds::DdsTransport>
      : Base(std::move(options)) {
    make_publishers();
  }
  AuroraBackend(typename Transport::Context& transport, BackendOptions options) : Base(transport, std::move(options)) {
    make_publishers();
  }
  ~AuroraBackend() { worker_.reset(); }
  AuroraBackend(const AuroraBackend&) = delete;
  AuroraBackend& operator=(const AuroraBackend&) = delete;

  // ---- requests (Access::locomotion) ----
  // Before acquire() (and after release()) nothing is listening: requests are dropped.
  void post(const RobotRequests& r)
    requires(A == Access::locomotion)
  {
    if (worker_) worker_->post(r);
  }
  [[nodiscard]] const LocomotionHandler<M>* locomotion() const { return handler_.get(); }

  // ---- lifecycle ----

  // Waits up to `timeout` for a valid robot_control_group_state, then runs the take-control
  // sequence (each step with its own timeout, BackendOptions::sequence).
  LifecycleResult acquire(Duration timeout) {
    lifecycle_.store(LifecycleStage::acquiring);
    auto& c = this->codec_context();
    c.control_state.store(Topics::k_not_in_control, std::memory_order_release);
    const auto& o = this->options();
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      std::string why = "no valid state on " + o.wire.topics.group_state + " within " + std::to_string(to_ms(timeout)) +
                        " ms (domain " + std::to_string(o.dds.domain) + ", interface \"" + o.dds.interface + "\")";
      if (wait.invalid > 0) {
        why += ": " + std::to_string(wait.invalid) + " invalid ones arrived, the last: " +
               describe<M>(last_state_fault(), o.wire.topics.group_state);
      }
      return fail(std::move(why));
    }
    if constexpr (A == Access::locomotion) {
      handler_ = std::make_unique<LocomotionHandler<M>>(
          [&c] { return FsmReport{c.whole_body.load(std::memory_order_acquire), c.velocity_source.load()}; },
          LocomotionSink{[this](WholeBodyState s) { send_request(s); },
                         [this](VelocitySource s) {
                           sources_->write(StateRequestValue{static_cast<std::uint8_t>(s)});
                         },
                         [this](const VelocityValue& v) { velocities_->write(v); }},
          o.sequence.resend_period);
      worker_ = std::make_unique<RequestWorker<LocomotionHandler<M>>>(*handler_, o.worker_period);
      worker_->start();
      lifecycle_.store(LifecycleStage::in_control);
      return {true, LifecycleStage::in_control,
              "receiving " + o.wire.topics.group_state + "; the robot's own walking through " +
                  o.wire.topics.whole_body_request + ", " + o.wire.topics.velocity_source + " and " +
                  o.wire.topics.velocity + "; nothing sent before the cycle's first request"};
    }
    auto sequence = FsmSequence::take_control(sequence_options());
    if (auto r = run(sequence); !r.ok) return r;
    c.allowed_groups.store(allowed_groups(), std::memory_order_relaxed);
    c.control_state.store(static_cast<int>(o.sequence.control_state), std::memory_order_release);
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "robot in " + FsmSequence::state_name(static_cast<std::uint8_t>(o.sequence.control_state)) +
                ", PD configuration sent on " + o.wire.topics.motor_config + "; commands on " +
                o.wire.topics.group_command};
  }

  // Stops the commands, then asks for BackendOptions::sequence.release_state and awaits it for
  // `timeout` or sequence.release_timeout, whichever is shorter.
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    this->codec_context().control_state.store(Topics::k_not_in_control, std::memory_order_release);
    if (worker_) worker_->stop();  // no walking request after this point
    worker_.reset();
    auto options = sequence_options();
    if (timeout > Duration::zero() && timeout < options.release_timeout) options.release_timeout = timeout;
    auto sequence = FsmSequence::release(options);
    if (auto r = run(sequence); !r.ok) return r;
    lifecycle_.store(LifecycleStage::released);
    return {true, LifecycleStage::released,
            "robot in " + FsmSequence::state_name(static_cast<std::uint8_t>(this->options().sequence.release_state)) +
                "; stopped sending " + this->options().wire.topics.group_command};
  }

  // ---- status ----

  bool read_status(RobotStatus& out) {
    if constexpr (A == Access::locomotion) {
      if (worker_) worker_->read_status(out);  // the worker's view of requests and modes
    } else {
      out.assumed_mode = lifecycle_.load() == LifecycleStage::in_control ? RobotMode::user : RobotMode::unknown;
      ++out.sequence;
    }
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    out.reported_mode = robot_mode_of(this->codec_context().whole_body.load(std::memory_order_acquire));
    this->read_link(out.link);
    return true;
  }

  // ---- what the robot reported, readable from any thread ----

  // aurora_state.whole_body_fsm_state, or -1 before the first report.
  [[nodiscard]] int whole_body_state() const { return this->codec_context().whole_body.load(std::memory_order_acquire); }
  [[nodiscard]] int stable_level() const { return this->codec_context().stable_level.load(std::memory_order_relaxed); }
  // The newest contact_data_pub sample not read yet (one reader: call it from one thread).
  bool read_contact(ContactState& out) {
    auto& box = this->codec_context().contact;
    if (!box.fetch()) return false;
    out = box.value();
    return true;
  }

  // ---- counters (for tests and reports) ----
  [[nodiscard]] StateDecode last_state_fault() const {
    return Topics::unpack_state(this->codec_context().last_state_fault.load(std::memory_order_relaxed));
  }
  // Why the last refused command was refused (fault, group, joint); describe<M>() words it.
  [[nodiscard]] CommandEncode last_command_fault() const {
    return Topics::unpack_command(this->codec_context().last_command_fault.load(std::memory_order_relaxed));
  }
  [[nodiscard]] std::uint64_t commands_refused() const { return this->codec_context().refused.load(); }
  [[nodiscard]] std::uint64_t commands_outside_control() const { return this->codec_context().outside_control.load(); }
  [[nodiscard]] std::uint64_t groups_withheld() const { return this->codec_context().withheld_groups.load(); }
  [[nodiscard]] std::uint64_t group_commands_sent() const { return Base::template commands_sent<k_group_command_topic>(); }
  [[nodiscard]] std::uint64_t gain_updates_sent() const { return Base::template commands_sent<k_motor_config_topic>(); }
  [[nodiscard]] std::uint64_t fsm_requests_sent() const { return fsm_requests_sent_.load(); }
  [[nodiscard]] std::uint64_t motor_configs_sent() const { return motor_configs_sent_; }

 private:
  using RequestTopic = EncodedCommandTopic<N, typename Topics::Context, WholeBodyRequestWire, StateRequestValue,
                                           HeaderMessageToWire<WholeBodyRequestWire, StateRequestValue>>;
  using ConfigTopic = EncodedCommandTopic<N, typename Topics::Context, MotorConfigWire, MotorConfigValue, MotorConfigToWire>;
  using SourceTopic = EncodedCommandTopic<N, typename Topics::Context, VelocitySourceWire, StateRequestValue,
                                          HeaderMessageToWire<VelocitySourceWire, StateRequestValue>>;
  using VelocityTopic = EncodedCommandTopic<N, typename Topics::Context, VelocityWire, VelocityValue,
                                            HeaderMessageToWire<VelocityWire, VelocityValue>>;
  using SourceWriter = typename praxis::detail::topic_writer<Transport, SourceTopic>::type;
  using VelocityWriter = typename praxis::detail::topic_writer<Transport, VelocityTopic>::type;
  using RequestWriter = typename praxis::detail::topic_writer<Transport, RequestTopic>::type;
  using ConfigWriter = typename praxis::detail::topic_writer<Transport, ConfigTopic>::type;

  void make_publishers() {
    const auto& o = this->options();
    RequestTopic request;
    request.name = o.wire.topics.whole_body_request;
    request.descriptor = dds::with_type_name(&fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc, o.wire.types.whole_body_request);
    request.qos = o.wire.qos;
    requests_ = praxis::detail::topic_writer<Transport, RequestTopic>::make(this->context(), request);
    ConfigTopic config;
    config.name = o.wire.topics.motor_config;
    config.descriptor = dds::with_type_name(&fourier_msgs_msg_RobotMotorCfgGroupCmd_desc, o.wire.types.motor_config);
    config.qos = o.wire.qos;
    configs_ = praxis::detail::topic_writer<Transport, ConfigTopic>::make(this->context(), config);
    if constexpr (A == Access::locomotion) {
      SourceTopic source;
      source.name = o.wire.topics.velocity_source;
      source.descriptor = dds::with_type_name(&fourier_msgs_msg_VelocitySourceCmd_desc, o.wire.types.velocity_source);
      source.qos = o.wire.qos;
      sources_ = praxis::detail::topic_writer<Transport, SourceTopic>::make(this->context(), source);
      VelocityTopic velocity;
      velocity.name = o.wire.topics.velocity;
      velocity.descriptor = dds::with_type_name(&fourier_msgs_msg_VelocityCmd_desc, o.wire.types.velocity);
      velocity.qos = o.wire.qos;
      velocities_ = praxis::detail::topic_writer<Transport, VelocityTopic>::make(this->context(), velocity);
    }
  }

  SequenceOptions sequence_options() const {
    SequenceOptions s = this->options().sequence;
    const auto& t = this->options().wire.topics;
    s.topics = {t.aurora_state, t.stand_pose, t.whole_body_request, t.motor_config};
    return s;
  }

  GroupMask allowed_groups() const {
    return this->options().sequence.control_state == WholeBodyState::upper_body_user_cmd ? upper_body_groups<M>()
                                                                                          : k_all_groups<M>;
  }

  // Drives a sequence to its end: reads the robot's reports, sends what the sequence asks for.
  LifecycleResult run(FsmSequence& sequence) {
    auto& c = this->codec_context();
    RobotState<N> scratch{};
    sequence.start(Clock::now());
    for (;;) {
      this->read(scratch, Clock::now());  // merges aurora_state and the stand pose into the context
      Observation seen;
      if (const int s = c.whole_body.load(std::memory_order_acquire); s >= 0) seen.whole_body = static_cast<std::uint8_t>(s);
      if (const int l = c.stable_level.load(std::memory_order_relaxed); l >= 0) seen.stable_level = static_cast<std::uint8_t>(l);
      const SequenceAction a = sequence.step(seen, Clock::now());
      switch (a.kind) {
        case SequenceAction::Kind::request_state: send_request(a.state); break;
        case SequenceAction::Kind::send_motor_config: send_initial_gains(); break;
        case SequenceAction::Kind::done: return {true, lifecycle_.load(), ""};
        case SequenceAction::Kind::failed: return fail(sequence.error());
        case SequenceAction::Kind::none: break;
      }
      std::this_thread::sleep_for(this->options().poll_period);
    }
  }

  // The model's example gains for every group the control state accepts; write() sends changes
  // from there on.
  void send_initial_gains() {
    auto& c = this->codec_context();
    JointVector<N> kp, kd;
    default_gains<M>(kp, kd);
    MotorConfigValue v;
    motor_config<M>(kp, kd, allowed_groups(), v);
    configs_->write(v);
    ++motor_configs_sent_;
    c.sent_kp = kp;
    c.sent_kd = kd;
    c.gains_sent_at = Clock::now();
  }

  void send_request(WholeBodyState s) {
    requests_->write(StateRequestValue{static_cast<std::uint8_t>(s)});
    fsm_requests_sent_.fetch_add(1, std::memory_order_relaxed);
  }

  LifecycleResult fail(std::string why) {
    lifecycle_.store(LifecycleStage::failed);
    return {false, LifecycleStage::failed, std::move(why)};
  }
  static long long to_ms(Duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

  std::unique_ptr<RequestWriter> requests_;
  std::unique_ptr<ConfigWriter> configs_;
  std::unique_ptr<SourceWriter> sources_;        // Access::locomotion
  std::unique_ptr<VelocityWriter> velocities_;   // Access::locomotion
  std::unique_ptr<LocomotionHandler<M>> handler_;
  std::unique_ptr<RequestWorker<LocomotionHandler<M>>> worker_;
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<std::uint64_t> fsm_requests_sent_{0};
  std::uint64_t motor_configs_sent_ = 0;
};

}  // namespace praxis::aurora
