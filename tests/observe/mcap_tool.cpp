// Helper of the MCAP tests that run outside Catch (tests/observe/mcap.cmake):
//   observe_mcap_tool write <file> <none|zstd|lz4> <expect.json>
//       writes a sample run (4 ros2msg/cdr channels, metadata, an attachment, many chunks) and what a
//       reader must find in it; also <file>.cut.mcap, the file cut inside a chunk, and
//       <expect>.cut.json (only the chunks complete before the cut).
//   observe_mcap_tool kill-writer <file> <none|zstd|lz4>
//       records at about 1 kHz with log_time = CLOCK_REALTIME in ns until killed, printing
//       "flushed <messages> <newest log_time>" each time a chunk has been handed to the OS.
//   observe_mcap_tool check-killed <file> <flushed messages> <kill time ns> <max lag ns> <expect.json>
//       reads the killed writer's file with praxis' reader: it opens, holds every flushed message
//       (sequences 0..n-1 on each channel, nothing lost in between), its newest message is at most
//       <max lag> older than the kill; writes what @mcap/core must find to <expect.json>.
//   observe_mcap_tool read <file> <expect.json>
//       reads a file another writer made (tests/js/mcap_write.mjs: @mcap/core's McapWriter) with
//       praxis' reader, which checks its CRCs, indexes and summary, and compares what it holds with
//       <expect.json>: messages, per-topic counts, the sum of every data byte, metadata, attachments.
// Exits 1 with a line starting "FAIL:" naming what differed.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/observe/mcap.hpp"

namespace {

using praxis::observe::Compression;
using praxis::observe::McapOptions;
using praxis::observe::McapReader;
using praxis::observe::McapWriter;

struct Failure {
  std::string what;
};

Compression parse_compression(const std::string& name) {
  if (name == "none") return Compression::none;
  if (name == "zstd") return Compression::zstd;
  if (name == "lz4") return Compression::lz4;
  throw Failure{"unknown compression " + name};
}

// A CDR message of `doubles` float64 values after the 4-byte little-endian encapsulation header.
std::vector<std::byte> cdr_doubles(std::size_t doubles, double seed) {
  std::vector<std::byte> out(4 + 8 * doubles);
  out[1] = std::byte{0x01};
  for (std::size_t i = 0; i < doubles; ++i) {
    const double v = seed + 0.001 * static_cast<double>(i);
    std::memcpy(out.data() + 4 + 8 * i, &v, 8);
  }
  return out;
}

std::uint64_t realtime_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

void write_json(const std::filesystem::path& file, const nlohmann::json& j) {
  std::ofstream out(file);
  out << j.dump(2) << "\n";
  if (!out.flush()) throw Failure{"cannot write " + file.string()};
}

struct Port {
  const char* topic;
  const char* type;
  std::size_t doubles;
  int every;  // written every `every`-th cycle
};
constexpr Port ports[] = {
    {"/praxis/robot_state", "RobotState", 3 * 29 + 4, 1},
    {"/motion_command", "JointCommand", 5 * 29, 1},
    {"/praxis/imu", "Imu", 10, 2},
    {"/praxis/status", "RobotStatus", 6, 50},
};

int write_sample(const std::filesystem::path& file, Compression compression, const std::filesystem::path& expect) {
  McapOptions options;
  options.compression = compression;
  options.chunk_bytes = 64 * 1024;
  options.profile = "";
  std::map<std::string, std::uint64_t> counts;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::uint64_t total = 0;
  {
    McapWriter w(file, options);
    std::vector<std::uint16_t> channels;
    for (const auto& p : ports) {
      const auto schema = w.add_schema(std::string("praxis_msgs/msg/") + p.type, "ros2msg",
                                       "float64[" + std::to_string(p.doubles) + "] values\n");
      channels.push_back(w.add_channel(schema, p.topic, "cdr", {{"type", p.type}}));
    }
    w.add_metadata("run", {{"robot", "g1"}, {"controller", "stand"}});
    const std::string params = "{\"kp\": 40}\n";
    w.add_attachment("params.json", "application/json", std::as_bytes(std::span(params)), 1'000'000'000);
    std::vector<std::uint32_t> sequence(std::size(ports), 0);
    for (int cycle = 0; cycle < 2000; ++cycle) {
      const std::uint64_t t = 1'000'000'000ULL + static_cast<std::uint64_t>(cycle) * 1'000'000ULL;
      for (std::size_t i = 0; i < std::size(ports); ++i) {
        if (cycle % ports[i].every != 0) continue;
        const auto data = cdr_doubles(ports[i].doubles, cycle);
        w.write(channels[i], sequence[i]++, t, t, data);
        ++counts[ports[i].topic];
        if (total++ == 0) first = t;
        last = t;
      }
    }
    w.add_metadata("outcome", {{"stopped_by", "test"}});
    w.close();
  }

  const McapReader r(file);
  if (!r.complete() || r.messages().size() != total) throw Failure{"praxis' own reader disagrees with the writer"};
  nlohmann::json j;
  j["complete"] = true;
  j["compression"] = std::string(compression_name(compression));
  j["messages"] = total;
  j["channels"] = counts;
  j["start_time"] = std::to_string(first);
  j["end_time"] = std::to_string(last);
  j["chunks"] = r.chunks().size();
  j["schemas"] = std::size(ports);
  j["metadata"] = {"run", "outcome"};
  j["attachments"] = {"params.json"};
  j["sequences_consecutive"] = true;
  write_json(expect, j);

  // The same file cut in the middle of its fourth chunk: only the first three remain.
  const auto& cut_chunk = r.chunks().at(3);
  const auto cut = cut_chunk.offset + cut_chunk.length / 2;
  auto cut_file = file;
  cut_file += ".cut.mcap";
  std::filesystem::copy_file(file, cut_file, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(cut_file, cut);
  std::map<std::string, std::uint64_t> cut_counts;
  for (std::size_t i = 0; i < cut_chunk.first_message; ++i) {
    ++cut_counts[r.channels().at(r.messages()[i].channel).topic];
  }
  nlohmann::json c;
  c["complete"] = false;
  c["compression"] = j["compression"];
  c["messages"] = cut_chunk.first_message;
  c["channels"] = cut_counts;
  c["schemas"] = std::size(ports);
  c["sequences_consecutive"] = true;
  auto cut_expect = expect;
  cut_expect += ".cut.json";
  write_json(cut_expect, c);
  std::cout << "wrote " << total << " messages in " << r.chunks().size() << " chunks, "
            << std::filesystem::file_size(file) << " bytes; cut copy at byte " << cut << " keeps "
            << cut_chunk.first_message << " messages\n";
  return 0;
}

int kill_writer(const std::filesystem::path& file, Compression compression) {
  McapOptions options;
  options.compression = compression;
  // Chunks closed by log time (1 s, the default), never by size: the bound under test.
  options.chunk_bytes = 64 << 20;
  McapWriter w(file, options);
  std::vector<std::uint16_t> channels;
  for (const auto& p : ports) {
    const auto schema = w.add_schema(std::string("praxis_msgs/msg/") + p.type, "ros2msg",
                                     "float64[" + std::to_string(p.doubles) + "] values\n");
    channels.push_back(w.add_channel(schema, p.topic, "cdr"));
  }
  std::vector<std::uint32_t> sequence(std::size(ports), 0);
  std::uint64_t reported_chunks = 0;
  auto next = std::chrono::steady_clock::now();
  const auto give_up = next + std::chrono::seconds(60);  // if the test driver died, do not run forever
  for (std::uint64_t cycle = 0; std::chrono::steady_clock::now() < give_up; ++cycle) {
    const auto now = realtime_ns();
    for (std::size_t i = 0; i < std::size(ports); ++i) {
      if (cycle % static_cast<std::uint64_t>(ports[i].every) != 0) continue;
      const auto data = cdr_doubles(ports[i].doubles, static_cast<double>(cycle));
      w.write(channels[i], sequence[i]++, now, now, data);
    }
    // The writer closes a chunk by log time when messages keep coming; a late cycle (this machine
    // is loaded) must not leave the open chunk older than a chunk's duration either.
    if (const auto span = w.open_chunk_span(); span && now - span->first >= options.chunk_duration_ns) w.flush();
    if (w.chunks() != reported_chunks) {
      reported_chunks = w.chunks();
      std::printf("flushed %llu %llu\n", static_cast<unsigned long long>(w.flushed_messages()),
                  static_cast<unsigned long long>(now));
      std::fflush(stdout);
    }
    next += std::chrono::milliseconds(1);
    const auto steady_now = std::chrono::steady_clock::now();
    if (next < steady_now) next = steady_now;  // late: carry on from now, no burst to catch up
    std::this_thread::sleep_until(next);
  }
  return 0;
}

int check_killed(const std::filesystem::path& file, std::uint64_t flushed, std::uint64_t kill_ns,
                 std::uint64_t max_lag_ns, const std::filesystem::path& expect) {
  const McapReader r(file);  // throws on anything damaged
  if (r.complete()) throw Failure{"the killed writer's file says it is complete"};
  if (r.messages().size() < flushed) {
    throw Failure{std::to_string(flushed) + " messages were reported flushed, the file holds " +
                  std::to_string(r.messages().size())};
  }
  std::map<std::uint16_t, std::uint32_t> next_sequence;
  std::uint64_t newest = 0;
  for (const auto& m : r.messages()) {
    auto& expected = next_sequence[m.channel];
    if (m.sequence != expected) {
      throw Failure{"channel " + std::to_string(m.channel) + ": sequence " + std::to_string(m.sequence) +
                    " where " + std::to_string(expected) + " was due (a message lost inside the file)"};
    }
    ++expected;
    newest = std::max(newest, m.log_time);
  }
  const auto lag = kill_ns > newest ? kill_ns - newest : 0;
  std::cout << "killed writer's file: " << r.messages().size() << " messages in " << r.chunks().size()
            << " chunks (" << flushed << " reported flushed), cut at byte " << r.truncated_at() << " of "
            << std::filesystem::file_size(file) << "; newest message " << lag / 1'000'000 << " ms before the kill"
            << " (at most " << max_lag_ns / 1'000'000 << " ms allowed)\n";
  if (lag > max_lag_ns) {
    throw Failure{"the newest recorded message is " + std::to_string(lag / 1'000'000) + " ms older than the kill"};
  }
  std::map<std::string, std::uint64_t> counts;
  for (const auto& m : r.messages()) ++counts[r.channels().at(m.channel).topic];
  nlohmann::json j;
  j["complete"] = false;
  j["messages"] = r.messages().size();
  j["min_messages"] = flushed;
  j["channels"] = counts;
  j["newest_log_time_at_least"] = std::to_string(kill_ns - max_lag_ns);
  j["sequences_consecutive"] = true;
  write_json(expect, j);
  return 0;
}

int read_foreign(const std::filesystem::path& file, const std::filesystem::path& expect_file) {
  std::ifstream in(expect_file);
  const auto expect = nlohmann::json::parse(in);
  const McapReader r(file);
  std::vector<std::string> failures;
  auto check = [&](const std::string& what, const nlohmann::json& found, const nlohmann::json& expected) {
    if (found != expected) failures.push_back(what + ": found " + found.dump() + ", expected " + expected.dump());
  };
  std::map<std::string, std::uint64_t> counts;
  std::uint64_t data_sum = 0;
  for (const auto& m : r.messages()) {
    ++counts[r.channels().at(m.channel).topic];
    for (const auto b : m.data) data_sum += std::to_integer<std::uint8_t>(b);
  }
  std::vector<std::string> metadata;
  for (const auto& m : r.metadata()) metadata.push_back(m.name);
  std::vector<std::string> attachments;
  for (const auto& a : r.attachments()) attachments.push_back(a.name);
  check("complete", r.complete(), true);
  check("messages", r.messages().size(), expect.at("messages"));
  check("messages per topic", counts, expect.at("channels"));
  check("sum of the data bytes", data_sum, expect.at("data_sum"));
  check("metadata", metadata, expect.at("metadata"));
  check("attachments", attachments, expect.at("attachments"));
  check("schemas", r.schemas().size(), expect.at("schemas"));
  check("statistics present", r.statistics().has_value(), true);
  check("chunk indexes", r.chunk_indexes().size(), r.chunks().size());
  for (const auto& c : r.chunks()) check("chunk compression", c.compression, expect.at("compression"));
  if (r.chunks().size() < 2) failures.push_back("fewer than two chunks: the test needs several");
  for (const auto& f : failures) std::cout << "FAIL: " << file.string() << ": " << f << "\n";
  if (!failures.empty()) return 1;
  std::cout << "praxis' reader: " << r.messages().size() << " messages in " << r.chunks().size()
            << " chunks from " << r.library() << ", every CRC, index and the summary checked\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 4 && args[0] == "write") return write_sample(args[1], parse_compression(args[2]), args[3]);
    if (args.size() == 3 && args[0] == "kill-writer") return kill_writer(args[1], parse_compression(args[2]));
    if (args.size() == 3 && args[0] == "read") return read_foreign(args[1], args[2]);
    if (args.size() == 6 && args[0] == "check-killed") {
      return check_killed(args[1], std::stoull(args[2]), std::stoull(args[3]), std::stoull(args[4]), args[5]);
    }
    std::cerr << "usage: observe_mcap_tool write <file> <none|zstd|lz4> <expect.json>\n"
                 "       observe_mcap_tool kill-writer <file> <none|zstd|lz4>\n"
                 "       observe_mcap_tool check-killed <file> <flushed> <kill ns> <max lag ns> <expect.json>\n"
                 "       observe_mcap_tool read <file> <expect.json>\n";
    return 2;
  } catch (const Failure& f) {
    std::cout << "FAIL: " << f.what << "\n";
  } catch (const std::exception& e) {
    std::cout << "FAIL: " << e.what() << "\n";
  }
  return 1;
}
