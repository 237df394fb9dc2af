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
};

// Prints events on stdout with a time stamp; used by the reporter thread only.
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
