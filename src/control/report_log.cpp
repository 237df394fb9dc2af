// The reporter's human-readable output, with spdlog (kept out of the headers).

#include "praxis/control/report_log.hpp"

#include <algorithm>
#include <string>

#include <spdlog/fmt/fmt.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_color_sinks.h>

namespace praxis::control {

struct ReportLog::Impl {
  std::shared_ptr<spdlog::logger> logger;
  GuardThrottle throttle;
};

ReportLog::ReportLog() : impl_(std::make_unique<Impl>()) {
  impl_->logger = std::make_shared<spdlog::logger>("praxis", std::make_shared<spdlog::sinks::stdout_color_sink_mt>());
  impl_->logger->set_pattern("[%H:%M:%S.%e] %v");
}

ReportLog::~ReportLog() {
  if (!impl_) return;
  const auto& t = impl_->throttle;
  const std::uint64_t left = t.pending(GuardThrottle::non_finite) + t.pending(GuardThrottle::unsupported_mode) +
                             t.pending(GuardThrottle::clamped);
  if (left > 0) impl_->logger->warn("{} more command-guard event(s) after the last one printed", left);
}

namespace {

std::string describe_clamps(const GuardEvent& g) {
  static constexpr const char* k_fields[] = {"q", "dq", "kp", "kd", "tau"};
  std::string out;
  const std::size_t noted = std::min<std::size_t>(g.clamped_joints, g.clamps.size());
  for (std::size_t k = 0; k < noted; ++k) {
    const auto& c = g.clamps[k];
    if (c.joint.empty()) return {};  // an event that carries no notes
    out += k == 0 ? ": " : ", ";
    out += fmt::format("{} {} {:.4g} -> {:.4g}", c.joint, k_fields[static_cast<std::size_t>(c.field)], c.value, c.limit);
  }
  if (g.clamped_joints > noted) out += fmt::format(" and {} more", g.clamped_joints - noted);
  return out;
}

}  // namespace

void ReportLog::info(std::string_view message) { impl_->logger->info("{}", message); }

void ReportLog::transition(const TransitionEvent& t) {
  if (t.to == motion::MotionType::dispatching) {
    impl_->logger->info("t={:.3f}s cycle {}: {} -> dispatching to {} ({})", t.time, t.cycle, to_string(t.from),
                        to_string(t.dispatching_to), to_string(t.cause));
  } else {
    impl_->logger->info("t={:.3f}s cycle {}: {} -> {} ({}), gain ratio {:.3f}", t.time, t.cycle, to_string(t.from),
                        to_string(t.to), to_string(t.cause), t.gain_ratio);
  }
}

void ReportLog::guard(const GuardEvent& g) {
  std::uint64_t suppressed = 0;
  if (!impl_->throttle.admit(g, suppressed)) return;
  if (suppressed > 0) {
    impl_->logger->warn("({} more like the next line since the last one printed)", suppressed);
  }
  if (g.fallback_to_damping) {
    impl_->logger->warn("t={:.3f}s cycle {}: controller command was not finite; damping sent instead", g.time,
                        g.cycle);
  } else if (g.unsupported_modes > 0) {
    impl_->logger->warn("t={:.3f}s cycle {}: {} joint(s) asked for a mode the robot cannot take; damped instead",
                        g.time, g.cycle, g.unsupported_modes);
  } else {
    impl_->logger->warn("t={:.3f}s cycle {}: command clamped to the robot's limits on {} joint(s){}", g.time, g.cycle,
                        g.clamped_joints, describe_clamps(g));
  }
}

void ReportLog::status(const StatusEvent& e) {
  const auto& s = e.status;
  impl_->logger->info(
      "t={:.3f}s cycle {}: robot mode assumed {}, reported {}{}; last request {} {} (code {}), {} in flight; {}",
      e.time, e.cycle, to_string(s.assumed_mode), to_string(s.reported_mode),
      s.mode_confirmed() || s.reported_mode == RobotMode::unknown ? "" : " (DISAGREES)", s.last_request.id,
      to_string(s.last_request.outcome), s.last_request.code, s.requests_in_flight, to_string(s.lifecycle));
}

void ReportLog::stats(const ComputeStats& s) {
  if (s.late_max_us > 0) {
    impl_->logger->info(
        "compute time over {} cycles: mean {:.2f} us, min {:.2f} us, max {:.2f} us, p99 {:.2f} us; "
        "woke after the deadline by p99 {:.1f} us, max {:.1f} us",
        s.samples, s.mean_us, s.min_us, s.max_us, s.p99_us, s.late_p99_us, s.late_max_us);
    return;
  }
  impl_->logger->info("compute time over {} cycles: mean {:.2f} us, min {:.2f} us, max {:.2f} us, p99 {:.2f} us",
                      s.samples, s.mean_us, s.min_us, s.max_us, s.p99_us);
}

}  // namespace praxis::control
