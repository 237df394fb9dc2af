#pragma once
// SportBackend<Model>: a Go2, G1 or H1-2 that stands and walks by itself (its motion service), for
// praxis' motion pipeline (MotionController): the cycle posts RobotRequests, the backend's I/O worker
// turns them into the robot's calls (sport.hpp: the Go2's SportClient, the G1's LocoClient, the H1
// LocoClient for the H1-2, UNVERIFIED). praxis owns no joint: rt/lowstate comes in (the cycle's
// state, the remote, the link), nothing is ever written to rt/lowcmd, and the robot's safe state is
// its own, asked for by RPC: a Go2 is stopped, laid down (StandDown) and damped (Damp); a humanoid
// (G1, H1-2) is stopped and keeps balancing under its own controller (damping a standing humanoid
// drops it).
//
//   praxis::unitree::SportBackend<praxis::unitree::Go2> robot(praxis::unitree::SportBackend<Go2>::robot("eth0"));
//   praxis::control::MotionController<decltype(robot), MyBehaviour> controller(robot, library);
//
// acquire() waits for a valid state and checks with the motion switcher that a motion service runs
// (the robot's locomotion is on; praxis never switches it on: a robot whose service starts goes
// limp first). release() serves the damping wish until the robot settled (Go2: Damp confirmed;
// G1, H1-2: not walking) or the timeout.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/request_worker.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/g1_23.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/hardware/unitree/h1_2.hpp"
#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/sport.hpp"
#include "praxis/transport/rpc.hpp"
#include "praxis/io/reflect_save.hpp"

namespace praxis::unitree {

template <UnitreeModel M>
class SportBackend : public DdsBackend<UnitreeTopics<M>> {
  using Base = DdsBackend<UnitreeTopics<M>>;
  static constexpr bool k_h1 = std::is_same_v<M, H1_2>;
  static constexpr bool k_humanoid = std::is_same_v<M, G1> || std::is_same_v<M, G1_23> || k_h1;
  static_assert(std::is_same_v<M, Go2> || k_humanoid,
                "praxis::unitree::SportBackend speaks the Go2's SportClient, the G1's LocoClient and the H1 "
                "LocoClient (H1-2); this model has no motion service table");

 public:
  // The G1's client documents no get-up.
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true, .get_up = !k_humanoid};
  static constexpr SafeState safe_state = SafeState::mode_request;  // Go2: StandDown, Damp; G1, H1-2: stop, balance

  // The calls of this robot's motion service (sport.hpp).
  static SportApi default_api() {
    if constexpr (k_h1) {
      return h1_loco_api();
    } else if constexpr (k_humanoid) {
      return g1_loco_api();
    } else {
      return go2_sport_api();
    }
  }
  // Its name (rt/api/<name>/request|response) when SportOptions::service is empty: the Go2's sport
  // service and the G1's LocoClient (current SDK) "sport", the H1 LocoClient "loco" (the H1-2:
  // UNVERIFIED; SportOptions::service says otherwise).
  static std::string default_service() { return k_h1 ? h1_loco::k_service : sport::k_service; }

  static BackendOptions robot(std::string interface) { return UnitreeBackend<M>::robot(std::move(interface)); }
  // praxis-fake-robot on this machine (started with --sport-mode normal --sport-posture ...).
  static BackendOptions fake_robot(std::uint32_t domain = 1) {
    BackendOptions o;
    o.dds = {domain, "lo"};
    return o;
  }

  explicit SportBackend(BackendOptions options, SportOptions sport = {}, SportApi api = default_api(),
                        Duration worker_period = std::chrono::milliseconds(10))
      : Base(std::move(options)),
        client_(make_client(this->context(), resolve(sport))),
        handler_(
            [this, c = client_.get()](const ApiCall& call, Duration timeout) {
              // praxis-guard took the robot while this period was under way: nothing more is asked.
              if (worker_.silenced()) throw transport::RpcUnanswered("not sent: praxis-guard has the robot");
              return c->call(call, timeout);
            },
            std::move(sport), std::move(api)),
        worker_(handler_, worker_period) {}
  ~SportBackend() { worker_.stop(); }
  SportBackend(const SportBackend&) = delete;
  SportBackend& operator=(const SportBackend&) = delete;

  // The robot's own controller has every joint: nothing is sent (counted).
  void write(const JointCommand<M::joint_count>&, TimePoint) { withheld_.fetch_add(1, std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t commands_withheld() const { return withheld_.load(std::memory_order_relaxed); }

  void post(const RobotRequests& r) {
    if (lifecycle_.load(std::memory_order_relaxed) == LifecycleStage::in_control) {
      worker_.post(r);
      posted_.store(true, std::memory_order_relaxed);
    }
  }
  // From any thread: the worker serves `mode` from now on (the runtime's send thread, on a stall).
  void post_safe_mode(RobotMode mode) noexcept { worker_.post_safe_mode(mode); }
  bool read_status(RobotStatus& out) {
    (void)worker_.read_status(out);
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    this->read_link(out.link);
    // The robot out of reach may come back restarted: the handler forgets the posture it knew.
    if (link_was_up_ && !out.link.connected) handler_.link_lost();
    link_was_up_ = out.link.connected;
    return true;
  }

  LifecycleResult acquire(Duration timeout) {
    lifecycle_.store(LifecycleStage::acquiring);
    posted_.store(false, std::memory_order_relaxed);  // this run's requests only
    const auto& o = this->options();
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      lifecycle_.store(LifecycleStage::failed);
      std::string why = no_valid_sample_text("state", o.lowstate_topic, timeout, o.dds);
      if (auto seen = this->state_near_misses("set lowstate_topic to the robot's name"); !seen.empty()) why += "; " + seen;
      return {false, LifecycleStage::failed, why};
    }
    std::string service;
    try {
      transport::RpcClient<UnitreeApiTraits> switcher(this->context(), api_request_topic(motion_switcher::k_service),
                                                api_response_topic(motion_switcher::k_service));
      const auto check = switcher.call({motion_switcher::k_check_mode, "{}"}, o.release.call_timeout);
      if (check.code != 0) throw transport::RpcError("CheckMode answered with code " + std::to_string(check.code));
      service = mode_name_from(check.data);
    } catch (const std::exception& e) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed, std::string("motion switcher: ") + e.what()};
    }
    if (service.empty()) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed,
              "no motion service is active: the robot's own locomotion is off (low-level control released it); "
              "select it in the Unitree app (praxis does not: a robot whose service starts goes limp first)"};
    }
    worker_.start();
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "receiving " + o.lowstate_topic + "; motion service \"" + service + "\" active; " +
                handler_.api().name + " calls on " +
                api_request_topic(handler_.options().service) + "; nothing written to " + o.lowcmd_topic +
                "; no call before the behaviour's first command"};
  }

  // The run's closing damping request served until the robot settled, or `timeout`: a Go2 confirmed
  // Damp (StandDown first when it stands), a G1 or H1-2 is not walking. ok only when it did. A run that
  // never called the motion service (the behaviour sent no command) leaves the robot as it was.
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    worker_.stop();
    if (handler_.calls() == 0 && !posted_.load(std::memory_order_relaxed)) {
      lifecycle_.store(LifecycleStage::released);
      return {true, LifecycleStage::released, "no sport call in this run: the robot left as it was"};
    }
    RobotRequests damping;
    damping.any = true;
    damping.mode = RobotMode::damping;
    worker_.post(damping);
    const auto deadline = Clock::now() + timeout;
    while (!handler_.settled() && Clock::now() < deadline) {
      worker_.serve_once(Clock::now());
      if (!handler_.settled()) std::this_thread::sleep_for(worker_.period());
    }
    const bool ok = handler_.settled();
    lifecycle_.store(ok ? LifecycleStage::released : LifecycleStage::failed);
    const std::string ended = k_humanoid ? "stopped, balancing under its own controller" : "Damp";
    std::string message = ok ? (k_humanoid ? "the robot " + std::string(to_string(handler_.posture())) +
                                                 " under its own controller (never damped by praxis: a standing "
                                                 "humanoid would drop)"
                                           : "Damp confirmed by the robot (its sport service answered)")
                             : ended + " not confirmed after " +
                                   std::to_string(to_ms(timeout)) +
                                   " ms (the robot is " + std::string(to_string(handler_.posture())) + ")";
    return {ok, ok ? LifecycleStage::released : LifecycleStage::failed,
            message + "; its motion service keeps running; nothing was written to " + this->options().lowcmd_topic};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  // Its options: {"backend": BackendOptions, "sport": SportOptions}; the calls' table is the model's
  // default (a SportApi of your own is not handed on).
  static constexpr std::string_view guard_backend = "unitree-sport";
  [[nodiscard]] std::string guard_options() const {
    return "{\"backend\":" + io::to_json_text(this->options()) + ",\"sport\":" + io::to_json_text(handler_.options()) +
           "}";
  }
  // praxis-guard's flag (control/guard.hpp): once set, the worker asks the robot nothing more.
  void set_request_gate(const std::atomic<std::uint8_t>* silenced) noexcept { worker_.set_silenced_flag(silenced); }
  // The guard took the robot: the worker stops without serving anything more (no release()).
  void yield_to_guard() {
    worker_.stop();
    lifecycle_.store(LifecycleStage::released);
  }
  // The guard's start: a valid state, nothing asked (no CheckMode while it only watches).
  LifecycleResult adopt(Duration timeout) {
    const auto& o = this->options();
    if (!this->wait_for_state(timeout).ok) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed, no_valid_sample_text("state", o.lowstate_topic, timeout, o.dds)};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control, "receiving " + o.lowstate_topic};
  }
  // Taking over: the robot is where the controller last assumed it (walking: StopMove is asked
  // first, a no-op for a robot already balancing), and the worker starts.
  LifecycleResult guard_take(Duration, RobotMode controller_assumed) {
    switch (controller_assumed) {
      case RobotMode::locomotion: handler_.assume_posture(SportPosture::walking); break;
      case RobotMode::prepare: handler_.assume_posture(SportPosture::standing); break;
      case RobotMode::damping: handler_.assume_posture(SportPosture::damped); break;
      default: break;  // unknown: StandDown, Damp when refused
    }
    worker_.start();
    return {true, LifecycleStage::in_control, "taken over"};
  }

  [[nodiscard]] const SportHandler& sport() const { return handler_; }
  [[nodiscard]] std::uint64_t states_accepted() const { return Base::template states_accepted<0>(); }

 private:
  // The service's name filled in: the robot's own when empty.
  static const std::string& resolve(SportOptions& o) {
    if (o.service.empty()) o.service = default_service();
    return o.service;
  }
  static std::unique_ptr<transport::RpcClient<UnitreeApiTraits>> make_client(const transport::Participant& participant,
                                                                      const std::string& service) {
    return std::make_unique<transport::RpcClient<UnitreeApiTraits>>(participant, api_request_topic(service),
                                                              api_response_topic(service));
  }

  std::unique_ptr<transport::RpcClient<UnitreeApiTraits>> client_;
  SportHandler handler_;
  RequestWorker<SportHandler> worker_;
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<std::uint64_t> withheld_{0};
  bool link_was_up_ = false;  // read_status()'s side
  std::atomic<bool> posted_{false};  // anything asked in this backend's life (release() serves it)
};

}  // namespace praxis::unitree
