#pragma once
// CallExecutor: performs the planner's Booster calls off the planner's thread, one at a time.
//
// Booster's RPC client answers one call at a time (single flight), so calls queue. Each call's
// deadline is its scheduling time plus the timeout: time spent waiting in the queue counts, as the
// HULKs timeout wraps the queued task too. A call still queued at its deadline completes as a
// timeout without being performed — the robot would get a stale request otherwise.
//
// Periodic calls (move_robot, rotate_head, kick_publish) are coalesced: a newer one replaces an
// older one of the same action still waiting, in its place in the queue, and the older completes
// with status "dropped" (praxis' own status: it was neither sent nor failed). change_mode, get_up,
// visual_kick and the LED calls are never replaced. The queue is bounded; since coalescing keeps at
// most one call per periodic action waiting, it only fills if the robot stops answering while
// one-shot calls pile up, and then a new call is refused and logged as dropped.
//
// Perform is the blocking call itself:
//   CallResult perform(const PlannedAction& call, Duration timeout);  // must return within timeout
// A result that arrives after the deadline counts as a timeout (the answer came too late to act on).
//
// Two ways to run:
//   threaded: a thread of its own performs calls as they come; stop() (and the destructor) joins
//             it, completing any calls still waiting as dropped;
//   inline:   nothing runs until run_pending(now) performs the waiting calls on the caller's thread,
//             with `now` as the clock — for tests with simulated time. There, a call's elapsed time
//             is now - scheduled (the waiting time; Perform's own duration is not simulated).
// Completions go to the ActionLog and to an optional callback (e.g. to update RobotStatus).

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/action_log.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/interface.hpp"

namespace praxis::booster {

struct CallResult {
  Completed::Status status = Completed::ok;
  std::int32_t code = status::k_ok;
  std::string message;
};

enum class ExecutorMode : std::uint8_t { threaded, inline_calls };

struct ExecutorOptions {
  ExecutorMode mode = ExecutorMode::threaded;
  Duration timeout = std::chrono::milliseconds(100);  // InterfaceParams::sdk_request_timeout
  std::size_t capacity = 32;                          // calls waiting at most
};

template <class Perform>
class CallExecutor {
 public:
  using OnComplete = std::function<void(const Completed&, const PlannedAction&, const CallResult&)>;

  CallExecutor(Perform perform, ActionLog& log, ExecutorOptions options, OnComplete on_complete = {})
      : perform_(std::move(perform)), log_(log), options_(options), on_complete_(std::move(on_complete)) {
    if (options_.capacity == 0) options_.capacity = 1;
    if (options_.mode == ExecutorMode::threaded) thread_ = std::thread([this] { serve(); });
  }
  ~CallExecutor() { stop(); }
  CallExecutor(const CallExecutor&) = delete;
  CallExecutor& operator=(const CallExecutor&) = delete;

  // Queues a call planned at `scheduled` (in threaded mode a Clock time). Returns its sequence
  // number, or 0 if it was refused (stopped, or the queue is full), which is logged as dropped.
  std::uint64_t submit(const PlannedAction& call, TimePoint scheduled) {
    Pending p{log_.schedule(call), scheduled, scheduled + options_.timeout};
    Pending replaced;
    bool has_replaced = false;
    bool refused = false;
    {
      const std::lock_guard lock(mutex_);
      if (stopped_) {
        refused = true;
      } else {
        Pending* same = nullptr;
        if (is_periodic(call.action)) {
          for (auto& q : queue_) {
            if (q.call.action == call.action) same = &q;
          }
        }
        if (same != nullptr) {
          replaced = std::exchange(*same, p);
          has_replaced = true;
        } else if (queue_.size() >= options_.capacity) {
          refused = true;
        } else {
          queue_.push_back(p);
        }
      }
    }
    if (has_replaced) {
      report(replaced, Completed::dropped, scheduled, CallResult{Completed::dropped, status::k_pending, "replaced by a newer call"});
    }
    if (refused) {
      report(p, Completed::dropped, scheduled, CallResult{Completed::dropped, status::k_pending, "not queued: executor stopped or queue full"});
      return 0;
    }
    if (options_.mode == ExecutorMode::threaded) wake_.notify_one();
    return p.call.sequence;
  }

  // Inline mode: performs every call waiting, in order, at simulated time `now`. Returns how many
  // calls completed (performed or timed out). Does nothing in threaded mode.
  std::size_t run_pending(TimePoint now) {
    if (options_.mode != ExecutorMode::inline_calls) return 0;
    std::size_t done = 0;
    for (;;) {
      Pending p;
      {
        const std::lock_guard lock(mutex_);
        if (queue_.empty()) break;
        p = queue_.front();
        queue_.pop_front();
      }
      execute(p, now, [now] { return now; });
      ++done;
    }
    return done;
  }

  // Stops taking calls, lets a call being performed finish, and completes the waiting ones as dropped.
  void stop() {
    {
      const std::lock_guard lock(mutex_);
      if (stopped_ && !thread_.joinable()) return;
      stopped_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::deque<Pending> left;
    {
      const std::lock_guard lock(mutex_);
      left.swap(queue_);
    }
    for (const auto& p : left) {
      report(p, Completed::dropped, Clock::now(), CallResult{Completed::dropped, status::k_pending, "executor stopped"});
    }
  }

  [[nodiscard]] std::size_t waiting() const {
    const std::lock_guard lock(mutex_);
    return queue_.size();
  }

 private:
  struct Pending {
    Scheduled call;
    TimePoint scheduled{};
    TimePoint deadline{};
  };

  void serve() {
    for (;;) {
      Pending p;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopped_ || !queue_.empty(); });
        if (stopped_) return;  // stop() completes what is left
        p = queue_.front();
        queue_.pop_front();
      }
      execute(p, Clock::now(), [] { return Clock::now(); });
    }
  }

  template <class Now>
  void execute(const Pending& p, TimePoint start, Now&& now) {
    if (start >= p.deadline) {
      report(p, Completed::timeout, start, CallResult{Completed::timeout, status::k_timeout, "timed out before it was sent"});
      return;
    }
    CallResult result = perform_(p.call.what, p.deadline - start);
    const TimePoint end = now();
    if (end > p.deadline && result.status != Completed::timeout) {
      result = CallResult{Completed::timeout, status::k_timeout, "answered after its deadline"};
    }
    report(p, result.status, end, result);
  }

  void report(const Pending& p, Completed::Status s, TimePoint at, const CallResult& result) {
    const Completed c = log_.complete(p.call, s, at - p.scheduled, result.code);
    if (on_complete_) on_complete_(c, p.call.what, result);
  }

  Perform perform_;
  ActionLog& log_;
  ExecutorOptions options_;
  OnComplete on_complete_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopped_ = false;
  std::thread thread_;  // last: it starts in the constructor and uses everything above
};

}  // namespace praxis::booster
