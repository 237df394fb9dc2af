#!/usr/bin/env bash
# praxis-check against two machines written as /proc and /sys trees (a tuned robot computer and an
# untuned laptop) and against this one:
#   praxis_check_test.sh <praxis-check>
# Rows are compared with their spaces squeezed. The tuned one has no blocker and --strict exits 0; the untuned one names every blocker and warning
# with what to change, and --strict exits 1 (0 without it); this machine gets a row per check.
set -u
check=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# machine ROOT PREEMPT_VERSION RT_RUNTIME GOVERNOR ISOLATED MEMLOCK RTPRIO CAPEFF MTU RMEM SLACK
machine() {
  local r=$1
  mkdir -p "$r/proc/sys/kernel" "$r/proc/self" "$r/proc/sys/net/core" "$r/sys/devices/system/cpu/cpu0/cpufreq" \
           "$r/sys/devices/system/cpu/cpu1/cpufreq" "$r/sys/class/net/eth0"
  echo "$2" > "$r/proc/sys/kernel/version"
  echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1" > "$r/proc/cmdline"
  echo "$3" > "$r/proc/sys/kernel/sched_rt_runtime_us"
  echo 1000000 > "$r/proc/sys/kernel/sched_rt_period_us"
  echo "$4" > "$r/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
  echo "$4" > "$r/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
  echo "$5" > "$r/sys/devices/system/cpu/isolated"
  printf 'Limit                     Soft Limit           Hard Limit           Units\n' > "$r/proc/self/limits"
  printf 'Max locked memory         %-20s %-20s bytes\n' "$6" "$6" >> "$r/proc/self/limits"
  printf 'Max realtime priority     %-20s %-20s\n' "$7" "$7" >> "$r/proc/self/limits"
  printf 'Name:\tpraxis\nCapEff:\t%s\n' "$8" > "$r/proc/self/status"
  echo "$9" > "$r/sys/class/net/eth0/mtu"
  echo "${10}" > "$r/proc/sys/net/core/rmem_max"
  echo "${10}" > "$r/proc/sys/net/core/wmem_max"
  echo "${11}" > "$r/proc/self/timerslack_ns"
}

machine "$dir/tuned" "#1 SMP PREEMPT_RT Debian 6.1.0-rt" -1 performance 2-3 unlimited 99 0000000000000000 1500 8388608 1
machine "$dir/laptop" "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0" 950000 powersave "" 8388608 0 0000000000000000 1500 212992 50000
# idle STATE_DIR NAME LATENCY DISABLE
idle() { mkdir -p "$1"; echo "$2" > "$1/name"; echo "$3" > "$1/latency"; echo "$4" > "$1/disable"; }
for cpu in cpu0 cpu1; do
  idle "$dir/laptop/sys/devices/system/cpu/$cpu/cpuidle/state0" POLL 0 0
  idle "$dir/laptop/sys/devices/system/cpu/$cpu/cpuidle/state1" C1 2 0
  idle "$dir/laptop/sys/devices/system/cpu/$cpu/cpuidle/state2" C6 133 0
  idle "$dir/tuned/sys/devices/system/cpu/$cpu/cpuidle/state0" POLL 0 0
  idle "$dir/tuned/sys/devices/system/cpu/$cpu/cpuidle/state1" C6 133 1  # disabled
done
mkdir -p "$dir/laptop/sys/kernel/debug/sched"
echo "none (voluntary) full" > "$dir/laptop/sys/kernel/debug/sched/preempt"

out=$("$check" --root "$dir/tuned" --interface eth0 --strict --json "$dir/tuned.json") || fail "tuned machine: --strict exited $?"
echo "$out"
grep -q "0 blocker(s), 0 warning(s)" <<<"$out" || fail "tuned machine: findings where there are none"
tr -s ' ' <<<"$out" | grep -qF "ok CPU idle states (deepest enabled) POLL, exit latency 0 us" || fail "tuned machine: the disabled C6 counted"
grep -q '"verdict": "ok"' "$dir/tuned.json" || fail "tuned machine: no JSON"

out=$("$check" --root "$dir/laptop" --interface eth0 --rate 1000 --priority 80 --strict); status=$?
echo "$out"
[[ $status -eq 1 ]] || fail "laptop: --strict exited $status with blockers"
for expect in "BLOCKER kernel preemption model voluntary" \
              "boot with preempt=full" \
              "BLOCKER real-time priority limit (RLIMIT_RTPRIO) 0" "ulimit -r 80" \
              "warning RT throttling (sched_rt_runtime_us) 950000 of 1000000 us" "sched_rt_runtime_us=-1" \
              "warning CPU frequency governor powersave" "frequency-set -g performance" \
              "warning isolated cores none" "isolcpus=" \
              "warning memory lock limit (RLIMIT_MEMLOCK) 8192 KiB" "ulimit -l unlimited" \
              "socket buffers (net.core.rmem_max)" "net.core.rmem_max=8388608" \
              "warning timer slack 50000 ns" \
              "warning CPU idle states (deepest enabled) C6, exit latency 133 us" "RealtimeOptions::cpu_latency = 0" \
              "2 blocker(s), 8 warning(s)"; do
  tr -s ' ' <<<"$out" | grep -qF -- "$expect" || fail "laptop: no '$expect'"
done
"$check" --root "$dir/laptop" --interface eth0 >/dev/null || fail "laptop: exited non-zero without --strict"

# CAP_SYS_NICE (bit 23) lifts the priority limit; a missing interface is a blocker.
machine "$dir/capable" "#1 SMP PREEMPT_RT" -1 performance 1 unlimited 0 0000000000800000 1500 8388608 1
out=$("$check" --root "$dir/capable" --interface eth0 --strict) || fail "capable machine: blocker despite CAP_SYS_NICE"
grep -q "CAP_SYS_NICE: no limit applies" <<<"$out" || fail "capable machine: the capability not named"
out=$("$check" --root "$dir/capable" --interface wlan9 --strict); status=$?
[[ $status -eq 1 ]] && tr -s " " <<<"$out" | grep -q "BLOCKER DDS interface wlan9: MTU no such interface" \
  || fail "a missing interface is not a blocker: $out"

# This machine: a row for every check, whatever it finds.
out=$("$check" --interface lo) || fail "this machine: exited $? without --strict"
echo "$out"
for row in "kernel preemption model" "RT throttling" "CPU frequency governor" "isolated cores" "memory lock limit" \
           "real-time priority limit" "DDS interface lo: MTU" "net.core.rmem_max" "net.core.wmem_max" "timer slack" "CPU idle states"; do
  grep -qF "$row" <<<"$out" || fail "this machine: no row '$row'"
done
echo "PASS"
