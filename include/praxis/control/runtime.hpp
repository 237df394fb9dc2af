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
// release after the last), ends every run in the robot's own safe state (the backend's SafeState:
// joint damping where praxis owns every joint; a hold of the measured pose with the gains in force,
// then the hand-back, on a robot that balances itself; the damping mode request where praxis only
// asks for motions), returns how the run ended (RunOutcome), never loses a request_stop() (one that arrives before run() reached its loop ends
// that run at once), and, off the control thread, runs the reporter (transitions, guard events,
// robot status, compute-time statistics, stalls, the cycle CSV).
//
// On its own faults it fails safe: a command older than command_timeout is held (re-sent as it was),
// and one older than stall_timeout is replaced by the safe state (a stalled control thread; see
// control/stall_watchdog.hpp); on a robot that balances itself a fault or a long stall ends the run,
// so that release() hands the robot back to its own controller; an exception from user code or a hook on any thread stops every
// thread, damps, hands control back and is rethrown to run()'s caller; every run starts from empty
// mailboxes and a reset graph (damping); the destructor stops a run on another thread and waits for
// it, and damps after step()-driven use. docs/controller.md has the details.
//
// The graph must contain StateSource<N> and produce the motion layer's selection, collector report,
// actuated command and robot requests (every configuration in praxis does).
//
// Where each job is: this file declares the class and its public face; control/runtime_options.hpp
// holds the options, control/state_source.hpp the graph's input node; the member functions are in
// control/detail/runtime_cycle.hpp (one cycle), runtime_lifecycle.hpp (start, end, safe state,
// outcome) and runtime_threads.hpp (the schedulers and the send loop with its stall handling).

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
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

#include "praxis/control/cycle_observer.hpp"
#include "praxis/control/guard.hpp"
#include "praxis/control/realtime.hpp"
#include "praxis/control/reporter.hpp"
#include "praxis/control/run_outcome.hpp"
#include "praxis/control/runtime_options.hpp"
#include "praxis/control/safe_state.hpp"
#include "praxis/control/stall_watchdog.hpp"
#include "praxis/control/state_source.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/cycle.hpp"
#include "praxis/core/lateness.hpp"
#include "praxis/core/sleep.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::control {

namespace detail {
// What the control thread hands the send thread: the command and when it was computed.
template <std::size_t N>
struct StampedCommand {
  JointCommand<N> command;
  TimePoint computed{};
};
}  // namespace detail

template <class Derived, Backend B, class Graph>
class Runtime {
 public:
  using graph_type = Graph;
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities capabilities = capabilities_of<B>();
  static constexpr SafeState k_safe_state = safe_state_of<B>();
  static constexpr RobotMode k_safe_mode = safe_mode_of<B>();

  // The configuration sets its nodes up (detail::set_up_common_nodes) from runtime_options(), which
  // show the options as the run uses them.
  Runtime(B& backend, RuntimeOptions options) : backend_(backend), options_(std::move(options)) {
    graph_.template node<control::StateSource<N>>().input = &input_;
    options_.collector.damping_kd = options_.damping_kd;
    options_.collector.safe_state = k_safe_state;
    options_.safety.use_link_status = ReportsStatus<B>;
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
    observe_cycle();
  }

  // Real time (see the header comment). Blocks until request_stop() or until the loop ran for
  // `duration` (counted from the loop's start: taking control and starting the reporter are not
  // part of it), and returns how the run ended: normally, or after a fault, a lost control or a long
  // stall (the first of them, with its cause and joint), and whether the robot confirmed the
  // hand-back. On a robot that balances itself (SafeState::hand_back) a fault or a long stall ends
  // the run at once. Every run starts afresh: empty mailboxes, the graph reset (so the selection
  // starts in damping and a user's controller is re-entered, and reset, only through the normal
  // path). An exception from user code or a hook on any thread stops all threads, sends the safe
  // state, hands control back, and is rethrown here.
  RunOutcome run_for(Duration duration) { return run_loop(duration); }
  RunOutcome run() { return run_loop(std::nullopt); }
  void request_stop() {
    stop_.store(true, std::memory_order_release);
    wakeup_.notify();
  }
  // request_stop() for a signal handler (StopOnSignals, control/signals.hpp): two lock-free atomic
  // stores and nothing else; the run sees the stop within a control period.
  void request_stop_from_signal(int signal) noexcept {
    signal_.store(signal, std::memory_order_relaxed);
    stop_.store(true, std::memory_order_release);
  }
  // Whether a stop was requested (request_stop(), a signal) and not yet consumed by a run's end or
  // finish(): what a step()-driven loop checks.
  [[nodiscard]] bool stop_requested() const { return stop_.load(std::memory_order_acquire); }
  // How the last run ended (also after one whose exception run() rethrew).
  [[nodiscard]] const RunOutcome& outcome() const { return outcome_; }

  // Ends step()-driven control the way run() ends: the robot's safe state, control handed back,
  // and how the stepped run went (its first fault, the hand-back). step() may start again after it.
  RunOutcome finish();

  // Something that looks at every cycle after its command went out (observe/tap.hpp: recording, the
  // live view); nullptr: none. Set it before step() or run(), never while run() executes.
  void set_observer(control::CycleObserver<Graph, N>* observer) {
    if (running_.load(std::memory_order_acquire)) {
      throw std::logic_error("praxis: set_observer() while run() executes; set it before the run");
    }
    observer_.store(observer, std::memory_order_release);
  }
  [[nodiscard]] control::CycleObserver<Graph, N>* observer() const { return observer_.load(std::memory_order_acquire); }

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
  // command_timeout (stall episodes), how many frames it held the last command through them, and
  // how many safe-state frames it sent once a stall outlasted stall_timeout.
  [[nodiscard]] std::uint64_t command_stalls() const { return command_stalls_.load(std::memory_order_relaxed); }
  // What the last run asked of RuntimeOptions::realtime and got (empty when it asked nothing).
  [[nodiscard]] const RealtimeReport& realtime_report() const { return realtime_report_; }
  // Minor page faults the control thread took in the last run after its first
  // k_fault_warmup_cycles cycles (nullopt: the run was shorter): memory the cycle touched for the
  // first time, each a trip into the kernel. 0 is the goal; RealtimeOptions' prefaulting and memory
  // lock are the means.
  [[nodiscard]] std::optional<std::uint64_t> control_minor_faults() const {
    const auto n = control_faults_.load(std::memory_order_relaxed);
    return n < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(n));
  }
  static constexpr std::uint64_t k_fault_warmup_cycles = 50;
  // run() with Trigger::timer: how late the control thread woke after each cycle's deadline, over
  // the last run (every cycle, the first included) — cyclictest's measure, on the loop itself. Empty
  // for Trigger::state, whose cycles have no deadline. Read after run() returned.
  [[nodiscard]] LatenessStats lateness() const { return lateness_.stats(); }
  [[nodiscard]] const LatenessHistogram& lateness_histogram() const { return lateness_; }
  [[nodiscard]] std::uint64_t stalled_sends() const { return stalled_sends_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t held_sends() const { return held_sends_.load(std::memory_order_relaxed); }
  [[nodiscard]] const Graph& graph() const { return graph_; }
  template <class Node>
  [[nodiscard]] Node& node() {
    return graph_.template node<Node>();
  }
  [[nodiscard]] const RuntimeOptions& runtime_options() const { return options_; }
  // The send thread's limit for holding the last command through a stall (RuntimeOptions::stall_timeout).
  [[nodiscard]] Duration stall_timeout(Duration control_period) const {
    const Duration t = options_.stall_timeout ? *options_.stall_timeout : Duration(std::chrono::milliseconds(100));
    return std::max(t, command_timeout(control_period));
  }
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
  // What run() wrote last, after its loop: the safe state (see leave_safe); unset before a run ended.
  [[nodiscard]] const std::optional<JointCommand<N>>& final_command() const { return final_command_; }
  // The outcome of taking control (backends with a lifecycle), once started.
  [[nodiscard]] const std::optional<LifecycleResult>& acquired() const { return acquired_; }

  // Hands control back to the robot (backends with a lifecycle; a no-op otherwise). Called by run()
  // when it ends and by the destructor; after step()-driven runs you may call it yourself.
  LifecycleResult release();

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

  // One cycle: the graph, its reports, the handoff of its command and requests (detail/runtime_cycle.hpp).
  void read_status();
  void cycle(TimePoint now, Duration late = Duration::zero());
  void watch_state_pause();
  void observe_cycle() noexcept;
  void hand_over(TimePoint now, bool write_now);
  void note_fault(const motion::MotionSelection& sel, double t);
  void report(TimePoint now, Duration compute, Duration late);

  // Start and end: taking control, a run from start to outcome, the safe end, the hand-back (detail/runtime_lifecycle.hpp).
  void ensure_started(TimePoint now);
  RunOutcome run_loop(std::optional<Duration> duration);
  void begin_run();
  void finish_run();
  void start_guard();
  void guard_took_over() noexcept;
  void write_outcome();
  void reset_ride_outs();
  void finish_stepping() noexcept;
  void record_fault(std::exception_ptr e) noexcept;
  void leave_safe(TimePoint now);

  // The real-time threads: the two schedulers, the send loop and its stall handling (detail/runtime_threads.hpp).
  void prepare_realtime();
  void start_thread_realtime(ThreadRole role);
  void count_cycle_faults();
  void finish_fault_count();
  template <class Body>
  void guarded(ThreadRole role, Body&& body) noexcept;
  void run_state_triggered(TimePoint end, Duration control_period);
  void run_timer(TimePoint end, Duration control_period);
  void send_loop(Duration timeout, Duration stall_after);

  static void hook(const std::function<void(ThreadRole)>& f, ThreadRole role) {
    if (f) f(role);
  }

  B& backend_;
  RuntimeOptions options_;
  control::CycleInput<N> input_{};
  // Atomic only so that a misplaced set_observer() during a run is a refusal, not a data race.
  std::atomic<control::CycleObserver<Graph, N>*> observer_{nullptr};
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
  std::atomic<std::uint64_t> held_sends_{0};
  // A stall that ended the run (send thread; hand-back robots), read after the threads joined.
  std::atomic<bool> stall_ended_run_{false};
  std::atomic<bool> guard_ended_run_{false};
  std::atomic<std::int64_t> guard_at_ns_{0};  // when this run saw the guard had taken over
  control::GuardProcess guard_;
  std::atomic<std::int64_t> stall_age_ns_{0};
  std::atomic<std::int64_t> stall_at_ns_{0};
  std::atomic<int> signal_{0};  // the signal that stopped the run (request_stop_from_signal)
  RunFault first_fault_{};  // control thread; read after the threads joined
  // What the run rode out: freezes and state pauses (control thread or step()), stalls (the send
  // thread); each read by write_outcome after the threads joined.
  RideOuts ride_{};
  Duration state_pause_ = Duration::zero();
  struct SendRideOuts {
    std::uint64_t stalls = 0, stalls_damped = 0;
    double longest_stall_ms = 0.0;
  } send_ride_{};
  RunOutcome outcome_{};
  // A request was posted since the last safe state (leave_safe); the send thread reads it on a stall.
  std::atomic<bool> posted_{false};
  // RuntimeOptions::realtime: each run thread's items, written by that thread before it sets its
  // flag; the control thread waits for the flags of the threads started before it, then prints.
  std::array<std::vector<RealtimeItem>, k_thread_roles> realtime_items_{};
  std::array<std::atomic<bool>, k_thread_roles> realtime_applied_{};
  RealtimeReport realtime_report_{};
  // The control thread's page faults (control_minor_faults()): -1 until measured.
  std::atomic<std::int64_t> control_faults_{-1};
  std::uint64_t faults_at_warmup_ = 0;
  std::uint64_t run_cycles_ = 0;
  LatenessHistogram lateness_;  // the control thread's, Trigger::timer
  CpuLatencyHold cpu_latency_;  // RealtimeOptions::cpu_latency, for the run
  std::atomic<bool> faulted_{false};
  std::exception_ptr fault_;  // written by the first faulting thread, read after the threads joined
  std::optional<LifecycleResult> acquired_;
  std::optional<JointCommand<N>> final_command_;
  bool released_ = false;
  bool commanded_ = false;  // a command went out since the last damping (leave_damped)
};

}  // namespace praxis::control

#include "praxis/control/detail/runtime_cycle.hpp"      // IWYU pragma: export
#include "praxis/control/detail/runtime_lifecycle.hpp"  // IWYU pragma: export
#include "praxis/control/detail/runtime_threads.hpp"    // IWYU pragma: export
