#pragma once
// WithGamepad<B>: a backend whose robot reports no remote (Fourier Aurora, Walker Tienkung), with a
// gamepad of the user's: every state read through it carries the newest GamepadState given to
// set_gamepad() (a joystick reader, a keyboard, a test). Everything else is B's: the joints, the
// requests, the status, the lifecycle, the safe state.
//
//   praxis::aurora::AuroraBackend<praxis::aurora::GR2> robot(options);
//   praxis::control::WithGamepad pad(robot);
//   praxis::control::RobotController<decltype(pad), MyController> controller(pad);
//   ... on the joystick's thread: pad.set_gamepad(state);
//
// RobotController refuses a backend without a remote at compile time (nothing would ever leave
// damping); this is the way to give it one. set_gamepad() is called from one thread, read() from
// one (possibly another); neither blocks or allocates.
//
// WithScriptedGamepad<B> is the same with a script for the gamepad (core/gamepad_script.hpp) —
// a run without a person, a test:
//
//   praxis::control::WithScriptedGamepad pad(robot, "R2:1-3,A:4,LY=0.5@6-10");
//
// its times counted from the first state read through it (however long taking control took).
// stand_then_ctrl(seconds) is the operator's part in a RobotController run without a person.

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/gamepad_script.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis::control {

namespace detail {
// B's name for praxis-guard (control/guard.hpp), where it has one.
template <class B>
struct GuardName {};
template <class B>
  requires requires { B::guard_backend; }
struct GuardName<B> {
  static constexpr std::string_view guard_backend = B::guard_backend;
};
}  // namespace detail

template <Backend B>
class WithGamepad : public detail::GuardName<B> {
 public:
  using model = typename B::model;
  static constexpr std::size_t N = model::joint_count;
  static constexpr Capabilities capabilities = capabilities_of<B>();
  static constexpr JointModeSet joint_modes = joint_modes_of<B>();
  static constexpr SafeState safe_state = safe_state_of<B>();
  static constexpr bool has_remote = true;

  explicit WithGamepad(B& backend) : backend_(backend) {}

  void set_gamepad(const GamepadState& pad) { pads_.publish(pad); }

  bool read(RobotState<N>& state, TimePoint now) {
    (void)pads_.fetch();
    if (!backend_.read(state, now)) return false;
    state.gamepad = pads_.value();
    return true;
  }
  void write(const JointCommand<N>& command, TimePoint now) { backend_.write(command, now); }

  void post(const RobotRequests& r)
    requires PostsRequests<B>
  {
    backend_.post(r);
  }
  bool read_status(RobotStatus& s)
    requires ReportsStatus<B>
  {
    return backend_.read_status(s);
  }
  LifecycleResult acquire(Duration timeout)
    requires HasLifecycle<B>
  {
    return backend_.acquire(timeout);
  }
  LifecycleResult release(Duration timeout)
    requires HasLifecycle<B>
  {
    return backend_.release(timeout);
  }
  void set_wakeup(Wakeup* w)
    requires WakesOnState<B>
  {
    backend_.set_wakeup(w);
  }

  // What some backends report beyond the concept (Fourier: the pose it stood in, why control was lost).
  [[nodiscard]] auto stand_pose() const
    requires requires(const B& b) { b.stand_pose(); }
  {
    return backend_.stand_pose();
  }
  [[nodiscard]] auto entry_hold(const RobotState<N>& s) const
    requires requires(const B& b, const RobotState<N>& st) { b.entry_hold(st); }
  {
    return backend_.entry_hold(s);
  }
  [[nodiscard]] auto control_loss() const
    requires requires(const B& b) { b.control_loss(); }
  {
    return backend_.control_loss();
  }
  [[nodiscard]] auto driven_joints() const
    requires requires(const B& b) { b.driven_joints(); }
  {
    return backend_.driven_joints();
  }

  // praxis-guard's hooks (control/guard.hpp): the guard watches B, the gamepad is not its business.
  [[nodiscard]] std::string guard_options() const
    requires requires(const B& b) { b.guard_options(); }
  {
    return backend_.guard_options();
  }
  void set_request_gate(const std::atomic<std::uint8_t>* silenced) noexcept
    requires requires(B& b) { b.set_request_gate(silenced); }
  {
    backend_.set_request_gate(silenced);
  }
  void yield_to_guard()
    requires requires(B& b) { b.yield_to_guard(); }
  {
    backend_.yield_to_guard();
  }

  [[nodiscard]] B& backend() { return backend_; }

 private:
  B& backend_;
  LatestValue<GamepadState> pads_;
};

template <Backend B>
class WithScriptedGamepad : public WithGamepad<B> {
 public:
  static constexpr std::size_t N = B::model::joint_count;

  // The script's text (throws std::invalid_argument naming `option` and the item) or its items.
  WithScriptedGamepad(B& backend, std::string_view script, std::string_view option = "--gamepad")
      : WithScriptedGamepad(backend, parse_gamepad_script(script, option)) {}
  WithScriptedGamepad(B& backend, std::span<const GamepadScriptItem> script) : WithGamepad<B>(backend) {
    script_.add(script, TimePoint{});
  }

  // The script's gamepad at the time since the first read, then WithGamepad's read. No allocation.
  bool read(RobotState<N>& state, TimePoint now) {
    if (!started_) {
      started_ = true;
      t0_ = now;
    }
    this->set_gamepad(script_.state_at(TimePoint{} + (now - t0_)));
    return WithGamepad<B>::read(state, now);
  }

 private:
  GamepadScript script_;  // times from TimePoint{}: the first read
  bool started_ = false;
  TimePoint t0_{};
};

// The operator's part in a RobotController run of `seconds` without a person, as a gamepad script
// (for WithScriptedGamepad, or a fake robot's --gamepad): R2 held from 0.1 to 0.4 of the run
// (DAMPING to STAND), A tapped at half of it (STAND to CTRL).
[[nodiscard]] inline std::string stand_then_ctrl(double seconds) {
  char script[96];
  std::snprintf(script, sizeof script, "R2:%.2f-%.2f,A:%.2f", 0.1 * seconds, 0.4 * seconds, 0.5 * seconds);
  return script;
}

}  // namespace praxis::control
