#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole suite twice. This is what CI runs.
#   1. g++ -O2, warnings are errors: every test, example and benchmark; the threaded runtime under
#      ThreadSanitizer (its own targets); the fault soak at full length (1,000,000 cycles). The fuzz
#      corpora and regression inputs are replayed in stage 2, under libFuzzer with the sanitizers
#      (a plain replay found nothing that one did not; left out to keep CI within its 45 minutes).
#   2. clang++-14 with AddressSanitizer + UndefinedBehaviorSanitizer, warnings are errors: every test,
#      the fake robots and the DDS suites that run against them, plus the libFuzzer targets, each run
#      for a bounded time on the seed corpus kept in fuzz/corpus. The demo programs (praxis_demo,
#      praxis-replay, praxis_motion_demo, the first programs) and their tests are left out
#      (PRAXIS_BUILD_DEMOS=OFF: a third of this stage's compile time; build 1 runs them).
#   gcc-asan (not run by default): g++ with AddressSanitizer + UndefinedBehaviorSanitizer, the library
#      and every test that needs no example program. It ran in CI until 2026-11-28 and found nothing
#      stage 2 did not; it was dropped to keep CI within its 45 minutes (docs/reliability.md, "Time").
#      PRAXIS_TEST_STAGES="gcc-asan" still runs it.
# The plain build is -O2 -g0, its examples -O1 (its TSan targets keep -g1 of their own: their reports
# need lines); the sanitized builds are -O0 -g1, their examples (the fake robots) -O1: at -O0 a fake's
# 1 kHz tick (a mock robot in Eigen, 30 joints) took 3 ms under ASan, its statuses fell behind and a
# walking story ended in "link lost". At -O0: g++ and clang compile this template-heavy code two
# to three times faster than at -O1 with the instrumentation, with line numbers in every report. Every build links
# with lld (about twice as fast as ld.bfd). A shared precompiled header was tried and measured
# slower here: a TU then loads and emits far more than it uses, and most of its time is the
# instantiation of its own templates.
#
# Environment: PRAXIS_TEST_STAGES (default "gcc clang-asan"; also "gcc-asan"), PRAXIS_TEST_OVERLAP (1: build
# the next stage while this one tests; see build_stage), PRAXIS_FUZZ_SECONDS
# (default 5 per fuzzer), PRAXIS_SOAK_CYCLES_SANITIZED (default 30000, the soak's length under
# sanitizers: enough to start every fault kind in every state; the plain build runs the full
# 1,000,000).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ ${1:-} != --build-stage ]]; then
  bash "$root/scripts/install-deps.sh"
  # gnuplot, so the plot-run.sh CTest runs here instead of skipping.
  bash "$root/scripts/install-bench-deps.sh"
  # Node.js, Chromium and the npm clients (pinned by tests/js/package-lock.json) that the observe
  # tests run against praxis: Foxglove's protocol client, the MCAP reader, puppeteer-core.
  bash "$root/scripts/install-js-test-deps.sh"
fi

jobs=$(nproc)
stages=(${PRAXIS_TEST_STAGES:-gcc clang-asan})
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
sanitized_flags="-O0 -g1"
# The label more_models: a vendor's further models in the examples' two-process tests (one model per
# vendor runs sanitized; examples/CMakeLists.txt).
# Tests that check the compiler, the installed package or a patched copy of the headers (the worked
# example of docs/motion.md), not run-time behaviour of this build: once per compiler
# in the plain builds is enough.
compile_only='^(compile_fail: |compile budget: |install: |worked example: )'
# The two-process test cases tagged [wallclock] (call rates, a distance turned during a sleep, no
# pause over 100 ms: wall-clock assertions) run in the plain stage only, as they do beside TSan
# (tests/CMakeLists.txt): under ASan at -O0 beside another test they failed on the machine's timing,
# never on a sanitizer's report (the Booster validation list's ChangeMode answered 409 after a stale
# state, a Tienkung story's IMU judged silent). CTest knows no Catch tags, so their names:
wallclock='(the validation list end to end|a robot that stops answering move_robot|every answer 60 ms late|call counts say how many calls the robot answered|take control of a fake Pro|a joint in velocity mode keeps turning|a killed robot means damping and after a restart)'

# Unity test suites: each suite's files compiled a few per translation unit, which roughly halves
# the tests' share of each build.
configure() {  # dir, compiler, extra cmake arguments...
  local dir=$1 cxx=$2
  shift 2
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
        -DPRAXIS_BUILD_TESTS=ON -DPRAXIS_BUILD_EXAMPLES=ON -DPRAXIS_UNITY_TESTS=ON "$@" >/dev/null
}

stamp() { echo "=== $(date -u +%H:%M:%S) $*"; }

# The stages' builds and tests as steps of their own. With PRAXIS_TEST_OVERLAP=1, while one stage's
# tests run the next stage builds in the background at nice 19 (a process group of its own, so a
# failure can stop it): a third of the plain stage's test time is DDS stories waiting on the robot's
# clock, and the build takes that idle CPU. Not the default: measured on 2026-11-28, nice 19 did not
# keep it off the tests' timing (the controller woke 5 ms late at p99, a fake's link came back late,
# a control thread starved 118 ms: three wall-clock failures in two clean-clone runs that had none
# without it), and the plain stage's tests took 13.3 minutes instead of 11.3.
build_stage() {
  case $1 in
    gcc)
      dir="$root/build/test-g++"
      stamp "g++ -O2, warnings as errors: configure, build ($dir)"
      configure "$dir" g++ -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g0 -DNDEBUG" -DPRAXIS_WARNINGS_AS_ERRORS=ON \
                -DPRAXIS_EXAMPLES_COMPILE_OPTIONS=-O1 \
                -DPRAXIS_BUILD_BENCHMARKS=ON -DPRAXIS_TSAN_TESTS=ON -DPRAXIS_BUILD_FUZZERS=OFF
      cmake --build "$dir" -j "$jobs"
      ;;
    clang-asan)
      dir="$root/build/test-clang-asan"
      stamp "clang++-14 -fsanitize=address,undefined, warnings as errors, fuzzers: configure, build ($dir)"
      configure "$dir" clang++-14 -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitized_flags -DNDEBUG" \
                -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitized_flags -DNDEBUG" \
                -DPRAXIS_WARNINGS_AS_ERRORS=ON -DPRAXIS_SANITIZE=address,undefined -DPRAXIS_TSAN_TESTS=OFF \
                -DPRAXIS_BUILD_BENCHMARKS=OFF -DPRAXIS_BUILD_FUZZERS=ON -DPRAXIS_BUILD_DEMOS=OFF \
                -DPRAXIS_EXAMPLES_COMPILE_OPTIONS=-O1
      cmake --build "$dir" -j "$jobs"
      ;;
    gcc-asan)
      dir="$root/build/test-g++-asan"
      stamp "g++ -fsanitize=address,undefined: configure, build ($dir)"
      configure "$dir" g++ -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitized_flags -DNDEBUG" \
                -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitized_flags -DNDEBUG" \
                -DPRAXIS_WARNINGS_AS_ERRORS=OFF -DPRAXIS_SANITIZE=address,undefined -DPRAXIS_TSAN_TESTS=OFF \
                -DPRAXIS_BUILD_BENCHMARKS=OFF -DPRAXIS_BUILD_EXAMPLES=OFF -DPRAXIS_WITH_OBSERVE=OFF
      cmake --build "$dir" -j "$jobs"
      ;;
  esac
}

test_stage() {
  case $1 in
    gcc)
      dir="$root/build/test-g++"
      stamp "g++ -O2: test ($dir)"
      PRAXIS_SOAK_CYCLES=${PRAXIS_SOAK_CYCLES:-1000000} ctest --test-dir "$dir" -j "$jobs" --output-on-failure
      ;;
    clang-asan)
      dir="$root/build/test-clang-asan"
      stamp "clang++-14 ASan+UBSan: test ($dir)"
      PRAXIS_SOAK_CYCLES=${PRAXIS_SOAK_CYCLES_SANITIZED:-30000} \
        ctest --test-dir "$dir" -j "$jobs" --output-on-failure -E "$compile_only|$wallclock" -LE more_models
      stamp "fuzzers, ${PRAXIS_FUZZ_SECONDS:-5} s each"
      bash "$root/scripts/fuzz.sh" --build-dir "$dir" --no-build --seconds "${PRAXIS_FUZZ_SECONDS:-5}" --jobs "$jobs"
      ;;
    gcc-asan)
      dir="$root/build/test-g++-asan"
      stamp "g++ ASan+UBSan: test ($dir)"
      PRAXIS_SOAK_CYCLES=${PRAXIS_SOAK_CYCLES_SANITIZED:-30000} \
        ctest --test-dir "$dir" -j "$jobs" --output-on-failure -E "$compile_only" -LE more_models
      ;;
  esac
}

for stage in "${stages[@]}"; do
  case $stage in
    gcc | clang-asan | gcc-asan) ;;
    *)
      echo "test.sh: unknown stage \"$stage\" in PRAXIS_TEST_STAGES (known: gcc clang-asan gcc-asan)" >&2
      exit 2
      ;;
  esac
done

# The internal step the background build runs (below).
if [[ ${1:-} == --build-stage ]]; then
  build_stage "$2"
  exit 0
fi

background_pid=""
background_log=""
stop_background() {
  if [[ -n $background_pid ]]; then
    kill -- "-$background_pid" 2>/dev/null || true
    wait "$background_pid" 2>/dev/null || true
    background_pid=""
  fi
}
trap stop_background EXIT

build_stage "${stages[0]}"
for ((i = 0; i < ${#stages[@]}; ++i)); do
  stage=${stages[i]}
  next=${stages[i + 1]:-}
  if ((i > 0)) && [[ -z $background_pid ]]; then
    build_stage "$stage"
  elif ((i > 0)); then
    # Built in the background while the previous stage's tests ran.
    if ! wait "$background_pid"; then
      background_pid=""
      cat "$background_log"
      echo "test.sh: building stage $stage failed (its log is above)" >&2
      exit 1
    fi
    background_pid=""
    cat "$background_log"
    build_stage "$stage"  # nothing left to do, unless the background build was cut short
  fi
  if [[ -n $next && ${PRAXIS_TEST_OVERLAP:-0} == 1 ]]; then
    background_log=$(mktemp)
    stamp "building $next in the background at nice 19 while $stage's tests run"
    # Job control for this one command: the build gets a process group of its own (so a failure can
    # stop all of it) in this session. Not setsid: a session of its own is an autogroup of its own
    # under Linux's sched_autogroup, which shares the CPU equally with the tests' whatever its nice
    # value (measured: the plain stage's tests took 13.3 minutes instead of 11.3).
    set -m
    nice -n 19 bash "${BASH_SOURCE[0]}" --build-stage "$next" >"$background_log" 2>&1 &
    background_pid=$!
    set +m
  fi
  test_stage "$stage"
done
stamp "all stages passed: ${stages[*]}"
