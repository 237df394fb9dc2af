#pragma once
// UnitreeBackend<Model>: a Unitree robot (Go2, G1, G1-23, H1-2) over Cyclone DDS, byte-compatible
// with the vendor SDK: the generic DdsBackend (hardware/dds_backend.hpp) running UnitreeTopics<Model>
// (rt/lowstate in, rt/lowcmd out, the hg mode_machine echo), plus Unitree's way of taking control.
// read() and write() never block.
//
//   auto options = praxis::unitree::UnitreeBackend<praxis::unitree::G1>::robot("eth0");  // domain 0
//   auto options = praxis::unitree::UnitreeBackend<praxis::unitree::G1>::simulator();    // domain 1, lo
//   praxis::unitree::UnitreeBackend<praxis::unitree::G1> robot(options);
//
// Taking control is the backend's lifecycle, which the runtime runs before the first command:
// acquire() releases the robot's own motion service through the motion switcher (CheckMode /
// ReleaseMode) and waits for a first valid state. release() hands nothing back: the robot's motion
// service stays off until selected again (the vendor's app or the switcher's SelectMode), which is
// what the vendor's low-level examples leave behind too. A robot that restarts during the run (its
// LowState tick goes back) boots with its motion service on: nothing more is sent to it
// (BackendOptions::detect_restart).

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/io/reflect_save.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/loopback.hpp"

namespace praxis::unitree {

struct BackendOptions {
  transport::DdsOptions dds{};
  bool release_motion_service = true;  // acquire(): release the robot's motion service first
  // A robot runs the motion switcher; Unitree's simulators run none (and the vendor's examples carry
  // on when CheckMode gets no answer). false: a switcher that does not answer is a logged notice.
  bool motion_switcher_required = true;
  // LowState CRC checked (frames failing it are dropped and counted). Unitree's Python simulator
  // bridge sends crc = 0: set false for it, never for a robot.
  bool check_state_crc = true;
  ReleaseOptions release{};
  Duration link_timeout = std::chrono::milliseconds(100);  // no state this long: link reported down
  std::string lowcmd_topic = "rt/lowcmd";
  std::string lowstate_topic = "rt/lowstate";
  transport::TopicQos qos{};  // the vendor's QoS is unverified: Cyclone's defaults, as its Python SDK gets
  std::uint8_t mode_pr = 0;                  // hg: 0 = PR, 1 = AB
  std::optional<std::uint8_t> mode_machine;  // hg: unset = echo the robot's LowState.mode_machine
  // A LowState whose tick went back means the robot restarted (UNVERIFIED that a rebooted robot's
  // tick starts over: it counts from its controller's start in every simulator and in the fake). A
  // robot that runs a motion switcher boots with its motion service on, so praxis sends it nothing
  // more in this run: its link reads down, control is lost, and a new run takes it again. Against
  // a simulator (no switcher answered) a restart changes nothing. false: never look at the tick.
  bool detect_restart = true;
};

// The vendor part of a Unitree robot on the generic DDS backend: one state topic (LowState, CRC
// checked), one command topic (LowCmd), and the codec context hg robots need: the robot's
// mode_machine, learnt from its LowState and echoed in every LowCmd.
template <UnitreeModel M>
struct UnitreeTopics {
  using model = M;
  using Options = BackendOptions;
  static constexpr std::size_t N = M::joint_count;
  using Family = typename Wire<M>::Family;
  using LowCmd = typename Family::LowCmd;
  using LowState = typename Family::LowState;
  // Unitree drivers run the PD law; velocity and torque modes are that law with zero gains.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  struct Context {
    explicit Context(const BackendOptions& o)
        : check_crc(o.check_state_crc), mode_pr(o.mode_pr), fixed_mode_machine(o.mode_machine),
          detect_restart(o.detect_restart) {}
    bool check_crc;
    std::uint8_t mode_pr;
    std::optional<std::uint8_t> fixed_mode_machine;
    bool detect_restart;
    std::atomic<std::uint8_t> robot_mode_machine{0};  // written by decode, read by encode
    std::atomic<bool> have_mode_machine{false};
    std::atomic<std::uint64_t> remotes_ignored{0};  // good states whose remote had a non-finite axis
    // Restart: the reader thread's last tick; what it saw when the tick went back (first time only).
    std::uint32_t last_tick = 0;
    bool have_tick = false;
    std::atomic<bool> restarted{false};
    std::atomic<std::uint32_t> tick_before_restart{0}, tick_after_restart{0};
    // Set by acquire() when a motion switcher answered: from a restart on, encode sends nothing.
    std::atomic<bool> withhold_after_restart{false};
    [[nodiscard]] bool withholding() const {
      return restarted.load(std::memory_order_acquire) && withhold_after_restart.load(std::memory_order_relaxed);
    }
  };

  // Whether `now` after `before` is a restart rather than the 32-bit counter wrapping (every 49.7
  // days at 1 kHz): a wrap comes from the top of the range to its bottom.
  static constexpr bool tick_went_back(std::uint32_t before, std::uint32_t now) {
    constexpr std::uint32_t k_wrap_window = 1u << 20;  // some 17 minutes of ticks at 1 kHz
    return now < before && !(before > UINT32_MAX - k_wrap_window && now < k_wrap_window);
  }

  static bool decode(const LowState& in, TimePoint received, RobotState<N>& out, Context& c) {
    bool remote_ignored = false;
    if (!decode_state<M>(in, received, out, c.check_crc, &remote_ignored)) return false;  // bad CRC or values: dropped, never used
    if (remote_ignored) c.remotes_ignored.fetch_add(1, std::memory_order_relaxed);
    if (c.detect_restart) {
      if (c.have_tick && tick_went_back(c.last_tick, in.tick) && !c.restarted.load(std::memory_order_relaxed)) {
        c.tick_before_restart.store(c.last_tick, std::memory_order_relaxed);
        c.tick_after_restart.store(in.tick, std::memory_order_relaxed);
        c.restarted.store(true, std::memory_order_release);
      }
      c.last_tick = in.tick;
      c.have_tick = true;
    }
    if constexpr (std::is_same_v<Family, HgFamily>) {
      c.robot_mode_machine.store(in.mode_machine, std::memory_order_relaxed);
      c.have_mode_machine.store(true, std::memory_order_release);
    }
    return true;
  }

  static bool encode(const JointCommand<N>& command, TimePoint, Context& c, LowCmd& out) {
    if (c.withholding()) return false;  // a restarted robot is not praxis' any more (BackendOptions::detect_restart)
    if constexpr (std::is_same_v<Family, HgFamily>) {
      // An hg robot drops frames whose mode_machine is not its own: until its first LowState told
      // us which it is, sending would only produce frames the robot rejects. (A robot reporting 0
      // is a simulator, which takes any: echoing its 0 is the vendor examples' behaviour too.)
      if (!c.fixed_mode_machine && !c.have_mode_machine.load(std::memory_order_acquire)) return false;
    }
    EncodeOptions e;
    e.mode_pr = c.mode_pr;
    e.mode_machine = c.fixed_mode_machine ? *c.fixed_mode_machine
                                          : c.robot_mode_machine.load(std::memory_order_relaxed);
    encode_command<M>(command, e, out);
    return true;
  }

  static auto state_topics(const Options& o) {
    return std::tuple{StateTopic<N, Context, LowState>{o.lowstate_topic, Family::low_state_descriptor(), &decode, o.qos}};
  }
  static auto command_topics(const Options& o) {
    return std::tuple{CommandTopic<N, Context, LowCmd>{o.lowcmd_topic, Family::low_cmd_descriptor(), &encode, o.qos}};
  }
};

// Transport: praxis::transport::DdsTransport (the robot) or praxis::transport::LoopbackTransport (tests).
template <UnitreeModel M, class Transport = transport::DdsTransport>
class UnitreeBackend : public DdsBackend<UnitreeTopics<M>, Transport> {
  using Base = DdsBackend<UnitreeTopics<M>, Transport>;

 public:
  using Family = typename Wire<M>::Family;
  using LowCmd = typename Family::LowCmd;
  using LowState = typename Family::LowState;

  // The real robot: domain 0, on the network interface that reaches it (192.168.123.0/24).
  static BackendOptions robot(std::string interface) {
    BackendOptions o;
    o.dds = {0, std::move(interface)};
    return o;
  }
  // Unitree's simulator and praxis-fake-robot convention: domain 1 on the loopback interface.
  // They run no motion switcher. The C++ simulator signs its LowState; for the Python one also set
  // check_state_crc = false.
  static BackendOptions simulator(std::uint32_t domain = 1) {
    BackendOptions o;
    o.dds = {domain, "lo"};
    o.motion_switcher_required = false;
    return o;
  }

  using Base::Base;

  // ---- lifecycle ----

  LifecycleResult acquire(Duration timeout)
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    const auto& options = this->options();
    std::string message;
    if (options.release_motion_service) {
      try {
        const auto released = release_motion_control(options.release);
        // A switcher answered: this robot boots with its motion service on.
        this->codec_context().withhold_after_restart.store(true, std::memory_order_relaxed);
        message = released.empty() ? "no motion service was active" : "released motion service";
        for (std::size_t k = 0; k < released.size(); ++k) message += (k == 0 ? " \"" : ", \"") + released[k] + "\"";
      } catch (const transport::RpcUnanswered& e) {
        if (options.motion_switcher_required) {
          lifecycle_.store(LifecycleStage::failed);
          return {false, LifecycleStage::failed,
                  std::string("motion switcher: ") + e.what() +
                      " (a robot must answer; against a simulator use the simulator() preset, which does not "
                      "require one)"};
        }
        message = std::string("notice: no motion switcher answered (") + e.what() +
                  "); continuing, as Unitree's simulators run none";
      } catch (const std::exception& e) {
        lifecycle_.store(LifecycleStage::failed);
        return {false, LifecycleStage::failed, std::string("motion switcher: ") + e.what()};
      }
    }
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      lifecycle_.store(LifecycleStage::failed);
      std::string why = no_valid_sample_text("state", options.lowstate_topic, timeout, options.dds);
      if (wait.invalid > 0) {
        why += ": " + std::to_string(wait.invalid) + " invalid ones arrived (" +
               (options.check_state_crc ? "CRC wrong or values not finite; Unitree's Python simulator sends crc = 0: "
                                          "set check_state_crc = false for it"
                                        : "values not finite") +
               ")";
      }
      if (auto seen = this->state_near_misses("set lowstate_topic (and lowcmd_topic) to the robot's names");
          !seen.empty()) {
        why += "; " + seen;
      }
      return {false, LifecycleStage::failed, message + (message.empty() ? "" : "; ") + why};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control, message + (message.empty() ? "" : "; ") + "receiving " +
                                                  options.lowstate_topic};
  }
  LifecycleResult release(Duration)
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    lifecycle_.store(LifecycleStage::released);
    return {true, LifecycleStage::released, "stopped sending " + this->options().lowcmd_topic +
                                                "; the robot's motion service stays off until selected again"};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  static constexpr std::string_view guard_backend = "unitree";
  [[nodiscard]] std::string guard_options() const
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    return io::to_json_text(this->options());
  }
  // The guard's start: control is the controller's already (its acquire released the motion
  // service); this waits for a valid state, asking the robot nothing. A restart seen from here on is
  // treated as acquire() would have it (BackendOptions::detect_restart).
  LifecycleResult adopt(Duration timeout)
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    const auto& options = this->options();
    this->codec_context().withhold_after_restart.store(options.release_motion_service && options.motion_switcher_required,
                                                       std::memory_order_relaxed);
    if (!this->wait_for_state(timeout).ok) {
      return {false, LifecycleStage::failed, no_valid_sample_text("state", options.lowstate_topic, timeout, options.dds)};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control, "receiving " + options.lowstate_topic};
  }

  // Link health and lifecycle; Unitree robots report no modes of their own to praxis.
  bool read_status(RobotStatus& out) {
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    out.reported_mode = out.assumed_mode = out.lifecycle == LifecycleStage::in_control ? RobotMode::user
                                                                                        : RobotMode::unknown;
    this->read_link(out.link);
    if (this->codec_context().withholding()) out.link.connected = false;  // and stays so for this run
    ++out.sequence;
    return true;
  }

  // Why control was lost, when the backend knows: the robot restarted (its tick went back). The
  // runtime adds it to the run's outcome.
  [[nodiscard]] std::string control_loss() const {
    const auto& c = this->codec_context();
    if (!c.restarted.load(std::memory_order_acquire)) return {};
    std::string why = "the robot restarted (LowState tick went back from " +
                      std::to_string(c.tick_before_restart.load(std::memory_order_relaxed)) + " to " +
                      std::to_string(c.tick_after_restart.load(std::memory_order_relaxed)) + ")";
    if (c.withhold_after_restart.load(std::memory_order_relaxed)) {
      why += "; it boots with its motion service on, so nothing more was sent to it: start a new run to take it again";
    }
    return why;
  }
  // Whether the robot restarted under this backend (BackendOptions::detect_restart).
  [[nodiscard]] bool robot_restarted() const { return this->codec_context().restarted.load(std::memory_order_acquire); }

  // ---- before control ----

  // CheckMode / ReleaseMode until the robot's own motion service is off (see rpc.hpp).
  std::vector<std::string> release_motion_control(const ReleaseOptions& o = {})
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    return unitree::release_motion_control(this->context(), o);
  }

  // ---- counters ----
  [[nodiscard]] std::uint64_t states_accepted() const { return Base::template states_accepted<0>(); }
  [[nodiscard]] std::uint64_t crc_errors() const { return Base::template states_rejected<0>(); }
  [[nodiscard]] std::uint64_t commands_sent() const { return Base::template commands_sent<0>(); }
  // Commands not sent: before the first valid state, or (hg) before the robot's mode_machine was known.
  [[nodiscard]] std::uint64_t commands_withheld() const {
    return Base::template commands_skipped<0>() + this->commands_before_state();
  }
  // States whose wireless_remote had a NaN or infinite axis: used, but the gamepad kept its last
  // reading (codec.hpp, decode_state).
  [[nodiscard]] std::uint64_t remotes_ignored() const {
    return this->codec_context().remotes_ignored.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint8_t robot_mode_machine() const {
    return this->codec_context().robot_mode_machine.load(std::memory_order_relaxed);
  }

 private:
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
};

}  // namespace praxis::unitree

// The options by field name, so that every user of the backend can hand them on (praxis-guard).
#include "praxis/hardware/unitree/options_params.hpp"
