#pragma once
// CommandTimeline: a trained policy's velocity command over time, for a run without a person
// (praxis_demo --command, a test, an unattended experiment).
//
//   auto timeline = praxis::policy::CommandTimeline::parse("0.5,0,0@2-12;0,0,0.3@12-16");
//   policy.set_command_timeline(timeline);   // OnnxPolicy: in place of the deploy file's source
//
// The text: items separated by ';', each VX,VY,WZ[@START[-END]] — vx forward and vy to the left in
// m/s, wz counter-clockwise (to the left) in rad/s, the velocity_command term's order and signs:
//
//   0.3,0,0             0.3 m/s forward from 0 s to the end
//   0.5,0,0@2-12        0.5 m/s forward from 2 s to 12 s
//   0,0,0.3@12          turning left at 0.3 rad/s from 12 s to the end
//
// Times are plain decimal seconds from 0 to 10^6, counted from when the policy took control
// (OnnxPolicy: its last reset, so each time CTRL is entered the timeline starts again); outside
// every item the command is zero: stand still. Items may not overlap, and an item lasts some time.
// Values are any finite numbers: the policy limits them to its deploy file's "max".
//
// A bad text throws std::invalid_argument "<option>: \"<item>\": ..." quoting the item. at()
// neither allocates nor throws: it runs in the control cycle.

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "praxis/core/detail/timed_text.hpp"

namespace praxis::policy {

// One item: `command` (vx, vy, wz) over [from, until) seconds.
struct CommandSegment {
  std::string text;  // as written, for messages
  double from = 0.0;
  double until = std::numeric_limits<double>::infinity();  // infinite: to the end
  std::array<double, 3> command{};
};

class CommandTimeline {
 public:
  // No timeline: empty(), and at() is zero everywhere.
  CommandTimeline() = default;

  // The timeline of `text` (see the top of this file); `option` begins every message.
  [[nodiscard]] static CommandTimeline parse(std::string_view text, std::string_view option = "--command") {
    if (text.empty()) {
      throw std::invalid_argument(std::string(option) + ": no command given: expected VX,VY,WZ[@START[-END]], items "
                                                        "separated by ';'");
    }
    CommandTimeline t;
    for (const auto item : praxis::detail::split_items(text, ';')) t.segments_.push_back(segment(option, item));
    for (std::size_t i = 0; i < t.segments_.size(); ++i) {
      for (std::size_t k = 0; k < i; ++k) {
        const auto& a = t.segments_[k];
        const auto& b = t.segments_[i];
        if (a.from < b.until && b.from < a.until) {
          praxis::detail::refuse_item(option, b.text, "overlaps \"" + a.text + "\"");
        }
      }
    }
    std::stable_sort(t.segments_.begin(), t.segments_.end(),
                     [](const CommandSegment& a, const CommandSegment& b) { return a.from < b.from; });
    return t;
  }

  [[nodiscard]] bool empty() const noexcept { return segments_.empty(); }

  // vx, vy (m/s), wz (rad/s) at `seconds` since the policy took control; zero outside every item.
  [[nodiscard]] std::array<double, 3> at(double seconds) const noexcept {
    // The last item starting at or before `seconds` (items do not overlap and none is empty).
    auto it = std::upper_bound(segments_.begin(), segments_.end(), seconds,
                               [](double t, const CommandSegment& s) { return t < s.from; });
    if (it == segments_.begin()) return {};
    --it;
    return seconds < it->until ? it->command : std::array<double, 3>{};
  }

  // The items, by start time.
  [[nodiscard]] std::span<const CommandSegment> segments() const noexcept { return segments_; }

 private:
  static CommandSegment segment(std::string_view option, std::string_view text) {
    static constexpr std::string_view k_form = "VX,VY,WZ[@START[-END]] (m/s, m/s, rad/s; seconds)";
    CommandSegment s;
    s.text = std::string(text);
    const auto at = text.find('@');
    const auto values = praxis::detail::split_items(text.substr(0, at), ',');
    if (values.size() != 3) praxis::detail::refuse_item(option, text, "expected " + std::string(k_form));
    static constexpr std::array<std::string_view, 3> k_names{"vx", "vy", "wz"};
    for (std::size_t i = 0; i < 3; ++i) {
      const auto v = praxis::detail::whole_number(values[i]);
      if (!v) {
        praxis::detail::refuse_item(option, text,
                                    "the " + std::string(k_names[i]) + " value \"" + std::string(values[i]) +
                                        "\" is not a finite number");
      }
      s.command[i] = *v;
    }
    if (at == std::string_view::npos) return s;
    const auto w = praxis::detail::time_window(option, text, text.substr(at + 1), "start", "end");
    s.from = w.from;
    if (w.until) {
      if (*w.until == w.from) {
        praxis::detail::refuse_item(option, text, "the end time is the start time: the item lasts no time");
      }
      s.until = *w.until;
    }
    return s;
  }

  std::vector<CommandSegment> segments_;  // by start time, none overlapping, none empty
};

}  // namespace praxis::policy
