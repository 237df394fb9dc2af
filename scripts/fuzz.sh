#!/usr/bin/env bash
# Coverage-guided fuzzing of praxis' decoders and loaders (fuzz/README.md).
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--build-dir DIR --no-build] [target...]
# Configures a clang-14 build in build/fuzz with PRAXIS_BUILD_FUZZERS=ON, builds the fuzz targets
# and runs each for N seconds (default 30), J at a time (default 1; J is also the build's -j), on a
# copy of fuzz/corpus/<name>/ plus fuzz/regressions/<name>/: the repository's corpus does not grow.
# A crash, leak, timeout or broken property is copied into fuzz/regressions/<name>/, where the
# "fuzz regression: <name>" test replays it from then on, and the script fails saying so.
# Without targets: every fuzz/*_fuzz.cpp. Environment: PRAXIS_FUZZ_CXX (default clang++-14),
# PRAXIS_FUZZ_BUILD (default build/fuzz). --build-dir DIR --no-build runs the fuzzers of a build
# made elsewhere (CI: its clang ASan+UBSan build configured with PRAXIS_BUILD_FUZZERS=ON).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=30
jobs=1
build_it=1
build=${PRAXIS_FUZZ_BUILD:-$root/build/fuzz}
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --no-build) build_it=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (expected --seconds N, --jobs J, target names)" >&2; exit 2 ;;
    *) targets+=("${1%_fuzz}"); shift ;;
  esac
done
# Absolute: each fuzzer runs inside its own folder, so a relative --build-dir would not resolve there.
mkdir -p "$build"
build=$(cd "$build" && pwd)
if [[ ${#targets[@]} -eq 0 ]]; then
  for source in "$root"/fuzz/*_fuzz.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name%_fuzz}")
  done
fi
for t in "${targets[@]}"; do
  if [[ ! -f "$root/fuzz/${t}_fuzz.cpp" ]]; then
    echo "fuzz.sh: no fuzz target '$t' (expected fuzz/${t}_fuzz.cpp)" >&2
    exit 2
  fi
done

if [[ $build_it == 1 ]]; then
  cxx=${PRAXIS_FUZZ_CXX:-clang++-14}
  cc=${cxx/clang++/clang}
  echo "=== configure $build ($cxx, PRAXIS_BUILD_FUZZERS=ON)"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DPRAXIS_WARNINGS_AS_ERRORS=ON \
        -DPRAXIS_BUILD_FUZZERS=ON -DPRAXIS_BUILD_TESTS=OFF -DPRAXIS_BUILD_EXAMPLES=OFF \
        -DPRAXIS_BUILD_BENCHMARKS=OFF >/dev/null
  echo "=== build ${targets[*]}"
  cmake --build "$build" -j "$jobs" --target "${targets[@]/%/_fuzz}"
fi
for t in "${targets[@]}"; do
  [[ -x "$build/fuzz/${t}_fuzz" ]] || { echo "fuzz.sh: $build/fuzz/${t}_fuzz not built (PRAXIS_BUILD_FUZZERS=ON with clang?)" >&2; exit 2; }
done

runs="$build/fuzz-runs"
rm -rf "$runs"
mkdir -p "$runs"

# One target: fuzz a copy of its seeds; on a finding keep the reproducer. Writes <name>.summary.
fuzz_one() {
  set +e  # a background job of its own: a failing grep must not end it before the summary
  local name=$1 dir="$runs/$1"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp "$root/fuzz/corpus/$name"/* "$dir/corpus/" 2>/dev/null || true
  if [[ -d "$root/fuzz/regressions/$name" ]]; then
    find "$root/fuzz/regressions/$name" -type f ! -name README.md -exec cp {} "$dir/corpus/" \;
  fi
  local rc=0
  (cd "$dir" && "$build/fuzz/${name}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1) || rc=$?
  local executed coverage
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f2)
  [[ -n $coverage ]] || coverage=$(grep -o 'INITED cov: [0-9]*' "$dir/log" | tail -1 | cut -d' ' -f3)
  local result="ok"
  local artifacts=("$dir"/artifacts/*)
  if [[ $rc -ne 0 || -e ${artifacts[0]} ]]; then
    result="FINDING (exit $rc, log $dir/log)"
    if [[ -e ${artifacts[0]} ]]; then
      mkdir -p "$root/fuzz/regressions/$name"
      for a in "${artifacts[@]}"; do
        cp "$a" "$root/fuzz/regressions/$name/"
        result+="; reproducer copied to fuzz/regressions/$name/$(basename "$a")"
      done
    fi
  fi
  printf '%-22s runs %-10s coverage %-6s %s\n' "$name" "${executed:-?}" "${coverage:-?}" "$result" >"$runs/$name.summary"
}

echo "=== fuzz ${#targets[@]} target(s), ${seconds} s each, $jobs at a time"
running=0
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  running=$((running + 1))
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=0
for t in "${targets[@]}"; do
  if [[ ! -f "$runs/$t.summary" ]]; then
    echo "$t: no result (see $runs/$t/log)"
    failed=1
    continue
  fi
  cat "$runs/$t.summary"
  if grep -q FINDING "$runs/$t.summary"; then failed=1; fi
done
if [[ $failed -ne 0 ]]; then
  echo "fuzz.sh: findings above; their reproducers are now in fuzz/regressions/ - fix the code, keep the files" \
       "(the 'fuzz regression' tests replay them) and commit both" >&2
  exit 1
fi
