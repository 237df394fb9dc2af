// EnumNameTable: a table whose entries are not one per enumerator in the enum's order is refused
// by in_enum_order() (what the static_asserts beside every table check), and name_in() finds each
// enumerator's own name, "?" for a value past the table.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string_view>

#include "praxis/core/enum_names.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"

namespace enum_names_test {

enum class Colour : std::uint8_t { red, green, blue };

TEST_CASE("enum names: a table in the enum's order, one entry each, is accepted, and a swap or a gap is not",
          "[core][enum_names]") {
  constexpr praxis::EnumNameTable<Colour, 3> good{{{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}}};
  constexpr praxis::EnumNameTable<Colour, 3> swapped{{{Colour::green, "green"}, {Colour::red, "red"}, {Colour::blue, "blue"}}};
  constexpr praxis::EnumNameTable<Colour, 3> repeated{{{Colour::red, "red"}, {Colour::red, "red"}, {Colour::blue, "blue"}}};
  constexpr praxis::EnumNameTable<Colour, 3> unnamed{{{Colour::red, "red"}, {Colour::green, ""}, {Colour::blue, "blue"}}};
  STATIC_REQUIRE(praxis::in_enum_order(good));
  STATIC_REQUIRE_FALSE(praxis::in_enum_order(swapped));
  STATIC_REQUIRE_FALSE(praxis::in_enum_order(repeated));
  STATIC_REQUIRE_FALSE(praxis::in_enum_order(unnamed));
  CHECK(praxis::name_in(good, Colour::green) == "green");
  CHECK(praxis::name_in(good, static_cast<Colour>(7)) == "?");  // a byte off the wire
}

TEST_CASE("enum names: praxis' own tables name each enumerator", "[core][enum_names]") {
  CHECK(praxis::to_string(praxis::RobotMode::locomotion) == "locomotion");
  CHECK(praxis::to_string(praxis::JointMode::disabled) == "disabled");
  CHECK(praxis::to_string(praxis::RequestOutcome::timed_out) == "timed out");
  CHECK(praxis::to_string(praxis::LifecycleStage::in_control) == "in control");
  CHECK(praxis::to_string(static_cast<praxis::RobotMode>(200)) == "?");
}

}  // namespace enum_names_test
