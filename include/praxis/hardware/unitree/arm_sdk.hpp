#pragma once
// ArmSdkBackend<Model>: the waist and arms of a G1 (or H1-2) commanded over rt/arm_sdk while the
// robot's own locomotion service keeps the legs and the balance — what the vendor's arm SDK
// examples do. The frame is an hg LowCmd; one unused slot's q carries a weight 0..1 that blends the
// robot's own arm control (0) into praxis' (1).
//
//   praxis::unitree::ArmSdkBackend<praxis::unitree::G1> arms(praxis::unitree::ArmSdkOptions{.dds = {0, "eth0"}});
//   praxis::control::RobotController<decltype(arms), MyArmController> controller(arms, options);
//
// Only the arm-SDK joints are sent (waist, shoulders, elbows, wrists, found by name in the model's
// joint table); what a command says about the legs is not sent — the robot's controller has them.
// The weight ramps at `weight_rate` towards 1 while a command drives an arm joint (a gain or a
// velocity / torque mode), and towards 0 otherwise: damping (kp 0) on the arms hands them back to the
// robot's controller, holding the last driven targets while the weight goes down, instead of letting
// them go limp on a walking robot. Nothing is sent before the first driving command, and nothing
// after the weight is back at 0. Taking control releases no motion service (the robot must keep
// walking); handing back ramps the weight to 0.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/hardware/dds_backend.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/weight_blend.hpp"
#include "praxis/io/reflect_save.hpp"
#include "praxis/hardware/unitree/wire.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::unitree {

// Whether the arm SDK takes joint j of M: waist, shoulder, elbow and wrist joints.
template <UnitreeModel M>
[[nodiscard]] constexpr std::array<bool, M::joint_count> arm_sdk_joints() {
  return joints_named<M>(std::array<std::string_view, 4>{"waist", "shoulder", "elbow", "wrist"});
}
template <UnitreeModel M>
[[nodiscard]] constexpr bool arm_sdk_joint(std::size_t j) {
  return arm_sdk_joints<M>()[j];
}

struct ArmSdkOptions {
  transport::DdsOptions dds{};
  Duration link_timeout = std::chrono::milliseconds(100);
  std::string arm_sdk_topic = "rt/arm_sdk";
  std::string lowstate_topic = "rt/lowstate";
  transport::TopicQos qos{};
  // The LowCmd slot whose q carries the weight: 29 on the G1 (unitree_sdk2's G1 arm SDK example;
  // docs/backends/unitree.md, "Wire facts and their sources"); on the H1-2 UNVERIFIED.
  std::size_t weight_slot = 29;
  double weight_rate = 0.2;  // per second, blending in and out (the vendor's arm SDK example)
  std::optional<std::uint8_t> mode_machine;  // unset = echo the robot's LowState.mode_machine
  bool check_state_crc = true;
};

template <UnitreeModel M>
struct ArmSdkTopics {
  static_assert(std::is_same_v<typename Wire<M>::Family, HgFamily>,
                "praxis::unitree::ArmSdkBackend: rt/arm_sdk exists on the hg humanoids (G1, H1-2), not on this model");
  using model = M;
  using Options = ArmSdkOptions;
  static constexpr std::size_t N = M::joint_count;
  using LowCmd = HgFamily::LowCmd;
  using LowState = HgFamily::LowState;
  // The drivers' PD law, as on rt/lowcmd; switching an arm motor off under a walking robot is not
  // offered.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque};

  struct Context {
    explicit Context(const ArmSdkOptions& o)
        : check_crc(o.check_state_crc), fixed_mode_machine(o.mode_machine), weight_slot(o.weight_slot),
          blend(arm_sdk_joints<M>(), o.weight_rate) {}
    bool check_crc;
    std::optional<std::uint8_t> fixed_mode_machine;
    std::size_t weight_slot;
    std::atomic<std::uint8_t> robot_mode_machine{0};  // written by decode, read by encode
    std::atomic<bool> have_mode_machine{false};
    WeightBlend<N> blend;  // writer side; its weight() readable from any thread
  };

  static bool decode(const LowState& in, TimePoint received, RobotState<N>& out, Context& c) {
    if (!decode_state<M>(in, received, out, c.check_crc)) return false;
    c.robot_mode_machine.store(in.mode_machine, std::memory_order_relaxed);
    c.have_mode_machine.store(true, std::memory_order_release);
    return true;
  }

  static bool encode(const JointCommand<N>& command, TimePoint now, Context& c, LowCmd& out) {
    if (!c.fixed_mode_machine && !c.have_mode_machine.load(std::memory_order_acquire)) return false;
    JointCommand<N> arms;
    if (!c.blend.step(command, now, arms)) return false;
    EncodeOptions e;
    e.mode_machine = c.fixed_mode_machine ? *c.fixed_mode_machine : c.robot_mode_machine.load(std::memory_order_relaxed);
    encode_command<M>(arms, e, out);
    out.motor_cmd[c.weight_slot].q = static_cast<float>(c.blend.weight());
    out.crc = message_crc(out);
    return true;
  }

  static auto state_topics(const Options& o) {
    return std::tuple{StateTopic<N, Context, LowState>{o.lowstate_topic, HgFamily::low_state_descriptor(), &decode, o.qos}};
  }
  static auto command_topics(const Options& o) {
    return std::tuple{CommandTopic<N, Context, LowCmd>{o.arm_sdk_topic, HgFamily::low_cmd_descriptor(), &encode, o.qos}};
  }
};

template <UnitreeModel M, class Transport = transport::DdsTransport>
class ArmSdkBackend : public DdsBackend<ArmSdkTopics<M>, Transport> {
  using Base = DdsBackend<ArmSdkTopics<M>, Transport>;

 public:
  using Base::Base;
  // The robot's locomotion keeps the legs and the balance, and control of the arms goes back to it:
  // here praxis' damping (kp 0 on the arms) already is the hand-back, because the codec turns it
  // into the weight blending to 0 while the last driven targets are held (never limp arms under a
  // walking robot). So the runtime sends damping, as on a robot praxis owns, and release() finishes
  // the blend. A hold instead (SafeState::hand_back) would keep the weight at 1: praxis would keep
  // the arms from the first cycle on.
  static constexpr SafeState safe_state = SafeState::joint_damping;
  // The joints praxis' commands reach (what its summaries count): the arm SDK's.
  [[nodiscard]] static constexpr std::array<bool, M::joint_count> driven_joints() { return arm_sdk_joints<M>(); }

  // Waits for a valid state; the robot's motion service is left running on purpose.
  LifecycleResult acquire(Duration timeout) {
    const auto wait = this->wait_for_state(timeout);
    if (!wait.ok) {
      lifecycle_.store(LifecycleStage::failed);
      return {false, LifecycleStage::failed,
              no_valid_sample_text("state", this->options().lowstate_topic, timeout, this->options().dds) + ": " +
                  std::to_string(wait.invalid) + " invalid ones arrived"};
    }
    lifecycle_.store(LifecycleStage::in_control);
    return {true, LifecycleStage::in_control,
            "receiving " + this->options().lowstate_topic + "; commanding waist and arms on " +
                this->options().arm_sdk_topic + " (the robot's own controller keeps the legs)"};
  }

  // Blends the arms back to the robot's controller: weight down to 0 at weight_rate, holding the last
  // targets, one frame every 20 ms (called after the control loop ended: the only writer then).
  LifecycleResult release(Duration timeout) {
    lifecycle_.store(LifecycleStage::releasing);
    JointCommand<M::joint_count> hand_back;
    hand_back.mode.fill(JointMode::none);
    const auto deadline = Clock::now() + timeout;
    while (this->codec_context().blend.holding() && Clock::now() < deadline) {
      this->write(hand_back, Clock::now());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const bool done = !this->codec_context().blend.holding();
    lifecycle_.store(done ? LifecycleStage::released : LifecycleStage::failed);
    if (!done) {
      return {false, LifecycleStage::failed,
              "the arm-SDK weight was still " + std::to_string(weight()) + " after " +
                  std::to_string(to_ms(timeout)) +
                  " ms of blending out"};
    }
    return {true, LifecycleStage::released, "arms blended back to the robot's controller (weight 0)"};
  }

  // ---- praxis-guard (control/guard.hpp) ----
  static constexpr std::string_view guard_backend = "unitree-arm-sdk";
  // Only over DDS: a robot in this process (a loopback transport) is out of the guard's reach.
  [[nodiscard]] std::string guard_options() const
    requires std::is_same_v<Transport, transport::DdsTransport>
  {
    return io::to_json_text(this->options());
  }
  // The guard's start: as acquire(), which asks the robot nothing.
  LifecycleResult adopt(Duration timeout) { return acquire(timeout); }
  // Taking over from a controller that died with the arms lent: the blend resumes at weight 1
  // holding the measured pose (the arms stay where they are, whatever weight they had), so that
  // the guard's damping blends them back to the robot's controller over the whole blend time.
  LifecycleResult guard_take(Duration timeout, RobotMode /*the robot keeps its own mode*/) {
    const auto hold = measured_hold<M>(*this, arm_sdk_joints<M>(), timeout);
    if (!hold) return {false, LifecycleStage::failed, "no state to hold the arms at: the arms were not blended back"};
    this->codec_context().blend.resume(*hold, 1.0, Clock::now());
    return {true, LifecycleStage::in_control, "the arms held where they were, at weight 1"};
  }

  bool read_status(RobotStatus& out) {
    out.lifecycle = lifecycle_.load(std::memory_order_relaxed);
    out.reported_mode = out.assumed_mode = RobotMode::unknown;  // the robot's own mode is not on this topic
    this->read_link(out.link);
    ++out.sequence;
    return true;
  }

  // The blend weight last sent (0 = the robot's controller, 1 = praxis).
  [[nodiscard]] double weight() const { return this->codec_context().blend.weight(); }
  [[nodiscard]] std::uint64_t frames_sent() const { return Base::template commands_sent<0>(); }

 private:
  std::atomic<LifecycleStage> lifecycle_{LifecycleStage::idle};
};

}  // namespace praxis::unitree

// The options by field name, so that every user of the backend can hand them on (praxis-guard).
#include "praxis/hardware/unitree/options_params.hpp"
