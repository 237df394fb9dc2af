#pragma once
// The motions, listed once. Every per-motion list — the collector's inputs, the safe-exit
// collection, the names, the count, which robot mode a motion asks for and whether the robot's own
// controller carries it out, whether switching to it dispatches, which of them a configuration
// offers, and what a vendor's request handler does for each — is derived from `Motions` below, so
// they cannot disagree and a motion missing from one of them does not compile.
//
// The list sits in core because it is the vocabulary of the seam: RobotRequests carries the
// selected motion to the hardware layer, which maps it to the robot's calls (hardware/ cannot see
// the motion layer).
//
// A motion is a tag (in praxis::motions), whose fields say
//
//   type           its MotionType: its index, and its name in code
//   name           in logs, the cycle CSV and its ports' names ("praxis/body/stand")
//   robot_mode     the mode a robot with modes of its own is asked for while it runs
//   run_by_robot   when the robot's own controller carries it out
//   dispatch_into  whether it is reached through dispatching from another joint-level motion
//   asked          how a behaviour asks for it: by type too, only by its own command, or never
//
//   struct Stand : motion_tag<MotionType::stand, "stand", RobotModeFor::locomotion_else_user,
//                             RunBy::locomotion_with_modes, true,  Asked::by_type> {};
//
// and a node that writes its BodyCommandPort<type, N> and SafeExitPort<type>, declared the
// motion's node by a motion_node<tag> specialization beside it (motion/motions.hpp). Adding a
// motion is those two places; docs/motion.md walks through one. `motion_list` checks that tag i
// has index i, naming the tag that is out of place.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "praxis/graph/fixed_string.hpp"

namespace praxis {

// The motions' indices, named for code that means one motion (the selector's rules).
enum class MotionType : std::uint8_t {
  damping,
  prepare,
  stand,
  stand_up,
  walk,         // Walk and WalkWithVelocity
  visual_kick,
  script,
  dispatching,  // interpolating from the last command to the next motion's start pose
  fall_protection,
  user_control,  // the user's controller (USER_CTRL): RobotController's CTRL
};

// The mode a robot with modes of its own is asked for while the motion runs.
enum class RobotModeFor : std::uint8_t {
  damping,               // its damping
  prepare,               // its ready pose (where it also gets up from)
  locomotion_else_user,  // its standing and walking when it walks by itself, else joint control
  user,                  // joint-level control by praxis
};

// When the robot's own controller carries the motion out (then praxis sends no joint command).
enum class RunBy : std::uint8_t {
  praxis,                 // never: praxis' node commands the joints
  modes,                  // a robot with modes of its own (its prepare, its get-up)
  locomotion,             // a robot that walks by itself
  locomotion_with_modes,  // a robot that walks by itself and has modes (its stand, its kick)
};

// How a behaviour asks for the motion.
enum class Asked : std::uint8_t {
  by_type,     // also by command::Request{type}: it takes no parameters, or only ones with defaults
  by_command,  // only by its own command, which carries what it needs (a path, a kick, a script)
  never,       // the selector enters it by itself
};

// A tag's fields, spelled once per motion below.
template <MotionType Type, fixed_string Name, RobotModeFor Mode, RunBy By, bool Dispatch, Asked How>
struct motion_tag {
  static constexpr MotionType type = Type;
  static constexpr std::string_view name = Name.view();
  static constexpr RobotModeFor robot_mode = Mode;
  static constexpr RunBy run_by_robot = By;
  static constexpr bool dispatch_into = Dispatch;
  static constexpr Asked asked = How;
};

// The tags (praxis::motions; each command of motion::command names its tag). Prepare, stand-up and
// scripts are not dispatched into: a script moves from wherever the robot is; the robot gets up
// from its prepare mode.
namespace motions {
// clang-format off
struct Damping        : motion_tag<MotionType::damping,         "damping",         RobotModeFor::damping,              RunBy::praxis,                true,  Asked::by_type>    {};
struct Prepare        : motion_tag<MotionType::prepare,         "prepare",         RobotModeFor::prepare,              RunBy::modes,                 false, Asked::by_type>    {};
struct Stand          : motion_tag<MotionType::stand,           "stand",           RobotModeFor::locomotion_else_user, RunBy::locomotion_with_modes, true,  Asked::by_type>    {};
struct StandUp        : motion_tag<MotionType::stand_up,        "stand_up",        RobotModeFor::prepare,              RunBy::modes,                 false, Asked::by_type>    {};
struct Walk           : motion_tag<MotionType::walk,            "walk",            RobotModeFor::locomotion_else_user, RunBy::locomotion,            true,  Asked::by_command> {};
struct VisualKick     : motion_tag<MotionType::visual_kick,     "visual_kick",     RobotModeFor::locomotion_else_user, RunBy::locomotion_with_modes, true,  Asked::by_command> {};
struct Script         : motion_tag<MotionType::script,          "script",          RobotModeFor::user,                 RunBy::praxis,                false, Asked::by_command> {};
struct Dispatching    : motion_tag<MotionType::dispatching,     "dispatching",     RobotModeFor::user,                 RunBy::praxis,                true,  Asked::never>      {};
struct FallProtection : motion_tag<MotionType::fall_protection, "fall_protection", RobotModeFor::user,                 RunBy::praxis,                true,  Asked::never>      {};
struct UserControl    : motion_tag<MotionType::user_control,    "user_control",    RobotModeFor::user,                 RunBy::praxis,                true,  Asked::by_type>    {};
// clang-format on
}  // namespace motions

namespace diagnostics {
template <class...>
inline constexpr bool registry_always_false = false;
template <class Tag, std::size_t PositionInTheList>
struct motion_tag_out_of_place {
  static_assert(registry_always_false<Tag>,
                "praxis motions: a motion tag's `type` is not its position in motion_list<...> (see "
                "motion_tag_out_of_place<Tag, position>): list the tags in the order of their "
                "MotionType values, each once.");
};
}  // namespace diagnostics

template <class Tag>
concept MotionTag = requires {
  { Tag::type } -> std::convertible_to<MotionType>;
  { Tag::name } -> std::convertible_to<std::string_view>;
  { Tag::robot_mode } -> std::convertible_to<RobotModeFor>;
  { Tag::run_by_robot } -> std::convertible_to<RunBy>;
  { Tag::dispatch_into } -> std::convertible_to<bool>;
  { Tag::asked } -> std::convertible_to<Asked>;
};

template <MotionTag... Tags>
struct motion_list {
  static constexpr std::size_t size = sizeof...(Tags);
  static constexpr std::array<std::string_view, size> names{Tags::name...};
  static constexpr std::array<RobotModeFor, size> robot_modes{Tags::robot_mode...};
  static constexpr std::array<RunBy, size> run_by_robot{Tags::run_by_robot...};
  static constexpr std::array<bool, size> dispatch_into{Tags::dispatch_into...};
  static constexpr std::array<Asked, size> asked{Tags::asked...};

  // Each tag at the position its type names.
  static constexpr bool in_order() {
    return in_order_impl(std::make_index_sequence<size>{});
  }

 private:
  template <std::size_t... I>
  static constexpr bool in_order_impl(std::index_sequence<I...>) {
    return (check<Tags, I>() && ...);
  }
  template <class Tag, std::size_t I>
  static constexpr bool check() {
    if constexpr (static_cast<std::size_t>(Tag::type) != I) {
      (void)sizeof(diagnostics::motion_tag_out_of_place<Tag, I>);
      return false;
    } else {
      return true;
    }
  }
};

// The one list. A new motion: its MotionType value, its tag and its place here; its node in
// motion/motions.hpp.
using Motions = motion_list<motions::Damping, motions::Prepare, motions::Stand, motions::StandUp, motions::Walk,
                            motions::VisualKick, motions::Script, motions::Dispatching, motions::FallProtection,
                            motions::UserControl>;
static_assert(Motions::in_order(), "see motion_tag_out_of_place above");

inline constexpr std::size_t k_motion_types = Motions::size;

[[nodiscard]] constexpr std::string_view to_string(MotionType t) {
  return Motions::names[static_cast<std::size_t>(t)];
}

}  // namespace praxis
