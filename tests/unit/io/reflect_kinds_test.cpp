// io/reflect_kinds.hpp: which member types the reflection helpers take and as what kind — numbers
// (bool apart), enums (only those with a fixed underlying type as numbers, named ones by name),
// strings, chrono durations and time points recognised by their shape (and durations as seconds),
// optionals, fixed-size sequences (std::array, Eigen vectors of one row or column), lists
// (std::vector), Hana structs — and that anything else is no field; the members of a struct in
// declaration order, by name, writable through for_each_member.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <boost/hana/at.hpp>

#include "praxis/io/reflect_kinds.hpp"

namespace reflect_kinds_test {

namespace d = praxis::io::detail;
using namespace std::chrono_literals;

enum Plain { plain_a, plain_b, plain_c };        // no fixed type: holds 0..3 only
enum Fixed : std::uint8_t { fixed_a, fixed_b };  // fixed type: holds 0..255
enum class Scoped { x, y };                      // enum class: fixed (int)
enum class Named : std::uint8_t { low, high };

struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner,
    (int, n));
};

struct Outer {
  BOOST_HANA_DEFINE_STRUCT(Outer,
    (double, speed),
    (Inner, inner),
    (std::string, label));
};

struct NotReflected {
  int n = 0;
};

// Looks like a duration in part (count()) but has no period: not one.
struct CountOnly {
  using rep = int;
  [[nodiscard]] int count() const { return 0; }
};

}  // namespace reflect_kinds_test

template <>
struct praxis::io::EnumNames<reflect_kinds_test::Named> {
  static constexpr std::array<std::pair<reflect_kinds_test::Named, std::string_view>, 2> values{
      {{reflect_kinds_test::Named::low, "low"}, {reflect_kinds_test::Named::high, "high"}}};
};

namespace reflect_kinds_test {

TEST_CASE("reflect kinds: numbers and bools and enums and strings", "[io][reflect_kinds]") {
  STATIC_REQUIRE(d::Number<int>);
  STATIC_REQUIRE(d::Number<std::uint8_t>);
  STATIC_REQUIRE(d::Number<float>);
  STATIC_REQUIRE_FALSE(d::Number<bool>);  // a bool is true/false in JSON and 0/1 in a log, never a number
  STATIC_REQUIRE(d::Boolean<bool>);
  STATIC_REQUIRE_FALSE(d::Boolean<int>);
  STATIC_REQUIRE(d::Enum<Plain>);
  STATIC_REQUIRE(d::Enum<Scoped>);
  STATIC_REQUIRE_FALSE(d::Enum<int>);
  STATIC_REQUIRE(d::NamedEnum<Named>);
  STATIC_REQUIRE_FALSE(d::NamedEnum<Scoped>);
  STATIC_REQUIRE(d::String<std::string>);
  STATIC_REQUIRE_FALSE(d::String<std::string_view>);
  STATIC_REQUIRE_FALSE(d::String<const char*>);
}

TEST_CASE("reflect kinds: only enums with a fixed underlying type read as numbers", "[io][reflect_kinds][fuzz]") {
  // A plain enum cannot hold every integer (storing 5 in Plain is undefined): the loader refuses
  // it at compile time (tests/compile_fail/io/plain_enum_by_number.cpp); EnumNames reads it by name.
  STATIC_REQUIRE_FALSE(d::FixedEnum<Plain>);
  STATIC_REQUIRE(d::FixedEnum<Fixed>);
  STATIC_REQUIRE(d::FixedEnum<Scoped>);
  STATIC_REQUIRE(d::FixedEnum<Named>);
  STATIC_REQUIRE_FALSE(d::FixedEnum<int>);
}

TEST_CASE("reflect kinds: durations and time points by their shape and durations as seconds", "[io][reflect_kinds]") {
  STATIC_REQUIRE(d::Duration<std::chrono::milliseconds>);
  STATIC_REQUIRE(d::Duration<std::chrono::duration<double>>);
  STATIC_REQUIRE(d::Duration<std::chrono::duration<float, std::micro>>);
  STATIC_REQUIRE_FALSE(d::Duration<CountOnly>);
  STATIC_REQUIRE_FALSE(d::Duration<double>);
  STATIC_REQUIRE_FALSE(d::Duration<std::chrono::steady_clock::time_point>);
  STATIC_REQUIRE(d::TimePoint<std::chrono::steady_clock::time_point>);
  STATIC_REQUIRE(d::TimePoint<std::chrono::system_clock::time_point>);
  STATIC_REQUIRE_FALSE(d::TimePoint<std::chrono::seconds>);

  CHECK(d::to_seconds(1500ms) == 1.5);
  CHECK(d::to_seconds(std::chrono::minutes(-2)) == -120.0);
  CHECK(d::to_seconds(std::chrono::duration<double, std::micro>(250.0)) == Approx(250e-6));
  CHECK(d::to_seconds(std::chrono::nanoseconds(1)) == Approx(1e-9));
  STATIC_REQUIRE(d::to_seconds(std::chrono::hours(1)) == 3600.0);
}

TEST_CASE("reflect kinds: sequences are fixed-size arrays and one-row or one-column Eigen vectors",
          "[io][reflect_kinds]") {
  STATIC_REQUIRE(d::Sequence<std::array<double, 3>>);
  STATIC_REQUIRE(d::Sequence<Eigen::Vector3d>);
  STATIC_REQUIRE(d::Sequence<Eigen::RowVector2f>);
  STATIC_REQUIRE(d::Sequence<Eigen::Matrix<int, 1, 1>>);
  STATIC_REQUIRE_FALSE(d::Sequence<Eigen::Matrix3d>);   // neither one row nor one column
  STATIC_REQUIRE_FALSE(d::Sequence<Eigen::VectorXd>);   // no compile-time size
  STATIC_REQUIRE_FALSE(d::Sequence<std::vector<double>>);  // a list, not a sequence
  STATIC_REQUIRE(d::sequence_traits<Eigen::Vector3d>::size == 3);
  STATIC_REQUIRE(std::is_same_v<d::sequence_traits<Eigen::RowVector2f>::element, float>);
  STATIC_REQUIRE(d::sequence_traits<std::array<Inner, 4>>::size == 4);
  STATIC_REQUIRE(std::is_same_v<d::sequence_traits<std::array<Inner, 4>>::element, Inner>);

  STATIC_REQUIRE(d::List<std::vector<int>>);
  STATIC_REQUIRE_FALSE(d::List<std::array<int, 2>>);
  STATIC_REQUIRE(d::Optional<std::optional<Inner>>);
  STATIC_REQUIRE_FALSE(d::Optional<Inner>);
}

TEST_CASE("reflect kinds: a field is one of the kinds or a Hana struct and nothing else", "[io][reflect_kinds]") {
  STATIC_REQUIRE(d::HanaStruct<Outer>);
  STATIC_REQUIRE_FALSE(d::HanaStruct<NotReflected>);
  STATIC_REQUIRE(d::Field<Outer>);
  STATIC_REQUIRE(d::Field<std::optional<std::array<Inner, 2>>>);
  STATIC_REQUIRE(d::Field<std::chrono::steady_clock::time_point>);
  STATIC_REQUIRE_FALSE(d::Field<NotReflected>);
  STATIC_REQUIRE_FALSE(d::Field<std::map<int, int>>);
  STATIC_REQUIRE_FALSE(d::Field<const char*>);
  STATIC_REQUIRE_FALSE(d::Field<Eigen::Matrix3d>);
}

TEST_CASE("reflect kinds: a struct's members in declaration order by name and writable", "[io][reflect_kinds]") {
  STATIC_REQUIRE(std::is_same_v<d::member_t<Outer, decltype(boost::hana::at_c<1>(boost::hana::accessors<Outer>()))>,
                                Inner>);
  Outer o{};
  o.speed = 0.5;
  o.inner.n = 3;
  o.label = "x";
  std::vector<std::string_view> names;
  d::for_each_member(o, [&](std::string_view name, auto& member) {
    names.push_back(name);
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(member)>, double>) member = 2.0;
  });
  CHECK(names == std::vector<std::string_view>{"speed", "inner", "label"});
  CHECK(o.speed == 2.0);  // reached by reference, not copied
  const Outer& view = o;
  int visited = 0;
  d::for_each_member(view, [&](std::string_view, const auto&) { ++visited; });
  CHECK(visited == 3);
}

}  // namespace reflect_kinds_test
