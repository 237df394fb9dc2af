#pragma once
// Reporter: everything the controller tells a human or writes to disk, done on its own thread.
//
// The control thread only pushes fixed-size records into lock-free single-producer queues
// (boost::lockfree::spsc_queue with compile-time capacity: no allocation, no lock, no wait); the
// reporter thread drains them, prints motion transitions, command-guard events, what the robot
// reports back (its mode, the outcome of each request) and compute-time statistics with spdlog,
// and appends the per-cycle CSV log. When a queue is full the record is dropped and
// counted, never waited for. Each queue has one producer: the control thread, except for the
// stall events, which the send thread pushes.

#include <algorithm>
#include <array>
#include <cstdio>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/lockfree/spsc_queue.hpp>

#include "praxis/control/report_log.hpp"
#include "praxis/control/state_machine.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/motion/motion_type.hpp"

namespace praxis::control {

// The send thread found the newest command older than RuntimeOptions::command_timeout (the control
// thread stalled) and holds it, then sends the safe state (`stalled`, `safe`), or fresh commands came again (not stalled).
struct StallEvent {
  double time = 0.0;              // s since the runtime started
  std::uint64_t episode = 0;      // 1 for the first stall of the runtime's life
  bool stalled = false;
  double command_age = 0.0;       // s: age of the newest command when the event was seen
  std::uint64_t damped_sends = 0;  // safe-state frames sent in this episode (when it ends)
  std::uint64_t held_sends = 0;    // frames that held the last command in this episode (when it ends)
  bool safe = false;               // the stall outlasted stall_timeout: the robot gets its safe state
};

struct ReporterOptions {
  std::size_t stats_every = 100;       // cycles per compute-time window (the framework prints per 100)
  bool print = true;                   // human messages on stdout
  std::optional<std::filesystem::path> csv_file;  // per-cycle log; none = no CSV
  // One row per motion change with its cause, which the per-cycle log cannot show; none = no file.
  std::optional<std::filesystem::path> transition_file;
  std::chrono::milliseconds poll{2};   // how often the reporter thread looks for work
};

// A log's time column: microseconds, fixed. The stream's default six significant digits would print
// 1200.000 and 1200.002 alike, and a run's log would lose its time axis after 1000 s.
[[nodiscard]] inline std::array<char, 32> seconds_text(double seconds) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.6f", seconds);
  return text;
}

template <std::size_t N>
class Reporter {
 public:
  Reporter(ReporterOptions options, std::span<const JointSpec, N> joints, std::size_t log_values)
      : options_(std::move(options)), window_(std::max<std::size_t>(options_.stats_every, 1)) {
    if (options_.print) log_ = std::make_unique<ReportLog>();
    if (options_.csv_file) open_csv(joints, std::min(log_values, k_max_log_values));
    if (options_.transition_file) open_transitions();
    sorted_.reserve(window_.size());
    prefault();
    thread_ = std::thread([this] { loop(); });
  }
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;
  ~Reporter() {
    stop_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }

  // ---- producer side: the control thread; never blocks ----
  void push(const CycleRecord<N>& r) { count(cycles_.push(r)); }
  void push(const TransitionEvent& e) { count(transitions_.push(e)); }
  void push(const GuardEvent& e) { count(guards_.push(e)); }
  void push(const StatusEvent& e) { count(statuses_.push(e)); }
  void push_cycle_timing(CycleTiming t) { count(compute_.push(t)); }
  // ---- producer side: the send thread; never blocks ----
  void push(const StallEvent& e) { count(stalls_.push(e)); }

  // ---- for anyone else ----

  // Waits until every record pushed so far has been handled (printed, written).
  void flush() {
    const auto target = pushed_.load(std::memory_order_acquire);
    while (handled_.load(std::memory_order_acquire) < target) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    std::lock_guard lock(mutex_);
    if (csv_) csv_.flush();
    if (transitions_csv_) transitions_csv_.flush();
  }
  [[nodiscard]] std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  [[nodiscard]] ComputeStats last_stats() const {
    std::lock_guard lock(mutex_);
    return last_stats_;
  }
  [[nodiscard]] std::vector<TransitionEvent> transitions() const {
    std::lock_guard lock(mutex_);
    return history_;
  }
  [[nodiscard]] std::vector<StatusEvent> status_events() const {
    std::lock_guard lock(mutex_);
    return status_history_;
  }
  [[nodiscard]] std::vector<StallEvent> stall_events() const {
    std::lock_guard lock(mutex_);
    return stall_history_;
  }
  void info(std::string_view message) {
    if (log_) log_->info(message);
  }

 private:
  // Writes every slot of every queue once, before the control loop: otherwise the first pass of
  // the control thread through the ring buffers takes a page fault per page (several hundred with
  // a cycle log), in the cycle.
  void prefault() {
    auto touch = [](auto& queue, auto value) {
      while (queue.push(value)) {
      }
      while (queue.pop(value)) {
      }
    };
    touch(cycles_, CycleRecord<N>{});
    touch(transitions_, TransitionEvent{});
    touch(guards_, GuardEvent{});
    touch(statuses_, StatusEvent{});
    touch(compute_, CycleTiming{});
    touch(stalls_, StallEvent{});
  }

  void count(bool pushed) {
    if (pushed) {
      pushed_.fetch_add(1, std::memory_order_release);
    } else {
      dropped_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  void loop() {
    for (;;) {
      const bool stopping = stop_.load(std::memory_order_acquire);
      const std::size_t done = drain();
      if (done == 0) {
        if (stopping) break;
        std::this_thread::sleep_for(options_.poll);
      }
    }
    std::lock_guard lock(mutex_);
    if (csv_) csv_.flush();
    if (transitions_csv_) transitions_csv_.flush();
  }

  std::size_t drain() {
    std::size_t n = 0;
    TransitionEvent t;
    while (transitions_.pop(t)) {
      {
        std::lock_guard lock(mutex_);
        history_.push_back(t);
        write_transition(t);
      }
      if (log_) log_->transition(t);
      ++n;
    }
    StatusEvent st;
    while (statuses_.pop(st)) {
      {
        std::lock_guard lock(mutex_);
        status_history_.push_back(st);
      }
      if (log_) log_->status(st);
      ++n;
    }
    StallEvent se;
    while (stalls_.pop(se)) {
      {
        std::lock_guard lock(mutex_);
        stall_history_.push_back(se);
      }
      if (log_) log_->info(describe(se));
      ++n;
    }
    GuardEvent g;
    while (guards_.pop(g)) {
      if (log_) log_->guard(g);
      ++n;
    }
    CycleTiming timing;
    while (compute_.pop(timing)) {
      window_[filled_++] = timing;
      if (filled_ == window_.size()) report_window();
      ++n;
    }
    CycleRecord<N> r;
    while (cycles_.pop(r)) {
      write_csv(r);
      ++n;
    }
    handled_.fetch_add(n, std::memory_order_release);
    return n;
  }

  static std::string describe(const StallEvent& e) {
    const auto ms = [](double s) { return std::to_string(static_cast<long long>(s * 1e3)) + " ms"; };
    if (e.stalled) {
      return "t=" + std::to_string(e.time) + " s: control stalled (newest command " + ms(e.command_age) +
             " old, stall " + std::to_string(e.episode) + "): " +
             (e.safe ? "past the stall timeout, sending the safe state" : "holding the last command");
    }
    return "t=" + std::to_string(e.time) + " s: control resumed after stall " + std::to_string(e.episode) + " (" +
           std::to_string(e.held_sends) + " hold frames, " + std::to_string(e.damped_sends) + " safe-state frames sent)";
  }

  void report_window() {
    const auto window = std::span(window_).first(filled_);
    const auto p99_of_sorted = [&] {
      return sorted_[static_cast<std::size_t>(0.99 * static_cast<double>(filled_ - 1) + 0.5)] / 1e3;
    };
    ComputeStats s;
    s.samples = filled_;
    sorted_.clear();
    for (const auto& t : window) sorted_.push_back(t.compute_ns);
    std::sort(sorted_.begin(), sorted_.end());
    s.mean_us = std::accumulate(sorted_.begin(), sorted_.end(), 0.0) / static_cast<double>(filled_) / 1e3;
    s.min_us = sorted_.front() / 1e3;
    s.max_us = sorted_.back() / 1e3;
    s.p99_us = p99_of_sorted();
    sorted_.clear();
    for (const auto& t : window) sorted_.push_back(t.late_ns);
    std::sort(sorted_.begin(), sorted_.end());
    s.late_max_us = sorted_.back() / 1e3;
    s.late_p99_us = p99_of_sorted();
    filled_ = 0;
    {
      std::lock_guard lock(mutex_);
      last_stats_ = s;
    }
    if (log_) log_->stats(s);
  }

  void open_csv(std::span<const JointSpec, N> joints, std::size_t log_values) {
    csv_.open(*options_.csv_file);
    if (!csv_) {
      throw std::runtime_error("cannot create the cycle log '" + options_.csv_file->string() + "'");
    }
    log_columns_ = log_values;
    csv_ << "time,cycle,motion,gain_ratio,compute_us";
    for (const char* prefix : {"q_", "dq_", "tau_", "cmd_q_", "cmd_kp_", "cmd_kd_", "cmd_tau_"}) {
      for (const auto& j : joints) csv_ << ',' << prefix << j.name;
    }
    for (std::size_t k = 0; k < log_columns_; ++k) csv_ << ",log_" << k;
    csv_ << '\n';
  }

  void open_transitions() {
    transitions_csv_.open(*options_.transition_file);
    if (!transitions_csv_) {
      throw std::runtime_error("cannot create the transition log '" + options_.transition_file->string() + "'");
    }
    transitions_csv_ << "time,cycle,from,to,dispatching_to,cause,gain_ratio\n";
  }

  // Called with mutex_ held. No cause name contains a comma, so the names go in unquoted.
  void write_transition(const TransitionEvent& e) {
    if (!transitions_csv_) return;
    transitions_csv_ << seconds_text(e.time).data() << ',' << e.cycle << ',' << to_string(e.from) << ',' << to_string(e.to) << ','
                     << to_string(e.dispatching_to) << ',' << to_string(e.cause) << ',' << e.gain_ratio << '\n';
  }

  void write_csv(const CycleRecord<N>& r) {
    if (!csv_) return;
    std::lock_guard lock(mutex_);
    csv_ << seconds_text(r.time).data() << ',' << r.cycle << ',' << to_string(r.motion) << ',' << r.gain_ratio << ',' << r.compute_us;
    for (const auto* column : {&r.q, &r.dq, &r.tau, &r.cmd_q, &r.cmd_kp, &r.cmd_kd, &r.cmd_tau}) {
      for (const double v : *column) csv_ << ',' << v;
    }
    for (std::size_t k = 0; k < log_columns_; ++k) {
      csv_ << ',';
      if (k < r.log_count) csv_ << r.log[k];
    }
    csv_ << '\n';
  }

  ReporterOptions options_;
  std::unique_ptr<ReportLog> log_;
  boost::lockfree::spsc_queue<CycleRecord<N>, boost::lockfree::capacity<2048>> cycles_;
  boost::lockfree::spsc_queue<TransitionEvent, boost::lockfree::capacity<256>> transitions_;
  boost::lockfree::spsc_queue<GuardEvent, boost::lockfree::capacity<256>> guards_;
  boost::lockfree::spsc_queue<StatusEvent, boost::lockfree::capacity<256>> statuses_;
  boost::lockfree::spsc_queue<CycleTiming, boost::lockfree::capacity<8192>> compute_;
  boost::lockfree::spsc_queue<StallEvent, boost::lockfree::capacity<64>> stalls_;
  std::atomic<std::uint64_t> pushed_{0}, handled_{0}, dropped_{0};
  std::atomic<bool> stop_{false};

  // Reporter-thread state.
  std::vector<CycleTiming> window_;
  std::vector<std::uint32_t> sorted_;
  std::size_t filled_ = 0;
  std::ofstream csv_;
  std::size_t log_columns_ = 0;

  mutable std::mutex mutex_;  // guards the fields below; never taken by the control thread
  std::ofstream transitions_csv_;
  ComputeStats last_stats_;
  std::vector<TransitionEvent> history_;
  std::vector<StatusEvent> status_history_;
  std::vector<StallEvent> stall_history_;

  std::thread thread_;
};

}  // namespace praxis::control
