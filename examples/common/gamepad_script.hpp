#pragma once
// The fake robots' --gamepad option: "R2:0.5-3.0,A:4.0" — button, press time (s), optional release
// time (else a 0.1 s tap) — scheduled on a mock robot's gamepad from t0.

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include <praxis/core/clock.hpp>
#include <praxis/core/gamepad.hpp>

namespace example {

inline std::optional<praxis::GamepadButton> button_named(const std::string& name) {
  static const char* names[] = {"R1", "L1", "start", "select", "R2", "L2", "F1", "F2",
                                "A",  "B",  "X",     "Y",      "up", "right", "down", "left"};
  for (int b = 0; b < 16; ++b) {
    if (name == names[b]) return static_cast<praxis::GamepadButton>(b);
  }
  return std::nullopt;
}

template <class Robot>
void script_gamepad(Robot& robot, const std::string& script, praxis::TimePoint t0) {
  std::stringstream all(script);
  std::string item;
  while (std::getline(all, item, ',')) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("--gamepad: \"" + item + "\" is not BUTTON:START[-END]");
    const auto button = button_named(item.substr(0, colon));
    if (!button) throw std::invalid_argument("--gamepad: unknown button \"" + item.substr(0, colon) + "\"");
    const auto times = item.substr(colon + 1);
    const auto dash = times.find('-');
    const double from = std::stod(times.substr(0, dash));
    const double until = dash == std::string::npos ? from + 0.1 : std::stod(times.substr(dash + 1));
    robot.press(*button, t0 + praxis::from_seconds(from));
    robot.release(*button, t0 + praxis::from_seconds(until));
  }
}

}  // namespace example
