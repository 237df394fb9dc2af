#!/usr/bin/env bash
# Compile-time cost of the reflection helpers (io/reflect*.hpp): compiles
# benchmarks/reflect_compile_probe.cpp, one 20-member parameter struct, three ways with every
# compiler and records the fastest of --runs wall times, the CPU time of that run and peak memory:
#   baseline   plain struct, names and values written by hand
#   fields     Hana struct + reflect_fields.hpp (column names, value visit)
#   reflect    Hana struct + reflect.hpp (also load_struct from JSON and CsvRecorder)
# Prints a Markdown table and optionally writes JSON. Kept apart from graph_compile_time.sh, which
# measures the graph.
#
#   benchmarks/reflect_compile_time.sh [--compilers "g++ clang++-14"] [--runs 3] [--json FILE]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
compilers="g++ clang++-14"
runs=3
json=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --compilers) compilers="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --json) json="$2"; shift 2 ;;
    *) echo "reflect_compile_time.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "reflect_compile_time.sh: /usr/bin/time is missing (package 'time')" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$root/benchmarks/reflect_compile_probe.cpp"

declare -A defines=([baseline]="" [fields]="-DPRAXIS_PROBE_FIELDS" [reflect]="-DPRAXIS_PROBE_REFLECT")
rows=()
json_rows=()
failed=0
for cxx in $compilers; do
  if ! command -v "$cxx" >/dev/null; then echo "skipping $cxx: not installed" >&2; continue; fi
  version=$("$cxx" -dumpfullversion -dumpversion 2>/dev/null | head -1)
  for variant in baseline fields reflect; do
    best="" best_cpu="" peak=0
    for ((r = 0; r < runs; ++r)); do
      # shellcheck disable=SC2086  # the define is one word or none
      if ! /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$cxx" -std=c++20 -O2 -I"$root/include" \
             ${defines[$variant]} -c "$src" -o "$work/out.o" 2>"$work/err"; then
        echo "the $variant probe failed to compile with $cxx:" >&2
        head -20 "$work/err" >&2
        failed=1
        continue 2
      fi
      read -r secs user sys kb < "$work/time"
      cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      if [[ -z $best ]] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
        best=$secs best_cpu=$cpu
      fi
      (( kb > peak )) && peak=$kb
    done
    mb=$((peak / 1024))
    rows+=("| $variant | $cxx $version | $best | $best_cpu | $mb |")
    json_rows+=("{\"variant\": \"$variant\", \"compiler\": \"$cxx\", \"version\": \"$version\", \"seconds\": $best, \"cpu_seconds\": $best_cpu, \"peak_mb\": $mb}")
  done
done

printf '%s\n' "| probe | compiler | wall s (best of $runs) | CPU s | peak MB |" "|---|---|---:|---:|---:|" "${rows[@]}"

if [[ -n "$json" ]]; then
  { printf '{"benchmark": "reflect_compile_time", "cores": %s, "runs": %s, "results": [\n' "$(nproc)" "$runs"
    printf '%s,\n' "${json_rows[@]}" | sed '$ s/,$//'
    printf ']}\n'; } > "$json"
  echo "results written to $json"
fi
exit $failed
