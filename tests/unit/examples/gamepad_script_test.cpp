// The fake robots' --gamepad option (examples/common/gamepad_script.hpp): items schedule presses
// and releases from t0; every bad item is a std::invalid_argument starting with "--gamepad: " that
// quotes the item, and no time outside 0..k_gamepad_max_seconds reaches the clock.

#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../../examples/common/gamepad_script.hpp"

namespace gamepad_script_test {

struct Recorder {
  struct Event {
    praxis::GamepadButton button;
    praxis::TimePoint at;
  };
  std::vector<Event> presses, releases;
  void press(praxis::GamepadButton b, praxis::TimePoint at) { presses.push_back({b, at}); }
  void release(praxis::GamepadButton b, praxis::TimePoint at) { releases.push_back({b, at}); }
};

const praxis::TimePoint k_t0{std::chrono::seconds(100)};

// The message of the std::invalid_argument the script gives; nothing may be scheduled before it
// for the bad item.
std::string error_of(const std::string& script) {
  Recorder robot;
  try {
    example::script_gamepad(robot, script, k_t0);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("no error for " << script);
  return {};
}

}  // namespace gamepad_script_test

using gamepad_script_test::error_of;
using gamepad_script_test::k_t0;

TEST_CASE("gamepad script: each item presses at its start and releases at its end or 0.1 s later", "[examples]") {
  gamepad_script_test::Recorder robot;
  example::script_gamepad(robot, "R2:0.5-3.0,A:4", k_t0);
  REQUIRE(robot.presses.size() == 2);
  REQUIRE(robot.releases.size() == 2);
  CHECK(robot.presses[0].button == praxis::GamepadButton::R2);
  CHECK(robot.presses[0].at == k_t0 + std::chrono::milliseconds(500));
  CHECK(robot.releases[0].at == k_t0 + std::chrono::seconds(3));
  CHECK(robot.presses[1].button == praxis::GamepadButton::A);
  CHECK(robot.presses[1].at == k_t0 + std::chrono::seconds(4));
  // 4.0 + 0.1 s is not exact in binary: within a microsecond of 4.1 s.
  CHECK(std::chrono::abs(robot.releases[1].at - (k_t0 + std::chrono::milliseconds(4100))) <= std::chrono::microseconds(1));
}

TEST_CASE("gamepad script: a time that is not plain seconds in range is a clear error, not UB or a foreign exception",
          "[examples][fuzz]") {
  // Found with the gamepad_script fuzz target (fuzz/regressions/gamepad_script/): std::stod let
  // std::out_of_range escape ("1e999"), threw a bare "stod" ("x"), took "1.5s" as 1.5, and passed
  // nan / 1e300 on to a nanosecond clock, which is undefined behaviour.
  CHECK(error_of("A:1e999") == "--gamepad: \"A:1e999\": the press time \"1e999\" is not a number of seconds from 0 to 1000000");
  CHECK(error_of("A:1e300").find("the press time \"1e300\" is not a number of seconds") != std::string::npos);
  CHECK(error_of("B:nan").find("the press time \"nan\"") != std::string::npos);
  CHECK(error_of("B:inf").find("the press time \"inf\"") != std::string::npos);
  CHECK(error_of("Y:x").find("the press time \"x\"") != std::string::npos);
  CHECK(error_of("Y:1.5s").find("the press time \"1.5s\"") != std::string::npos);
  CHECK(error_of("Y:").find("the press time \"\"") != std::string::npos);
  CHECK(error_of("X:-1").find("the press time \"\"") != std::string::npos);  // a dash starts the release time
  CHECK(error_of("X:1-2e9").find("the release time \"2e9\"") != std::string::npos);
  CHECK(error_of("R2:3.0-0.5") == "--gamepad: \"R2:3.0-0.5\": the release time comes before the press time");
  CHECK(error_of("Z:1") == "--gamepad: unknown button \"Z\"");
  CHECK(error_of("A") == "--gamepad: \"A\" is not BUTTON:START[-END]");
}

TEST_CASE("gamepad script: the longest time allowed still schedules", "[examples]") {
  gamepad_script_test::Recorder robot;
  example::script_gamepad(robot, "start:1000000-1000000", k_t0);
  REQUIRE(robot.releases.size() == 1);
  CHECK(robot.releases[0].at == k_t0 + std::chrono::seconds(1000000));
}
