// The fake robots' --gamepad option (examples/common/gamepad_script.hpp): the input is the option's
// text, scheduled on a robot that records the presses and releases. A bad script must give a
// std::invalid_argument starting with "--gamepad: " (anything else escaping is a finding); a script
// that is taken schedules one press and one release per item, each at or after t0, the release not
// before its press, and none beyond the longest time the option allows.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../examples/common/gamepad_script.hpp"
#include "finding.hpp"

namespace {

constexpr const char* k_target = "gamepad_script";

struct Recorder {  // the part of MockRobot that script_gamepad uses
  struct Event {
    praxis::GamepadButton button;
    praxis::TimePoint at;
  };
  std::vector<Event> presses, releases;
  void press(praxis::GamepadButton b, praxis::TimePoint at) { presses.push_back({b, at}); }
  void release(praxis::GamepadButton b, praxis::TimePoint at) { releases.push_back({b, at}); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string script(reinterpret_cast<const char*>(data), size);
  const praxis::TimePoint t0(std::chrono::seconds(1000));
  const auto latest = t0 + praxis::from_seconds(example::k_gamepad_max_seconds + 0.1);
  Recorder robot;
  try {
    example::script_gamepad(robot, script, t0);
  } catch (const std::invalid_argument& e) {
    praxis::fuzz::require(std::string_view(e.what()).starts_with("--gamepad: "), k_target,
                          "an error does not start with \"--gamepad: \"");
    return 0;
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  praxis::fuzz::require(robot.presses.size() == robot.releases.size(), k_target, "a press without its release");
  for (std::size_t i = 0; i < robot.presses.size(); ++i) {
    const auto& p = robot.presses[i];
    const auto& r = robot.releases[i];
    praxis::fuzz::require(p.button == r.button, k_target, "a release of another button than the press");
    praxis::fuzz::require(p.at >= t0 && r.at >= p.at && r.at <= latest, k_target,
                          "a press before t0, a release before its press, or a time beyond the option's range");
  }
  return 0;
}
