#pragma once
// Time in praxis: one monotonic clock. Deterministic runs (tests, simulation) pass simulated time
// points of the same type, so no code path depends on where "now" came from.

#include <chrono>

namespace praxis {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
using Duration = Clock::duration;

// Seconds as double, for control maths.
[[nodiscard]] constexpr double to_seconds(Duration d) {
  return std::chrono::duration<double>(d).count();
}
// Rounded to the nearest tick: a whole number of microseconds that is not exact in binary (65 us)
// comes back as itself, not a nanosecond short.
[[nodiscard]] constexpr Duration from_seconds(double s) {
  return std::chrono::round<Duration>(std::chrono::duration<double>(s));
}
// Whole milliseconds, for messages ("within 500 ms").
[[nodiscard]] constexpr long long to_ms(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace praxis
