#pragma once
// CallExecutor: performs the planner's Booster calls off the planner's thread, one at a time.
//
// Booster's RPC client answers one call at a time (single flight), so calls queue. Three kinds:
//
//   periodic (move_robot, rotate_head, kick_publish): worthless once stale. Its deadline is its
//     scheduling time plus the timeout, time waiting in the queue included (as the HULKs timeout
//     wraps the queued task too); one still queued at its deadline completes as a timeout without
//     being sent. A newer one replaces an older one of the same action still waiting, in its place
//     in the queue, and the older completes with status "dropped" (praxis' own status: it was
//     neither sent nor failed). Never retried: the next one follows within an interval.
//   one-shot (change_mode, get_up, visual_kick, the LED calls): a decision that must reach the
//     robot. It waits its turn however long that takes, then gets the timeout for its answer. A
//     failure the Perform marks retryable (no answer, or a status that may pass) is tried again
//     after a backoff (doubled each time), up to RetryParams::max_attempts in all; the retry keeps
//     its place at the head of the queue, so a get_up queued behind a change_mode to Prepare goes out
//     only after that change_mode succeeded or was given up on. A final refusal (409) is reported.
//   the end request (ends_control: the Damping request): pre-empts everything. When it is submitted,
//     every call still waiting is dropped ("superseded by the Damping request": a walk, a kick or a
//     get_up queued before it would only undo it), and it goes to the head of the queue; only a call
//     already being performed finishes first (within its own timeout). It never expires in the queue.
//     Each attempt gets EndRequestParams::attempt_timeout; any failure is retried after the backoff
//     until the robot confirms or EndRequestParams::deadline (from scheduling) has passed; no
//     attempt starts after that.
//
// Each retry is logged ("booster rpc retry", action_log.hpp); the completion is logged once, with
// the number of attempts and whether the call was sent and answered. The queue is bounded; since
// coalescing keeps at most one call per periodic action waiting, it only fills if the robot stops
// answering while one-shot calls pile up, and then a new call is refused and logged as dropped.
//
// Perform is the blocking call itself:
//   CallResult perform(const PlannedAction& call, Duration timeout);  // must return within timeout
// A periodic call's result that arrives after its deadline counts as a timeout (the answer came too
// late to act on).
//
// Two ways to run:
//   threaded: a thread of its own performs calls as they come; stop() (and the destructor) joins
//             it, completing any calls still waiting as dropped;
//   inline:   nothing runs until run_pending(now) performs the waiting calls on the caller's thread,
//             with `now` as the clock — for tests with simulated time. There, a call's elapsed time
//             is now - scheduled (the waiting time; Perform's own duration is not simulated), and a
//             retry waits for a later run_pending at or after its backoff.
// Completions go to the ActionLog and to an optional callback (e.g. to update RobotStatus).

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/action_log.hpp"
#include "praxis/hardware/booster/api.hpp"
#include "praxis/hardware/booster/interface.hpp"
#include "praxis/hardware/booster/interface_params.hpp"

namespace praxis::booster {

struct CallResult {
  Completed::Status status = Completed::ok;
  std::int32_t code = status::k_ok;
  std::string message;
  bool answered = true;    // the robot answered (with success or a refusal); false: no answer, or never sent
  bool retryable = false;  // a failure another attempt may cure (Perform decides: it knows the codes)
};

// Whether a failure with this outcome may pass on another attempt: no answer, or the statuses whose
// meanings (SDK rpc/error.hpp; docs/backends/booster.md, "Wire facts and their sources") describe
// something transient (100 the robot's own timeout, 429 too frequent, 500 internal error, 502 the
// state machine did not switch). 400, 409, 501 and unknown codes are final.
[[nodiscard]] constexpr bool retryable_status(std::int32_t code) {
  return code == status::k_timeout || code == status::k_too_frequent || code == status::k_internal_error ||
         code == status::k_transition_failed;
}

enum class ExecutorMode : std::uint8_t { threaded, inline_calls };

struct ExecutorOptions {
  ExecutorMode mode = ExecutorMode::threaded;
  Duration timeout = std::chrono::milliseconds(100);  // InterfaceParams::sdk_request_timeout
  std::size_t capacity = 32;                          // calls waiting at most
  RetryParams retry{};                                // one-shot calls
  EndRequestParams end{};                             // the end request
};

template <class Perform>
class CallExecutor {
 public:
  using OnComplete = std::function<void(const Completed&, const PlannedAction&, const CallResult&)>;

  CallExecutor(Perform perform, ActionLog& log, ExecutorOptions options, OnComplete on_complete = {})
      : perform_(std::move(perform)), log_(log), options_(options), on_complete_(std::move(on_complete)) {
    if (options_.capacity == 0) options_.capacity = 1;
    if (options_.retry.max_attempts == 0) options_.retry.max_attempts = 1;
    if (options_.mode == ExecutorMode::threaded) thread_ = std::thread([this] { serve(); });
  }
  ~CallExecutor() { stop(); }
  CallExecutor(const CallExecutor&) = delete;
  CallExecutor& operator=(const CallExecutor&) = delete;

  // Queues a call planned at `scheduled` (in threaded mode a Clock time). Returns its sequence
  // number, or 0 if it was refused (stopped, or the queue is full), which is logged as dropped.
  std::uint64_t submit(const PlannedAction& call, TimePoint scheduled) {
    Pending p{log_.schedule(call), scheduled, kind_of(call), 1, scheduled, 0};
    p.deadline = p.kind == Kind::periodic ? scheduled + options_.timeout
                 : p.kind == Kind::end    ? scheduled + options_.end.deadline
                                          : TimePoint::max();
    std::vector<std::pair<Pending, std::string>> gone;  // reported outside the lock
    bool refused = false;
    {
      const std::lock_guard lock(mutex_);
      p.generation = generation_;
      if (stopped_) {
        refused = true;
      } else if (p.kind == Kind::end) {
        p.generation = ++generation_;
        for (auto& q : queue_) gone.emplace_back(std::move(q), "superseded by the Damping request");
        queue_.clear();
        queue_.push_front(p);
      } else {
        Pending* same = nullptr;
        if (p.kind == Kind::periodic) {
          for (auto& q : queue_) {
            if (q.call.action == call.action) same = &q;
          }
        }
        if (same != nullptr) {
          gone.emplace_back(std::exchange(*same, p), "replaced by a newer call");
        } else if (queue_.size() >= options_.capacity) {
          refused = true;
        } else {
          queue_.push_back(p);
        }
      }
    }
    for (const auto& [q, why] : gone) report(q, Completed::dropped, scheduled, not_sent(why));
    if (refused) {
      report(p, Completed::dropped, scheduled, not_sent("not queued: executor stopped or queue full"));
      return 0;
    }
    if (options_.mode == ExecutorMode::threaded) wake_.notify_one();
    return p.call.sequence;
  }

  // Inline mode: performs, in order, every call waiting whose turn has come at simulated time `now`
  // (a retry waits for its backoff, and the calls behind it wait with it). Returns how many calls
  // were taken from the queue (performed, timed out, or retried). Does nothing in threaded mode.
  std::size_t run_pending(TimePoint now) {
    if (options_.mode != ExecutorMode::inline_calls) return 0;
    std::size_t done = 0;
    for (;;) {
      Pending p;
      {
        const std::lock_guard lock(mutex_);
        if (queue_.empty() || queue_.front().not_before > now) break;
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
    for (const auto& p : left) report(p, Completed::dropped, Clock::now(), not_sent("executor stopped"));
  }

  [[nodiscard]] std::size_t waiting() const {
    const std::lock_guard lock(mutex_);
    return queue_.size();
  }
  [[nodiscard]] const ExecutorOptions& options() const { return options_; }

 private:
  enum class Kind : std::uint8_t { periodic, one_shot, end };

  struct Pending {
    Scheduled call;
    TimePoint scheduled{};
    Kind kind = Kind::one_shot;
    std::uint32_t attempt = 1;  // the attempt this is (1: the first)
    TimePoint not_before{};     // a retry waits for its backoff
    std::uint64_t generation = 0;  // the end requests submitted before it; a newer one supersedes it
    TimePoint deadline{};       // periodic: the whole call; end: no attempt starts after it
    bool sent = false;          // some attempt went out
  };

  static Kind kind_of(const PlannedAction& call) {
    if (ends_control(call)) return Kind::end;
    return is_periodic(call.action) ? Kind::periodic : Kind::one_shot;
  }

  static CallResult not_sent(std::string why) {
    return CallResult{Completed::dropped, status::k_pending, std::move(why), false, false};
  }

  void serve() {
    for (;;) {
      Pending p;
      {
        std::unique_lock lock(mutex_);
        for (;;) {
          if (stopped_) return;  // stop() completes what is left
          if (queue_.empty()) {
            wake_.wait(lock);
            continue;
          }
          const TimePoint due = queue_.front().not_before;
          if (due <= Clock::now()) break;
          wake_.wait_until(lock, due);
        }
        p = queue_.front();
        queue_.pop_front();
      }
      execute(p, Clock::now(), [] { return Clock::now(); });
    }
  }

  template <class Now>
  void execute(Pending& p, TimePoint start, Now&& now) {
    if (p.kind == Kind::periodic && start >= p.deadline) {
      report(p, Completed::timeout, start, CallResult{Completed::timeout, status::k_timeout, "timed out before it was sent", false});
      return;
    }
    const Duration timeout = p.kind == Kind::periodic ? p.deadline - start
                             : p.kind == Kind::end    ? options_.end.attempt_timeout
                                                      : options_.timeout;
    CallResult result = perform_(p.call.what, timeout);
    p.sent = true;
    const TimePoint end = now();
    // A periodic call answered late is stale: a timeout. A one-shot answer is the robot's answer
    // however late it came (Perform bounds the wait; the end request's attempt is two calls).
    if (p.kind == Kind::periodic && end > start + timeout && result.status != Completed::timeout) {
      result = CallResult{Completed::timeout, status::k_timeout, "answered after its deadline", false, false};
    }
    if (result.status != Completed::ok && retry(p, result, end)) return;
    report(p, result.status, end, result);
  }

  // Queues the next attempt of a failed call at the head of the queue; false when there is none.
  bool retry(Pending& p, const CallResult& result, TimePoint now) {
    if (p.kind == Kind::periodic) return false;
    Duration backoff{};
    if (p.kind == Kind::end) {
      backoff = options_.end.backoff;
      if (now + backoff >= p.deadline) return false;  // no attempt starts after the deadline
    } else {
      if (!result.retryable || p.attempt >= options_.retry.max_attempts) return false;
      backoff = options_.retry.backoff * (1LL << std::min<std::uint32_t>(p.attempt - 1, 16));
    }
    {
      const std::lock_guard lock(mutex_);
      // A newer end request took the queue while this one was out: it is superseded, not retried.
      if (stopped_ || p.generation != generation_) return false;
      log_.retry(p.call, p.attempt + 1, result.code, result.message, backoff);
      ++p.attempt;
      p.not_before = now + backoff;
      queue_.push_front(p);
    }
    if (options_.mode == ExecutorMode::threaded) wake_.notify_one();
    return true;
  }

  void report(const Pending& p, Completed::Status s, TimePoint at, const CallResult& result) {
    const Completed c = log_.complete(p.call, s, at - p.scheduled, result.code, p.attempt, p.sent, result.answered);
    if (on_complete_) on_complete_(c, p.call.what, result);
  }

  Perform perform_;
  ActionLog& log_;
  ExecutorOptions options_;
  OnComplete on_complete_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  std::uint64_t generation_ = 0;  // end requests submitted so far
  bool stopped_ = false;
  std::thread thread_;  // last: it starts in the constructor and uses everything above
};

}  // namespace praxis::booster
