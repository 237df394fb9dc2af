// LatenessHistogram (the control loop's wake-up lateness) and sleep_until (the loops' absolute
// sleep): quantiles at bucket edges, the exact maximum beyond the range, merging runs; a sleep
// never ends before its deadline, and one already past returns at once.
#include <catch2/catch.hpp>

#include <chrono>

#include "praxis/core/lateness.hpp"
#include "praxis/core/sleep.hpp"

using namespace std::chrono_literals;
using praxis::LatenessHistogram;

TEST_CASE("lateness histogram: quantiles are bucket upper edges, never below the true value", "[core][lateness]") {
  LatenessHistogram h;
  CHECK(h.stats().samples == 0);
  CHECK(h.quantile(0.99) == praxis::Duration::zero());
  // 98 wake-ups 10.2 us late, one 50.5 us, one 300.7 us.
  for (int i = 0; i < 98; ++i) h.add(10200ns);
  h.add(50500ns);
  h.add(300700ns);
  const auto s = h.stats();
  CHECK(s.samples == 100);
  CHECK(s.p50 == 11us);     // the [10, 11) us bucket's edge
  CHECK(s.p99 == 51us);     // the 99th of 100 is the 50.5 us one
  CHECK(s.p999 == 300700ns);  // the last bucket's edge would be above the true maximum: the maximum
  CHECK(s.max == 300700ns);
  // Early wake-ups (clock skew) count as on time.
  h.add(-5us);
  CHECK(h.bucket(0) == 1);
}

TEST_CASE("lateness histogram: beyond the range only the count and the exact maximum are kept, and runs merge",
          "[core][lateness]") {
  LatenessHistogram a, b;
  for (int i = 0; i < 10; ++i) a.add(5us);
  b.add(LatenessHistogram::k_range + 1ms);  // a wake-up 3 ms late
  b.add(20ms);
  CHECK(b.overflow() == 2);
  CHECK(b.quantile(0.5) == 20ms);  // inside the overflow: the maximum, the only exact value there is
  a.merge(b);
  CHECK(a.samples() == 12);
  CHECK(a.bucket(5) == 10);
  CHECK(a.overflow() == 2);
  CHECK(a.max() == 20ms);
  CHECK(a.quantile(0.5) == 6us);
  CHECK(a.quantile(0.9) == 20ms);
  a.clear();
  CHECK(a.samples() == 0);
  CHECK(a.max() == praxis::Duration::zero());
  CHECK(a.bucket(5) == 0);
}

TEST_CASE("sleep_until: never wakes before the deadline, returns at once for one already past", "[core][lateness]") {
  auto deadline = praxis::Clock::now();
  for (int i = 0; i < 200; ++i) {
    deadline += 300us;
    praxis::sleep_until(deadline);
    REQUIRE(praxis::Clock::now() >= deadline);
  }
  const auto t0 = praxis::Clock::now();
  praxis::sleep_until(t0 - 1s);
  praxis::sleep_until(praxis::TimePoint{});
  // Returning at once: well under a sleep's shortest real length on a loaded machine would be
  // meaningless to bound tightly; a second is what a mistaken relative sleep of "-1 s" could not be.
  CHECK(praxis::Clock::now() - t0 < 500ms);
}
