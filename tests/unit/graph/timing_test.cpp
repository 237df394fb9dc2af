// Per-node timing: counted per node when enabled, absent (no storage, no clock) when disabled.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>

#include "praxis/graph.hpp"

namespace timing_test {

namespace timing {

struct X : praxis::port<"x", std::uint64_t> {};
struct Y : praxis::port<"y", std::uint64_t> {};

struct Cheap {
  using outputs = praxis::ports<X>;
  void cycle(std::uint64_t& x) { ++x; }
};
struct Busy {
  using inputs = praxis::ports<X>;
  using outputs = praxis::ports<Y>;
  void cycle(const std::uint64_t& x, std::uint64_t& y) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
    while (std::chrono::steady_clock::now() < until) {
    }
    y = x;
  }
};

// A clock the test controls: every now() advances by a fixed step, so node times are exact.
struct StepClock {
  static inline std::int64_t ticks = 0;
  static inline std::int64_t step = 7;
  static std::int64_t now_ns() { return ticks += step; }
};

template <class P>
concept HasTimings = requires(const P& p) { p.timings(); };

}  // namespace timing

TEST_CASE("timed pipelines record every node's run in execution order", "[graph][timing]") {
  praxis::TimedPipeline<timing::Busy, timing::Cheap> p;
  for (int i = 0; i < 50; ++i) p.cycle();
  const auto t = p.timings();
  REQUIRE(t.size() == 2);
  CHECK(t[0].count == 50);
  CHECK(t[1].count == 50);
  // Busy (second in execution order) spins for 20 us per run.
  CHECK(t[1].mean_ns() >= 20'000.0);
  CHECK(t[1].max_ns >= t[1].last_ns);
  CHECK(t[1].mean_ns() > t[0].mean_ns());
}

TEST_CASE("node times come from the configured clock", "[graph][timing]") {
  praxis::BasicPipeline<praxis::NodeTiming<timing::StepClock>, timing::Cheap, timing::Busy> p;
  p.cycle();
  p.cycle();
  CHECK(p.timings()[0].total_ns == 14);
  CHECK(p.timings()[1].max_ns == 7);
  p.reset();
  CHECK(p.timings()[0].count == 0);
}

TEST_CASE("untimed pipelines carry no timing state", "[graph][timing]") {
  using Plain = praxis::Pipeline<timing::Cheap, timing::Busy>;
  using Timed = praxis::TimedPipeline<timing::Cheap, timing::Busy>;
  struct SameData {
    std::uint64_t x, y;
  };
  STATIC_REQUIRE(sizeof(Plain) == sizeof(SameData));
  STATIC_REQUIRE(sizeof(Timed) >= sizeof(SameData) + 2 * sizeof(praxis::NodeTimes));
  STATIC_REQUIRE(!timing::HasTimings<Plain>);
  STATIC_REQUIRE(timing::HasTimings<Timed>);
}

}  // namespace timing_test
