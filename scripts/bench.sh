#!/usr/bin/env bash
# Runs every benchmark, prints one table, writes JSON and draws the PNGs:
#   bash scripts/bench.sh [--out DIR] [--quick]
# DIR defaults to build/bench-results/<timestamp>; it gets one JSON per benchmark, results.json
# (all of them merged, with the table's rows and ratios, and the machine's and Cyclone's floor from
# scripts/bench-floor.sh), table.md, samples/*.csv (raw samples per
# series) and the PNGs. --quick runs short versions (a few seconds each) so CI can smoke-test the
# whole chain; the exit status is nonzero when any benchmark, the merge or a plot fails.
# Builds Release at -O2 with g++ in build/bench (warnings are errors), one job at a time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

out=""
quick=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -z $out ]] && out="$root/build/bench-results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/samples"
out=$(cd "$out" && pwd)

bash "$root/scripts/install-deps.sh"
bash "$root/scripts/install-bench-deps.sh"

build="$root/build/bench"
targets=(bench_graph_overhead bench_controller_cycle bench_vendor_cycle bench_codec bench_period_error
         bench_dds_echo_latency bench_unitree_transport bench_observe bench_policy bench_sim bench_report)
echo "=== build (Release -O2, g++) in $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
      -DCMAKE_CXX_COMPILER=g++ -DPRAXIS_WARNINGS_AS_ERRORS=ON -DPRAXIS_BUILD_TESTS=OFF \
      -DPRAXIS_BUILD_EXAMPLES=ON -DPRAXIS_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "${PRAXIS_BENCH_JOBS:-1}" --target "${targets[@]}"

export PRAXIS_BENCH_SAMPLES_DIR="$out/samples"
if [[ $quick == 1 ]]; then export PRAXIS_BENCH_QUICK=1; else unset PRAXIS_BENCH_QUICK; fi

failed=()
for b in "${targets[@]}"; do
  [[ $b == bench_report ]] && continue
  name=${b#bench_}
  echo "=== $b"
  # The benchmarks use DDS domains 200-229 only, so they do not meet the tests' traffic.
  if ! "$build/benchmarks/$b" "$out/$name.json" > "$out/$name.log" 2>&1; then
    failed+=("$b")
    echo "FAILED: $b (log: $out/$name.log)" >&2
    tail -20 "$out/$name.log" >&2
  fi
done

echo "=== machine"
{
  uname -srm
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|CPU max MHz)' || true
  g++ --version | head -1
} | tee "$out/machine.txt"

echo "=== the floor: cyclictest and ddsperf, same run"
bash "$root/scripts/bench-floor.sh" "$out" $([[ $quick == 1 ]] && echo --quick) || failed+=(floor)

echo "=== results ($out)"
"$build/benchmarks/bench_report" "$out" || failed+=(bench_report)
bash "$root/scripts/bench-plots.sh" "$out" || failed+=(plots)

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "bench.sh: failed: ${failed[*]}" >&2
  exit 1
fi
