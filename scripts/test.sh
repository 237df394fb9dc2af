#!/usr/bin/env bash
# Installs what is missing, then builds everything with g++ and with clang++ (warnings are errors)
# and runs all tests with each, then a subset under AddressSanitizer and UBSan. This is what CI runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/install-deps.sh"

jobs=$(nproc)
compilers=(${PRAXIS_TEST_COMPILERS:-g++ clang++-14})
for cxx in "${compilers[@]}"; do
  dir="$root/build/test-$cxx"
  echo "=== $cxx: configure, build, test ($dir)"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
        -DPRAXIS_WARNINGS_AS_ERRORS=ON -DPRAXIS_BUILD_TESTS=ON -DPRAXIS_BUILD_EXAMPLES=ON \
        -DPRAXIS_BUILD_BENCHMARKS=ON >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure
done

# A third build with AddressSanitizer and UndefinedBehaviorSanitizer (g++): the graph headers must
# compile with whatever flags a user builds with, and the graph, the motion layer, the runtime and
# the examples that build graphs must run clean under them. A subset, to keep CI time reasonable; no DDS.
# Warnings are not errors here: sanitizers make g++'s flow-based warnings fire on correct code, and
# the two builds above already hold the code to -Werror.
# PRAXIS_TEST_SANITIZE=0 skips it.
if [[ ${PRAXIS_TEST_SANITIZE:-1} != 0 ]]; then
  dir="$root/build/test-sanitize"
  echo "=== g++ -fsanitize=address,undefined: configure, build, test ($dir)"
  # -O1 -g1 instead of -O2 -g: a quarter of the compile time (variable tracking for full debug
  # information dominates with these templates), and still line numbers in every report.
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=g++ \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DPRAXIS_WARNINGS_AS_ERRORS=OFF \
        -DPRAXIS_SANITIZE=address,undefined -DPRAXIS_WITH_DDS=OFF -DPRAXIS_TSAN_TESTS=OFF -DPRAXIS_BUILD_TESTS=ON -DPRAXIS_BUILD_EXAMPLES=ON \
        -DPRAXIS_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$dir" -j "$jobs" --target graph_tests motion_tests control_tests booster_interface_tests \
        praxis_graph_demo praxis_demo praxis_motion_demo
  export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --no-tests=error \
        -R '^(graph_tests|motion_tests|control_tests|booster_interface_tests):|^example: praxis_|^docs: motion_pipeline'
  "$dir/examples/praxis_graph_demo" --cycles 2000 >/dev/null
fi
