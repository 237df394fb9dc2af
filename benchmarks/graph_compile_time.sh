#!/usr/bin/env bash
# Compile-time budget of the graph: generates pipelines of 16 to 512 nodes (random-looking DAGs
# with two inputs per node, declared in scrambled order), compiles each with every compiler and
# records wall time, CPU time (user + system: steadier than wall time on a shared machine) and peak
# memory. Prints a Markdown table and writes JSON.
#
# Two ways to build each graph ("variants"): `types` default-constructs Pipeline<Gen<...>...>;
# `values` passes one node value per node to make_pipeline(), which must not cost much more.
#
#   benchmarks/graph_compile_time.sh [--compilers "g++ clang++-14"] [--sizes "16 64 256 512"]
#                                    [--variants "types values"] [--json FILE] [--update-docs]
#                                    [--check]
#
# --update-docs rewrites the table in docs/graph.md. --check fails when any graph fails to compile
# at the compilers' default limits, when the 64-node graph needs more than 500 MB with g++, or when
# peak memory grows faster than about linearly (a graph of twice the nodes needing more than 2.5
# times the memory). Time is only reported: on a shared machine it is too noisy to assert.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
compilers="g++ clang++-14"
sizes="16 64 256 512"
variants="types values"
json=""
update_docs=0
check=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --compilers) compilers="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --variants) variants="$2"; shift 2 ;;
    --json) json="$2"; shift 2 ;;
    --update-docs) update_docs=1; shift ;;
    --check) check=1; shift ;;
    *) echo "graph_compile_time.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "graph_compile_time.sh: /usr/bin/time is missing (package 'time')" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() {  # $1 = node count, $2 = variant
  local n=$1 variant=$2 f="$work/graph_$1_$2.cpp"
  {
    cat <<CPP
#include <array>
#include <string_view>
#include "praxis/graph/pipeline.hpp"
inline constexpr std::size_t k_n = $n;
inline constexpr auto k_names = [] {
  std::array<std::array<char, 6>, k_n> names{};
  for (std::size_t i = 0; i < k_n; ++i) {
    names[i][0] = 'w';
    names[i][1] = static_cast<char>('0' + i / 1000);
    names[i][2] = static_cast<char>('0' + (i / 100) % 10);
    names[i][3] = static_cast<char>('0' + (i / 10) % 10);
    names[i][4] = static_cast<char>('0' + i % 10);
  }
  return names;
}();
template <std::size_t I> struct W { using type = long; static constexpr std::string_view name{k_names[I].data()}; };
constexpr std::size_t dep_a(std::size_t i) { return (i * 7 + 3) % i; }
constexpr std::size_t dep_b(std::size_t i) { return (i * 13 + 5) % (i - 1); }
template <std::size_t I> struct Gen {
  using inputs = praxis::ports<W<dep_a(I)>, W<dep_b(I)>>;
  using outputs = praxis::ports<W<I>>;
  void cycle(const long& a, const long& b, long& out) { out = a + 2 * b + static_cast<long>(I); }
};
template <> struct Gen<0> { using outputs = praxis::ports<W<0>>; long s = 1; void cycle(long& o) { o = ++s; } };
template <> struct Gen<1> { using inputs = praxis::ports<W<0>>; using outputs = praxis::ports<W<1>>; void cycle(const long& a, long& o) { o = 3 * a; } };
CPP
    # Scrambled declaration order: a stride coprime to n.
    local stride=37
    while (( $(gcd $stride "$n") != 1 )); do stride=$((stride + 2)); done
    if [[ $variant == types ]]; then
      printf 'using Graph = praxis::Pipeline<'
      for ((k = 0; k < n; ++k)); do
        (( k > 0 )) && printf ', '
        printf 'Gen<%d>' $(( (k * stride) % n ))
      done
      printf '>;\n'
      printf 'int main() { Graph g; g.cycle(); return static_cast<int>(g.get<W<%d>>() & 1); }\n' $((n - 1))
    else
      printf 'int main() {\n  auto g = praxis::make_pipeline('
      for ((k = 0; k < n; ++k)); do
        (( k > 0 )) && printf ', '
        printf 'Gen<%d>{}' $(( (k * stride) % n ))
      done
      printf ');\n  g.cycle();\n  return static_cast<int>(g.get<W<%d>>() & 1);\n}\n' $((n - 1))
    fi
  } > "$f"
  echo "$f"
}
gcd() { local a=$1 b=$2; while (( b )); do local t=$((a % b)); a=$b; b=$t; done; echo "$a"; }

rows=()
json_rows=()
failed=0
declare -A peak  # "<compiler> <variant> <nodes>" -> peak MB, for the growth check
for n in $sizes; do
  for variant in $variants; do
    src=$(generate "$n" "$variant")
    for cxx in $compilers; do
      if ! command -v "$cxx" >/dev/null; then echo "skipping $cxx: not installed" >&2; continue; fi
      version=$("$cxx" -dumpfullversion -dumpversion 2>/dev/null | head -1)
      if /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$cxx" -std=c++20 -O2 -I"$root/include" -c "$src" \
           -o "$work/out.o" 2>"$work/err"; then
        read -r secs user sys kb < "$work/time"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        mb=$((kb / 1024))
        peak["$cxx $variant $n"]=$mb
        rows+=("| $n | $variant | $cxx $version | $secs | $cpu | $mb |")
        json_rows+=("{\"nodes\": $n, \"variant\": \"$variant\", \"compiler\": \"$cxx\", \"version\": \"$version\", \"seconds\": $secs, \"cpu_seconds\": $cpu, \"peak_mb\": $mb}")
        if (( check )) && [[ $n == 64 && $("$cxx" --version) != *clang* ]] && (( mb >= 500 )); then
          echo "BUDGET EXCEEDED: the 64-node graph ($variant) took $mb MB with $cxx (budget 500 MB)" >&2
          failed=1
        fi
        half=$((n / 2))
        if (( check )) && [[ -n ${peak["$cxx $variant $half"]:-} ]] \
             && (( mb * 10 > ${peak["$cxx $variant $half"]} * 25 )); then
          echo "GROWTH EXCEEDED: $n nodes ($variant) took $mb MB with $cxx, more than 2.5 times" \
               "the ${peak["$cxx $variant $half"]} MB of $half nodes" >&2
          failed=1
        fi
      else
        rows+=("| $n | $variant | $cxx $version | failed | - | - |")
        json_rows+=("{\"nodes\": $n, \"variant\": \"$variant\", \"compiler\": \"$cxx\", \"version\": \"$version\", \"failed\": true}")
        echo "the $n-node graph ($variant) failed to compile with $cxx:" >&2
        head -20 "$work/err" | cut -c1-300 >&2
        failed=1
      fi
    done
  done
done

table=$(printf '%s\n' "| nodes | built from | compiler | seconds | CPU seconds | peak MB |" "|---:|---|---|---:|---:|---:|" "${rows[@]}")
echo "$table"

if [[ -n "$json" ]]; then
  { printf '{"benchmark": "graph_compile_time", "cores": %s, "results": [\n' "$(nproc)"
    (IFS=$',\n'; printf '%s' "$(printf '%s,\n' "${json_rows[@]}" | sed '$ s/,$//')")
    printf '\n]}\n'; } > "$json"
  echo "results written to $json"
fi

if (( update_docs )); then
  doc="$root/docs/graph.md"
  begin='<!-- compile-time-table:begin -->'
  end='<!-- compile-time-table:end -->'
  grep -q "$begin" "$doc" || { echo "no '$begin' marker in $doc" >&2; exit 1; }
  awk -v b="$begin" -v e="$end" -v t="$table" '
    $0 == b { print; print t; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$doc" > "$work/doc" && cp "$work/doc" "$doc"
  echo "updated $doc"
fi
exit $failed
