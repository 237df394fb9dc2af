#pragma once
// Per-node timing, chosen at compile time. With NoTiming the pipeline holds no timing state and the
// cycle contains no clock reads; with NodeTiming<Clock> each node's run is timed into a fixed array.
//
// A timing clock is any type with `static std::int64_t now_ns()`. The default reads CLOCK_MONOTONIC
// directly; <chrono> is not included here because it alone doubles the compile time of a pipeline.

#include <algorithm>
#include <cstdint>
#include <ctime>

namespace praxis {

struct NodeTimes {
  std::uint64_t count = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t last_ns = 0;

  [[nodiscard]] double mean_ns() const {
    return count == 0 ? 0.0 : static_cast<double>(total_ns) / static_cast<double>(count);
  }
  void add(std::uint64_t ns) {
    ++count;
    total_ns += ns;
    max_ns = std::max(max_ns, ns);
    last_ns = ns;
  }
};

struct NoTiming {
  static constexpr bool enabled = false;
};

struct MonotonicClock {
  static std::int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  }
};

template <class Clock = MonotonicClock>
struct NodeTiming {
  static constexpr bool enabled = true;
  using clock = Clock;
};

}  // namespace praxis
