#pragma once
// What the two fake-robot consumers share: the operator's gamepad for a robot whose state carries no
// remote (Fourier Aurora, Walker Tienkung), and how a run is judged and printed.
//
// OperatorScript<B> is a praxis::control::WithGamepad<B> whose gamepad follows a fixed script: R2 held from
// `r2_from` to `r2_until` (STAND), A tapped at `a_at` (CTRL, the USER_CTRL), in seconds from the
// first state read once control was taken. A real program calls set_gamepad() from its joystick
// reader instead.

#include <cstdio>
#include <string>

#include <praxis/control/robot_controller.hpp>
#include <praxis/control/with_gamepad.hpp>
#include <praxis/core/gamepad.hpp>

namespace consumer {

template <praxis::Backend B>
class OperatorScript : public praxis::control::WithGamepad<B> {
 public:
  static constexpr std::size_t N = B::model::joint_count;
  OperatorScript(B& backend, double r2_from, double r2_until, double a_at)
      : praxis::control::WithGamepad<B>(backend), r2_from_(r2_from), r2_until_(r2_until), a_at_(a_at) {}

  bool read(praxis::RobotState<N>& state, praxis::TimePoint now) {
    if (!started_) {
      started_ = true;
      t0_ = now;
    }
    const double t = praxis::to_seconds(now - t0_);
    praxis::GamepadState pad;
    pad.set(praxis::GamepadButton::R2, t >= r2_from_ && t < r2_until_);
    pad.set(praxis::GamepadButton::A, t >= a_at_ && t < a_at_ + 0.1);
    this->set_gamepad(pad);
    return praxis::control::WithGamepad<B>::read(state, now);
  }

 private:
  double r2_from_, r2_until_, a_at_;
  bool started_ = false;
  praxis::TimePoint t0_{};
};

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
