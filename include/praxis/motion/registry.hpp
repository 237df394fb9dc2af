#pragma once
// The motion layer's view of the motion registry (core/motion_registry.hpp): its names in
// praxis::motion, and motion_node<Tag>, the node that carries a motion out by default. Every tag of
// `Motions` has one, declared beside its node (motions.hpp); a tag without one is a compile error
// naming it (motion_without_a_node<Tag>).

#include <cstddef>
#include <type_traits>

#include "praxis/core/motion_registry.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis::motion {

using praxis::k_motion_types;
using praxis::motion_list;
using praxis::motion_tag;
using praxis::Motions;
using praxis::MotionTag;
using praxis::Asked;
using praxis::MotionType;
using praxis::RobotModeFor;
using praxis::RunBy;
using praxis::to_string;

// What a motion_node's `node<Model, Capabilities>` may be besides a node: no node of praxis' own.
// The configuration then takes the node of yours that writes the motion's ports, or
struct offered_with_a_node_of_yours {};  // ... leaves the motion unoffered without one (user control)
struct needs_a_node_of_yours {};         // ... does not compile without one (walking, on a robot that
                                         //     does not walk by itself)

namespace diagnostics {
template <class...>
inline constexpr bool motion_node_always_false = false;
template <class Tag>
struct motion_without_a_node {
  static_assert(motion_node_always_false<Tag>,
                "praxis motion: this motion tag of praxis::Motions has no node (see "
                "motion_without_a_node<Tag>): declare one beside the node that carries it out, "
                "`template <> struct motion_node<praxis::motions::YourTag> { template <class Model, "
                "praxis::Capabilities C> using node = YourMotion<Model>; };` (motion/motions.hpp, docs/motion.md).");
  using type = void;
};
}  // namespace diagnostics

// The node that carries out the motion of `Tag` in a configuration of robot model Model on a
// backend with capabilities C. Specialized for every tag beside its node.
template <class Tag>
struct motion_node {
  template <class Model, Capabilities C>
  using node = typename diagnostics::motion_without_a_node<Tag>::type;
};

// Whether command::Request may ask for a motion: its tag says it is asked for by type (Asked).
// Anything else a Request names asks for damping.
[[nodiscard]] constexpr bool requestable_by_type(MotionType t) {
  const auto i = static_cast<std::size_t>(t);
  return i < k_motion_types && Motions::asked[i] == Asked::by_type;
}

}  // namespace praxis::motion
