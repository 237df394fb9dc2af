#pragma once
// Tap<Graph, N>: the control thread's whole part in observing a run. After each cycle's command went
// out, it copies every port whose type has a wire form (observe/cdr.hpp) into the next slot of a
// ring of snapshots, preallocated and touched before the run: no allocation, no lock, no I/O, no
// wait. The observer thread (observe/recorder.hpp) takes the snapshots in order and encodes, records
// and serves them. When the ring is full the cycle's snapshot is dropped and counted; the cycle
// never waits for the observer.
//
// The cycle's inputs are ports too (praxis/robot_state, praxis/cycle, praxis/robot_status, which
// StateSource writes), so a snapshot holds everything replay needs.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "praxis/control/cycle_observer.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/observe/cdr.hpp"

namespace praxis::observe {

template <class Graph, std::size_t N>
class Tap final : public control::CycleObserver<Graph, N> {
 public:
  static constexpr std::size_t port_count = Graph::port_count;
  template <std::size_t P>
  using value_t = typename Graph::template port_at<P>::type;
  // Whether port P is recorded: its type has a wire form. The others are listed by the recorder.
  template <std::size_t P>
  static constexpr bool recorded = CdrEncodable<value_t<P>>;

  static constexpr std::array<bool, port_count> recorded_ports = []<std::size_t... P>(std::index_sequence<P...>) {
    return std::array<bool, port_count>{recorded<P>...};
  }(std::make_index_sequence<port_count>{});

  struct Unrecorded {};
  template <std::size_t P>
  using slot_t = std::conditional_t<recorded<P>, value_t<P>, Unrecorded>;

 private:
  template <class Seq>
  struct values_for;
  template <std::size_t... P>
  struct values_for<std::index_sequence<P...>> {
    using type = std::tuple<slot_t<P>...>;
  };

 public:
  using Values = typename values_for<std::make_index_sequence<port_count>>::type;
  struct Snapshot {
    std::uint64_t cycle = 0;
    TimePoint now{};
    Values values{};
  };

  // `capacity` snapshots are allocated and written once here, before any cycle.
  explicit Tap(std::size_t capacity = 1024) : capacity_(capacity) {
    if (capacity_ == 0) throw std::invalid_argument("praxis::observe::Tap: capacity must be at least 1 snapshot");
    ring_ = std::make_unique<Snapshot[]>(capacity_);
  }

  // ---- the control thread ----
  void on_cycle(const Graph& graph, const control::CycleInput<N>& input) noexcept override {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) >= capacity_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    Snapshot& slot = ring_[head % capacity_];
    slot.cycle = input.info.cycle;
    slot.now = input.info.now;
    copy_ports(graph, slot.values, std::make_index_sequence<port_count>{});
    head_.store(head + 1, std::memory_order_release);
  }

  // ---- the observer thread (one) ----
  // Calls f(const Snapshot&) for every snapshot taken and not yet consumed, oldest first; returns
  // how many.
  template <class F>
  std::size_t consume(F&& f) {
    std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    const std::uint64_t head = head_.load(std::memory_order_acquire);
    std::size_t n = 0;
    while (tail < head) {
      f(static_cast<const Snapshot&>(ring_[tail % capacity_]));
      ++tail;
      ++n;
      tail_.store(tail, std::memory_order_release);  // the slot is free again as soon as it is used
    }
    return n;
  }

  // Snapshots the ring had no room for (the observer fell behind), and snapshots taken.
  [[nodiscard]] std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t taken() const { return head_.load(std::memory_order_acquire); }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

  // The ports that are not recorded, as "name (why)", for the start-up message.
  [[nodiscard]] static std::vector<std::string> unrecorded_ports() {
    std::vector<std::string> out;
    for (std::size_t p = 0; p < port_count; ++p) {
      if (!recorded_ports[p]) {
        out.push_back(std::string(Graph::port_names[p]) +
                      " (its type is not reflected: declare it with BOOST_HANA_DEFINE_STRUCT)");
      }
    }
    return out;
  }

 private:
  template <std::size_t... P>
  static void copy_ports(const Graph& graph, Values& values, std::index_sequence<P...>) {
    (copy_port<P>(graph, std::get<P>(values)), ...);
  }
  template <std::size_t P>
  static void copy_port(const Graph& graph, slot_t<P>& slot) {
    if constexpr (recorded<P>) slot = graph.template port_value<P>();
  }

  std::size_t capacity_;
  std::unique_ptr<Snapshot[]> ring_;
  // Producer and consumer indices on lines of their own: the two threads write one each.
  alignas(64) std::atomic<std::uint64_t> head_{0};
  alignas(64) std::atomic<std::uint64_t> tail_{0};
  alignas(64) std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace praxis::observe
