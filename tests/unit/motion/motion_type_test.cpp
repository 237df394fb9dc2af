// motion/motion_type.hpp: which motion a command asks for (requested_type: every alternative names
// one, command::Request asks by type for a motion without parameters and for damping otherwise),
// the per-motion safe-exit table (every motion safe to leave until its node says otherwise, each
// entry its own), why a selection changed (each cause its own name) and what a selection starts as.
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string_view>
#include <variant>

#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"

namespace motion_type_test {

namespace m = praxis::motion;
using m::MotionType;

TEST_CASE("motion type: every alternative requests its own motion", "[motion][motion_type]") {
  CHECK(m::requested_type(m::MotionCommand{}) == MotionType::damping);  // Unset: nothing asked yet
  CHECK(m::requested_type(m::command::Damping{}) == MotionType::damping);
  CHECK(m::requested_type(m::command::Prepare{}) == MotionType::prepare);
  CHECK(m::requested_type(m::command::Stand{}) == MotionType::stand);
  CHECK(m::requested_type(m::command::StandUp{}) == MotionType::stand_up);
  CHECK(m::requested_type(m::command::Walk{}) == MotionType::walk);
  CHECK(m::requested_type(m::command::WalkWithVelocity{}) == MotionType::walk);
  CHECK(m::requested_type(m::command::VisualKick{}) == MotionType::visual_kick);
  CHECK(m::requested_type(m::command::Script{}) == MotionType::script);
  CHECK(m::requested_type(m::command::UserControl{}) == MotionType::user_control);
  // Every alternative is covered above (a new one must be added here).
  STATIC_REQUIRE(std::variant_size_v<m::MotionCommand> == 11);
}

TEST_CASE("motion type: Request asks by type for motions without parameters and for damping otherwise",
          "[motion][motion_type]") {
  for (const auto t : {MotionType::damping, MotionType::prepare, MotionType::stand, MotionType::stand_up,
                       MotionType::user_control}) {
    INFO(praxis::to_string(t));
    CHECK(m::requestable_by_type(t));
    CHECK(m::requested_type(m::command::Request{t}) == t);
  }
  // Motions whose command carries parameters, and the two the selector enters by itself.
  for (const auto t : {MotionType::walk, MotionType::visual_kick, MotionType::script, MotionType::dispatching,
                       MotionType::fall_protection}) {
    INFO(praxis::to_string(t));
    CHECK_FALSE(m::requestable_by_type(t));
    CHECK(m::requested_type(m::command::Request{t}) == MotionType::damping);
  }
  // A value that is no motion (a cast from a wire byte, say) is the safe reading too.
  const auto not_a_motion = static_cast<MotionType>(m::k_motion_types);
  CHECK_FALSE(m::requestable_by_type(not_a_motion));
  CHECK(m::requested_type(m::command::Request{not_a_motion}) == MotionType::damping);
  CHECK(m::requested_type(m::command::Request{static_cast<MotionType>(255)}) == MotionType::damping);
  // The default Request is damping.
  CHECK(m::requested_type(m::command::Request{}) == MotionType::damping);
}

TEST_CASE("motion type: every motion is safe to leave until its node says otherwise and each entry is its own",
          "[motion][motion_type]") {
  m::MotionSafeExits exits;
  for (std::size_t t = 0; t < m::k_motion_types; ++t) CHECK(exits[static_cast<MotionType>(t)]);
  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    const auto type = static_cast<MotionType>(t);
    INFO(praxis::to_string(type));
    m::MotionSafeExits e;
    e.set(type, false);
    for (std::size_t u = 0; u < m::k_motion_types; ++u) CHECK(e[static_cast<MotionType>(u)] == (u != t));
    e.set(type, true);
    CHECK(e[type]);
  }
  STATIC_REQUIRE(m::MotionSafeExits{}[MotionType::user_control]);
}

TEST_CASE("motion type: every selection cause has its own name", "[motion][motion_type]") {
  CHECK(m::to_string(m::SelectionCause::none) == "none");
  CHECK(m::to_string(m::SelectionCause::requested) == "requested");
  CHECK(m::to_string(m::SelectionCause::no_state) == "no state");
  CHECK(m::to_string(m::SelectionCause::stale_state) == "stale state");
  CHECK(m::to_string(m::SelectionCause::invalid_state) == "invalid state (NaN)");
  CHECK(m::to_string(m::SelectionCause::joint_fault) == "joint fault");
  CHECK(m::to_string(m::SelectionCause::tilt) == "tilt (projected gravity)");
  CHECK(m::to_string(m::SelectionCause::falling) == "falling");
  CHECK(m::to_string(m::SelectionCause::command_guard) == "command guard");
  CHECK(m::to_string(m::SelectionCause::link_lost) == "link lost");
  // The count covers the last enumerator: a cause added without a name fails here.
  STATIC_REQUIRE(static_cast<std::size_t>(m::SelectionCause::link_lost) + 1 == m::k_selection_causes);
  std::set<std::string_view> names;
  for (std::size_t c = 0; c < m::k_selection_causes; ++c) names.insert(m::to_string(static_cast<m::SelectionCause>(c)));
  CHECK(names.size() == m::k_selection_causes);
}

TEST_CASE("motion type: a selection starts in damping uncommanded and at full stand gains", "[motion][motion_type]") {
  const m::MotionSelection s;
  CHECK(s.current == MotionType::damping);
  CHECK(s.previous == MotionType::damping);
  CHECK_FALSE(s.changed);
  CHECK(s.cause == m::SelectionCause::none);
  CHECK_FALSE(s.commanded);
  CHECK(s.gain_ratio == 1.0);
  CHECK(s.stand_up_attempts == 0u);
}

}  // namespace motion_type_test
