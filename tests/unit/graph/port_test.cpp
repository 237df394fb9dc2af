// Ports (graph/port.hpp): what counts as a port and as an input, the value a port carries, and the
// default value a port starts from.

#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/graph/port.hpp"

namespace {
namespace port_test {

struct Speed : praxis::port<"speed", double> {};
struct Mode : praxis::port<"mode", int> {
  static int default_value() { return 7; }
};
struct Label : praxis::port<"label", std::string> {
  static std::string default_value() { return "idle"; }
};
struct Samples : praxis::port<"samples", std::array<int, 3>> {};
constexpr int k_constexpr_default = 42;
struct Limit : praxis::port<"limit", int> {
  static constexpr int default_value() { return k_constexpr_default; }
};

// A hand-written port, not derived from praxis::port: the concept asks only for `type` and `name`.
struct HandWritten {
  using type = float;
  static constexpr std::string_view name = "hand_written";
};
// Has a name but no value type.
struct NoType {
  [[maybe_unused]] static constexpr std::string_view name = "no_type";
};
// Has a value type but no name.
struct NoName {
  using type = int;
};
// A name that is not a string.
struct NumericName {
  using type = int;
  [[maybe_unused]] static constexpr int name = 3;
};
// A value type the pipeline could not create storage for.
struct NotDefaultConstructible {
  explicit NotDefaultConstructible(int) {}
};
struct NoDefaultValue {
  using type = NotDefaultConstructible;
  static constexpr std::string_view name = "no_default";
};
// default_value() of the wrong type is not a default: the value is value-initialised instead.
struct WrongDefaultType : praxis::port<"wrong_default", int> {
  static std::string default_value() { return "seven"; }
};

TEST_CASE("port carries its name and value type", "[graph][port]") {
  STATIC_REQUIRE(Speed::name == "speed");
  STATIC_REQUIRE(Label::name == "label");
  STATIC_REQUIRE(std::is_same_v<Speed::type, double>);
  STATIC_REQUIRE(std::is_same_v<Samples::type, std::array<int, 3>>);
  // Identity is the name: the same name spelled twice is the same text, whatever the struct.
  struct SpeedAgain : praxis::port<"speed", double> {};
  STATIC_REQUIRE(SpeedAgain::name == Speed::name);
  STATIC_REQUIRE(!std::is_same_v<SpeedAgain, Speed>);
}

TEST_CASE("Port accepts types with a value type and a name and rejects the rest", "[graph][port]") {
  STATIC_REQUIRE(praxis::Port<Speed>);
  STATIC_REQUIRE(praxis::Port<Label>);
  STATIC_REQUIRE(praxis::Port<HandWritten>);
  STATIC_REQUIRE(praxis::Port<praxis::port<"inline", long>>);

  STATIC_REQUIRE_FALSE(praxis::Port<NoType>);
  STATIC_REQUIRE_FALSE(praxis::Port<NoName>);
  STATIC_REQUIRE_FALSE(praxis::Port<NumericName>);
  STATIC_REQUIRE_FALSE(praxis::Port<NoDefaultValue>);
  STATIC_REQUIRE_FALSE(praxis::Port<int>);
  STATIC_REQUIRE_FALSE(praxis::Port<praxis::ports<Speed>>);
  // previous<> is an input declaration, never a port of its own (so never an output).
  STATIC_REQUIRE_FALSE(praxis::Port<praxis::previous<Speed>>);
}

TEST_CASE("InputPort accepts a port or previous of a port", "[graph][port]") {
  STATIC_REQUIRE(praxis::InputPort<Speed>);
  STATIC_REQUIRE(praxis::InputPort<praxis::previous<Speed>>);
  STATIC_REQUIRE(praxis::InputPort<praxis::previous<HandWritten>>);

  STATIC_REQUIRE_FALSE(praxis::InputPort<NoType>);
  STATIC_REQUIRE_FALSE(praxis::InputPort<praxis::previous<NoName>>);
  STATIC_REQUIRE_FALSE(praxis::InputPort<praxis::previous<NoDefaultValue>>);
  // previous<> unwraps once: previous of previous names no port.
  STATIC_REQUIRE_FALSE(praxis::InputPort<praxis::previous<praxis::previous<Speed>>>);
}

TEST_CASE("previous names its port and port_value_t sees through it", "[graph][port]") {
  STATIC_REQUIRE(std::is_same_v<praxis::previous<Mode>::port_type, Mode>);
  STATIC_REQUIRE(std::is_same_v<praxis::port_value_t<Mode>, int>);
  STATIC_REQUIRE(std::is_same_v<praxis::port_value_t<praxis::previous<Mode>>, int>);
  STATIC_REQUIRE(std::is_same_v<praxis::port_value_t<praxis::previous<Label>>, std::string>);
}

TEST_CASE("ports counts its entries", "[graph][port]") {
  STATIC_REQUIRE(praxis::ports<>::size == 0);
  STATIC_REQUIRE(praxis::ports<Speed>::size == 1);
  STATIC_REQUIRE(praxis::ports<Speed, praxis::previous<Mode>, Label>::size == 3);
}

TEST_CASE("port_default uses default_value() when the port supplies one", "[graph][port]") {
  CHECK(praxis::port_default<Mode>() == 7);
  CHECK(praxis::port_default<Label>() == "idle");
  // constexpr when default_value() is.
  STATIC_REQUIRE(praxis::port_default<Limit>() == k_constexpr_default);
}

TEST_CASE("port_default value-initialises a port without a usable default_value()", "[graph][port]") {
  STATIC_REQUIRE(praxis::port_default<Speed>() == 0.0);
  STATIC_REQUIRE(praxis::port_default<Samples>() == std::array<int, 3>{0, 0, 0});
  CHECK(praxis::port_default<HandWritten>() == 0.0F);
  // A default_value() whose result does not convert to the port's type is ignored.
  STATIC_REQUIRE(praxis::port_default<WrongDefaultType>() == 0);
}

}  // namespace port_test
}  // namespace
