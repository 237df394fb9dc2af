#pragma once
// Real-time set-up of a run: what ros2_control's realtime tools and cyclictest ask of Linux, built
// in. RuntimeOptions::realtime says what a run wants; the runtime applies it as each of its
// threads starts (before the user's on_thread_start hook), prints what it got and why it did not
// get the rest (no permission, a limit, a CPU that does not exist), and carries on either way:
//
//   per thread (receive, control, send)   SCHED_FIFO with a priority; a CPU set; timer slack
//   the process                          a CPU wake-up latency asked of the kernel's PM QoS for the
//                                        run (/dev/cpu_dma_latency, as cyclictest does: idle cores
//                                        kept out of the deep sleep states that take tens of us to
//                                        leave); mlockall (current and future pages); the allocator told
//                                        to keep what it has (no trimming, no mmap for large
//                                        blocks) with `prefault_heap` bytes touched once, so the
//                                        cycle's memory is never faulted in again; each thread's
//                                        stack touched `prefault_stack` deep
//
// Why a request is refused is said in the words the user needs: SCHED_FIFO needs CAP_SYS_NICE or
// RLIMIT_RTPRIO at least the priority (`ulimit -r`, /etc/security/limits.conf), mlockall needs
// RLIMIT_MEMLOCK (`ulimit -l`) or CAP_IPC_LOCK. None of this makes a kernel real-time:
// praxis-check reports the rest (preemption model, throttling, governor, isolated cores).
//
// The non-template half lives in src/control/realtime.cpp; nothing here runs in the cycle.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace praxis::control {

enum class ThreadRole : std::uint8_t { receive, control, send };
inline constexpr std::size_t k_thread_roles = 3;

[[nodiscard]] constexpr const char* to_string(ThreadRole r) {
  switch (r) {
    case ThreadRole::receive: return "receive";
    case ThreadRole::control: return "control";
    case ThreadRole::send: return "send";
  }
  return "?";
}

struct ThreadSchedule {
  int fifo_priority = 0;  // 1..99: SCHED_FIFO at this priority; 0: the scheduling class is left alone
  std::vector<int> cpus;  // the CPUs the thread may run on; empty: any
};

struct RealtimeOptions {
  ThreadSchedule receive{}, control{}, send{};
  bool lock_memory = false;          // mlockall(MCL_CURRENT | MCL_FUTURE)
  std::size_t prefault_stack = 0;    // bytes of each run thread's stack touched when it starts
  std::size_t prefault_heap = 0;     // bytes the allocator is made to keep, touched once
  // Each run thread's timer slack (how late the kernel may wake a sleep to batch wake-ups; 50 us
  // by default for normal threads, 0 for SCHED_FIFO ones).
  std::optional<std::chrono::nanoseconds> timer_slack;
  // The most wake-up latency the CPUs may add while the run lasts (PM QoS, /dev/cpu_dma_latency,
  // held open from the run's start to its end); 0 keeps every core out of deep idle states.
  std::optional<std::chrono::microseconds> cpu_latency;

  [[nodiscard]] const ThreadSchedule& of(ThreadRole r) const {
    return r == ThreadRole::receive ? receive : r == ThreadRole::control ? control : send;
  }
  [[nodiscard]] bool any() const {
    for (const auto r : {ThreadRole::receive, ThreadRole::control, ThreadRole::send}) {
      if (of(r).fifo_priority != 0 || !of(r).cpus.empty()) return true;
    }
    return lock_memory || prefault_stack > 0 || prefault_heap > 0 || timer_slack.has_value() || cpu_latency.has_value();
  }

  // What a 500 Hz / 1 kHz loop on a robot computer usually wants: the control thread at
  // SCHED_FIFO `control_priority`, the receive and send threads just below it, memory locked, 512
  // KiB of stack and 64 MiB of heap prefaulted, 1 us timer slack, CPU wake-up latency 0 (what
  // cyclictest runs with, so its row is the floor of this set-up). CPUs are the user's to choose
  // (isolated cores differ per machine).
  [[nodiscard]] static RealtimeOptions typical(int control_priority = 80) {
    RealtimeOptions o;
    o.control.fifo_priority = control_priority;
    o.receive.fifo_priority = control_priority > 1 ? control_priority - 1 : control_priority;
    o.send.fifo_priority = control_priority > 2 ? control_priority - 2 : control_priority;
    o.lock_memory = true;
    o.prefault_stack = std::size_t{512} * 1024;
    o.prefault_heap = std::size_t{64} * 1024 * 1024;
    o.timer_slack = std::chrono::microseconds(1);
    o.cpu_latency = std::chrono::microseconds(0);
    return o;
  }
};

// One request and how it went: "control thread: SCHED_FIFO 80" granted, or refused with why.
struct RealtimeItem {
  std::string what;
  bool granted = false;
  std::string why;  // when refused: the error and what would allow it
};

struct RealtimeReport {
  std::vector<RealtimeItem> items;
  [[nodiscard]] bool all_granted() const {
    for (const auto& i : items) {
      if (!i.granted) return false;
    }
    return true;
  }
  // "real time: granted: ...; refused: control thread SCHED_FIFO 80 (EPERM: ...)"
  [[nodiscard]] std::string summary() const;
};

// A CPU wake-up latency request, in force while this lives (the open /dev/cpu_dma_latency: the
// kernel drops the request when it is closed, also when the process dies).
class CpuLatencyHold {
 public:
  CpuLatencyHold() = default;
  explicit CpuLatencyHold(int fd) : fd_(fd) {}
  CpuLatencyHold(CpuLatencyHold&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  CpuLatencyHold& operator=(CpuLatencyHold&& o) noexcept;
  CpuLatencyHold(const CpuLatencyHold&) = delete;
  CpuLatencyHold& operator=(const CpuLatencyHold&) = delete;
  ~CpuLatencyHold();
  [[nodiscard]] bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Asks for `latency` and says how it went in `item`; `device` is the PM QoS file (a test's path).
[[nodiscard]] CpuLatencyHold hold_cpu_latency(std::chrono::microseconds latency, RealtimeItem& item,
                                              const std::string& device = "/dev/cpu_dma_latency");

// The process-wide requests (memory lock, heap), once per run before its threads start.
[[nodiscard]] RealtimeReport apply_process_realtime(const RealtimeOptions& options);
// The calling thread's requests (scheduling, CPUs, slack, stack). Never throws for a refusal.
[[nodiscard]] std::vector<RealtimeItem> apply_thread_realtime(const RealtimeOptions& options, ThreadRole role);

// Minor page faults of the calling thread so far (getrusage RUSAGE_THREAD): a fault in the cycle
// is the kernel finding memory for it, tens of microseconds the loop did not plan for.
[[nodiscard]] std::uint64_t thread_minor_faults();

}  // namespace praxis::control
