// Wakeup: the state-triggered loop's doorbell. A notification is never lost (one that comes before
// the wait makes the wait return at once), several collapse into one, a wait without one times out
// at its deadline, and one from another thread wakes a sleeping waiter.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "praxis/core/wakeup.hpp"

using namespace std::chrono_literals;

TEST_CASE("wakeup: a notification before the wait is kept, several collapse into one, none times out",
          "[core][wakeup]") {
  praxis::Wakeup w;
  CHECK_FALSE(w.wait_until(praxis::Clock::now()));  // nothing pending: the deadline has passed
  w.notify();
  w.notify();
  w.notify();
  CHECK(w.wait_until(praxis::Clock::now() + 1s));  // returns at once: notified before the wait
  const auto t0 = praxis::Clock::now();
  CHECK_FALSE(w.wait_until(t0 + 30ms));  // the three were one
  CHECK(praxis::Clock::now() - t0 >= 30ms);
  w.notify();
  w.clear();
  CHECK_FALSE(w.wait_until(praxis::Clock::now() + 10ms));
}

TEST_CASE("wakeup: a notify from another thread wakes a waiter long before its deadline, every time",
          "[core][wakeup]") {
  praxis::Wakeup w;
  std::atomic<int> published{0}, consumed{0};
  constexpr int k_rounds = 2000;
  int woken = 0, saw_data = 0;
  std::thread producer([&] {
    for (int i = 1; i <= k_rounds; ++i) {
      // One notification per round: the consumer has taken the last one.
      while (consumed.load() != i - 1) std::this_thread::yield();
      published.store(i);
      w.notify();
    }
  });
  const auto start = praxis::Clock::now();
  for (int i = 1; i <= k_rounds; ++i) {
    // A 10 s deadline: a lost notification would show as a round that needs it.
    if (w.wait_until(praxis::Clock::now() + 10s)) ++woken;
    saw_data += published.load() == i ? 1 : 0;  // what was published before the notify is seen
    consumed.store(i);
  }
  producer.join();
  CHECK(woken == k_rounds);
  CHECK(saw_data == k_rounds);
  // Far below the deadline a single lost notification would cost (a loaded 2-core machine under
  // sanitizers takes well under a second for these rounds).
  CHECK(praxis::Clock::now() - start < 9s);
}
