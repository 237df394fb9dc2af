#pragma once
// Runtime (control/runtime.hpp), one cycle: read the status, run the graph, watch the state's
// pauses, report (transitions, guard events, status changes, the cycle CSV), hand the command and
// the requests to the backend, show the observer. Runs on the control thread (or step()) and
// allocates nothing.

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "praxis/control/runtime.hpp"

namespace praxis::control {

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::read_status() {
  if constexpr (ReportsStatus<B>) {
    backend_.read_status(input_.status);
  } else {
    input_.status.link.connected = input_.info.have_state;
  }
}

// The graph and the reports; input_ is already up to date.
// `late`: how long after its deadline the control thread woke for it (Trigger::timer), for the
// reporter's per-window lateness.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::cycle(TimePoint now, Duration late) {
  input_.info.now = now;
  input_.info.cycle = cycle_count_;
  if (input_.info.have_state) input_.state.age = now - input_.state.stamp;
  const auto t0 = Clock::now();
  graph_.cycle();
  const auto t1 = Clock::now();
  ++cycle_count_;
  watch_state_pause();
  report(now, t1 - t0, late);
}

// A robot's state that went silent longer than command_timeout and came back before it went stale
// is a pause the run rode out (RideOuts). Control thread (or step()), no allocation.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::watch_state_pause() {
  const auto& sf = safety();
  const Duration limit = command_timeout(derived().period());
  if (sf.stale) {
    state_pause_ = Duration::zero();  // a stale state is a fault, not a pause ridden out
    return;
  }
  if (sf.age > limit) {
    state_pause_ = std::max(state_pause_, sf.age);
  } else if (state_pause_ > Duration::zero()) {
    ++ride_.state_pauses;
    ride_.longest_state_pause_ms = std::max(ride_.longest_state_pause_ms, to_seconds(state_pause_) * 1e3);
    state_pause_ = Duration::zero();
  }
}

// After the command went out: the observer, with what the graph saw (its cycle number is the one
// the cycle ran as).
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::observe_cycle() noexcept {
  if (auto* observer = observer_.load(std::memory_order_acquire)) observer->on_cycle(graph_, input_);
}

// After a cycle: the command (when it covers any joint) and the requests go to the backend.
// `write_now`: false in Trigger::timer, where the send thread writes.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::hand_over(TimePoint now, bool write_now) {
  const auto& cmd = actuated();
  if (guard_.taken()) {  // praxis-guard has the robot now: nothing more from here
    guard_took_over();
    return;
  }
  guard_.beat(now, cmd, posted_.load(std::memory_order_relaxed) || requests().any, input_.status.assumed_mode);
  if (cmd.covers_any()) {
    commanded_ = true;
    if (write_now) backend_.write(cmd, now);
  }
  if constexpr (PostsRequests<B>) {
    const auto& r = requests();
    if (r.any) {
      posted_.store(true, std::memory_order_relaxed);
      backend_.post(r);
    }
  }
}

// The first fault of the run, from the selection's cause (control thread, no allocation). On a
// robot that balances itself the fault also ends the run: its own controller takes over.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::note_fault(const motion::MotionSelection& sel, double t) {
  using C = motion::SelectionCause;
  RunEnd end = RunEnd::normal;
  switch (sel.cause) {
    case C::stale_state:
    case C::link_lost: end = RunEnd::control_lost; break;
    case C::invalid_state:
    case C::joint_fault:
    case C::tilt:
    case C::falling:
    case C::command_guard: end = RunEnd::fault; break;
    default: return;
  }
  if (!first_fault_.any()) {
    first_fault_.end = end;
    first_fault_.cause = sel.cause;
    first_fault_.at = t;
    const auto& safety_now = safety();
    // On a loaded machine the age tells a silence of the robot from a late wake-up here.
    if (sel.cause == C::stale_state) first_fault_.state_age_ms = to_seconds(safety_now.age) * 1e3;
    if (sel.cause == C::joint_fault && safety_now.faulted_joint < N) {
      first_fault_.joint = safety_now.faulted_joint;
      first_fault_.health = input_.state.health[safety_now.faulted_joint];
    }
  }
  if constexpr (k_safe_state == SafeState::hand_back) {
    if (running_.load(std::memory_order_relaxed)) request_stop();
  }
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::report(TimePoint now, Duration compute, Duration late) {
  const double t = to_seconds(now - start_time_);
  const auto& sel = selection();
  const auto ns = [](Duration d) {
    return static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(), 0, UINT32_MAX));
  };
  reporter_->push_cycle_timing({ns(compute), ns(late)});
  if (sel.changed) {
    reporter_->push(control::TransitionEvent{t, cycle_count_ - 1, sel.previous, sel.current, sel.dispatching_to,
                                             sel.cause, sel.gain_ratio});
    note_fault(sel, t);
  }
  const auto& g = report();
  if (g.fallback_to_damping || g.clamped_joints > 0 || g.unsupported_modes > 0) {
    reporter_->push(control::GuardEvent{t, cycle_count_ - 1, g.fallback_to_damping, g.clamped_joints,
                                        g.unsupported_modes, g.clamps});
  }
  const auto& st = input_.status;
  if (st.assumed_mode != logged_status_.assumed_mode || st.reported_mode != logged_status_.reported_mode ||
      st.last_request.outcome != logged_status_.last_request.outcome ||
      st.last_request.id != logged_status_.last_request.id || st.lifecycle != logged_status_.lifecycle) {
    logged_status_ = st;
    reporter_->push(control::StatusEvent{t, cycle_count_ - 1, st});
  }
  if (options_.cycle_log) {
    auto& r = record_;
    r.time = t;
    r.cycle = cycle_count_ - 1;
    r.motion = sel.current;
    r.gain_ratio = sel.gain_ratio;
    r.compute_us = to_seconds(compute) * 1e6;
    const auto& s = input_.state;
    const auto& c = command();
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      r.q[j] = s.q[i];
      r.dq[j] = s.dq[i];
      r.tau[j] = s.tau[i];
      r.cmd_q[j] = c.q[i];
      r.cmd_kp[j] = c.kp[i];
      r.cmd_kd[j] = c.kd[i];
      r.cmd_tau[j] = c.tau_ff[i];
    }
    r.log_count = static_cast<std::uint32_t>(derived().log_into(r.log));
    reporter_->push(r);
  }
}

}  // namespace praxis::control
