#pragma once
// A gamepad played from a script: buttons pressed and released and sticks held at set times — the
// gamepad of every run without a person (MockRobot's, the fake robots' and praxis-sim's --gamepad,
// WithScriptedGamepad for robots whose state carries no remote).
//
// The text form, items separated by commas, times in seconds from the script's start:
//
//   BUTTON:START[-END]        R2:0.5-3.0  R2 held from 0.5 s to 3 s; A:4.0  A tapped (0.1 s) at 4 s
//   AXIS=VALUE@START[-END]    LY=0.5@10-30  the left stick half forward from 10 s to 30 s, then
//                             centred again; RX=-1@2  the right stick full left from 2 s on
//
// BUTTON is a GamepadButton's name (R1 L1 start select R2 L2 F1 F2 A B X Y up right down left); AXIS
// is lx, ly, rx or ry (either case) and VALUE a number from -1 to 1, signed as in GamepadState (ly,
// ry positive forward; lx, rx positive to the right). Times are plain decimal seconds from 0 to
// 10^6. Two items on one button or one axis may not overlap in time: which one would win is not
// obvious. A bad script throws std::invalid_argument starting with the option's name ("--gamepad: ")
// and quoting the item; nothing of it is scheduled.
//
// Playing it: state_at(now) applies every event up to `now`, forward only, without allocating (the
// control thread may call it); press(), release(), set_axis() and add() belong to the owner's thread
// before or between those calls. The programmatic calls take any value, a NaN stick included, so
// tests can script a glitching remote; the text form refuses one.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/clock.hpp"
#include "praxis/core/detail/timed_text.hpp"
#include "praxis/core/gamepad.hpp"

namespace praxis {

inline constexpr double k_gamepad_script_max_seconds = detail::k_script_max_seconds;
// A button item without a release time is a tap this long.
inline constexpr double k_gamepad_tap_seconds = 0.1;

inline constexpr std::string_view k_gamepad_button_names[16] = {
    "R1", "L1", "start", "select", "R2", "L2", "F1", "F2", "A", "B", "X", "Y", "up", "right", "down", "left"};
inline constexpr std::string_view k_gamepad_axis_names[4] = {"lx", "ly", "rx", "ry"};

[[nodiscard]] constexpr std::string_view to_string(GamepadButton b) {
  return k_gamepad_button_names[static_cast<unsigned>(b)];
}
[[nodiscard]] constexpr std::string_view to_string(GamepadAxis a) {
  return k_gamepad_axis_names[static_cast<unsigned>(a)];
}

// A button by its exact name.
[[nodiscard]] inline std::optional<GamepadButton> gamepad_button_named(std::string_view name) {
  for (unsigned b = 0; b < 16; ++b) {
    if (name == k_gamepad_button_names[b]) return static_cast<GamepadButton>(b);
  }
  return std::nullopt;
}

// An axis by its name in either case ("ly", "LY").
[[nodiscard]] inline std::optional<GamepadAxis> gamepad_axis_named(std::string_view name) {
  if (name.size() != 2) return std::nullopt;
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const char text[2] = {lower(name[0]), lower(name[1])};
  for (unsigned a = 0; a < 4; ++a) {
    if (std::string_view(text, 2) == k_gamepad_axis_names[a]) return static_cast<GamepadAxis>(a);
  }
  return std::nullopt;
}

// One item of a script, its times in seconds from the script's start.
struct GamepadScriptItem {
  std::string text;  // as written, for messages
  bool is_axis = false;
  GamepadButton button{};
  GamepadAxis axis{};
  float value = 0.0f;  // an axis item's value
  double from = 0.0;
  double until = std::numeric_limits<double>::infinity();  // infinite: held to the end (axes only)
};

namespace detail {

inline GamepadScriptItem gamepad_script_item(std::string_view option, std::string_view text) {
  GamepadScriptItem item;
  item.text = std::string(text);
  const auto equals = text.find('=');
  if (equals != std::string_view::npos) {
    item.is_axis = true;
    const auto name = text.substr(0, equals);
    const auto axis = gamepad_axis_named(name);
    if (!axis) refuse_item(option, text, "unknown axis \"" + std::string(name) + "\" (one of lx, ly, rx, ry)");
    item.axis = *axis;
    const auto rest = text.substr(equals + 1);
    const auto at = rest.find('@');
    if (at == std::string_view::npos) refuse_item(option, text, "an axis item is AXIS=VALUE@START[-END]");
    const auto value = whole_number(rest.substr(0, at));
    if (!value || *value < -1.0 || *value > 1.0) {
      refuse_item(option, text, "the value \"" + std::string(rest.substr(0, at)) + "\" is not a number from -1 to 1");
    }
    item.value = static_cast<float>(*value);
    const auto w = time_window(option, text, rest.substr(at + 1), "start", "end");
    item.from = w.from;
    if (w.until) item.until = *w.until;
    return item;
  }
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    throw std::invalid_argument(std::string(option) + ": \"" + std::string(text) +
                                "\" is not BUTTON:START[-END] or AXIS=VALUE@START[-END]");
  }
  const auto button = gamepad_button_named(text.substr(0, colon));
  if (!button) {
    throw std::invalid_argument(std::string(option) + ": unknown button \"" + std::string(text.substr(0, colon)) + "\"");
  }
  item.button = *button;
  const auto w = time_window(option, text, text.substr(colon + 1), "press", "release");
  item.from = w.from;
  item.until = w.until ? *w.until : w.from + k_gamepad_tap_seconds;
  return item;
}

}  // namespace detail

// The items of a script's text (see the top of this file), checked; "" is a script of no items.
[[nodiscard]] inline std::vector<GamepadScriptItem> parse_gamepad_script(std::string_view text,
                                                                         std::string_view option = "--gamepad") {
  std::vector<GamepadScriptItem> items;
  for (const auto part : detail::split_items(text, ',')) items.push_back(detail::gamepad_script_item(option, part));
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      const auto& a = items[k];
      const auto& b = items[i];
      const bool same = a.is_axis == b.is_axis && (a.is_axis ? a.axis == b.axis : a.button == b.button);
      if (same && a.from < b.until && b.from < a.until) {
        detail::refuse_item(option, b.text,
                            "overlaps \"" + a.text + "\" on " +
                                std::string(a.is_axis ? to_string(a.axis) : to_string(a.button)));
      }
    }
  }
  return items;
}

class GamepadScript {
 public:
  GamepadScript() = default;
  // `text` parsed and scheduled from t0 (throws std::invalid_argument; nothing scheduled then).
  GamepadScript(std::string_view text, TimePoint t0, std::string_view option = "--gamepad") { add(text, t0, option); }

  void press(GamepadButton b, TimePoint at) { schedule({at, Kind::press, b, {}, 0.0f}); }
  void release(GamepadButton b, TimePoint at) { schedule({at, Kind::release, b, {}, 0.0f}); }
  void hold(GamepadButton b, TimePoint from, Duration length) {
    press(b, from);
    release(b, from + length);
  }
  // The axis reads `value` from `at` on, until it is set again.
  void set_axis(GamepadAxis a, float value, TimePoint at) { schedule({at, Kind::axis, {}, a, value}); }

  // Parsed items, scheduled from t0: a button pressed at from and released at until, an axis set at
  // from and centred (0) at until.
  void add(std::span<const GamepadScriptItem> items, TimePoint t0) {
    events_.reserve(events_.size() + 2 * items.size());
    for (const auto& item : items) {
      const auto from = t0 + from_seconds(item.from);
      if (item.is_axis) {
        set_axis(item.axis, item.value, from);
        if (item.until < std::numeric_limits<double>::infinity()) {
          set_axis(item.axis, 0.0f, t0 + from_seconds(item.until));
        }
      } else {
        press(item.button, from);
        release(item.button, t0 + from_seconds(item.until));
      }
    }
  }
  void add(std::string_view text, TimePoint t0, std::string_view option = "--gamepad") {
    add(parse_gamepad_script(text, option), t0);
  }

  // The gamepad at `now`; time only moves forward (an earlier `now` replays nothing). Allocates nothing.
  const GamepadState& state_at(TimePoint now) noexcept {
    while (next_ < events_.size() && events_[next_].at <= now) {
      const auto& e = events_[next_++];
      switch (e.kind) {
        case Kind::press: state_.set(e.button, true); break;
        case Kind::release: state_.set(e.button, false); break;
        case Kind::axis: state_.axis(e.axis) = e.value; break;
      }
    }
    return state_;
  }
  // The gamepad as of the last state_at().
  [[nodiscard]] const GamepadState& state() const noexcept { return state_; }
  // Whether anything is scheduled at all.
  [[nodiscard]] bool empty() const noexcept { return events_.empty(); }

 private:
  enum class Kind : std::uint8_t { press, release, axis };
  struct Event {
    TimePoint at{};
    Kind kind{};
    GamepadButton button{};
    GamepadAxis axis{};
    float value = 0.0f;
  };
  void schedule(const Event& e) {
    // Stable by time, so events at one instant keep the order they were given in (a tap's press
    // before its release).
    const auto pos = std::upper_bound(events_.begin() + static_cast<std::ptrdiff_t>(next_), events_.end(), e.at,
                                      [](TimePoint t, const Event& x) { return t < x.at; });
    events_.insert(pos, e);
  }

  std::vector<Event> events_;
  std::size_t next_ = 0;
  GamepadState state_{};
};

}  // namespace praxis
