#pragma once
// VelocityStops<N>: when a Tienkung joint that was in velocity mode counts as stopped.
//
// The vendor's arm manual (8.7.2, velocity mode): once cmd_vel names a speed, the motor keeps
// turning at it until it receives speed 0 on the same topic. A speed 0 that is lost - the motor
// offline when it left, the sample dropped - leaves a motor that turns again when it comes back.
// So a joint leaving velocity mode is not stopped when speed 0 has been sent, but when the limb's
// status shows it stopped:
//
//   - every write sends it speed 0 again (cmd_vel, before the limb's cmd_ctrl: topics.hpp); the
//     write that sends the first one leaves the joint out of cmd_ctrl (first_zero()): its damping
//     frame follows a write later, once the motor has its speed 0;
//   - a speed 0 counts as delivered ("armed") only when it left while the motor's latest status
//     was fresh, online and error-free; a status saying otherwise (error 33072 device offline, any
//     other error, a silent limb) disarms it, and the motor keeps its pending stop;
//   - the joint counts as stopped when statuses received after an armed speed 0 have read
//     |speed| < stopped_speed, online and error-free, for confirm_time. Requiring stillness over a
//     window rather than one reading guards against a motor just back online that reads slow
//     before it picks up its latched speed again.
//
// Two sides, as in the DDS backend: observe() on the thread that reads (from each limb status),
// next() on the thread that writes. The observation crosses in atomics; neither side blocks or
// allocates.

#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "praxis/core/clock.hpp"

namespace praxis::tienkung {

struct StopRule {
  // |speed| below this (rad/s, the status' unit) reads as stopped. The motors' speed noise at rest
  // is given by no source (UNVERIFIED; docs/backends/tienkung.md, "Wire facts and their sources");
  // 0.05 rad/s is about 3 deg/s.
  float stopped_speed = 0.05f;
  // How long the statuses after a delivered speed 0 must read stopped, online and error-free.
  Duration confirm_time = std::chrono::milliseconds(20);
  // A status older than this is no evidence (the limb fell silent): the backend's limb_timeout.
  Duration status_timeout = std::chrono::milliseconds(50);
};

enum class SpeedPhase : std::uint8_t {
  idle,      // not in velocity mode, or confirmed stopped
  velocity,  // in velocity mode: cmd_vel carries the commanded speed
  stopping,  // left velocity mode: speed 0 goes out every write until the status confirms it
};

template <std::size_t N>
class VelocityStops {
 public:
  explicit VelocityStops(StopRule rule = {}) : rule_(rule) {}

  // ---- reader side ----
  // A motor's reading from a limb status that arrived at `received`.
  void observe(std::size_t j, float speed, std::uint32_t error, TimePoint received) {
    if (j >= N) return;
    const std::uint64_t packed = (std::uint64_t{std::bit_cast<std::uint32_t>(speed)} << 32) | error;
    reading_[j].store(packed, std::memory_order_relaxed);
    seen_ns_[j].store(received.time_since_epoch().count(), std::memory_order_release);
  }

  // ---- writer side ----
  // Whether joint j gets a cmd_vel element in this write, and which speed. `wall` is Clock::now(),
  // comparable with the statuses' arrival times.
  bool next(std::size_t j, bool velocity_mode, float commanded, TimePoint wall, float& speed) {
    auto& p = phase_[j];
    if (velocity_mode) {
      p.store(SpeedPhase::velocity, std::memory_order_relaxed);
      armed_ns_[j] = still_since_ns_[j] = 0;
      first_zero_[j] = false;
      speed = commanded;
      return true;
    }
    const SpeedPhase was = p.load(std::memory_order_relaxed);
    first_zero_[j] = was == SpeedPhase::velocity;
    if (was == SpeedPhase::idle) return false;
    p.store(SpeedPhase::stopping, std::memory_order_relaxed);

    const Evidence e = evidence(j);
    const Duration::rep now = wall.time_since_epoch().count();
    const bool usable = e.seen != 0 && now - e.seen <= rule_.status_timeout.count() && e.error == 0;
    if (!usable) {
      armed_ns_[j] = still_since_ns_[j] = 0;  // offline, faulted or silent: this speed 0 may be lost
    } else if (armed_ns_[j] != 0 && e.seen > armed_ns_[j]) {
      if (std::abs(e.speed) < rule_.stopped_speed) {
        if (still_since_ns_[j] == 0) still_since_ns_[j] = e.seen;
        if (e.seen - still_since_ns_[j] >= rule_.confirm_time.count()) {
          p.store(SpeedPhase::idle, std::memory_order_relaxed);
          armed_ns_[j] = still_since_ns_[j] = 0;
          confirmed_.fetch_add(1, std::memory_order_relaxed);
          return false;
        }
      } else {
        still_since_ns_[j] = 0;
      }
    }
    if (usable && armed_ns_[j] == 0) armed_ns_[j] = now;
    zeros_sent_.fetch_add(1, std::memory_order_relaxed);
    speed = 0.0f;
    return true;
  }

  // Writer side, after next(j) of this write: whether it carried joint j's first speed 0 (the joint
  // left velocity mode in this write). Its cmd_ctrl waits for the next write: DDS does not order two
  // topics, and a motor that reads the damping frame before the speed 0 is still latched in velocity
  // mode (topics.hpp).
  [[nodiscard]] bool first_zero(std::size_t j) const { return j < N && first_zero_[j]; }

  // ---- either side (counters) ----
  [[nodiscard]] SpeedPhase phase(std::size_t j) const { return phase_[j].load(std::memory_order_relaxed); }
  // Joints in velocity mode or with a stop not yet confirmed.
  [[nodiscard]] std::size_t not_stopped() const { return count_not(SpeedPhase::idle); }
  [[nodiscard]] std::size_t stopping() const {
    std::size_t n = 0;
    for (const auto& p : phase_) n += p.load(std::memory_order_relaxed) == SpeedPhase::stopping ? 1 : 0;
    return n;
  }
  [[nodiscard]] std::uint64_t zeros_sent() const { return zeros_sent_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t stops_confirmed() const { return confirmed_.load(std::memory_order_relaxed); }
  [[nodiscard]] const StopRule& rule() const { return rule_; }

 private:
  struct Evidence {
    Duration::rep seen = 0;  // 0: no status, or one torn by a concurrent observe()
    float speed = 0;
    std::uint32_t error = 0;
  };
  Evidence evidence(std::size_t j) const {
    const auto before = seen_ns_[j].load(std::memory_order_acquire);
    const std::uint64_t packed = reading_[j].load(std::memory_order_relaxed);
    const auto after = seen_ns_[j].load(std::memory_order_acquire);
    if (before != after) return {};
    return {before, std::bit_cast<float>(static_cast<std::uint32_t>(packed >> 32)),
            static_cast<std::uint32_t>(packed & 0xffffffffu)};
  }
  std::size_t count_not(SpeedPhase x) const {
    std::size_t n = 0;
    for (const auto& p : phase_) n += p.load(std::memory_order_relaxed) != x ? 1 : 0;
    return n;
  }

  StopRule rule_;
  // Reader side: each motor's last reading (speed bits << 32 | error) and when it arrived (ns).
  std::array<std::atomic<std::uint64_t>, N> reading_{};
  std::array<std::atomic<Duration::rep>, N> seen_ns_{};
  // Writer side.
  std::array<std::atomic<SpeedPhase>, N> phase_{};
  std::array<Duration::rep, N> armed_ns_{};        // when a speed 0 left towards a motor that read online
  std::array<Duration::rep, N> still_since_ns_{};  // first still reading after it
  std::array<bool, N> first_zero_{};                // this write carried the joint's first speed 0
  std::atomic<std::uint64_t> zeros_sent_{0}, confirmed_{0};
};

}  // namespace praxis::tienkung
