#pragma once
// The damping / stand / control state machine of the Unitree deployment framework, rule for rule:
//   stop()   from anywhere -> DAMPING, pd_ratio = 0
//   stand()  from DAMPING or CTRL -> STAND (pd_ratio kept)
//   ctrl()   from STAND, only when pd_ratio > 0.95 -> CTRL
//   standing(up) in STAND: pd_ratio += / -= delta_pd, clamped to [0, 1]
// pd_ratio starts at 0.1 and delta_pd is 0.005, as in the framework. praxis starts in DAMPING (the
// framework starts in STAND once R2 is pressed; praxis has no separate "press R2 to start" wait, so
// the first R2 press enters STAND from DAMPING instead).

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace praxis::control {

enum class ControlState : std::uint8_t { damping = 0, stand = 1, ctrl = 2 };

[[nodiscard]] constexpr std::string_view to_string(ControlState s) {
  switch (s) {
    case ControlState::damping: return "DAMPING";
    case ControlState::stand: return "STAND";
    case ControlState::ctrl: return "CTRL";
  }
  return "?";
}

struct StateMachine {
  ControlState state = ControlState::damping;
  double pd_ratio = 0.1;
  double delta_pd = 0.005;
  double ctrl_threshold = 0.95;

  constexpr bool stop() {
    state = ControlState::damping;
    pd_ratio = 0.0;
    return true;
  }
  constexpr bool stand() {
    if (state == ControlState::damping || state == ControlState::ctrl) {
      state = ControlState::stand;
      return true;
    }
    return false;
  }
  constexpr bool ctrl() {
    if (state == ControlState::stand && pd_ratio > ctrl_threshold) {
      state = ControlState::ctrl;
      return true;
    }
    return false;
  }
  constexpr void standing(bool up) {
    if (state != ControlState::stand) return;
    pd_ratio += up ? delta_pd : -delta_pd;
    pd_ratio = std::clamp(pd_ratio, 0.0, 1.0);
  }
};

}  // namespace praxis::control
