#pragma once
// PortRecorder<Port>: a node that records one port's value to a CSV file, one row per cycle (or
// every k-th), headed by the value's field names (Hana reflection, io/reflect_fields.hpp: declare
// the value type with BOOST_HANA_DEFINE_STRUCT or adapt it). Add it to a configuration's extra
// nodes and open it before running:
//
//   using Rec = praxis::control::PortRecorder<EstimatePort>;
//   praxis::control::RobotController<Backend, MyController, MyEstimator, Rec> controller(robot, options);
//   controller.node<Rec>().open("estimate.csv");
//   controller.run();   // rows: time, cycle, then the estimate's fields
//
// The cycle flattens the value into a fixed-size row of numbers and pushes it into a lock-free
// queue: no allocation, lock or I/O. A writer thread of the recorder formats and writes the rows.
// A full queue drops the row and counts it (dropped()); close() or destruction writes everything
// queued, flushes and joins.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include <boost/lockfree/spsc_queue.hpp>

#include "praxis/core/clock.hpp"
#include "praxis/core/cycle.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/io/reflect_csv.hpp"
#include "praxis/io/reflect_fields.hpp"

namespace praxis::control {

template <class Port, std::size_t Capacity = 1024>
class PortRecorder {
 public:
  using value_type = typename Port::type;
  static_assert(!std::is_same_v<Port, CyclePort>,
                "praxis::control::PortRecorder: the cycle port is in every row already (time, cycle)");
  static constexpr std::size_t k_columns = 2 + io::field_count<value_type>();  // time, cycle, fields
  using Row = std::array<double, k_columns>;

  using inputs = ports<CyclePort, Port>;

  PortRecorder() = default;
  PortRecorder(const PortRecorder&) = delete;
  PortRecorder& operator=(const PortRecorder&) = delete;
  ~PortRecorder() { close(); }

  // Creates (or truncates) `file`, writes the header and starts recording from the next cycle,
  // one row every `every` cycles. Throws std::runtime_error naming the file if it cannot be
  // written. Call it before run() or between step()s, not from the control thread.
  void open(const std::filesystem::path& file, std::uint32_t every = 1) {
    close();
    if (every == 0) throw std::invalid_argument("PortRecorder::open(" + file.string() + "): every must be at least 1");
    csv_ = std::make_unique<io::CsvRecorder<value_type>>(file, std::initializer_list<std::string_view>{"time", "cycle"});
    queue_ = std::make_unique<Queue>();
    // Every slot written once here, so the control thread takes no page faults filling the queue.
    Row blank{};
    while (queue_->push(blank)) {
    }
    while (queue_->pop(blank)) {
    }
    every_ = every;
    countdown_ = 0;
    started_ = false;
    writing_.store(true, std::memory_order_release);
    writer_ = std::thread([this] { write_rows(); });
    recording_.store(true, std::memory_order_release);
  }

  // Stops recording, writes what is queued, closes the file.
  void close() {
    recording_.store(false, std::memory_order_release);
    if (writer_.joinable()) {
      writing_.store(false, std::memory_order_release);
      writer_.join();
    }
    csv_.reset();
  }

  // ---- the node ----
  void cycle(const CycleInfo& info, const value_type& value) {
    if (!recording_.load(std::memory_order_acquire)) return;
    if (countdown_ > 0) {
      --countdown_;
      return;
    }
    countdown_ = every_ - 1;
    if (!started_) {
      started_ = true;
      start_ = info.now;
    }
    Row row;
    row[0] = to_seconds(info.now - start_);
    row[1] = static_cast<double>(info.cycle);
    std::size_t k = 2;
    io::for_each_field_value(value, [&](double v) { row[k++] = v; });
    if (!queue_->push(row)) dropped_.fetch_add(1, std::memory_order_relaxed);
  }

  // Rows the writer could not keep up with (queue full), and rows written so far.
  [[nodiscard]] std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t written() const { return written_.load(std::memory_order_relaxed); }
  // A write error stops the recording; its message (empty while all is well).
  [[nodiscard]] std::string error() const {
    return failed_.load(std::memory_order_acquire) ? error_ : std::string{};
  }

 private:
  using Queue = boost::lockfree::spsc_queue<Row, boost::lockfree::capacity<Capacity>>;

  void write_rows() {
    Row row;
    const auto drain = [&] {
      while (queue_->pop(row)) {
        if (failed_.load(std::memory_order_relaxed)) continue;
        try {
          csv_->record_row(row);
          written_.fetch_add(1, std::memory_order_relaxed);
        } catch (const std::exception& e) {
          error_ = e.what();
          failed_.store(true, std::memory_order_release);
          recording_.store(false, std::memory_order_release);
        }
      }
    };
    while (writing_.load(std::memory_order_acquire)) {
      drain();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    drain();
    try {
      csv_->flush();
    } catch (const std::exception& e) {
      error_ = e.what();
      failed_.store(true, std::memory_order_release);
    }
  }

  std::unique_ptr<io::CsvRecorder<value_type>> csv_;
  std::unique_ptr<Queue> queue_;
  std::thread writer_;
  std::atomic<bool> recording_{false}, writing_{false}, failed_{false};
  std::atomic<std::uint64_t> dropped_{0}, written_{0};
  std::string error_;
  std::uint32_t every_ = 1, countdown_ = 0;
  bool started_ = false;
  TimePoint start_{};
};

}  // namespace praxis::control
