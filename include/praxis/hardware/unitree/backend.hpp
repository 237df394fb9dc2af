#pragma once
// UnitreeBackend<Model>: a Unitree robot (Go2, G1) over Cyclone DDS, byte-compatible with the vendor
// SDK. It subscribes rt/lowstate (into a lock-free mailbox, from Cyclone's listener thread) and
// publishes rt/lowcmd; read() and write() never block.
//
//   auto options = praxis::unitree::UnitreeBackend<praxis::unitree::G1>::robot("eth0");  // domain 0
//   auto options = praxis::unitree::UnitreeBackend<praxis::unitree::G1>::simulator();    // domain 1, lo
//   praxis::unitree::UnitreeBackend<praxis::unitree::G1> robot(options);
//
// Taking control is the backend's lifecycle, which the runtime runs before the first command:
// acquire() releases the robot's own motion service through the motion switcher (CheckMode /
// ReleaseMode) and waits for a first valid state. release() hands nothing back: the robot's motion
// service stays off until selected again (the vendor's app or the switcher's SelectMode), which is
// what the vendor's low-level examples leave behind too.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <string>
#include <vector>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/rpc.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/loopback.hpp"

namespace praxis::unitree {

struct BackendOptions {
  dds::DdsOptions dds{};
  bool release_motion_service = true;  // acquire(): release the robot's motion service first
  ReleaseOptions release{};
  Duration link_timeout = std::chrono::milliseconds(100);  // no state this long: link reported down
  std::string lowcmd_topic = "rt/lowcmd";
  std::string lowstate_topic = "rt/lowstate";
  dds::TopicQos qos{};  // the vendor's QoS is unverified: Cyclone's defaults, as its Python SDK gets
  std::uint8_t mode_pr = 0;                  // hg: 0 = PR, 1 = AB
  std::optional<std::uint8_t> mode_machine;  // hg: unset = echo the robot's LowState.mode_machine
};

// Transport: praxis::dds::DdsTransport (the robot) or praxis::transport::LoopbackTransport (tests).
template <UnitreeModel M, class Transport = dds::DdsTransport>
class UnitreeBackend {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  using Family = typename Wire<M>::Family;
  using LowCmd = typename Family::LowCmd;
  using LowState = typename Family::LowState;
  // Unitree drivers run the PD law; velocity and torque modes are that law with zero gains.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  // The real robot: domain 0, on the network interface that reaches it (192.168.123.0/24).
  static BackendOptions robot(std::string interface) {
    BackendOptions o;
    o.dds = {0, std::move(interface)};
    return o;
  }
  // Unitree's simulator and praxis-fake-robot convention: domain 1 on the loopback interface.
  static BackendOptions simulator(std::uint32_t domain = 1) {
    BackendOptions o;
    o.dds = {domain, "lo"};
    return o;
  }

  explicit UnitreeBackend(BackendOptions options)
    requires std::is_same_v<Transport, dds::DdsTransport>
      : options_(std::move(options)),
        owned_context_(std::make_unique<dds::Participant>(options_.dds)),
        context_(owned_context_.get()),
        commands_(*context_, options_.lowcmd_topic, Family::low_cmd_descriptor(), options_.qos),
        states_(*context_, options_.lowstate_topic, Family::low_state_descriptor(), options_.qos) {}

  // On a context owned elsewhere (a shared DDS participant, or a loopback bus in tests).
  UnitreeBackend(typename Transport::Context& context, BackendOptions options)
      : options_(std::move(options)),
        context_(&context),
        commands_(*context_, options_.lowcmd_topic, Family::low_cmd_descriptor(), options_.qos),
        states_(*context_, options_.lowstate_topic, Family::low_state_descriptor(), options_.qos) {}

  // ---- Backend ----

  bool read(RobotState<N>& out, TimePoint) {
    if (!states_.fetch(incoming_)) return false;
    if (!decode_state<M>(incoming_.message, incoming_.received, out)) {
      crc_errors_.fetch_add(1, std::memory_order_relaxed);  // dropped, never used
      return false;
    }
    if constexpr (std::is_same_v<Family, HgFamily>) {
      robot_mode_machine_.store(incoming_.message.mode_machine, std::memory_order_relaxed);
      have_mode_machine_.store(true, std::memory_order_release);
    }
    states_accepted_.fetch_add(1, std::memory_order_relaxed);
    last_state_ns_.store(incoming_.received.time_since_epoch().count(), std::memory_order_relaxed);
    return true;
  }

  void write(const JointCommand<N>& command, TimePoint) {
    if constexpr (std::is_same_v<Family, HgFamily>) {
      // An hg robot drops frames whose mode_machine is not its own: until its first LowState told
      // us which it is, sending would only produce frames the robot rejects.
      if (!options_.mode_machine && !have_mode_machine_.load(std::memory_order_acquire)) {
        commands_withheld_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
    EncodeOptions e;
    e.mode_pr = options_.mode_pr;
    e.mode_machine = options_.mode_machine ? *options_.mode_machine
                                           : robot_mode_machine_.load(std::memory_order_relaxed);
    encode_command<M>(command, e, outgoing_);
    if (commands_.write(outgoing_)) commands_sent_.fetch_add(1, std::memory_order_relaxed);
  }

  // ---- lifecycle ----

  LifecycleResult acquire(Duration timeout)
    requires std::is_same_v<Transport, dds::DdsTransport>
  {
    std::string message;
    if (options_.release_motion_service) {
      try {
        const auto released = release_motion_control(options_.release);
        message = released.empty() ? "no motion service was active" : "released motion service";
        for (std::size_t k = 0; k < released.size(); ++k) message += (k == 0 ? " \"" : ", \"") + released[k] + "\"";
      } catch (const std::exception& e) {
        lifecycle_.store(LifecycleStage::failed);
        return {false, LifecycleStage::failed, std::string("motion switcher: ") + e.what()};
      }
    }
    if (!wait_for_state(timeout)) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed,
              message + (message.empty() ? "" : "; ") + "no state on " + options_.lowstate_topic + " within " +
                  std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) +
                  " ms (domain " + std::to_string(options_.dds.domain) + ", interface \"" + options_.dds.interface +
                  "\")"};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control, message + (message.empty() ? "" : "; ") + "receiving " +
                                                  options_.lowstate_topic};
  }
  LifecycleResult release(Duration)
    requires std::is_same_v<Transport, dds::DdsTransport>
  {
    lifecycle_.store(LifecycleStage::released);
    return {true, LifecycleStage::released, "stopped sending " + options_.lowcmd_topic +
                                                "; the robot's motion service stays off until selected again"};
  }

  // State-triggered control: `wakeup` is notified from Cyclone's listener thread after each new
  // rt/lowstate sample reached the mailbox (nullptr: nobody).
  void set_wakeup(Wakeup* wakeup)
    requires requires(typename Transport::template Subscriber<LowState>& s) { s.set_wakeup(wakeup); }
  {
    states_.set_wakeup(wakeup);
  }

  // Link health and lifecycle; Unitree robots report no modes of their own to praxis.
  bool read_status(RobotStatus& out) {
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    out.reported_mode = out.assumed_mode = out.lifecycle == LifecycleStage::in_control ? RobotMode::user
                                                                                        : RobotMode::unknown;
    out.link.states_received = states_accepted_.load(std::memory_order_relaxed);
    out.link.states_rejected = crc_errors_.load(std::memory_order_relaxed);
    out.link.commands_sent = commands_sent_.load(std::memory_order_relaxed);
    const auto last = last_state_ns_.load(std::memory_order_relaxed);
    out.link.connected = last != 0 && Clock::now().time_since_epoch() - Duration(last) <= options_.link_timeout;
    ++out.sequence;
    return true;
  }

  // ---- before control ----

  // CheckMode / ReleaseMode until the robot's own motion service is off (see rpc.hpp).
  std::vector<std::string> release_motion_control(const ReleaseOptions& o = {})
    requires std::is_same_v<Transport, dds::DdsTransport>
  {
    return unitree::release_motion_control(*context_, o);
  }

  // Waits until a first valid state arrived (true) or `timeout` passed (false); for start-up only.
  bool wait_for_state(Duration timeout)
    requires std::is_same_v<Transport, dds::DdsTransport>
  {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      if (states_.received() > 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  // ---- counters ----
  [[nodiscard]] std::uint64_t states_accepted() const { return states_accepted_.load(); }
  [[nodiscard]] std::uint64_t crc_errors() const { return crc_errors_.load(); }
  [[nodiscard]] std::uint64_t commands_sent() const { return commands_sent_.load(); }
  // hg: commands not sent because the robot's mode_machine was not known yet.
  [[nodiscard]] std::uint64_t commands_withheld() const { return commands_withheld_.load(); }
  [[nodiscard]] std::uint8_t robot_mode_machine() const { return robot_mode_machine_.load(); }
  [[nodiscard]] typename Transport::Context& context() const { return *context_; }
  [[nodiscard]] const BackendOptions& options() const { return options_; }

 private:
  BackendOptions options_;
  std::unique_ptr<typename Transport::Context> owned_context_;
  typename Transport::Context* context_;
  typename Transport::template Publisher<LowCmd> commands_;
  typename Transport::template Subscriber<LowState> states_;
  transport::Stamped<LowState> incoming_{};  // reader side
  LowCmd outgoing_{};                        // writer side
  std::atomic<std::uint8_t> robot_mode_machine_{0};
  std::atomic<Duration::rep> last_state_ns_{0};
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
  std::atomic<bool> have_mode_machine_{false};
  std::atomic<std::uint64_t> states_accepted_{0}, crc_errors_{0}, commands_sent_{0}, commands_withheld_{0};
};

}  // namespace praxis::unitree
