#pragma once
// What a command asks for, the selection, and the per-motion safe-exit table. The motions
// themselves are listed in core/motion_registry.hpp.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <variant>

#include "praxis/core/enum_names.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/registry.hpp"

namespace praxis::motion {

// The motion a command asks for: its tag's, or a Request's type where that motion is asked for by
// type (else damping).
[[nodiscard]] constexpr MotionType requested_type(const MotionCommand& c) {
  return std::visit(
      []<class C>(const C& alternative) {
        if constexpr (std::is_same_v<C, command::Request>) {
          return requestable_by_type(alternative.motion) ? alternative.motion : MotionType::damping;
        } else {
          static_assert(MotionTag<typename C::tag>,
                        "praxis motion: every command of MotionCommand names its motion (`using tag = "
                        "praxis::motions::YourTag;`), except command::Request, which names it by type");
          return C::tag::type;
        }
      },
      c);
}

// Whether each motion may be left now. Every motion node writes its own entry each cycle.
struct MotionSafeExits {
  std::array<bool, k_motion_types> safe{};
  constexpr MotionSafeExits() { safe.fill(true); }
  [[nodiscard]] constexpr bool operator[](MotionType t) const { return safe[static_cast<std::size_t>(t)]; }
  constexpr void set(MotionType t, bool s) { safe[static_cast<std::size_t>(t)] = s; }
};

// Why the selection is what it is, for logs and tests.
enum class SelectionCause : std::uint8_t {
  none,
  requested,      // the command asked for it (or the gamepad, in RobotController)
  no_state,       // nothing received from the robot yet
  stale_state,    // the newest state is older than the timeout
  invalid_state,  // NaN or infinity in the state
  joint_fault,    // a joint reports a fault (offline, over range, driver error, overheated)
  tilt,           // tilted past the termination threshold under the user's control
  falling,        // fall protection
  command_guard,  // the collector had to replace a non-finite command
  link_lost,      // the backend reports the link to the robot down
};
inline constexpr std::size_t k_selection_causes = 10;

inline constexpr EnumNameTable<SelectionCause, k_selection_causes> k_selection_cause_names{{
    {SelectionCause::none, "none"},
    {SelectionCause::requested, "requested"},
    {SelectionCause::no_state, "no state"},
    {SelectionCause::stale_state, "stale state"},
    {SelectionCause::invalid_state, "invalid state (NaN)"},
    {SelectionCause::joint_fault, "joint fault"},
    {SelectionCause::tilt, "tilt (projected gravity)"},
    {SelectionCause::falling, "falling"},
    {SelectionCause::command_guard, "command guard"},
    {SelectionCause::link_lost, "link lost"},
}};
static_assert(in_enum_order(k_selection_cause_names),
              "k_selection_cause_names: one entry per SelectionCause, in the enum's order");

[[nodiscard]] constexpr std::string_view to_string(SelectionCause c) { return name_in(k_selection_cause_names, c); }

struct MotionSelection {
  MotionType current = MotionType::damping;
  MotionType dispatching_to = MotionType::damping;  // meaningful while current == dispatching
  MotionType previous = MotionType::damping;         // last cycle's current
  bool changed = false;                               // current differs from last cycle
  SelectionCause cause = SelectionCause::none;        // why it changed (none while unchanged)
  bool commanded = false;  // the behaviour has sent a command (anything but command::Unset)
  double gain_ratio = 1.0;  // scales the stand motion's gains (RobotController's pd_ratio ramp)
  std::uint32_t stand_up_attempts = 0;
};

}  // namespace praxis::motion
