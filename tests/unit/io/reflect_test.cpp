// Reflected structs: parameters load from real JSON files by field name, every kind of bad input is
// an error naming file, key and expected type, nothing is half-applied; the CSV recorder. (Flattening
// into named columns is tested in reflect_fields_test.cpp, the field kinds in reflect_kinds_test.cpp.)

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "praxis/io/reflect.hpp"
#include "../../support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace reflect_test {

enum class Gait : int { stand = 0, trot = 1, bound = 2 };
enum class Level : unsigned char { low = 1, high = 7 };

struct Gains {
  BOOST_HANA_DEFINE_STRUCT(Gains,
    (std::array<double, 4>, kp),
    (std::array<double, 4>, kd));
};

struct Limits {
  double max_speed = 1.0;
  int max_steps = 10;
};

struct Imu {
  BOOST_HANA_DEFINE_STRUCT(Imu,
    (Eigen::Vector3d, gyro),
    (std::array<float, 2>, tilt));
};

struct WalkParams {
  BOOST_HANA_DEFINE_STRUCT(WalkParams,
    (double, speed),
    (float, step_height),
    (int, steps),
    (std::uint8_t, leg_count),
    (bool, enabled),
    (std::string, name),
    (Gait, gait),
    (Level, level),
    (Gains, gains),
    (Limits, limits),
    (Eigen::Vector3d, offset),
    (std::chrono::milliseconds, timeout),
    (std::chrono::duration<double>, period),
    (std::optional<double>, trim),
    (std::optional<Gains>, extra_gains));
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
    (double, t),
    (Imu, imu),
    (bool, ok),
    (Gait, gait),
    (std::chrono::milliseconds, age),
    (std::optional<double>, estimate),
    (std::string, label));
};

struct Stamped {
  BOOST_HANA_DEFINE_STRUCT(Stamped,
    (std::chrono::steady_clock::time_point, stamp),
    (std::array<double, 2>, xy));
};

// A port as the graph declares them: the recorder names its columns after the port.
struct StampedPort {
  using type = Stamped;
  static constexpr std::string_view name = "odometry";
};

}  // namespace reflect_test

BOOST_HANA_ADAPT_STRUCT(reflect_test::Limits, max_speed, max_steps);

template <>
struct praxis::io::EnumNames<reflect_test::Level> {
  static constexpr std::array<std::pair<reflect_test::Level, std::string_view>, 2> values{
      {{reflect_test::Level::low, "low"}, {reflect_test::Level::high, "high"}}};
};

namespace {

using reflect_test::Gait;
using reflect_test::Level;
using reflect_test::State;
using reflect_test::WalkParams;

struct TempDir {
  praxis::test::ScratchDir scratch{"reflect"};
  const fs::path& path = scratch.path();
  [[nodiscard]] fs::path write(const std::string& text, const std::string& name = "params.json") const {
    return scratch.write(name, text);
  }
};

WalkParams defaults() {
  WalkParams p{};
  p.speed = 0.5;
  p.step_height = 0.05f;
  p.steps = 3;
  p.leg_count = 4;
  p.enabled = false;
  p.name = "default";
  p.gait = Gait::stand;
  p.level = Level::low;
  p.gains.kp = {1, 1, 1, 1};
  p.gains.kd = {0.1, 0.1, 0.1, 0.1};
  p.offset = Eigen::Vector3d(0, 0, 0);
  p.timeout = 100ms;
  p.period = std::chrono::duration<double>(0.002);
  return p;
}

// The message of the ParamError thrown by loading `json` over the defaults, which must survive.
std::string load_error(const std::string& json) {
  TempDir dir;
  const auto file = dir.write(json);
  WalkParams p = defaults();
  try {
    praxis::io::load_struct_into(p, file);
  } catch (const praxis::io::ParamError& e) {
    // Nothing half-applied: every member is still the default.
    const WalkParams d = defaults();
    CHECK(p.speed == d.speed);
    CHECK(p.steps == d.steps);
    CHECK(p.name == d.name);
    CHECK(p.gains.kp == d.gains.kp);
    CHECK(p.limits.max_speed == d.limits.max_speed);
    std::string message = e.what();
    CHECK(message.find(file.string()) == 0);
    return message;
  }
  FAIL("no ParamError for " << json);
  return {};
}

}  // namespace

TEST_CASE("every supported field kind loads from a JSON file by name", "[io][reflect]") {
  TempDir dir;
  const auto file = dir.write(R"({
    "speed": 0.8, "step_height": 0.07, "steps": -2, "leg_count": 6, "enabled": true,
    "name": "trot fast", "gait": 1, "level": "high",
    "gains": {"kp": [10, 20, 30, 40.5], "kd": [1, 2, 3, 4]},
    "limits": {"max_speed": 2.5, "max_steps": 12},
    "offset": [0.1, -0.2, 0.3],
    "timeout": 0.25, "period": 0.004,
    "trim": 0.01,
    "extra_gains": {"kp": [5, 6, 7, 8]}
  })");
  const auto p = praxis::io::load_struct<WalkParams>(file);
  CHECK(p.speed == 0.8);
  CHECK(p.step_height == 0.07f);
  CHECK(p.steps == -2);
  CHECK(p.leg_count == 6);
  CHECK(p.enabled);
  CHECK(p.name == "trot fast");
  CHECK(p.gait == Gait::trot);
  CHECK(p.level == Level::high);
  CHECK(p.gains.kp == std::array<double, 4>{10, 20, 30, 40.5});
  CHECK(p.gains.kd == std::array<double, 4>{1, 2, 3, 4});
  CHECK(p.limits.max_speed == 2.5);
  CHECK(p.limits.max_steps == 12);
  CHECK(p.offset == Eigen::Vector3d(0.1, -0.2, 0.3));
  CHECK(p.timeout == 250ms);
  CHECK(p.period.count() == Approx(0.004));
  REQUIRE(p.trim.has_value());
  CHECK(*p.trim == 0.01);
  REQUIRE(p.extra_gains.has_value());
  CHECK(p.extra_gains->kp == std::array<double, 4>{5, 6, 7, 8});
  CHECK(p.extra_gains->kd == std::array<double, 4>{0, 0, 0, 0});  // absent inside: value-initialised
}

TEST_CASE("absent keys keep their values: null empties an optional", "[io][reflect]") {
  TempDir dir;
  WalkParams p = defaults();
  p.trim = 0.3;
  praxis::io::load_struct_into(p, dir.write(R"({"steps": 7, "gains": {"kd": [4, 3, 2, 1]}, "trim": null})"));
  CHECK(p.steps == 7);
  CHECK(p.gains.kd == std::array<double, 4>{4, 3, 2, 1});
  CHECK(p.gains.kp == defaults().gains.kp);
  CHECK(p.speed == defaults().speed);
  CHECK(p.name == "default");
  CHECK(p.timeout == 100ms);
  CHECK_FALSE(p.trim.has_value());
}

TEST_CASE("a section of a document loads with its key path in messages", "[io][reflect]") {
  const auto document = nlohmann::json::parse(R"({"walk": {"speed": 1.5, "gains": {"kp": [1, 2, 3, "x"]}}})");
  WalkParams p = defaults();
  try {
    praxis::io::load_struct_into(p, document.at("walk"), "robot.json", "walk");
    FAIL("no error");
  } catch (const praxis::io::ParamError& e) {
    CHECK(std::string(e.what()) == R"(robot.json: key "walk.gains.kp[3]": expected a number, found a string ("x"))");
  }
  CHECK(p.speed == defaults().speed);  // the valid "speed" before the error was not applied

  praxis::io::load_struct_into(p, nlohmann::json::parse(R"({"speed": 1.5})"), "robot.json", "walk");
  CHECK(p.speed == 1.5);
}

TEST_CASE("an error late in the file leaves every earlier valid value unapplied", "[io][reflect]") {
  // load_error checks that speed, steps, name, gains.kp and limits keep their defaults.
  CHECK_THAT(load_error(R"({"speed": 9, "steps": 9, "name": "x", "limits": {"max_speed": 9},
                            "gains": {"kp": [9, 9, 9, 9], "kd": [1, 2, 3]}})"),
             Catch::EndsWith(R"(: key "gains.kd": expected an array of 4 numbers, found an array of 3)"));
  CHECK_THAT(load_error(R"({"speed": 9, "steps": 9, "name": "x", "extra_gains": {"kp": [1, 2, 3, true]}})"),
             Catch::EndsWith(R"(: key "extra_gains.kp[3]": expected a number, found true)"));
}

TEST_CASE("a value of the wrong type names file, key and expected type", "[io][reflect]") {
  CHECK_THAT(load_error(R"({"speed": "fast"})"),
             Catch::EndsWith(R"(: key "speed": expected a number, found a string ("fast"))"));
  CHECK_THAT(load_error(R"({"enabled": 1})"), Catch::EndsWith(R"(: key "enabled": expected true or false, found 1)"));
  CHECK_THAT(load_error(R"({"name": 3})"), Catch::EndsWith(R"(: key "name": expected a string, found 3)"));
  CHECK_THAT(load_error(R"({"steps": 2.5})"),
             Catch::EndsWith(R"(: key "steps": expected an integer from -2147483648 to 2147483647, found 2.5)"));
  CHECK_THAT(load_error(R"({"leg_count": 300})"),
             Catch::EndsWith(R"(: key "leg_count": expected an integer from 0 to 255, found 300)"));
  CHECK_THAT(load_error(R"({"leg_count": -1})"),
             Catch::EndsWith(R"(: key "leg_count": expected an integer from 0 to 255, found -1)"));
  CHECK_THAT(load_error(R"({"step_height": 1e300})"),
             Catch::EndsWith(R"(: key "step_height": expected a number within the range of float, found 1e+300)"));
  CHECK_THAT(load_error(R"({"level": "medium"})"),
             Catch::EndsWith(R"(: key "level": expected one of "low", "high", found "medium")"));
  CHECK_THAT(load_error(R"({"gait": "trot"})"),
             Catch::EndsWith(R"(: key "gait": expected an integer from -2147483648 to 2147483647, found a string ("trot"))"));
  CHECK_THAT(load_error(R"({"timeout": "1s"})"),
             Catch::EndsWith(R"(: key "timeout": expected a number of seconds, found a string ("1s"))"));
  CHECK_THAT(load_error(R"({"timeout": 1e17})"),
             Catch::EndsWith(R"(: key "timeout": expected a number of seconds within the duration's range, found 1e+17)"));
  CHECK_THAT(load_error(R"({"trim": true})"), Catch::EndsWith(R"(: key "trim": expected a number, found true)"));
  CHECK_THAT(load_error(R"({"gains": [1, 2]})"),
             Catch::EndsWith(R"(: key "gains": expected an object with the keys kp, kd, found an array of 2)"));
  CHECK_THAT(load_error(R"([1, 2])"),
             Catch::Contains(": top level: expected an object with the keys speed, step_height, steps"));
}

namespace reflect_test {

enum Fixed : std::uint8_t { fixed_a, fixed_b };  // fixed type: holds 0..255

struct Timing {
  BOOST_HANA_DEFINE_STRUCT(Timing,
    (std::chrono::duration<float, std::milli>, blend),
    (std::chrono::duration<double, std::nano>, settle),
    (Fixed, fixed));
};

}  // namespace reflect_test

TEST_CASE("a duration whose ticks overflow a floating-point count is an error, not UB or infinity",
          "[io][reflect][fuzz]") {
  // Found by reasoning while writing the reflect_load fuzz target (fuzz/regressions/reflect_load/):
  // 1e300 s is a finite number of seconds, but as float milliseconds it overflowed (a double to
  // float conversion out of range is undefined) and as double nanoseconds it became infinity.
  TempDir dir;
  reflect_test::Timing t{};
  t.blend = std::chrono::duration<float, std::milli>(5.0f);
  for (const char* json : {R"({"blend": 1e300})", R"({"blend": -1e39})", R"({"settle": 1e300})"}) {
    CAPTURE(json);
    const auto file = dir.write(json);
    CHECK_THROWS_WITH(praxis::io::load_struct_into(t, file),
                      Catch::StartsWith(file.string() + ": key \"") &&
                          Catch::Contains("expected a number of seconds within the duration's range"));
    CHECK(t.blend.count() == 5.0f);
  }
  const auto fine = dir.write(R"({"blend": 1e30, "settle": 1e290, "fixed": 200})");
  praxis::io::load_struct_into(t, fine);
  CHECK(t.blend.count() == Approx(1e33f));
  CHECK(std::isfinite(t.settle.count()));
  CHECK(static_cast<int>(t.fixed) == 200);  // any value of a fixed type is a value of the enum
}

TEST_CASE("an array of the wrong length names the expected length", "[io][reflect]") {
  CHECK_THAT(load_error(R"({"gains": {"kp": [1, 2, 3]}})"),
             Catch::EndsWith(R"(: key "gains.kp": expected an array of 4 numbers, found an array of 3)"));
  CHECK_THAT(load_error(R"({"offset": [1, 2, 3, 4]})"),
             Catch::EndsWith(R"(: key "offset": expected an array of 3 numbers, found an array of 4)"));
  CHECK_THAT(load_error(R"({"offset": 1})"), Catch::EndsWith(R"(: key "offset": expected an array of 3 numbers, found 1)"));
  CHECK_THAT(load_error(R"({"extra_gains": {"kd": [0, 0, 0, null]}})"),
             Catch::EndsWith(R"(: key "extra_gains.kd[3]": expected a number, found null)"));
}

TEST_CASE("an unknown key is rejected with the known keys, at any depth", "[io][reflect]") {
  CHECK_THAT(load_error(R"({"sped": 1.0})"),
             Catch::Contains(R"(: key "sped": unknown key (known keys at the top level: speed, step_height, steps, )"));
  CHECK_THAT(load_error(R"({"gains": {"kq": [1, 2, 3, 4]}})"),
             Catch::EndsWith(R"(: key "gains.kq": unknown key (known keys at "gains": kp, kd))"));
  CHECK_THAT(load_error(R"({"limits": {"max_speed": 1, "min_speed": 0}})"),
             Catch::EndsWith(R"(: key "limits.min_speed": unknown key (known keys at "limits": max_speed, max_steps))"));
}

TEST_CASE("a missing, unreadable or malformed file is an error naming it", "[io][reflect]") {
  TempDir dir;
  const auto missing = dir.path / "nope.json";
  CHECK_THROWS_WITH(praxis::io::load_struct<WalkParams>(missing), missing.string() + ": parameter file not found");
  CHECK_THROWS_WITH(praxis::io::load_struct<WalkParams>(dir.path),
                    dir.path.string() + ": is a folder, expected a JSON parameter file");

  const auto bad = dir.write("{\n  \"speed\": 1.0,\n  \"steps\": \n}\n");
  CHECK_THROWS_WITH(praxis::io::load_struct<WalkParams>(bad),
                    Catch::StartsWith(bad.string() + ":4: not valid JSON ("));
  CHECK_THAT(load_error("{\"speed\": 1.0,"), Catch::Contains(": not valid JSON ("));

  if (::geteuid() != 0) {  // root reads any file
    const auto locked = dir.write(R"({"speed": 1})", "locked.json");
    fs::permissions(locked, fs::perms::none);
    CHECK_THROWS_WITH(praxis::io::load_struct<WalkParams>(locked), locked.string() + ": cannot be opened for reading");
  }
}

TEST_CASE("the CSV recorder writes a header and one row per record", "[io][reflect]") {
  TempDir dir;
  const auto file = dir.path / "state.csv";
  State s{};
  s.imu.gyro = Eigen::Vector3d(0.5, -0.25, 1e-3);
  s.imu.tilt = {0.125f, 3.0f};
  {
    praxis::io::CsvRecorder<State> recorder(file);
    for (int i = 0; i < 3; ++i) {
      s.t = 0.002 * i;
      s.ok = i != 1;
      s.gait = static_cast<Gait>(i);
      s.age = std::chrono::milliseconds(10 * i);
      s.estimate = i == 2 ? std::optional<double>(0.1) : std::nullopt;
      recorder.record(s);
    }
    CHECK(recorder.rows() == 3);
  }
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "t,imu.gyro[0],imu.gyro[1],imu.gyro[2],imu.tilt[0],imu.tilt[1],ok,gait,age,estimate");
  CHECK(lines[1] == "0,0.5,-0.25,0.001,0.125,3,1,0,0,");
  CHECK(lines[2] == "0.002,0.5,-0.25,0.001,0.125,3,0,1,0.01,");
  CHECK(lines[3] == "0.004,0.5,-0.25,0.001,0.125,3,1,2,0.02,0.1");

  CHECK_THROWS_WITH(praxis::io::CsvRecorder<State>(dir.path / "no" / "such" / "dir.csv"),
                    Catch::EndsWith("dir.csv: cannot be opened for writing"));
}

TEST_CASE("a port's value is named after the port: time points are seconds since their epoch",
          "[io][reflect]") {
  using reflect_test::StampedPort;
  CHECK(praxis::io::field_names<StampedPort::type>(StampedPort::name) ==
        std::vector<std::string>{"odometry.stamp", "odometry.xy[0]", "odometry.xy[1]"});

  TempDir dir;
  auto value = praxis::io::load_struct<reflect_test::Stamped>(dir.write(R"({"stamp": 2.5, "xy": [1, -1]})"));
  CHECK(value.stamp.time_since_epoch() == 2500ms);
  std::vector<double> row;
  praxis::io::for_each_field_value(value, [&](double v) { row.push_back(v); });
  CHECK(row == std::vector<double>{2.5, 1.0, -1.0});
  CHECK_THROWS_WITH(praxis::io::load_struct<reflect_test::Stamped>(dir.write(R"({"stamp": "now"})")),
                    Catch::EndsWith(R"(: key "stamp": expected a number of seconds, found a string ("now"))"));
}
