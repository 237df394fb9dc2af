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

#include <concepts>
#include <string>

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

template <class B>
[[nodiscard]] constexpr JointModeSet joint_modes_of() {
  if constexpr (requires { B::joint_modes; }) {
    return B::joint_modes;
  } else {
    return k_basic_joint_modes;
  }
}

}  // namespace praxis
