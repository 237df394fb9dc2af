#!/usr/bin/env bash
# The floor under praxis' latency rows, measured in the same run (scripts/bench.sh calls it):
#   bash scripts/bench-floor.sh OUT_DIR [--quick]
# writes OUT_DIR/floor.json in the benchmarks' row format (bench_report merges it):
#   - cyclictest (Debian rt-tests): how late this machine wakes a thread that sleeps 2 ms (the
#     control period at 500 Hz), SCHED_OTHER and, when this process may, SCHED_FIFO 80
#   - ddsperf (Debian cyclonedds-tools): Cyclone's own ping-pong round trip on the loopback
#     interface at 500 Hz, with a sample the size of a Unitree hg LowCmd (1 KiB)
# A series this machine does not allow (SCHED_FIFO without permission) is left out and said so.
set -euo pipefail
out=${1:?usage: bench-floor.sh OUT_DIR [--quick]}
quick=0
[[ ${2:-} == --quick ]] && quick=1
if [[ $quick == 1 ]]; then loops=1500; seconds=4; else loops=30000; seconds=30; fi

rows=()
# cyclictest's histogram ("LAT COUNT" per microsecond, -h) as a row: percentiles in ns.
histogram_row() {  # name file
  awk -v name="$1" '
    /^[0-9]+ [0-9]+$/ { lat = $1 + 0; n = $2 + 0; if (n > 0) { c[lat] += n; total += n; if (lat > max) max = lat } }
    /^# Max Latencies:/ { reported_max = $4 + 0 }
    END {
      if (total == 0) exit 1
      split("0.5 0.99 0.999", q, " ")
      for (i = 1; i <= 3; i++) { want[i] = q[i] * total; got[i] = -1 }
      acc = 0
      for (l = 0; l <= max; l++) {
        acc += c[l]
        for (i = 1; i <= 3; i++) if (got[i] < 0 && acc >= want[i]) got[i] = l
      }
      if (reported_max > max) max = reported_max  # beyond the histogram: the overflow
      printf "{\"name\": \"%s\", \"p50_ns\": %d, \"p99_ns\": %d, \"p999_ns\": %d, \"max_ns\": %d, \"samples\": %d, \"allocations\": null}",
             name, got[1] * 1000, got[2] * 1000, got[3] * 1000, max * 1000, total
    }' "$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
notes=()

echo "bench-floor: cyclictest, 2 ms interval, $loops wake-ups per series"
cyclictest -t1 -i 2000 -l "$loops" -q -h 20000 > "$tmp/other.txt" 2>&1
rows+=("$(histogram_row "cyclictest wake-up lateness, SCHED_OTHER, 2 ms" "$tmp/other.txt")")
if cyclictest -t1 -p 80 -i 2000 -l "$loops" -q -h 20000 > "$tmp/fifo.txt" 2>&1 && histogram_row x "$tmp/fifo.txt" >/dev/null; then
  rows+=("$(histogram_row "cyclictest wake-up lateness, SCHED_FIFO 80, 2 ms" "$tmp/fifo.txt")")
else
  notes+=("SCHED_FIFO 80 refused to this process: $(head -c 200 "$tmp/fifo.txt" | tr '\n"' '  ')")
fi

# The raw wake-ups, for the pictures (scripts/bench-plots.sh draws them beside praxis' period error).
if [[ -d "$out/samples" ]]; then
  expand() { awk '/^[0-9]+ [0-9]+$/ { for (i = 0; i < $2; i++) print $1 * 1000 }' "$1"; }
  expand "$tmp/other.txt" > "$out/samples/floor__cyclictest_other.csv"
  [[ -s "$tmp/fifo.txt" ]] && expand "$tmp/fifo.txt" > "$out/samples/floor__cyclictest_fifo.csv"
fi

echo "bench-floor: ddsperf ping-pong, 1 KiB at 500 Hz for $seconds s on lo"
export CYCLONEDDS_URI='<CycloneDDS><Domain><General><Interfaces><NetworkInterface name="lo"/></Interfaces></General></Domain></CycloneDDS>'
ddsperf -i 228 -D $((seconds + 4)) pong > "$tmp/pong.txt" 2>&1 &
pong=$!
ddsperf -i 228 -D "$seconds" -Qminmatch:1 -Qinitwait:5 ping 500Hz size 1024 > "$tmp/ping.txt" 2>&1 || true
kill "$pong" 2>/dev/null || true
wait "$pong" 2>/dev/null || true
# One line per second: "size 1024 mean ..us min ..us 50% ..us 90% ..us 99% ..us max ..us cnt N". The
# row takes the median second's 50%, the worst second's 99% and max; ddsperf keeps no histogram, so its
# p99.9 column is the max (an upper bound).
ddsperf_row=$(awk '
  / size [0-9]+ mean / {
    for (i = 1; i <= NF; i++) {
      if ($i == "50%") p50[n] = $(i + 1) + 0
      if ($i == "99%") p99 = ($(i + 1) + 0 > p99 ? $(i + 1) + 0 : p99)
      if ($i == "max") mx = ($(i + 1) + 0 > mx ? $(i + 1) + 0 : mx)
      if ($i == "cnt") total += $(i + 1)
    }
    n++
  }
  END {
    if (n == 0) exit 1
    for (i = 1; i < n; i++) { v = p50[i]; j = i - 1; while (j >= 0 && p50[j] > v) { p50[j + 1] = p50[j]; j-- } p50[j + 1] = v }
    printf "{\"name\": \"ddsperf ping-pong round trip, 1 KiB, 500 Hz, lo\", \"p50_ns\": %d, \"p99_ns\": %d, \"p999_ns\": %d, \"max_ns\": %d, \"samples\": %d, \"allocations\": null}",
           p50[int((n - 1) / 2)] * 1000, p99 * 1000, mx * 1000, mx * 1000, total
  }' "$tmp/ping.txt") || { echo "bench-floor: ddsperf measured nothing:" >&2; cat "$tmp/ping.txt" >&2; exit 1; }
rows+=("$ddsperf_row")

{
  echo '{"benchmark": "floor", "what": "the machine'"'"'s and Cyclone'"'"'s floor, same run (scripts/bench-floor.sh)",'
  printf '"notes": ['
  sep=""
  for n in "${notes[@]+"${notes[@]}"}"; do printf '%s"%s"' "$sep" "$n"; sep=", "; done
  printf '],\n"report": [\n'
  sep=""
  for r in "${rows[@]}"; do printf '%s  %s' "$sep" "$r"; sep=$',\n'; done
  printf '\n]}\n'
} > "$out/floor.json"
cat "$out/floor.json"
