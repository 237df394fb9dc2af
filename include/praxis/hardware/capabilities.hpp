#pragma once
// What a backend offers beyond read() and write(), each detected at compile time so that a graph
// needing a capability the robot lacks fails to compile with a message naming it.
//
//   static constexpr praxis::Capabilities capabilities{...};  what the robot's own controller does
//   void post(const praxis::RobotRequests&)      the cycle's requests; never blocks (an I/O worker
//                                                performs them at the vendor's rate)
//   bool read_status(praxis::RobotStatus&)       newest status, true when new; never blocks
//   LifecycleResult acquire(Duration timeout)    take control before the first command (blocking,
//   LifecycleResult release(Duration timeout)    outside the loop) and hand it back after the last
//   void set_wakeup(praxis::Wakeup*)             notify when a new state arrives (state-triggered
//                                                control)
//   static constexpr praxis::JointModeSet joint_modes   the joint modes the robot accepts (default:
//                                                position and disabled)
//   static constexpr praxis::SafeState safe_state       how control ends on this robot (default:
//                                                joint damping; see SafeState)
//   static constexpr bool has_remote             false when the robot's state carries no gamepad
//                                                (default: true)
//   static constexpr praxis::RobotMode safe_mode the mode asked for when control ends (default:
//                                                damping; see safe_mode_of)

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/core/wakeup.hpp"

namespace praxis {

struct Capabilities {
  bool modes = false;       // damping / prepare / locomotion modes of its own
  bool locomotion = false;  // walks by itself (RobotRequests::locomotion)
  bool get_up = false;      // gets up by itself (RobotRequests::get_up)
  bool head = false;        // turns its head by itself (RobotRequests::head)
  bool kick = false;        // kicks by itself (RobotRequests::kick)
  bool leds = false;
};

template <class B>
[[nodiscard]] constexpr Capabilities capabilities_of() {
  if constexpr (requires { B::capabilities; }) {
    return B::capabilities;
  } else {
    return {};
  }
}

template <class B>
concept PostsRequests = requires(B& b, const RobotRequests& r) { b.post(r); };

// A backend whose I/O worker can be told, from any thread, to serve the robot's safe mode from now
// on whatever the control thread posts (the runtime's send thread does, when the control thread
// stalled on a robot that balances itself).
template <class B>
concept OverridesRequests = PostsRequests<B> && requires(B& b, RobotMode m) { b.post_safe_mode(m); };

template <class B>
concept HasModes = PostsRequests<B> && capabilities_of<B>().modes;
template <class B>
concept HasLocomotion = PostsRequests<B> && capabilities_of<B>().locomotion;

template <class B>
concept ReportsStatus = requires(B& b, RobotStatus& s) {
  { b.read_status(s) } -> std::same_as<bool>;
};

struct LifecycleResult {
  bool ok = true;
  LifecycleStage stage = LifecycleStage::in_control;
  std::string message;  // what happened, for the user (names the service, mode or topic on failure)
};

template <class B>
concept HasLifecycle = requires(B& b, Duration timeout) {
  { b.acquire(timeout) } -> std::same_as<LifecycleResult>;
  { b.release(timeout) } -> std::same_as<LifecycleResult>;
};

template <class B>
concept WakesOnState = requires(B& b, Wakeup* w) { b.set_wakeup(w); };

// How every end of control (stop, fault, long stall, exception, signal, destructor) leaves the robot,
// by who balances it and who owns its joints (docs/safety.md, "How control ends, per robot kind").
enum class SafeState : std::uint8_t {
  // praxis commands every joint (Unitree low level, Booster joint access, Tienkung, the mock):
  // kp 0 and the damping gain on every commanded joint, at the measured position.
  joint_damping,
  // The robot balances itself and lent praxis some joints (Fourier UserCmd, Unitree arm_sdk): the
  // measured pose is held with the gains in force (never kp 0: those joints may carry the robot's
  // weight) while release() asks the robot's own controller back and awaits its confirmation.
  hand_back,
  // praxis only asks for motions (Booster robot modes, Fourier locomotion): the vendor's safe mode
  // request, delivered before anything queued.
  mode_request,
};

[[nodiscard]] constexpr std::string_view to_string(SafeState s) {
  switch (s) {
    case SafeState::joint_damping: return "joint damping";
    case SafeState::hand_back: return "hand back";
    case SafeState::mode_request: return "mode request";
  }
  return "?";
}

template <class B>
[[nodiscard]] constexpr SafeState safe_state_of() {
  if constexpr (requires { B::safe_state; }) {
    return B::safe_state;
  } else {
    return SafeState::joint_damping;
  }
}

// The mode a robot with modes of its own is asked for when praxis lets go or a fault takes over:
// `static constexpr praxis::RobotMode safe_mode` (default: damping, Booster's safe mode). A robot
// whose damping mode drops it (Fourier: SecurityProtection damps for 2 s, then no torque) names
// the mode that keeps it standing (Fourier: PdStand, RobotMode::prepare).
template <class B>
[[nodiscard]] constexpr RobotMode safe_mode_of() {
  if constexpr (requires { B::safe_mode; }) {
    return B::safe_mode;
  } else {
    return RobotMode::damping;
  }
}

// Whether the robot's state carries a gamepad (RobotState::gamepad) that a gamepad-driven
// configuration can rely on.
template <class B>
[[nodiscard]] constexpr bool has_remote_of() {
  if constexpr (requires { B::has_remote; }) {
    return B::has_remote;
  } else {
    return true;
  }
}

template <class B>
[[nodiscard]] constexpr JointModeSet joint_modes_of() {
  if constexpr (requires { B::joint_modes; }) {
    return B::joint_modes;
  } else {
    return k_basic_joint_modes;
  }
}

}  // namespace praxis
