// StallWatchdog: the send thread's rule for the newest command by its age. An age up to and
// including command_timeout is sent; past it and up to and including stall_timeout it is held;
// past stall_timeout the robot gets its safe state. An episode begins with the first late look and
// ends with the first fresh one; became_safe is reported once per episode; the per-episode counts
// start afresh with each episode (and still describe the finished one after it ended) while the
// totals add up over all episodes. A stall timeout below the command timeout is raised to it.
// Pure logic: every age is a constructed Duration, no clock and no thread.
#include <catch2/catch.hpp>

#include <chrono>
#include <initializer_list>

#include "praxis/control/stall_watchdog.hpp"
#include "praxis/core/clock.hpp"

namespace stall_watchdog_test {

using namespace std::chrono_literals;
using praxis::Duration;
using praxis::control::StallWatchdog;
using Action = StallWatchdog::Action;
using Edge = StallWatchdog::Edge;

namespace {
constexpr Duration k_command_timeout = 20ms;
constexpr Duration k_stall_timeout = 100ms;
constexpr Duration k_tick = Duration(1);  // the clock's resolution: the smallest step past a bound
}  // namespace

TEST_CASE("stall watchdog: the timeouts are kept and a stall timeout below the command timeout is raised to it",
          "[control][stall_watchdog]") {
  const StallWatchdog w(k_command_timeout, k_stall_timeout);
  CHECK(w.command_timeout() == k_command_timeout);
  CHECK(w.stall_timeout() == k_stall_timeout);
  CHECK_FALSE(w.stalled());
  CHECK(w.episodes() == 0);
  CHECK(w.held() == 0);
  CHECK(w.safe_sends() == 0);

  const StallWatchdog low(20ms, 5ms);
  CHECK(low.command_timeout() == 20ms);
  CHECK(low.stall_timeout() == 20ms);

  const StallWatchdog equal(20ms, 20ms);
  CHECK(equal.stall_timeout() == 20ms);
}

TEST_CASE("stall watchdog: a command exactly command_timeout old is sent and one tick older is held",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  for (const Duration age : std::initializer_list<Duration>{Duration::zero(), 1ms, k_command_timeout - k_tick,
                                                            k_command_timeout}) {
    const auto l = w.look(age);
    CHECK(l.action == Action::send);
    CHECK(l.edge == Edge::none);
    CHECK_FALSE(l.became_safe);
  }
  CHECK_FALSE(w.stalled());
  CHECK(w.episodes() == 0);

  const auto l = w.look(k_command_timeout + k_tick);
  CHECK(l.action == Action::hold);
  CHECK(l.edge == Edge::began);
  CHECK_FALSE(l.became_safe);
  CHECK(w.stalled());
  CHECK(w.episodes() == 1);
  CHECK(w.held() == 1);
}

TEST_CASE("stall watchdog: a command exactly stall_timeout old is held and one tick older gets the safe state",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  auto l = w.look(k_stall_timeout);
  CHECK(l.action == Action::hold);
  CHECK_FALSE(l.became_safe);
  l = w.look(k_stall_timeout + k_tick);
  CHECK(l.action == Action::safe);
  CHECK(l.edge == Edge::none);  // the episode began with the hold, not here
  CHECK(l.became_safe);
  CHECK(w.episodes() == 1);
  CHECK(w.held() == 1);
  CHECK(w.safe_sends() == 1);
}

TEST_CASE("stall watchdog: a command age of zero or below (a command newer than the look) is sent",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  CHECK(w.look(-5ms).action == Action::send);
  CHECK(w.look(Duration::zero()).action == Action::send);
  CHECK(w.episodes() == 0);
}

TEST_CASE("stall watchdog: the edges - began on the first late look only and ended on the first fresh look only",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  CHECK(w.look(30ms).edge == Edge::began);
  CHECK(w.look(40ms).edge == Edge::none);
  CHECK(w.look(150ms).edge == Edge::none);
  CHECK(w.look(200ms).edge == Edge::none);
  CHECK(w.stalled());

  const auto end = w.look(2ms);
  CHECK(end.action == Action::send);
  CHECK(end.edge == Edge::ended);
  CHECK_FALSE(end.became_safe);
  CHECK_FALSE(w.stalled());
  CHECK(w.look(3ms).edge == Edge::none);
  CHECK(w.look(k_command_timeout).edge == Edge::none);
  CHECK(w.episodes() == 1);
}

TEST_CASE("stall watchdog: became_safe is reported once per episode even when the age drops back into the hold",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  CHECK(w.look(50ms).action == Action::hold);
  auto l = w.look(120ms);
  CHECK(l.action == Action::safe);
  CHECK(l.became_safe);
  CHECK_FALSE(w.look(130ms).became_safe);
  // A newer command arrives, still late: it is held again, within the same episode.
  l = w.look(60ms);
  CHECK(l.action == Action::hold);
  CHECK(l.edge == Edge::none);
  CHECK_FALSE(l.became_safe);
  l = w.look(140ms);
  CHECK(l.action == Action::safe);
  CHECK_FALSE(l.became_safe);
  CHECK(w.episodes() == 1);
  CHECK(w.held_in_episode() == 2);
  CHECK(w.safe_in_episode() == 3);

  // The next episode crosses into the safe state afresh.
  CHECK(w.look(1ms).edge == Edge::ended);
  CHECK(w.look(30ms).edge == Edge::began);
  CHECK(w.look(101ms).became_safe);
  CHECK(w.episodes() == 2);
}

TEST_CASE("stall watchdog: an episode that begins past stall_timeout is safe at once with no hold",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  const auto l = w.look(500ms);
  CHECK(l.action == Action::safe);
  CHECK(l.edge == Edge::began);
  CHECK(l.became_safe);
  CHECK(w.held_in_episode() == 0);
  CHECK(w.safe_in_episode() == 1);
  CHECK(w.held() == 0);
  CHECK(w.safe_sends() == 1);
}

TEST_CASE("stall watchdog: with stall_timeout raised to command_timeout every late command gets the safe state",
          "[control][stall_watchdog]") {
  StallWatchdog w(20ms, 1ms);
  CHECK(w.look(20ms).action == Action::send);
  const auto l = w.look(20ms + k_tick);
  CHECK(l.action == Action::safe);
  CHECK(l.edge == Edge::began);
  CHECK(l.became_safe);
  CHECK(w.look(25ms).action == Action::safe);
  CHECK(w.held() == 0);
  CHECK(w.safe_sends() == 2);
}

TEST_CASE("stall watchdog: per-episode counts restart with each episode and survive its end while totals add up",
          "[control][stall_watchdog]") {
  StallWatchdog w(k_command_timeout, k_stall_timeout);
  // Episode 1: 3 holds, 2 safe frames.
  for (const Duration age : {21ms, 50ms, 100ms}) REQUIRE(w.look(age).action == Action::hold);
  for (const Duration age : {101ms, 300ms}) REQUIRE(w.look(age).action == Action::safe);
  REQUIRE(w.look(0ms).edge == Edge::ended);
  // What the send thread reports for the finished episode is read after its end.
  CHECK(w.held_in_episode() == 3);
  CHECK(w.safe_in_episode() == 2);
  // Fresh sends change nothing.
  for (int k = 0; k < 5; ++k) (void)w.look(5ms);
  CHECK(w.held_in_episode() == 3);
  CHECK(w.safe_in_episode() == 2);
  CHECK(w.held() == 3);
  CHECK(w.safe_sends() == 2);

  // Episode 2: 1 hold, 4 safe frames.
  REQUIRE(w.look(40ms).edge == Edge::began);
  CHECK(w.held_in_episode() == 1);
  CHECK(w.safe_in_episode() == 0);
  for (int k = 0; k < 4; ++k) REQUIRE(w.look(1s).action == Action::safe);
  REQUIRE(w.look(1ms).edge == Edge::ended);
  CHECK(w.held_in_episode() == 1);
  CHECK(w.safe_in_episode() == 4);
  CHECK(w.held() == 4);
  CHECK(w.safe_sends() == 6);
  CHECK(w.episodes() == 2);
}

}  // namespace stall_watchdog_test
