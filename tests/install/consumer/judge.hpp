#pragma once
// What the two fake-robot consumers share: how a run is judged and printed. Their operator is
// praxis::control::stand_then_ctrl (the installed praxis/control/with_gamepad.hpp), played by
// WithScriptedGamepad; a real program calls WithGamepad::set_gamepad() from its joystick reader.

#include <cstdio>
#include <string>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/with_gamepad.hpp>

namespace consumer {

// The transitions, the outcome and the final state; 0 when the run went DAMPING -> STAND -> CTRL,
// was still in CTRL when its time was up, and ended normally with control handed back.
template <class Controller>
int judge(const Controller& controller, const praxis::control::RunOutcome& outcome) {
  bool stood = false;
  for (const auto& e : controller.transitions()) {
    const auto from = praxis::control::control_state(e.from);
    const auto to = praxis::control::control_state(e.to);
    std::printf("  %7.3f s  %s -> %s\n", e.time, std::string(praxis::control::to_string(from)).c_str(),
                std::string(praxis::control::to_string(to)).c_str());
    if (to == praxis::control::ControlState::stand) stood = true;
  }
  const auto final_state = controller.state();
  std::printf("final state: %s\n%s\n", std::string(praxis::control::to_string(final_state)).c_str(),
              outcome.summary().c_str());
  return stood && final_state == praxis::control::ControlState::ctrl && outcome.ok() ? 0 : 1;
}

}  // namespace consumer
