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
// robot status, compute-time statistics, the cycle CSV).
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
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
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
  std::size_t stats_every = 100;
  bool print = true;
  // Called first and last on each thread of run(): the place for CPU affinity and priorities.
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
  ~Runtime() { request_stop(); }

  // One control cycle at `now`: read the newest state and status, run the graph, hand the command
  // and the requests to the backend.
  void step(TimePoint now) {
    ensure_started(now);
    if (backend_.read(input_.state, now)) input_.info.have_state = true;
    read_status();
    cycle(now);
    hand_over(now, true);
  }

  // Real time (see the header comment). Blocks until request_stop() or until `duration` passed.
  void run_for(Duration duration) { run_until(Clock::now() + duration); }
  void run() { run_until(TimePoint::max()); }
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
  [[nodiscard]] const Graph& graph() const { return graph_; }
  template <class Node>
  [[nodiscard]] Node& node() {
    return graph_.template node<Node>();
  }
  [[nodiscard]] const RuntimeOptions& runtime_options() const { return options_; }

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
  [[nodiscard]] control::ComputeStats compute_stats() const {
    return reporter_ ? reporter_->last_stats() : control::ComputeStats{};
  }
  [[nodiscard]] std::uint64_t dropped_reports() const { return reporter_ ? reporter_->dropped() : 0; }
  // What run() wrote last, after its loop: damping (see leave_damped); unset before a run ended.
  [[nodiscard]] const std::optional<JointCommand<N>>& final_command() const { return final_command_; }
  // The outcome of taking control (backends with a lifecycle), once started.
  [[nodiscard]] const std::optional<LifecycleResult>& acquired() const { return acquired_; }

  // Hands control back to the robot (backends with a lifecycle; a no-op otherwise). Called by run()
  // when it ends; after step()-driven runs, call it yourself.
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

 private:
  [[nodiscard]] Derived& derived() { return static_cast<Derived&>(*this); }

  void ensure_started(TimePoint now) {
    if (reporter_) return;
    derived().before_start();
    start_time_ = now;
    control::ReporterOptions ro;
    ro.stats_every = options_.stats_every;
    ro.print = options_.print;
    ro.csv_file = options_.cycle_log;
    std::array<float, control::k_max_log_values> probe{};
    const auto log_values = options_.cycle_log ? derived().log_into(probe) : 0;
    reporter_ = std::make_unique<control::Reporter<N>>(ro, std::span<const JointSpec, N>(Model::joints), log_values);
    if constexpr (HasLifecycle<B>) {
      acquired_ = backend_.acquire(options_.lifecycle_timeout);
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
    if (write_now && covers_any(cmd)) backend_.write(cmd, now);
    if constexpr (PostsRequests<B>) {
      const auto& r = requests();
      if (r.any) backend_.post(r);
    }
  }

  static bool covers_any(const JointCommand<N>& c) {
    for (const auto m : c.mode) {
      if (m != JointMode::none) return true;
    }
    return false;
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

  void run_until(TimePoint end) {
    const TimePoint start = Clock::now();
    // A stop requested before this point (during start-up, or between runs) ends this run before
    // its first cycle: requests are never lost.
    if (stop_.exchange(false, std::memory_order_acq_rel)) return;
    ensure_started(start);
    if (stop_.exchange(false, std::memory_order_acq_rel)) return;
    const Duration control_period = derived().period();
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
    leave_damped(Clock::now());
    release();
    stop_.store(false, std::memory_order_release);  // this run's stop is consumed; the next may run
  }

  // The last word of a run: damping for the joints it commanded (nothing stays stiff on a target
  // nobody updates any more) and the damping mode for a robot with its own modes.
  void leave_damped(TimePoint now) {
    if (cycle_count_ == 0) return;
    JointCommand<N> last = actuated();
    if (covers_any(last)) {
      for (std::size_t j = 0; j < N; ++j) {
        if (last.mode[j] == JointMode::none) continue;
        const auto i = static_cast<Eigen::Index>(j);
        last.mode[j] = JointMode::position;
        last.q[i] = std::isfinite(input_.state.q[i]) ? input_.state.q[i] : 0.0;
        last.dq[i] = last.kp[i] = last.tau_ff[i] = 0.0;
        last.kd[i] = options_.damping_kd;
      }
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

  void run_state_triggered(TimePoint end, Duration control_period) {
    if constexpr (WakesOnState<B>) {
      hook(options_.on_thread_start, ThreadRole::control);
      wakeup_.clear();
      backend_.set_wakeup(&wakeup_);
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
      backend_.set_wakeup(nullptr);
      hook(options_.on_thread_exit, ThreadRole::control);
    }
  }

  void run_timer(TimePoint end, Duration control_period) {
    std::thread receive([&] {
      hook(options_.on_thread_start, ThreadRole::receive);
      TimePoint next = Clock::now();
      while (!stop_.load(std::memory_order_acquire)) {
        if (backend_.read(states_.back(), Clock::now())) states_.publish();
        next += options_.receive_period;
        std::this_thread::sleep_until(next);
      }
      hook(options_.on_thread_exit, ThreadRole::receive);
    });
    std::thread send([&] {
      hook(options_.on_thread_start, ThreadRole::send);
      TimePoint next = Clock::now();
      bool have_command = false;
      while (!stop_.load(std::memory_order_acquire)) {
        have_command = commands_.fetch() || have_command;
        if (have_command && covers_any(commands_.value())) backend_.write(commands_.value(), Clock::now());
        next += options_.send_period;
        std::this_thread::sleep_until(next);
      }
      hook(options_.on_thread_exit, ThreadRole::send);
    });

    hook(options_.on_thread_start, ThreadRole::control);
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
      commands_.publish(actuated());
      hand_over(now, false);
    }
    hook(options_.on_thread_exit, ThreadRole::control);
    stop_.store(true, std::memory_order_release);
    receive.join();
    send.join();
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
  LatestValue<RobotState<N>> states_;
  LatestValue<JointCommand<N>> commands_;
  Wakeup wakeup_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> overruns_{0};
  std::optional<LifecycleResult> acquired_;
  std::optional<JointCommand<N>> final_command_;
  bool released_ = false;
};

}  // namespace praxis
