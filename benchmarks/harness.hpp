#pragma once
// A small benchmark harness: interleaved batches of a candidate and its baseline in one process,
// medians over batches, a printed table and a JSON file. Written for praxis because the listed
// dependencies have no benchmark library; it only needs what a ratio between two variants needs.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace praxis::bench {

struct Distribution {
  double p50 = 0, p99 = 0, p999 = 0, min = 0, max = 0, mean = 0;
  std::size_t samples = 0;
};

inline Distribution summarize(std::vector<double> v) {
  Distribution d;
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
  };
  d.p50 = at(0.5);
  d.p99 = at(0.99);
  d.p999 = at(0.999);
  d.min = v.front();
  d.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  d.mean = sum / static_cast<double>(v.size());
  d.samples = v.size();
  return d;
}

// Runs `candidate` and `baseline` in alternating batches of `per_batch` calls and returns the
// per-call time (ns) of every batch for each.
inline std::pair<std::vector<double>, std::vector<double>> interleaved(
    const std::function<void(std::size_t)>& candidate, const std::function<void(std::size_t)>& baseline,
    std::size_t batches, std::size_t per_batch) {
  using clock = std::chrono::steady_clock;
  std::vector<double> a, b;
  a.reserve(batches);
  b.reserve(batches);
  auto time = [&](const std::function<void(std::size_t)>& f) {
    const auto t0 = clock::now();
    f(per_batch);
    const auto t1 = clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(per_batch);
  };
  candidate(per_batch);  // warm-up
  baseline(per_batch);
  for (std::size_t i = 0; i < batches; ++i) {
    if (i % 2 == 0) {
      a.push_back(time(candidate));
      b.push_back(time(baseline));
    } else {
      b.push_back(time(baseline));
      a.push_back(time(candidate));
    }
  }
  return {a, b};
}

struct Row {
  std::string name;
  Distribution ns;
};

inline void print_table(const std::string& title, const std::vector<Row>& rows) {
  std::printf("\n%s\n", title.c_str());
  std::printf("  %-34s %10s %10s %10s %10s %10s\n", "variant", "p50 ns", "p99 ns", "p99.9 ns", "max ns",
              "samples");
  for (const auto& r : rows) {
    std::printf("  %-34s %10.1f %10.1f %10.1f %10.1f %10zu\n", r.name.c_str(), r.ns.p50, r.ns.p99,
                r.ns.p999, r.ns.max, r.ns.samples);
  }
}

inline nlohmann::json to_json(const Distribution& d) {
  return {{"p50_ns", d.p50}, {"p99_ns", d.p99}, {"p999_ns", d.p999}, {"min_ns", d.min},
          {"max_ns", d.max}, {"mean_ns", d.mean}, {"samples", d.samples}};
}

inline void write_json(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "cannot write benchmark results to '%s'\n", path.c_str());
    return;
  }
  out << j.dump(2) << '\n';
  std::printf("\nresults written to %s\n", path.c_str());
}

// Keeps a value alive so the optimiser cannot delete the work that produced it.
template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

}  // namespace praxis::bench
