// io/reflect_fields.hpp: a value as a flat row of numbers with named columns. Names join nested
// structs with '.', append "[i]" for arrays and Eigen vectors, take the port's name (or "value")
// for a value that is not a struct; values come in the same order without allocating — bools 0/1,
// enums their number, durations and time points seconds, an empty optional NaN in each of its
// columns — and strings are in neither.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include "../../support/alloc_counter.hpp"
#include "praxis/io/reflect_fields.hpp"

namespace reflect_fields_test {

using namespace std::chrono_literals;

enum class Gait : int { stand = 0, trot = 1, bound = 2 };
enum class Signed : std::int8_t { back = -3, ahead = 4 };

struct Imu {
  BOOST_HANA_DEFINE_STRUCT(Imu,
    (Eigen::Vector3d, gyro),
    (std::array<float, 2>, tilt));
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

struct Pair {
  BOOST_HANA_DEFINE_STRUCT(Pair,
    (double, a),
    (std::int32_t, b));
};

// Every flattening rule in one struct: arrays of arrays and of structs, a row vector, an optional
// struct, a time point, a duration of another period, a signed enum, a string among numbers.
struct Mixed {
  BOOST_HANA_DEFINE_STRUCT(Mixed,
    (std::array<std::array<int, 2>, 2>, grid),
    (std::array<Pair, 2>, pairs),
    (Eigen::RowVector2d, row),
    (std::optional<Pair>, maybe),
    (std::string, note),
    (std::chrono::steady_clock::time_point, stamp),
    (std::chrono::duration<double, std::micro>, wait),
    (Signed, dir));
};

std::vector<double> values_of(const auto& v) {
  std::vector<double> out;
  praxis::io::for_each_field_value(v, [&](double x) { out.push_back(x); });
  return out;
}

TEST_CASE("reflect fields: field names flatten nested structs and arrays and Eigen vectors", "[io][reflect_fields]") {
  const std::vector<std::string> expected{"t",   "imu.gyro[0]", "imu.gyro[1]", "imu.gyro[2]", "imu.tilt[0]",
                                          "imu.tilt[1]", "ok", "gait", "age", "estimate"};
  CHECK(praxis::io::field_names<State>() == expected);
  STATIC_REQUIRE(praxis::io::field_count<State>() == 10);
  CHECK(praxis::io::field_names<double>() == std::vector<std::string>{"value"});
  CHECK(praxis::io::field_names<std::array<int, 2>>("q") == std::vector<std::string>{"q[0]", "q[1]"});
}

TEST_CASE("reflect fields: values are visited in column order without allocating", "[io][reflect_fields][realtime]") {
  State s{};
  s.t = 1.5;
  s.imu.gyro = Eigen::Vector3d(0.1, 0.2, 0.3);
  s.imu.tilt = {-1.0f, 2.0f};
  s.ok = true;
  s.gait = Gait::bound;
  s.age = 1500ms;
  s.label = "a label long enough to live on the heap, not in the small-string buffer";

  std::array<double, praxis::io::field_count<State>()> row{};
  std::size_t n = 0;
  double sum = 0;
  {
    praxis::test::AllocationScope scope;
    for (int i = 0; i < 1000; ++i) {
      n = 0;
      praxis::io::for_each_field_value(s, [&](double v) { row[n++] = v; });
      s.estimate = (i % 2 == 0) ? std::optional<double>(i) : std::nullopt;
      sum += std::isnan(row[9]) ? 0.0 : row[9];
    }
    CHECK(scope.allocations() == 0);
  }
  CHECK(sum > 0);
  REQUIRE(n == row.size());
  CHECK(row[0] == 1.5);
  CHECK(row[1] == 0.1);
  CHECK(row[2] == 0.2);
  CHECK(row[3] == 0.3);
  CHECK(row[4] == -1.0);
  CHECK(row[5] == 2.0);
  CHECK(row[6] == 1.0);
  CHECK(row[7] == 2.0);
  CHECK(row[8] == 1.5);
  CHECK(row[9] == 998.0);  // the last visit saw the estimate set in iteration 998
  s.estimate.reset();
  praxis::io::for_each_field_value(s, [&, k = std::size_t{0}](double v) mutable { row[k++] = v; });
  CHECK(std::isnan(row[9]));
}

TEST_CASE("reflect fields: every rule in one struct with names and values in the same order", "[io][reflect_fields]") {
  const std::vector<std::string> expected_names{
      "grid[0][0]", "grid[0][1]", "grid[1][0]", "grid[1][1]", "pairs[0].a", "pairs[0].b", "pairs[1].a",
      "pairs[1].b", "row[0]",     "row[1]",     "maybe.a",    "maybe.b",    "stamp",      "wait",
      "dir"};
  CHECK(praxis::io::field_names<Mixed>() == expected_names);
  STATIC_REQUIRE(praxis::io::field_count<Mixed>() == 15);

  Mixed m{};
  m.grid = {{{1, 2}, {3, 4}}};
  m.pairs = {{{0.5, -6}, {1.5, 7}}};
  m.row = Eigen::RowVector2d(8.0, 9.0);
  m.note = "not a number";
  m.stamp = std::chrono::steady_clock::time_point(2500ms);
  m.wait = std::chrono::duration<double, std::micro>(250.0);
  m.dir = Signed::back;
  const auto empty = values_of(m);
  REQUIRE(empty.size() == expected_names.size());
  CHECK(empty[0] == 1.0);
  CHECK(empty[3] == 4.0);
  CHECK(empty[4] == 0.5);
  CHECK(empty[5] == -6.0);
  CHECK(empty[7] == 7.0);
  CHECK(empty[8] == 8.0);
  CHECK(empty[9] == 9.0);
  CHECK(std::isnan(empty[10]));  // an empty optional struct: NaN in each of its columns
  CHECK(std::isnan(empty[11]));
  CHECK(empty[12] == 2.5);                  // seconds since the clock's epoch
  CHECK(empty[13] == Approx(250e-6));       // microseconds as seconds
  CHECK(empty[14] == -3.0);                 // the enum's signed number

  m.maybe = Pair{2.0, 3};
  const auto full = values_of(m);
  REQUIRE(full.size() == expected_names.size());
  CHECK(full[10] == 2.0);
  CHECK(full[11] == 3.0);
}

TEST_CASE("reflect fields: a value that is not a struct is named after its root or else value",
          "[io][reflect_fields]") {
  CHECK(praxis::io::field_names<bool>() == std::vector<std::string>{"value"});
  CHECK(praxis::io::field_names<double>("speed") == std::vector<std::string>{"speed"});
  CHECK(praxis::io::field_names<Eigen::Vector2d>() == std::vector<std::string>{"value[0]", "value[1]"});
  CHECK(praxis::io::field_names<std::optional<int>>("o") == std::vector<std::string>{"o"});
  // A struct without a root names its members bare; with one, under it.
  CHECK(praxis::io::field_names<Pair>() == std::vector<std::string>{"a", "b"});
  CHECK(praxis::io::field_names<Pair>("p") == std::vector<std::string>{"p.a", "p.b"});
  // A string is no column: a struct of only a string has none.
  STATIC_REQUIRE(praxis::io::field_count<std::string>() == 0);
  CHECK(praxis::io::field_names<std::string>().empty());
}

TEST_CASE("reflect fields: bools are 0 or 1 and each scalar kind is one column", "[io][reflect_fields]") {
  CHECK(values_of(true) == std::vector<double>{1.0});
  CHECK(values_of(false) == std::vector<double>{0.0});
  CHECK(values_of(Gait::bound) == std::vector<double>{2.0});
  CHECK(values_of(std::chrono::minutes(2)) == std::vector<double>{120.0});
  CHECK(values_of(std::optional<bool>{}).size() == 1);
  CHECK(std::isnan(values_of(std::optional<bool>{})[0]));
  CHECK(values_of(std::optional<bool>{true}) == std::vector<double>{1.0});
  // constexpr: a row can be summed at compile time.
  STATIC_REQUIRE([] {
    double sum = 0;
    praxis::io::for_each_field_value(std::array<int, 3>{1, 2, 3}, [&](double v) { sum += v; });
    return sum;
  }() == 6.0);
}

// What a recorder may offer as CSV: everything the rules flatten, and nothing they do not (a
// variant, a vector of no fixed size, a struct holding one).
using Choice = std::variant<int, double>;
struct HoldsAVariant {
  BOOST_HANA_DEFINE_STRUCT(HoldsAVariant, (double, x), (Choice, choice));
};
TEST_CASE("reflect fields: flattenable says which types the rules flatten", "[io][reflect_fields]") {
  STATIC_REQUIRE(praxis::io::flattenable<State>());
  STATIC_REQUIRE(praxis::io::flattenable<Mixed>());
  STATIC_REQUIRE(praxis::io::flattenable<std::array<Pair, 2>>());
  STATIC_REQUIRE(praxis::io::flattenable<std::optional<Imu>>());
  STATIC_REQUIRE_FALSE(praxis::io::flattenable<Choice>());
  STATIC_REQUIRE_FALSE(praxis::io::flattenable<std::vector<double>>());
  STATIC_REQUIRE_FALSE(praxis::io::flattenable<HoldsAVariant>());
}

}  // namespace reflect_fields_test
