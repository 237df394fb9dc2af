#pragma once
// Wakeup: how a producer thread (a DDS listener, a mock robot's publisher) tells the control thread
// that a new state has arrived, so a cycle runs on fresh data at once (state-triggered control).
//
// notify() may be called from any thread, any number of times; it never blocks, locks or allocates.
// wait_until() is called by one thread (the control loop, outside its cycle); notifications that
// arrive while nobody waits are not lost: the next wait returns at once. Several notifications
// collapse into one, which is what a latest-value state needs.

#include <atomic>
#include <semaphore>

#include "praxis/core/clock.hpp"

namespace praxis {

class Wakeup {
 public:
  void notify() noexcept {
    // Only the false -> true edge releases, so the semaphore count never exceeds 1 (releasing a
    // binary semaphore twice is undefined behaviour) however many producers race.
    if (!pending_.exchange(true, std::memory_order_seq_cst)) signal_.release();
  }

  // True when notified before `deadline` (the notification is consumed), false on time-out. Data
  // published before a notify() is visible to the caller once this returns true.
  bool wait_until(TimePoint deadline) {
    if (!signal_.try_acquire_until(deadline)) return false;
    // A notify() racing with this store merges into this wake-up; its data was published before
    // it, so the caller's read after this return sees it.
    pending_.store(false, std::memory_order_seq_cst);
    return true;
  }

  // Forgets a pending notification (e.g. one left from before a run started).
  void clear() noexcept {
    if (signal_.try_acquire()) pending_.store(false, std::memory_order_seq_cst);
  }

 private:
  std::binary_semaphore signal_{0};
  std::atomic<bool> pending_{false};
};

}  // namespace praxis
