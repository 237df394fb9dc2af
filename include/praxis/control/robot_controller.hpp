#pragma once
// RobotController<Backend, USER_CTRL>: stand a robot up, run a user's controller, and fall back to
// damping on command or on any fault. The generalisation of the Unitree deployment framework's
// RobotController, built from graph nodes (see control/nodes.hpp).
//
//   praxis::mock::MockRobot<praxis::unitree::G1> robot;
//   praxis::RobotController<decltype(robot), MyController> controller(robot);
//   controller.load_params("params/");          // USER_CTRL's own parameters, before anything moves
//   controller.step(now);                        // deterministic: one cycle at a time, your clock
//   controller.run_for(std::chrono::seconds(10)); // or real time: receive / control / send threads
//
// Gamepad: R2 enters STAND (holding R2 raises pd_ratio, R1 lowers it), A enters CTRL once
// pd_ratio > 0.95, L2 + B returns to DAMPING from anywhere. A stale or invalid state, a tilt in
// CTRL, or a non-finite command from USER_CTRL also returns to DAMPING.

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "praxis/control/nodes.hpp"
#include "praxis/control/reporter.hpp"
#include "praxis/control/state_machine.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/hardware/backend.hpp"

namespace praxis {

enum class ThreadRole : std::uint8_t { receive, control, send };

struct ControllerOptions {
  double damping_kd = 2.0;
  control::SafetyOptions safety{};
  control::GuardOptions guard{};
  double pd_ratio_init = 0.1;
  double delta_pd = 0.005;
  // Control period; unset = USER_CTRL's dt (after load_params).
  std::optional<Duration> period;
  // run(): how often the send thread writes the latest command, and the receive thread polls.
  Duration send_period = std::chrono::milliseconds(2);
  Duration receive_period = std::chrono::microseconds(500);
  // Per-cycle CSV log; unset = none.
  std::optional<std::filesystem::path> cycle_log;
  std::size_t stats_every = 100;
  bool print = true;
  // Called first and last on each thread of run(): the place for CPU affinity and priorities.
  std::function<void(ThreadRole)> on_thread_start;
  std::function<void(ThreadRole)> on_thread_exit;
};

template <Backend B, class Ctrl>
class RobotController {
 public:
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static_assert(check_user_controller<Ctrl, N>(), "see the USER_CTRL message above");

  using Graph = Pipeline<control::CommandGuard<Model>, control::CtrlMotion<N>, control::StandMotion<N>,
                         control::DampingMotion<N>, control::UserControllerNode<Ctrl, N>,
                         control::StateMachineNode, control::SafetyMonitor<N>,
                         control::GamepadReader<N>, control::StateSource<N>>;

  explicit RobotController(B& backend, ControllerOptions options = {}, Ctrl ctrl = {})
      : backend_(backend), options_(std::move(options)) {
    graph_.template node<control::StateSource<N>>().input = &input_;
    graph_.template node<control::SafetyMonitor<N>>().options = options_.safety;
    auto& sm = graph_.template node<control::StateMachineNode>();
    sm.initial.pd_ratio = options_.pd_ratio_init;
    sm.initial.delta_pd = options_.delta_pd;
    sm.machine = sm.initial;
    graph_.template node<control::DampingMotion<N>>().damping_kd = options_.damping_kd;
    graph_.template node<control::CommandGuard<Model>>().options = options_.guard;
    graph_.template node<control::CommandGuard<Model>>().options.damping_kd = options_.damping_kd;
    user_node().adapter = ControllerAdapter<Ctrl, N>(std::move(ctrl));
  }
  RobotController(const RobotController&) = delete;
  RobotController& operator=(const RobotController&) = delete;
  ~RobotController() { request_stop(); }

  // Loads USER_CTRL's parameters from `folder` and checks what praxis relies on. Throws (with the
  // file and key in the message) before anything is sent to the robot.
  void load_params(const std::filesystem::path& folder) {
    user_node().adapter.load_params(folder);
    param_folder_ = folder;
    validate();
  }

  // The control period in use.
  [[nodiscard]] Duration period() const {
    return options_.period ? *options_.period : from_seconds(user_node().adapter.dt());
  }

  // One control cycle at `now`: read the newest state, run the graph, write the command.
  void step(TimePoint now) {
    ensure_started(now);
    if (backend_.read(input_.state, now)) input_.info.have_state = true;
    cycle(now);
    backend_.write(command(), now);
  }

  // Real time with three threads (receive, control every period() on absolute deadlines, send
  // every send_period). Blocks until request_stop() or until `duration` has passed.
  void run_for(Duration duration) { run_until(Clock::now() + duration); }
  void run() { run_until(TimePoint::max()); }
  void request_stop() { stop_.store(true, std::memory_order_release); }

  // ---- inspection (from the thread that calls step(), or after run() returned) ----
  [[nodiscard]] ControlState state() const { return mode().state; }
  [[nodiscard]] double pd_ratio() const { return mode().pd_ratio; }
  [[nodiscard]] const control::ControlMode& mode() const { return graph_.template get<control::ModePort>(); }
  [[nodiscard]] const control::SafetyStatus& safety() const { return graph_.template get<control::SafetyPort>(); }
  [[nodiscard]] const control::GuardReport& guard() const { return graph_.template get<control::GuardPort>(); }
  [[nodiscard]] const JointCommand<N>& command() const { return graph_.template get<control::CommandPort<N>>(); }
  [[nodiscard]] const RobotState<N>& last_state() const { return input_.state; }
  [[nodiscard]] std::uint64_t cycles() const { return cycle_count_; }
  // run(): control cycles skipped because the loop fell more than a period behind its deadlines.
  [[nodiscard]] std::uint64_t overruns() const { return overruns_.load(std::memory_order_relaxed); }
  [[nodiscard]] Ctrl& user() { return user_node().adapter.controller(); }
  [[nodiscard]] const Graph& graph() const { return graph_; }

  // Transitions and statistics as the reporter thread saw them; flush() first to see everything.
  void flush() {
    if (reporter_) reporter_->flush();
  }
  [[nodiscard]] std::vector<control::TransitionEvent> transitions() const {
    return reporter_ ? reporter_->transitions() : std::vector<control::TransitionEvent>{};
  }
  [[nodiscard]] control::ComputeStats compute_stats() const {
    return reporter_ ? reporter_->last_stats() : control::ComputeStats{};
  }
  [[nodiscard]] std::uint64_t dropped_reports() const { return reporter_ ? reporter_->dropped() : 0; }
  [[nodiscard]] const std::optional<std::filesystem::path>& param_folder() const { return param_folder_; }

 private:
  [[nodiscard]] control::UserControllerNode<Ctrl, N>& user_node() {
    return graph_.template node<control::UserControllerNode<Ctrl, N>>();
  }
  [[nodiscard]] const control::UserControllerNode<Ctrl, N>& user_node() const {
    return graph_.template node<control::UserControllerNode<Ctrl, N>>();
  }

  void validate() const {
    const auto& a = user_node().adapter;
    const std::string where = param_folder_ ? " (parameters from " + param_folder_->string() + ")" : "";
    if (!(std::isfinite(a.dt()) && a.dt() > 0.0 && a.dt() <= 1.0)) {
      throw std::invalid_argument("USER_CTRL dt must be in (0, 1] seconds, got " + std::to_string(a.dt()) + where);
    }
    if (!(std::isfinite(a.kp()) && a.kp() >= 0.0) || !(std::isfinite(a.kd()) && a.kd() >= 0.0)) {
      throw std::invalid_argument("USER_CTRL kp and kd must be finite and >= 0" + where);
    }
    for (std::size_t j = 0; j < N; ++j) {
      const double q = a.init_pos(j);
      const auto& spec = Model::joints[j];
      if (!std::isfinite(q) || q < spec.lower || q > spec.upper) {
        throw std::invalid_argument("USER_CTRL init_pos[" + std::to_string(j) + "] (" + std::string(spec.name) +
                                    ") = " + std::to_string(q) + " is outside the joint's limits [" +
                                    std::to_string(spec.lower) + ", " + std::to_string(spec.upper) + "]" + where);
      }
    }
  }

  void ensure_started(TimePoint now) {
    if (reporter_) return;
    validate();
    start_time_ = now;
    control::ReporterOptions ro;
    ro.stats_every = options_.stats_every;
    ro.print = options_.print;
    ro.csv_file = options_.cycle_log;
    std::array<float, control::k_max_log_values> probe{};
    const auto log_values = options_.cycle_log ? user_node().adapter.log_into(probe) : 0;
    reporter_ = std::make_unique<control::Reporter<N>>(ro, std::span<const JointSpec, N>(Model::joints), log_values);
  }

  // The graph and the reports; the state in input_ is already up to date.
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

  void report(TimePoint now, Duration compute) {
    const double t = to_seconds(now - start_time_);
    const auto& m = mode();
    reporter_->push_compute_time(static_cast<std::uint32_t>(
        std::min<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(compute).count(), UINT32_MAX)));
    if (m.changed) reporter_->push(control::TransitionEvent{t, cycle_count_ - 1, m.previous, m.state, m.cause, m.pd_ratio});
    const auto& g = guard();
    if (g.fallback_to_damping || g.clamped_joints > 0) {
      reporter_->push(control::GuardEvent{t, cycle_count_ - 1, g.fallback_to_damping, g.clamped_joints});
    }
    if (options_.cycle_log) {
      auto& r = record_;
      r.time = t;
      r.cycle = cycle_count_ - 1;
      r.state = m.state;
      r.pd_ratio = m.pd_ratio;
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
      r.log_count = static_cast<std::uint32_t>(user_node().adapter.log_into(r.log));
      reporter_->push(r);
    }
  }

  void run_until(TimePoint end) {
    const TimePoint start = Clock::now();
    ensure_started(start);
    stop_.store(false, std::memory_order_release);
    const Duration control_period = period();

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
        if (have_command) backend_.write(commands_.value(), Clock::now());
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
      cycle(Clock::now());
      commands_.publish(command());
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
  ControllerOptions options_;
  control::CycleInput<N> input_{};
  Graph graph_;
  std::uint64_t cycle_count_ = 0;
  TimePoint start_time_{};
  std::optional<std::filesystem::path> param_folder_;
  std::unique_ptr<control::Reporter<N>> reporter_;
  control::CycleRecord<N> record_{};
  LatestValue<RobotState<N>> states_;
  LatestValue<JointCommand<N>> commands_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> overruns_{0};
};

}  // namespace praxis
