// praxis::io::load_struct / load_struct_into / apply_settings (io/reflect_load.hpp), the rules that
// reflect_test.cpp and settings_test.cpp leave out: integer ranges at both ends for each width,
// whole floating-point numbers as integers, durations rounded to their ticks, variable-length lists,
// fixed-size arrays set by index ({"1": ...} and `--set a[1]=...`), arrays of arrays and of
// structs with their key paths, optionals that already hold a value, named enums, how each kind of
// found value is described (long strings cut), numbers beyond a double in a file, an empty file,
// and that every error names the file (or origin), the full key path and what was expected, while
// the value loaded into is left as it was.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <boost/hana/define_struct.hpp>
#include <nlohmann/json.hpp>

#include "../../support/scratch_dir.hpp"
#include "praxis/io/reflect_load.hpp"

namespace reflect_load_test {

enum class Mode : std::uint8_t { position = 3, torque = 9 };

}  // namespace reflect_load_test

template <>
struct praxis::io::EnumNames<reflect_load_test::Mode> {
  static constexpr std::array<std::pair<reflect_load_test::Mode, std::string_view>, 2> values{
      {{reflect_load_test::Mode::position, "position"}, {reflect_load_test::Mode::torque, "torque"}}};
};

namespace reflect_load_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using praxis::io::ParamError;

struct Ints {
  BOOST_HANA_DEFINE_STRUCT(Ints,
    (std::int8_t, i8),
    (std::uint8_t, u8),
    (std::int16_t, i16),
    (std::uint16_t, u16),
    (std::int64_t, i64),
    (std::uint64_t, u64),
    (float, f));
};

struct Leg {
  BOOST_HANA_DEFINE_STRUCT(Leg,
    (std::array<double, 2>, kp),
    (bool, enabled));
};

struct Times {
  BOOST_HANA_DEFINE_STRUCT(Times,
    (std::chrono::milliseconds, ms),
    (std::chrono::seconds, s),
    (std::chrono::minutes, minutes));
};

struct Rig {
  BOOST_HANA_DEFINE_STRUCT(Rig,
    (std::vector<double>, weights),
    (std::vector<std::string>, topics),
    (std::vector<Leg>, extra_legs),
    (std::array<Leg, 2>, legs),
    (std::array<std::array<int, 2>, 2>, grid),
    (std::array<bool, 2>, flags),
    (std::array<Mode, 2>, modes),
    (std::array<std::string, 2>, names),
    (Eigen::Vector3d, offset),
    (Mode, mode),
    (std::optional<Leg>, spare),
    (std::string, label));
};

Rig rig_defaults() {
  Rig r{};
  r.weights = {1.0, 2.0};
  r.topics = {"a"};
  r.legs[0] = Leg{{1.0, 2.0}, true};
  r.legs[1] = Leg{{3.0, 4.0}, false};
  r.grid = {{{1, 2}, {3, 4}}};
  r.flags = {true, false};
  r.modes = {Mode::position, Mode::position};
  r.names = {"left", "right"};
  r.offset = Eigen::Vector3d(0.5, 0.6, 0.7);
  r.mode = Mode::position;
  r.label = "rig";
  return r;
}

void check_rig_defaults(const Rig& r) {
  const Rig d = rig_defaults();
  CHECK(r.weights == d.weights);
  CHECK(r.topics == d.topics);
  CHECK(r.extra_legs.empty());
  CHECK(r.legs[0].kp == d.legs[0].kp);
  CHECK(r.legs[1].kp == d.legs[1].kp);
  CHECK(r.legs[1].enabled == d.legs[1].enabled);
  CHECK(r.grid == d.grid);
  CHECK(r.flags == d.flags);
  CHECK(r.modes == d.modes);
  CHECK(r.names == d.names);
  CHECK(r.offset == d.offset);
  CHECK(r.mode == d.mode);
  CHECK_FALSE(r.spare.has_value());
  CHECK(r.label == d.label);
}

// The message of the ParamError thrown by reading `json` (a document given in memory, named
// "rig.json") over the defaults, which must survive unchanged.
std::string rig_error(const std::string& json) {
  Rig r = rig_defaults();
  try {
    praxis::io::load_struct_into(r, nlohmann::json::parse(json), "rig.json");
  } catch (const ParamError& e) {
    check_rig_defaults(r);
    return e.what();
  }
  FAIL("no ParamError for " << json);
  return {};
}

// The same for Ints.
std::string ints_error(const std::string& json) {
  Ints v{};
  v.i8 = 5;
  v.u64 = 6;
  try {
    praxis::io::load_struct_into(v, nlohmann::json::parse(json), "ints.json");
  } catch (const ParamError& e) {
    CHECK(v.i8 == 5);
    CHECK(v.u64 == 6);
    return e.what();
  }
  FAIL("no ParamError for " << json);
  return {};
}

Ints load_ints(const std::string& json) {
  Ints v{};
  praxis::io::load_struct_into(v, nlohmann::json::parse(json), "ints.json");
  return v;
}

TEST_CASE("reflect load: integers load at both ends of their type and one past is an error naming the range",
          "[io][reflect_load]") {
  // Limits written out by hand, not taken from std::numeric_limits, so a wrong range text fails.
  const auto lo = load_ints(R"({"i8": -128, "u8": 0, "i16": -32768, "u16": 0,
                                "i64": -9223372036854775808, "u64": 0})");
  CHECK(lo.i8 == -128);
  CHECK(lo.i16 == -32768);
  CHECK(lo.i64 == std::numeric_limits<std::int64_t>::min());
  const auto hi = load_ints(R"({"i8": 127, "u8": 255, "i16": 32767, "u16": 65535,
                                "i64": 9223372036854775807, "u64": 18446744073709551615})");
  CHECK(hi.i8 == 127);
  CHECK(hi.u8 == 255);
  CHECK(hi.i16 == 32767);
  CHECK(hi.u16 == 65535);
  CHECK(hi.i64 == 9223372036854775807LL);
  CHECK(hi.u64 == 18446744073709551615ULL);

  CHECK(ints_error(R"({"i8": 128})") == R"(ints.json: key "i8": expected an integer from -128 to 127, found 128)");
  CHECK(ints_error(R"({"i8": -129})") == R"(ints.json: key "i8": expected an integer from -128 to 127, found -129)");
  CHECK(ints_error(R"({"u8": 256})") == R"(ints.json: key "u8": expected an integer from 0 to 255, found 256)");
  CHECK(ints_error(R"({"i16": 32768})") ==
        R"(ints.json: key "i16": expected an integer from -32768 to 32767, found 32768)");
  CHECK(ints_error(R"({"u16": -1})") == R"(ints.json: key "u16": expected an integer from 0 to 65535, found -1)");
  CHECK(ints_error(R"({"i64": 9223372036854775808})") ==
        R"(ints.json: key "i64": expected an integer from -9223372036854775808 to 9223372036854775807, found 9223372036854775808)");
  CHECK(ints_error(R"({"u64": -1})") ==
        R"(ints.json: key "u64": expected an integer from 0 to 18446744073709551615, found -1)");
  // One past uint64_t's maximum parses as a double (2^64): refused, not wrapped to 0.
  CHECK_THAT(ints_error(R"({"u64": 18446744073709551616})"),
             Catch::StartsWith(R"(ints.json: key "u64": expected an integer from 0 to 18446744073709551615, found )"));
}

TEST_CASE("reflect load: a whole number written with a fraction or exponent is an integer and a fraction is not",
          "[io][reflect_load]") {
  const auto v = load_ints(R"({"i8": -3.0, "u8": 2e2, "i64": -1e18, "u64": 1.8e19})");
  CHECK(v.i8 == -3);
  CHECK(v.u8 == 200);
  CHECK(v.i64 == -1000000000000000000LL);
  CHECK(v.u64 == 18000000000000000000ULL);
  CHECK(ints_error(R"({"u8": 2.5})") == R"(ints.json: key "u8": expected an integer from 0 to 255, found 2.5)");
  CHECK(ints_error(R"({"u8": 3e2})") == R"(ints.json: key "u8": expected an integer from 0 to 255, found 300.0)");
  CHECK(ints_error(R"({"i8": -1e3})") ==
        R"(ints.json: key "i8": expected an integer from -128 to 127, found -1000.0)");
  // Beyond int64_t as a double: refused before any conversion (which would be undefined).
  CHECK_THAT(ints_error(R"({"i64": 1e19})"),
             Catch::StartsWith(R"(ints.json: key "i64": expected an integer from -9223372036854775808 to)"));
  CHECK_THAT(ints_error(R"({"i64": -1e19})"), Catch::Contains(R"(key "i64": expected an integer from)"));
  CHECK(ints_error(R"({"u64": -2.0})") ==
        R"(ints.json: key "u64": expected an integer from 0 to 18446744073709551615, found -2.0)");
  CHECK(ints_error(R"({"i16": true})") ==
        R"(ints.json: key "i16": expected an integer from -32768 to 32767, found true)");
}

TEST_CASE("reflect load: a float takes up to its largest value and no further", "[io][reflect_load]") {
  const double largest = static_cast<double>(std::numeric_limits<float>::max());
  Ints v{};
  praxis::io::load_struct_into(v, nlohmann::json{{"f", -largest}}, "ints.json");
  CHECK(v.f == -std::numeric_limits<float>::max());
  praxis::io::load_struct_into(v, nlohmann::json{{"f", 1e-50}}, "ints.json");  // underflows to zero: fine
  CHECK(v.f == 0.0f);
  CHECK(ints_error(R"({"f": -1e39})") == R"(ints.json: key "f": expected a number within the range of float, found -1e+39)");
  CHECK(ints_error(R"({"f": null})") == R"(ints.json: key "f": expected a number, found null)");
}

TEST_CASE("reflect load: durations are seconds rounded to the nearest tick of an integer count",
          "[io][reflect_load]") {
  Times t{};
  praxis::io::load_struct_into(t, nlohmann::json::parse(R"({"ms": 0.0016, "s": 2.4, "minutes": 90})"), "t.json");
  CHECK(t.ms == 2ms);        // 1.6 ms
  CHECK(t.s == 2s);          // 2.4 s
  CHECK(t.minutes == 2min);  // 1.5 min rounds away from zero
  praxis::io::load_struct_into(t, nlohmann::json::parse(R"({"ms": -0.0014, "s": 2.6, "minutes": 0})"), "t.json");
  CHECK(t.ms == -1ms);
  CHECK(t.s == 3s);
  CHECK(t.minutes == 0min);
  // Integer seconds are whole numbers of ticks: no rounding at all.
  praxis::io::load_struct_into(t, nlohmann::json::parse(R"({"ms": 12})"), "t.json");
  CHECK(t.ms == 12000ms);
  Times before = t;
  CHECK_THROWS_WITH(praxis::io::load_struct_into(t, nlohmann::json::parse(R"({"s": [1]})"), "t.json"),
                    R"(t.json: key "s": expected a number of seconds, found an array of 1)");
  CHECK(t.s == before.s);
}

TEST_CASE("reflect load: a list takes any length and replaces the whole list", "[io][reflect_load]") {
  Rig r = rig_defaults();
  praxis::io::load_struct_into(
      r, nlohmann::json::parse(R"({"weights": [9, 8, 7], "topics": [], "extra_legs": [{"enabled": true}, {"kp": [5, 6]}]})"),
      "rig.json");
  CHECK(r.weights == std::vector<double>{9, 8, 7});
  CHECK(r.topics.empty());
  REQUIRE(r.extra_legs.size() == 2);
  // Each element starts from a value-initialised one: the keys it lacks are zero, not left over.
  CHECK(r.extra_legs[0].enabled);
  CHECK(r.extra_legs[0].kp == std::array<double, 2>{0, 0});
  CHECK_FALSE(r.extra_legs[1].enabled);
  CHECK(r.extra_legs[1].kp == std::array<double, 2>{5, 6});

  praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"weights": [4]})"), "rig.json");
  CHECK(r.weights == std::vector<double>{4});  // shorter: replaced, not merged
  CHECK(r.extra_legs.size() == 2);             // absent: kept

  CHECK(rig_error(R"({"weights": 3})") == R"(rig.json: key "weights": expected an array of numbers, found 3)");
  CHECK(rig_error(R"({"topics": "a"})") ==
        R"(rig.json: key "topics": expected an array of strings, found a string ("a"))");
  CHECK(rig_error(R"({"extra_legs": {"0": {}}})") ==
        R"(rig.json: key "extra_legs": expected an array of objects, found an object)");
  CHECK(rig_error(R"({"weights": [1, 2, "x"]})") ==
        R"(rig.json: key "weights[2]": expected a number, found a string ("x"))");
  CHECK(rig_error(R"({"extra_legs": [{}, {"kp": [1, 2], "enabled": 0}]})") ==
        R"(rig.json: key "extra_legs[1].enabled": expected true or false, found 0)");
  CHECK(rig_error(R"({"extra_legs": [{"kd": [1, 2]}]})") ==
        R"(rig.json: key "extra_legs[0].kd": unknown key (known keys at "extra_legs[0]": kp, enabled))");
}

TEST_CASE("reflect load: arrays of arrays and of structs name each element's key path and element kind",
          "[io][reflect_load]") {
  Rig r = rig_defaults();
  praxis::io::load_struct_into(
      r, nlohmann::json::parse(R"({"grid": [[5, 6], [7, 8]], "legs": [{"kp": [9, 9]}, {"enabled": true}],
                                   "flags": [false, true], "modes": ["torque", "position"], "names": ["x", "y"]})"),
      "rig.json");
  CHECK(r.grid == std::array<std::array<int, 2>, 2>{{{5, 6}, {7, 8}}});
  CHECK(r.legs[0].kp == std::array<double, 2>{9, 9});
  CHECK(r.legs[0].enabled);                             // absent in element 0: kept
  CHECK(r.legs[1].kp == std::array<double, 2>{3, 4});  // absent in element 1: kept
  CHECK(r.legs[1].enabled);
  CHECK(r.flags == std::array<bool, 2>{false, true});
  CHECK(r.modes == std::array<Mode, 2>{Mode::torque, Mode::position});
  CHECK(r.names == std::array<std::string, 2>{"x", "y"});

  // The element kind in "expected an array of N ..." follows the element type.
  CHECK(rig_error(R"({"grid": [[1, 2]]})") == R"(rig.json: key "grid": expected an array of 2 arrays, found an array of 1)");
  CHECK(rig_error(R"({"grid": [[1, 2], [3]]})") ==
        R"(rig.json: key "grid[1]": expected an array of 2 integers, found an array of 1)");
  CHECK(rig_error(R"({"grid": [[1, 2], [3, 4.5]]})") ==
        R"(rig.json: key "grid[1][1]": expected an integer from -2147483648 to 2147483647, found 4.5)");
  CHECK(rig_error(R"({"legs": 1})") == R"(rig.json: key "legs": expected an array of 2 objects, found 1)");
  CHECK(rig_error(R"({"legs": [{}, {"kp": [1, null]}]})") ==
        R"(rig.json: key "legs[1].kp[1]": expected a number, found null)");
  CHECK(rig_error(R"({"legs": [{}, []]})") ==
        R"(rig.json: key "legs[1]": expected an object with the keys kp, enabled, found an array of 0)");
  CHECK(rig_error(R"({"flags": [1, 0]})") == R"(rig.json: key "flags[0]": expected true or false, found 1)");
  CHECK(rig_error(R"({"flags": true})") == R"(rig.json: key "flags": expected an array of 2 booleans, found true)");
  CHECK(rig_error(R"({"modes": ["torque"]})") ==
        R"(rig.json: key "modes": expected an array of 2 strings, found an array of 1)");
  CHECK(rig_error(R"({"names": "xy"})") ==
        R"(rig.json: key "names": expected an array of 2 strings, found a string ("xy"))");
  CHECK(rig_error(R"({"offset": [1, 2, "3"]})") ==
        R"(rig.json: key "offset[2]": expected a number, found a string ("3"))");
}

TEST_CASE("reflect load: an object of indices sets only those elements of a fixed-size array",
          "[io][reflect_load]") {
  Rig r = rig_defaults();
  praxis::io::load_struct_into(
      r, nlohmann::json::parse(R"({"legs": {"1": {"kp": {"0": 30}}}, "offset": {"2": -1, "0": 4},
                                   "grid": {"0": {"1": 60}}, "names": {}})"),
      "rig.json");
  CHECK(r.legs[0].kp == std::array<double, 2>{1, 2});
  CHECK(r.legs[1].kp == std::array<double, 2>{30, 4});
  CHECK_FALSE(r.legs[1].enabled);
  CHECK(r.offset == Eigen::Vector3d(4, 0.6, -1));
  CHECK(r.grid == std::array<std::array<int, 2>, 2>{{{1, 60}, {3, 4}}});
  CHECK(r.names == rig_defaults().names);  // an empty object changes nothing

  // An index past the end, a negative one, a name or a number with trailing text: each names the key.
  CHECK(rig_error(R"({"offset": {"3": 1}})") ==
        R"(rig.json: key "offset": expected a list of 3 numbers, or an object of some of them by index 0..2, found the key "3")");
  CHECK(rig_error(R"({"legs": {"-1": {}}})") ==
        R"(rig.json: key "legs": expected a list of 2 objects, or an object of some of them by index 0..1, found the key "-1")");
  CHECK(rig_error(R"({"flags": {"first": true}})") ==
        R"(rig.json: key "flags": expected a list of 2 booleans, or an object of some of them by index 0..1, found the key "first")");
  CHECK(rig_error(R"({"grid": {"1x": [0, 0]}})") ==
        R"(rig.json: key "grid": expected a list of 2 arrays, or an object of some of them by index 0..1, found the key "1x")");
  CHECK(rig_error(R"({"grid": {"": [0, 0]}})") ==
        R"(rig.json: key "grid": expected a list of 2 arrays, or an object of some of them by index 0..1, found the key "")");
  // A bad value under a good index names the element's path; the good index before it is not applied.
  CHECK(rig_error(R"({"legs": {"0": {"kp": [7, 7]}, "1": {"enabled": "yes"}}})") ==
        R"(rig.json: key "legs[1].enabled": expected true or false, found a string ("yes"))");
}

TEST_CASE("reflect load: an optional that holds a value is read over that value and null empties it",
          "[io][reflect_load]") {
  Rig r = rig_defaults();
  r.spare = Leg{{7.0, 8.0}, true};
  praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"spare": {"kp": {"1": 80}}})"), "rig.json");
  REQUIRE(r.spare.has_value());
  CHECK(r.spare->kp == std::array<double, 2>{7, 80});
  CHECK(r.spare->enabled);
  // A bad value inside keeps the held value as it was.
  CHECK_THROWS_WITH(
      praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"spare": {"enabled": null}})"), "rig.json"),
      R"(rig.json: key "spare.enabled": expected true or false, found null)");
  REQUIRE(r.spare.has_value());
  CHECK(r.spare->enabled);
  praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"spare": null})"), "rig.json");
  CHECK_FALSE(r.spare.has_value());
}

TEST_CASE("reflect load: a named enum reads its names only", "[io][reflect_load]") {
  Rig r = rig_defaults();
  praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"mode": "torque"})"), "rig.json");
  CHECK(r.mode == Mode::torque);
  // Its underlying number is not a name, nor is a name in another case.
  CHECK(rig_error(R"({"mode": 9})") == R"(rig.json: key "mode": expected the name of a value, found 9)");
  CHECK(rig_error(R"({"mode": "Torque"})") ==
        R"(rig.json: key "mode": expected one of "position", "torque", found "Torque")");
  CHECK(rig_error(R"({"modes": ["torque", "limp"]})") ==
        R"(rig.json: key "modes[1]": expected one of "position", "torque", found "limp")");
}

TEST_CASE("reflect load: what was found is described by kind and a long string is cut to 40 characters",
          "[io][reflect_load]") {
  const std::string forty(40, 'a');
  const std::string forty_one = std::string(37, 'b') + "cdef";
  CHECK(rig_error(R"({"offset": ")" + forty + R"("})") ==
        R"(rig.json: key "offset": expected an array of 3 numbers, found a string (")" + forty + R"("))");
  CHECK(rig_error(R"({"offset": ")" + forty_one + R"("})") ==
        R"(rig.json: key "offset": expected an array of 3 numbers, found a string (")" + std::string(37, 'b') +
            R"(..."))");
  CHECK(rig_error(R"({"label": {"a": 1}})") == R"(rig.json: key "label": expected a string, found an object)");
  CHECK(rig_error(R"({"label": false})") == R"(rig.json: key "label": expected a string, found false)");
  CHECK(rig_error(R"({"label": null})") == R"(rig.json: key "label": expected a string, found null)");
  CHECK(rig_error(R"({"label": [1, 2, 3, 4, 5]})") == R"(rig.json: key "label": expected a string, found an array of 5)");
  CHECK(rig_error(R"({"label": -0.25})") == R"(rig.json: key "label": expected a string, found -0.25)");
}

TEST_CASE("reflect load: a key prefix leads every key path and an unknown key lists the keys at its level",
          "[io][reflect_load]") {
  const auto document = nlohmann::json::parse(R"({"rig": {"legs": [{}, {"kq": 1}]}, "other": 3})");
  Rig r = rig_defaults();
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, document.at("rig"), "robot.json", "rig"),
                    R"(robot.json: key "rig.legs[1].kq": unknown key (known keys at "rig.legs[1]": kp, enabled))");
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, nlohmann::json::parse(R"({"labl": "x"})"), "robot.json", "rig"),
                    Catch::StartsWith(R"(robot.json: key "rig.labl": unknown key (known keys at "rig": weights, topics, )"));
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, document.at("other"), "robot.json", "other"),
                    Catch::StartsWith(R"(robot.json: key "other": expected an object with the keys weights, topics, )") &&
                        Catch::EndsWith(", found 3"));
  check_rig_defaults(r);
  // Without a prefix an unknown top-level key says so.
  CHECK_THAT(rig_error(R"({"legz": 1})"),
             Catch::StartsWith(R"(rig.json: key "legz": unknown key (known keys at the top level: weights, topics, )") &&
                 Catch::EndsWith("spare, label)"));
  // A value that is not a struct at all may be read on its own: a bare array, with its prefix.
  std::array<int, 3> bare{1, 2, 3};
  CHECK_THROWS_WITH(praxis::io::load_struct_into(bare, nlohmann::json::parse("[1, 2]"), "bare.json"),
                    "bare.json: top level: expected an array of 3 integers, found an array of 2");
  praxis::io::load_struct_into(bare, nlohmann::json::parse(R"({"2": 30})"), "bare.json");
  CHECK(bare == std::array<int, 3>{1, 2, 30});
}

TEST_CASE("reflect load: a number beyond a double and an empty file are not valid JSON naming the file",
          "[io][reflect_load]") {
  praxis::test::ScratchDir scratch("reflect_load");
  const auto huge = scratch.write("huge.json", R"({"weights": [1e999]})");
  Rig r = rig_defaults();
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, huge),
                    Catch::StartsWith(huge.string() + ": not valid JSON (a number does not fit in a double: "));
  const auto empty = scratch.write("empty.json", "");
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, empty), Catch::StartsWith(empty.string() + ":1: not valid JSON ("));
  // The error's line is the line of the offending character, here the third.
  const auto third = scratch.write("third.json", "{\n\"label\": \"x\",\n\"weights\": [1,,2]\n}\n");
  CHECK_THROWS_WITH(praxis::io::load_struct_into(r, third), Catch::StartsWith(third.string() + ":3: not valid JSON ("));
  // A file error is named after the file, a content error after the file and the key.
  const auto wrong = scratch.write("sub/wrong.json", R"({"label": 1})");
  CHECK_THROWS_WITH(praxis::io::load_struct<Rig>(wrong), wrong.string() + R"(: key "label": expected a string, found 1)");
  check_rig_defaults(r);
  const auto good = scratch.write("good.json", R"({"label": "loaded", "legs": {"0": {"enabled": false}}})");
  praxis::io::load_struct_into(r, good);
  CHECK(r.label == "loaded");
  CHECK_FALSE(r.legs[0].enabled);
  CHECK(r.legs[0].kp == std::array<double, 2>{1, 2});
  // load_struct starts from a value-initialised struct, not from any defaults.
  const Rig fresh = praxis::io::load_struct<Rig>(good);
  CHECK(fresh.label == "loaded");
  CHECK(fresh.weights.empty());
  CHECK(fresh.legs[0].kp == std::array<double, 2>{0, 0});
}

TEST_CASE("reflect load: settings set array elements by index and a deeper key replaces a value",
          "[io][reflect_load][settings]") {
  Rig r = rig_defaults();
  const std::vector<std::string> set{"legs[1].kp[0]=30", "offset[2]=-1", "grid[1][0]=70", "weights=[3, 4, 5]",
                                     "names[0]=bare text", "label=a=b"};
  praxis::io::apply_settings(r, set, "--set");
  CHECK(r.legs[1].kp == std::array<double, 2>{30, 4});
  CHECK(r.legs[0].kp == std::array<double, 2>{1, 2});
  CHECK(r.offset == Eigen::Vector3d(0.5, 0.6, -1));
  CHECK(r.grid == std::array<std::array<int, 2>, 2>{{{1, 2}, {70, 4}}});
  CHECK(r.weights == std::vector<double>{3, 4, 5});
  CHECK(r.names == std::array<std::string, 2>{"bare text", "right"});
  CHECK(r.label == "a=b");  // only the first '=' splits key from value

  // A later deeper key replaces an earlier plain value; a later plain value replaces a deeper key.
  r = rig_defaults();
  praxis::io::apply_settings(r, std::vector<std::string>{"spare=3", "spare.enabled=true"}, "--set");
  REQUIRE(r.spare.has_value());
  CHECK(r.spare->enabled);
  r = rig_defaults();
  CHECK_THROWS_WITH(praxis::io::apply_settings(r, std::vector<std::string>{"spare.enabled=true", "spare=3"}, "--set"),
                    R"(--set: key "spare": expected an object with the keys kp, enabled, found 3)");
  CHECK_FALSE(r.spare.has_value());

  // No settings change nothing; an index past the end and an unclosed bracket name the key.
  praxis::io::apply_settings(r, std::vector<std::string>{}, "--set");
  check_rig_defaults(r);
  CHECK_THROWS_WITH(praxis::io::apply_settings(r, std::vector<std::string>{"offset[3]=1"}, "cli"),
                    R"(cli: key "offset": expected a list of 3 numbers, or an object of some of them by index 0..2, found the key "3")");
  CHECK_THROWS_WITH(praxis::io::apply_settings(r, std::vector<std::string>{"offset[1=1"}, "cli"),
                    Catch::StartsWith(R"(cli: key "offset[1": unknown key (known keys at the top level: )"));
  CHECK_THROWS_WITH(praxis::io::apply_settings(r, std::vector<std::string>{"legs[]=1"}, "cli"),
                    Catch::StartsWith(R"(cli: "legs[]=1": expected KEY=VALUE)"));
  CHECK_THROWS_WITH(praxis::io::apply_settings(r, std::vector<std::string>{"label=x", ".label=y"}, "cli"),
                    Catch::StartsWith(R"(cli: ".label=y": expected KEY=VALUE)"));
  check_rig_defaults(r);
}

}  // namespace reflect_load_test
