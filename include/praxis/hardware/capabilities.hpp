#pragma once
// Optional backend capabilities, each a small concept a node or pipeline can require.

#include <cstdint>

#include "praxis/core/clock.hpp"
#include "praxis/core/locomotion.hpp"

namespace praxis {

// Modes a robot with its own motion controller can be asked for. Each backend maps them onto its
// vendor's modes (e.g. Booster: Damping, Prepare, Soccer).
enum class RobotModeRequest : std::uint8_t {
  damping,     // the robot's own damping
  prepare,     // the robot's own ready pose
  stand_up,    // the robot's own getting up
  locomotion,  // the robot's own standing and walking (then walk() steers it)
};

// The robot has its own motion modes: request_mode(mode, now) asks for one.
template <class B>
concept HasModes = requires(B& b, RobotModeRequest mode, TimePoint now) { b.request_mode(mode, now); };

// The robot walks by itself: walk(request, now) hands it a velocity command.
template <class B>
concept HasLocomotion = requires(B& b, const LocomotionRequest& request, TimePoint now) {
  b.walk(request, now);
};

}  // namespace praxis
