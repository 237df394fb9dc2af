// core/clock.hpp: the one monotonic clock and its conversions — seconds as double both ways (from
// seconds rounded to the nearest tick, so a whole number of microseconds survives the round trip),
// whole milliseconds truncated towards zero, all usable at compile time.
#include <catch2/catch.hpp>

#include <chrono>
#include <type_traits>

#include "praxis/core/clock.hpp"

namespace clock_test {

using namespace std::chrono_literals;
using praxis::Clock;
using praxis::Duration;
using praxis::TimePoint;

TEST_CASE("clock: one monotonic clock whose time points and durations are the ones praxis passes around",
          "[core][clock]") {
  // Simulated runs pass time points of this same type: a wall clock that jumps would break deadlines.
  STATIC_REQUIRE(Clock::is_steady);
  STATIC_REQUIRE(std::is_same_v<TimePoint, Clock::time_point>);
  STATIC_REQUIRE(std::is_same_v<Duration, TimePoint::duration>);
}

TEST_CASE("clock: seconds convert to and from durations", "[core][clock]") {
  CHECK(praxis::to_seconds(1500ms) == 1.5);
  CHECK(praxis::to_seconds(Duration::zero()) == 0.0);
  CHECK(praxis::to_seconds(-250ms) == -0.25);
  CHECK(praxis::to_seconds(2h) == 7200.0);
  CHECK(praxis::to_seconds(1ns) == Approx(1e-9));

  CHECK(praxis::from_seconds(0.25) == 250ms);
  CHECK(praxis::from_seconds(2.0) == 2s);
  CHECK(praxis::from_seconds(0.0) == Duration::zero());
  CHECK(praxis::from_seconds(-0.5) == -500ms);
  CHECK(praxis::from_seconds(0.002) == 2ms);  // a 500 Hz period
  CHECK(praxis::from_seconds(1e-9) == 1ns);

  STATIC_REQUIRE(praxis::to_seconds(std::chrono::milliseconds(20)) == 0.02);
  STATIC_REQUIRE(praxis::from_seconds(0.5) == std::chrono::milliseconds(500));
}

TEST_CASE("clock: to_ms gives whole milliseconds truncated towards zero", "[core][clock]") {
  CHECK(praxis::to_ms(500ms) == 500);
  CHECK(praxis::to_ms(1999us) == 1);
  CHECK(praxis::to_ms(999us) == 0);
  CHECK(praxis::to_ms(2s) == 2000);
  CHECK(praxis::to_ms(-1500us) == -1);
  CHECK(praxis::to_ms(Duration::zero()) == 0);
  STATIC_REQUIRE(praxis::to_ms(std::chrono::seconds(3)) == 3000);
}

// Seconds that are a whole number of microseconds but not exact in binary (65 us, 1.001 s) came
// out one nanosecond short while from_seconds truncated; rounding to the nearest tick gives every
// such value back.
TEST_CASE("clock: from_seconds gives back the duration to_seconds made of it", "[core][clock]") {
  CHECK(praxis::from_seconds(1.001) == 1001ms);
  CHECK(praxis::from_seconds(-1.001) == -1001ms);
  int lost = 0;
  Duration first_lost{};
  for (int us = 0; us <= 100'000; ++us) {
    const Duration d = std::chrono::microseconds(us);
    if (praxis::from_seconds(praxis::to_seconds(d)) != d) {
      if (lost++ == 0) first_lost = d;
    }
  }
  INFO("first duration lost: " << std::chrono::duration_cast<std::chrono::nanoseconds>(first_lost).count() << " ns");
  CHECK(lost == 0);
}

// Rounding, not truncation: a value just below a tick comes back as that tick, and halfway values
// below it stay below. Checked on both signs, as round (not duration_cast) treats them alike.
TEST_CASE("clock: from_seconds rounds to the nearest tick on both signs", "[core][clock]") {
  const Duration tick{1};
  const double tick_s = std::chrono::duration<double>(tick).count();
  CHECK(praxis::from_seconds(0.6 * tick_s) == tick);
  CHECK(praxis::from_seconds(0.4 * tick_s) == Duration::zero());
  CHECK(praxis::from_seconds(1.7 * tick_s) == 2 * tick);
  CHECK(praxis::from_seconds(-0.6 * tick_s) == -tick);
  CHECK(praxis::from_seconds(-1.7 * tick_s) == -2 * tick);
}

}  // namespace clock_test
