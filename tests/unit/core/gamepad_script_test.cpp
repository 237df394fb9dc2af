// core/gamepad_script.hpp: the text form (buttons pressed and released, sticks held) parsed into
// items, every bad item a std::invalid_argument starting with the option's name that quotes the
// item, and no time outside 0..10^6 s reaching the clock; the script played forward in time, axes
// centred again at their end or held to the end, events at one instant kept in order.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "praxis/core/gamepad_script.hpp"

namespace gamepad_script_test {


const praxis::TimePoint k_t0{std::chrono::seconds(100)};
praxis::TimePoint at(double seconds) { return k_t0 + praxis::from_seconds(seconds); }

// The message of the std::invalid_argument the script gives.
std::string error_of(const std::string& script, const std::string& option = "--gamepad") {
  try {
    (void)praxis::parse_gamepad_script(script, option);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("no error for " << script);
  return {};
}

}  // namespace gamepad_script_test

using gamepad_script_test::at;
using gamepad_script_test::error_of;
using gamepad_script_test::k_t0;

TEST_CASE("gamepad script: each button item presses at its start and releases at its end or 0.1 s later",
          "[core][gamepad_script]") {
  const auto items = praxis::parse_gamepad_script("R2:0.5-3.0,A:4");
  REQUIRE(items.size() == 2);
  CHECK(!items[0].is_axis);
  CHECK(items[0].button == praxis::GamepadButton::R2);
  CHECK(items[0].from == 0.5);
  CHECK(items[0].until == 3.0);
  CHECK(items[1].button == praxis::GamepadButton::A);
  CHECK(items[1].from == 4.0);
  CHECK(items[1].until == Approx(4.1));

  praxis::GamepadScript pad("R2:0.5-3.0,A:4", k_t0);
  CHECK(!pad.state_at(at(0.499)).pressed(praxis::GamepadButton::R2));
  CHECK(pad.state_at(at(0.5)).pressed(praxis::GamepadButton::R2));
  CHECK(pad.state_at(at(2.999)).pressed(praxis::GamepadButton::R2));
  CHECK(!pad.state_at(at(3.0)).pressed(praxis::GamepadButton::R2));
  CHECK(pad.state_at(at(4.05)).pressed(praxis::GamepadButton::A));
  // 4.0 + 0.1 s is not exact in binary: released within a microsecond of 4.1 s.
  CHECK(!pad.state_at(at(4.1) + std::chrono::microseconds(1)).pressed(praxis::GamepadButton::A));
  CHECK(pad.state().buttons == 0);
}

TEST_CASE("gamepad script: an axis item holds its value from its start to its end, then centres, or without an end "
          "to the end",
          "[core][gamepad_script]") {
  const auto items = praxis::parse_gamepad_script("R2:0.5-3.0,A:4.0,LY=0.5@10-30,rx=-1@12,LX=0.25@1.5-2");
  REQUIRE(items.size() == 5);
  CHECK(items[2].is_axis);
  CHECK(items[2].axis == praxis::GamepadAxis::ly);
  CHECK(items[2].value == 0.5f);
  CHECK(items[2].from == 10.0);
  CHECK(items[2].until == 30.0);
  CHECK(items[3].axis == praxis::GamepadAxis::rx);
  CHECK(items[3].value == -1.0f);
  CHECK(std::isinf(items[3].until));

  praxis::GamepadScript pad;
  pad.add(items, k_t0);
  const auto s1 = pad.state_at(at(1.0));
  CHECK(s1.lx == 0.0f);
  CHECK(s1.pressed(praxis::GamepadButton::R2));
  CHECK(pad.state_at(at(1.5)).lx == 0.25f);
  CHECK(pad.state_at(at(2.0)).lx == 0.0f);  // centred at its end
  CHECK(pad.state_at(at(9.99)).ly == 0.0f);
  const auto s10 = pad.state_at(at(10.0));
  CHECK(s10.ly == 0.5f);
  CHECK(s10.lx == 0.0f);
  CHECK(s10.rx == 0.0f);
  CHECK(s10.ry == 0.0f);
  const auto s20 = pad.state_at(at(20.0));
  CHECK(s20.ly == 0.5f);
  CHECK(s20.rx == -1.0f);
  CHECK(s20.buttons == 0);
  const auto s30 = pad.state_at(at(30.0));
  CHECK(s30.ly == 0.0f);
  CHECK(s30.rx == -1.0f);
  CHECK(pad.state_at(at(1e5)).rx == -1.0f);  // held to the end
}

TEST_CASE("gamepad script: axis names in either case, every axis its own field", "[core][gamepad_script]") {
  for (const auto& [name, axis] : std::vector<std::pair<std::string, praxis::GamepadAxis>>{
           {"lx", praxis::GamepadAxis::lx}, {"LY", praxis::GamepadAxis::ly}, {"Rx", praxis::GamepadAxis::rx}, {"ry", praxis::GamepadAxis::ry}}) {
    INFO(name);
    praxis::GamepadScript pad(name + "=-0.75@1", k_t0);
    const auto s = pad.state_at(at(1.0));
    CHECK(s.axis(axis) == -0.75f);
    float others = 0.0f;
    for (const auto a : {praxis::GamepadAxis::lx, praxis::GamepadAxis::ly, praxis::GamepadAxis::rx, praxis::GamepadAxis::ry}) {
      if (a != axis) others += std::abs(s.axis(a));
    }
    CHECK(others == 0.0f);
  }
}

TEST_CASE("gamepad script: a time that is not plain seconds in range is a clear error, not UB or a foreign exception",
          "[core][gamepad_script][fuzz]") {
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
  CHECK(error_of("A") == "--gamepad: \"A\" is not BUTTON:START[-END] or AXIS=VALUE@START[-END]");
  CHECK(error_of("A:1,,B:2") == "--gamepad: \"\" is not BUTTON:START[-END] or AXIS=VALUE@START[-END]");
}

TEST_CASE("gamepad script: a bad axis item is refused, quoting it: unknown axis, value outside [-1, 1] or not a "
          "number, times",
          "[core][gamepad_script]") {
  CHECK(error_of("LZ=0.5@1") == "--gamepad: \"LZ=0.5@1\": unknown axis \"LZ\" (one of lx, ly, rx, ry)");
  CHECK(error_of("L2=0.5@1") == "--gamepad: \"L2=0.5@1\": unknown axis \"L2\" (one of lx, ly, rx, ry)");
  CHECK(error_of("LY=0.5") == "--gamepad: \"LY=0.5\": an axis item is AXIS=VALUE@START[-END]");
  CHECK(error_of("LY=1.5@1") == "--gamepad: \"LY=1.5@1\": the value \"1.5\" is not a number from -1 to 1");
  CHECK(error_of("LY=-1.01@1") == "--gamepad: \"LY=-1.01@1\": the value \"-1.01\" is not a number from -1 to 1");
  CHECK(error_of("LY=nan@1") == "--gamepad: \"LY=nan@1\": the value \"nan\" is not a number from -1 to 1");
  CHECK(error_of("LY=inf@1").find("the value \"inf\"") != std::string::npos);
  CHECK(error_of("LY=-inf@1").find("the value \"-inf\"") != std::string::npos);
  CHECK(error_of("LY=@1").find("the value \"\"") != std::string::npos);
  CHECK(error_of("LY=0.5x@1").find("the value \"0.5x\"") != std::string::npos);
  CHECK(error_of("LY=0.5@1e999") == "--gamepad: \"LY=0.5@1e999\": the start time \"1e999\" is not a number of seconds "
                                    "from 0 to 1000000");
  CHECK(error_of("LY=0.5@nan").find("the start time \"nan\"") != std::string::npos);
  CHECK(error_of("LY=0.5@3-1") == "--gamepad: \"LY=0.5@3-1\": the end time comes before the start time");
  CHECK(error_of("LY=0.5@1-x").find("the end time \"x\"") != std::string::npos);
  // The option named is the caller's.
  CHECK(error_of("LY=2@1", "--operator").rfind("--operator: \"LY=2@1\"", 0) == 0);
}

TEST_CASE("gamepad script: two items on one button or axis may not overlap, on different ones they may",
          "[core][gamepad_script]") {
  CHECK(error_of("LY=0.5@0-10,LY=-0.5@5-20") ==
        "--gamepad: \"LY=-0.5@5-20\": overlaps \"LY=0.5@0-10\" on ly");
  CHECK(error_of("LY=0.5@0,ly=0.2@100") == "--gamepad: \"ly=0.2@100\": overlaps \"LY=0.5@0\" on ly");  // to the end
  CHECK(error_of("A:4.0-5.0,A:4.5") == "--gamepad: \"A:4.5\": overlaps \"A:4.0-5.0\" on A");
  CHECK(error_of("A:4.0,A:4.05") == "--gamepad: \"A:4.05\": overlaps \"A:4.0\" on A");  // a tap lasts 0.1 s
  CHECK(praxis::parse_gamepad_script("LY=0.5@0-10,LY=-0.5@10-20,LX=1@5,R2:1-6,A:7,A:8,A:9,L2:1-6").size() == 8);
  // Back to back on one axis: the second value holds from the instant the first ends.
  praxis::GamepadScript pad("LY=0.5@0-10,LY=-0.5@10-20", k_t0);
  CHECK(pad.state_at(at(9.9)).ly == 0.5f);
  CHECK(pad.state_at(at(10.0)).ly == -0.5f);
  CHECK(pad.state_at(at(20.0)).ly == 0.0f);
}

TEST_CASE("gamepad script: nothing of a refused script is scheduled", "[core][gamepad_script]") {
  praxis::GamepadScript pad("B:1", k_t0);
  CHECK_THROWS_AS(pad.add("A:1,LY=0.5@2,RX=3@4", k_t0), std::invalid_argument);
  CHECK(!pad.state_at(at(1.05)).pressed(praxis::GamepadButton::A));
  CHECK(pad.state().pressed(praxis::GamepadButton::B));
  CHECK(pad.state_at(at(5)).ly == 0.0f);
}

TEST_CASE("gamepad script: the longest time allowed still schedules and an empty script schedules nothing",
          "[core][gamepad_script]") {
  const auto items = praxis::parse_gamepad_script("start:1000000-1000000,RY=1@1000000");
  REQUIRE(items.size() == 2);
  praxis::GamepadScript pad;
  pad.add(items, k_t0);
  CHECK(pad.state_at(at(1e6)).ry == 1.0f);
  CHECK(praxis::parse_gamepad_script("").empty());
  CHECK(praxis::GamepadScript("", k_t0).empty());
}

TEST_CASE("gamepad script: programmatic presses and axes play in time order, one instant in the order given",
          "[core][gamepad_script]") {
  praxis::GamepadScript pad;
  pad.set_axis(praxis::GamepadAxis::ly, 0.5f, at(2));
  pad.press(praxis::GamepadButton::X, at(1));
  pad.release(praxis::GamepadButton::X, at(1));  // the same instant: pressed, then released
  pad.set_axis(praxis::GamepadAxis::ly, std::numeric_limits<float>::quiet_NaN(), at(3));  // a glitching remote
  CHECK(pad.state_at(at(0.5)).buttons == 0);
  CHECK(!pad.state_at(at(1)).pressed(praxis::GamepadButton::X));
  CHECK(pad.state_at(at(2)).ly == 0.5f);
  CHECK(std::isnan(pad.state_at(at(3)).ly));
  CHECK(std::isnan(pad.state_at(at(1)).ly));  // time only moves forward
}
