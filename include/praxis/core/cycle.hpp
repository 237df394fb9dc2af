#pragma once
// What every node may know about the cycle it runs in.

#include <cstdint>

#include "praxis/core/clock.hpp"

namespace praxis {

struct CycleInfo {
  TimePoint now{};
  std::uint64_t cycle = 0;
  bool have_state = false;  // false until the backend delivered a first state
};

}  // namespace praxis
