#pragma once
// Recorder<Controller>: every port of a run, recorded to an MCAP file and served live over the
// Foxglove WebSocket protocol (with the page of its own), and chosen ports written to CSV files,
// from a thread of its own: the one recorder of a run's ports.
//
//   praxis::observe::RecorderOptions options;
//   options.file = run_folder / "run.mcap";                  // record (none: don't)
//   options.live = praxis::observe::LiveOptions{};           // serve on 127.0.0.1:8765 (none: don't)
//   options.metadata = {{"robot", "g1"}};                    // the run's facts, kept in the file
//   options.csv = {{"estimate", run_folder / "estimate.csv", 5}}; // a port as CSV, every 5th cycle
//   praxis::observe::Recorder recorder(controller, options); // before step()/run()
//   controller.run_for(10s);
//   recorder.close();                                        // after the run: the file's summary
//
// The control thread's part is the Tap (observe/tap.hpp): a copy of the ports into a preallocated
// ring after the command went out. This thread encodes each port once (CDR, observe/cdr.hpp),
// writes it to the file (one channel per port, topic "/<port name>", log time = the cycle's time)
// and hands the same bytes to the live server, which sends each client at most its rate. Two more
// channels carry what happened rather than what is: /praxis/events/transitions (every motion
// change with its cause, by name) and /praxis/events/guard (cycles where the command guard acted).
//
// A CSV row is `time` (seconds since the file's first row), `cycle`, then the port's fields by name
// (io/reflect_csv.hpp); a port whose type is not reflected, or a name the graph does not have, is
// refused when the recorder is made, naming it.
//
// A write error (a full disk) ends the recording, keeps the message (error()) and leaves the run and
// the live view alone; a slow writer costs the cycle nothing (the ring drops and counts).

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/hana/define_struct.hpp>

#include "praxis/core/clock.hpp"
#include "praxis/io/reflect_csv.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"
#include "praxis/observe/cdr.hpp"
#include "praxis/observe/live_server.hpp"
#include "praxis/observe/mcap.hpp"
#include "praxis/observe/tap.hpp"

namespace praxis::observe {

// /praxis/events/transitions: one message per motion change.
struct TransitionMessage {
  BOOST_HANA_DEFINE_STRUCT(TransitionMessage, (std::uint64_t, cycle), (std::string, from), (std::string, to),
                           (std::string, dispatching_to), (std::string, cause), (double, gain_ratio));
};
// /praxis/events/guard: one message per cycle in which the command guard replaced or clamped.
struct GuardMessage {
  BOOST_HANA_DEFINE_STRUCT(GuardMessage, (std::uint64_t, cycle), (bool, fallback_to_damping),
                           (std::uint32_t, clamped_joints), (std::uint32_t, rate_limited_joints),
                           (std::uint32_t, unsupported_modes));
};

inline constexpr std::string_view k_transitions_topic = "/praxis/events/transitions";
inline constexpr std::string_view k_guard_topic = "/praxis/events/guard";
// The file's metadata record with the run's facts (RecorderOptions::metadata), and what replay
// needs to know about the recording itself.
inline constexpr std::string_view k_run_metadata = "praxis";
// Written when the file is closed: cycles recorded and dropped.
inline constexpr std::string_view k_recorder_metadata = "praxis.recorder";

// A port written to a CSV file, one row every `every` cycles recorded.
struct CsvPort {
  std::string port;  // the port's name, as in the graph ("praxis/robot_state", "test/knee_estimate")
  std::filesystem::path file;
  std::uint32_t every = 1;
};

struct RecorderOptions {
  std::optional<std::filesystem::path> file;  // the MCAP file; none: no recording
  McapOptions mcap{};
  std::optional<LiveOptions> live;  // none: no live server
  // Cycles the ring holds while the writer catches up (a snapshot of a 29-joint robot's ports is
  // about 20 KB): 2048 is two seconds at 1 kHz.
  std::size_t capacity = 2048;
  std::map<std::string, std::string> metadata;  // the run's facts: robot, backend, parameters, ...
  std::vector<CsvPort> csv;                      // ports also written as CSV
  std::chrono::milliseconds poll{2};             // how often the thread looks at the ring
};

struct RecorderStats {
  std::uint64_t cycles_recorded = 0;  // snapshots encoded (written, when there is a file)
  std::uint64_t cycles_dropped = 0;   // snapshots the ring had no room for
  std::uint64_t messages = 0;         // written to the file
  std::uint64_t bytes = 0;            // of the file, so far
  double writer_cpu_seconds = 0.0;    // the recorder thread's CPU time
  std::uint64_t csv_rows = 0;         // written to the CSV files, all together
  std::optional<LiveStats> live;
};

template <class Controller>
class Recorder {
 public:
  using Graph = typename Controller::graph_type;
  static constexpr std::size_t N = Controller::N;
  using TapType = Tap<Graph, N>;
  using Snapshot = typename TapType::Snapshot;
  static constexpr std::size_t port_count = Graph::port_count;

  // Opens the file (throws naming it), starts the live server (throws naming address and port) and
  // the thread, and attaches the tap to the controller. Call before step() or run().
  Recorder(Controller& controller, RecorderOptions options)
      : controller_(controller), options_(std::move(options)), tap_(options_.capacity) {
    build_channels(std::make_index_sequence<port_count>{});
    for (const auto& c : options_.csv) open_csv(c);
    if (options_.file) open_file();
    if (options_.live) live_ = std::make_unique<LiveServer>(live_channels_, *options_.live);
    controller_.set_observer(&tap_);  // throws while a run executes: nothing started yet
    running_.store(true, std::memory_order_release);
    try {
      thread_ = std::thread([this] { run_thread(); });
    } catch (...) {
      controller_.set_observer(nullptr);
      throw;
    }
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder() {
    try {
      close();
    } catch (...) {  // a destructor reports nothing: close() is where errors are seen
    }
  }

  // A metadata record written when the file is closed: facts known only once the run went, such as
  // the stand pose a robot reported when it was taken (replay needs it). Any thread, before close().
  void add_metadata(std::string name, std::map<std::string, std::string> values) {
    std::lock_guard lock(error_mutex_);
    pending_metadata_.emplace_back(std::move(name), std::move(values));
  }

  // After the run: detaches the tap, records what is still queued, writes the file's summary and
  // stops the live server. Throws the first write error, if there was one, naming the file.
  void close() {
    if (closed_) return;
    closed_ = true;
    controller_.set_observer(nullptr);
    running_.store(false, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
    if (live_) final_live_ = live_->stats();
    live_.reset();
    for (auto& c : csv_) guarded([&] { c->flush(); }, false);
    csv_.clear();
    if (writer_ && !failed()) {
      try {
        for (const auto& [name, values] : pending_metadata_) writer_->add_metadata(name, values);
        // How complete the file is: replay refuses one that lost cycles, wherever they were lost.
        writer_->add_metadata(k_recorder_metadata,
                              {{"cycles_recorded", std::to_string(recorded_.load(std::memory_order_acquire))},
                               {"cycles_dropped", std::to_string(tap_.dropped())}});
        writer_->close();
        final_bytes_ = writer_->bytes();
      } catch (const std::exception& e) {
        fail(e.what());
      }
    }
    writer_.reset();
    if (failed()) throw std::runtime_error(error());
  }

  // Waits until every snapshot taken so far is recorded: for step()-driven runs faster than real
  // time (replay, simulation), which would otherwise outrun the ring. Never call it in a real-time loop.
  void drain() const {
    while (recorded_.load(std::memory_order_acquire) < tap_.taken() && running_.load(std::memory_order_acquire)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  [[nodiscard]] RecorderStats stats() const {
    RecorderStats s;
    s.cycles_recorded = recorded_.load(std::memory_order_relaxed);
    s.cycles_dropped = tap_.dropped();
    s.messages = messages_.load(std::memory_order_relaxed);
    s.bytes = closed_ ? final_bytes_ : bytes_.load(std::memory_order_relaxed);
    s.writer_cpu_seconds = static_cast<double>(cpu_ns_.load(std::memory_order_relaxed)) * 1e-9;
    s.csv_rows = csv_rows_.load(std::memory_order_relaxed);
    if (live_) s.live = live_->stats();
    if (closed_ && final_live_) s.live = final_live_;
    return s;
  }
  // The first write error ("" while all is well).
  [[nodiscard]] std::string error() const {
    std::lock_guard lock(error_mutex_);
    return error_;
  }
  [[nodiscard]] bool failed() const { return failed_.load(std::memory_order_acquire); }
  [[nodiscard]] std::uint16_t live_port() const { return live_ ? live_->port() : 0; }
  [[nodiscard]] const std::vector<LiveChannel>& channels() const { return live_channels_; }
  [[nodiscard]] static std::vector<std::string> unrecorded_ports() { return TapType::unrecorded_ports(); }
  // The topic of a port, and of every channel by index (ports first, then the two event channels).
  [[nodiscard]] static std::string topic_of(std::string_view port_name) { return "/" + std::string(port_name); }

 private:
  static constexpr std::size_t k_no_channel = static_cast<std::size_t>(-1);

  template <std::size_t... P>
  void build_channels(std::index_sequence<P...>) {
    (add_port_channel<P>(), ...);
    transitions_channel_ = live_channels_.size();
    live_channels_.push_back(LiveChannel{std::string(k_transitions_topic), "praxis_msgs/msg/TransitionMessage",
                                         cdr_schema<TransitionMessage>(), "cdr", "ros2msg", 0.0});
    guard_channel_ = live_channels_.size();
    live_channels_.push_back(LiveChannel{std::string(k_guard_topic), "praxis_msgs/msg/GuardMessage",
                                         cdr_schema<GuardMessage>(), "cdr", "ros2msg", 0.0});
  }
  template <std::size_t P>
  void add_port_channel() {
    if constexpr (TapType::template recorded<P>) {
      using T = typename TapType::template value_t<P>;
      channel_of_port_[P] = live_channels_.size();
      live_channels_.push_back(LiveChannel{topic_of(Graph::port_names[P]), "praxis_msgs/msg/" + cdr_type_name<T>(),
                                           cdr_schema<T>(), "cdr", "ros2msg", std::nullopt});
      buffer_size_ = std::max(buffer_size_, cdr_max_size<T>());
    } else {
      channel_of_port_[P] = k_no_channel;
    }
  }

  // One port's CSV file: every `every`-th snapshot as a row.
  struct CsvFile {
    virtual ~CsvFile() = default;
    virtual bool write(const Snapshot& s) = 0;  // whether it wrote a row
    virtual void flush() = 0;
  };
  template <std::size_t P>
  struct PortCsv final : CsvFile {
    using T = typename TapType::template value_t<P>;
    PortCsv(const std::filesystem::path& file, std::uint32_t every)
        : csv(file, {"time", "cycle"}), row(csv.columns()), every(every) {}
    bool write(const Snapshot& s) override {
      if (countdown > 0) {
        --countdown;
        return false;
      }
      countdown = every - 1;
      if (rows == 0) start = s.now;
      row[0] = to_seconds(s.now - start);
      row[1] = static_cast<double>(s.cycle);
      std::size_t k = 2;
      io::for_each_field_value(std::get<P>(s.values), [&](double v) { row[k++] = v; });
      csv.record_row(row);
      ++rows;
      return true;
    }
    void flush() override { csv.flush(); }
    io::CsvRecorder<T> csv;
    std::vector<double> row;
    std::uint32_t every, countdown = 0;
    std::uint64_t rows = 0;
    TimePoint start{};
  };

  void open_csv(const CsvPort& c) {
    if (c.every == 0) {
      throw std::invalid_argument("praxis recorder: CSV of port \"" + c.port + "\" (" + c.file.string() +
                                  "): every must be at least 1");
    }
    std::size_t p = 0;
    while (p < port_count && Graph::port_names[p] != c.port) ++p;
    if (p == port_count) {
      std::string names;
      for (const auto& n : Graph::port_names) names += (names.empty() ? "" : ", ") + std::string(n);
      throw std::invalid_argument("praxis recorder: CSV of port \"" + c.port + "\" (" + c.file.string() +
                                  "): no port of that name in this graph; its ports: " + names);
    }
    if (!TapType::recorded_ports[p]) {
      throw std::invalid_argument("praxis recorder: CSV of port \"" + c.port + "\" (" + c.file.string() +
                                  "): its type is not reflected (declare it with BOOST_HANA_DEFINE_STRUCT)");
    }
    if (!k_csv_ports[p]) {
      throw std::invalid_argument("praxis recorder: CSV of port \"" + c.port + "\" (" + c.file.string() +
                                  "): its type does not flatten into numbers (a variant, or a sequence of no "
                                  "fixed size); the MCAP file records it");
    }
    [&]<std::size_t... P>(std::index_sequence<P...>) {
      (void)((P == p ? (open_port_csv<P>(c), true) : false) || ...);
    }(std::make_index_sequence<port_count>{});
  }
  template <std::size_t P>
  static constexpr bool csv_port() {
    if constexpr (TapType::template recorded<P>) {
      return io::flattenable<typename TapType::template value_t<P>>();
    } else {
      return false;
    }
  }
  static constexpr std::array<bool, port_count> k_csv_ports = []<std::size_t... P>(std::index_sequence<P...>) {
    return std::array<bool, port_count>{csv_port<P>()...};
  }(std::make_index_sequence<port_count>{});
  template <std::size_t P>
  void open_port_csv(const CsvPort& c) {
    if constexpr (csv_port<P>()) csv_.push_back(std::make_unique<PortCsv<P>>(c.file, c.every));
  }

  void open_file() {
    writer_ = std::make_unique<McapWriter>(*options_.file, options_.mcap);
    std::map<std::string, std::uint16_t> schema_ids;
    for (const auto& c : live_channels_) {
      auto [it, added] = schema_ids.try_emplace(c.schema_name, 0);
      if (added) it->second = writer_->add_schema(c.schema_name, c.schema_encoding, c.schema);
      file_channels_.push_back(writer_->add_channel(it->second, c.topic, c.encoding));
    }
    auto facts = options_.metadata;
    facts["ports"] = std::to_string(port_count);
    facts["joints"] = std::to_string(N);
    facts["clock"] = "praxis::Clock time of each cycle (log_time = publish_time = the cycle's now, ns)";
    writer_->add_metadata(k_run_metadata, facts);
  }

  void run_thread() {
    buffer_.resize(buffer_size_);
    auto last_flush = std::chrono::steady_clock::now();
    const auto flush_every = std::chrono::nanoseconds(options_.mcap.chunk_duration_ns);
    while (true) {
      const bool more = running_.load(std::memory_order_acquire);
      tap_.consume([this](const Snapshot& s) { record(s); });
      // A quiet run (no cycles) still gets its last chunk to the disk within a chunk's duration.
      if (writer_ && !failed() && std::chrono::steady_clock::now() - last_flush >= flush_every) {
        guarded([&] { writer_->flush(); });
        last_flush = std::chrono::steady_clock::now();
      }
      account_cpu();
      if (!more) break;
      std::this_thread::sleep_for(options_.poll);
    }
  }

  void record(const Snapshot& s) {
    const auto time = static_cast<std::uint64_t>(std::max<std::int64_t>(
        0, std::chrono::duration_cast<std::chrono::nanoseconds>(s.now.time_since_epoch()).count()));
    const auto sequence = static_cast<std::uint32_t>(s.cycle);
    record_ports(s, time, sequence, std::make_index_sequence<port_count>{});
    record_events(s, time, sequence);
    if (!failed()) {
      for (auto& c : csv_) {
        guarded([&] {
          if (c->write(s)) csv_rows_.fetch_add(1, std::memory_order_relaxed);
        }, false);
      }
    }
    recorded_.fetch_add(1, std::memory_order_release);
    if (writer_) bytes_.store(writer_->bytes(), std::memory_order_relaxed);
  }

  template <std::size_t... P>
  void record_ports(const Snapshot& s, std::uint64_t time, std::uint32_t sequence, std::index_sequence<P...>) {
    (record_port<P>(s, time, sequence), ...);
  }
  template <std::size_t P>
  void record_port(const Snapshot& s, std::uint64_t time, std::uint32_t sequence) {
    if constexpr (TapType::template recorded<P>) {
      const std::size_t n = encode_cdr(std::get<P>(s.values), std::span<std::byte>(buffer_));
      emit(channel_of_port_[P], time, sequence, std::span<const std::byte>(buffer_.data(), n));
    }
  }

  void record_events(const Snapshot& s, std::uint64_t time, std::uint32_t sequence) {
    if constexpr (has_port<motion::MotionSelectionPort>()) {
      const auto& sel = std::get<port_index<motion::MotionSelectionPort>()>(s.values);
      if (sel.changed) {
        TransitionMessage m;
        m.cycle = s.cycle;
        m.from = std::string(motion::to_string(sel.previous));
        m.to = std::string(motion::to_string(sel.current));
        m.dispatching_to = std::string(motion::to_string(sel.dispatching_to));
        m.cause = std::string(motion::to_string(sel.cause));
        m.gain_ratio = sel.gain_ratio;
        const auto bytes = encode_cdr(m);
        emit(transitions_channel_, time, sequence, bytes);
      }
    }
    if constexpr (has_port<motion::CollectorReportPort>()) {
      const auto& g = std::get<port_index<motion::CollectorReportPort>()>(s.values);
      if (g.fallback_to_damping || g.clamped_joints > 0 || g.rate_limited_joints > 0 || g.unsupported_modes > 0) {
        const GuardMessage m{s.cycle, g.fallback_to_damping, g.clamped_joints, g.rate_limited_joints,
                             g.unsupported_modes};
        emit(guard_channel_, time, sequence, encode_cdr(m));
      }
    }
  }

  void emit(std::size_t channel, std::uint64_t time, std::uint32_t sequence, std::span<const std::byte> bytes) {
    if (bytes.empty()) return;
    if (writer_ && !failed()) {
      guarded([&] {
        writer_->write(file_channels_[channel], sequence, time, time, bytes);
        messages_.fetch_add(1, std::memory_order_relaxed);
      });
    }
    if (live_) live_->publish(channel, time, bytes);
  }

  template <class Port>
  static constexpr std::size_t port_index() {
    for (std::size_t p = 0; p < port_count; ++p) {
      if (Graph::port_names[p] == std::string_view(Port::name)) return p;
    }
    return port_count;
  }
  template <class Port>
  static constexpr bool has_port() {
    constexpr std::size_t p = port_index<Port>();
    if constexpr (p < port_count) {
      return TapType::template recorded<p>;
    } else {
      return false;
    }
  }

  template <class F>
  void guarded(F&& f, bool in_file = true) {
    try {
      f();
    } catch (const std::exception& e) {
      fail(e.what(), in_file);
    }
  }
  // `in_file`: the error is the MCAP file's (a CSV file's message names its own file).
  void fail(const std::string& what, bool in_file = true) {
    std::lock_guard lock(error_mutex_);
    if (!failed_.load(std::memory_order_relaxed)) {
      const std::string where = in_file && options_.file ? options_.file->string() + ": " : std::string();
      error_ = "praxis recorder: " + where + what + " (recording stopped; the run and the live view went on)";
      failed_.store(true, std::memory_order_release);
    }
  }
  void account_cpu() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0) {
      cpu_ns_.store(static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(t.tv_nsec),
                    std::memory_order_relaxed);
    }
  }

  Controller& controller_;
  RecorderOptions options_;
  TapType tap_;
  std::vector<LiveChannel> live_channels_;  // the channel list: ports first, then the events
  std::array<std::size_t, port_count> channel_of_port_{};
  std::size_t transitions_channel_ = 0, guard_channel_ = 0;
  std::vector<std::uint16_t> file_channels_;  // the file's channel id of each entry of live_channels_
  std::size_t buffer_size_ = 0;
  std::vector<std::byte> buffer_;
  std::unique_ptr<McapWriter> writer_;
  std::unique_ptr<LiveServer> live_;
  std::vector<std::unique_ptr<CsvFile>> csv_;
  std::thread thread_;
  std::atomic<bool> running_{false}, failed_{false};
  std::atomic<std::uint64_t> recorded_{0}, messages_{0}, bytes_{0}, cpu_ns_{0}, csv_rows_{0};
  std::uint64_t final_bytes_ = 0;
  std::optional<LiveStats> final_live_;  // the server's last word, kept when close() stops it
  mutable std::mutex error_mutex_;  // the error and the pending metadata
  std::string error_;
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> pending_metadata_;
  bool closed_ = false;
};

}  // namespace praxis::observe
