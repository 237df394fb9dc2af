#pragma once
// The Unitree deployment framework's state machine as a motion selector: DAMPING, STAND and CTRL
// are the motions damping, stand and user_control, chosen by the gamepad and by the safety rules
// every selector shares (motion::safety_override):
//
//   R2 (press)          DAMPING or CTRL -> STAND          held in STAND: pd_ratio rises (R1: falls)
//   A (press)           STAND -> CTRL, once pd_ratio > 0.95
//   L2 + B (held)       anything -> DAMPING
//   no / stale / invalid state, lost link, a non-finite command, a faulted joint, a tilt in CTRL
//                       -> DAMPING (pd_ratio 0)
//
// pd_ratio becomes the selection's gain_ratio, which scales the stand motion's gains.

#include <string_view>

#include "praxis/control/state_machine.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/ports.hpp"
#include "praxis/motion/selector.hpp"

namespace praxis::control {

struct GamepadPort : port<"praxis/gamepad", Gamepad> {};

// The edge-detecting gamepad view of the state's raw remote.
template <std::size_t N>
struct GamepadReader {
  static constexpr std::string_view name = "gamepad";
  using inputs = ports<StatePort<N>>;
  using outputs = ports<GamepadPort>;
  void cycle(const RobotState<N>& state, Gamepad& pad) { pad.update(state.gamepad); }
};

[[nodiscard]] constexpr motion::MotionType motion_of(ControlState s) {
  switch (s) {
    case ControlState::damping: return motion::MotionType::damping;
    case ControlState::stand: return motion::MotionType::stand;
    case ControlState::ctrl: return motion::MotionType::user_control;
  }
  return motion::MotionType::damping;
}

// The framework's name for a motion of RobotController's configuration.
[[nodiscard]] constexpr ControlState control_state(motion::MotionType m) {
  return m == motion::MotionType::stand          ? ControlState::stand
         : m == motion::MotionType::user_control ? ControlState::ctrl
                                                 : ControlState::damping;
}

struct GamepadSelector {
  static constexpr std::string_view name = "state_machine";
  using inputs = ports<GamepadPort, motion::SafetyPort, previous<motion::CollectorReportPort>>;
  using outputs = ports<motion::MotionSelectionPort>;
  StateMachine initial;  // the configuration reset() returns to
  StateMachine machine = initial;

  void cycle(const Gamepad& pad, const motion::SafetyStatus& safety, const motion::CollectorReport& last_report,
             motion::MotionSelection& out) {
    auto cause = motion::SelectionCause::requested;
    // Gamepad first, in the framework's order: R2 -> stand, A -> ctrl, L2 + B -> stop.
    if (pad.R2.on_press) machine.stand();
    if (pad.A.on_press) machine.ctrl();
    if (pad.L2.pressed && pad.B.pressed) machine.stop();
    // Safety overrides whatever the gamepad asked for in this cycle.
    if (const auto forced = motion::safety_override(motion_of(machine.state), safety, last_report)) {
      machine.stop();
      cause = *forced;
    }
    if (machine.state == ControlState::stand) {
      if (pad.R2.pressed) machine.standing(true);
      if (pad.R1.pressed) machine.standing(false);
    }
    out = last_;
    out.previous = last_.current;
    out.current = motion_of(machine.state);
    out.gain_ratio = machine.pd_ratio;
    out.commanded = true;  // the gamepad is the behaviour
    out.changed = out.current != last_.current;
    out.cause = out.changed ? cause : motion::SelectionCause::none;
    last_ = out;
  }
  void reset() {
    machine = initial;
    last_ = {};
  }

 private:
  motion::MotionSelection last_{};
};

}  // namespace praxis::control
