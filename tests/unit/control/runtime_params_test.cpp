// The runtime's safety settings from a JSON file (Boost.Hana reflection at the edge): values by
// field name, errors naming file and key, nothing applied on error, and the settings take effect.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "praxis/control/robot_controller.hpp"
#include "praxis/control/runtime_params.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "../../support/scratch_dir.hpp"

namespace runtime_params_test {

using namespace std::chrono_literals;

namespace {
// One folder for the whole run of this file, removed at exit.
std::filesystem::path write_file(const std::string& name, const std::string& text) {
  static const praxis::test::ScratchDir dir("runtime_params");
  return dir.write(name, text);
}

struct Hold {
  static constexpr std::size_t N = 12;
  double dt = 0.002, kp = 40.0, kd = 1.0;
  std::array<double, N> init_pos = praxis::unitree::Go2::stand_pose;
  std::array<double, N> jpos_des = praxis::unitree::Go2::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 0> log() const { return {}; }
};
}  // namespace

TEST_CASE("runtime settings load by field name: missing keys keep their values", "[control][params]") {
  const auto file = write_file("runtime.json", R"({
    "damping_kd": 3.5,
    "stall_timeout": 0.3,
    "safety": { "stale_timeout": 0.25 },
    "fall": { "falling_tilt": 0.8, "rest_time": 0.5 },
    "collector": { "max_kp": 300, "max_target_rate": 4 } })");
  praxis::control::ControllerOptions options;
  options.safety.tilt_threshold = -0.2;
  praxis::control::load_runtime_params(file, options);
  CHECK(options.damping_kd == 3.5);
  CHECK(options.stall_timeout == std::optional<praxis::Duration>(300ms));
  CHECK(options.safety.stale_timeout == 250ms);
  CHECK(options.safety.tilt_threshold == -0.2);  // not in the file: kept
  CHECK(options.fall.falling_tilt == 0.8);
  CHECK(options.fall.rest_rate == 0.3);
  CHECK(options.fall.rest_time == 500ms);
  CHECK(options.collector.max_kp == 300.0);
  CHECK(options.collector.max_kd == 100.0);
  CHECK(options.collector.max_target_rate == 4.0);
}

TEST_CASE("the real-time set-up loads from the runtime settings too, a list of CPUs of any length included",
          "[control][params][realtime]") {
  const auto file = write_file("realtime.json", R"({
    "realtime": { "control": { "fifo_priority": 80, "cpus": [2, 3] }, "receive": { "fifo_priority": 79 },
                  "lock_memory": true, "prefault_stack": 524288, "timer_slack": 1e-6, "cpu_latency": 0 } })");
  praxis::control::ControllerOptions options;
  options.realtime.send.cpus = {1};
  praxis::control::load_runtime_params(file, options);
  CHECK(options.realtime.control.fifo_priority == 80);
  CHECK(options.realtime.control.cpus == std::vector<int>{2, 3});
  CHECK(options.realtime.receive.fifo_priority == 79);
  CHECK(options.realtime.send.cpus == std::vector<int>{1});  // not in the file: kept
  CHECK(options.realtime.lock_memory);
  CHECK(options.realtime.prefault_stack == 524288);
  CHECK(options.realtime.prefault_heap == 0);
  REQUIRE(options.realtime.timer_slack.has_value());
  CHECK(*options.realtime.timer_slack == 1us);
  REQUIRE(options.realtime.cpu_latency.has_value());
  CHECK(*options.realtime.cpu_latency == 0us);
  const auto bad = write_file("realtime_bad.json", R"({ "realtime": { "control": { "cpus": [2, "three"] } } })");
  CHECK_THROWS_WITH(praxis::control::load_runtime_params(bad, options),
                    Catch::Contains("realtime.control.cpus[1]") && Catch::Contains("realtime_bad.json"));
  CHECK(options.realtime.control.cpus == std::vector<int>{2, 3});  // nothing half-applied
}

TEST_CASE("praxis-guard's settings load from the runtime settings: switched off, or another silence",
          "[control][params][guard]") {
  praxis::control::ControllerOptions options;
  CHECK(options.guard.enabled);  // on by default
  CHECK_FALSE(options.guard.silence.has_value());
  const auto file = write_file("guard.json", R"({ "guard": { "enabled": false, "silence": 0.75 } })");
  praxis::control::load_runtime_params(file, options);
  CHECK_FALSE(options.guard.enabled);
  REQUIRE(options.guard.silence.has_value());
  CHECK(*options.guard.silence == 750ms);
  const auto bad = write_file("guard_bad.json", R"({ "guard": { "enabled": true, "silence": 0 } })");
  CHECK_THROWS_WITH(praxis::control::load_runtime_params(bad, options),
                    Catch::Equals(bad.string() + ": key \"guard.silence\": expected a duration > 0 (s), found 0"));
  CHECK_FALSE(options.guard.enabled);  // nothing half-applied
}

TEST_CASE("bad runtime settings name file and key, and change nothing", "[control][params]") {
  praxis::control::ControllerOptions options;
  const auto before = options;
  auto check_unchanged = [&] {
    CHECK(options.damping_kd == before.damping_kd);
    CHECK(options.safety.stale_timeout == before.safety.stale_timeout);
    CHECK(options.collector.max_kp == before.collector.max_kp);
  };
  SECTION("an unknown key") {
    const auto file = write_file("unknown.json", R"({ "damping_kd": 5, "safety": { "stale": 0.2 } })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(file, options),
                      Catch::Contains("unknown.json") && Catch::Contains("safety.stale") &&
                          Catch::Contains("stale_timeout"));
    check_unchanged();
  }
  SECTION("a wrong type") {
    const auto file = write_file("type.json", R"({ "collector": { "max_kp": 200 }, "damping_kd": "high" })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(file, options),
                      Catch::Contains("type.json") && Catch::Contains("damping_kd") && Catch::Contains("number"));
    check_unchanged();
  }
  SECTION("a value out of range") {
    const auto file = write_file("range.json", R"({ "collector": { "max_target_rate": 0 }, "damping_kd": 4 })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(file, options),
                      Catch::Equals(file.string() + ": key \"collector.max_target_rate\": expected a number > 0 "
                                                    "(rad/s), found 0"));
    check_unchanged();
    const auto negative = write_file("negative.json", R"({ "damping_kd": -1.5 })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(negative, options),
                      Catch::Equals(negative.string() + ": key \"damping_kd\": expected a number >= 0, found -1.5"));
    const auto stall = write_file("stall.json", R"({ "stall_timeout": 0, "damping_kd": 4 })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(stall, options),
                      Catch::Equals(stall.string() + ": key \"stall_timeout\": expected a duration > 0 (s), found 0"));
    CHECK_FALSE(options.stall_timeout.has_value());
    const auto latency = write_file("latency.json", R"({ "realtime": { "cpu_latency": -0.00002 } })");
    CHECK_THROWS_WITH(praxis::control::load_runtime_params(latency, options),
                      Catch::Contains("key \"realtime.cpu_latency\": expected a duration >= 0 (s), found -2e-05"));
    check_unchanged();
  }
  SECTION("a missing file") {
    CHECK_THROWS_WITH(praxis::control::load_runtime_params("/nonexistent/runtime.json", options),
                      Catch::Contains("/nonexistent/runtime.json"));
    check_unchanged();
  }
}

TEST_CASE("loaded settings take effect: a longer stale timeout rides out a short silence", "[control][params]") {
  const auto file = write_file("stale.json", R"({ "safety": { "stale_timeout": 0.4 } })");
  for (const bool loaded : {false, true}) {
    praxis::mock::MockRobot<praxis::unitree::Go2> robot;
    praxis::control::ControllerOptions options;
    options.print = false;
    if (loaded) praxis::control::load_runtime_params(file, options);
    praxis::control::RobotController<decltype(robot), Hold> controller(robot, options);
    praxis::TimePoint now{};
    robot.hold(praxis::GamepadButton::R2, now + 100ms, 5s);
    robot.drop_states(now + 1s, now + 1250ms);  // 250 ms of silence
    while (now < praxis::TimePoint{} + 2s) controller.step(now += 2ms);
    INFO("stale_timeout loaded: " << loaded);
    CHECK(controller.state() == (loaded ? praxis::control::ControlState::stand : praxis::control::ControlState::damping));
  }
}

}  // namespace runtime_params_test
