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
#include "praxis/control/safe_state.hpp"
#include "praxis/control/stall_watchdog.hpp"
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
  double damping_kd = k_default_damping_kd;
  motion::SafetyOptions safety{};
  motion::FallOptions fall{};
  motion::CollectorOptions collector{};  // its damping_kd follows damping_kd above
  // Per-cycle CSV log; unset = none.
  std::optional<std::filesystem::path> cycle_log;
  // CSV of the motion transitions with their causes (time, cycle, from, to, dispatching_to, cause,
  // gain_ratio); unset = none.
  std::optional<std::filesystem::path> transition_log;
  // Cycles per printed compute-time window; unset = one second's worth at the control period (the
  // Unitree framework printed every 100 cycles, which is 0.2 s at 500 Hz: too fast to read).
  std::optional<std::size_t> stats_every;
  bool print = true;
  // Trigger::timer: a command older than this when the send thread would send it means the control
  // thread stalled; the send thread then holds it (sends it again as it was, targets and gains; see
  // Runtime::command_stalls()). Unset = 5 control periods, at least one period plus four send
  // periods and at least 20 ms (the age a command reaches in normal operation is up to about a
  // period and a send period, plus scheduling noise).
  std::optional<Duration> command_timeout;
  // Trigger::timer: a stall that outlasts this (the newest command's age) gets the robot's safe
  // state instead of the hold: damping frames where praxis owns every joint (fresh commands are sent
  // again when control resumes), the end of the run and the hand-back on a robot that balances
  // itself. Unset = 100 ms, and never below command_timeout.
  std::optional<Duration> stall_timeout;
  // SCHED_FIFO priorities and CPUs per thread, memory locking, prefaulted stacks and heap, timer
  // slack (control/realtime.hpp): applied as each thread of run() starts, before on_thread_start;
  // what was granted and what was refused, and why, is printed (and kept: realtime_report()), and
  // the run goes on either way.
  RealtimeOptions realtime{};
  // Called first and last on each thread of run(), after `realtime` is applied: the place for
  // anything else a thread needs. An exception from either ends the run like one from the cycle.
  std::function<void(ThreadRole)> on_thread_start;
  std::function<void(ThreadRole)> on_thread_exit;
  // praxis-guard (control/guard.hpp): while run() has control of a robot on a wire, a process of
  // praxis' that sends the robot's safe request should this one die or hang. On by default.
  GuardOptions guard{};
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

template <class Derived, Backend B, class Graph>
class Runtime {
 public:
  using graph_type = Graph;
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities capabilities = capabilities_of<B>();
  static constexpr SafeState k_safe_state = safe_state_of<B>();
  static constexpr RobotMode k_safe_mode = safe_mode_of<B>();

  Runtime(B& backend, RuntimeOptions options) : backend_(backend), options_(std::move(options)) {
    graph_.template node<control::StateSource<N>>().input = &input_;
    options_.collector.damping_kd = options_.damping_kd;
    options_.safety.use_link_status = ReportsStatus<B>;
    graph_.template node<motion::SafetyMonitor<N>>().options = options_.safety;
    graph_.template node<motion::FallDetector<N>>().options = options_.fall;
    graph_.template node<motion::DampingMotion<Model>>().kd = options_.damping_kd;
    graph_.template node<motion::DampingMotion<Model>>().style = k_safe_state;
    // A robot that stands when praxis takes it says how to hold it (Booster's Custom entry: the
    // measured pose with its Prepare gains): the damping state holds it so until it is left once.
    if constexpr (requires(const B& b, const RobotState<N>& s) {
                    { b.entry_hold(s) } -> std::convertible_to<JointCommand<N>>;
                  }) {
      const JointCommand<N> entry = backend_.entry_hold(RobotState<N>{});
      auto& damping = graph_.template node<motion::DampingMotion<Model>>();
      damping.hold_at_start = true;
      for (std::size_t j = 0; j < N; ++j) {
        damping.hold_kp[j] = entry.kp[static_cast<Eigen::Index>(j)];
        damping.hold_kd[j] = entry.kd[static_cast<Eigen::Index>(j)];
      }
    }
    options_.collector.safe_state = k_safe_state;
    graph_.template node<Collector>().options = options_.collector;
    graph_.template node<motion::CommandsSender<Model, capabilities>>().safe_mode = k_safe_mode;
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
  RunOutcome finish() {
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

  void read_status() {
    if constexpr (ReportsStatus<B>) {
      backend_.read_status(input_.status);
    } else {
      input_.status.link.connected = input_.info.have_state;
    }
  }

  // The graph and the reports; input_ is already up to date.
  // `late`: how long after its deadline the control thread woke for it (Trigger::timer), for the
  // reporter's per-window lateness.
  void cycle(TimePoint now, Duration late = Duration::zero()) {
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
  void watch_state_pause() {
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
  void observe_cycle() noexcept {
    if (auto* observer = observer_.load(std::memory_order_acquire)) observer->on_cycle(graph_, input_);
  }

  // After a cycle: the command (when it covers any joint) and the requests go to the backend.
  // `write_now`: false in Trigger::timer, where the send thread writes.
  void hand_over(TimePoint now, bool write_now) {
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
  void note_fault(const motion::MotionSelection& sel, double t) {
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

  void report(TimePoint now, Duration compute, Duration late) {
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

  RunOutcome run_loop(std::optional<Duration> duration) {
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
  void begin_run() {
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
  void finish_run() {
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
  void start_guard() {
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
  void guard_took_over() noexcept {
    if (!guard_ended_run_.exchange(true, std::memory_order_acq_rel)) {
      guard_at_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_time_).count(),
                         std::memory_order_relaxed);
      request_stop();
    }
  }

  // The outcome from what the run recorded: the control thread's first fault, else a stall that
  // ended it (send thread), else a normal end.
  void reset_ride_outs() {
    ride_ = {};
    state_pause_ = Duration::zero();
    send_ride_ = {};
  }

  void write_outcome() {
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

  void finish_stepping() noexcept {
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
  void record_fault(std::exception_ptr e) noexcept {
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
  void leave_safe(TimePoint now) {
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

  // RuntimeOptions::realtime, the process' part: before the run's threads start.
  void prepare_realtime() {
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
  void start_thread_realtime(ThreadRole role) {
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
  void count_cycle_faults() {
    if (++run_cycles_ == k_fault_warmup_cycles) faults_at_warmup_ = thread_minor_faults();
  }
  void finish_fault_count() {
    if (run_cycles_ < k_fault_warmup_cycles) return;
    const auto faults = thread_minor_faults() - faults_at_warmup_;
    control_faults_.store(static_cast<std::int64_t>(faults), std::memory_order_relaxed);
    if (options_.print && (faults > 0 || options_.realtime.any())) {
      std::printf("praxis: the control thread took %llu minor page faults after its first %llu cycles\n",
                  static_cast<unsigned long long>(faults), static_cast<unsigned long long>(k_fault_warmup_cycles));
    }
  }

  // Runs a thread's body between its hooks; an exception from either ends the run (record_fault).
  template <class Body>
  void guarded(ThreadRole role, Body&& body) noexcept {
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
          observe_cycle();
          count_cycle_faults();
        }
      });
      backend_.set_wakeup(nullptr);
    }
  }

  void run_timer(TimePoint end, Duration control_period) {
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
  void send_loop(Duration timeout, Duration stall_after) {
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
