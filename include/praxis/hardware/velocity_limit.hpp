#pragma once
// A velocity the robot's own walking is asked for, held to the limits praxis sends: one component
// clamped to [-limit, limit], a non-finite one replaced by 0 (a NaN never leaves praxis), each change
// counted. Shared by the request handlers of robots that walk by themselves (Unitree's sport and
// loco services, Tienkung's HRIC).

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace praxis {

[[nodiscard]] inline double limit_velocity(double v, double limit, std::uint64_t& changed) noexcept {
  if (!std::isfinite(v)) {
    ++changed;
    return 0.0;
  }
  const double c = std::clamp(v, -limit, limit);
  changed += c != v ? 1 : 0;
  return c;
}

}  // namespace praxis
