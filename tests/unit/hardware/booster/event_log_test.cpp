// Where the Booster backend's structured log entries go (event_log.hpp): a recorder for tests and
// reports, a tee, and spdlog's file (event_log.cpp).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "praxis/hardware/booster/event_log.hpp"

namespace {
namespace booster_event_log_test {

namespace b = praxis::booster;
namespace fs = std::filesystem;

TEST_CASE("booster event log: the recorder keeps every entry in order and by category") {
  b::RecordingEventLog log;
  log.write("rpc", R"({"event":"booster rpc scheduled","sequence":1})");
  log.write("primary_state", R"({"mode":"Damping"})");
  log.write("rpc", R"({"event":"booster rpc completed","sequence":1})");
  const auto all = log.entries();
  REQUIRE(all.size() == 3);
  CHECK(all[0].category == "rpc");
  CHECK(all[1].category == "primary_state");
  CHECK(all[1].json == R"({"mode":"Damping"})");
  CHECK(all[0].time <= all[1].time);
  CHECK(all[1].time <= all[2].time);
  const auto rpc = log.entries("rpc");
  REQUIRE(rpc.size() == 2);
  CHECK(rpc[1].json == R"({"event":"booster rpc completed","sequence":1})");
  CHECK(log.entries("button_input").empty());
}

TEST_CASE("booster event log: writers on several threads lose no entry") {
  b::RecordingEventLog log;
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&log, t] {
      for (int k = 0; k < 250; ++k) log.write(t % 2 == 0 ? "rpc" : "behaviour_input", "{}");
    });
  }
  for (auto& w : writers) w.join();
  CHECK(log.entries().size() == 1000);
  CHECK(log.entries("rpc").size() == 500);
}

TEST_CASE("booster event log: the tee writes each entry to both and to one when the other is missing") {
  auto a = std::make_shared<b::RecordingEventLog>();
  auto c = std::make_shared<b::RecordingEventLog>();
  b::TeeEventLog both(a, c);
  both.write("rpc", "{\"n\":1}");
  REQUIRE(a->entries().size() == 1);
  REQUIRE(c->entries().size() == 1);
  CHECK(c->entries()[0].json == "{\"n\":1}");
  b::TeeEventLog only_second(nullptr, c);
  only_second.write("rpc", "{\"n\":2}");
  CHECK(a->entries().size() == 1);
  CHECK(c->entries().size() == 2);
}

TEST_CASE("booster event log: the spdlog log writes one line per entry - category then JSON - in a new folder") {
  const fs::path dir = fs::temp_directory_path() / ("praxis_event_log_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path file = dir / "nested" / "booster.log";
  {
    auto log = b::make_spdlog_event_log(file);
    REQUIRE(fs::is_directory(dir / "nested"));
    log->write("rpc", R"({"event":"booster rpc scheduled","sequence":1})");
    log->write("button_input", R"({"button":3})");
  }
  // The file is written by spdlog's background thread: wait for both lines (bounded).
  std::vector<std::string> lines;
  for (int k = 0; k < 500 && lines.size() < 2; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    lines.clear();
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  REQUIRE(lines.size() == 2);
  const std::string first_tail = R"( [booster_interface] rpc {"event":"booster rpc scheduled","sequence":1})";
  REQUIRE(lines[0].size() > first_tail.size());
  CHECK(lines[0].substr(lines[0].size() - first_tail.size()) == first_tail);
  CHECK(lines[0][4] == '-');  // an ISO date first: 2026-11-28T...
  CHECK(lines[0][10] == 'T');
  const std::string second_tail = R"( [booster_interface] button_input {"button":3})";
  CHECK(lines[1].substr(lines[1].size() - second_tail.size()) == second_tail);
  fs::remove_all(dir);
}

}  // namespace booster_event_log_test
}  // namespace
