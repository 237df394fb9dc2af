#pragma once
// Runtime: the one loop every configuration runs on (RobotController, MotionController). It owns
// the graph and the handoff to the backend; the graph itself never touches the backend.
//
//   step(now)   deterministic, single-threaded: read the newest state and status, run the graph,
//               write the actuated command, post the robot requests. For tests and simulation.
//   run...()    real time, in one of two triggers:
//     Trigger::timer  three threads as in the Unitree framework: receive (polls the backend),
//                     control (every period, on absolute deadlines), send (writes the newest
//                     command every send period); lock-free latest-value mailboxes between them.
//     Trigger::state  the backend wakes the control thread when a state arrives (WakesOnState); the
//                     cycle runs on it at once and its command is written at once. A missing state
//                     still gets a cycle after `period` (which then sees it stale and damps).
//
// Around the loop the runtime runs the backend's lifecycle (acquire before the first command,
// release after the last), ends every run with damping (and the damping mode for a robot with its
// own modes), never loses a request_stop() (one that arrives before run() reached its loop ends
// that run at once), and, off the control thread, runs the reporter (transitions, guard events,
// robot status, compute-time statistics, stalls, the cycle CSV).
//
// On its own faults it fails safe: a command older than command_timeout is not re-sent, damping
// is (a stalled control thread); an exception from user code or a hook on any thread stops every
// thread, damps, hands control back and is rethrown to run()'s caller; every run starts from empty
// mailboxes and a reset graph (damping); the destructor stops a run on another thread and waits for
// it, and damps after step()-driven use. docs/controller.md has the details.
//
// The graph must contain StateSource<N> and produce the motion layer's selection, collector report,
// actuated command and robot requests (every configuration in praxis does).

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "praxis/control/reporter.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/cycle.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis {

enum class ThreadRole : std::uint8_t { receive, control, send };
enum class Trigger : std::uint8_t { timer, state };

struct RuntimeOptions {
  // Control period; unset = the configuration's default (RobotController: USER_CTRL's dt).
  std::optional<Duration> period;
  Trigger trigger = Trigger::timer;
  // Trigger::timer: how often the send thread writes the newest command, and the receive thread polls.
  Duration send_period = std::chrono::milliseconds(2);
  Duration receive_period = std::chrono::microseconds(500);
  // Backends with a lifecycle: how long taking and handing back control may take.
  Duration lifecycle_timeout = std::chrono::seconds(10);
  double damping_kd = 2.0;
  motion::SafetyOptions safety{};
  motion::FallOptions fall{};
  motion::CollectorOptions collector{};  // its damping_kd follows damping_kd above
  // Per-cycle CSV log; unset = none.
  std::optional<std::filesystem::path> cycle_log;
  // CSV of the motion transitions with their causes (time, cycle, from, to, dispatching_to, cause,
  // gain_ratio); unset = none.
  std::optional<std::filesystem::path> transition_log;
  std::size_t stats_every = 100;
  bool print = true;
  // Trigger::timer: a command older than this when the send thread would send it means the control
  // thread stalled; the send thread then sends damping instead (see Runtime::command_stalls()).
  // Unset = 5 control periods, at least one period plus four send periods and at least 20 ms (the age
  // a command reaches in normal operation is up to about a period and a send period, plus
  // scheduling noise).
  std::optional<Duration> command_timeout;
  // Called first and last on each thread of run(): the place for CPU affinity and priorities. An
  // exception from either ends the run like one from the cycle.
  std::function<void(ThreadRole)> on_thread_start;
  std::function<void(ThreadRole)> on_thread_exit;
};

namespace control {

template <std::size_t N>
struct CycleInput {
  RobotState<N> state;
  CycleInfo info;
  RobotStatus status;
};

// Hands what the runtime read from the backend to the graph.
template <std::size_t N>
struct StateSource {
  static constexpr std::string_view name = "state_source";
  using outputs = ports<StatePort<N>, CyclePort, RobotStatusPort>;
  const CycleInput<N>* input = nullptr;
  void cycle(RobotState<N>& state, CycleInfo& info, RobotStatus& status) const {
    state = input->state;
    info = input->info;
    status = input->status;
  }
};

// A node (or USER_CTRL) may declare `static constexpr praxis::JointModeSet joint_modes`: the modes
// it commands. One the backend cannot send stops the build here, naming backend and mode.
template <class Backend, JointMode Mode>
struct backend_cannot_send_joint_mode {
  static_assert(diagnostics::always_false<Backend>,
                "praxis: a node of this graph commands joints in a mode this backend cannot send (the template "
                "arguments name the backend and the mode). Declare the mode in the backend's joint_modes if the "
                "robot supports it, or command the joints in a mode it has.");
};

template <class Backend, class Node>
constexpr bool check_joint_modes() {
  if constexpr (requires { Node::joint_modes; }) {
    constexpr JointModeSet wanted = Node::joint_modes;
    constexpr JointModeSet have = joint_modes_of<Backend>();
    if constexpr (!have.contains(wanted)) {
      constexpr auto first_missing = [=] {
        for (std::size_t m = 0; m < k_joint_modes; ++m) {
          if (wanted.contains(static_cast<JointMode>(m)) && !have.contains(static_cast<JointMode>(m))) {
            return static_cast<JointMode>(m);
          }
        }
        return JointMode::position;
      }();
      (void)sizeof(backend_cannot_send_joint_mode<Backend, first_missing>);
      return false;
    }
  }
  return true;
}

namespace detail {
// What the control thread hands the send thread: the command and when it was computed.
template <std::size_t N>
struct StampedCommand {
  JointCommand<N> command;
  TimePoint computed{};
};
}  // namespace detail

}  // namespace control

template <class Derived, Backend B, class Graph>
class Runtime {
 public:
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities capabilities = capabilities_of<B>();

  Runtime(B& backend, RuntimeOptions options) : backend_(backend), options_(std::move(options)) {
    graph_.template node<control::StateSource<N>>().input = &input_;
    options_.collector.damping_kd = options_.damping_kd;
    options_.safety.use_link_status = ReportsStatus<B>;
    graph_.template node<motion::SafetyMonitor<N>>().options = options_.safety;
    graph_.template node<motion::FallDetector<N>>().options = options_.fall;
    graph_.template node<motion::DampingMotion<Model>>().kd = options_.damping_kd;
    graph_.template node<Collector>().options = options_.collector;
  }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  // Stops a run() executing on another thread and waits until it returned (its threads joined,
  // damping sent, control handed back); after step()-driven use, sends damping once and hands
  // control back. Never throws.
  ~Runtime() {
    stop_and_wait();
    finish_stepping();
  }

  // One control cycle at `now`: read the newest state and status, run the graph, hand the command
  // and the requests to the backend. The first call also starts the controller, and only it is not
  // a real-time cycle: it takes control of the robot (backends with a lifecycle; throws when that
  // fails), sets the start time and starts the reporter thread (its queues and log files). Every
  // later call allocates nothing.
  void step(TimePoint now) {
    ensure_started(now);
    if (backend_.read(input_.state, now)) input_.info.have_state = true;
    read_status();
    cycle(now);
    hand_over(now, true);
  }

  // Real time (see the header comment). Blocks until request_stop() or until the loop ran for
  // `duration` (counted from the loop's start: taking control and starting the reporter are not
  // part of it). Every run starts afresh: empty mailboxes, the graph reset (so the selection starts in damping
  // and a user's controller is re-entered, and reset, only through the normal path). An exception
  // from user code or a hook on any thread stops all threads, sends damping, hands control back,
  // and is rethrown here.
  void run_for(Duration duration) { run_loop(duration); }
  void run() { run_loop(std::nullopt); }
  void request_stop() {
    stop_.store(true, std::memory_order_release);
    wakeup_.notify();
  }

  // ---- inspection (from the thread that calls step(), or after run() returned) ----
  [[nodiscard]] const motion::MotionSelection& selection() const {
    return graph_.template get<motion::MotionSelectionPort>();
  }
  // What the motions asked for after the guard, and what was handed to the robot.
  [[nodiscard]] const JointCommand<N>& command() const { return graph_.template get<motion::MotorCommandPort<N>>(); }
  [[nodiscard]] const JointCommand<N>& actuated() const {
    return graph_.template get<motion::ActuatedCommandPort<N>>();
  }
  [[nodiscard]] const motion::CollectorReport& report() const {
    return graph_.template get<motion::CollectorReportPort>();
  }
  [[nodiscard]] const motion::SafetyStatus& safety() const { return graph_.template get<motion::SafetyPort>(); }
  [[nodiscard]] const motion::FallState& fall_state() const { return graph_.template get<motion::FallStatePort>(); }
  [[nodiscard]] const RobotRequests& requests() const { return graph_.template get<motion::RobotRequestsPort>(); }
  [[nodiscard]] const RobotStatus& status() const { return input_.status; }
  [[nodiscard]] const RobotState<N>& last_state() const { return input_.state; }
  [[nodiscard]] std::uint64_t cycles() const { return cycle_count_; }
  // run(): control cycles skipped because the loop fell more than a period behind its deadlines.
  [[nodiscard]] std::uint64_t overruns() const { return overruns_.load(std::memory_order_relaxed); }
  // run() with Trigger::timer: how often the send thread found the newest command older than
  // command_timeout (stall episodes), and how many damping frames it sent instead.
  [[nodiscard]] std::uint64_t command_stalls() const { return command_stalls_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t stalled_sends() const { return stalled_sends_.load(std::memory_order_relaxed); }
  [[nodiscard]] const Graph& graph() const { return graph_; }
  template <class Node>
  [[nodiscard]] Node& node() {
    return graph_.template node<Node>();
  }
  [[nodiscard]] const RuntimeOptions& runtime_options() const { return options_; }
  // The send thread's command age limit for a control period (see RuntimeOptions::command_timeout).
  [[nodiscard]] Duration command_timeout(Duration control_period) const {
    if (options_.command_timeout) return *options_.command_timeout;
    // A few ms of scheduling noise is normal on a kernel without real-time guarantees; damping frames
    // sent for it would jolt a robot that is fine (measured: three episodes in 8 s of the DDS demo at
    // 6 ms on a loaded machine). 20 ms is still far below anything a robot feels as a stale target.
    return std::max({5 * control_period, control_period + 4 * options_.send_period,
                     Duration(std::chrono::milliseconds(20))});
  }

  // Transitions and statistics as the reporter thread saw them; flush() first to see everything.
  void flush() {
    if (reporter_) reporter_->flush();
  }
  [[nodiscard]] std::vector<control::TransitionEvent> transitions() const {
    return reporter_ ? reporter_->transitions() : std::vector<control::TransitionEvent>{};
  }
  [[nodiscard]] std::vector<control::StatusEvent> status_events() const {
    return reporter_ ? reporter_->status_events() : std::vector<control::StatusEvent>{};
  }
  [[nodiscard]] std::vector<control::StallEvent> stall_events() const {
    return reporter_ ? reporter_->stall_events() : std::vector<control::StallEvent>{};
  }
  [[nodiscard]] control::ComputeStats compute_stats() const {
    return reporter_ ? reporter_->last_stats() : control::ComputeStats{};
  }
  [[nodiscard]] std::uint64_t dropped_reports() const { return reporter_ ? reporter_->dropped() : 0; }
  // What run() wrote last, after its loop: damping (see leave_damped); unset before a run ended.
  [[nodiscard]] const std::optional<JointCommand<N>>& final_command() const { return final_command_; }
  // The outcome of taking control (backends with a lifecycle), once started.
  [[nodiscard]] const std::optional<LifecycleResult>& acquired() const { return acquired_; }

  // Hands control back to the robot (backends with a lifecycle; a no-op otherwise). Called by run()
  // when it ends and by the destructor; after step()-driven runs you may call it yourself.
  LifecycleResult release() {
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

 protected:
  using Collector = motion::MotorCommandsCollector<Model, joint_modes_of<B>()>;

  [[nodiscard]] Graph& graph_ref() { return graph_; }
  [[nodiscard]] B& backend() { return backend_; }
  // For the configuration: the period it defaults to.
  [[nodiscard]] Duration period_or(Duration fallback) const { return options_.period ? *options_.period : fallback; }

  // For the configuration's destructor, which must call it first: a run() on another thread still
  // uses the configuration's members until it returns.
  void stop_and_wait() noexcept {
    if (!running_.load(std::memory_order_acquire)) return;
    request_stop();
    // Polled, not notified: a notification would touch this object after the run let go of it.
    while (running_.load(std::memory_order_acquire)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

 private:
  [[nodiscard]] Derived& derived() { return static_cast<Derived&>(*this); }

  void ensure_started(TimePoint now) {
    if (!reporter_) {
      derived().before_start();
      start_time_ = now;
      control::ReporterOptions ro;
      ro.stats_every = options_.stats_every;
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
      reporter_->info("lifecycle: " + acquired_->message);
      if (!acquired_->ok) {
        throw std::runtime_error("praxis: could not take control of the robot (" + std::string(Model::name) +
                                 "): " + acquired_->message);
      }
    }
  }

  void read_status() {
    if constexpr (ReportsStatus<B>) {
      backend_.read_status(input_.status);
    } else {
      input_.status.link.connected = input_.info.have_state;
    }
  }

  // The graph and the reports; input_ is already up to date.
  void cycle(TimePoint now) {
    input_.info.now = now;
    input_.info.cycle = cycle_count_;
    if (input_.info.have_state) input_.state.age = now - input_.state.stamp;
    const auto t0 = Clock::now();
    graph_.cycle();
    const auto t1 = Clock::now();
    ++cycle_count_;
    report(now, t1 - t0);
  }

  // After a cycle: the command (when it covers any joint) and the requests go to the backend.
  // `write_now`: false in Trigger::timer, where the send thread writes.
  void hand_over(TimePoint now, bool write_now) {
    const auto& cmd = actuated();
    if (cmd.covers_any()) {
      commanded_ = true;
      if (write_now) backend_.write(cmd, now);
    }
    if constexpr (PostsRequests<B>) {
      const auto& r = requests();
      if (r.any) backend_.post(r);
    }
  }

  void report(TimePoint now, Duration compute) {
    const double t = to_seconds(now - start_time_);
    const auto& sel = selection();
    reporter_->push_compute_time(static_cast<std::uint32_t>(
        std::min<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(compute).count(), UINT32_MAX)));
    if (sel.changed) {
      reporter_->push(control::TransitionEvent{t, cycle_count_ - 1, sel.previous, sel.current, sel.dispatching_to,
                                               sel.cause, sel.gain_ratio});
    }
    const auto& g = report();
    if (g.fallback_to_damping || g.clamped_joints > 0 || g.unsupported_modes > 0) {
      reporter_->push(control::GuardEvent{t, cycle_count_ - 1, g.fallback_to_damping, g.clamped_joints,
                                          g.unsupported_modes});
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

  void run_loop(std::optional<Duration> duration) {
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
    // A stop requested before this point (during start-up, or between runs) ends this run before
    // its first cycle: requests are never lost.
    if (stop_.exchange(false, std::memory_order_acq_rel)) return;
    ensure_started(start);
    begin_run();
    if (stop_.exchange(false, std::memory_order_acq_rel)) {
      finish_run();
      return;
    }
    try {
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
  }

  // A run starts from nothing the last one left: no state or command in the mailboxes, and the
  // graph reset — every port to its default, every node with a reset() (the selectors, the
  // collector, the fall detector) to its initial state — so the selection is damping. Resetting
  // (rather than constructing a new graph) keeps what the configuration set up: USER_CTRL with its
  // loaded parameters, the nodes' options, the StateSource's input; motions that are not selected
  // forget their progress by themselves.
  void begin_run() {
    if (commanded_) leave_damped(input_.info.now);  // step()-driven use before this run
    (void)states_.fetch();
    (void)measured_.fetch();
    (void)commands_.fetch();
    input_ = control::CycleInput<N>{};
    logged_status_ = {};
    graph_.reset();
  }

  // The end of every run, also a failed one: damping, control handed back, the stop consumed, and
  // the first fault (if any) rethrown to run()'s caller.
  void finish_run() {
    try {
      leave_damped(Clock::now());
    } catch (...) {
      record_fault(std::current_exception());
    }
    try {
      release();
    } catch (...) {
      record_fault(std::current_exception());
    }
    stop_.store(false, std::memory_order_release);  // this run's stop is consumed; the next may run
    if (faulted_.load(std::memory_order_acquire)) {
      auto fault = std::exchange(fault_, nullptr);
      faulted_.store(false, std::memory_order_release);
      std::rethrow_exception(fault);
    }
  }

  void finish_stepping() noexcept {
    try {
      if (commanded_) leave_damped(input_.info.now);
    } catch (...) {  // a destructor reports nothing more: the backend itself failed
    }
    try {
      release();
    } catch (...) {
    }
  }

  // The first fault of a run wins; every thread stops.
  void record_fault(std::exception_ptr e) noexcept {
    bool expected = false;
    if (faulted_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) fault_ = std::move(e);
    request_stop();
  }

  // The last word of a run: damping for the joints it commanded (nothing stays stiff on a target
  // nobody updates any more) and the damping mode for a robot with its own modes.
  void leave_damped(TimePoint now) {
    if (!commanded_) return;
    commanded_ = false;
    JointCommand<N> last = actuated();
    if (last.covers_any()) {
      damp_covered(last, input_.state.q, options_.damping_kd);
      backend_.write(last, now);
      final_command_ = last;
    }
    if constexpr (PostsRequests<B>) {
      if (requests().any) {
        RobotRequests r = requests();
        r.mode = RobotMode::damping;
        r.locomotion = {};
        r.head.active = false;
        r.kick.active = false;
        backend_.post(r);
      }
    }
  }

  // Runs a thread's body between its hooks; an exception from either ends the run (record_fault).
  template <class Body>
  void guarded(ThreadRole role, Body&& body) noexcept {
    try {
      hook(options_.on_thread_start, role);
      body();
    } catch (...) {
      record_fault(std::current_exception());
    }
    try {
      hook(options_.on_thread_exit, role);
    } catch (...) {
      record_fault(std::current_exception());
    }
  }

  void run_state_triggered(TimePoint end, Duration control_period) {
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
        }
      });
      backend_.set_wakeup(nullptr);
    }
  }

  void run_timer(TimePoint end, Duration control_period) {
    const Duration timeout = command_timeout(control_period);
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
          std::this_thread::sleep_until(next);
        }
      });
    });
    std::thread send;
    try {
      send = std::thread([&] { guarded(ThreadRole::send, [&] { send_loop(timeout); }); });
    } catch (...) {
      stop_.store(true, std::memory_order_release);
      receive.join();
      throw;
    }

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
        }
        std::this_thread::sleep_until(next);
        if (states_.fetch()) {
          input_.state = states_.value();
          input_.info.have_state = true;
        }
        read_status();
        const TimePoint now = Clock::now();
        cycle(now);
        auto& out = commands_.back();
        out.command = actuated();
        out.computed = Clock::now();
        commands_.publish();
        hand_over(now, false);
      }
    });
    stop_.store(true, std::memory_order_release);
    receive.join();
    send.join();
  }

  // Trigger::timer's send thread: the newest command every send period, or, when it is older than
  // `timeout` (the control thread stalled: a blocked controller, a page fault storm, a debugger),
  // damping on the joints it covered at the newest measured position. Fresh commands are sent again
  // as soon as they come; what they are is the graph's business (its own safety rules).
  void send_loop(Duration timeout) {
    TimePoint next = Clock::now();
    bool have_command = false, have_measured = false, stalled = false;
    std::uint64_t damped_in_episode = 0;
    JointCommand<N> damping;
    while (!stop_.load(std::memory_order_acquire)) {
      have_command = commands_.fetch() || have_command;
      have_measured = measured_.fetch() || have_measured;
      const TimePoint now = Clock::now();
      if (have_command && commands_.value().command.covers_any()) {
        const auto& newest = commands_.value();
        const Duration age = now - newest.computed;
        if (age <= timeout) {
          if (stalled) {
            stalled = false;
            reporter_->push(control::StallEvent{to_seconds(now - start_time_),
                                                command_stalls_.load(std::memory_order_relaxed), false,
                                                to_seconds(age), damped_in_episode});
          }
          backend_.write(newest.command, now);
        } else {
          if (!stalled) {
            stalled = true;
            damped_in_episode = 0;
            const auto episode = command_stalls_.fetch_add(1, std::memory_order_relaxed) + 1;
            reporter_->push(control::StallEvent{to_seconds(now - start_time_), episode, true, to_seconds(age), 0});
          }
          damping = newest.command;
          damp_covered(damping, have_measured ? measured_.value() : newest.command.q, options_.damping_kd);
          backend_.write(damping, now);
          ++damped_in_episode;
          stalled_sends_.fetch_add(1, std::memory_order_relaxed);
        }
      }
      next += options_.send_period;
      std::this_thread::sleep_until(next);
    }
  }

  static void hook(const std::function<void(ThreadRole)>& f, ThreadRole role) {
    if (f) f(role);
  }

  B& backend_;
  RuntimeOptions options_;
  control::CycleInput<N> input_{};
  Graph graph_;
  std::uint64_t cycle_count_ = 0;
  TimePoint start_time_{};
  std::unique_ptr<control::Reporter<N>> reporter_;
  control::CycleRecord<N> record_{};
  RobotStatus logged_status_{};
  LatestValue<RobotState<N>> states_;                        // receive -> control
  LatestValue<JointVector<N>> measured_;                     // receive -> send (damping targets)
  LatestValue<control::detail::StampedCommand<N>> commands_;  // control -> send
  Wakeup wakeup_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
  std::atomic<std::uint64_t> overruns_{0};
  std::atomic<std::uint64_t> command_stalls_{0};
  std::atomic<std::uint64_t> stalled_sends_{0};
  std::atomic<bool> faulted_{false};
  std::exception_ptr fault_;  // written by the first faulting thread, read after the threads joined
  std::optional<LifecycleResult> acquired_;
  std::optional<JointCommand<N>> final_command_;
  bool released_ = false;
  bool commanded_ = false;  // a command went out since the last damping (leave_damped)
};

}  // namespace praxis
