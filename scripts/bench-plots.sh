#!/usr/bin/env bash
# Draws the benchmark PNGs with gnuplot from the raw samples scripts/bench.sh collected:
#   bench-plots.sh RESULTS_DIR      (reads RESULTS_DIR/samples/*.csv, writes RESULTS_DIR/*.png)
# One histogram per comparison, each series normalised to its own count so series of different
# lengths compare; the x range ends near the top percentile of all series together so a few
# scheduler outliers do not squash the body (the table has the tails).
set -euo pipefail
dir=$1
samples="$dir/samples"
terminal="pngcairo size 900,540 font 'sans,10'"
gnuplot -e "set terminal" 2>&1 | grep -q pngcairo || terminal="png size 900,540"

# quantile Q FILE... : the Q-quantile of the values in all FILEs together.
quantile() {
  local q=$1
  shift
  cat "$@" | sort -g | awk -v q="$q" '{v[NR]=$1} END {i=int(q*(NR-1)+0.5)+1; print v[i]}'
}

# histogram OUT TITLE XLABEL SCALE QLO QHI FILE LABEL [FILE LABEL]...
# SCALE divides the samples (1000: ns -> us; as a float, since gnuplot divides integers as integers
# and a quiet machine's 1102..1964 ns became the empty range 1..1 us); the x range spans the QLO to the QHI quantile of all
# series together. Samples outside it are left out of the plot (not piled into its last bin).
histogram() {
  local out=$1 title=$2 xlabel=$3 scale=$4 qlo=$5 qhi=$6
  shift 6
  local files=() labels=()
  while [[ $# -gt 0 ]]; do
    if [[ -s "$1" ]]; then
      files+=("$1")
      labels+=("$2")
    fi
    shift 2
  done
  [[ ${#files[@]} -eq 0 ]] && { echo "bench-plots: no samples for $out, skipped" >&2; return 0; }
  local hi lo
  hi=$(quantile "$qhi" "${files[@]}")
  lo=$(quantile "$qlo" "${files[@]}")
  local plot="" i
  for i in "${!files[@]}"; do
    # Bins over [lo, hi] in awk: every bin written, an empty one at 1e-4 % (below the axis) so the
    # steps drop to the floor instead of bridging gaps on the log scale.
    awk -v lo="$lo" -v hi="$hi" -v bins=100 '
      { n++; if ($1 >= lo && $1 <= hi) { b = int(($1 - lo) / (hi - lo) * bins); if (b == bins) b--; c[b]++ } }
      END { w = (hi - lo) / bins; for (b = 0; b < bins; b++) { p = 100.0 * c[b] / n; print lo + (b + 0.5) * w, (p > 0 ? p : 1e-4) } }
    ' "${files[$i]}" > "$out.$i.dat"
    plot+="${plot:+, }'$out.$i.dat' using (\$1/$scale.0):2 with histeps lw 2 title '${labels[$i]}'"
  done
  gnuplot <<GP
set terminal $terminal
set termoption noenhanced
set output '$out'
set title '$title'
set xlabel '$xlabel'
set ylabel '% of samples per bin (log)'
set logscale y
set yrange [0.001:100]
set grid
set key top right
set xrange [$lo/$scale.0:$hi/$scale.0]
plot $plot
GP
  rm -f "$out".*.dat
  echo "  $out"
}

echo "plots:"
histogram "$dir/controller_cycle.png" "Controller cycle (RobotController step, every cycle timed) per robot, on the mock" "us per cycle" 1000 0.001 0.995 \
  "$samples/controller_cycle__g1_hand_written.csv" "hand-written step, G1 (baseline)" \
  "$samples/controller_cycle__g1_robot_controller.csv" "RobotController, G1" \
  "$samples/vendor_cycle__booster_t1_robot_controller.csv" "RobotController, Booster T1" \
  "$samples/vendor_cycle__aurora_gr1_robot_controller.csv" "RobotController, Aurora GR-1" \
  "$samples/vendor_cycle__tienkung_pro_robot_controller.csv" "RobotController, Tienkung Pro"
histogram "$dir/motion_pipeline.png" "Motion pipeline (MotionController step) per robot, on the mock" "us per cycle" 1000 0.001 0.995 \
  "$samples/controller_cycle__g1_motion_scripts.csv" "G1, scripts and stand" \
  "$samples/controller_cycle__g1_motion_user_control.csv" "G1, user control" \
  "$samples/vendor_cycle__booster_t1_motion_controller.csv" "Booster T1, stand" \
  "$samples/vendor_cycle__aurora_gr1_motion_controller.csv" "Aurora GR-1, stand" \
  "$samples/vendor_cycle__tienkung_pro_motion_controller.csv" "Tienkung Pro, stand"
histogram "$dir/dds_latency.png" "State in, command out over Cyclone DDS (G1 hg LowState -> LowCmd)" "us round trip" 1000 0.001 0.995 \
  "$samples/dds_echo_latency__raw_echo_process.csv" "raw Cyclone echo, other process (baseline)" \
  "$samples/dds_echo_latency__praxis_process.csv" "praxis, other process" \
  "$samples/dds_echo_latency__raw_echo_thread.csv" "raw Cyclone echo, same process (baseline)" \
  "$samples/dds_echo_latency__praxis_thread.csv" "praxis, same process"
histogram "$dir/period_error_500hz.png" "Control-loop period error at 500 Hz (actual - nominal)" "us" 1000 0.01 0.99 \
  "$samples/period_error__500hz_naive.csv" "naive sleep_for loop (baseline)" \
  "$samples/period_error__500hz_absolute.csv" "praxis, absolute deadlines" \
  "$samples/period_error__500hz_realtime.csv" "praxis, real-time set-up (SCHED_FIFO 80)"
# Lateness is what cyclictest measures: praxis' control loop and the bare thread side by side.
histogram "$dir/lateness_500hz.png" "Wake-up lateness after the deadline, 2 ms period (500 Hz)" "us" 1000 0.0 0.99 \
  "$samples/period_error__500hz_absolute_lateness.csv" "praxis control loop" \
  "$samples/period_error__500hz_realtime_lateness.csv" "praxis control loop, real-time set-up" \
  "$samples/floor__cyclictest_other.csv" "cyclictest SCHED_OTHER, the machine floor" \
  "$samples/floor__cyclictest_fifo.csv" "cyclictest SCHED_FIFO 80"
histogram "$dir/period_error_1khz.png" "Control-loop period error at 1 kHz (actual - nominal)" "us" 1000 0.01 0.99 \
  "$samples/period_error__1khz_naive.csv" "naive sleep_for loop (baseline)" \
  "$samples/period_error__1khz_absolute.csv" "praxis, absolute deadlines" \
  "$samples/period_error__1khz_realtime.csv" "praxis, real-time set-up (SCHED_FIFO 80)"
