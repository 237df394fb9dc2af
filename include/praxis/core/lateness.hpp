#pragma once
// Lateness: how long after its deadline a periodic loop woke, over a whole run — the number
// cyclictest reports for a bare thread, measured on praxis' own control loop (Trigger::timer).
//
// A fixed histogram of 1 us buckets up to k_range, the exact maximum beyond: add() is a few
// instructions with no allocation, lock or branch on the data's size, so the control thread
// records every cycle. One thread writes; read it after the run (or from that thread).
// The buckets are written at construction, so recording touches no page for the first time.

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "praxis/core/clock.hpp"

namespace praxis {

struct LatenessStats {
  std::uint64_t samples = 0;
  Duration p50{}, p99{}, p999{}, max{};
};

class LatenessHistogram {
 public:
  static constexpr std::size_t k_buckets = 2048;  // 1 us each: [0, 2.048 ms); beyond, only counted
  static constexpr Duration k_range = std::chrono::microseconds(k_buckets);

  // A wake-up before the deadline (never, with an absolute sleep) counts as on time.
  void add(Duration late) noexcept {
    if (late < Duration::zero()) late = Duration::zero();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(late).count();
    if (static_cast<std::uint64_t>(us) < k_buckets) {
      ++counts_[static_cast<std::size_t>(us)];
    } else {
      ++overflow_;
    }
    if (late > max_) max_ = late;
    ++samples_;
  }

  void clear() noexcept {
    counts_.fill(0);
    overflow_ = 0;
    samples_ = 0;
    max_ = Duration::zero();
  }

  // Another run's wake-ups added to these (a benchmark's rounds, several runs of a test).
  void merge(const LatenessHistogram& other) noexcept {
    for (std::size_t i = 0; i < k_buckets; ++i) counts_[i] += other.counts_[i];
    overflow_ += other.overflow_;
    samples_ += other.samples_;
    if (other.max_ > max_) max_ = other.max_;
  }

  [[nodiscard]] std::uint64_t samples() const noexcept { return samples_; }
  // Wake-ups that were [i, i + 1) us late; those k_range or later are overflow().
  [[nodiscard]] std::uint32_t bucket(std::size_t i) const noexcept { return i < k_buckets ? counts_[i] : 0; }
  [[nodiscard]] std::uint64_t overflow() const noexcept { return overflow_; }
  [[nodiscard]] Duration max() const noexcept { return max_; }

  // The smallest bucket's upper edge at or below which a fraction q of the wake-ups lie (so a
  // reported p99 is never below the true one by more than 1 us, and never above it); the maximum
  // when that fraction reaches past k_range, or when it is below the bucket's edge.
  [[nodiscard]] Duration quantile(double q) const noexcept {
    if (samples_ == 0) return Duration::zero();
    // The rank of the quantile's sample (1-based), rounded up; the epsilon keeps 0.99 * 100 at 99.
    const auto rank = std::ceil(q * static_cast<double>(samples_) - 1e-9);
    const std::uint64_t want = rank < 1 ? 1 : static_cast<std::uint64_t>(rank);
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < k_buckets; ++i) {
      acc += counts_[i];
      if (acc >= want && acc > 0) {
        const Duration edge = std::chrono::microseconds(i + 1);
        return edge < max_ ? edge : max_;
      }
    }
    return max_;
  }

  [[nodiscard]] LatenessStats stats() const noexcept {
    return {samples_, quantile(0.5), quantile(0.99), quantile(0.999), max_};
  }

 private:
  std::array<std::uint32_t, k_buckets> counts_{};
  std::uint64_t overflow_ = 0;
  std::uint64_t samples_ = 0;
  Duration max_{};
};

}  // namespace praxis
