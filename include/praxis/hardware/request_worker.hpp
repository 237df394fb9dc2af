#pragma once
// RequestWorker<Vendor>: the I/O thread of a backend whose robot has a controller of its own
// (modes, walking, head, kick).
//
// The control thread posts the cycle's RobotRequests (a lock-free latest-value mailbox: it never
// waits, never allocates). Every `period` the worker takes the newest requests and lets the vendor
// part act on them — that is where RPCs happen, each with its own timeout, at the vendor's rate —
// and publishes the RobotStatus the vendor part keeps, which the runtime reads into the cycle.
//
//   struct Vendor {
//     // Called on the worker thread only. May block (an RPC with a timeout); must return.
//     void serve(const praxis::RobotRequests& wanted, praxis::RobotStatus& status, praxis::TimePoint now);
//   };
//
// A backend owns one worker and forwards post() / read_status() to it; serve_once() runs one
// period's work on the caller's thread, for deterministic tests.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "praxis/core/clock.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/core/sleep.hpp"

namespace praxis {

template <class Vendor>
class RequestWorker {
 public:
  RequestWorker(Vendor& vendor, Duration period) : vendor_(vendor), period_(period) {}
  ~RequestWorker() { stop(); }
  RequestWorker(const RequestWorker&) = delete;
  RequestWorker& operator=(const RequestWorker&) = delete;

  void start() {
    if (thread_.joinable()) return;
    stop_.store(false, std::memory_order_release);
    safe_mode_.store(0, std::memory_order_relaxed);
    thread_ = std::thread([this] {
      TimePoint next = Clock::now();
      while (!stop_.load(std::memory_order_acquire)) {
        serve_once(Clock::now());
        next += period_;
        // A serve() that overran (a slow RPC) does not make the worker run back to back.
        if (const auto now = Clock::now(); next < now) next = now;
        sleep_until(next);
      }
    });
  }
  void stop() {
    stop_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }

  // ---- the control thread ----
  void post(const RobotRequests& r) { requests_.publish(r); }
  bool read_status(RobotStatus& out) {
    if (!statuses_.fetch()) return false;
    out = statuses_.value();
    return true;
  }

  // ---- any thread ----
  // From now on (until the next start()) the worker serves `mode` alone, whatever is posted: the
  // runtime's send thread calls it when the control thread stalled. Never blocks or allocates.
  void post_safe_mode(RobotMode mode) noexcept {
    safe_mode_.store(static_cast<int>(mode) + 1, std::memory_order_release);
  }

  // A flag that, once set, stops every call from this worker (nullptr: none). praxis-guard's: a
  // controller that wakes up after the guard took its robot asks the robot nothing more, checked
  // before each period's work, so also when every thread of the process resumes at once.
  void set_silenced_flag(const std::atomic<std::uint8_t>* flag) noexcept {
    silenced_.store(flag, std::memory_order_release);
  }

  // Whether the flag is set: a vendor part checks it again right before each call it makes, so that a
  // period that began before the flag was set (a process stopped mid-period) calls nothing after.
  [[nodiscard]] bool silenced() const noexcept {
    const auto* flag = silenced_.load(std::memory_order_acquire);
    return flag != nullptr && flag->load(std::memory_order_acquire) != 0;
  }

  // ---- the worker thread (or a test) ----
  void serve_once(TimePoint now) {
    if (const auto* flag = silenced_.load(std::memory_order_acquire);
        flag != nullptr && flag->load(std::memory_order_acquire) != 0) {
      return;
    }
    if (requests_.fetch()) wanted_ = requests_.value();
    if (const int safe = safe_mode_.load(std::memory_order_acquire); safe != 0) {
      wanted_ = RobotRequests{};
      wanted_.any = true;
      wanted_.mode = static_cast<RobotMode>(safe - 1);
    }
    vendor_.serve(wanted_, status_, now);
    ++status_.sequence;
    statuses_.publish(status_);
  }
  [[nodiscard]] Duration period() const { return period_; }

 private:
  Vendor& vendor_;
  Duration period_;
  LatestValue<RobotRequests> requests_;
  LatestValue<RobotStatus> statuses_;
  std::atomic<int> safe_mode_{0};  // 0: none; else the RobotMode + 1
  std::atomic<const std::atomic<std::uint8_t>*> silenced_{nullptr};
  RobotRequests wanted_{};  // worker-owned
  RobotStatus status_{};    // worker-owned
  std::thread thread_;
  std::atomic<bool> stop_{false};
};

}  // namespace praxis
