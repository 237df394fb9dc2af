#pragma once
// sleep_until: the real-time loops' sleep (the runtime's control, receive and send threads).
//
// One absolute clock_nanosleep on CLOCK_MONOTONIC (steady_clock's clock on Linux), as cyclictest
// sleeps, so the loop's lateness is the scheduler's alone and compares with cyclictest's row.
// libstdc++'s std::this_thread::sleep_until turns the deadline into a relative nanosleep after
// reading the clock: a preemption between the two makes it wake that much later than asked.
// A signal (EINTR) sleeps again to the same deadline.

#include <cerrno>
#include <chrono>
#include <ctime>
#include <type_traits>

#include "praxis/core/clock.hpp"

namespace praxis {

inline void sleep_until(TimePoint deadline) noexcept {
  static_assert(std::is_same_v<Clock, std::chrono::steady_clock>,
                "praxis::sleep_until sleeps on CLOCK_MONOTONIC, which is steady_clock's clock on Linux");
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
  if (ns <= 0) return;
  const timespec at{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) == EINTR) {
  }
}

}  // namespace praxis
