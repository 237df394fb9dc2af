#pragma once
// Timetable: a behaviour node for MotionController tests that follows a timetable from its first
// cycle: `steps` are (seconds since the first cycle, motion command), the last one due wins, and
// before the first one the behaviour has sent nothing (command::Unset). Shared by the vendors'
// two-process tests. `disturbance` at `disturb_at` seconds (once): the ways control ends that start
// in the behaviour's own cycle, on the control thread: a signal raised (Ctrl-C), a stall (the cycle
// blocks for `stall_for`), an exception.

#include <csignal>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/core/cycle.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::test {

struct Timetable {
  static constexpr std::string_view name = "timetable";
  using inputs = ports<CyclePort>;
  using outputs = ports<motion::MotionCommandPort>;
  enum class Disturbance { none, signal, stall, exception };
  std::vector<std::pair<double, motion::MotionCommand>> steps;
  Disturbance disturbance = Disturbance::none;
  double disturb_at = 0.0;
  int signal = SIGINT;
  Duration stall_for{};
  TimePoint start{};
  bool started = false;
  bool disturbed = false;
  TimePoint stall_began{}, stall_ended{};
  void cycle(const CycleInfo& info, motion::MotionCommand& out) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = to_seconds(info.now - start);
    if (disturbance != Disturbance::none && !disturbed && t >= disturb_at) {
      disturbed = true;
      switch (disturbance) {
        case Disturbance::signal: std::raise(signal); break;
        case Disturbance::stall:
          stall_began = Clock::now();
          std::this_thread::sleep_for(stall_for);
          stall_ended = Clock::now();
          break;
        case Disturbance::exception: throw std::runtime_error("the behaviour failed (test)");
        case Disturbance::none: break;
      }
    }
    out = motion::command::Unset{};
    for (const auto& [from, command] : steps) {
      if (t >= from) out = command;
    }
  }
};

}  // namespace praxis::test
