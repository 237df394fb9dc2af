#pragma once
// A gamepad driven by a schedule of presses and releases, for plants that have no gamepad of their
// own (MockRobot has one built in): script_gamepad() fills it, state_at() plays it forward in the
// plant's time.

#include <algorithm>
#include <cstddef>
#include <vector>

#include <praxis/core/clock.hpp>
#include <praxis/core/gamepad.hpp>

namespace example {

class ScriptedGamepad {
 public:
  void press(praxis::GamepadButton b, praxis::TimePoint at) { add({at, b, true}); }
  void release(praxis::GamepadButton b, praxis::TimePoint at) { add({at, b, false}); }

  // The buttons at `now`; time only moves forward (an earlier `now` replays nothing).
  const praxis::GamepadState& state_at(praxis::TimePoint now) {
    while (next_ < events_.size() && events_[next_].at <= now) {
      state_.set(events_[next_].button, events_[next_].down);
      ++next_;
    }
    return state_;
  }

 private:
  struct Event {
    praxis::TimePoint at;
    praxis::GamepadButton button;
    bool down;
  };
  void add(Event e) {
    // Stable by time, so a press and release at one instant keep the order the script gave them.
    const auto pos = std::upper_bound(events_.begin() + static_cast<std::ptrdiff_t>(next_), events_.end(), e.at,
                                      [](praxis::TimePoint t, const Event& x) { return t < x.at; });
    events_.insert(pos, e);
  }

  std::vector<Event> events_;
  std::size_t next_ = 0;
  praxis::GamepadState state_{};
};

}  // namespace example
