// praxis-check: what on this computer would hurt a 500 Hz / 1 kHz control loop, and what to change.
//
//   praxis-check [--interface eth0] [--priority 80] [--rate 1000] [--strict] [--json FILE]
//
// Every check reads files the kernel publishes (/proc, /sys), so `--root DIR` points it at a copy of
// another machine's (the tests build such trees). A finding is ok, a warning (the loop runs, its
// tail suffers) or a blocker (a 1 kHz loop cannot be relied on); --strict exits 1 on a blocker.

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

enum class Verdict { ok, warning, blocker, unknown };

const char* name_of(Verdict v) {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::warning: return "warning";
    case Verdict::blocker: return "BLOCKER";
    case Verdict::unknown: return "unknown";
  }
  return "?";
}

struct Finding {
  std::string check, found;
  Verdict verdict = Verdict::unknown;
  std::string change;  // what to do about it (empty when ok)
};

struct Machine {
  fs::path root;
  std::optional<std::string> read(const std::string& path) const {
    std::ifstream in(root / fs::path(path).relative_path());
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }
  std::optional<long long> number(const std::string& path) const {
    const auto s = read(path);
    if (!s) return std::nullopt;
    try {
      return std::stoll(*s);
    } catch (...) {
      return std::nullopt;
    }
  }
  bool exists(const std::string& path) const { return fs::exists(root / fs::path(path).relative_path()); }
  fs::path at(const std::string& path) const { return root / fs::path(path).relative_path(); }
};

// A limit's soft value from /proc/self/limits ("Max realtime priority  0  0"): -1 is unlimited.
std::optional<long long> limit(const Machine& m, const std::string& name) {
  const auto text = m.read("/proc/self/limits");
  if (!text) return std::nullopt;
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name, 0) != 0) continue;
    std::istringstream rest(line.substr(name.size()));
    std::string soft;
    rest >> soft;
    if (soft == "unlimited") return -1;
    try {
      return std::stoll(soft);
    } catch (...) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Whether the process has capability `bit` (CapEff in /proc/self/status).
bool has_capability(const Machine& m, int bit) {
  const auto text = m.read("/proc/self/status");
  if (!text) return false;
  const auto at = text->find("CapEff:");
  if (at == std::string::npos) return false;
  const std::uint64_t caps = std::stoull(text->substr(at + 7), nullptr, 16);
  return (caps >> bit) & 1U;
}
constexpr int k_cap_ipc_lock = 14;
constexpr int k_cap_sys_nice = 23;

Finding preemption(const Machine& m, int rate) {
  Finding f{"kernel preemption model", "", Verdict::unknown, ""};
  const auto version = m.read("/proc/sys/kernel/version").value_or("");
  const auto cmdline = m.read("/proc/cmdline").value_or("");
  std::string model;
  if (m.read("/sys/kernel/realtime") == std::optional<std::string>("1") || version.find("PREEMPT_RT") != std::string::npos) {
    model = "PREEMPT_RT";
  } else if (const auto dynamic = m.read("/sys/kernel/debug/sched/preempt")) {
    const auto open = dynamic->find('('), close = dynamic->find(')');
    if (open != std::string::npos && close != std::string::npos) model = dynamic->substr(open + 1, close - open - 1);
  } else if (version.find("PREEMPT_DYNAMIC") != std::string::npos) {
    const auto p = cmdline.find("preempt=");
    model = p != std::string::npos ? cmdline.substr(p + 8, cmdline.find(' ', p) - p - 8)
                                   : "dynamic, mode not readable (debugfs)";
  } else if (version.find("PREEMPT") != std::string::npos) {
    model = "full";
  } else if (!version.empty()) {
    model = "none or voluntary";
  }
  f.found = model.empty() ? "not readable" : model;
  if (model == "PREEMPT_RT") {
    f.verdict = Verdict::ok;
  } else if (model == "full") {
    f.verdict = Verdict::warning;
    f.change = "a PREEMPT_RT kernel (Debian: linux-image-rt-amd64 / -arm64) bounds the worst wake-up; full "
               "preemption leaves millisecond outliers";
  } else if (model.empty()) {
    f.verdict = Verdict::unknown;
  } else if (model.rfind("dynamic", 0) == 0) {
    f.verdict = Verdict::warning;
    f.change = "a PREEMPT_DYNAMIC kernel runs none, voluntary or full preemption: boot with preempt=full to be sure "
               "(or read /sys/kernel/debug/sched/preempt as root), or install a PREEMPT_RT kernel";
  } else {
    f.verdict = rate >= 1000 ? Verdict::blocker : Verdict::warning;
    f.change = "boot with preempt=full (PREEMPT_DYNAMIC kernels) or install a PREEMPT_RT kernel (Debian: "
               "linux-image-rt-amd64): a kernel that does not preempt delays a wake-up by milliseconds";
  }
  return f;
}

Finding throttling(const Machine& m) {
  Finding f{"RT throttling (sched_rt_runtime_us)", "", Verdict::unknown, ""};
  const auto runtime = m.number("/proc/sys/kernel/sched_rt_runtime_us");
  const auto period = m.number("/proc/sys/kernel/sched_rt_period_us");
  if (!runtime) {
    f.found = "not readable";
    return f;
  }
  if (*runtime < 0) {
    f.found = "-1 (off)";
    f.verdict = Verdict::ok;
    return f;
  }
  f.found = std::to_string(*runtime) + " of " + std::to_string(period.value_or(1000000)) + " us";
  f.verdict = Verdict::warning;
  f.change = "SCHED_FIFO threads are stopped for the rest of each period once they used this much: on a "
             "dedicated robot computer, sysctl kernel.sched_rt_runtime_us=-1";
  return f;
}

Finding governor(const Machine& m) {
  Finding f{"CPU frequency governor", "", Verdict::unknown, ""};
  std::vector<std::string> seen;
  const auto cpus = m.at("/sys/devices/system/cpu");
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cpus, ec)) {
    const auto name = e.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
    if (const auto g = m.read("/sys/devices/system/cpu/" + name + "/cpufreq/scaling_governor")) seen.push_back(*g);
  }
  if (seen.empty()) {
    f.found = "no cpufreq (a VM, or a fixed clock)";
    f.verdict = Verdict::ok;
    return f;
  }
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  for (const auto& g : seen) f.found += (f.found.empty() ? "" : ", ") + g;
  const bool performance = seen.size() == 1 && seen[0] == "performance";
  f.verdict = performance ? Verdict::ok : Verdict::warning;
  if (!performance) {
    f.change = "the clock drops between cycles and the next cycle pays for it: cpupower frequency-set -g performance";
  }
  return f;
}

Finding isolation(const Machine& m) {
  Finding f{"isolated cores", "", Verdict::unknown, ""};
  const auto isolated = m.read("/sys/devices/system/cpu/isolated");
  if (!isolated) {
    f.found = "not readable";
    return f;
  }
  const auto nohz = m.read("/sys/devices/system/cpu/nohz_full").value_or("");
  f.found = isolated->empty() ? "none" : *isolated + (nohz.empty() || nohz == "(null)" ? "" : ", nohz_full " + nohz);
  f.verdict = isolated->empty() ? Verdict::warning : Verdict::ok;
  if (isolated->empty()) {
    f.change = "isolcpus=N nohz_full=N rcu_nocbs=N on the kernel command line keeps other work off the control "
               "core; then RealtimeOptions::control.cpus = {N}";
  }
  return f;
}

Finding memlock(const Machine& m) {
  Finding f{"memory lock limit (RLIMIT_MEMLOCK)", "", Verdict::unknown, ""};
  const auto l = limit(m, "Max locked memory");
  const bool cap = has_capability(m, k_cap_ipc_lock);
  if (!l) {
    f.found = "not readable";
    return f;
  }
  f.found = *l < 0 ? "unlimited" : std::to_string(*l / 1024) + " KiB";
  if (cap) f.found += " (CAP_IPC_LOCK: no limit applies)";
  const bool enough = cap || *l < 0 || *l >= 256LL * 1024 * 1024;
  f.verdict = enough ? Verdict::ok : Verdict::warning;
  if (!enough) {
    f.change = "mlockall fails and pages can be swapped or faulted in the cycle: `ulimit -l unlimited`, or "
               "'@robot - memlock unlimited' in /etc/security/limits.conf";
  }
  return f;
}

Finding rtprio(const Machine& m, int priority) {
  Finding f{"real-time priority limit (RLIMIT_RTPRIO)", "", Verdict::unknown, ""};
  const auto l = limit(m, "Max realtime priority");
  const bool cap = has_capability(m, k_cap_sys_nice);
  if (!l) {
    f.found = "not readable";
    return f;
  }
  f.found = *l < 0 ? "unlimited" : std::to_string(*l);
  if (cap) f.found += " (CAP_SYS_NICE: no limit applies)";
  const bool enough = cap || *l < 0 || *l >= priority;
  f.verdict = enough ? Verdict::ok : Verdict::blocker;
  if (!enough) {
    f.change = "praxis cannot have SCHED_FIFO " + std::to_string(priority) + ": `ulimit -r " + std::to_string(priority) +
               "`, or '@robot - rtprio 99' in /etc/security/limits.conf (or CAP_SYS_NICE)";
  }
  return f;
}

std::vector<Finding> network(const Machine& m, const std::string& interface) {
  std::vector<Finding> out;
  Finding mtu{"DDS interface " + interface + ": MTU", "", Verdict::unknown, ""};
  const auto value = m.number("/sys/class/net/" + interface + "/mtu");
  if (!value) {
    mtu.found = "no such interface";
    mtu.verdict = Verdict::blocker;
    mtu.change = "--interface names the interface that reaches the robot (ip link lists them)";
  } else {
    mtu.found = std::to_string(*value);
    mtu.verdict = *value >= 1500 ? Verdict::ok : Verdict::warning;
    if (*value < 1500) mtu.change = "samples larger than the MTU are fragmented: ip link set " + interface + " mtu 1500";
  }
  out.push_back(mtu);
  for (const auto* which : {"rmem_max", "wmem_max"}) {
    Finding f{std::string("socket buffers (net.core.") + which + ")", "", Verdict::unknown, ""};
    const auto v = m.number(std::string("/proc/sys/net/core/") + which);
    if (!v) {
      f.found = "not readable";
    } else {
      f.found = std::to_string(*v / 1024) + " KiB";
      f.verdict = *v >= 4LL * 1024 * 1024 ? Verdict::ok : Verdict::warning;
      if (f.verdict == Verdict::warning) {
        f.change = std::string("a burst (discovery, a large sample) overflows a small buffer and Cyclone drops or "
                               "resends: sysctl net.core.") +
                   which + "=8388608";
      }
    }
    out.push_back(f);
  }
  return out;
}

Finding timer_slack(const Machine& m) {
  Finding f{"timer slack", "", Verdict::unknown, ""};
  const auto ns = m.number("/proc/self/timerslack_ns");
  if (!ns) {
    f.found = "not readable";
    return f;
  }
  f.found = std::to_string(*ns) + " ns";
  f.verdict = *ns <= 1000 ? Verdict::ok : Verdict::warning;
  if (f.verdict == Verdict::warning) {
    f.change = "a sleep may end this much late: praxis sets 1 us on its threads with RealtimeOptions::timer_slack "
               "(SCHED_FIFO threads have none)";
  }
  return f;
}

// The deepest idle state a core may enter, by its exit latency: a core asleep in C6 takes ~100 us
// to wake for the control thread. cpuidle publishes each state's name, exit latency (us) and
// whether it is disabled.
Finding idle_states(const Machine& m) {
  Finding f{"CPU idle states (deepest enabled)", "", Verdict::unknown, ""};
  if (!m.exists("/sys/devices/system/cpu/cpu0/cpuidle")) {
    f.found = "no cpuidle driver (cores do not sleep deeper than the kernel's idle loop)";
    f.verdict = Verdict::ok;
    return f;
  }
  long long deepest = -1;
  std::string deepest_name;
  for (int cpu = 0; m.exists("/sys/devices/system/cpu/cpu" + std::to_string(cpu)); ++cpu) {
    const std::string base = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpuidle/state";
    for (int st = 0; m.exists(base + std::to_string(st)); ++st) {
      const std::string dir = base + std::to_string(st);
      if (m.number(dir + "/disable").value_or(0) != 0) continue;
      const auto latency = m.number(dir + "/latency");
      if (latency && *latency > deepest) {
        deepest = *latency;
        deepest_name = m.read(dir + "/name").value_or("state" + std::to_string(st));
      }
    }
  }
  if (deepest < 0) {
    f.found = "every state disabled";
    f.verdict = Verdict::ok;
    return f;
  }
  f.found = deepest_name + ", exit latency " + std::to_string(deepest) + " us";
  f.verdict = deepest <= 20 ? Verdict::ok : Verdict::warning;
  if (f.verdict == Verdict::warning) {
    f.change = "a sleeping core wakes this much late: RealtimeOptions::cpu_latency = 0 (in typical()) holds the "
               "cores out of it while praxis runs, or boot with processor.max_cstate=1 intel_idle.max_cstate=1";
  }
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"praxis-check: what on this computer would hurt a 500 Hz / 1 kHz control loop, and what to change"};
  std::string interface = "lo", json, root = "/";
  int priority = 80, rate = 1000;
  bool strict = false;
  app.add_option("-i,--interface", interface, "the network interface DDS uses to reach the robot");
  app.add_option("--priority", priority, "the SCHED_FIFO priority the control thread will ask for")
      ->check(CLI::Range(1, 99));
  app.add_option("--rate", rate, "the control rate in Hz")->check(CLI::Range(1, 100000));
  app.add_flag("--strict", strict, "exit 1 when a finding is a blocker");
  app.add_option("--json", json, "also write the findings as JSON to this file");
  app.add_option("--root", root, "read /proc and /sys under this folder (another machine's copy)")
      ->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);

  const Machine m{root};
  std::vector<Finding> findings{preemption(m, rate), throttling(m), governor(m), isolation(m), memlock(m),
                                rtprio(m, priority)};
  for (auto& f : network(m, interface)) findings.push_back(std::move(f));
  findings.push_back(timer_slack(m));
  findings.push_back(idle_states(m));

  std::size_t blockers = 0, warnings = 0;
  std::printf("praxis-check: a %d Hz loop, SCHED_FIFO %d, DDS on %s\n\n", rate, priority, interface.c_str());
  for (const auto& f : findings) {
    blockers += f.verdict == Verdict::blocker ? 1 : 0;
    warnings += f.verdict == Verdict::warning ? 1 : 0;
    std::printf("%-8s %-40s %s\n", name_of(f.verdict), f.check.c_str(), f.found.c_str());
    if (!f.change.empty()) std::printf("%-8s   -> %s\n", "", f.change.c_str());
  }
  std::printf("\n%zu blocker(s), %zu warning(s)\n", blockers, warnings);
  if (!json.empty()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : findings) {
      out.push_back({{"check", f.check}, {"found", f.found}, {"verdict", name_of(f.verdict)}, {"change", f.change}});
    }
    std::ofstream(json) << nlohmann::json{{"rate", rate}, {"priority", priority}, {"interface", interface},
                                          {"blockers", blockers}, {"warnings", warnings}, {"findings", out}}
                               .dump(2)
                        << '\n';
  }
  return strict && blockers > 0 ? 1 : 0;
}
