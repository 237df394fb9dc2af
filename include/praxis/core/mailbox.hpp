#pragma once
// LatestValue<T>: a lock-free single-producer / single-consumer mailbox that always holds the newest
// value (a triple buffer). The producer never waits for the consumer and the consumer never waits
// for the producer; neither allocates. Used between the receive, control and send threads.

#include <array>
#include <atomic>
#include <cstdint>
#include <new>

namespace praxis {

template <class T>
class LatestValue {
 public:
  LatestValue() = default;
  explicit LatestValue(const T& initial) { slots_.fill(Slot{initial}); }

  // ---- producer side (one thread) ----

  // The slot the producer may fill; publish() hands it over.
  [[nodiscard]] T& back() { return slots_[back_].value; }

  void publish() {
    const auto previous = middle_.exchange(static_cast<std::uint8_t>(back_ | k_fresh),
                                           std::memory_order_acq_rel);
    back_ = previous & k_index;
  }

  void publish(const T& value) {
    back() = value;
    publish();
  }

  // ---- consumer side (one thread) ----

  // Takes the newest published value if there is one the consumer has not seen; returns whether it
  // did. value() is unchanged when nothing new was published.
  bool fetch() {
    if ((middle_.load(std::memory_order_acquire) & k_fresh) == 0) return false;
    const auto previous = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = previous & k_index;
    return true;
  }

  [[nodiscard]] const T& value() const { return slots_[front_].value; }

 private:
  static constexpr std::uint8_t k_index = 0x3;
  static constexpr std::uint8_t k_fresh = 0x4;

  // Each slot on its own cache line so producer and consumer do not share one.
  struct alignas(64) Slot {
    T value{};
  };
  std::array<Slot, 3> slots_{};
  alignas(64) std::atomic<std::uint8_t> middle_{1};
  alignas(64) std::uint8_t back_ = 0;  // producer-owned
  alignas(64) std::uint8_t front_ = 2;  // consumer-owned
};

}  // namespace praxis
