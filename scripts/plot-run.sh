#!/usr/bin/env bash
# Draws a run's pictures with gnuplot from its log folder (logs/<time stamp>/, as praxis_demo or any
# program setting ControllerOptions::cycle_log and ::transition_log writes it):
#   plot-run.sh RUN_FOLDER [--joints a,b,c] [--out DIR]
# Writes into DIR (default RUN_FOLDER/plots) and prints each path:
#   joints.png   commanded target against measured position of the chosen joints
#   states.png   the selected motion over time, each transition marked with its cause
#   compute.png  compute time of every cycle, against the control period
# Reads log.csv (time, cycle, motion, gain_ratio, compute_us, q_<joint>..., cmd_q_<joint>...,
# cmd_kp_<joint>...), transitions.csv when there is one (the causes) and cfg.txt when there is one
# (robot, dt). A mock run and a physics run write the same files, so both plot the same way.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { echo "usage: plot-run.sh RUN_FOLDER [--joints a,b,c] [--out DIR]" >&2; exit 2; }
fail() { echo "plot-run: $*" >&2; exit 1; }

[[ $# -ge 1 ]] || usage
run=$1
shift
joints_arg="" out=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --joints) [[ $# -ge 2 ]] || usage; joints_arg=$2; shift 2 ;;
    --out) [[ $# -ge 2 ]] || usage; out=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "plot-run: unknown argument '$1'" >&2; usage ;;
  esac
done

[[ -d "$run" ]] || fail "run folder '$run' does not exist"
log="$run/log.csv"
[[ -f "$log" ]] || fail "run folder '$run' has no per-cycle log: '$log' is missing (was the run started with --no-log?)"
header=$(head -n 1 "$log")
[[ "$header" == time,cycle,motion,* ]] || fail "'$log' is not a praxis cycle log: its header does not start with time,cycle,motion"
[[ $(sed -n 2p "$log") == *,* ]] || fail "'$log' has a header but no rows: the run logged no cycle"

# Checked before the work, not at the first plot: a user without gnuplot learns it at once.
if ! command -v gnuplot >/dev/null; then
  bash "$root/scripts/install-bench-deps.sh" || fail "gnuplot is needed and could not be installed (scripts/install-bench-deps.sh)"
fi

out=${out:-$run/plots}
mkdir -p "$out" || fail "cannot create the output folder '$out'"
terminal="pngcairo size 1000,%H% font 'sans,10'"
gnuplot -e "set terminal" 2>&1 | grep -q pngcairo || terminal="png size 1000,%H%"

cfg_value() { [[ -f "$run/cfg.txt" ]] && sed -n "s/^$1: //p" "$run/cfg.txt" | head -n 1 || true; }
robot=$(cfg_value robot)
robot=${robot:-robot}
dt=$(cfg_value dt)

# col NAME: the 1-based column of NAME in the header, empty when absent.
col() { awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) { print i; exit } }' "$log"; }

# The joints: given, or the first of each of a few representative ones the robot has (a leg's
# pitch and knee and a shoulder on humanoids, a front leg on quadrupeds), else the first three.
if [[ -n "$joints_arg" ]]; then
  IFS=, read -r -a joints <<<"$joints_arg"
  for j in "${joints[@]}"; do
    [[ -n $(col "q_$j") && -n $(col "cmd_q_$j") ]] ||
      fail "'$log' has no joint '$j' (columns q_$j, cmd_q_$j); it has: $(tr , '\n' <<<"$header" | sed -n 's/^q_//p' | paste -sd ' ')"
  done
else
  joints=()
  for j in left_hip_pitch left_knee left_shoulder_pitch FR_thigh FR_calf FL_thigh; do
    [[ -n $(col "q_$j") && -n $(col "cmd_q_$j") ]] && joints+=("$j")
  done
  if [[ ${#joints[@]} -eq 0 ]]; then
    mapfile -t joints < <(tr , '\n' <<<"$header" | sed -n 's/^q_//p' | head -n 3)
  fi
  [[ ${#joints[@]} -gt 0 ]] || fail "'$log' has no joint columns (q_<joint>)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Long runs are thinned to about 20,000 points per series: more does not show on 1000 pixels and
# makes gnuplot slow. Compute time keeps each stride's largest value, so a single slow cycle still
# shows; positions keep every stride-th row.
rows=$(($(wc -l <"$log") - 1))
# A full reporter queue drops rows rather than stall the control thread; say so, since the lines
# then bridge the gaps.
missing=$(awk -F, 'NR > 2 && $2 != p + 1 { m += $2 - p - 1 } NR > 1 { p = $2 } END { print m + 0 }' "$log")
[[ $missing -eq 0 ]] || echo "plot-run: warning: $missing cycles are missing from '$log' (dropped by the reporter); the plots bridge them" >&2
stride=$(((rows + 19999) / 20000))

# The motions in the order they first appear, numbered from 0: the y axis of the state timeline.
awk -F, -v c="$(col motion)" 'NR > 1 && !($c in seen) { seen[$c] = n++; print $c }' "$log" >"$tmp/motions"
# motion.dat: time, motion index; written at every change (and at the end) so a step plot is exact.
awk -F, -v c="$(col motion)" -v m="$tmp/motions" '
  BEGIN { while ((getline l < m) > 0) idx[l] = n++ }
  NR > 1 { if ($c != last) { if (NR > 2) print $1, idx[last]; print $1, idx[$c]; last = $c } t = $1 }
  END { print t, idx[last] }' "$log" >"$tmp/motion.dat"
t_end=$(tail -n 1 "$tmp/motion.dat" | cut -d' ' -f1)

# transitions.dat: time, to-index, label. From transitions.csv (with the causes) when the run wrote
# it; otherwise from the changes of the motion column, whose causes are unknown.
if [[ -f "$run/transitions.csv" ]]; then
  [[ $(head -n 1 "$run/transitions.csv") == time,cycle,from,to,* ]] ||
    fail "'$run/transitions.csv' is not a praxis transition log: its header does not start with time,cycle,from,to"
  awk -F, -v m="$tmp/motions" '
    BEGIN { while ((getline l < m) > 0) idx[l] = n++ }
    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    { to = $(h["to"]); if (!(to in idx)) idx[to] = n++
      printf "%s %d \"%s (%s)\"\n", $1, idx[to], to, $(h["cause"]) }' "$run/transitions.csv" >"$tmp/transitions.dat"
  causes="transitions and causes from transitions.csv"
else
  awk -F, -v c="$(col motion)" -v m="$tmp/motions" '
    BEGIN { while ((getline l < m) > 0) idx[l] = n++ }
    NR > 2 && $c != last { printf "%s %d \"%s\"\n", $1, idx[$c], $c }
    NR > 1 { last = $c }' "$log" >"$tmp/transitions.dat"
  causes="no transitions.csv: causes unknown"
fi

# Vertical lines at the transitions, for every plot.
arrows=""
while read -r t _; do
  arrows+="set arrow from $t, graph 0 to $t, graph 1 nohead dt 2 lc rgb '#888888'"$'\n'
done <"$tmp/transitions.dat"

# ---- joints.png ----
jcols=()
for j in "${joints[@]}"; do jcols+=("$(col "q_$j"),$(col "cmd_q_$j"),$(col "cmd_kp_$j")"); done
plot_joints=""
height=$((200 + 220 * ${#joints[@]}))
for i in "${!joints[@]}"; do
  IFS=, read -r cq ct ck <<<"${jcols[$i]}"
  awk -F, -v s="$stride" -v q="$cq" -v t="$ct" -v k="${ck:-0}" \
    'NR > 1 && (NR - 2) % s == 0 { print $1, $q, $t, (k ? $k : 1) }' "$log" >"$tmp/joint$i.dat"
  # The y range by hand: a joint that never moved (an arm through a short run) would get gnuplot's
  # empty-range warning, and its line would sit on the frame.
  yrange=$(awk '{ v[1] = $2; v[2] = ($4 > 0 ? $3 : $2); for (k = 1; k <= 2; k++) {
                    if (NR == 1 && k == 1 || v[k] < lo) lo = v[k]; if (NR == 1 && k == 1 || v[k] > hi) hi = v[k] } }
                END { m = (hi - lo) * 0.05; if (m < 0.01) m = 0.01; printf "[%g:%g]", lo - m, hi + m }' "$tmp/joint$i.dat")
  # A target with kp = 0 (damping) pulls on nothing: drawn as a gap, not as a line to 0.
  plot_joints+="set title '${joints[$i]}'"$'\n'
  plot_joints+="set yrange $yrange"$'\n'
  plot_joints+="plot '$tmp/joint$i.dat' using 1:(\$4 > 0 ? \$3 : NaN) with lines lw 2 lc rgb '#d62728' title 'target (cmd q, where kp > 0)', \\"$'\n'
  plot_joints+="     '' using 1:2 with lines lw 1.5 lc rgb '#1f77b4' title 'measured q'"$'\n'
done
gnuplot <<GP || fail "gnuplot could not draw '$out/joints.png'"
set terminal ${terminal//%H%/$height}
set termoption noenhanced
set output '$out/joints.png'
set multiplot layout ${#joints[@]},1 title '$robot: commanded target against measured position (rad); dashed: transitions'
set grid
set key top right
set xrange [0:$t_end]
set xlabel 's'
set ylabel 'rad'
$arrows
$plot_joints
unset multiplot
GP
echo "  $out/joints.png"

# ---- states.png ----
ytics=$(awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $0, NR - 1 }' "$tmp/motions")
nmotions=$(wc -l <"$tmp/motions")
states_height=$((200 + 60 * nmotions))
labels=""
while read -r t k label; do
  labels+="set label $label at $t, $k + 0.25 rotate by 20 font ',9' front"$'\n'
done <"$tmp/transitions.dat"
gnuplot <<GP || fail "gnuplot could not draw '$out/states.png'"
set terminal ${terminal//%H%/$states_height}
set termoption noenhanced
set output '$out/states.png'
set title '$robot: selected motion over time ($causes)'
set grid x
set xlabel 's'
set xrange [0:$t_end * 1.08]
set ytics ($ytics)
set yrange [-0.5:$nmotions]
$arrows
$labels
plot '$tmp/motion.dat' using 1:2 with lines lw 3 lc rgb '#2ca02c' notitle, \
     '$tmp/transitions.dat' using 1:2 with points pt 7 ps 1.2 lc rgb '#d62728' notitle
GP
echo "  $out/states.png"

# ---- compute.png ----
ccol=$(col compute_us)
if [[ -z "$ccol" ]]; then
  echo "plot-run: '$log' has no compute_us column (written by praxis before the plots existed): compute.png skipped" >&2
  exit 0
fi
awk -F, -v s="$stride" -v c="$ccol" '
  NR > 1 { if (n == 0 || $c > top) { top = $c; t = $1 } if (++n == s) { print t, top; n = 0 } }
  END { if (n) print t, top }' "$log" >"$tmp/compute.dat"
# Sorted outside awk: Debian's default awk (mawk) has no asort.
stats=$(awk -F, -v c="$ccol" 'NR > 1 { print $c }' "$log" | sort -g | awk '{ v[NR] = $1; s += $1 } END {
  printf "mean %.2f us, p99 %.2f us, max %.2f us over %d cycles", s / NR, v[int(0.99 * (NR - 1) + 0.5) + 1], v[NR], NR }')
# The period: cfg.txt's dt, else the median step of the time column (the log has every cycle).
period_us=""
[[ -n "$dt" ]] && period_us=$(awk -v d="$dt" 'BEGIN { printf "%g", d * 1e6 }')
if [[ -z "$period_us" ]]; then
  period_us=$(awk -F, 'NR > 2 { print ($1 - p) * 1e6 } NR > 1 { p = $1 }' "$log" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) printf "%g", v[int((NR + 1) / 2)] }')
fi
period_plot=""
[[ -n "$period_us" ]] && period_plot=", $period_us with lines lw 2 dt 3 lc rgb '#d62728' title 'control period ($period_us us)'"
gnuplot <<GP || fail "gnuplot could not draw '$out/compute.png'"
set terminal ${terminal//%H%/420}
set termoption noenhanced
set output '$out/compute.png'
set title '$robot: compute time per cycle (the graph), $stats'
set grid
set logscale y
set xlabel 's'
set ylabel 'us (log)'
set xrange [0:$t_end]
set key top right
$arrows
plot '$tmp/compute.dat' using 1:2 with lines lw 1 lc rgb '#1f77b4' title 'compute time$( ((stride > 1)) && echo ", largest of every $stride cycles")'$period_plot
GP
echo "  $out/compute.png"
