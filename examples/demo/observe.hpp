#pragma once
// praxis_demo's recording, live view and replay (docs/observability.md):
//
//   --record          every port of the run to <run folder>/run.mcap (praxis::observe::Recorder)
//   --live [A:]PORT   the run served live over the Foxglove WebSocket protocol and as a page
//   praxis-replay run.mcap [--param DIR]   the recorded inputs through the same configuration again
//
// A recording carries what replay needs to build the same configuration: the robot, the backend,
// the parameter folder and runtime parameters (metadata "praxis"), and, once the run went, the pose
// STAND held and the hold the robot was entered with (metadata "praxis.end").

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <praxis/motion/motions.hpp>
#include <praxis/observe/recorder.hpp>
#include <praxis/observe/replay.hpp>

namespace demo {

struct Settings;

// "1.5,-0.25,..." with every bit of each double (%.17g), and back.
template <std::size_t N>
std::string joint_list(const std::array<double, N>& values) {
  std::string out;
  char text[40];
  for (std::size_t j = 0; j < N; ++j) {
    std::snprintf(text, sizeof text, "%s%.17g", j == 0 ? "" : ",", values[j]);
    out += text;
  }
  return out;
}
template <std::size_t N>
std::array<double, N> parse_joint_list(const std::string& text, const std::string& what) {
  std::array<double, N> out{};
  std::stringstream in(text);
  std::string item;
  std::size_t j = 0;
  while (std::getline(in, item, ',')) {
    if (j == N) break;
    out[j++] = std::stod(item);
  }
  if (j != N || std::getline(in, item, ',')) {
    throw std::runtime_error("the recording's " + what + " has not " + std::to_string(N) + " joints: \"" + text + "\"");
  }
  return out;
}

inline praxis::observe::Compression compression_named(const std::string& name) {
  if (name == "zstd") return praxis::observe::Compression::zstd;
  if (name == "lz4") return praxis::observe::Compression::lz4;
  if (name == "none") return praxis::observe::Compression::none;
  throw std::invalid_argument("--record-compression " + name + ": one of zstd, lz4, none");
}

// "8765", "0.0.0.0:8765" or "[::1]:8765" as LiveOptions.
inline praxis::observe::LiveOptions live_options(const std::string& spec, double rate) {
  praxis::observe::LiveOptions o;
  std::string port = spec;
  if (const auto colon = spec.rfind(':'); colon != std::string::npos) {
    o.address = spec.substr(0, colon);
    if (o.address.size() >= 2 && o.address.front() == '[' && o.address.back() == ']') {
      o.address = o.address.substr(1, o.address.size() - 2);
    }
    port = spec.substr(colon + 1);
  }
  std::size_t used = 0;
  int value = -1;
  try {
    value = std::stoi(port, &used);
  } catch (const std::exception&) {
  }
  if (used != port.size() || value < 0 || value > 65535) {
    throw std::invalid_argument("--live " + spec + ": expected PORT or ADDRESS:PORT (PORT 0-65535; 0 picks a free one)");
  }
  o.port = static_cast<std::uint16_t>(value);
  o.rate_hz = rate;
  return o;
}

// What --record and --live add to one run of a configuration.
template <class Controller>
class Observation {
 public:
  using Model = typename Controller::Model;
  Observation(Controller& controller, bool record, const std::string& compression, const std::string& live,
              double live_rate, const std::filesystem::path& run_folder, std::map<std::string, std::string> facts)
      : controller_(controller) {
    if (!record && live.empty()) return;
    praxis::observe::RecorderOptions o;
    if (record) {
      file_ = run_folder / "run.mcap";
      o.file = file_;
      o.mcap.compression = compression_named(compression);
    }
    if (!live.empty()) o.live = live_options(live, live_rate);
    o.metadata = std::move(facts);
    recorder_ = std::make_unique<praxis::observe::Recorder<Controller>>(controller, o);
    for (const auto& p : recorder_->unrecorded_ports()) std::printf("not recorded: %s\n", p.c_str());
    if (record) std::printf("recording every port to %s\n", file_.string().c_str());
    if (recorder_->live_port() != 0) {
      std::printf("live: ws://%s:%u (Foxglove: Open connection, Foxglove WebSocket) and http://%s:%u/\n",
                  o.live->address.c_str(), static_cast<unsigned>(recorder_->live_port()), o.live->address.c_str(),
                  static_cast<unsigned>(recorder_->live_port()));
    }
    std::fflush(stdout);
  }
  Observation(const Observation&) = delete;
  Observation& operator=(const Observation&) = delete;

  [[nodiscard]] bool active() const { return recorder_ != nullptr; }
  // Step-driven runs outrun the writer: let it catch up between cycles (never in real time).
  void drain() {
    if (recorder_) recorder_->drain();
  }

  // After the run: the facts replay needs (and `more`, metadata of the caller's, e.g. "praxis.sim"),
  // the file closed, a line about it.
  void finish(const std::map<std::string, std::map<std::string, std::string>>& more = {}) {
    if (!recorder_) return;
    for (const auto& [name, values] : more) recorder_->add_metadata(name, values);
    auto& stand = controller_.template node<praxis::motion::StandMotion<Model>>();
    auto& damping = controller_.template node<praxis::motion::DampingMotion<Model>>();
    std::map<std::string, std::string> end{{"stand_pose", joint_list(stand.pose)}};
    if (damping.hold_at_start) {
      end["entry_hold_kp"] = joint_list(damping.hold_kp);
      end["entry_hold_kd"] = joint_list(damping.hold_kd);
    }
    recorder_->add_metadata("praxis.end", end);
    recorder_->close();
    const auto st = recorder_->stats();
    if (!file_.empty()) {
      std::printf("recorded: %s, %llu cycles (%llu dropped), %llu messages, %.1f MB, writer thread %.2f s CPU\n",
                  file_.string().c_str(), static_cast<unsigned long long>(st.cycles_recorded),
                  static_cast<unsigned long long>(st.cycles_dropped), static_cast<unsigned long long>(st.messages),
                  static_cast<double>(st.bytes) / 1e6, st.writer_cpu_seconds);
    }
    if (st.live) {
      std::printf("live: %llu clients served, %llu messages sent, %llu slow clients dropped\n",
                  static_cast<unsigned long long>(st.live->accepted),
                  static_cast<unsigned long long>(st.live->messages_sent),
                  static_cast<unsigned long long>(st.live->dropped_slow));
    }
    std::fflush(stdout);
  }

 private:
  Controller& controller_;
  std::filesystem::path file_;
  std::unique_ptr<praxis::observe::Recorder<Controller>> recorder_;
};

// The recording's facts (metadata "praxis" and "praxis.end"), merged.
inline std::map<std::string, std::string> recording_facts(const praxis::observe::McapReader& reader) {
  std::map<std::string, std::string> facts;
  for (const auto& m : reader.metadata()) {
    if (m.name != praxis::observe::k_run_metadata && m.name != "praxis.end") continue;
    for (const auto& [k, v] : m.values) facts[k] = v;
  }
  return facts;
}

// The recorded facts as ReplayFacts for a model.
template <class Model>
praxis::observe::ReplayFacts<Model::joint_count> replay_facts(const std::map<std::string, std::string>& facts) {
  constexpr std::size_t N = Model::joint_count;
  praxis::observe::ReplayFacts<N> out;
  if (const auto it = facts.find("stand_pose"); it != facts.end()) out.stand_pose = parse_joint_list<N>(it->second, "stand_pose");
  const auto kp = facts.find("entry_hold_kp");
  const auto kd = facts.find("entry_hold_kd");
  if (kp != facts.end() && kd != facts.end()) {
    praxis::JointCommand<N> hold;
    const auto p = parse_joint_list<N>(kp->second, "entry_hold_kp");
    const auto d = parse_joint_list<N>(kd->second, "entry_hold_kd");
    for (std::size_t j = 0; j < N; ++j) {
      hold.kp[static_cast<Eigen::Index>(j)] = p[j];
      hold.kd[static_cast<Eigen::Index>(j)] = d[j];
    }
    out.entry_hold = hold;
  }
  return out;
}

}  // namespace demo
