#!/usr/bin/env bash
# The floor under the benchmark rows (scripts/bench-floor.sh --quick) is measured on this machine and
# merged by bench_report into the table next to praxis' rows:
#   bench_floor_test.sh <repo root> <bench_report>
set -u
root=$1
report=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
bash "$root/scripts/bench-floor.sh" "$out" --quick || fail "bench-floor.sh exited $?"
grep -q '"cyclictest wake-up lateness, SCHED_OTHER, 2 ms", "p50_ns": [1-9]' "$out/floor.json" || fail "no cyclictest row"
grep -q '"ddsperf ping-pong round trip, 1 KiB, 500 Hz, lo", "p50_ns": [1-9]' "$out/floor.json" || fail "no ddsperf row"
# SCHED_FIFO: a row when this process may, else a note saying it was refused.
grep -q 'SCHED_FIFO 80, 2 ms", "p50_ns": [1-9]\|SCHED_FIFO 80 refused' "$out/floor.json" || fail "SCHED_FIFO neither measured nor noted"
table=$("$report" "$out") || fail "bench_report exited $?"
echo "$table"
grep -q "floor .*cyclictest wake-up lateness, SCHED_OTHER" <<<"$table" || fail "the floor is not in the table"
grep -q "floor .*ddsperf ping-pong round trip" <<<"$table" || fail "ddsperf is not in the table"
echo "PASS"
