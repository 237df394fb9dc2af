#pragma once
// The motions, listed once. Every per-motion list in the motion layer — the collector's inputs,
// the safe-exit collection, the names, the count, which robot mode a motion asks for and whether
// the robot's own controller carries it out, whether switching to it dispatches — is derived from
// `Motions` below, so they cannot disagree and a motion missing from one of them does not compile.
//
// A motion is a tag (in motion::tag):
//
//   struct Stand {
//     static constexpr MotionType type = MotionType::stand;   // its index, and the name in code
//     static constexpr std::string_view name = "stand";       // in logs, the CSV, the ports' names
//     static constexpr RobotModeFor robot_mode = RobotModeFor::locomotion_else_user;
//     static constexpr RunBy run_by_robot = RunBy::locomotion_with_modes;
//     static constexpr bool dispatch_into = true;             // reached through dispatching
//   };
//
// and a node that writes its BodyCommandPort<type, N> and SafeExitPort<type> (motions.hpp).
// `motion_list` checks that tag i has index i, naming the tag that is out of place.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "praxis/core/robot_requests.hpp"

namespace praxis::motion {

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

// The tags live in motion::tag, beside the commands of the same names (motion::command).
namespace tag {

struct Damping {
  static constexpr MotionType type = MotionType::damping;
  static constexpr std::string_view name = "damping";
  static constexpr RobotModeFor robot_mode = RobotModeFor::damping;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};
struct Prepare {
  static constexpr MotionType type = MotionType::prepare;
  static constexpr std::string_view name = "prepare";
  static constexpr RobotModeFor robot_mode = RobotModeFor::prepare;
  static constexpr RunBy run_by_robot = RunBy::modes;
  static constexpr bool dispatch_into = false;  // a script moves from wherever the robot is
};
struct Stand {
  static constexpr MotionType type = MotionType::stand;
  static constexpr std::string_view name = "stand";
  static constexpr RobotModeFor robot_mode = RobotModeFor::locomotion_else_user;
  static constexpr RunBy run_by_robot = RunBy::locomotion_with_modes;
  static constexpr bool dispatch_into = true;
};
struct StandUp {
  static constexpr MotionType type = MotionType::stand_up;
  static constexpr std::string_view name = "stand_up";
  static constexpr RobotModeFor robot_mode = RobotModeFor::prepare;  // the robot gets up from its prepare mode
  static constexpr RunBy run_by_robot = RunBy::modes;
  static constexpr bool dispatch_into = false;  // a script moves from wherever the robot is
};
struct Walk {
  static constexpr MotionType type = MotionType::walk;
  static constexpr std::string_view name = "walk";
  static constexpr RobotModeFor robot_mode = RobotModeFor::locomotion_else_user;
  static constexpr RunBy run_by_robot = RunBy::locomotion;
  static constexpr bool dispatch_into = true;
};
struct VisualKick {
  static constexpr MotionType type = MotionType::visual_kick;
  static constexpr std::string_view name = "visual_kick";
  static constexpr RobotModeFor robot_mode = RobotModeFor::locomotion_else_user;
  static constexpr RunBy run_by_robot = RunBy::locomotion_with_modes;
  static constexpr bool dispatch_into = true;
};
struct Script {
  static constexpr MotionType type = MotionType::script;
  static constexpr std::string_view name = "script";
  static constexpr RobotModeFor robot_mode = RobotModeFor::user;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = false;  // a script moves from wherever the robot is
};
struct Dispatching {
  static constexpr MotionType type = MotionType::dispatching;
  static constexpr std::string_view name = "dispatching";
  static constexpr RobotModeFor robot_mode = RobotModeFor::user;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};
struct FallProtection {
  static constexpr MotionType type = MotionType::fall_protection;
  static constexpr std::string_view name = "fall_protection";
  static constexpr RobotModeFor robot_mode = RobotModeFor::user;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};
struct UserControl {
  static constexpr MotionType type = MotionType::user_control;
  static constexpr std::string_view name = "user_control";
  static constexpr RobotModeFor robot_mode = RobotModeFor::user;
  static constexpr RunBy run_by_robot = RunBy::praxis;
  static constexpr bool dispatch_into = true;
};

}  // namespace tag

namespace diagnostics {
template <class...>
inline constexpr bool registry_always_false = false;
template <class Tag, std::size_t PositionInTheList>
struct motion_tag_out_of_place {
  static_assert(registry_always_false<Tag>,
                "praxis motion: a motion tag's `type` is not its position in motion_list<...> (see "
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
};

template <MotionTag... Tags>
struct motion_list {
  static constexpr std::size_t size = sizeof...(Tags);
  static constexpr std::array<std::string_view, size> names{Tags::name...};
  static constexpr std::array<RobotModeFor, size> robot_modes{Tags::robot_mode...};
  static constexpr std::array<RunBy, size> run_by_robot{Tags::run_by_robot...};
  static constexpr std::array<bool, size> dispatch_into{Tags::dispatch_into...};

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

// The one list. A new motion: its tag here (and its MotionType value), its node in motions.hpp.
using Motions = motion_list<tag::Damping, tag::Prepare, tag::Stand, tag::StandUp, tag::Walk, tag::VisualKick,
                            tag::Script, tag::Dispatching, tag::FallProtection, tag::UserControl>;
static_assert(Motions::in_order(), "see motion_tag_out_of_place above");

inline constexpr std::size_t k_motion_types = Motions::size;

[[nodiscard]] constexpr std::string_view to_string(MotionType t) {
  return Motions::names[static_cast<std::size_t>(t)];
}

}  // namespace praxis::motion
