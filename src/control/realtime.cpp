// The Linux side of control/realtime.hpp: scheduling, CPU sets, timer slack, memory locking and
// prefaulting, each reported as granted or refused with what would allow it.
#include "praxis/control/realtime.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <alloca.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace praxis::control {
namespace {

std::string errno_name(int e) {
  switch (e) {
    case EPERM: return "EPERM";
    case EINVAL: return "EINVAL";
    case ENOMEM: return "ENOMEM";
    case EAGAIN: return "EAGAIN";
    case ESRCH: return "ESRCH";
    case EACCES: return "EACCES";
    case ENOENT: return "ENOENT";
    default: return "errno " + std::to_string(e);
  }
}

std::string limit_text(int resource) {
  rlimit l{};
  if (getrlimit(resource, &l) != 0) return "unknown";
  if (l.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(static_cast<unsigned long long>(l.rlim_cur));
}

std::string bytes_text(std::size_t n) {
  if (n >= 1024 * 1024 && n % (1024 * 1024) == 0) return std::to_string(n / (1024 * 1024)) + " MiB";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n) + " bytes";
}

std::string cpus_text(const std::vector<int>& cpus) {
  std::string s;
  for (const int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

// Touches `n` bytes below the current stack pointer, so the pages are there before the cycle needs
// them. noinline: the frame must be this function's, released on return.
[[gnu::noinline]] void touch_stack(std::size_t n) {
  auto* p = static_cast<volatile unsigned char*>(alloca(n));
  const long page = sysconf(_SC_PAGESIZE);
  for (std::size_t i = 0; i < n; i += static_cast<std::size_t>(page > 0 ? page : 4096)) p[i] = 0;
  p[n - 1] = 0;
}

std::size_t stack_size_of_this_thread() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  std::size_t size = 0;
  pthread_attr_getstacksize(&attr, &size);
  pthread_attr_destroy(&attr);
  return size;
}

}  // namespace

std::string RealtimeReport::summary() const {
  std::string granted, refused;
  for (const auto& i : items) {
    if (i.granted) {
      granted += (granted.empty() ? "" : "; ") + i.what;
    } else {
      refused += (refused.empty() ? "" : "; ") + i.what + " (" + i.why + ")";
    }
  }
  std::string s = "real time:";
  if (items.empty()) return s + " nothing asked (RuntimeOptions::realtime)";
  if (!granted.empty()) s += " granted: " + granted + ".";
  if (!refused.empty()) s += " refused: " + refused + "; running without it.";
  return s;
}

CpuLatencyHold& CpuLatencyHold::operator=(CpuLatencyHold&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

CpuLatencyHold::~CpuLatencyHold() {
  if (fd_ >= 0) ::close(fd_);
}

CpuLatencyHold hold_cpu_latency(std::chrono::microseconds latency, RealtimeItem& item, const std::string& device) {
  item = {"CPU wake-up latency " + std::to_string(latency.count()) + " us (" + device + ")", false, {}};
  if (latency.count() < 0 || latency.count() > INT32_MAX) {
    item.why = "EINVAL: the latency is 0.." + std::to_string(INT32_MAX) + " us";
    return {};
  }
  const int fd = ::open(device.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    item.why = errno_name(e) + (e == ENOENT ? ": the kernel has no PM QoS device (CONFIG_PM)"
                                            : ": opening it needs write access (root, or a udev rule for the group)");
    return {};
  }
  // The kernel takes the value as a binary 32-bit integer (or as hex text).
  const auto value = static_cast<std::int32_t>(latency.count());
  if (::write(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) {
    const int e = errno;
    ::close(fd);
    item.why = errno_name(e) + ": the kernel did not take the value";
    return {};
  }
  item.granted = true;
  return CpuLatencyHold(fd);
}

RealtimeReport apply_process_realtime(const RealtimeOptions& o) {
  RealtimeReport r;
  if (o.lock_memory) {
    RealtimeItem i{"memory locked (mlockall, current and future pages)", false, {}};
    if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
      i.granted = true;
    } else {
      const int e = errno;
      i.why = errno_name(e) + ": needs RLIMIT_MEMLOCK above the process' size (now " + limit_text(RLIMIT_MEMLOCK) +
              " bytes; `ulimit -l unlimited`, or memlock in /etc/security/limits.conf) or CAP_IPC_LOCK";
    }
    r.items.push_back(std::move(i));
  }
  if (o.prefault_heap > 0) {
    RealtimeItem i{bytes_text(o.prefault_heap) + " of heap prefaulted and kept", false, {}};
    // The allocator keeps freed memory (no trimming) and serves large blocks from the heap rather
    // than fresh mmaps, so what is touched here is what later allocations get, already mapped.
    const bool trim = mallopt(M_TRIM_THRESHOLD, -1) == 1;
    const bool mmap = mallopt(M_MMAP_MAX, 0) == 1;
    if (void* block = std::malloc(o.prefault_heap)) {
      std::memset(block, 0, o.prefault_heap);
      std::free(block);
      i.granted = trim && mmap;
      if (!i.granted) i.why = "the allocator did not take mallopt (a sanitizer's or another malloc): touched once, may be returned";
    } else {
      i.why = "ENOMEM: could not allocate it";
    }
    r.items.push_back(std::move(i));
  }
  return r;
}

std::vector<RealtimeItem> apply_thread_realtime(const RealtimeOptions& o, ThreadRole role) {
  std::vector<RealtimeItem> out;
  const std::string who = std::string(to_string(role)) + " thread";
  const ThreadSchedule& s = o.of(role);
  if (s.fifo_priority != 0) {
    RealtimeItem i{who + " SCHED_FIFO " + std::to_string(s.fifo_priority), false, {}};
    sched_param p{};
    p.sched_priority = s.fifo_priority;
    if (const int e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &p); e == 0) {
      i.granted = true;
    } else if (e == EINVAL) {
      i.why = "EINVAL: SCHED_FIFO priorities are " + std::to_string(sched_get_priority_min(SCHED_FIFO)) + ".." +
              std::to_string(sched_get_priority_max(SCHED_FIFO));
    } else {
      i.why = errno_name(e) + ": needs CAP_SYS_NICE or RLIMIT_RTPRIO >= " + std::to_string(s.fifo_priority) + " (now " +
              limit_text(RLIMIT_RTPRIO) + "; `ulimit -r " + std::to_string(s.fifo_priority) +
              "`, or rtprio in /etc/security/limits.conf)";
    }
    out.push_back(std::move(i));
  }
  if (!s.cpus.empty()) {
    RealtimeItem i{who + " on CPU " + cpus_text(s.cpus), false, {}};
    cpu_set_t set;
    CPU_ZERO(&set);
    bool valid = true;
    for (const int c : s.cpus) {
      if (c < 0 || c >= CPU_SETSIZE) {
        valid = false;
      } else {
        CPU_SET(c, &set);
      }
    }
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (!valid) {
      i.why = "EINVAL: a CPU number outside 0.." + std::to_string(CPU_SETSIZE - 1);
    } else if (const int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set); e == 0) {
      i.granted = true;
    } else {
      i.why = errno_name(e) + ": not a CPU this process may use (this machine has " + std::to_string(online) +
              " online: 0.." + std::to_string(online - 1) + "; a cgroup or taskset may allow fewer)";
    }
    out.push_back(std::move(i));
  }
  if (o.timer_slack) {
    const auto ns = std::max<std::int64_t>(1, o.timer_slack->count());  // 0 would restore the default
    RealtimeItem i{who + " timer slack " + std::to_string(ns) + " ns", false, {}};
    if (prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(ns), 0, 0, 0) == 0) {
      i.granted = true;
    } else {
      i.why = errno_name(errno);
    }
    out.push_back(std::move(i));
  }
  if (o.prefault_stack > 0) {
    const std::size_t size = stack_size_of_this_thread();
    // Leave room for the frames above this one and the guard page.
    const std::size_t room = size > 128 * 1024 ? size - 128 * 1024 : 0;
    const std::size_t n = std::min(o.prefault_stack, room);
    RealtimeItem i{who + " stack prefaulted " + bytes_text(n), n == o.prefault_stack, {}};
    if (n > 0) touch_stack(n);
    if (!i.granted) {
      i.why = "the thread's stack is " + bytes_text(size) + ": " + bytes_text(n) + " of the " +
              bytes_text(o.prefault_stack) + " asked for were touched";
    }
    out.push_back(std::move(i));
  }
  return out;
}

std::uint64_t thread_minor_faults() {
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) != 0) return 0;
  return static_cast<std::uint64_t>(u.ru_minflt);
}

}  // namespace praxis::control
