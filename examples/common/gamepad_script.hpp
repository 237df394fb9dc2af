#pragma once
// The fake robots' --gamepad option: "R2:0.5-3.0,A:4.0" — button, press time (s), optional release
// time (else a 0.1 s tap) — scheduled on a mock robot's gamepad from t0.
//
// A bad script throws std::invalid_argument whose message starts with "--gamepad: " and quotes the
// item; nothing else escapes. Times are plain decimal seconds from 0 to k_gamepad_max_seconds, and
// a release may not come before its press: a time the robot's clock cannot hold (1e300, inf, nan)
// must be refused here rather than overflow into a nonsense time point.

#include <charconv>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <praxis/core/clock.hpp>
#include <praxis/core/gamepad.hpp>

namespace example {

// About eleven days: longer than any fake-robot run, far inside the clock's range.
inline constexpr double k_gamepad_max_seconds = 1e6;

inline std::optional<praxis::GamepadButton> button_named(const std::string& name) {
  static const char* names[] = {"R1", "L1", "start", "select", "R2", "L2", "F1", "F2",
                                "A",  "B",  "X",     "Y",      "up", "right", "down", "left"};
  for (int b = 0; b < 16; ++b) {
    if (name == names[b]) return static_cast<praxis::GamepadButton>(b);
  }
  return std::nullopt;
}

namespace detail {

// The whole of `text` as seconds; std::stod took "1.5x" as 1.5, threw a bare "stod" on "x" and
// std::out_of_range on "1e999".
inline double gamepad_seconds(const std::string& item, std::string_view text, std::string_view which) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  if (text.empty() || error != std::errc() || stop != end || !(value >= 0.0 && value <= k_gamepad_max_seconds)) {
    throw std::invalid_argument("--gamepad: \"" + item + "\": the " + std::string(which) + " time \"" +
                                std::string(text) + "\" is not a number of seconds from 0 to " +
                                std::to_string(static_cast<long>(k_gamepad_max_seconds)));
  }
  return value;
}

}  // namespace detail

template <class Robot>
void script_gamepad(Robot& robot, const std::string& script, praxis::TimePoint t0) {
  std::stringstream all(script);
  std::string item;
  while (std::getline(all, item, ',')) {
    const auto colon = item.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("--gamepad: \"" + item + "\" is not BUTTON:START[-END]");
    const auto button = button_named(item.substr(0, colon));
    if (!button) throw std::invalid_argument("--gamepad: unknown button \"" + item.substr(0, colon) + "\"");
    const std::string_view times = std::string_view(item).substr(colon + 1);
    const auto dash = times.find('-');
    const double from = detail::gamepad_seconds(item, times.substr(0, dash), "press");
    const double until =
        dash == std::string_view::npos ? from + 0.1 : detail::gamepad_seconds(item, times.substr(dash + 1), "release");
    if (until < from) {
      throw std::invalid_argument("--gamepad: \"" + item + "\": the release time comes before the press time");
    }
    robot.press(*button, t0 + praxis::from_seconds(from));
    robot.release(*button, t0 + praxis::from_seconds(until));
  }
}

}  // namespace example
