#pragma once
// Motion types, the selection, and the per-motion safe-exit table.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "praxis/motion/motion_command.hpp"

namespace praxis::motion {

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
};
inline constexpr std::size_t k_motion_types = 9;

[[nodiscard]] constexpr std::string_view to_string(MotionType t) {
  constexpr std::array<std::string_view, k_motion_types> names{
      "damping", "prepare", "stand", "stand_up", "walk", "visual_kick", "script", "dispatching", "fall_protection"};
  return names[static_cast<std::size_t>(t)];
}

[[nodiscard]] constexpr MotionType requested_type(const MotionCommand& c) {
  switch (c.index()) {
    case 0: return MotionType::damping;
    case 1: return MotionType::prepare;
    case 2: return MotionType::stand;
    case 3: return MotionType::stand_up;
    case 4:
    case 5: return MotionType::walk;
    case 6: return MotionType::visual_kick;
    default: return MotionType::script;
  }
}

// Whether each motion may be left now. Every motion node writes its own entry each cycle.
struct MotionSafeExits {
  std::array<bool, k_motion_types> safe{};
  constexpr MotionSafeExits() { safe.fill(true); }
  [[nodiscard]] constexpr bool operator[](MotionType t) const { return safe[static_cast<std::size_t>(t)]; }
  constexpr void set(MotionType t, bool s) { safe[static_cast<std::size_t>(t)] = s; }
};

struct MotionSelection {
  MotionType current = MotionType::damping;
  MotionType dispatching_to = MotionType::damping;  // meaningful while current == dispatching
  MotionType previous = MotionType::damping;         // last cycle's current
  bool changed = false;                               // current differs from last cycle
  std::uint32_t stand_up_attempts = 0;
};

}  // namespace praxis::motion
