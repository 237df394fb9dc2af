#pragma once
// What the DDS stories of praxis_motion_demo share: a behaviour that is a timetable of motion
// commands from its first cycle, and a fake robot run as a second process for the story's length.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <praxis/control/motion_controller.hpp>
#include <praxis/control/run_outcome.hpp>
#include <praxis/control/runtime_params.hpp>
#include <praxis/control/signals.hpp>

extern char** environ;

namespace example {

struct Timetable {
  static constexpr std::string_view name = "timetable";
  using inputs = praxis::ports<praxis::CyclePort>;
  using outputs = praxis::ports<praxis::motion::MotionCommandPort>;
  struct Step {
    double at;
    std::string label;
    praxis::motion::MotionCommand command;
  };
  std::vector<Step> steps;
  praxis::TimePoint start{};
  bool started = false;
  void cycle(const praxis::CycleInfo& info, praxis::motion::MotionCommand& out) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = praxis::to_seconds(info.now - start);
    out = praxis::motion::command::Unset{};
    for (const auto& s : steps) {
      if (t < s.at) break;
      out = s.command;
    }
  }
};

// The runtime's options for a story: quiet, with the runtime's safety file when one is given
// (--runtime-params: the tests' loaded-machine settings widen the stale timeout with it).
inline praxis::control::MotionOptions story_options(const std::string& runtime_params) {
  praxis::control::MotionOptions mo;
  if (!runtime_params.empty()) praxis::control::load_runtime_params(runtime_params, mo);
  mo.print = false;
  return mo;
}

// Runs the timetable for `seconds` (Ctrl-C ends the run in the robot's own way) and prints how the
// robot was taken and the commands; false, after saying why, when it was not taken.
template <class Motion>
bool run_timetable(Motion& motion, const std::string& where, int seconds, praxis::control::RunOutcome& outcome) {
  std::printf("%s: running the behaviour for %d s\n", where.c_str(), seconds);
  std::fflush(stdout);
  {
    const praxis::control::StopOnSignals stop_on_signals(motion);
    outcome = motion.run_for(std::chrono::seconds(seconds));
  }
  const auto& acquired = motion.acquired();
  if (!acquired || !acquired->ok) {
    std::printf("could not take the robot: %s\n", acquired ? acquired->message.c_str() : "no lifecycle");
    return false;
  }
  std::printf("lifecycle: %s\n", acquired->message.c_str());
  for (const auto& s : motion.behaviour().steps) std::printf("%6.2f  command: %s\n", s.at, s.label.c_str());
  return true;
}

// A fake robot next to this program (`self`'s folder), writing its report to a temporary file;
// report() ends it (SIGTERM) and reads the report (null when it wrote none). Ended by the
// destructor too, so an error on the way never leaves it running.
class FakeRobot {
 public:
  FakeRobot() = default;
  FakeRobot(const std::string& self, const std::string& program, std::vector<std::string> args)
      : report_(std::filesystem::temp_directory_path() /
                (program + "_" + std::to_string(::getpid()) + "_report.json")) {
    const auto exe = std::filesystem::path(self).parent_path() / program;
    args.insert(args.begin(), exe.string());
    args.insert(args.end(), {"--report", report_.string()});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, exe.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start " + exe.string());
    }
  }
  ~FakeRobot() { stop(); }
  FakeRobot(FakeRobot&& o) noexcept : report_(std::move(o.report_)), pid_(std::exchange(o.pid_, 0)) {}
  FakeRobot& operator=(FakeRobot&& o) noexcept {
    if (this != &o) {
      stop();
      report_ = std::move(o.report_);
      pid_ = std::exchange(o.pid_, 0);
    }
    return *this;
  }

  [[nodiscard]] pid_t pid() const { return pid_; }
  nlohmann::json report() {
    stop();
    std::ifstream in(report_);
    auto j = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(report_);
    return j.is_discarded() ? nlohmann::json() : j;
  }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    pid_ = 0;
  }
  std::filesystem::path report_;
  pid_t pid_ = 0;
};

}  // namespace example
