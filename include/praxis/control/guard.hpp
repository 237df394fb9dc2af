#pragma once
// praxis-guard, the controller's side. A killed controller (SIGKILL, a crash, the out-of-memory
// killer) or one stopped for good sends nothing more, and a robot that runs itself keeps doing
// what it was last told: walking, holding UserCmd targets, turning a motor in velocity mode. So
// while a run() has control of a robot on a wire, a small process of praxis' watches it and, when
// the controller dies or falls silent, speaks the robot's safe request itself (docs/safety.md,
// "Killed or hung controller"):
//
//   - it is started when the run takes control, with the backend's name, model and options, and
//     builds the same backend on its own DDS participant (reading the robot, writing nothing);
//   - the control thread writes a heartbeat and the last command's joint modes into memory both
//     share, every cycle (a few stores: nothing allocates or blocks);
//   - the guard acts when the controller's process ends (a pidfd) or when no cycle came for
//     `silence` (a hung process) — never while the controller cycles, and not when the controller
//     already put the robot in its safe state itself (a long stall), unless it then dies;
//   - acting, it marks the shared memory first (a controller that wakes up sends nothing more and
//     ends its run), then sends what the run's end would have: the safe command from the measured
//     state (velocity joints stopped first), the safe mode when requests were posted, and the
//     backend's release(); it prints what it did and how long after the last cycle;
//   - a normal end of the run hands back and the guard exits.
//
// It is on by default for every backend that names itself to it (Guardable); RuntimeOptions::guard
// switches it off. What no process can cover: the computer itself losing power or its network.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "praxis/control/detail/guard_block.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_status.hpp"

extern char** environ;

namespace praxis::control {

struct GuardOptions {
  bool enabled = true;
  // Empty: $PRAXIS_GUARD, else praxis-guard beside this program, else the one praxis was built or
  // installed with, else praxis-guard on PATH.
  std::string executable;
  // No cycle for this long means the controller hangs. Unset: 4 stall timeouts, at least 500 ms (a
  // loaded machine may starve a live controller for a fraction of that).
  std::optional<Duration> silence;
  // How long the guard may take to get ready (start, discover the robot, read its state).
  Duration start_timeout = std::chrono::seconds(10);
};

// A backend praxis-guard can speak for: it names its kind (the guard builds the same backend) and
// gives its options as JSON (io/reflect_save.hpp).
template <class B>
concept Guardable = requires(const B& b) {
  { B::guard_backend } -> std::convertible_to<std::string_view>;
  { b.guard_options() } -> std::convertible_to<std::string>;
};

class GuardProcess {
 public:
  GuardProcess() = default;
  GuardProcess(const GuardProcess&) = delete;
  GuardProcess& operator=(const GuardProcess&) = delete;
  ~GuardProcess() { (void)finish(std::chrono::seconds(1)); }

  // Starts praxis-guard and waits until it watches. An empty string, or why it did not start.
  std::string start(const GuardOptions& o, std::string_view backend, std::string_view model,
                    const std::string& options_json, std::size_t joints, Duration silence, double damping_kd) {
    (void)finish(std::chrono::seconds(1));
    if (joints > detail::k_guard_max_joints) return "praxis-guard handles at most 64 joints";
    fd_ = ::memfd_create("praxis-guard", MFD_CLOEXEC);
    if (fd_ < 0) return std::string("memfd_create: ") + std::strerror(errno);
    if (::ftruncate(fd_, sizeof(detail::GuardBlock)) != 0) return fail_start(std::string("ftruncate: ") + std::strerror(errno));
    void* memory = ::mmap(nullptr, sizeof(detail::GuardBlock), PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (memory == MAP_FAILED) return fail_start(std::string("mmap: ") + std::strerror(errno));
    block_ = new (memory) detail::GuardBlock();
    block_->joints = static_cast<std::uint32_t>(joints);
    block_->damping_kd = damping_kd;
    block_->silence_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(silence).count());
    for (auto& m : block_->modes) m.store(static_cast<std::uint8_t>(JointMode::none), std::memory_order_relaxed);
    last_modes_.fill(static_cast<std::uint8_t>(JointMode::none));
    last_assumed_ = RobotMode::unknown;
    block_->assumed_mode.store(static_cast<std::uint8_t>(RobotMode::unknown));
    block_->heartbeat_ns.store(Clock::now().time_since_epoch().count(), std::memory_order_release);

    const std::string exe = executable(o);
    std::vector<std::string> args{exe, "--backend", std::string(backend), "--model", std::string(model),
                                  "--options", options_json, "--pid", std::to_string(::getpid())};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fd_, detail::k_guard_fd);
    posix_spawnattr_init(&attr);
    // Its own process group: the terminal's Ctrl-C, meant for the controller, does not reach it.
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    const bool on_path = exe.find('/') == std::string::npos;
    const int rc = on_path ? posix_spawnp(&pid_, exe.c_str(), &actions, &attr, argv.data(), environ)
                           : posix_spawn(&pid_, exe.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
      pid_ = 0;
      return fail_start("could not start " + exe + ": " + std::strerror(rc) +
                        " (RuntimeOptions::guard.executable or $PRAXIS_GUARD names it; guard.enabled = false runs "
                        "without it)");
    }
    const auto deadline = Clock::now() + o.start_timeout;
    while (phase() == detail::GuardPhase::starting) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = 0;
        return fail_start(exe + " ended before it was ready" + exit_text(status) + message_text());
      }
      if (Clock::now() > deadline) {
        return fail_start(exe + " was not ready within " + std::to_string(to_ms(o.start_timeout)) + " ms" +
                          message_text());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (phase() != detail::GuardPhase::watching) return fail_start(exe + " could not watch" + message_text());
    return {};
  }

  [[nodiscard]] bool running() const { return block_ != nullptr; }
  // Set by the guard before it acts (for the backend's request worker: RequestWorker::set_silenced_flag);
  // valid until finish().
  [[nodiscard]] const std::atomic<std::uint8_t>* silenced_flag() const {
    return block_ != nullptr ? &block_->silenced : nullptr;
  }

  // ---- the control thread, every cycle: stores only ----
  template <std::size_t N>
  void beat(TimePoint now, const JointCommand<N>& command, bool posted, RobotMode assumed) noexcept {
    if (block_ == nullptr) return;
    if (assumed != last_assumed_) {
      last_assumed_ = assumed;
      block_->assumed_mode.store(static_cast<std::uint8_t>(assumed), std::memory_order_relaxed);
    }
    for (std::size_t j = 0; j < N; ++j) {
      const auto m = static_cast<std::uint8_t>(command.mode[j]);
      if (m != last_modes_[j]) {
        last_modes_[j] = m;
        block_->modes[j].store(m, std::memory_order_relaxed);
      }
    }
    if (posted && !posted_) {
      posted_ = true;
      block_->posted.store(1, std::memory_order_relaxed);
    }
    block_->heartbeat_ns.store(now.time_since_epoch().count(), std::memory_order_release);
  }

  // ---- any thread ----
  // Whether the guard took over: the controller sends nothing more.
  [[nodiscard]] bool taken() const noexcept {
    if (block_ == nullptr) return false;
    const auto p = phase();
    return p == detail::GuardPhase::acting || p == detail::GuardPhase::done;
  }
  // The controller put the robot in its safe state itself (a stall past stall_timeout), and back.
  // Back means a fresh cycle's command arrived, but the control thread beats only after it
  // published that command: until then the heartbeat is the stall's last, which the guard would
  // take for a silence (it did, once, on a loaded CI machine). This moment is the heartbeat then.
  void controller_safe(bool safe) noexcept {
    if (block_ == nullptr) return;
    if (!safe) block_->heartbeat_ns.store(Clock::now().time_since_epoch().count(), std::memory_order_release);
    auto from = static_cast<std::uint32_t>(safe ? detail::GuardPhase::watching : detail::GuardPhase::controller_safe);
    const auto to = static_cast<std::uint32_t>(safe ? detail::GuardPhase::controller_safe : detail::GuardPhase::watching);
    block_->phase.compare_exchange_strong(from, to, std::memory_order_acq_rel);
  }

  // The run's end: the guard is told the controller handed back and exits; a guard that took over
  // is waited for (up to `wait`) so that the robot's end is its. What the guard did, when it acted.
  std::string finish(Duration wait) {
    if (block_ == nullptr && pid_ == 0) return {};
    std::string report;
    if (block_ != nullptr) {
      auto from = static_cast<std::uint32_t>(detail::GuardPhase::watching);
      const auto handed = static_cast<std::uint32_t>(detail::GuardPhase::handed_back);
      if (!block_->phase.compare_exchange_strong(from, handed)) {
        from = static_cast<std::uint32_t>(detail::GuardPhase::controller_safe);
        block_->phase.compare_exchange_strong(from, handed);
      }
    }
    if (pid_ > 0) {
      const auto deadline = Clock::now() + wait;
      int status = 0;
      while (::waitpid(pid_, &status, WNOHANG) != pid_) {
        if (Clock::now() > deadline) {
          ::kill(pid_, SIGKILL);
          ::waitpid(pid_, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      pid_ = 0;
    }
    if (block_ != nullptr) {
      const auto p = phase();
      if (p == detail::GuardPhase::acting || p == detail::GuardPhase::done) report = message_text();
    }
    unmap();
    posted_ = false;
    return report;
  }

  // The default silence for a runtime stall timeout.
  [[nodiscard]] static Duration default_silence(Duration stall_timeout) {
    return std::max<Duration>(4 * stall_timeout, std::chrono::milliseconds(500));
  }

  // Where the guard program is (see GuardOptions::executable).
  [[nodiscard]] static std::string executable(const GuardOptions& o) {
    if (!o.executable.empty()) return o.executable;
    if (const char* env = std::getenv("PRAXIS_GUARD"); env != nullptr && *env != '\0') return env;
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      const auto beside = self.parent_path() / "praxis-guard";
      if (std::filesystem::exists(beside, ec)) return beside.string();
    }
#ifdef PRAXIS_GUARD_EXECUTABLE
    if (std::filesystem::exists(PRAXIS_GUARD_EXECUTABLE, ec)) return PRAXIS_GUARD_EXECUTABLE;
#endif
    return "praxis-guard";
  }

 private:
  [[nodiscard]] detail::GuardPhase phase() const noexcept {
    return static_cast<detail::GuardPhase>(block_->phase.load(std::memory_order_acquire));
  }
  [[nodiscard]] std::string message_text() const {
    if (block_ == nullptr || block_->message[0] == '\0') return {};
    return ": " + std::string(block_->message, strnlen(block_->message, sizeof block_->message));
  }
  static std::string exit_text(int status) {
    if (WIFEXITED(status)) return " (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    if (WIFSIGNALED(status)) return " (signal " + std::to_string(WTERMSIG(status)) + ")";
    return {};
  }
  std::string fail_start(std::string why) {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = 0;
    }
    unmap();
    return "praxis-guard: " + why;
  }
  // The shared memory and its descriptor, gone.
  void unmap() noexcept {
    if (block_ != nullptr) {
      block_->~GuardBlock();
      ::munmap(block_, sizeof(detail::GuardBlock));
      block_ = nullptr;
    }
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }

  int fd_ = -1;
  pid_t pid_ = 0;
  detail::GuardBlock* block_ = nullptr;
  std::array<std::uint8_t, detail::k_guard_max_joints> last_modes_{};
  RobotMode last_assumed_ = RobotMode::unknown;
  bool posted_ = false;
};

}  // namespace praxis::control
