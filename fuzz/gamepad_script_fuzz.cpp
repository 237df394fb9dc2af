// The gamepad script's text (core/gamepad_script.hpp: the fake robots' --gamepad option): the
// input is the option's text. A bad script must give a std::invalid_argument starting with
// "--gamepad: " (anything else escaping is a finding); a script that is taken gives items whose
// times lie in 0 .. 10^6 s (a button's release not before its press and at most a tap past the
// longest time; an axis's end not before its start, or none), whose axis values are in [-1, 1],
// and which play on a GamepadScript from t0 to a gamepad whose every axis is in [-1, 1].

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "finding.hpp"
#include "praxis/core/gamepad_script.hpp"

namespace {

constexpr const char* k_target = "gamepad_script";

bool in_unit_range(float v) { return v >= -1.0f && v <= 1.0f; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string script(reinterpret_cast<const char*>(data), size);
  std::vector<praxis::GamepadScriptItem> items;
  try {
    items = praxis::parse_gamepad_script(script);
  } catch (const std::invalid_argument& e) {
    praxis::fuzz::require(std::string_view(e.what()).starts_with("--gamepad: "), k_target,
                          "an error does not start with \"--gamepad: \"");
    return 0;
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  const double longest = praxis::k_gamepad_script_max_seconds;
  for (const auto& item : items) {
    praxis::fuzz::require(item.from >= 0.0 && item.from <= longest, k_target, "a start time outside 0 .. 10^6 s");
    praxis::fuzz::require(item.until >= item.from, k_target, "an end before its start");
    if (item.is_axis) {
      praxis::fuzz::require(in_unit_range(item.value), k_target, "an axis value outside [-1, 1] or not a number");
      praxis::fuzz::require(item.until <= longest || item.until == std::numeric_limits<double>::infinity(), k_target,
                            "an axis end beyond the option's range");
    } else {
      praxis::fuzz::require(item.until <= longest + praxis::k_gamepad_tap_seconds, k_target,
                            "a release beyond the option's range");
    }
  }
  const praxis::TimePoint t0(std::chrono::seconds(1000));
  praxis::GamepadScript pad;
  pad.add(items, t0);
  for (const double t : {0.0, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, longest + 1.0}) {
    const auto& s = pad.state_at(t0 + praxis::from_seconds(t));
    praxis::fuzz::require(in_unit_range(s.lx) && in_unit_range(s.ly) && in_unit_range(s.rx) && in_unit_range(s.ry),
                          k_target, "a played axis outside [-1, 1]");
  }
  return 0;
}
