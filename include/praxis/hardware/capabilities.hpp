#pragma once
// Optional backend capabilities, each a small concept a node or pipeline can require.

#include "praxis/core/clock.hpp"
#include "praxis/core/locomotion.hpp"

namespace praxis {

// The robot walks by itself: walk(request, now) hands it a velocity command.
template <class B>
concept HasLocomotion = requires(B& b, const LocomotionRequest& request, TimePoint now) {
  b.walk(request, now);
};

}  // namespace praxis
