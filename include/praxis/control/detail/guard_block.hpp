#pragma once
// The memory the controller and praxis-guard share (control/guard.hpp): one page made by the
// controller (memfd), handed to the guard as a file descriptor, mapped by both. Only lock-free
// atomics cross the process boundary; the controller's control thread writes the heartbeat and the
// last command's joint modes every cycle (stores, nothing else), the guard reads them.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace praxis::control::detail {

inline constexpr std::uint32_t k_guard_magic = 0x44475250;  // "PRGD"
inline constexpr std::uint32_t k_guard_version = 1;
inline constexpr std::size_t k_guard_max_joints = 64;
inline constexpr int k_guard_fd = 3;  // where the guard finds the block

enum class GuardPhase : std::uint32_t {
  starting,            // the guard is getting ready (its own view of the robot)
  watching,            // ready: acts when the controller dies or falls silent
  controller_safe,     // the controller put the robot in its safe state itself (a long stall): the
                       // guard acts only if the controller dies
  handed_back,         // the run ended normally: the guard exits
  acting,              // the guard took over: the controller must send nothing more
  done,                // the guard finished (its report in `message`)
  failed,              // the guard could not get ready (why in `message`)
};

struct GuardBlock {
  std::uint32_t magic = k_guard_magic;
  std::uint32_t version = k_guard_version;
  std::uint32_t joints = 0;
  double damping_kd = 0.0;
  std::atomic<std::int64_t> silence_ns{0};    // the guard acts after this long without a cycle
  std::atomic<std::uint32_t> phase{static_cast<std::uint32_t>(GuardPhase::starting)};
  std::atomic<std::int64_t> heartbeat_ns{0};  // steady clock (CLOCK_MONOTONIC) of the newest cycle
  std::atomic<std::uint32_t> posted{0};       // the run posted requests: the safe mode must be asked
  std::atomic<std::uint8_t> assumed_mode{0};  // the RobotMode the controller assumed last (its status)
  std::atomic<std::uint8_t> silenced{0};      // guard: set before it acts; the controller's workers stop
  std::array<std::atomic<std::uint8_t>, k_guard_max_joints> modes{};  // the last command's JointMode
  std::atomic<std::int64_t> acted_after_ns{0};  // guard: the silence it acted on
  char message[1024] = {};                      // guard: why it failed, or what it did (before `phase`)
};

static_assert(std::atomic<std::int64_t>::is_always_lock_free && std::atomic<std::uint32_t>::is_always_lock_free &&
                  std::atomic<std::uint8_t>::is_always_lock_free,
              "praxis-guard shares atomics between processes: they must be lock-free");

}  // namespace praxis::control::detail
