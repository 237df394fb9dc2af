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

struct ReportRow {
  std::string name;
  Distribution ns;
  std::string baseline;                  // the name of another row of the same benchmark, or empty
  std::optional<double> allocations;     // per call, when the benchmark counts them
  // Minor page faults of the measuring thread over the series after its warm-up, when counted: 0
  // means the cycle touched no memory the kernel had to find for it.
  std::optional<double> minor_faults{};
};

inline nlohmann::json report_json(const std::vector<ReportRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json j = to_json(r.ns);
    j["name"] = r.name;
    j["baseline"] = r.baseline;
    j["allocations"] = r.allocations ? nlohmann::json(*r.allocations) : nlohmann::json(nullptr);
    j["minor_faults"] = r.minor_faults ? nlohmann::json(*r.minor_faults) : nlohmann::json(nullptr);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace praxis::bench
