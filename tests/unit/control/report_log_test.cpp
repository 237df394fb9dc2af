// What the reporter records and ReportLog, its human-readable side. GuardThrottle sorts a guard
// event into one kind (a non-finite command before an unsupported mode before a clamp), admits the
// first event of a kind and then one per second of controller time counted from the last one
// printed (an event exactly a second later is printed), and hands the printed one the number of its
// kind left out since; the kinds do not hold each other back. ReportLog prints each event as one
// line naming what happened (a dispatching transition names its target instead of a gain ratio; a
// status whose reported mode disagrees with the assumed one says so; lateness only when there was
// some), thins guard events out with the throttle, prefixes a printed guard line with the count
// left out and sums the unprinted ones when it is destroyed. Its lines go to stdout, read back by
// pointing the process's stdout at a file for the test; times are the events' own numbers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "praxis/control/report_log.hpp"

#include "../../support/scratch_dir.hpp"

namespace report_log_test {

using praxis::control::GuardEvent;
using praxis::control::GuardThrottle;
using praxis::motion::MotionType;
using praxis::motion::SelectionCause;

namespace {

GuardEvent clamp_at(double t, std::uint32_t joints = 2) { return GuardEvent{t, 0, false, joints, 0}; }
GuardEvent non_finite_at(double t) { return GuardEvent{t, 0, true, 0, 0}; }
GuardEvent unsupported_at(double t, std::uint32_t joints = 1) { return GuardEvent{t, 0, false, 0, joints}; }

// Points the process's stdout (fd 1, where spdlog's sink writes) at a file until text() or the end of
// the scope.
class CapturedStdout {
 public:
  CapturedStdout() : dir_("report_log"), file_(dir_ / "stdout.txt") {
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

  // Everything written so far; stdout is the terminal's again afterwards.
  std::string text() {
    restore();
    std::ifstream in(file_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
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

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("report log: a guard event's kind is non-finite before unsupported mode before clamp",
          "[control][report_log]") {
  CHECK(GuardThrottle::kind_of(GuardEvent{0, 0, true, 5, 3}) == GuardThrottle::non_finite);
  CHECK(GuardThrottle::kind_of(GuardEvent{0, 0, false, 5, 3}) == GuardThrottle::unsupported_mode);
  CHECK(GuardThrottle::kind_of(GuardEvent{0, 0, false, 5, 0}) == GuardThrottle::clamped);
  CHECK(GuardThrottle::kind_of(GuardEvent{0, 0, false, 0, 0}) == GuardThrottle::clamped);
}

TEST_CASE("report log: the throttle prints the first event and then one a second later, not sooner",
          "[control][report_log]") {
  GuardThrottle t;
  std::uint64_t left_out = 99;
  REQUIRE(t.admit(clamp_at(10.0), left_out));
  CHECK(left_out == 0);
  CHECK_FALSE(t.admit(clamp_at(10.5), left_out));
  CHECK_FALSE(t.admit(clamp_at(10.9375), left_out));  // 1/16 s before the second
  CHECK(t.pending(GuardThrottle::clamped) == 2);
  // Exactly one second after the last printed one: printed, with the two left out.
  REQUIRE(t.admit(clamp_at(11.0), left_out));
  CHECK(left_out == 2);
  CHECK(t.pending(GuardThrottle::clamped) == 0);
  // The next line waits a second from this one.
  CHECK_FALSE(t.admit(clamp_at(11.5), left_out));
  REQUIRE(t.admit(clamp_at(12.0), left_out));
  CHECK(left_out == 1);
}

TEST_CASE("report log: the throttle's second counts from the last printed event not the last event",
          "[control][report_log]") {
  GuardThrottle t;
  std::uint64_t left_out = 0;
  // An event every 0.75 s: 0 printed, 0.75 not, 1.5 printed (1.5 s after 0), 2.25 not (0.75 after
  // 1.5), 3.0 printed.
  const double times[] = {0.0, 0.75, 1.5, 2.25, 3.0};
  const bool expected[] = {true, false, true, false, true};
  for (std::size_t k = 0; k < 5; ++k) {
    INFO("t = " << times[k]);
    CHECK(t.admit(clamp_at(times[k]), left_out) == expected[k]);
    if (expected[k]) CHECK(left_out == (k == 0 ? 0u : 1u));
  }
}

TEST_CASE("report log: the throttle's kinds do not hold each other back", "[control][report_log]") {
  GuardThrottle t;
  std::uint64_t left_out = 0;
  REQUIRE(t.admit(clamp_at(0.0), left_out));
  CHECK_FALSE(t.admit(clamp_at(0.1), left_out));
  CHECK(t.admit(non_finite_at(0.1), left_out));
  CHECK(left_out == 0);  // the clamp left out is not counted against the non-finite line
  CHECK(t.admit(unsupported_at(0.2), left_out));
  CHECK(left_out == 0);
  CHECK_FALSE(t.admit(non_finite_at(0.3), left_out));
  CHECK_FALSE(t.admit(unsupported_at(0.3), left_out));
  CHECK_FALSE(t.admit(unsupported_at(0.4), left_out));
  CHECK(t.pending(GuardThrottle::clamped) == 1);
  CHECK(t.pending(GuardThrottle::non_finite) == 1);
  CHECK(t.pending(GuardThrottle::unsupported_mode) == 2);
  // Each kind's second runs from its own last line.
  CHECK(t.admit(clamp_at(1.0), left_out));
  CHECK(left_out == 1);
  CHECK_FALSE(t.admit(non_finite_at(1.0), left_out));  // its line was at 0.1
  CHECK(t.admit(non_finite_at(1.1), left_out));
  CHECK(left_out == 2);
}

TEST_CASE("report log: a transition line names both motions, the cause and the gain ratio",
          "[control][report_log]") {
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.transition({1.5, 750, MotionType::stand, MotionType::user_control, MotionType::damping,
                    SelectionCause::requested, 0.96});
    log.transition({2.25, 1125, MotionType::user_control, MotionType::damping, MotionType::damping,
                    SelectionCause::tilt, 0.0});
  }
  const auto text = out.text();
  INFO(text);
  CHECK(count_of(text, "\n") == 2);
  CHECK(text.find("] t=1.500s cycle 750: stand -> user_control (requested), gain ratio 0.960\n") != std::string::npos);
  CHECK(text.find("] t=2.250s cycle 1125: user_control -> damping (tilt (projected gravity)), gain ratio 0.000\n") !=
        std::string::npos);
  CHECK(text.find("stand -> user_control") < text.find("user_control -> damping"));
  REQUIRE_FALSE(text.empty());
  CHECK(text.front() == '[');  // each line is time stamped
}

TEST_CASE("report log: a transition into dispatching names its target and no gain ratio", "[control][report_log]") {
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.transition({3.0, 1500, MotionType::stand, MotionType::dispatching, MotionType::script,
                    SelectionCause::requested, 1.0});
  }
  const auto text = out.text();
  INFO(text);
  CHECK(text.find("t=3.000s cycle 1500: stand -> dispatching to script (requested)\n") != std::string::npos);
  CHECK(text.find("gain ratio") == std::string::npos);
}

TEST_CASE("report log: guard lines are thinned out per kind and count what was left out", "[control][report_log]") {
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.guard({0.5, 250, false, 2, 0});    // printed
    log.guard({0.75, 375, false, 3, 0});   // left out
    log.guard({1.0, 500, false, 4, 0});    // left out
    log.guard({1.0, 500, true, 0, 0});     // another kind: printed
    log.guard({1.25, 625, false, 0, 3});   // another kind: printed
    log.guard({1.5, 750, false, 5, 0});    // a second after the first clamp: printed after a count
  }
  const auto text = out.text();
  INFO(text);
  const auto first = text.find("t=0.500s cycle 250: command clamped to the robot's limits on 2 joint(s)");
  const auto non_finite = text.find("t=1.000s cycle 500: controller command was not finite; damping sent instead");
  const auto modes =
      text.find("t=1.250s cycle 625: 3 joint(s) asked for a mode the robot cannot take; damped instead");
  const auto count = text.find("(2 more like the next line since the last one printed)");
  const auto last = text.find("t=1.500s cycle 750: command clamped to the robot's limits on 5 joint(s)");
  REQUIRE(first != std::string::npos);
  REQUIRE(non_finite != std::string::npos);
  REQUIRE(modes != std::string::npos);
  REQUIRE(count != std::string::npos);
  REQUIRE(last != std::string::npos);
  CHECK(first < non_finite);
  CHECK(non_finite < modes);
  CHECK(modes < count);
  CHECK(count < last);
  CHECK(text.find("on 3 joint(s)") == std::string::npos);
  CHECK(text.find("on 4 joint(s)") == std::string::npos);
  CHECK(count_of(text, "\n") == 5);
  CHECK(text.find("after the last one printed") == std::string::npos);  // nothing left unprinted at the end
}

TEST_CASE("report log: a clamp line names each noted joint, the field, the value asked and the value sent",
          "[control][report_log]") {
  using Field = praxis::motion::ClampNote::Field;
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    GuardEvent e{2.0, 1000, false, 6, 0};
    e.clamps = {praxis::motion::ClampNote{"left_knee", Field::q, 2.95, 2.8798},
                praxis::motion::ClampNote{"waist_yaw", Field::kp, 600, 500},
                praxis::motion::ClampNote{"left_ankle_pitch", Field::tau, -80, -50},
                praxis::motion::ClampNote{"right_hip_roll", Field::dq, 40, 32}};
    log.guard(e);
  }
  const auto text = out.text();
  INFO(text);
  CHECK(text.find("t=2.000s cycle 1000: command clamped to the robot's limits on 6 joint(s): left_knee q 2.95 -> "
                  "2.88, waist_yaw kp 600 -> 500, left_ankle_pitch tau -80 -> -50, right_hip_roll dq 40 -> 32 and 2 "
                  "more") != std::string::npos);
}

TEST_CASE("report log: events left out at the end are summed over all kinds when the log closes",
          "[control][report_log]") {
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.guard({0.0, 0, false, 1, 0});
    log.guard({0.1, 1, false, 1, 0});  // left out
    log.guard({0.2, 2, false, 1, 0});  // left out
    log.guard({0.0, 0, true, 0, 0});
    log.guard({0.3, 3, true, 0, 0});   // left out
    log.guard({0.0, 0, false, 0, 1});
    log.guard({0.4, 4, false, 0, 1});  // left out
  }
  const auto text = out.text();
  INFO(text);
  CHECK(count_of(text, "\n") == 4);
  CHECK(text.find("4 more command-guard event(s) after the last one printed") != std::string::npos);
}

TEST_CASE("report log: a status line shows both modes and flags only a reported mode that disagrees",
          "[control][report_log]") {
  praxis::control::StatusEvent disagree;
  disagree.time = 4.0;
  disagree.cycle = 2000;
  disagree.status.assumed_mode = praxis::RobotMode::user;
  disagree.status.reported_mode = praxis::RobotMode::damping;
  disagree.status.last_request.id = 2004;
  disagree.status.last_request.outcome = praxis::RequestOutcome::rejected;
  disagree.status.last_request.code = -3;
  disagree.status.requests_in_flight = 2;
  disagree.status.lifecycle = praxis::LifecycleStage::in_control;

  auto agree = disagree;
  agree.status.reported_mode = praxis::RobotMode::user;
  auto unreported = disagree;
  unreported.status.reported_mode = praxis::RobotMode::unknown;

  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.status(disagree);
    log.status(agree);
    log.status(unreported);
  }
  const auto text = out.text();
  INFO(text);
  CHECK(text.find("t=4.000s cycle 2000: robot mode assumed user, reported damping (DISAGREES); last request 2004 "
                  "rejected (code -3), 2 in flight; in control\n") != std::string::npos);
  CHECK(text.find("robot mode assumed user, reported user; last request") != std::string::npos);
  CHECK(text.find("robot mode assumed user, reported unknown; last request") != std::string::npos);
  CHECK(count_of(text, "DISAGREES") == 1);
}

TEST_CASE("report log: a statistics line shows the lateness only when there was some", "[control][report_log]") {
  praxis::control::ComputeStats s;
  s.samples = 100;
  s.mean_us = 12.5;
  s.min_us = 10.0;
  s.max_us = 20.0;
  s.p99_us = 19.0;
  auto late = s;
  late.late_p99_us = 30.5;
  late.late_max_us = 40.0;
  CapturedStdout out;
  {
    praxis::control::ReportLog log;
    log.stats(s);
    log.stats(late);
    log.info("a plain message, 100% as given {}");
  }
  const auto text = out.text();
  INFO(text);
  CHECK(text.find("] compute time over 100 cycles: mean 12.50 us, min 10.00 us, max 20.00 us, p99 19.00 us\n") !=
        std::string::npos);
  CHECK(text.find("compute time over 100 cycles: mean 12.50 us, min 10.00 us, max 20.00 us, p99 19.00 us; woke "
                  "after the deadline by p99 30.5 us, max 40.0 us\n") != std::string::npos);
  CHECK(count_of(text, "woke after the deadline") == 1);
  // A message is printed as given, never read as a format string.
  CHECK(text.find("] a plain message, 100% as given {}\n") != std::string::npos);
}

}  // namespace report_log_test
