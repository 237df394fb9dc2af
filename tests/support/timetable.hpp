#pragma once
// Timetable: a behaviour node for MotionController tests that follows a timetable from its first
// cycle: `steps` are (seconds since the first cycle, motion command), the last one due wins, and
// before the first one the behaviour has sent nothing (command::Unset). Shared by the vendors'
// two-process tests.

#include <string_view>
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
  std::vector<std::pair<double, motion::MotionCommand>> steps;
  TimePoint start{};
  bool started = false;
  void cycle(const CycleInfo& info, motion::MotionCommand& out) {
    if (!started) {
      start = info.now;
      started = true;
    }
    const double t = to_seconds(info.now - start);
    out = motion::command::Unset{};
    for (const auto& [from, command] : steps) {
      if (t >= from) out = command;
    }
  }
};

}  // namespace praxis::test
