#pragma once
// The runtime's safety settings from a JSON file, by field name (Boost.Hana reflection, see
// docs/parameters.md):
//
//   { "damping_kd": 2.0,
//     "stall_timeout": 0.1,
//     "safety":    { "stale_timeout": 0.1, "tilt_threshold": 0.0 },
//     "fall":      { "falling_tilt": 1.0, "rest_rate": 0.3, "rest_time": 0.3 },
//     "collector": { "max_kp": 1000, "max_kd": 100, "max_target_rate": 10 },
//     "realtime":  { "control": { "fifo_priority": 80, "cpus": [3] }, "lock_memory": true,
//                    "prefault_stack": 524288, "prefault_heap": 67108864, "timer_slack": 1e-6,
//                    "cpu_latency": 0 },
//     "guard":     { "enabled": true, "silence": 0.5 } }
//
// Durations are seconds. Every key is optional (a missing one keeps the value the options had);
// an unknown key, a wrong type or a bad file is a praxis::io::ParamError naming the file and the key,
// and then nothing is applied.

#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include <boost/hana/adapt_struct.hpp>

#include "praxis/control/runtime.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"

namespace praxis::control {

struct RuntimeParams {
  double damping_kd = k_default_damping_kd;
  // How long the send thread holds the last command through a control stall before the robot gets
  // its safe state (RuntimeOptions::stall_timeout; unset: 100 ms). A slower or busier computer
  // widens it; the hold in between is the robot's last targets.
  std::optional<Duration> stall_timeout{};
  motion::SafetyOptions safety{};
  motion::FallOptions fall{};
  motion::CollectorOptions collector{};
  RealtimeOptions realtime{};  // control/realtime.hpp
  GuardOptions guard{};        // control/guard.hpp: praxis-guard, on by default
};

}  // namespace praxis::control

// use_link_status is the runtime's to set (from the backend), and the collector's damping_kd
// follows the top-level damping_kd: neither is a setting of the file.
BOOST_HANA_ADAPT_STRUCT(praxis::motion::SafetyOptions, stale_timeout, tilt_threshold);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::FallOptions, falling_tilt, rest_rate, rest_time);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::CollectorOptions, max_kp, max_kd, max_target_rate);
BOOST_HANA_ADAPT_STRUCT(praxis::control::ThreadSchedule, fifo_priority, cpus);
BOOST_HANA_ADAPT_STRUCT(praxis::control::RealtimeOptions, receive, control, send, lock_memory, prefault_stack, prefault_heap,
                        timer_slack, cpu_latency);
BOOST_HANA_ADAPT_STRUCT(praxis::control::GuardOptions, enabled, executable, silence, start_timeout);
BOOST_HANA_ADAPT_STRUCT(praxis::control::RuntimeParams, damping_kd, stall_timeout, safety, fall, collector, realtime,
                        guard);

namespace praxis::control {

// Reads `file` into `options` (all or nothing). Call before constructing the controller.
inline void load_runtime_params(const std::filesystem::path& file, RuntimeOptions& options) {
  RuntimeParams p{options.damping_kd, options.stall_timeout, options.safety, options.fall, options.collector,
                  options.realtime, options.guard};
  io::load_struct_into(p, file);
  // Each range error names the key, what it must be and the value found (the first one wins).
  const auto out_of_range = [&](std::string_view key, std::string_view expected, double found) {
    std::ostringstream text;
    text << file.string() << ": key \"" << key << "\": expected " << expected << ", found " << found;
    throw io::ParamError(text.str());
  };
  if (!(p.damping_kd >= 0.0)) out_of_range("damping_kd", "a number >= 0", p.damping_kd);
  if (!(p.collector.max_kp >= 0.0)) out_of_range("collector.max_kp", "a number >= 0", p.collector.max_kp);
  if (!(p.collector.max_kd >= 0.0)) out_of_range("collector.max_kd", "a number >= 0", p.collector.max_kd);
  if (!(p.collector.max_target_rate > 0.0)) {
    out_of_range("collector.max_target_rate", "a number > 0 (rad/s)", p.collector.max_target_rate);
  }
  if (p.stall_timeout && !(*p.stall_timeout > Duration::zero())) {
    out_of_range("stall_timeout", "a duration > 0 (s)", to_seconds(*p.stall_timeout));
  }
  if (!(p.safety.stale_timeout > Duration::zero())) {
    out_of_range("safety.stale_timeout", "a duration > 0 (s)", to_seconds(p.safety.stale_timeout));
  }
  if (p.guard.silence && !(*p.guard.silence > Duration::zero())) {
    out_of_range("guard.silence", "a duration > 0 (s)", to_seconds(*p.guard.silence));
  }
  if (p.realtime.cpu_latency && p.realtime.cpu_latency->count() < 0) {
    out_of_range("realtime.cpu_latency", "a duration >= 0 (s)", 1e-6 * static_cast<double>(p.realtime.cpu_latency->count()));
  }
  options.damping_kd = p.damping_kd;
  options.stall_timeout = p.stall_timeout;
  options.safety = p.safety;
  options.fall = p.fall;
  options.collector = p.collector;
  options.realtime = p.realtime;
  options.guard = p.guard;
}

}  // namespace praxis::control
