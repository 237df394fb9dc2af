#!/usr/bin/env bash
# Installs what is missing, then builds everything with g++ and with clang++ (warnings are errors)
# and runs all tests with each. This is what CI runs.
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
