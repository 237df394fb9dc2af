#pragma once
// BoosterBackend<Model, Access>: a Booster T1 / K1 over Cyclone DDS. The joint-level half is the
// generic DdsBackend running BoosterTopics (rt/low_state in, rt/joint_ctrl out); the rest is
// Booster's JSON RPC (rpc.hpp), used in one of two ways:
//
//   Access::robot_modes   the robot walks, turns its head, gets up and kicks by itself; praxis'
//                         motion pipeline (MotionController) posts RobotRequests every cycle and
//                         the backend's I/O worker turns them into the booster_interface RPC
//                         schedule (request_handler.hpp): change_mode, move_robot and rotate_head at
//                         ~50 Hz, get_up, visual_kick + rt/kick_ball, LEDs. Joint commands go out
//                         only while Custom is assumed (a motion of praxis' own drives the joints),
//                         and then only for the joints it drives (the others carry weight 0): in
//                         the robot's own modes its controller has the joints, and praxis' safe
//                         state is the robot's Damping mode, asked for by RPC.
//   Access::joints        joint-level control by praxis (RobotController, USER_CTRL): acquire()
//                         asks for Prepare, lets the robot settle, then Custom, where rt/joint_ctrl
//                         drives every joint; release() asks for BackendOptions::release_mode.
//   Access::upper_body    the arms (and optionally the head) while the robot walks and balances by
//                         itself (upper_body.hpp): acquire() brings the robot to Walking and calls
//                         UpperBodyCustomControl; rt/joint_ctrl blends the arms in by weight, the
//                         legs always at weight 0; release() blends them out and stops
//                         UpperBodyCustomControl, leaving the robot walking under its controller.
//
// Both start from what the robot reports: acquire() asks GetMode (2017) and the planner starts from
// the answer (InterfaceParams::initial_mode when there is none). Both end with a mode request that is
// delivered (end_request.hpp): retried until the robot confirms it or damping_request.deadline passes,
// and release() says which — ok only when the robot confirmed. Failed mode changes in acquire() are
// retried by InterfaceParams::retry (409 and the other final refusals are not).
//
//   praxis::booster::BoosterBackend<praxis::booster::K1> robot(options);                  // modes
//   praxis::booster::BoosterBackend<praxis::booster::T1, praxis::booster::Access::joints> robot(options);
//   praxis::booster::BoosterBackend<praxis::booster::T1, praxis::booster::Access::upper_body> arms(options);
//
// read() and write() never block; RPCs run on the I/O worker and its executor (robot_modes) or in
// acquire() / release() (both), never on the control thread.

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include <praxis/idl/booster_interface.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/custom_entry.hpp"
#include "praxis/hardware/booster/end_request.hpp"
#include "praxis/hardware/booster/event_log.hpp"
#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/request_handler.hpp"
#include "praxis/hardware/booster/rpc.hpp"
#include "praxis/hardware/booster/topics.hpp"
#include "praxis/hardware/booster/upper_body.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/request_worker.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/stamped.hpp"
#include "praxis/io/reflect_save.hpp"

namespace praxis::booster {

enum class Access : std::uint8_t { robot_modes, joints, upper_body };

struct BackendOptions {
  transport::DdsOptions dds{};  // Booster robots: domain 0
  Duration link_timeout = std::chrono::milliseconds(100);
  WireOptions wire{};
  InterfaceParams interface{};  // booster_interface.json5: RPC schedule, timeouts, start-up wait
  Duration worker_period = std::chrono::milliseconds(10);  // the behaviour's tick (HULKs: 10 ms)
  Duration lifecycle_rpc_timeout = std::chrono::milliseconds(1000);  // the SDK's default per call
  // Access::joints: time in Prepare before Custom (the SDK example asks for Prepare first), and the
  // mode release() leaves the robot in. Damping: the robot ends limp, as praxis' own damping leaves
  // it; Prepare: it stands up into its prepare pose by itself.
  Duration prepare_settle = std::chrono::milliseconds(1500);
  Mode release_mode = Mode::damping;
  // Access::upper_body: which joints, how fast they blend, how the robot is brought to Walking.
  UpperBodyOptions upper_body{};
  // Access::robot_modes: where the structured log goes (nullptr: nowhere).
  std::shared_ptr<EventLog> log;
};

template <BoosterModel M, Access A>
using BoosterCommands = std::conditional_t<A == Access::upper_body, UpperBodyBlend<M>, AllJoints<M>>;

template <BoosterModel M, Access A = Access::robot_modes>
class BoosterBackend : public DdsBackend<BoosterTopics<M, BackendOptions, BoosterCommands<M, A>>> {
  using Base = DdsBackend<BoosterTopics<M, BackendOptions, BoosterCommands<M, A>>>;

 public:
  static constexpr Access access = A;
  static constexpr Capabilities capabilities =
      A == Access::robot_modes
          ? Capabilities{.modes = true, .locomotion = true, .get_up = true, .head = true, .kick = true, .leds = true}
          : Capabilities{};
  // Robot modes: praxis owns no joint, control ends with the Damping request. Joint access (Custom):
  // praxis owns every joint, control ends with joint damping, then release_mode. Upper body: as on
  // Unitree's arm SDK, praxis' damping (kp 0) already is the hand-back, since the blend turns it into
  // the arms' weight falling to 0 with the last targets held; release() finishes the blend.
  static constexpr SafeState safe_state = A == Access::robot_modes ? SafeState::mode_request : SafeState::joint_damping;
  // The joints praxis' commands reach (what its summaries count): upper body, the arms (and the head
  // when included); robot modes, none (the robot's own controller moves every joint); joints, all.
  [[nodiscard]] std::array<bool, M::joint_count> driven_joints() const
    requires(A != Access::joints)
  {
    if constexpr (A == Access::upper_body) {
      return upper_body_joints<M>(this->options().upper_body.include_head);
    } else {
      return {};
    }
  }

  // The robot: domain 0 on the interface that reaches it, commands in the space the model's poses
  // and gains were published in (models.hpp: T1 parallel, K1 serial).
  static BackendOptions robot(std::string interface) {
    BackendOptions o;
    o.dds = {0, std::move(interface)};
    o.wire.codec.space = values_in_motor_space<M>() ? MotorSpace::parallel : MotorSpace::serial;
    return o;
  }
  // praxis-fake-booster on this machine (whose default space is the model's, too).
  static BackendOptions fake_robot(std::uint32_t domain = 0) {
    BackendOptions o = robot("lo");
    o.dds = {domain, "lo"};
    return o;
  }

  // RPC channels: DDS on the backend's participant unless given (tests, another transport).
  explicit BoosterBackend(BackendOptions options, RpcChannel* loco = nullptr, RpcChannel* light = nullptr)
      : Base(std::move(options)) {
    const auto& o = this->options();
    if (loco == nullptr) {
      own_loco_ = std::make_unique<DdsRpcChannel>(this->context(), o.wire.topics.loco_channel, o.wire.types.rpc_request,
                                                  o.wire.types.rpc_response);
      loco = own_loco_.get();
    }
    if (light == nullptr && A == Access::robot_modes) {
      own_light_ = std::make_unique<DdsRpcChannel>(this->context(), o.wire.topics.light_channel,
                                                   o.wire.types.rpc_request, o.wire.types.rpc_response);
      light = own_light_.get();
    }
    loco_channel_ = loco;
    loco_ = std::make_unique<LocoClient>(*loco, o.lifecycle_rpc_timeout);
    loco_->set_gate([this] { return guard_has_robot(); });
    if constexpr (A == Access::robot_modes) {
      light_ = std::make_unique<LightClient>(*light, o.lifecycle_rpc_timeout);
      kick_ = std::make_unique<KickPublisher>(this->context(), o.wire.topics.kick_ball, o.wire.types.kick);
      // Button events are rare and each one matters: reliable, and polled every worker period.
      buttons_ = std::make_unique<transport::Subscriber<ButtonEventWire>>(
          this->context(), o.wire.topics.button_event,
          transport::with_type_name(&booster_interface_msg_dds__ButtonEventMsg__desc, o.wire.types.button_event),
          transport::TopicQos{.reliable = true, .depth = 16});
    }
  }
  ~BoosterBackend() {
    worker_.reset();  // stops the worker before the handler it serves goes
    handler_.reset();
  }
  BoosterBackend(const BoosterBackend&) = delete;
  BoosterBackend& operator=(const BoosterBackend&) = delete;

  // ---- Backend ----
  void write(const JointCommand<M::joint_count>& command, TimePoint now) {
    if constexpr (A == Access::robot_modes) {
      // A damping frame with weight 1 would take the joints from a robot standing in its own
      // Prepare or Soccer mode (before the behaviour's first command, too).
      if (assumed_.load(std::memory_order_acquire) != Mode::custom) {
        withheld_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
    Base::write(command, now);
  }
  // robot_modes: joint commands not sent because the robot's own controller had the joints.
  [[nodiscard]] std::uint64_t commands_withheld_in_robot_modes() const {
    return withheld_.load(std::memory_order_relaxed);
  }

  // Access::joints: what to send from Custom's first frame until the user's controller takes over:
  // the measured pose held with the model's Prepare gains (custom_entry.hpp), never kp 0 on a robot
  // that Prepare just stood up.
  [[nodiscard]] JointCommand<M::joint_count> entry_hold(const RobotState<M::joint_count>& state) const
    requires(A == Access::joints)
  {
    return custom_entry_hold<M>(state);
  }

  // ---- requests (robot_modes) ----
  // Before acquire() (and after release()) nothing is listening: requests are dropped.
  void post(const RobotRequests& r)
    requires(A == Access::robot_modes)
  {
    if (worker_) worker_->post(r);
  }
  // From any thread: the worker serves `mode` from now on (the runtime's send thread, on a stall).
  void post_safe_mode(RobotMode mode) noexcept
    requires(A == Access::robot_modes)
  {
    if (worker_) worker_->post_safe_mode(mode);
  }
  bool read_status(RobotStatus& out) {
    if constexpr (A == Access::robot_modes) {
      if (worker_) worker_->read_status(out);
      out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
      this->read_link(out.link);
      return true;
    } else {
      out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
      // Upper body: the robot is in its own Walking mode; praxis has lent arms.
      constexpr RobotMode in_control = A == Access::joints ? RobotMode::user : RobotMode::locomotion;
      out.assumed_mode = out.lifecycle == LifecycleStage::in_control ? in_control : RobotMode::unknown;
      out.reported_mode = out.assumed_mode;
      this->read_link(out.link);
      ++out.sequence;
      return true;
    }
  }

  // ---- praxis-guard (control/guard.hpp) ----
  static constexpr std::string_view guard_backend = A == Access::joints       ? "booster-joints"
                                                    : A == Access::robot_modes ? "booster-modes"
                                                                               : "booster-upper-body";
  [[nodiscard]] std::string guard_options() const { return io::to_json_text(this->options()); }
  // praxis-guard's flag (control/guard.hpp): once set, the worker asks the robot nothing more, and
  // no loco call leaves (each checks right before it is sent: a call a woken controller's executor
  // thread had begun goes nowhere).
  void set_request_gate(const std::atomic<std::uint8_t>* silenced) noexcept {
    guard_flag_.store(silenced, std::memory_order_release);
    if constexpr (A == Access::robot_modes) {
      if (worker_) worker_->set_silenced_flag(silenced);
    }
  }
  // The guard took the robot: the worker stops without serving anything more (no release()), and
  // no loco call leaves this backend again.
  void yield_to_guard() {
    yielded_.store(true, std::memory_order_release);
    if constexpr (A == Access::robot_modes) {
      if (worker_) worker_->stop();
    }
    lifecycle_.store(LifecycleStage::released);
  }
  // The guard's start: the controller has the robot already; a valid state, and nothing asked of the
  // robot while the guard only watches.
  LifecycleResult adopt(Duration timeout) {
    const auto& o = this->options();
    if (!this->wait_for_state(timeout).ok) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed, no_valid_sample_text("state", o.wire.topics.low_state, timeout, o.dds)};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control, "receiving " + o.wire.topics.low_state};
  }
  // The guard taking over a robot in its own modes: as acquire(), which asks GetMode (where the robot
  // is: its walking mode gets a zero Move first) and nothing else.
  // The guard taking over the arms (upper body) from a controller that died with them lent: the
  // blend resumes at weight 1 holding the measured pose (the arms stay where they are, whatever
  // weight they had), so that the guard's damping blends them back over the whole blend time; the
  // UpperBodyCustomControl the controller started is stopped by release().
  LifecycleResult guard_take(Duration timeout, RobotMode /*the controller's, not needed*/)
    requires(A != Access::joints)
  {
    if constexpr (A == Access::robot_modes) {
      return acquire(timeout);
    } else {
      const auto hold = measured_hold<M>(*this, upper_body_joints<M>(this->options().upper_body.include_head), timeout);
      if (!hold) return {false, LifecycleStage::failed, "no state to hold the arms at: the arms were not blended back"};
      this->codec_context().commands.resume(*hold, 1.0, Clock::now());
      upper_body_started_ = this->options().upper_body.call_upper_body_api;
      return {true, LifecycleStage::in_control, "the arms held where they were, at weight 1"};
    }
  }

  // ---- lifecycle ----
  LifecycleResult acquire(Duration timeout) {
    yielded_.store(false, std::memory_order_release);  // a new run: the guard of the last one is gone
    lifecycle_.store(LifecycleStage::acquiring);
    const auto& o = this->options();
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      lifecycle_.store(LifecycleStage::failed);
      std::string why = no_valid_sample_text("state", o.wire.topics.low_state, timeout, o.dds);
      if (const auto sent = this->codec_context().wire_joints.load(std::memory_order_relaxed);
          wait.invalid > 0 && sent != 0 && sent != M::joint_count) {
        why += ": the robot sends " + std::to_string(sent) + " joints in the " +
               std::string(o.wire.codec.space == MotorSpace::serial ? "serial" : "parallel") + " array, the model " +
               std::string(M::name) + " has " + std::to_string(M::joint_count) +
               ": is this robot another model (praxis_demo --robot)?";
      } else if (wait.invalid > 0) {
        why += ": " + std::to_string(wait.invalid) + " invalid ones arrived (values not finite)";
      }
      if (auto seen = this->state_near_misses("set wire.topics.* or wire.types.* (docs/backends/booster.md)");
          !seen.empty()) {
        why += "; " + seen;
      }
      return {false, LifecycleStage::failed, why};
    }
    if constexpr (A == Access::joints) {
      std::string start = start_mode_note();
      try {
        change_mode_retried(Mode::prepare);
        std::this_thread::sleep_for(o.prepare_settle);
        change_mode_retried(Mode::custom);
      } catch (const std::exception& e) {
        lifecycle_.store(LifecycleStage::failed);
        return {false, LifecycleStage::failed,
                "taking joint control (Prepare, then Custom; " + start + "): " + std::string(e.what())};
      }
      lifecycle_.store(LifecycleStage::in_control);
      return {true, LifecycleStage::in_control,
              "receiving " + o.wire.topics.low_state + "; " + start + "; robot in Custom mode (Prepare first, " +
                  std::to_string(to_ms(o.prepare_settle)) + " ms), commands on " + o.wire.topics.joint_ctrl};
    } else if constexpr (A == Access::upper_body) {
      return take_upper_body();
    } else {
      // Discovery settles before the first call (HULKs waits the SDK's start-up time, 3 s); the
      // behaviour's first command may come at once, its RPCs wait for the server to match.
      const bool server = wait_for_rpc_server(o.interface.startup_wait);
      // Start from what the robot reports, not from an assumption (HULKs assumes Damping).
      StartMode start{o.interface.initial_mode, false};
      std::string start_note;
      try {
        start.mode = loco_->get_mode(o.lifecycle_rpc_timeout);
        start.reported = true;
        start_note = "the robot reports " + std::string(to_string(start.mode));
      } catch (const std::exception& e) {
        start_note = "GetMode unanswered (" + std::string(e.what()) + "): assuming " +
                     std::string(to_string(start.mode)) + " (initial_mode)";
      }
      assumed_.store(Mode::unknown, std::memory_order_release);  // write() sends nothing before the first command
      // A fresh schedule per run: nothing is called before this run's first command.
      handler_ = std::make_unique<RequestHandler>(
          *loco_, light_.get(), [kick = kick_.get()](const KickMessage& k) { return kick->publish(k); }, o.interface,
          o.log ? o.log : std::make_shared<NoEventLog>(), /*threaded=*/true, start);
      handler_->set_fall_source(&this->codec_context().fall_state, &this->codec_context().get_ups_finished);
      handler_->set_poller([this] { log_buttons(); });
      handler_->set_mode_mirror(&assumed_);
      worker_ = std::make_unique<RequestWorker<RequestHandler>>(*handler_, o.worker_period);
      worker_->start();
      lifecycle_.store(LifecycleStage::in_control);
      return {true, LifecycleStage::in_control,
              "receiving " + o.wire.topics.low_state + "; loco service on " + o.wire.topics.loco_channel +
                  (server ? "" : " (not matched yet: its RPCs will wait and time out until it is)") + "; " +
                  start_note + " (GetMode); nothing else asked (no ChangeMode, Move or get-up) before the behaviour's first command"};
    }
  }

  // Ends control with the robot's own mode, delivered: robot modes, Damping (the handler's end
  // request, after anything queued); joint access, release_mode (the runtime sent joint damping
  // before). ok only when the robot confirmed it (or praxis never commanded its modes); the message
  // says "<mode> confirmed by the robot (...)" or "<mode> requested, not confirmed after N ms (...)".
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    const auto& o = this->options();
    std::string message;
    bool confirmed = true;
    if constexpr (A == Access::upper_body) {
      const auto r = give_back_upper_body(timeout);
      lifecycle_.store(r.stage);
      return r;
    } else if constexpr (A == Access::joints) {
      (void)timeout;
      last_end_ = deliver_mode(*loco_, o.release_mode, o.interface.damping_request);
      confirmed = last_end_.state == EndReport::State::confirmed;
      message = describe(last_end_) + (confirmed ? "; stopped sending " : "; stopped sending anyway ") +
                o.wire.topics.joint_ctrl;
    } else {
      // The run's last requests (the runtime's closing Damping) are served once more; Damping is
      // asked for again unless the robot confirmed it; then it is given the release timeout.
      if (worker_) {
        worker_->stop();
        RobotStatus status;
        (void)worker_->read_status(status);
        worker_->serve_once(Clock::now());
        handler_->end_control(status, Clock::now());
        message = handler_->shut_down(timeout);
        last_end_ = handler_->end_report();
        for (std::size_t a = 0; a < k_actions; ++a) last_counts_[a] = handler_->actions().counts(static_cast<Action>(a));
        confirmed = last_end_.state == EndReport::State::confirmed || last_end_.state == EndReport::State::none;
        worker_.reset();
        handler_.reset();
      } else {
        message = "nothing to end: no run in control";
      }
    }
    const auto stage = confirmed ? LifecycleStage::released : LifecycleStage::failed;
    lifecycle_.store(stage);
    return {confirmed, stage, message};
  }

  // What became of the last release()'s mode request.
  [[nodiscard]] const EndReport& end_report() const { return last_end_; }

  // robot_modes: what became of each action's calls in this run (during it) or the last one (after
  // release()): scheduled, sent, answered, ok, refused, ... (action_log.hpp). A rate of calls made
  // is counts(a).ok over the time, not scheduled.
  [[nodiscard]] ActionCounts call_counts(Action a) const
    requires(A == Access::robot_modes)
  {
    if (handler_) return handler_->actions().counts(a);
    return last_counts_[static_cast<std::size_t>(a)];
  }

  // ---- for tests and reports ----
  // The current run's handler (null outside acquire() .. release()).
  [[nodiscard]] RequestHandler* handler()
    requires(A == Access::robot_modes)
  {
    return handler_.get();
  }
  [[nodiscard]] LocoClient& loco() { return *loco_; }
  [[nodiscard]] std::uint64_t states_accepted() const { return Base::template states_accepted<0>(); }
  [[nodiscard]] std::uint64_t states_rejected() const { return Base::template states_rejected<0>(); }
  [[nodiscard]] std::uint64_t commands_sent() const { return Base::template commands_sent<0>(); }
  // Upper body: the arms' weight last sent (0 = the robot's controller, 1 = praxis).
  [[nodiscard]] double weight() const
    requires(A == Access::upper_body)
  {
    return this->codec_context().commands.blend().weight();
  }

 private:
  // Worker thread: one "button_input" entry per rt/button_event sample (the newest of a period;
  // how many arrived in between is counted, so a missed press shows).
  void log_buttons() {
    transport::Stamped<ButtonEventWire> e;
    if (!buttons_ || !buttons_->fetch(e)) return;
    const auto received = buttons_->received();
    const auto missed = received > buttons_logged_ + 1 ? received - buttons_logged_ - 1 : 0;
    buttons_logged_ = received;
    handler_->log().write("button_input", "{\"event\":\"booster button input\",\"button\":" +
                                              std::to_string(e.message.button) + ",\"button_event\":\"" +
                                              std::string(button_event_name(detail::enum_bits(e.message.event))) +
                                              "\",\"missed_before\":" + std::to_string(missed) + "}");
  }


  // Joint access: what the robot reports at start, for the lifecycle message.
  std::string start_mode_note() {
    try {
      return "the robot reported " + std::string(to_string(loco_->get_mode(this->options().lifecycle_rpc_timeout)));
    } catch (const std::exception& e) {
      return "GetMode unanswered (" + std::string(e.what()) + ")";
    }
  }

  // A mode change in acquire(), retried by InterfaceParams::retry when the failure may pass (no
  // answer, 100, 429, 500, 502); the last failure is thrown.
  void change_mode_retried(Mode mode) {
    const auto& o = this->options();
    Duration backoff = o.interface.retry.backoff;
    for (std::uint32_t attempt = 1;; ++attempt) {
      try {
        loco_->change_mode(mode, o.lifecycle_rpc_timeout);
        return;
      } catch (...) {
        const CallResult r = failure_of(std::current_exception());
        if (!r.retryable || attempt >= o.interface.retry.max_attempts) throw;
      }
      std::this_thread::sleep_for(backoff);
      backoff *= 2;
    }
  }
  // Access::upper_body's acquire(): the robot in Walking (from what it reports), then
  // UpperBodyCustomControl. A robot in Custom has another program on its joints: refused.
  LifecycleResult take_upper_body() {
    const auto& o = this->options();
    const auto& u = o.upper_body;
    Mode mode = Mode::unknown;
    std::string start;
    try {
      mode = loco_->get_mode(o.lifecycle_rpc_timeout);
      start = "the robot reported " + std::string(to_string(mode));
    } catch (const std::exception& e) {
      start = "GetMode unanswered (" + std::string(e.what()) + ")";
    }
    std::string path;
    try {
      if (mode == Mode::custom) {
        throw std::runtime_error("the robot is in Custom: a program has its joints; arms-only control needs the robot "
                                 "balancing itself in Walking");
      }
      if (mode != Mode::walking) {
        if (!u.enter_walking) {
          throw std::runtime_error("the robot is in " + std::string(to_string(mode)) +
                                   "; arms-only control needs it in Walking (start it walking, or set "
                                   "upper_body.enter_walking = true)");
        }
        if (mode != Mode::prepare && mode != Mode::soccer) {
          change_mode_retried(Mode::prepare);
          std::this_thread::sleep_for(o.prepare_settle);
          path = "Prepare (" + std::to_string(to_ms(o.prepare_settle)) + " ms), ";
        }
        change_mode_retried(Mode::walking);
        path += "Walking";
      }
      if (u.call_upper_body_api) {
        loco_->upper_body_custom_control(true, o.lifecycle_rpc_timeout);
        upper_body_started_ = true;
      }
    } catch (const std::exception& e) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed,
              "taking the arms (" + start + (path.empty() ? "" : "; asked for " + path) + "): " + std::string(e.what())};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "receiving " + o.wire.topics.low_state + "; " + start + (path.empty() ? "" : "; asked for " + path) +
                "; robot in Walking, its own controller keeps legs and balance; arms" +
                (u.include_head ? " and head" : "") + " on " + o.wire.topics.joint_ctrl + " blended in by weight" +
                (u.call_upper_body_api ? " (UpperBodyCustomControl started)" : "")};
  }

  // Access::upper_body's release(): the arms' weight down to 0 (one frame every 20 ms, holding the
  // last targets; the control loop has ended, this is the only writer), then UpperBodyCustomControl
  // stopped, retried like the end request. The robot keeps walking under its own controller.
  LifecycleResult give_back_upper_body(Duration timeout) {
    const auto& o = this->options();
    const auto& blend = this->codec_context().commands.blend();
    JointCommand<M::joint_count> let_go;
    let_go.mode.fill(JointMode::none);
    const auto blend_deadline = Clock::now() + timeout;
    while (blend.holding() && Clock::now() < blend_deadline) {
      this->write(let_go, Clock::now());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const bool blended = !blend.holding();
    std::string message = blended ? "arms blended back to the robot's controller (weight 0)"
                                  : "the arms' weight was still " + std::to_string(blend.weight()) + " after " +
                                        std::to_string(to_ms(timeout)) + " ms of blending out";
    bool stopped = true;
    if (upper_body_started_) {
      const auto& d = o.interface.damping_request;
      const TimePoint start = Clock::now();
      std::string last;
      std::uint32_t attempts = 0;
      for (stopped = false; !stopped;) {
        ++attempts;
        try {
          loco_->upper_body_custom_control(false, d.attempt_timeout);
          stopped = true;
        } catch (const std::exception& e) {
          last = e.what();
          if (Clock::now() + d.backoff >= start + d.deadline) break;
          std::this_thread::sleep_for(d.backoff);
        }
      }
      upper_body_started_ = !stopped;
      message += stopped ? "; UpperBodyCustomControl stopped (" + std::to_string(attempts) +
                               (attempts == 1 ? " attempt)" : " attempts)")
                         : "; UpperBodyCustomControl stop not confirmed after " + std::to_string(to_ms(d.deadline)) +
                               " ms (" + std::to_string(attempts) + " attempts; last: " + last + ")";
    }
    message += "; the robot stays in its own Walking";
    const bool ok = blended && stopped;
    return {ok, ok ? LifecycleStage::released : LifecycleStage::failed, message};
  }

  bool wait_for_rpc_server(Duration timeout) { return loco_channel_->wait_for_server(timeout); }

  // Whether praxis-guard has the robot (its flag, or it took over): the loco client's gate.
  [[nodiscard]] bool guard_has_robot() const noexcept {
    if (yielded_.load(std::memory_order_acquire)) return true;
    const auto* flag = guard_flag_.load(std::memory_order_acquire);
    return flag != nullptr && flag->load(std::memory_order_acquire) != 0;
  }

  std::atomic<const std::atomic<std::uint8_t>*> guard_flag_{nullptr};
  std::atomic<bool> yielded_{false};
  std::unique_ptr<DdsRpcChannel> own_loco_, own_light_;
  RpcChannel* loco_channel_ = nullptr;
  std::unique_ptr<LocoClient> loco_;
  std::unique_ptr<LightClient> light_;
  std::unique_ptr<KickPublisher> kick_;
  std::unique_ptr<transport::Subscriber<ButtonEventWire>> buttons_;
  std::uint64_t buttons_logged_ = 0;  // worker thread
  std::unique_ptr<RequestHandler> handler_;
  std::unique_ptr<RequestWorker<RequestHandler>> worker_;
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<Mode> assumed_{Mode::damping};  // robot_modes: the handler's assumed mode, for write()
  std::atomic<std::uint64_t> withheld_{0};
  bool upper_body_started_ = false;  // upper_body: UpperBodyCustomControl started and not yet stopped
  EndReport last_end_{};
  std::array<ActionCounts, k_actions> last_counts_{};
};

}  // namespace praxis::booster

// The options by field name, so that every user of the backend can hand them on (praxis-guard).
#include "praxis/hardware/booster/options_params.hpp"
