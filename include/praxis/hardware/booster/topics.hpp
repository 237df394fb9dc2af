#pragma once
// The joint-level half of a Booster robot on the generic DDS backend (hardware/dds_backend.hpp):
// rt/low_state in (primary), rt/fall_down and rt/remote_controller_state merged in, rt/joint_ctrl
// out. The high-level half (modes, walking, head, kick, LEDs by RPC) is the backend's I/O worker
// (backend.hpp).

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <string>
#include <tuple>

#include <praxis/idl/booster_interface.h>

#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/topic_table.hpp"
#include "praxis/transport/dds.hpp"

namespace praxis::booster {

using FallDownWire = booster_interface_msg_dds__FallDownState_;
using RemoteWire = booster_interface_msg_dds__RemoteControllerState_;
using ButtonEventWire = booster_interface_msg_dds__ButtonEventMsg_;

// ButtonEventType's names (PRESS_DOWN = 0 ... LONG_PRESS_END = 7).
[[nodiscard]] constexpr std::string_view button_event_name(int e) {
  constexpr std::array<std::string_view, 8> names{"PRESS_DOWN",   "PRESS_UP",         "SINGLE_CLICK",    "DOUBLE_CLICK",
                                                   "TRIPLE_CLICK", "LONG_PRESS_START", "LONG_PRESS_HOLD", "LONG_PRESS_END"};
  return e >= 0 && e < 8 ? names[static_cast<std::size_t>(e)] : std::string_view("UNKNOWN");
}

enum class FallState : std::int32_t { unknown = -1, ready = 0, falling = 1, fallen = 2, getting_up = 3 };

// Booster's remote (RemoteControllerState) on praxis' gamepad bits; sticks pushed forward read
// positive (Booster: front is -1).
[[nodiscard]] inline GamepadState gamepad_from(const RemoteWire& r) {
  GamepadState g;
  g.set(GamepadButton::A, r.a);
  g.set(GamepadButton::B, r.b);
  g.set(GamepadButton::X, r.x);
  g.set(GamepadButton::Y, r.y);
  g.set(GamepadButton::L1, r.lb);
  g.set(GamepadButton::R1, r.rb);
  g.set(GamepadButton::L2, r.lt);
  g.set(GamepadButton::R2, r.rt);
  g.set(GamepadButton::select, r.back);
  g.set(GamepadButton::start, r.start);
  g.set(GamepadButton::up, r.hat_u || r.hat_lu || r.hat_ru);
  g.set(GamepadButton::down, r.hat_d || r.hat_ld || r.hat_rd);
  g.set(GamepadButton::left, r.hat_l || r.hat_lu || r.hat_ld);
  g.set(GamepadButton::right, r.hat_r || r.hat_ru || r.hat_rd);
  g.lx = r.lx;
  g.ly = -r.ly;
  g.rx = r.rx;
  g.ry = -r.ry;
  g.l2 = r.lt ? 1.0f : 0.0f;
  return g;
}

// DDS type names. praxis' IDL gives them ROS 2's mapping of Booster's packages
// (booster_interface::msg::dds_::LowCmd_, brain::msg::dds_::Kick_); third-party code confirms that
// mapping for the RPC, button and remote messages, but the literal strings of LowCmd, LowState,
// FallDownState and Kick are UNVERIFIED: set these if the robot's differ (empty: the IDL's).
struct TypeNames {
  std::string low_cmd, low_state, fall_down, remote_controller, button_event, kick;
  std::string rpc_request, rpc_response;  // the RPC envelope (both channels)
};

// What the joint-level half needs to know; BackendOptions (backend.hpp) holds one.
struct WireOptions {
  TopicNames topics{};
  TypeNames types{};
  CodecOptions codec{};
  transport::TopicQos state_qos{};    // the vendor's QoS is UNVERIFIED: Cyclone's defaults
  transport::TopicQos command_qos{};
};

// How a command becomes rt/joint_ctrl's motors. AllJoints: every joint the command covers, with the
// codec's weight (joint access, and praxis' own motions in robot modes); UpperBodyBlend
// (upper_body.hpp): the arms only, blended in and out by weight while the robot walks.
template <BoosterModel M>
struct AllJoints {
  static constexpr std::size_t N = M::joint_count;
  // The motors run the PD law (q, dq, kp, kd, tau); velocity and torque are that law with zero gains.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};
  template <class Options>
  explicit AllJoints(const Options&) {}
  bool encode(const JointCommand<N>& command, TimePoint, const CodecOptions& codec, LowCmdValue<N>& out) {
    return encode_low_cmd<N>(command, codec, out);
  }
};

// Vendor = BackendOptions, which has members dds, link_timeout and wire (a WireOptions).
template <BoosterModel M, class BackendOptions, class Commands = AllJoints<M>>
struct BoosterTopics {
  using model = M;
  using Options = BackendOptions;
  static constexpr std::size_t N = M::joint_count;
  static constexpr JointModeSet joint_modes = Commands::joint_modes;

  struct Context {
    explicit Context(const Options& o) : codec(o.wire.codec), commands(o) {}
    CodecOptions codec;
    Commands commands;  // writer side
    // Written when read() merges rt/fall_down; read by the I/O worker for RobotStatus.
    std::atomic<std::int32_t> fall_state{static_cast<std::int32_t>(FallState::unknown)};
    std::atomic<std::uint32_t> get_ups_finished{0};  // getting_up -> ready transitions seen
    // The joint count of the last state refused for its count (another model's), 0: none.
    std::atomic<std::uint32_t> wire_joints{0};
  };

  static bool decode_state(const LowStateValue<N>& in, TimePoint, RobotState<N>& out, Context& c) {
    const auto count = c.codec.space == MotorSpace::serial ? in.serial_count : in.parallel_count;
    if (count != N) c.wire_joints.store(count, std::memory_order_relaxed);
    return decode_low_state<N>(in, c.codec, out);
  }
  static bool decode_fall(const FallDownWire& in, TimePoint, RobotState<N>&, Context& c) {
    const std::int32_t now = detail::enum_bits(in.fall_down_state);
    if (now < 0 || now > 3) return false;  // refused: not a FallDownStateType
    const auto before = c.fall_state.exchange(now, std::memory_order_acq_rel);
    if (before == static_cast<std::int32_t>(FallState::getting_up) && now == static_cast<std::int32_t>(FallState::ready)) {
      c.get_ups_finished.fetch_add(1, std::memory_order_acq_rel);
    }
    return true;
  }
  static bool decode_remote(const RemoteWire& in, TimePoint, RobotState<N>& out, Context&) {
    if (!std::isfinite(in.lx) || !std::isfinite(in.ly) || !std::isfinite(in.rx) || !std::isfinite(in.ry)) return false;
    out.gamepad = gamepad_from(in);
    return true;
  }
  static bool encode(const JointCommand<N>& command, TimePoint now, Context& c, LowCmdValue<N>& out) {
    return c.commands.encode(command, now, c.codec, out);
  }

  static auto state_topics(const Options& o) {
    DecodedStateTopic<N, Context, LowStateWire, LowStateValue<N>> low_state;
    low_state.name = o.wire.topics.low_state;
    low_state.descriptor = transport::with_type_name(&booster_interface_msg_dds__LowState__desc, o.wire.types.low_state);
    low_state.decode = &decode_state;
    low_state.to_value = &low_state_from_wire<N>;
    low_state.qos = o.wire.state_qos;
    StateTopic<N, Context, FallDownWire> fall{
        o.wire.topics.fall_down,
        transport::with_type_name(&booster_interface_msg_dds__FallDownState__desc, o.wire.types.fall_down), &decode_fall,
        o.wire.state_qos};
    StateTopic<N, Context, RemoteWire> remote{
        o.wire.topics.remote_controller,
        transport::with_type_name(&booster_interface_msg_dds__RemoteControllerState__desc, o.wire.types.remote_controller),
        &decode_remote, o.wire.state_qos};
    return std::tuple{std::move(low_state), std::move(fall), std::move(remote)};
  }
  static auto command_topics(const Options& o) {
    EncodedCommandTopic<N, Context, LowCmdWire, LowCmdValue<N>, LowCmdToWire<N>> joint_ctrl;
    joint_ctrl.name = o.wire.topics.joint_ctrl;
    joint_ctrl.descriptor = transport::with_type_name(&booster_interface_msg_dds__LowCmd__desc, o.wire.types.low_cmd);
    joint_ctrl.encode = &encode;
    joint_ctrl.qos = o.wire.command_qos;
    return std::tuple{std::move(joint_ctrl)};
  }
};

}  // namespace praxis::booster
