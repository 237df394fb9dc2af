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
// robot_motor_cfg_group_cmd when they change, at most every WireOptions::gain_period; release()
// sends no gains at all, so a hand-back never takes the stiffness off the legs). read() and write()
// never block. Commands leave only between a successful acquire() and release(), and only while a
// recent aurora_state (within link_timeout) reports the state acquire() established: a robot that
// restarted (back in Default) or went silent gets nothing, write() counts what it withheld and
// read_status() reports the loss (lifecycle failed, link down without aurora_state) for the runtime.
// acquire() and release() believe only reports that arrived after their own requests.
//
// Stand pose: acquire() records the joint positions measured in the stable PdStand just before it
// asks for UserCmd (arms-only control in PdStand: once the stand is stable); stand_pose() returns that pose (BackendOptions::stand_pose = measured, the
// default) or the model's stand_pose (model), for the motion layer's Stand to hold instead of
// straightening the knees PdStand bent.
//
// Two ways in, like Booster's backend:
//   Access::joints       (default) joint control as above: UserCmd / UpperBodyUserCmd.
//   Access::locomotion   the robot walks by itself (state 3); the cycle posts RobotRequests and an I/O
//                        worker (locomotion.hpp) sends the FSM requests, the velocity source and
//                        velocity_cmd; joint commands are never sent.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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
#include "praxis/io/reflect_save.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::aurora {

inline constexpr std::uint32_t k_default_domain = 123;  // Aurora's config.yaml DomainID

enum class Access : std::uint8_t { joints, locomotion };

// Which pose Stand should hold on this robot (AuroraBackend::stand_pose()).
enum class StandPoseSource : std::uint8_t { measured, model };

struct BackendOptions {
  transport::DdsOptions dds{k_default_domain, ""};
  // State topics run at 500 Hz. Also how recent aurora_state must be for praxis to count itself in
  // control, and how old a report acquire() / release() still believe.
  Duration link_timeout = std::chrono::milliseconds(100);
  WireOptions wire{};
  SequenceOptions sequence{};  // its topic names are taken from `wire` by the backend
  Duration poll_period = std::chrono::milliseconds(2);  // acquire() / release() look this often
  // Access::locomotion: the worker's period (Aurora's RL runs at 50 Hz).
  Duration worker_period = std::chrono::milliseconds(20);
  StandPoseSource stand_pose = StandPoseSource::measured;
};

template <AuroraModel M, Access A = Access::joints, class Transport = transport::DdsTransport>
class AuroraBackend : public DdsBackend<AuroraTopics<M, BackendOptions>, Transport> {
  using Topics = AuroraTopics<M, BackendOptions>;
  using Base = DdsBackend<Topics, Transport>;
  static constexpr std::size_t N = M::joint_count;

 public:
  static constexpr Access access = A;
  static constexpr Capabilities capabilities =
      A == Access::locomotion ? Capabilities{.modes = true, .locomotion = true} : Capabilities{};
  // The robot balances itself: control ends by holding the measured pose with the gains in force
  // while release() asks for PdStand (never kp 0 on the legs). Walking too ends by release(): the
  // velocity source back to the joystick, then PdStand from state 3. (A mode request would be
  // "damping", which Aurora maps to SecurityProtection: damping 2 s, then zero torque, a standing
  // robot falls.)
  static constexpr SafeState safe_state = SafeState::hand_back;
  // What a fault or the end of control asks the walking robot for: PdStand (its damping mode would
  // drop it, above).
  static constexpr RobotMode safe_mode = RobotMode::prepare;
  // The joints praxis' commands reach (what its summaries count): in PdStand and UpperBodyUserCmd
  // every group but the legs, which the robot's own control keeps.
  [[nodiscard]] std::array<bool, N> driven_joints() const
    requires(A == Access::joints)
  {
    std::array<bool, N> driven{};
    const GroupMask allowed = allowed_groups();
    for (std::size_t g = 0; g < M::groups.size(); ++g) {
      if ((allowed & (GroupMask{1} << g)) == 0) continue;
      for (std::size_t k = 0; k < M::groups[g].count; ++k) driven[M::groups[g].first + k] = true;
    }
    return driven;
  }
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
    requires std::is_same_v<Transport, transport::DdsTransport>
      : Base(with_wire_names(std::move(options))) {
    make_publishers();
  }
  AuroraBackend(typename Transport::Context& transport, BackendOptions options)
      : Base(transport, with_wire_names(std::move(options))) {
    make_publishers();
  }
  ~AuroraBackend() { worker_.reset(); }
  AuroraBackend(const AuroraBackend&) = delete;
  AuroraBackend& operator=(const AuroraBackend&) = delete;

  // The options with the wire's names resolved (naming style, prefix): what the topics use.
  static BackendOptions with_wire_names(BackendOptions o) {
    o.wire = resolved_names(std::move(o.wire));
    return o;
  }

  // ---- requests (Access::locomotion) ----
  // Before acquire() (and after release()) nothing is listening: requests are dropped.
  void post(const RobotRequests& r)
    requires(A == Access::locomotion)
  {
    if (worker_) worker_->post(r);
  }
  // From any thread: the worker serves `mode` from now on (the runtime's send thread, on a stall).
  void post_safe_mode(RobotMode mode) noexcept
    requires(A == Access::locomotion)
  {
    if (worker_) worker_->post_safe_mode(mode);
  }
  [[nodiscard]] const LocomotionHandler<M>* locomotion() const { return handler_.get(); }

  // ---- lifecycle ----

  // Waits up to `timeout` for a valid robot_control_group_state, then runs the take-control
  // sequence (each step with its own timeout, BackendOptions::sequence).
  LifecycleResult acquire(Duration timeout) {
    lifecycle_.store(LifecycleStage::acquiring);
    auto& c = this->codec_context();
    c.control_state.store(Topics::k_not_in_control, std::memory_order_release);
    have_stand_pose_ = false;
    const auto& o = this->options();
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      std::string why = no_valid_sample_text("state", o.wire.topics.group_state, timeout, o.dds);
      if (wait.invalid > 0) {
        why += ": " + std::to_string(wait.invalid) + " invalid ones arrived, the last: " +
               describe<M>(last_state_fault(), o.wire.topics.group_state);
      }
      if (auto seen = this->state_near_misses("set wire.topic_prefix, wire.topics.*, wire.naming or wire.types.* "
                                              "(docs/backends/aurora.md)");
          !seen.empty()) {
        why += "; " + seen;
      }
      return fail(std::move(why));
    }
    if constexpr (A == Access::locomotion) {
      WalkingOptions walking;
      walking.resend_period = o.sequence.resend_period;
      walking.sample_timeout = o.link_timeout;
      walking.stable_threshold = o.sequence.stable_threshold;
      walking.state_timeout = std::max(o.sequence.pd_stand_timeout, o.sequence.control_state_timeout);
      walking.stable_timeout = o.sequence.stable_timeout;
      handler_ = std::make_unique<LocomotionHandler<M>>(
          [this] { return report(); },
          LocomotionSink{[this](WholeBodyState s) {
                           if (!guard_silenced()) send_request(s);
                         },
                         [this](VelocitySource s) {
                           if (!guard_silenced()) send_source(s);
                         },
                         [this](const VelocityValue& v) {
                           if (!guard_silenced()) velocities_->write(v);
                         }},
          walking);
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
    if (o.sequence.control_state == WholeBodyState::pd_stand) {
      return {true, LifecycleStage::in_control,
              "robot standing stable in PdStand (2), its own control keeps the legs; commands for waist, head and "
              "arms only on " + o.wire.topics.group_command + " (PdStand's gains: no PD configuration there)"};
    }
    return {true, LifecycleStage::in_control,
            "robot in " + FsmSequence::state_name(static_cast<std::uint8_t>(o.sequence.control_state)) +
                ", PD configuration sent on " + o.wire.topics.motor_config + "; commands on " +
                o.wire.topics.group_command};
  }

  // Stops the commands, then hands back what praxis holds, judged by a recent aurora_state:
  // joints: BackendOptions::sequence.release_state requested from the control state only (a robot
  // already there needs nothing; a robot elsewhere was lost before and is not moved); walking: the
  // velocity source back to the joystick, then the release state from state 3 only. Each wait lasts
  // `timeout` or sequence.release_timeout, whichever is shorter. Sends no gains.
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    this->codec_context().control_state.store(Topics::k_not_in_control, std::memory_order_release);
    if (worker_) worker_->stop();  // no walking request after this point
    worker_.reset();
    auto options = sequence_options();
    if (timeout > Duration::zero() && timeout < options.release_timeout) options.release_timeout = timeout;
    auto sequence = A == Access::locomotion ? FsmSequence::release_walking(options) : FsmSequence::release(options);
    if (auto r = run(sequence); !r.ok) return r;
    const auto& t = this->options().wire.topics;
    std::string message =
        sequence.note().empty()
            ? "robot in " + FsmSequence::state_name(static_cast<std::uint8_t>(options.release_state))
            : sequence.note();
    message += A == Access::locomotion ? "; velocity source handed back to the joystick"
                                       : "; stopped sending " + t.group_command;
    if (!sequence.incomplete().empty()) return fail(message + "; but " + sequence.incomplete());
    lifecycle_.store(LifecycleStage::released);
    return {true, LifecycleStage::released, std::move(message)};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  // The guard builds this backend again from these options, told to send no gains: the ones in
  // force when the controller went stay in force.
  static constexpr std::string_view guard_backend = A == Access::joints ? "aurora" : "aurora-walking";
  // Only over DDS: a robot in this process (a loopback transport) is out of the guard's reach.
  [[nodiscard]] std::string guard_options() const
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    BackendOptions o = this->options();
    o.wire.follow_command_gains = false;
    return io::to_json_text(o);
  }
  // The guard's start: the controller took the robot already, so nothing is asked of it (no FSM
  // request, no PD configuration). Joints: the guard's commands leave, as the controller's did, only
  // while a recent aurora_state reports the state the controller holds. Walking: as acquire(), whose
  // worker sends nothing before a request.
  LifecycleResult adopt(Duration timeout) {
    if constexpr (A == Access::locomotion) {
      return acquire(timeout);
    } else {
      const auto& o = this->options();
      if (!this->wait_for_state(timeout).ok) {
        return fail(no_valid_sample_text("state", o.wire.topics.group_state, timeout, o.dds));
      }
      auto& c = this->codec_context();
      c.allowed_groups.store(allowed_groups(), std::memory_order_relaxed);
      c.control_state.store(static_cast<int>(o.sequence.control_state), std::memory_order_release);
      lifecycle_.store(LifecycleStage::in_control);
      return {true, LifecycleStage::in_control,
              "receiving " + o.wire.topics.group_state + "; the controller holds the robot in " +
                  FsmSequence::state_name(static_cast<std::uint8_t>(o.sequence.control_state))};
    }
  }
  // Walking: praxis-guard's flag; once set, the worker asks the robot nothing more (checked by every
  // write of the worker's too, so that a period begun before the controller stopped sends nothing).
  void set_request_gate(const std::atomic<std::uint8_t>* silenced) noexcept
    requires(A == Access::locomotion)
  {
    if (worker_) worker_->set_silenced_flag(silenced);
  }
  // The guard took the robot: the worker stops without serving anything more (no release()).
  void yield_to_guard()
    requires(A == Access::locomotion)
  {
    if (worker_) worker_->stop();
    lifecycle_.store(LifecycleStage::released);
  }

  // ---- status ----

  // Never blocks or allocates (the cycle calls it). While praxis should hold the robot, a missing or
  // disagreeing aurora_state is reported at once: lifecycle failed and the link down (the runtime's
  // safety ends the run on a lost link: control lost), control_loss() says why.
  bool read_status(RobotStatus& out) {
    const auto now = Clock::now();
    const auto& c = this->codec_context();
    const bool fsm_fresh = c.fsm_fresh(now);
    if constexpr (A == Access::locomotion) {
      if (worker_) worker_->read_status(out);  // the worker's view of requests and modes
      out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    } else {
      const auto stage = lifecycle_.load(std::memory_order_relaxed);
      // What praxis holds the robot in: UserCmd, or PdStand for the arms only (then the robot's
      // report of PdStand agrees).
      out.assumed_mode = stage == LifecycleStage::in_control
                             ? robot_mode_of(static_cast<int>(this->options().sequence.control_state))
                             : RobotMode::unknown;
      out.lifecycle = stage == LifecycleStage::in_control && !c.in_control(now) ? LifecycleStage::failed : stage;
      ++out.sequence;
    }
    out.reported_mode = fsm_fresh ? robot_mode_of(c.whole_body.load(std::memory_order_acquire)) : RobotMode::unknown;
    this->read_link(out.link);
    if (lifecycle_.load(std::memory_order_relaxed) == LifecycleStage::in_control) {
      const bool holding = A == Access::locomotion ? fsm_fresh : c.in_control(now);
      out.link.connected = out.link.connected && holding;
    }
    return true;
  }

  // Joint access: praxis holds the robot now (acquired, not released, and a recent aurora_state
  // reports the control state).
  [[nodiscard]] bool in_control() const {
    return lifecycle_.load(std::memory_order_relaxed) == LifecycleStage::in_control &&
           this->codec_context().in_control(Clock::now());
  }
  // Why praxis does not hold the robot, in words ("no aurora_state for 1.2 s (the last one reported
  // UserCmd (10))"); empty while it does. Allocates: for messages outside the cycle.
  [[nodiscard]] std::string control_loss() const {
    if (lifecycle_.load(std::memory_order_relaxed) != LifecycleStage::in_control || in_control()) return {};
    const auto& c = this->codec_context();
    const auto now = Clock::now();
    const auto& t = this->options().wire.topics;
    const auto at = c.fsm_at();
    const int state = c.whole_body.load(std::memory_order_acquire);
    if (!at) return "no sample on " + t.aurora_state + " at all";
    const std::string last = FsmSequence::state_name(static_cast<std::uint8_t>(state));
    if (!c.fsm_fresh(now)) {
      return "no " + t.aurora_state + " for " + FsmSequence::seconds_text(now - *at) + " (the last one reported " +
             last + ")";
    }
    return t.aurora_state + " reports " + last + " where praxis held " +
           FsmSequence::state_name(static_cast<std::uint8_t>(c.control_state.load(std::memory_order_relaxed))) +
           " (the robot restarted, or its joystick or its own safety took over)";
  }

  // ---- the stand pose ----

  // The joint positions measured at take-control, in the stable PdStand just before UserCmd was
  // requested (nullopt before a successful take-control).
  [[nodiscard]] std::optional<std::array<double, N>> measured_stand_pose() const {
    if (!have_stand_pose_) return std::nullopt;
    return stand_pose_;
  }
  // The pose Stand should hold: the measured one (BackendOptions::stand_pose = measured, when there
  // is one) or the model's stand_pose.
  [[nodiscard]] std::array<double, N> stand_pose() const {
    if (this->options().stand_pose == StandPoseSource::measured && have_stand_pose_) return stand_pose_;
    return M::stand_pose;
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
  // Of those, withheld because no aurora_state arrived within link_timeout.
  [[nodiscard]] std::uint64_t commands_without_fresh_state() const {
    return this->codec_context().without_fresh_state.load();
  }
  [[nodiscard]] std::uint64_t source_requests_sent() const { return source_requests_sent_.load(); }
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
    request.descriptor = transport::with_type_name(&fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc, o.wire.types.whole_body_request);
    request.qos = o.wire.qos;
    requests_ = praxis::detail::topic_writer<Transport, RequestTopic>::make(this->context(), request);
    ConfigTopic config;
    config.name = o.wire.topics.motor_config;
    config.descriptor = transport::with_type_name(&fourier_msgs_msg_RobotMotorCfgGroupCmd_desc, o.wire.types.motor_config);
    config.qos = o.wire.qos;
    configs_ = praxis::detail::topic_writer<Transport, ConfigTopic>::make(this->context(), config);
    if constexpr (A == Access::locomotion) {
      SourceTopic source;
      source.name = o.wire.topics.velocity_source;
      source.descriptor = transport::with_type_name(&fourier_msgs_msg_VelocitySourceCmd_desc, o.wire.types.velocity_source);
      source.qos = o.wire.qos;
      sources_ = praxis::detail::topic_writer<Transport, SourceTopic>::make(this->context(), source);
      VelocityTopic velocity;
      velocity.name = o.wire.topics.velocity;
      velocity.descriptor = transport::with_type_name(&fourier_msgs_msg_VelocityCmd_desc, o.wire.types.velocity);
      velocity.qos = o.wire.qos;
      velocities_ = praxis::detail::topic_writer<Transport, VelocityTopic>::make(this->context(), velocity);
    }
  }

  SequenceOptions sequence_options() const {
    SequenceOptions s = this->options().sequence;
    const auto& t = this->options().wire.topics;
    s.topics = {t.aurora_state, t.stand_pose, t.whole_body_request, t.motor_config, t.velocity_source};
    s.sample_timeout = this->options().link_timeout;
    if constexpr (A == Access::locomotion) s.control_state = k_locomotion_state;
    return s;
  }

  // What the robot reported, with arrival times (any thread).
  FsmReport report() const {
    const auto& c = this->codec_context();
    FsmReport r;
    if (const auto at = c.fsm_at()) {
      r.whole_body = c.whole_body.load(std::memory_order_relaxed);
      r.velocity_source = c.velocity_source.load(std::memory_order_relaxed);
      r.whole_body_at = *at;
    }
    if (const auto at = c.stand_at()) {
      r.stable_level = c.stable_level.load(std::memory_order_relaxed);
      r.stable_level_at = *at;
    }
    return r;
  }

  GroupMask allowed_groups() const {
    const auto state = this->options().sequence.control_state;
    return state == WholeBodyState::upper_body_user_cmd || state == WholeBodyState::pd_stand ? upper_body_groups<M>()
                                                                                             : k_all_groups<M>;
  }

  // Drives a sequence to its end: reads the robot's reports, sends what the sequence asks for.
  LifecycleResult run(FsmSequence& sequence) {
    RobotState<N> scratch{};
    sequence.start(Clock::now());
    bool measured = false;
    for (;;) {
      // Merges aurora_state and the stand pose into the context; keeps the newest measured state.
      measured = this->read(scratch, Clock::now()) || measured;
      const FsmReport r = report();
      Observation seen;
      if (r.whole_body >= 0) {
        seen.whole_body = static_cast<std::uint8_t>(r.whole_body);
        seen.velocity_source = static_cast<std::uint8_t>(r.velocity_source);
        seen.whole_body_at = r.whole_body_at;
      }
      if (r.stable_level >= 0) {
        seen.stable_level = static_cast<std::uint8_t>(r.stable_level);
        seen.stable_level_at = r.stable_level_at;
      }
      const SequenceAction a = sequence.step(seen, Clock::now());
      const auto record_stand_pose = [&] {
        for (std::size_t j = 0; j < N; ++j) stand_pose_[j] = scratch.q[static_cast<Eigen::Index>(j)];
        have_stand_pose_ = true;
      };
      // Arms only in PdStand: the control state is the stable stand itself, so its pose is the one
      // measured when the sequence ends, not the one before PdStand was first requested.
      const bool stand_is_control = this->options().sequence.control_state == WholeBodyState::pd_stand;
      switch (a.kind) {
        case SequenceAction::Kind::request_state:
          // The pose the robot stands in, just before it is asked for the control state.
          if (a.state == this->options().sequence.control_state && !stand_is_control && !have_stand_pose_ &&
              measured) {
            record_stand_pose();
          }
          send_request(a.state);
          break;
        case SequenceAction::Kind::send_motor_config: send_initial_gains(); break;
        case SequenceAction::Kind::request_source: send_source(a.source); break;
        case SequenceAction::Kind::done:
          if (stand_is_control && !have_stand_pose_ && measured &&
              lifecycle_.load() == LifecycleStage::acquiring) {
            record_stand_pose();
          }
          return {true, lifecycle_.load(), ""};
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
  void send_source(VelocitySource s) {
    if constexpr (A == Access::locomotion) {
      sources_->write(StateRequestValue{static_cast<std::uint8_t>(s)});
      source_requests_sent_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  // praxis-guard took the robot from this process (control/guard.hpp): the worker sends nothing.
  [[nodiscard]] bool guard_silenced() const noexcept { return worker_ && worker_->silenced(); }

  LifecycleResult fail(std::string why) {
    lifecycle_.store(LifecycleStage::failed);
    return {false, LifecycleStage::failed, std::move(why)};
  }

  std::unique_ptr<RequestWriter> requests_;
  std::unique_ptr<ConfigWriter> configs_;
  std::unique_ptr<SourceWriter> sources_;        // Access::locomotion
  std::unique_ptr<VelocityWriter> velocities_;   // Access::locomotion
  std::unique_ptr<LocomotionHandler<M>> handler_;
  std::unique_ptr<RequestWorker<LocomotionHandler<M>>> worker_;
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<std::uint64_t> fsm_requests_sent_{0};
  std::atomic<std::uint64_t> source_requests_sent_{0};
  std::uint64_t motor_configs_sent_ = 0;
  std::array<double, N> stand_pose_{};  // written by acquire() only
  bool have_stand_pose_ = false;
};

}  // namespace praxis::aurora

// The options by field name, so that every user of the backend can hand them on (praxis-guard).
#include "praxis/hardware/aurora/options_params.hpp"
