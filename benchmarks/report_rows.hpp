#pragma once
// The rows a benchmark hands to scripts/bench.sh's merged table: one per measured series, with the
// baseline it is compared with (by name, measured in the same run) and, where counted, heap
// allocations per call. Each benchmark adds them under "report" in its own JSON; bench_report
// computes the ratios, so every table derives them the same way.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace praxis::bench {

// A goal the row is held to (an issue's acceptance numbers), checked by bench_report across every
// benchmark of the run: this row's p99 at most `p99_ratio` times the other row's p99, and/or at most
// the other row's p99 plus `p99_plus_ns`. `against` names a row of any benchmark (the floor's
// included); empty means the row's own baseline.
struct Goal {
  std::string against;
  std::optional<double> p99_ratio{};
  std::optional<double> p99_plus_ns{};
  std::optional<double> max_ratio{};
};

struct ReportRow {
  std::string name;
  Distribution ns;
  std::string baseline;                  // the name of another row of the same benchmark, or empty
  std::optional<double> allocations;     // per call, when the benchmark counts them
  // Minor page faults of the measuring thread over the series after its warm-up, when counted: 0
  // means the cycle touched no memory the kernel had to find for it.
  std::optional<double> minor_faults{};
  std::optional<Goal> goal{};
};

inline nlohmann::json report_json(const std::vector<ReportRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json j = to_json(r.ns);
    j["name"] = r.name;
    j["baseline"] = r.baseline;
    j["allocations"] = r.allocations ? nlohmann::json(*r.allocations) : nlohmann::json(nullptr);
    j["minor_faults"] = r.minor_faults ? nlohmann::json(*r.minor_faults) : nlohmann::json(nullptr);
    if (r.goal) {
      const auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
      j["goal"] = {{"against", r.goal->against.empty() ? r.baseline : r.goal->against},
                   {"p99_ratio", opt(r.goal->p99_ratio)},
                   {"p99_plus_ns", opt(r.goal->p99_plus_ns)},
                   {"max_ratio", opt(r.goal->max_ratio)}};
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace praxis::bench
