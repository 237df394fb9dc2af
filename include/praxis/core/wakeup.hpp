#pragma once
// Wakeup: how a producer thread (a DDS listener, a mock robot's publisher) tells the control thread
// that a new state has arrived, so a cycle runs on fresh data at once (state-triggered control).
//
// notify() may be called from any thread, any number of times; it never blocks, locks or allocates.
// wait_until() is called by one thread (the control loop, outside its cycle); notifications that
// arrive while nobody waits are not lost: the next wait returns at once. Several notifications
// collapse into one, which is what a latest-value state needs.
//
// A Linux futex on one word, not std::binary_semaphore: libstdc++'s timed semaphore wait
// (try_acquire_until) woke the control thread up to 43 ms after the notify in
// bench_dds_echo_latency (a state arriving every ~50 us, 20,000 round trips), where the raw
// Cyclone echo's worst was 3 ms; with the futex praxis' worst is the echo's (docs/realtime.md).
// notify() is one atomic exchange, and one FUTEX_WAKE system call only on the edge from idle to
// pending; the waiter sleeps in FUTEX_WAIT_BITSET with an absolute CLOCK_MONOTONIC deadline
// (steady_clock's clock on Linux), so a late wake-up is the scheduler's, not a library's back-off.

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <type_traits>

#include "praxis/core/clock.hpp"

namespace praxis {

class Wakeup {
  static_assert(std::is_same_v<Clock, std::chrono::steady_clock>,
                "praxis::Wakeup waits on CLOCK_MONOTONIC, which is steady_clock's clock on Linux");

 public:
  void notify() noexcept {
    if (word_.exchange(k_pending, std::memory_order_seq_cst) == k_idle) {
      syscall(SYS_futex, word(), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }
  }

  // True when notified before `deadline` (the notification is consumed), false on time-out. Data
  // published before a notify() is visible to the caller once this returns true.
  bool wait_until(TimePoint deadline) {
    for (;;) {
      if (word_.exchange(k_idle, std::memory_order_seq_cst) == k_pending) return true;
      if (Clock::now() >= deadline) return false;
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
      const timespec at{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
      // Returns at once when the word is no longer idle (a notify() came first), on a wake, on the
      // deadline or on a signal: each case goes round the loop again.
      syscall(SYS_futex, word(), FUTEX_WAIT_BITSET_PRIVATE, k_idle, &at, nullptr, FUTEX_BITSET_MATCH_ANY);
    }
  }

  // Forgets a pending notification (e.g. one left from before a run started).
  void clear() noexcept { word_.store(k_idle, std::memory_order_seq_cst); }

 private:
  static constexpr int k_idle = 0;
  static constexpr int k_pending = 1;
  static_assert(sizeof(std::atomic<int>) == sizeof(int) && std::atomic<int>::is_always_lock_free,
                "the futex word is the atomic's own storage");
  int* word() noexcept { return reinterpret_cast<int*>(&word_); }

  std::atomic<int> word_{k_idle};
};

}  // namespace praxis
