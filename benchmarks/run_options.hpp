#pragma once
// What scripts/bench.sh tells every benchmark, through the environment so each binary keeps its
// own command line: PRAXIS_BENCH_QUICK=1 asks for a short smoke run (CI), and
// PRAXIS_BENCH_SAMPLES_DIR=DIR asks for the raw samples of each series (one CSV per series) for the
// histograms. Neither changes what is measured, only how long and what is kept.

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace praxis::bench {

inline bool quick() {
  const char* v = std::getenv("PRAXIS_BENCH_QUICK");
  return v != nullptr && std::string_view(v) != "" && std::string_view(v) != "0";
}

// `full` normally, `short_run` under PRAXIS_BENCH_QUICK.
template <class T>
T scaled(T full, T short_run) {
  return quick() ? short_run : full;
}

// Writes `values` (one per line) to $PRAXIS_BENCH_SAMPLES_DIR/<benchmark>__<series>.csv; does
// nothing when the variable is unset. Called after measuring, never inside a timed loop.
inline void dump_samples(std::string_view benchmark, std::string_view series, const std::vector<double>& values) {
  const char* dir = std::getenv("PRAXIS_BENCH_SAMPLES_DIR");
  if (dir == nullptr || *dir == '\0') return;
  const std::string path = std::string(dir) + "/" + std::string(benchmark) + "__" + std::string(series) + ".csv";
  std::ofstream out(path);
  if (!out) {
    std::fprintf(stderr, "cannot write samples to '%s'\n", path.c_str());
    return;
  }
  for (double v : values) out << v << '\n';
}

}  // namespace praxis::bench
