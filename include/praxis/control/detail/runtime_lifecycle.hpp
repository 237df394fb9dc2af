#pragma once
// Runtime (control/runtime.hpp), start and end: taking control (the backend's lifecycle and the
// reporter), a run from its start to its outcome, praxis-guard beside it, the robot's safe state at
// every end, the hand-back, and how the run ended (RunOutcome).

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "praxis/control/runtime.hpp"

namespace praxis::control {

template <class Derived, Backend B, class Graph>
RunOutcome Runtime<Derived, B, Graph>::finish() {
  outcome_ = RunOutcome{};
  outcome_.safe_state = k_safe_state;
  leave_safe(input_.info.now);
  const auto handed = release();
  outcome_.hand_back_ok = handed.ok;
  if constexpr (HasLifecycle<B>) outcome_.hand_back = handed.message;
  write_outcome();
  first_fault_ = {};
  reset_ride_outs();
  stop_.store(false, std::memory_order_release);
  return outcome_;
}

template <class Derived, Backend B, class Graph>
LifecycleResult Runtime<Derived, B, Graph>::release() {
  if constexpr (HasLifecycle<B>) {
    if (acquired_ && acquired_->ok && !released_) {
      released_ = true;
      auto r = backend_.release(options_.lifecycle_timeout);
      if (reporter_) reporter_->info("lifecycle: " + r.message);
      return r;
    }
  }
  return LifecycleResult{true, LifecycleStage::released, "nothing to hand back"};
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::ensure_started(TimePoint now) {
  if (!reporter_) {
    derived().before_start();
    start_time_ = now;
    control::ReporterOptions ro;
    ro.stats_every = options_.stats_every.value_or(static_cast<std::size_t>(
        std::max<Duration::rep>(1, std::chrono::seconds(1) / std::max(derived().period(), Duration(1)))));
    ro.print = options_.print;
    ro.csv_file = options_.cycle_log;
    ro.transition_file = options_.transition_log;
    std::array<float, control::k_max_log_values> probe{};
    const auto log_values = options_.cycle_log ? derived().log_into(probe) : 0;
    reporter_ = std::make_unique<control::Reporter<N>>(ro, std::span<const JointSpec, N>(Model::joints), log_values);
  }
  if constexpr (HasLifecycle<B>) {
    // Taken again after a run (or release()) handed it back.
    if (acquired_ && acquired_->ok && !released_) return;
    acquired_ = backend_.acquire(options_.lifecycle_timeout);
    released_ = false;
    // A robot that stood itself up reports the pose it stands in (Fourier's PdStand): the
    // configuration's stand holds that pose rather than the model's.
    if constexpr (requires { backend_.stand_pose(); } &&
                  requires(Derived& d, const std::array<double, N>& p) { d.adopt_stand_pose(p); }) {
      if (acquired_->ok) derived().adopt_stand_pose(backend_.stand_pose());
    }
    reporter_->info("lifecycle: " + acquired_->message);
    if (!acquired_->ok) {
      throw std::runtime_error("praxis: could not take control of the robot (" + std::string(Model::name) +
                               "): " + acquired_->message);
    }
  }
}

template <class Derived, Backend B, class Graph>
RunOutcome Runtime<Derived, B, Graph>::run_loop(std::optional<Duration> duration) {
  if (running_.exchange(true, std::memory_order_acq_rel)) {
    throw std::logic_error("praxis: run() is already executing on another thread; one run at a time");
  }
  // Whatever happens below, a destructor waiting on another thread is let go at the end. The
  // store is the run's last access to this object: the destructor may proceed the moment it
  // sees it.
  struct Running {
    std::atomic<bool>& flag;
    ~Running() { flag.store(false, std::memory_order_release); }
  } running{running_};
  if (options_.command_timeout && *options_.command_timeout <= Duration::zero()) {
    throw std::invalid_argument("praxis: RuntimeOptions::command_timeout must be positive, got " +
                                std::to_string(to_seconds(*options_.command_timeout) * 1e3) + " ms");
  }
  const TimePoint start = Clock::now();
  outcome_ = RunOutcome{};
  outcome_.safe_state = k_safe_state;
  // A stop requested before this point (during start-up, or between runs) ends this run before
  // its first cycle: requests are never lost. What step()-driven use left commanded still gets the
  // safe state, as every run's end does (a stiff stand must not outlive a stopped run).
  if (stop_.exchange(false, std::memory_order_acq_rel)) {
    outcome_.signal = signal_.exchange(0, std::memory_order_relaxed);
    leave_safe(input_.info.now);
    return outcome_;
  }
  ensure_started(start);
  begin_run();
  if (stop_.exchange(false, std::memory_order_acq_rel)) {
    finish_run();
    return outcome_;
  }
  try {
    start_guard();
    prepare_realtime();
    const Duration control_period = derived().period();
    const TimePoint loop_start = Clock::now();
    const TimePoint end = duration && *duration < TimePoint::max() - loop_start ? loop_start + *duration
                                                                                : TimePoint::max();
    if (options_.trigger == Trigger::state) {
      if constexpr (WakesOnState<B>) {
        run_state_triggered(end, control_period);
      } else {
        throw std::logic_error("praxis: Trigger::state needs a backend that wakes the loop on a new state "
                               "(set_wakeup); this backend (" + std::string(Model::name) + ") has none");
      }
    } else {
      run_timer(end, control_period);
    }
  } catch (...) {
    record_fault(std::current_exception());
  }
  finish_run();
  return outcome_;
}

// A run starts from nothing the last one left: no state or command in the mailboxes, and the
// graph reset — every port to its default, every node with a reset() (the selectors, the
// collector, the fall detector) to its initial state — so the selection is damping. Resetting
// (rather than constructing a new graph) keeps what the configuration set up: USER_CTRL with its
// loaded parameters, the nodes' options, the StateSource's input; motions that are not selected
// forget their progress by themselves.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::begin_run() {
  leave_safe(input_.info.now);  // step()-driven use before this run
  outcome_.safe_state_sent.clear();  // that belonged to the stepping, not to this run
  (void)states_.fetch();
  (void)measured_.fetch();
  (void)commands_.fetch();
  input_ = control::CycleInput<N>{};
  logged_status_ = {};
  first_fault_ = {};
  reset_ride_outs();
  stall_ended_run_.store(false, std::memory_order_relaxed);
  guard_ended_run_.store(false, std::memory_order_relaxed);
  stall_age_ns_.store(0, std::memory_order_relaxed);
  graph_.reset();
}

// The end of every run, also a failed one: the safe state, control handed back, the outcome
// written, the stop consumed, and the first exception (if any) rethrown to run()'s caller.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::finish_run() {
  cpu_latency_ = {};  // the run's PM QoS request ends with it
  // The end is this process' own from here (the guard steps in only if it dies meanwhile), unless
  // the guard already took over: then the robot's end is the guard's.
  guard_.controller_safe(true);
  const bool guard_took = guard_.taken();
  if (!guard_took) {
    try {
      leave_safe(Clock::now());
    } catch (...) {
      record_fault(std::current_exception());
    }
    try {
      const auto handed = release();
      outcome_.hand_back_ok = handed.ok;
      if constexpr (HasLifecycle<B>) outcome_.hand_back = handed.message;
    } catch (...) {
      outcome_.hand_back_ok = false;
      outcome_.hand_back = "release() threw";
      record_fault(std::current_exception());
    }
  }
  // The guard has the robot: the backend sends nothing more (a request worker stops first, still
  // silenced; no destructor's last word), then the gate goes.
  if constexpr (requires { backend_.yield_to_guard(); }) {
    if (guard_took) backend_.yield_to_guard();
  }
  if constexpr (requires { backend_.set_request_gate(nullptr); }) backend_.set_request_gate(nullptr);
  const std::string guard_report = guard_.finish(guard_took ? options_.lifecycle_timeout + std::chrono::seconds(5)
                                                            : std::chrono::seconds(2));
  if (guard_took) {
    released_ = true;    // the guard released the robot
    commanded_ = false;  // and sent its safe state: nothing more from here, not even the destructor's
    outcome_.hand_back_ok = guard_report.find("not confirmed") == std::string::npos;
    outcome_.hand_back = "praxis-guard took over" + guard_report;
    guard_took_over();
  }
  write_outcome();
  stop_.store(false, std::memory_order_release);  // this run's stop is consumed; the next may run
  if (faulted_.load(std::memory_order_acquire)) {
    auto fault = std::exchange(fault_, nullptr);
    faulted_.store(false, std::memory_order_release);
    std::rethrow_exception(fault);
  }
}

// praxis-guard runs beside a run that has control of a robot on a wire (control/guard.hpp).
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::start_guard() {
  if constexpr (Guardable<B>) {
    if (!options_.guard.enabled) return;
    const Duration silence = options_.guard.silence.value_or(
        GuardProcess::default_silence(stall_timeout(derived().period())));
    const std::string why = guard_.start(options_.guard, B::guard_backend, Model::name, backend_.guard_options(), N,
                                         silence, options_.damping_kd);
    if (!why.empty()) throw std::runtime_error("praxis: " + why);
    if constexpr (requires { backend_.set_request_gate(guard_.silenced_flag()); }) {
      backend_.set_request_gate(guard_.silenced_flag());
    }
    if (reporter_) {
      reporter_->info("praxis-guard watches this run (acts after " + std::to_string(to_ms(silence)) +
                      " ms without a cycle, or when this process ends)");
    }
  }
}

// The guard has the robot: this run sends nothing more and ends (a controller that hung for
// longer than the guard's silence, then woke up).
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::guard_took_over() noexcept {
  if (!guard_ended_run_.exchange(true, std::memory_order_acq_rel)) {
    guard_at_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_time_).count(),
                       std::memory_order_relaxed);
    request_stop();
  }
}

// The outcome from what the run recorded: the control thread's first fault, else a stall that
// ended it (send thread), else a normal end.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::write_outcome() {
  outcome_.signal = signal_.exchange(0, std::memory_order_relaxed);
  outcome_.rode_out = ride_;
  outcome_.rode_out.stalls = send_ride_.stalls;
  outcome_.rode_out.stalls_damped = send_ride_.stalls_damped;
  outcome_.rode_out.longest_stall_ms = send_ride_.longest_stall_ms;
  const auto& f = first_fault_;
  if (guard_ended_run_.load(std::memory_order_acquire)) {
    // Whatever this run saw when it woke (a stale state), the guard's taking over is what ended it.
    outcome_.end = RunEnd::stalled;
    outcome_.cause = "this process fell silent and praxis-guard took the robot to its safe state";
    outcome_.at = to_seconds(Duration(guard_at_ns_.load(std::memory_order_relaxed)));
  } else if (f.any()) {
    outcome_.end = f.end;
    outcome_.at = f.at;
    outcome_.joint = f.joint;
    outcome_.cause = f.joint < N ? describe_joint_fault(Model::joints[f.joint].name, f.health)
                                 : std::string(motion::to_string(f.cause));
    if (f.cause == motion::SelectionCause::stale_state) {
      char age[48];
      std::snprintf(age, sizeof age, ", newest %.0f ms old", f.state_age_ms);
      outcome_.cause += age;
    }
    // A backend that knows why control was lost says it (Fourier: the robot restarted, the FSM left
    // UserCmd).
    if constexpr (requires { { backend_.control_loss() } -> std::convertible_to<std::string>; }) {
      if (f.end == RunEnd::control_lost) {
        if (std::string why = backend_.control_loss(); !why.empty()) outcome_.cause += ": " + why;
      }
    }
  } else if (stall_ended_run_.load(std::memory_order_acquire)) {
    outcome_.end = RunEnd::stalled;
    outcome_.at = to_seconds(Duration(stall_at_ns_.load(std::memory_order_relaxed)));
    char what[96];
    std::snprintf(what, sizeof what, "newest command %.0f ms old, stall timeout %.0f ms",
                  static_cast<double>(stall_age_ns_.load(std::memory_order_relaxed)) / 1e6,
                  to_seconds(stall_timeout(derived().period())) * 1e3);
    outcome_.cause = what;
  }
  if (reporter_) reporter_->info(outcome_.summary());
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::reset_ride_outs() {
  ride_ = {};
  state_pause_ = Duration::zero();
  send_ride_ = {};
}

template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::finish_stepping() noexcept {
  try {
    leave_safe(input_.info.now);
  } catch (...) {  // a destructor reports nothing more: the backend itself failed
  }
  try {
    release();
  } catch (...) {
  }
}

// The first fault of a run wins; every thread stops.
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::record_fault(std::exception_ptr e) noexcept {
  bool expected = false;
  if (faulted_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) fault_ = std::move(e);
  request_stop();
}

// The last word of a run, by the robot's SafeState (docs/safety.md, "How control ends"):
//   joint damping   damping for the joints it commanded (nothing stays stiff on a target nobody
//                   updates any more);
//   hand back       the measured pose held with the gains in force (never kp 0 on joints that
//                   may carry the robot's weight); release() then asks the robot's controller back;
//   any             the backend's safe mode (damping; PdStand on a Fourier robot) for a robot
//                   with its own modes, whenever the run posted a request (whether or not it ever
//                   wrote a joint command).
template <class Derived, Backend B, class Graph>
void Runtime<Derived, B, Graph>::leave_safe(TimePoint now) {
  if (commanded_) {
    commanded_ = false;
    JointCommand<N> last = actuated();
    if (last.covers_any()) {
      control::make_safe<k_safe_state, Model>(last, input_.state.q, options_.damping_kd);
      if (last.covers_any()) backend_.write(last, now);
      final_command_ = last;
      // Counted where the command reaches: an arms-only backend's command covers the whole robot,
      // but only its driven joints get it.
      std::array<bool, N> driven;
      driven.fill(true);
      if constexpr (requires { { backend_.driven_joints() } -> std::convertible_to<std::array<bool, N>>; }) {
        driven = backend_.driven_joints();
      }
      std::size_t covered = 0;
      for (std::size_t j = 0; j < N; ++j) covered += last.mode[j] != JointMode::none && driven[j] ? 1 : 0;
      if (covered > 0) {  // a robot that runs itself got no joint of it
        outcome_.safe_state_sent = std::string(k_safe_state == SafeState::joint_damping ? "joint damping"
                                                                                         : "hold of the measured pose") +
                                   " on " + std::to_string(covered) + " joints";
      }
    }
  }
  if constexpr (PostsRequests<B>) {
    if (posted_.load(std::memory_order_relaxed)) {
      posted_.store(false, std::memory_order_relaxed);
      RobotRequests r = requests();
      r.any = true;
      r.mode = k_safe_mode;
      r.locomotion = {};
      r.head.active = false;
      r.motion = MotionType::damping;
      backend_.post(r);
      if (!outcome_.safe_state_sent.empty()) outcome_.safe_state_sent += ", ";
      outcome_.safe_state_sent += std::string(to_string(k_safe_mode)) + " mode requested";
    }
  }
}

}  // namespace praxis::control
