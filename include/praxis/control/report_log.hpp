#pragma once
// What the reporter records, and ReportLog: the human-readable side of it (spdlog), compiled once
// in the praxis library so that a file including the runtime does not compile spdlog's headers.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "praxis/core/robot_status.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::control {

inline constexpr std::size_t k_max_log_values = 32;

template <std::size_t N>
struct CycleRecord {
  double time = 0.0;  // seconds since the controller started
  std::uint64_t cycle = 0;
  motion::MotionType motion = motion::MotionType::damping;
  double gain_ratio = 0.0;
  double compute_us = 0.0;  // this cycle's graph, so a plot shows every cycle, not window statistics
  std::array<double, N> q{}, dq{}, tau{}, cmd_q{}, cmd_kp{}, cmd_kd{}, cmd_tau{};
  std::uint32_t log_count = 0;
  std::array<float, k_max_log_values> log{};
};

// A change of the selected motion. For RobotController, control_state(from / to) gives the
// framework's DAMPING / STAND / CTRL names.
struct TransitionEvent {
  double time = 0.0;
  std::uint64_t cycle = 0;
  motion::MotionType from = motion::MotionType::damping;
  motion::MotionType to = motion::MotionType::damping;
  motion::MotionType dispatching_to = motion::MotionType::damping;  // when `to` is dispatching
  motion::SelectionCause cause = motion::SelectionCause::none;
  double gain_ratio = 0.0;
};

struct GuardEvent {
  double time = 0.0;
  std::uint64_t cycle = 0;
  bool fallback_to_damping = false;
  std::uint32_t clamped_joints = 0;
  std::uint32_t unsupported_modes = 0;
  std::array<motion::ClampNote, motion::CollectorReport::k_notes> clamps{};  // the first clamped joints
};

// What the robot reported back, logged when the mode (assumed or reported) or the last request's
// outcome changed.
struct StatusEvent {
  double time = 0.0;
  std::uint64_t cycle = 0;
  RobotStatus status;
};

struct ComputeStats {
  std::size_t samples = 0;
  double mean_us = 0, min_us = 0, max_us = 0, p99_us = 0;
  // How late the control thread woke after the cycles' deadlines (Trigger::timer; 0 without one).
  double late_p99_us = 0, late_max_us = 0;
};

// One cycle's timing, control thread to reporter: the graph's compute time and the wake-up's
// lateness after its deadline, in ns (saturated).
struct CycleTiming {
  std::uint32_t compute_ns = 0;
  std::uint32_t late_ns = 0;
};

// Which guard events the log prints. A robot lying with a joint pressed past its limit has its
// command clamped every cycle; a line per cycle would bury everything else. The first event of a
// kind is printed, then at most one per `interval` seconds of controller time, saying how many of
// that kind went unprinted since the last line.
class GuardThrottle {
 public:
  enum Kind : std::size_t { non_finite, unsupported_mode, clamped, kinds };
  static constexpr double k_interval = 1.0;

  [[nodiscard]] static Kind kind_of(const GuardEvent& e) noexcept {
    if (e.fallback_to_damping) return non_finite;
    return e.unsupported_modes > 0 ? unsupported_mode : clamped;
  }

  // Whether to print `e`; when it is printed, `suppressed` is how many of its kind were not since
  // the last printed one.
  [[nodiscard]] bool admit(const GuardEvent& e, std::uint64_t& suppressed) noexcept {
    Slot& s = slots_[kind_of(e)];
    if (s.printed && e.time - s.last_printed < k_interval) {
      ++s.suppressed;
      return false;
    }
    suppressed = s.suppressed;
    s = Slot{true, e.time, 0};
    return true;
  }

  // Unprinted events of a kind since its last line (for a closing summary).
  [[nodiscard]] std::uint64_t pending(Kind k) const noexcept { return slots_[k].suppressed; }

 private:
  struct Slot {
    bool printed = false;
    double last_printed = 0.0;
    std::uint64_t suppressed = 0;
  };
  std::array<Slot, kinds> slots_{};
};

// Prints events on stdout with a time stamp; used by the reporter thread only. Guard events are
// thinned out by GuardThrottle.
class ReportLog {
 public:
  ReportLog();
  ~ReportLog();
  ReportLog(const ReportLog&) = delete;
  ReportLog& operator=(const ReportLog&) = delete;
  void info(std::string_view message);
  void transition(const TransitionEvent& e);
  void guard(const GuardEvent& e);
  void status(const StatusEvent& e);
  void stats(const ComputeStats& s);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace praxis::control
