#pragma once
// Runtime (control/runtime.hpp), real time: the two schedulers (Trigger::timer's receive, control
// and send threads; Trigger::state's one thread woken by the backend), the send loop with its stall
// handling, and each thread's real-time set-up and hooks.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "praxis/control/runtime.hpp"

namespace praxis::control {

// RuntimeOptions::realtime, the process' part: before the run's threads start.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::prepare_realtime() {
  realtime_report_ = {};
  for (auto& items : realtime_items_) items.clear();
  for (auto& applied : realtime_applied_) applied.store(false, std::memory_order_relaxed);
  control_faults_.store(-1, std::memory_order_relaxed);
  run_cycles_ = 0;
  lateness_.clear();
  if (options_.realtime.any()) realtime_report_ = apply_process_realtime(options_.realtime);
  if (options_.realtime.cpu_latency) {
    RealtimeItem item;
    cpu_latency_ = hold_cpu_latency(*options_.realtime.cpu_latency, item);
    realtime_report_.items.push_back(std::move(item));
  }
}

// RuntimeOptions::realtime, the calling thread's part. The control thread, started last, then
// gathers every thread's items (waiting briefly for the threads started before it) and prints them.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::start_thread_realtime(ThreadRole role) {
  const auto me = static_cast<std::size_t>(role);
  if (options_.realtime.any()) realtime_items_[me] = apply_thread_realtime(options_.realtime, role);
  realtime_applied_[me].store(true, std::memory_order_release);
  if (role != ThreadRole::control || !options_.realtime.any()) return;
  const auto deadline = Clock::now() + std::chrono::seconds(1);
  for (const auto other : {ThreadRole::receive, ThreadRole::send}) {
    if (options_.trigger == Trigger::state) break;  // no other thread
    const auto& applied = realtime_applied_[static_cast<std::size_t>(other)];
    while (!applied.load(std::memory_order_acquire) && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  for (std::size_t r = 0; r < k_thread_roles; ++r) {
    if (!realtime_applied_[r].load(std::memory_order_acquire)) continue;
    for (const auto& item : realtime_items_[r]) realtime_report_.items.push_back(item);
  }
  if (options_.print) std::printf("praxis: %s\n", realtime_report_.summary().c_str());
}

// The control thread's page faults after its warm-up cycles: one getrusage() when the warm-up
// ends and one after the loop, never in the other cycles.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::count_cycle_faults() {
  if (++run_cycles_ == k_fault_warmup_cycles) faults_at_warmup_ = thread_minor_faults();
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::finish_fault_count() {
  if (run_cycles_ < k_fault_warmup_cycles) return;
  const auto faults = thread_minor_faults() - faults_at_warmup_;
  control_faults_.store(static_cast<std::int64_t>(faults), std::memory_order_relaxed);
  if (options_.print && (faults > 0 || options_.realtime.any())) {
    std::printf("praxis: the control thread took %llu minor page faults after its first %llu cycles\n",
                static_cast<unsigned long long>(faults), static_cast<unsigned long long>(k_fault_warmup_cycles));
  }
}

// Runs a thread's body between its hooks; an exception from either ends the run (record_fault).
template <class Derived, Backend B, class Graph>
template <class Body>
void Runtime<Derived, B, Graph>::guarded(ThreadRole role, Body&& body) noexcept {
  try {
    start_thread_realtime(role);
    hook(options_.on_thread_start, role);
    body();
    if (role == ThreadRole::control) finish_fault_count();
  } catch (...) {
    record_fault(std::current_exception());
  }
  try {
    hook(options_.on_thread_exit, role);
  } catch (...) {
    record_fault(std::current_exception());
  }
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::run_state_triggered(TimePoint end, Duration control_period) {
  if constexpr (WakesOnState<B>) {
    wakeup_.clear();
    backend_.set_wakeup(&wakeup_);
    guarded(ThreadRole::control, [&] {
      while (!stop_.load(std::memory_order_acquire)) {
        const TimePoint deadline = std::min(end, Clock::now() + control_period);
        const bool woke = wakeup_.wait_until(deadline);
        if (stop_.load(std::memory_order_acquire) || Clock::now() >= end) break;
        const TimePoint now = Clock::now();
        if (woke && backend_.read(input_.state, now)) input_.info.have_state = true;
        read_status();
        cycle(now);
        hand_over(now, true);
        observe_cycle();
        count_cycle_faults();
      }
    });
    backend_.set_wakeup(nullptr);
  }
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::run_timer(TimePoint end, Duration control_period) {
  const Duration timeout = command_timeout(control_period);
  const Duration stall_after = stall_timeout(control_period);
  std::thread receive([&] {
    guarded(ThreadRole::receive, [&] {
      TimePoint next = Clock::now();
      while (!stop_.load(std::memory_order_acquire)) {
        auto& state = states_.back();
        if (backend_.read(state, Clock::now())) {
          measured_.publish(state.q);  // for the send thread's damping, should control stall
          states_.publish();
        }
        next += options_.receive_period;
        sleep_until(next);
      }
    });
  });
  std::thread send;
  try {
    send = std::thread([&] { guarded(ThreadRole::send, [&] { send_loop(timeout, stall_after); }); });
  } catch (...) {
    stop_.store(true, std::memory_order_release);
    receive.join();
    throw;
  }

  const Duration freeze_after = command_timeout(control_period);
  guarded(ThreadRole::control, [&] {
    TimePoint next = Clock::now();
    while (!stop_.load(std::memory_order_acquire)) {
      next += control_period;  // absolute deadlines: a late cycle does not shift the ones after it
      if (next >= end) break;
      // After a stall (a cycle that took longer than several periods), the deadlines already missed
      // are skipped and counted rather than run back to back with stale data.
      if (const auto late = Clock::now() - next; late > control_period) {
        const auto missed = late / control_period;
        next += missed * control_period;
        overruns_.fetch_add(static_cast<std::uint64_t>(missed), std::memory_order_relaxed);
        if (late > freeze_after) {
          ++ride_.freezes;
          ride_.longest_freeze_ms = std::max(ride_.longest_freeze_ms, to_seconds(late) * 1e3);
        }
      }
      sleep_until(next);
      const Duration late = Clock::now() - next;
      lateness_.add(late);
      if (states_.fetch()) {
        input_.state = states_.value();
        input_.info.have_state = true;
      }
      read_status();
      const TimePoint now = Clock::now();
      cycle(now, late);
      count_cycle_faults();
      auto& out = commands_.back();
      out.command = actuated();
      out.computed = Clock::now();
      commands_.publish();
      hand_over(now, false);
      observe_cycle();
    }
  });
  stop_.store(true, std::memory_order_release);
  receive.join();
  send.join();
}

// Trigger::timer's send thread: the newest command every send period. When it is older than
// `timeout` (the control thread stalled: a blocked controller, a page fault storm, a debugger) it
// is held: sent again as it was, targets and gains, because a short stall is best ridden out on
// the targets the robot already has. Older than `stall_after`, the robot gets its safe state: on
// a robot praxis owns, damping on the joints the command covered at the newest measured position
// (fresh commands are sent again as soon as they come: what they are is the graph's business);
// on a robot that balances itself, a hold of the measured pose with the gains in force, and the
// run ends so that release() hands the robot back.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::send_loop(Duration timeout, Duration stall_after) {
  TimePoint next = Clock::now();
  bool have_command = false, have_measured = false;
  control::StallWatchdog watchdog(timeout, stall_after);
  Duration episode_age = Duration::zero();  // the oldest the newest command got in this stall
  JointCommand<N> safe;
  while (!stop_.load(std::memory_order_acquire)) {
    have_command = commands_.fetch() || have_command;
    have_measured = measured_.fetch() || have_measured;
    const TimePoint now = Clock::now();
    const bool joints = have_command && commands_.value().command.covers_any();
    // A robot walking by itself gets no joint command, yet a stalled control thread leaves it
    // doing what the last request said: the age of the cycle's output is watched for it too.
    bool requests_only = false;
    if constexpr (OverridesRequests<B>) requests_only = have_command && !joints && posted_.load(std::memory_order_relaxed);
    if (guard_.taken()) {  // praxis-guard has the robot now
      guard_took_over();
      break;
    }
    if (joints || requests_only) {
      const auto& newest = commands_.value();
      const Duration age = now - newest.computed;
      const auto look = watchdog.look(age);
      const double t = to_seconds(now - start_time_);
      if (watchdog.stalled() || look.edge != control::StallWatchdog::Edge::none) {
        episode_age = std::max(episode_age, age);
      }
      if (look.edge == control::StallWatchdog::Edge::ended) {
        reporter_->push(control::StallEvent{t, watchdog.episodes(), false, to_seconds(age),
                                            watchdog.safe_in_episode(), watchdog.held_in_episode(), false});
        guard_.controller_safe(false);  // cycling again: the guard watches again
        // Ridden out: fresh commands came again (read by write_outcome after this thread joined).
        ++send_ride_.stalls;
        if (watchdog.safe_in_episode() > 0) ++send_ride_.stalls_damped;
        send_ride_.longest_stall_ms = std::max(send_ride_.longest_stall_ms, to_seconds(episode_age) * 1e3);
        episode_age = Duration::zero();
      } else if (look.edge == control::StallWatchdog::Edge::began) {
        command_stalls_.fetch_add(1, std::memory_order_relaxed);
        reporter_->push(control::StallEvent{t, watchdog.episodes(), true, to_seconds(age), 0, 0, false});
      }
      switch (look.action) {
        case control::StallWatchdog::Action::send:
          if (joints) backend_.write(newest.command, now);
          break;
        case control::StallWatchdog::Action::hold:
          if (joints) {
            backend_.write(newest.command, now);
            held_sends_.fetch_add(1, std::memory_order_relaxed);
          }
          break;
        case control::StallWatchdog::Action::safe:
          if (look.became_safe) {
            guard_.controller_safe(true);  // this process put the robot in its safe state itself
            reporter_->push(control::StallEvent{t, watchdog.episodes(), true, to_seconds(age), 0,
                                                watchdog.held_in_episode(), true});
            safe = newest.command;
            control::make_safe<k_safe_state, Model>(safe, have_measured ? measured_.value() : newest.command.q,
                                                    options_.damping_kd);
            if constexpr (k_safe_state != SafeState::joint_damping) {
              // The robot balances itself: a control thread that stalled this long ends control.
              stall_age_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(age).count(),
                                  std::memory_order_relaxed);
              stall_at_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(now - start_time_).count(),
                                 std::memory_order_relaxed);
              stall_ended_run_.store(true, std::memory_order_release);
              // The stalled control thread cannot post the safe mode, and the robot's own
              // controller goes on with the last request (walking) until it does: the worker is
              // told here, and serves the safe mode whatever the control thread posts after.
              if constexpr (OverridesRequests<B>) {
                if (posted_.load(std::memory_order_relaxed)) backend_.post_safe_mode(k_safe_mode);
              }
              request_stop();
            }
          } else if constexpr (k_safe_state == SafeState::joint_damping) {
            // Damping follows the joints to where they are now.
            if (have_measured) damp_covered(safe, measured_.value(), options_.damping_kd);
          }
          if (safe.covers_any()) backend_.write(safe, now);
          stalled_sends_.fetch_add(1, std::memory_order_relaxed);
          break;
      }
    }
    next += options_.send_period;
    sleep_until(next);
  }
}

}  // namespace praxis::control
