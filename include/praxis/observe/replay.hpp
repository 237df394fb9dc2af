#pragma once
// Replay: a recorded run's cycle inputs through the same graph again, checked port by port.
//
// A run is a function of what reached its graph from outside — the state, the cycle's clock and the
// robot's status, the ports StateSource writes, recorded every cycle (observe/recorder.hpp) — and
// of its configuration. ReplayBackend<B> stands in for the backend B the run was recorded on: it has
// B's traits (model, capabilities, safe state, joint modes, whether it reports a status, posts
// requests, has a lifecycle), so the replaying controller is built from the same configuration as
// the recorded one, and it serves the recorded inputs instead of a robot's. replay() then steps the
// controller at each recorded cycle's time (`step(now)`) and compares every port's encoding with
// the recorded bytes: bit for bit, or the first cycle where they differ, with every port that
// differed in it (upstream first: the producing node's execution position) and the first field.
//
//   praxis::observe::McapReader recording("logs/.../run.mcap");
//   praxis::observe::ReplayBackend<praxis::mock::MockRobot<G1>> robot;
//   praxis::control::RobotController<decltype(robot), MyController> controller(robot, options);  // as recorded
//   controller.load_params(params);
//   const auto report = praxis::observe::replay(controller, robot, recording, {.rerecord = "run.replay.mcap"});
//   std::puts(report.summary().c_str());
//
// The workflow: record on the robot, change the controller or its parameters on a laptop, replay,
// read where it first decides differently.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "praxis/control/cycle_observer.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/introspection.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/observe/cdr.hpp"
#include "praxis/observe/mcap.hpp"
#include "praxis/observe/recorder.hpp"

namespace praxis::observe {

class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a recorded run's backend told its controller once, outside the cycle, that the replaying
// backend must tell again: the stand pose a robot reported when it was taken (Fourier's PdStand)
// and the hold a robot is entered with (Booster's Custom entry).
template <std::size_t N>
struct ReplayFacts {
  std::optional<std::array<double, N>> stand_pose;
  std::optional<JointCommand<N>> entry_hold;
};

template <Backend B>
class ReplayBackend {
 public:
  using model = typename B::model;
  static constexpr std::size_t N = model::joint_count;
  static constexpr Capabilities capabilities = capabilities_of<B>();
  static constexpr SafeState safe_state = safe_state_of<B>();
  static constexpr RobotMode safe_mode = safe_mode_of<B>();
  static constexpr bool has_remote = has_remote_of<B>();
  static constexpr JointModeSet joint_modes = joint_modes_of<B>();

  explicit ReplayBackend(ReplayFacts<N> facts = {}) : facts_(std::move(facts)) {}

  // The cycle to serve at the next read.
  void serve(const control::CycleInput<N>& input) { input_ = &input; }

  bool read(RobotState<N>& state, TimePoint) {
    if (input_ == nullptr) return false;
    state = input_->state;
    return input_->info.have_state;
  }
  bool read_status(RobotStatus& status)
    requires ReportsStatus<B>
  {
    if (input_ != nullptr) status = input_->status;
    return input_ != nullptr;
  }
  void write(const JointCommand<N>& command, TimePoint) {
    written_ = command;
    ++writes_;
  }
  void post(const RobotRequests& requests)
    requires PostsRequests<B>
  {
    posted_ = requests;
  }
  void post_safe_mode(RobotMode)
    requires OverridesRequests<B>
  {}
  LifecycleResult acquire(Duration)
    requires HasLifecycle<B>
  {
    return {true, LifecycleStage::in_control, "replay: control as recorded"};
  }
  LifecycleResult release(Duration)
    requires HasLifecycle<B>
  {
    return {true, LifecycleStage::released, "replay: nothing to hand back"};
  }
  [[nodiscard]] std::array<double, N> stand_pose() const
    requires requires(const B& b) { b.stand_pose(); }
  {
    return facts_.stand_pose ? *facts_.stand_pose : model::stand_pose;
  }
  [[nodiscard]] JointCommand<N> entry_hold(const RobotState<N>&) const
    requires requires(const B& b, const RobotState<N>& s) { b.entry_hold(s); }
  {
    if (!facts_.entry_hold) {
      throw ReplayError("praxis replay: this robot is entered with a hold (entry_hold), and ReplayFacts::entry_hold "
                        "was not given");
    }
    return *facts_.entry_hold;
  }

  [[nodiscard]] const JointCommand<N>& written() const { return written_; }
  [[nodiscard]] std::uint64_t writes() const { return writes_; }
  [[nodiscard]] const RobotRequests& posted() const { return posted_; }

 private:
  ReplayFacts<N> facts_;
  const control::CycleInput<N>* input_ = nullptr;
  JointCommand<N> written_{};
  std::uint64_t writes_ = 0;
  RobotRequests posted_{};
};

struct ReplayOptions {
  std::optional<std::filesystem::path> rerecord;  // the replayed run, recorded beside the old one
  McapOptions mcap{};
  std::map<std::string, std::string> metadata;  // facts for the new recording
};

struct Divergence {
  std::uint64_t cycle = 0;
  double time = 0.0;            // s since the recording's first cycle
  std::string port;             // "praxis/actuated_command"
  std::string field;            // "q[3]": the first field whose bytes differ
  std::size_t producer = 0;     // execution position of the node writing the port
};

struct ReplayReport {
  std::filesystem::path recording;
  std::uint64_t cycles = 0;        // replayed
  std::uint64_t compared = 0;      // port messages compared
  std::uint64_t differing_cycles = 0;
  std::uint64_t differing_messages = 0;
  std::vector<Divergence> first;   // every port that differed in the first cycle that did, upstream first
  std::vector<std::string> not_recorded;  // ports of the graph the recording has no channel for
  std::optional<std::filesystem::path> rerecorded;
  bool cut_cycle = false;          // a file cut short ended inside a cycle, which was left out
  [[nodiscard]] bool identical() const { return first.empty() && not_recorded.empty(); }
  [[nodiscard]] static std::string seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", s);
    return text;
  }
  [[nodiscard]] std::string summary() const {
    std::string s = "replay of " + recording.string() + ": " + std::to_string(cycles) + " cycles, " +
                    std::to_string(compared) + " port messages compared: ";
    if (first.empty()) {
      s += "every port bit-identical";
    } else {
      s += std::to_string(differing_cycles) + " cycles differ (" + std::to_string(differing_messages) +
           " messages); first at cycle " + std::to_string(first.front().cycle) + " (" +
           seconds(first.front().time) + " s):";
      for (const auto& d : first) s += "\n  " + d.port + " (" + d.field + ")";
    }
    if (!not_recorded.empty()) {
      s += "\n  not in the recording (not compared):";
      for (const auto& p : not_recorded) s += " " + p;
    }
    if (cut_cycle) s += "\n  (the file ends inside a cycle: that cycle was left out)";
    if (rerecorded) s += "\nthe replayed run: " + rerecorded->string();
    return s;
  }
};

namespace detail {

template <class Graph, std::size_t P>
std::string replay_field_at(std::size_t offset) {
  return cdr_field_at<typename Graph::template port_at<P>::type>(offset);
}

}  // namespace detail

// Replays `recording` through `controller`, which must be freshly built from the recorded run's
// configuration on `backend` and not yet stepped. Throws ReplayError naming the file when the
// recording cannot be replayed exactly: an input port missing, a cycle missing (the recorder fell
// behind), a cycle input that does not decode.
template <class Controller, class B>
ReplayReport replay(Controller& controller, ReplayBackend<B>& backend, const McapReader& recording,
                    const std::filesystem::path& recording_name, const ReplayOptions& options = {}) {
  using Graph = typename Controller::graph_type;
  constexpr std::size_t N = Controller::N;
  constexpr std::size_t ports = Graph::port_count;
  using TapType = Tap<Graph, N>;
  const auto fail = [&](const std::string& what) {
    return ReplayError("praxis replay: " + recording_name.string() + ": " + what);
  };

  ReplayReport report;
  report.recording = recording_name;

  // Channel id -> graph port.
  std::map<std::uint16_t, std::size_t> port_of_channel;
  std::array<bool, ports> have{};
  for (const auto& [id, channel] : recording.channels()) {
    for (std::size_t p = 0; p < ports; ++p) {
      if (channel.topic == "/" + std::string(Graph::port_names[p])) {
        port_of_channel[id] = p;
        have[p] = true;
      }
    }
  }
  for (std::size_t p = 0; p < ports; ++p) {
    if (!have[p] && TapType::recorded_ports[p]) report.not_recorded.emplace_back(Graph::port_names[p]);
  }
  constexpr std::array<std::string_view, 3> inputs{StatePort<N>::name, CyclePort::name, RobotStatusPort::name};
  std::array<std::size_t, 3> input_port{};
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    input_port[k] = ports;
    for (std::size_t p = 0; p < ports; ++p) {
      if (Graph::port_names[p] == inputs[k]) input_port[k] = p;
    }
    if (input_port[k] == ports || !have[input_port[k]]) {
      throw fail("no channel /" + std::string(inputs[k]) + ": the recording holds no cycle inputs to replay");
    }
  }

  // A recorder that fell behind says so when it closes the file (dropped cycles at the end leave no
  // gap in the sequence numbers to find).
  for (const auto& m : recording.metadata()) {
    if (m.name != k_recorder_metadata) continue;
    const auto dropped = m.values.find("cycles_dropped");
    if (dropped != m.values.end() && dropped->second != "0") {
      throw fail("the recorder dropped " + dropped->second +
                 " cycles (the writer fell behind): an exact replay needs every cycle");
    }
  }

  // The recorded cycles in order, each with its message per port.
  struct Cycle {
    std::uint32_t sequence = 0;
    std::array<const McapMessage*, ports> messages{};
  };
  std::vector<Cycle> cycles;
  for (const auto& m : recording.messages()) {
    const auto it = port_of_channel.find(m.channel);
    if (it == port_of_channel.end()) continue;
    if (cycles.empty() || cycles.back().sequence != m.sequence) {
      if (!cycles.empty() && m.sequence != cycles.back().sequence + 1) {
        throw fail("cycles " + std::to_string(cycles.back().sequence + 1) + " to " + std::to_string(m.sequence - 1) +
                   " are missing (the recorder dropped them: the writer fell behind): an exact replay needs every cycle");
      }
      cycles.push_back(Cycle{m.sequence, {}});
    }
    cycles.back().messages[it->second] = &m;
  }

  // A file cut short (a killed run) may end inside a cycle: a last cycle without all of its inputs
  // was never whole on the disk and is left out; one with its inputs is replayed, its ports that
  // made it compared.
  if (!recording.complete() && !cycles.empty()) {
    const auto& last = cycles.back();
    if (!std::all_of(input_port.begin(), input_port.end(), [&](std::size_t p) { return last.messages[p] != nullptr; })) {
      cycles.pop_back();
      report.cut_cycle = true;
    }
  }

  // Upstream first: the producing node's execution position, by port name.
  std::map<std::string, std::size_t> producer;
  for (const auto& row : describe<Graph>().ports) {
    producer[std::string(row.name)] = row.producer ? *row.producer : 0;
  }

  std::optional<Recorder<Controller>> rerecorder;
  if (options.rerecord) {
    RecorderOptions ro;
    ro.file = options.rerecord;
    ro.mcap = options.mcap;
    ro.metadata = options.metadata;
    ro.metadata["replay_of"] = recording_name.string();
    ro.capacity = 256;
    rerecorder.emplace(controller, ro);
  }

  std::vector<std::byte> buffer;
  control::CycleInput<N> input;
  std::uint64_t first_time = 0;
  for (const auto& c : cycles) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      if (c.messages[input_port[k]] == nullptr) {
        throw fail("cycle " + std::to_string(c.sequence) + " has no message on /" + std::string(inputs[k]));
      }
    }
    const auto bytes = [&](std::size_t k) { return std::span<const std::byte>(c.messages[input_port[k]]->data); };
    if (!decode_cdr(bytes(0), input.state) || !decode_cdr(bytes(1), input.info) || !decode_cdr(bytes(2), input.status)) {
      throw fail("cycle " + std::to_string(c.sequence) + ": a cycle input does not decode as this graph's types (a "
                 "recording of another robot model, or of another praxis version?)");
    }
    if (report.cycles == 0) first_time = c.messages[input_port[1]]->log_time;
    backend.serve(input);
    controller.step(input.info.now);
    ++report.cycles;
    if (rerecorder && report.cycles % 128 == 0) rerecorder->drain();

    // Every recorded port, replayed value against recorded bytes.
    bool differs = false;
    std::vector<Divergence> here;
    [&]<std::size_t... P>(std::index_sequence<P...>) {
      const auto compare = [&]<std::size_t Q>(std::integral_constant<std::size_t, Q>) {
        if constexpr (TapType::template recorded<Q>) {
          const McapMessage* recorded = c.messages[Q];
          if (recorded == nullptr) return;
          ++report.compared;
          const auto& value = controller.graph().template port_value<Q>();
          buffer.resize(cdr_max_size<typename Graph::template port_at<Q>::type>());
          const std::size_t n = encode_cdr(value, std::span<std::byte>(buffer));
          const auto& old = recorded->data;
          if (n == old.size() && std::memcmp(buffer.data(), old.data(), n) == 0) return;
          differs = true;
          ++report.differing_messages;
          if (report.first.empty()) {
            std::size_t at = 0;
            while (at < n && at < old.size() && buffer[at] == old[at]) ++at;
            Divergence d;
            d.cycle = c.sequence;
            d.time = static_cast<double>(recorded->log_time - first_time) * 1e-9;
            d.port = std::string(Graph::port_names[Q]);
            d.field = detail::replay_field_at<Graph, Q>(at);
            d.producer = producer[d.port];
            here.push_back(std::move(d));
          }
        }
      };
      (compare(std::integral_constant<std::size_t, P>{}), ...);
    }(std::make_index_sequence<ports>{});
    if (differs) {
      ++report.differing_cycles;
      if (report.first.empty()) {
        std::stable_sort(here.begin(), here.end(),
                         [](const Divergence& a, const Divergence& b) { return a.producer < b.producer; });
        report.first = std::move(here);
      }
    }
  }
  if (rerecorder) {
    rerecorder->close();
    report.rerecorded = options.rerecord;
  }
  return report;
}

}  // namespace praxis::observe
