// bench_report DIR: merges the JSON every benchmark wrote into DIR into DIR/results.json and prints
// one table of all their rows: p50 / p99 / p99.9 / max, allocations per call where counted, and
// the ratio of medians against the row's baseline. Baselines come from the same benchmark file,
// so every ratio compares two series measured in the same run. Exits 1 when a file does not parse.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

// Nanoseconds as the shortest readable unit, so microsecond and nanosecond rows share a column.
std::string duration_text(double ns) {
  char buf[32];
  if (ns >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  } else if (ns >= 1e4) {
    std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  }
  return buf;
}

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", r);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_report RESULTS_DIR\n");
    return 2;
  }
  const fs::path dir = argv[1];
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".json" && e.path().filename() != "results.json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());

  nlohmann::json merged{{"benchmarks", nlohmann::json::object()}, {"rows", nlohmann::json::array()}};
  bool ok = true;
  for (const auto& path : files) {
    nlohmann::json j;
    try {
      std::ifstream in(path);
      in >> j;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_report: %s: %s\n", path.c_str(), e.what());
      ok = false;
      continue;
    }
    const std::string benchmark = j.value("benchmark", path.stem().string());
    merged["benchmarks"][benchmark] = j;
    if (!j.contains("report")) continue;
    for (auto row : j["report"]) {
      row["benchmark"] = benchmark;
      const std::string base = row.value("baseline", "");
      row["ratio_p50"] = nullptr;
      row["ratio_p99"] = nullptr;
      for (const auto& other : j["report"]) {
        if (!base.empty() && other.value("name", "") == base && other.value("p50_ns", 0.0) > 0) {
          row["ratio_p50"] = row.value("p50_ns", 0.0) / other.value("p50_ns", 1.0);
          row["ratio_p99"] = row.value("p99_ns", 0.0) / other.value("p99_ns", 1.0);
        }
      }
      merged["rows"].push_back(row);
    }
  }

  std::string markdown =
      "| benchmark | series | p50 | p99 | p99.9 | max | allocs/call | ratio p50 | ratio p99 |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  std::printf("\n%-18s %-52s %10s %10s %10s %10s %8s %7s %7s\n", "benchmark", "series", "p50", "p99", "p99.9",
              "max", "allocs", "x p50", "x p99");
  for (const auto& r : merged["rows"]) {
    char allocs_text[16] = "-";  // %g: a rare allocation (1e-05 per cycle) must not print as 0
    if (!r["allocations"].is_null()) std::snprintf(allocs_text, sizeof allocs_text, "%.2g", r["allocations"].get<double>());
    const std::string allocs = allocs_text;
    char ratio50[16] = "-", ratio99[16] = "-";
    if (!r["ratio_p50"].is_null()) {
      std::snprintf(ratio50, sizeof ratio50, "%.3f", r["ratio_p50"].get<double>());
      std::snprintf(ratio99, sizeof ratio99, "%.3f", r["ratio_p99"].get<double>());
    }
    std::printf("%-18s %-52s %10s %10s %10s %10s %8s %7s %7s\n", r.value("benchmark", "").c_str(),
                r.value("name", "").c_str(), duration_text(r.value("p50_ns", 0.0)).c_str(),
                duration_text(r.value("p99_ns", 0.0)).c_str(), duration_text(r.value("p999_ns", 0.0)).c_str(),
                duration_text(r.value("max_ns", 0.0)).c_str(), allocs.c_str(), ratio50, ratio99);
    markdown += "| " + r.value("benchmark", "") + " | " + r.value("name", "") + " | " +
                duration_text(r.value("p50_ns", 0.0)) + " | " + duration_text(r.value("p99_ns", 0.0)) + " | " +
                duration_text(r.value("p999_ns", 0.0)) + " | " + duration_text(r.value("max_ns", 0.0)) + " | " +
                allocs + " | " + ratio50 + " | " + ratio99 + " |\n";
  }
  std::printf("(x p50 / x p99: this series over its baseline, the row named in results.json, same run)\n");

  // The goals rows carry, against rows of any benchmark of this run (the floor's included).
  nlohmann::json goals = nlohmann::json::array();
  for (const auto& r : merged["rows"]) {
    if (!r.contains("goal")) continue;
    const auto& g = r["goal"];
    const std::string against = g.value("against", "");
    const nlohmann::json* other = nullptr;
    for (const auto& o : merged["rows"]) {
      if (o.value("name", "") == against) other = &o;
    }
    nlohmann::json verdict{{"row", r.value("name", "")}, {"against", against}};
    std::string text;
    if (other == nullptr) {
      verdict["met"] = nullptr;
      text = "not checked: no row \"" + against + "\" in this run";
    } else {
      bool met = true;
      const double p99 = r.value("p99_ns", 0.0), their_p99 = other->value("p99_ns", 0.0);
      const double max = r.value("max_ns", 0.0), their_max = other->value("max_ns", 0.0);
      if (!g["p99_ratio"].is_null()) {
        const double limit = g["p99_ratio"].get<double>() * their_p99;
        met = met && p99 <= limit;
        text += "p99 " + duration_text(p99) + " <= " + duration_text(limit) + " (" + ratio_text(g["p99_ratio"].get<double>()) + " theirs)? ";
      }
      if (!g["p99_plus_ns"].is_null()) {
        const double limit = their_p99 + g["p99_plus_ns"].get<double>();
        met = met && p99 <= limit;
        text += "p99 " + duration_text(p99) + " <= " + duration_text(limit) + " (theirs + " + duration_text(g["p99_plus_ns"].get<double>()) + ")? ";
      }
      if (!g["max_ratio"].is_null()) {
        const double limit = g["max_ratio"].get<double>() * their_max;
        met = met && max <= limit;
        text += "max " + duration_text(max) + " <= " + duration_text(limit) + "? ";
      }
      verdict["met"] = met;
      text += met ? "met" : "MISSED";
    }
    verdict["text"] = text;
    std::printf("goal: %s against %s: %s\n", r.value("name", "").c_str(), against.c_str(), text.c_str());
    markdown += "\ngoal: " + r.value("name", "") + " against " + against + ": " + text + "\n";
    goals.push_back(std::move(verdict));
  }
  merged["goals"] = goals;

  std::ofstream(dir / "table.md") << markdown;
  std::ofstream out(dir / "results.json");
  out << merged.dump(2) << '\n';
  std::printf("merged results: %s\n", (dir / "results.json").c_str());
  return ok && out ? 0 : 1;
}
