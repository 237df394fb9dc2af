// Reporter: the control thread's records handled on the reporter's own thread. The cycle log's
// header names every joint column group in order and as many log columns as asked (at most
// k_max_log_values); each row has the header's columns, the record's values, and empty cells for
// log values the record did not fill. The transition file gets one row per motion change with its
// cause. transitions(), status_events() and stall_events() keep everything in push order; flush()
// returns only once every record pushed before it was handled. Compute statistics come per full
// window of stats_every timings (at least 1): mean, min, max and the nearest-rank p99 of compute
// time and lateness, each window on its own. A full queue drops and counts a record instead of
// waiting, and only then. Stall events are described in words (printed). A file that cannot be
// created is an error naming it. Records carry constructed times; with the real reporter thread
// only orders and counts are asserted, never how long anything took.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "praxis/control/reporter.hpp"

#include "../../support/scratch_dir.hpp"

namespace reporter_test {

using namespace std::chrono_literals;
using praxis::control::CycleRecord;
using praxis::control::Reporter;
using praxis::control::ReporterOptions;
using praxis::control::StallEvent;
using praxis::control::TransitionEvent;
using praxis::motion::MotionType;
using praxis::motion::SelectionCause;

namespace {

constexpr std::size_t N = 2;
constexpr std::array<praxis::JointSpec, N> k_joints{{
    {"hip", -1.0, 1.0, 20, 10},
    {"knee", 0.0, 2.0, 30, 10},
}};
std::span<const praxis::JointSpec, N> joints() { return std::span<const praxis::JointSpec, N>(k_joints); }

ReporterOptions quiet() {
  ReporterOptions o;
  o.print = false;
  o.poll = 1ms;
  return o;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!s.empty() && s.back() == by) parts.emplace_back();  // a trailing empty cell
  return parts;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// A row's time as a number (its text format is the writer's choice) and the rest of the row as text.
struct Row {
  double time = -1.0;
  std::string rest;
};
Row row_of(const std::string& line) {
  const auto comma = line.find(',');
  if (comma == std::string::npos) return {};
  return {std::stod(line.substr(0, comma)), line.substr(comma + 1)};
}

CycleRecord<N> record(std::uint64_t cycle) {
  CycleRecord<N> r;
  r.time = 0.5;
  r.cycle = cycle;
  r.motion = MotionType::stand;
  r.gain_ratio = 0.25;
  r.compute_us = 12.5;
  r.q = {0.1, 0.2};
  r.dq = {-1.5, 1.5};
  r.tau = {3, 4};
  r.cmd_q = {0.125, 0.75};
  r.cmd_kp = {40, 50};
  r.cmd_kd = {1, 2};
  r.cmd_tau = {-0.5, 0.5};
  return r;
}

praxis::control::CycleTiming timing(std::uint32_t compute_ns, std::uint32_t late_ns = 0) {
  return {compute_ns, late_ns};
}

// Points the process's stdout (fd 1, where spdlog's sink writes) at a file until text() or the end of
// the scope.
class CapturedStdout {
 public:
  CapturedStdout() : dir_("reporter_stdout"), file_(dir_ / "stdout.txt") {
    std::fflush(stdout);
    saved_ = ::dup(STDOUT_FILENO);
    const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (saved_ < 0 || fd < 0) throw std::runtime_error("cannot redirect stdout to " + file_.string());
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
  }
  ~CapturedStdout() { restore(); }
  CapturedStdout(const CapturedStdout&) = delete;
  CapturedStdout& operator=(const CapturedStdout&) = delete;

  std::string text() {
    restore();
    return read_file(file_);
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  praxis::test::ScratchDir dir_;
  std::filesystem::path file_;
  int saved_ = -1;
};

}  // namespace

TEST_CASE("reporter: the cycle log's header names every column group per joint then the log columns",
          "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  auto options = quiet();
  options.csv_file = dir / "cycles.csv";
  {
    Reporter<N> reporter(options, joints(), 3);
    reporter.flush();
  }
  const auto lines = lines_of(read_file(*options.csv_file));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] ==
        "time,cycle,motion,gain_ratio,compute_us,q_hip,q_knee,dq_hip,dq_knee,tau_hip,tau_knee,cmd_q_hip,cmd_q_knee,"
        "cmd_kp_hip,cmd_kp_knee,cmd_kd_hip,cmd_kd_knee,cmd_tau_hip,cmd_tau_knee,log_0,log_1,log_2");
}

TEST_CASE("reporter: the cycle log has no log columns when none are asked and at most k_max_log_values",
          "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  auto none = quiet();
  none.csv_file = dir / "none.csv";
  auto many = quiet();
  many.csv_file = dir / "many.csv";
  {
    Reporter<N> a(none, joints(), 0);
    Reporter<N> b(many, joints(), praxis::control::k_max_log_values + 8);
    auto r = record(1);
    r.log_count = praxis::control::k_max_log_values;
    for (std::size_t k = 0; k < r.log.size(); ++k) r.log[k] = static_cast<float>(k);
    a.push(r);
    b.push(r);
    a.flush();
    b.flush();
  }
  const auto plain = lines_of(read_file(*none.csv_file));
  REQUIRE(plain.size() == 2);
  CHECK(plain[0].find("log_") == std::string::npos);
  CHECK(plain[0].substr(plain[0].size() - std::string("cmd_tau_knee").size()) == "cmd_tau_knee");
  CHECK(split(plain[1], ',').size() == split(plain[0], ',').size());

  const auto wide = lines_of(read_file(*many.csv_file));
  REQUIRE(wide.size() == 2);
  const auto header = split(wide[0], ',');
  REQUIRE(header.size() == 5 + 7 * N + praxis::control::k_max_log_values);
  CHECK(header.back() == "log_" + std::to_string(praxis::control::k_max_log_values - 1));
  const auto row = split(wide[1], ',');
  REQUIRE(row.size() == header.size());
  CHECK(row.back() == std::to_string(praxis::control::k_max_log_values - 1));
}

TEST_CASE("reporter: a cycle row holds the record's values in the header's order with empty unused log cells",
          "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  auto options = quiet();
  options.csv_file = dir / "cycles.csv";
  {
    Reporter<N> reporter(options, joints(), 3);
    auto r = record(250);
    r.log_count = 2;
    r.log[0] = 1.5f;
    r.log[1] = -2.25f;
    r.log[2] = 99.0f;  // beyond log_count: not written
    reporter.push(r);
    auto damped = record(251);
    damped.motion = MotionType::damping;
    damped.time = 0.502;
    reporter.push(damped);
    reporter.flush();
  }
  const auto lines = lines_of(read_file(*options.csv_file));
  REQUIRE(lines.size() == 3);
  const auto first = row_of(lines[1]);
  CHECK(first.time == Approx(0.5).margin(1e-9));
  CHECK(first.rest == "250,stand,0.25,12.5,0.1,0.2,-1.5,1.5,3,4,0.125,0.75,40,50,1,2,-0.5,0.5,1.5,-2.25,");
  const auto second = row_of(lines[2]);
  CHECK(second.time == Approx(0.502).margin(1e-9));
  CHECK(second.rest == "251,damping,0.25,12.5,0.1,0.2,-1.5,1.5,3,4,0.125,0.75,40,50,1,2,-0.5,0.5,,,");
  for (std::size_t k = 1; k < lines.size(); ++k) CHECK(split(lines[k], ',').size() == split(lines[0], ',').size());
}

TEST_CASE("reporter: rows come in push order and every pushed row is there after flush", "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  auto options = quiet();
  options.csv_file = dir / "cycles.csv";
  Reporter<N> reporter(options, joints(), 0);
  constexpr std::uint64_t k_rows = 1500;  // less than the queue holds: nothing may be dropped
  for (std::uint64_t c = 0; c < k_rows; ++c) reporter.push(record(c));
  reporter.flush();  // the file is complete now, with the reporter still running
  const auto lines = lines_of(read_file(*options.csv_file));
  REQUIRE(lines.size() == k_rows + 1);
  for (std::uint64_t c = 0; c < k_rows; ++c) {
    if (split(lines[c + 1], ',')[1] != std::to_string(c)) {
      FAIL("row " << c + 1 << " is " << lines[c + 1]);
    }
  }
  CHECK(reporter.dropped() == 0);
}

TEST_CASE("reporter: the cycle log's time keeps a 2 ms cycle apart after 20 minutes", "[control][reporter]") {
  // At 500 Hz consecutive rows are 2 ms apart; the default stream precision (6 significant digits)
  // prints both 1200.000 and 1200.002 as "1200", so a run's log loses its time axis after 1000 s.
  const praxis::test::ScratchDir dir("reporter");
  auto options = quiet();
  options.csv_file = dir / "cycles.csv";
  {
    Reporter<N> reporter(options, joints(), 0);
    auto a = record(600000);
    a.time = 1200.0;
    auto b = record(600001);
    b.time = 1200.002;
    reporter.push(a);
    reporter.push(b);
    reporter.flush();
  }
  const auto lines = lines_of(read_file(*options.csv_file));
  REQUIRE(lines.size() == 3);
  const auto t0 = split(lines[1], ',')[0];
  const auto t1 = split(lines[2], ',')[0];
  INFO(t0 << " and " << t1);
  CHECK(t0 != t1);
  CHECK(std::stod(t1) - std::stod(t0) == Approx(0.002).margin(1e-6));
  CHECK(row_of(lines[1]).time == Approx(1200.0).margin(1e-6));
}

TEST_CASE("reporter: the transition file has a row per change with its cause and transitions keeps them in order",
          "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  auto options = quiet();
  options.transition_file = dir / "transitions.csv";
  const std::vector<TransitionEvent> events{
      {1.5, 750, MotionType::damping, MotionType::stand, MotionType::damping, SelectionCause::requested, 0.105},
      {2.5, 1250, MotionType::stand, MotionType::dispatching, MotionType::walk, SelectionCause::requested, 1.0},
      {3.25, 1625, MotionType::dispatching, MotionType::damping, MotionType::damping, SelectionCause::invalid_state,
       0.0},
      {4.0, 2000, MotionType::damping, MotionType::stand, MotionType::damping, SelectionCause::tilt, 0.5},
  };
  std::vector<TransitionEvent> kept;
  {
    Reporter<N> reporter(options, joints(), 0);
    for (const auto& e : events) reporter.push(e);
    reporter.flush();
    kept = reporter.transitions();
  }
  REQUIRE(kept.size() == events.size());
  for (std::size_t k = 0; k < events.size(); ++k) {
    CHECK(kept[k].cycle == events[k].cycle);
    CHECK(kept[k].to == events[k].to);
    CHECK(kept[k].cause == events[k].cause);
  }
  const auto lines = lines_of(read_file(*options.transition_file));
  REQUIRE(lines.size() == events.size() + 1);
  CHECK(lines[0] == "time,cycle,from,to,dispatching_to,cause,gain_ratio");
  const char* const rest[] = {
      "750,damping,stand,damping,requested,0.105",
      "1250,stand,dispatching,walk,requested,1",
      "1625,dispatching,damping,damping,invalid state (NaN),0",
      "2000,damping,stand,damping,tilt (projected gravity),0.5",
  };
  for (std::size_t k = 0; k < events.size(); ++k) {
    const auto row = row_of(lines[k + 1]);
    CHECK(row.time == Approx(events[k].time).margin(1e-9));
    CHECK(row.rest == rest[k]);
  }
  // Causes go in unquoted: none may add a column.
  for (std::size_t c = 0; c < praxis::motion::k_selection_causes; ++c) {
    const auto name = praxis::motion::to_string(static_cast<SelectionCause>(c));
    CHECK(name.find(',') == std::string_view::npos);
  }
}

TEST_CASE("reporter: status and stall events are kept in push order", "[control][reporter]") {
  Reporter<N> reporter(quiet(), joints(), 0);
  for (std::uint64_t k = 1; k <= 5; ++k) {
    praxis::control::StatusEvent s;
    s.cycle = k;
    s.status.sequence = 10 * k;
    reporter.push(s);
    StallEvent e;
    e.episode = k;
    e.stalled = (k % 2) == 1;
    reporter.push(e);
  }
  reporter.flush();
  const auto statuses = reporter.status_events();
  const auto stalls = reporter.stall_events();
  REQUIRE(statuses.size() == 5);
  REQUIRE(stalls.size() == 5);
  for (std::uint64_t k = 1; k <= 5; ++k) {
    CHECK(statuses[k - 1].cycle == k);
    CHECK(statuses[k - 1].status.sequence == 10 * k);
    CHECK(stalls[k - 1].episode == k);
    CHECK(stalls[k - 1].stalled == ((k % 2) == 1));
  }
  CHECK(reporter.transitions().empty());
  CHECK(reporter.dropped() == 0);
}

TEST_CASE("reporter: compute statistics come per full window with the nearest-rank p99", "[control][reporter]") {
  auto options = quiet();
  options.stats_every = 100;
  Reporter<N> reporter(options, joints(), 0);
  // 1..100 us, pushed in falling order: min, max and p99 must come from the sorted window.
  for (std::uint32_t us = 100; us >= 2; --us) reporter.push_cycle_timing(timing(us * 1000, 0));
  reporter.flush();
  CHECK(reporter.last_stats().samples == 0);  // 99 of 100: no window yet
  reporter.push_cycle_timing(timing(1000, 0));
  reporter.flush();
  const auto s = reporter.last_stats();
  CHECK(s.samples == 100);
  CHECK(s.mean_us == Approx(50.5));
  CHECK(s.min_us == Approx(1.0));
  CHECK(s.max_us == Approx(100.0));
  CHECK(s.p99_us == Approx(99.0));  // rank round(0.99 * 99) = 98 of 0..99
  CHECK(s.late_max_us == 0.0);
  CHECK(s.late_p99_us == 0.0);
}

TEST_CASE("reporter: each statistics window stands alone and lateness is summarised the same way",
          "[control][reporter]") {
  auto options = quiet();
  options.stats_every = 4;
  Reporter<N> reporter(options, joints(), 0);
  for (const auto t : {timing(4000, 0), timing(1000, 500), timing(3000, 0), timing(2000, 1500)}) {
    reporter.push_cycle_timing(t);
  }
  reporter.flush();
  auto s = reporter.last_stats();
  CHECK(s.samples == 4);
  CHECK(s.mean_us == Approx(2.5));
  CHECK(s.min_us == Approx(1.0));
  CHECK(s.max_us == Approx(4.0));
  CHECK(s.p99_us == Approx(4.0));  // rank round(0.99 * 3) = 3
  CHECK(s.late_max_us == Approx(1.5));
  CHECK(s.late_p99_us == Approx(1.5));

  // Three of the next window change nothing; the fourth reports the new window only.
  for (const auto t : {timing(10000, 0), timing(20000, 0), timing(30000, 0)}) reporter.push_cycle_timing(t);
  reporter.flush();
  CHECK(reporter.last_stats().mean_us == Approx(2.5));
  reporter.push_cycle_timing(timing(40000, 0));
  reporter.flush();
  s = reporter.last_stats();
  CHECK(s.samples == 4);
  CHECK(s.mean_us == Approx(25.0));
  CHECK(s.min_us == Approx(10.0));
  CHECK(s.max_us == Approx(40.0));
  CHECK(s.late_max_us == 0.0);
}

TEST_CASE("reporter: a statistics window of 0 counts as 1", "[control][reporter]") {
  auto options = quiet();
  options.stats_every = 0;
  Reporter<N> reporter(options, joints(), 0);
  reporter.push_cycle_timing(timing(7000, 2000));
  reporter.flush();
  auto s = reporter.last_stats();
  CHECK(s.samples == 1);
  CHECK(s.mean_us == Approx(7.0));
  CHECK(s.p99_us == Approx(7.0));
  CHECK(s.late_p99_us == Approx(2.0));
  reporter.push_cycle_timing(timing(3000, 0));
  reporter.flush();
  s = reporter.last_stats();
  CHECK(s.mean_us == Approx(3.0));
  CHECK(s.late_max_us == 0.0);
}

TEST_CASE("reporter: a full queue drops and counts records instead of waiting", "[control][reporter]") {
  // The reporter thread looks for work once a second: a burst of pushes fills the stall queue (the
  // smallest) long before it comes back. Whatever it took in between, every push is either kept or
  // counted as dropped, and the kept ones are the oldest, in order.
  auto options = quiet();
  options.poll = 1s;
  Reporter<N> reporter(options, joints(), 0);
  constexpr std::uint64_t k_pushes = 5000;
  for (std::uint64_t k = 1; k <= k_pushes; ++k) {
    StallEvent e;
    e.episode = k;
    reporter.push(e);
  }
  reporter.flush();
  const auto kept = reporter.stall_events();
  CHECK(reporter.dropped() > 0);
  CHECK(kept.size() + reporter.dropped() == k_pushes);
  CHECK(kept.size() >= 63);  // at least a full queue
  REQUIRE_FALSE(kept.empty());
  CHECK(kept.front().episode == 1);
  bool increasing = true;
  for (std::size_t k = 1; k < kept.size(); ++k) increasing = increasing && kept[k].episode > kept[k - 1].episode;
  CHECK(increasing);
}

TEST_CASE("reporter: stall events are printed in words", "[control][reporter]") {
  CapturedStdout out;
  {
    auto options = quiet();
    options.print = true;
    Reporter<N> reporter(options, joints(), 0);
    reporter.push(StallEvent{1.5, 1, true, 0.025, 0, 0, false});
    reporter.push(StallEvent{1.625, 1, true, 0.125, 0, 0, true});
    reporter.push(StallEvent{2.0, 1, false, 0.002, 12, 40, false});
    reporter.flush();
  }
  const auto text = out.text();
  INFO(text);
  const auto held = text.find("t=1.500000 s: control stalled (newest command 25 ms old, stall 1): holding the last command\n");
  const auto safe = text.find(
      "t=1.625000 s: control stalled (newest command 125 ms old, stall 1): past the stall timeout, sending the safe "
      "state\n");
  const auto resumed =
      text.find("t=2.000000 s: control resumed after stall 1 (40 hold frames, 12 safe-state frames sent)\n");
  REQUIRE(held != std::string::npos);
  REQUIRE(safe != std::string::npos);
  REQUIRE(resumed != std::string::npos);
  CHECK(held < safe);
  CHECK(safe < resumed);
}

TEST_CASE("reporter: info messages are printed only when printing", "[control][reporter]") {
  CapturedStdout out;
  {
    Reporter<N> silent(quiet(), joints(), 0);
    silent.info("not shown");
    auto options = quiet();
    options.print = true;
    Reporter<N> loud(options, joints(), 0);
    loud.info("shown");
  }
  const auto text = out.text();
  INFO(text);
  CHECK(text.find("] shown\n") != std::string::npos);
  CHECK(text.find("not shown") == std::string::npos);
}

TEST_CASE("reporter: a cycle log or transition file that cannot be created is an error naming it",
          "[control][reporter]") {
  const praxis::test::ScratchDir dir("reporter");
  const auto missing = dir / "no_such_folder";
  auto csv = quiet();
  csv.csv_file = missing / "cycles.csv";
  try {
    Reporter<N> reporter(csv, joints(), 0);
    FAIL("a cycle log in a missing folder was accepted");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "cannot create the cycle log '" + csv.csv_file->string() + "'");
  }
  auto transitions = quiet();
  transitions.transition_file = missing / "transitions.csv";
  try {
    Reporter<N> reporter(transitions, joints(), 0);
    FAIL("a transition file in a missing folder was accepted");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) ==
          "cannot create the transition log '" + transitions.transition_file->string() + "'");
  }
}

}  // namespace reporter_test
