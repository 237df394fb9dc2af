// limit_velocity: a velocity asked of a robot's own walking is passed on inside [-limit, limit],
// clamped to the nearer bound outside it, and replaced by 0 when it is not a number (NaN, either
// infinity: never the bound); every change, and only a change, adds one to the caller's counter.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "praxis/hardware/velocity_limit.hpp"

namespace velocity_limit_test {

namespace {
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("velocity limit: a velocity within the limit passes unchanged and uncounted", "[hardware][velocity_limit]") {
  std::uint64_t changed = 0;
  CHECK(praxis::limit_velocity(0.0, 1.0, changed) == 0.0);
  CHECK(praxis::limit_velocity(0.4, 1.0, changed) == 0.4);
  CHECK(praxis::limit_velocity(-0.9, 1.0, changed) == -0.9);
  // The bounds themselves are inside.
  CHECK(praxis::limit_velocity(1.0, 1.0, changed) == 1.0);
  CHECK(praxis::limit_velocity(-1.0, 1.0, changed) == -1.0);
  CHECK(changed == 0);
}

TEST_CASE("velocity limit: a velocity beyond the limit is clamped to the nearer bound and counted",
          "[hardware][velocity_limit]") {
  std::uint64_t changed = 0;
  CHECK(praxis::limit_velocity(1.5, 1.0, changed) == 1.0);
  CHECK(changed == 1);
  CHECK(praxis::limit_velocity(-3.0, 0.8, changed) == -0.8);
  CHECK(changed == 2);
  // Just past the bound is past it.
  CHECK(praxis::limit_velocity(std::nextafter(0.5, 1.0), 0.5, changed) == 0.5);
  CHECK(changed == 3);
  CHECK(praxis::limit_velocity(-std::numeric_limits<double>::max(), 2.0, changed) == -2.0);
  CHECK(changed == 4);
  // A limit of 0: anything but 0 is clamped to 0.
  CHECK(praxis::limit_velocity(0.1, 0.0, changed) == 0.0);
  CHECK(changed == 5);
  CHECK(praxis::limit_velocity(0.0, 0.0, changed) == 0.0);
  CHECK(changed == 5);
}

TEST_CASE("velocity limit: a velocity that is not a number becomes 0 and is counted", "[hardware][velocity_limit]") {
  std::uint64_t changed = 0;
  const double nan_out = praxis::limit_velocity(k_nan, 1.0, changed);
  CHECK(nan_out == 0.0);  // a NaN never leaves praxis
  CHECK(changed == 1);
  // An infinity is not a very large velocity: it becomes 0, not the bound.
  CHECK(praxis::limit_velocity(k_inf, 1.0, changed) == 0.0);
  CHECK(changed == 2);
  CHECK(praxis::limit_velocity(-k_inf, 1.0, changed) == 0.0);
  CHECK(changed == 3);
  // Also with an infinite limit, where clamping would let an infinity through.
  CHECK(praxis::limit_velocity(k_inf, k_inf, changed) == 0.0);
  CHECK(changed == 4);
}

TEST_CASE("velocity limit: the counter adds up over calls and is never reset", "[hardware][velocity_limit]") {
  std::uint64_t changed = 41;
  (void)praxis::limit_velocity(0.2, 1.0, changed);
  CHECK(changed == 41);
  (void)praxis::limit_velocity(2.0, 1.0, changed);
  (void)praxis::limit_velocity(k_nan, 1.0, changed);
  (void)praxis::limit_velocity(-2.0, 1.0, changed);
  CHECK(changed == 44);
  // An infinite limit lets every finite velocity through unchanged.
  CHECK(praxis::limit_velocity(1e300, k_inf, changed) == 1e300);
  CHECK(changed == 44);
  STATIC_REQUIRE(noexcept(praxis::limit_velocity(0.0, 1.0, changed)));
}

}  // namespace velocity_limit_test
