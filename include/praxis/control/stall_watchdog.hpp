#pragma once
// StallWatchdog: what the send thread of a timer-triggered run does with the newest command, by its
// age (how long ago the control thread computed it). The control thread can stall for reasons that
// are not the robot's: a page-fault storm, a debugger, a loaded machine (20-26 ms were measured on
// a loaded 2-core machine). A robot is best served by holding the last targets through a short
// stall, and by its safe state only when the stall lasts:
//
//   age <= command_timeout                       send the newest command                (send)
//   command_timeout < age <= stall_timeout       send it again, targets and gains as they were (hold)
//   age > stall_timeout                          the robot's safe state                 (safe)
//
// Pure logic, so its episodes and counts are unit-tested without threads (control_tests).

#include <cstdint>

#include "praxis/core/clock.hpp"

namespace praxis::control {

class StallWatchdog {
 public:
  enum class Action : std::uint8_t { send, hold, safe };
  // What changed with this look: an episode began (the first late command) or ended.
  enum class Edge : std::uint8_t { none, began, ended };

  StallWatchdog(Duration command_timeout, Duration stall_timeout)
      : command_timeout_(command_timeout), stall_timeout_(stall_timeout < command_timeout ? command_timeout : stall_timeout) {}

  struct Look {
    Action action = Action::send;
    Edge edge = Edge::none;
    bool became_safe = false;  // this look crossed stall_timeout (once per episode)
  };

  Look look(Duration age) {
    Look l;
    if (age <= command_timeout_) {
      l.action = Action::send;
      if (stalled_) {
        stalled_ = false;
        safe_ = false;
        l.edge = Edge::ended;
      }
      return l;
    }
    if (!stalled_) {
      stalled_ = true;
      ++episodes_;
      held_in_episode_ = safe_in_episode_ = 0;
      l.edge = Edge::began;
    }
    if (age <= stall_timeout_) {
      l.action = Action::hold;
      ++held_in_episode_;
      ++held_;
    } else {
      l.action = Action::safe;
      l.became_safe = !safe_;
      safe_ = true;
      ++safe_in_episode_;
      ++safe_sends_;
    }
    return l;
  }

  [[nodiscard]] bool stalled() const { return stalled_; }
  [[nodiscard]] std::uint64_t episodes() const { return episodes_; }
  [[nodiscard]] std::uint64_t held() const { return held_; }            // hold frames, all episodes
  [[nodiscard]] std::uint64_t safe_sends() const { return safe_sends_; }  // safe-state frames, all episodes
  [[nodiscard]] std::uint64_t held_in_episode() const { return held_in_episode_; }
  [[nodiscard]] std::uint64_t safe_in_episode() const { return safe_in_episode_; }
  [[nodiscard]] Duration command_timeout() const { return command_timeout_; }
  [[nodiscard]] Duration stall_timeout() const { return stall_timeout_; }

 private:
  Duration command_timeout_;
  Duration stall_timeout_;
  bool stalled_ = false;
  bool safe_ = false;
  std::uint64_t episodes_ = 0, held_ = 0, safe_sends_ = 0, held_in_episode_ = 0, safe_in_episode_ = 0;
};

}  // namespace praxis::control
