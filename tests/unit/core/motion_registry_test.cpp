// core/motion_registry.hpp: the one list of motions and everything derived from it — the count, the
// names (to_string), each tag's index, the robot mode it asks for, who carries it out and whether
// it is dispatched into. Each derived fact is checked, for every tag, against a table written out
// independently below (from the header's comments on each motion, not from its arrays), so a tag
// whose field is edited, or a list whose order changes, fails here by name.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <set>
#include <string_view>

#include "praxis/core/motion_registry.hpp"

namespace motion_registry_test {

using praxis::MotionType;
using praxis::RobotModeFor;
using praxis::RunBy;
namespace tags = praxis::motions;

struct Expected {
  MotionType type;
  std::string_view name;
  RobotModeFor mode;
  RunBy run_by;
  bool dispatch_into;
};

// What each motion is, per its meaning: damping is the robot's damping and always praxis' own;
// prepare and stand-up are the robot's ready pose, carried out by a robot with modes and never
// dispatched into (the robot gets up from where it is); standing, walking and kicking are the
// robot's own locomotion when it walks by itself; a script, dispatching, fall protection and the
// user's controller are joint control by praxis. Only prepare, stand-up and scripts are not
// dispatched into (a script moves from wherever the robot is).
constexpr std::array<Expected, 10> k_expected{{
    {MotionType::damping, "damping", RobotModeFor::damping, RunBy::praxis, true},
    {MotionType::prepare, "prepare", RobotModeFor::prepare, RunBy::modes, false},
    {MotionType::stand, "stand", RobotModeFor::locomotion_else_user, RunBy::locomotion_with_modes, true},
    {MotionType::stand_up, "stand_up", RobotModeFor::prepare, RunBy::modes, false},
    {MotionType::walk, "walk", RobotModeFor::locomotion_else_user, RunBy::locomotion, true},
    {MotionType::visual_kick, "visual_kick", RobotModeFor::locomotion_else_user, RunBy::locomotion_with_modes, true},
    {MotionType::script, "script", RobotModeFor::user, RunBy::praxis, false},
    {MotionType::dispatching, "dispatching", RobotModeFor::user, RunBy::praxis, true},
    {MotionType::fall_protection, "fall_protection", RobotModeFor::user, RunBy::praxis, true},
    {MotionType::user_control, "user_control", RobotModeFor::user, RunBy::praxis, true},
}};

template <class Tag>
void check_tag(std::size_t position) {
  INFO("tag at position " << position << " (" << Tag::name << ")");
  REQUIRE(position < k_expected.size());
  const Expected& e = k_expected[position];
  CHECK(Tag::type == e.type);
  CHECK(static_cast<std::size_t>(Tag::type) == position);
  CHECK(Tag::name == e.name);
  CHECK(Tag::robot_mode == e.mode);
  CHECK(Tag::run_by_robot == e.run_by);
  CHECK(Tag::dispatch_into == e.dispatch_into);
  // The list's arrays carry the same facts at the tag's index.
  CHECK(praxis::Motions::names[position] == e.name);
  CHECK(praxis::Motions::robot_modes[position] == e.mode);
  CHECK(praxis::Motions::run_by_robot[position] == e.run_by);
  CHECK(praxis::Motions::dispatch_into[position] == e.dispatch_into);
  CHECK(praxis::to_string(e.type) == e.name);
}

TEST_CASE("motion registry: count and names and indices come from the one list", "[core][motion_registry]") {
  STATIC_REQUIRE(praxis::k_motion_types == 10);
  STATIC_REQUIRE(praxis::Motions::size == praxis::k_motion_types);
  STATIC_REQUIRE(praxis::Motions::in_order());
  // The last enumerator is the last motion: an enumerator added without a tag shows here.
  STATIC_REQUIRE(static_cast<std::size_t>(MotionType::user_control) + 1 == praxis::k_motion_types);
  CHECK(praxis::to_string(MotionType::damping) == "damping");
  CHECK(praxis::to_string(MotionType::stand_up) == "stand_up");
  CHECK(praxis::to_string(MotionType::user_control) == "user_control");
  // Names are unique: they name ports and CSV columns.
  std::set<std::string_view> names(praxis::Motions::names.begin(), praxis::Motions::names.end());
  CHECK(names.size() == praxis::k_motion_types);
}

TEST_CASE("motion registry: every tag's fields and the list's derived arrays match the expected table",
          "[core][motion_registry]") {
  check_tag<tags::Damping>(0);
  check_tag<tags::Prepare>(1);
  check_tag<tags::Stand>(2);
  check_tag<tags::StandUp>(3);
  check_tag<tags::Walk>(4);
  check_tag<tags::VisualKick>(5);
  check_tag<tags::Script>(6);
  check_tag<tags::Dispatching>(7);
  check_tag<tags::FallProtection>(8);
  check_tag<tags::UserControl>(9);
}

TEST_CASE("motion registry: the robot's own controller never carries out damping or joint control by praxis",
          "[core][motion_registry]") {
  // Safety depends on it: damping must be praxis' own on every robot, and a motion that asks for
  // joint control (mode user) cannot be the robot's own.
  CHECK(praxis::Motions::run_by_robot[static_cast<std::size_t>(MotionType::damping)] == RunBy::praxis);
  for (std::size_t i = 0; i < praxis::k_motion_types; ++i) {
    INFO(praxis::Motions::names[i]);
    if (praxis::Motions::robot_modes[i] == RobotModeFor::user) CHECK(praxis::Motions::run_by_robot[i] == RunBy::praxis);
  }
}

// A list of one's own derives the same facts from its tags, in order.
struct First
    : praxis::motion_tag<MotionType::damping, "first", RobotModeFor::damping, RunBy::praxis, true, praxis::Asked::by_type> {};
struct Second
    : praxis::motion_tag<MotionType::prepare, "second", RobotModeFor::prepare, RunBy::modes, false, praxis::Asked::never> {};
using Two = praxis::motion_list<First, Second>;

TEST_CASE("motion registry: motion_list derives its arrays from any tags in order", "[core][motion_registry]") {
  STATIC_REQUIRE(Two::size == 2);
  STATIC_REQUIRE(Two::in_order());
  CHECK(Two::names[0] == "first");
  CHECK(Two::names[1] == "second");
  CHECK(Two::robot_modes[1] == RobotModeFor::prepare);
  CHECK(Two::run_by_robot[1] == RunBy::modes);
  CHECK_FALSE(Two::dispatch_into[1]);
  CHECK(Two::dispatch_into[0]);
  CHECK(Two::asked[0] == praxis::Asked::by_type);
  CHECK(Two::asked[1] == praxis::Asked::never);
}

struct NoName {
  static constexpr MotionType type = MotionType::damping;
  static constexpr RobotModeFor robot_mode = RobotModeFor::damping;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};
struct NoRunBy {
  static constexpr MotionType type = MotionType::damping;
  static constexpr std::string_view name = "x";
  static constexpr RobotModeFor robot_mode = RobotModeFor::damping;
  static constexpr bool dispatch_into = true;
};

// Every field but `asked`: a tag must say how a behaviour asks for its motion (none is asked for by
// type unless its tag says so).
struct NoAsked {
  static constexpr MotionType type = MotionType::damping;
  static constexpr std::string_view name = "x";
  static constexpr RobotModeFor robot_mode = RobotModeFor::damping;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};

TEST_CASE("motion registry: a tag needs every field", "[core][motion_registry]") {
  STATIC_REQUIRE(praxis::MotionTag<tags::Walk>);
  STATIC_REQUIRE(praxis::MotionTag<First>);
  STATIC_REQUIRE_FALSE(praxis::MotionTag<NoName>);
  STATIC_REQUIRE_FALSE(praxis::MotionTag<NoRunBy>);
  STATIC_REQUIRE_FALSE(praxis::MotionTag<NoAsked>);
  STATIC_REQUIRE_FALSE(praxis::MotionTag<int>);
}

}  // namespace motion_registry_test
