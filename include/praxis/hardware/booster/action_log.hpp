#pragma once
// ActionLog: the diagnostics of the Booster call schedule — which call was scheduled when, how many
// of each kind were in flight, and how each ended. It is what one reads to debug a transition
// ("the mode change was scheduled, but did it finish before the first move?").
//
// Every scheduled call gets a global sequence number (1, 2, 3, ...) and raises its action's
// in-flight count; its completion lowers it again. Both produce a structured entry, formatted as
// one JSON line with the field names of HULKs' "booster rpc scheduled" / "booster rpc completed"
// logs, and handed to an optional writer.
//
// It also counts, per action, what became of the calls: scheduled, sent (went out at least once),
// answered (the robot answered: with success or a refusal), ok, refused, timed out (sent, no answer
// in time, or never sent before its deadline), dropped (never sent), and retries. A rate of calls
// "made" is the rate of calls answered ok, not of calls scheduled: on a slow robot most of the
// scheduled periodic calls are replaced by newer ones before they are sent.
//
// Thread-safe: the planner's worker schedules, executor threads complete. A mutex guards it (none
// of this runs on the control thread). The writer is called under that mutex, so lines come out in
// the order the events happened; it should only queue the line (e.g. an asynchronous logger).

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "praxis/core/clock.hpp"
#include "praxis/hardware/booster/interface.hpp"

namespace praxis::booster {

struct Scheduled {
  std::uint64_t sequence = 0;
  Action action = Action::change_mode;
  std::uint32_t in_flight = 0;  // of this action, including this call
  PlannedAction what;
};

struct Completed {
  // dropped is praxis' own: a periodic call replaced by a newer one before it was performed, or a
  // call that never ran because the executor stopped or its queue was full.
  enum Status : std::uint8_t { ok, error, timeout, dropped };
  std::uint64_t sequence = 0;
  Action action = Action::change_mode;
  Status status = ok;
  double elapsed_ms = 0.0;                 // from scheduling to completion
  std::uint32_t in_flight_at_start = 0;    // the call's Scheduled::in_flight
  std::uint32_t remaining_in_flight = 0;   // of this action, after this one
  std::int32_t code = 0;                   // the robot's status code (api.hpp status::), when it answered
  std::uint32_t attempts = 1;              // how often it was tried (retries: attempts - 1)
  bool sent = true;                        // at least one attempt went out
  bool answered = true;                    // the robot answered (with success or a refusal)
};

// What became of one action's calls, counted since the log was made.
struct ActionCounts {
  std::uint64_t scheduled = 0;
  std::uint64_t sent = 0;       // went out at least once
  std::uint64_t answered = 0;   // the robot answered the last attempt (ok or refused)
  std::uint64_t ok = 0;
  std::uint64_t refused = 0;    // answered with a non-zero status
  std::uint64_t timed_out = 0;  // no answer in time, or still queued at a periodic call's deadline
  std::uint64_t dropped = 0;    // never sent: replaced, superseded, or the executor stopped
  std::uint64_t failed = 0;     // an error without an answer (e.g. the kick stream not written)
  std::uint64_t retries = 0;    // attempts after the first
};

[[nodiscard]] constexpr std::string_view to_string(Completed::Status s) {
  constexpr std::array<std::string_view, 4> names{"ok", "error", "timeout", "dropped"};
  return names[static_cast<std::size_t>(s)];
}

namespace detail {

class JsonLine {
 public:
  explicit JsonLine(std::string_view event) {
    line_ = "{\"event\":\"";
    line_ += event;
    line_ += '"';
  }
  JsonLine& text(std::string_view key, std::string_view value) {
    this->key(key);
    line_ += '"';
    line_ += value;  // only names praxis itself chose: nothing to escape
    line_ += '"';
    return *this;
  }
  // Text from elsewhere (an error message): quotes, backslashes and control characters escaped.
  JsonLine& escaped(std::string_view key, std::string_view value) {
    this->key(key);
    line_ += '"';
    for (const char ch : value) {
      if (ch == '"' || ch == '\\') line_ += '\\';
      line_ += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
    }
    line_ += '"';
    return *this;
  }
  JsonLine& integer(std::string_view key, long long value) {
    this->key(key);
    line_ += std::to_string(value);
    return *this;
  }
  JsonLine& boolean(std::string_view key, bool value) {
    this->key(key);
    line_ += value ? "true" : "false";
    return *this;
  }
  JsonLine& number(std::string_view key, double value) {
    this->key(key);
    if (!std::isfinite(value)) {
      line_ += "null";  // JSON has no NaN; null keeps the line parseable and the fact visible
      return *this;
    }
    std::array<char, 32> buffer{};
    const int n = std::snprintf(buffer.data(), buffer.size(), "%.9g", value);
    line_.append(buffer.data(), static_cast<std::size_t>(n));
    return *this;
  }
  [[nodiscard]] std::string finish() && {
    line_ += '}';
    return std::move(line_);
  }

 private:
  void key(std::string_view k) {
    line_ += ",\"";
    line_ += k;
    line_ += "\":";
  }
  std::string line_;
};

}  // namespace detail

// {"event":"booster rpc scheduled","sequence":1,"action":"change_mode","in_flight":1,"mode":"Soccer"}
[[nodiscard]] inline std::string to_json_line(const Scheduled& s) {
  detail::JsonLine j("booster rpc scheduled");
  j.integer("sequence", static_cast<long long>(s.sequence)).text("action", to_string(s.action)).integer("in_flight", s.in_flight);
  const PlannedAction& w = s.what;
  switch (s.action) {
    case Action::change_mode: j.text("mode", to_string(w.mode)); break;
    case Action::get_up: j.integer("version", w.version); break;
    case Action::move_robot: j.number("forward", w.forward).number("left", w.left).number("turn", w.turn); break;
    case Action::rotate_head: j.number("pitch", w.pitch).number("yaw", w.yaw); break;
    case Action::kick_publish:
      j.number("x", w.kick.x).number("y", w.kick.y).number("dir", w.kick.dir).number("goal_x", w.kick.goal_x);
      j.number("goal_y", w.kick.goal_y).number("robot_theta_to_field", w.kick.robot_theta_to_field).number("power", w.kick.power);
      break;
    case Action::visual_kick: j.boolean("enabled", w.enabled).integer("version", w.version); break;
    case Action::set_leds: j.integer("r", w.leds.r).integer("g", w.leds.g).integer("b", w.leds.b); break;
    case Action::stop_leds: break;
  }
  return std::move(j).finish();
}

// {"event":"booster rpc completed","sequence":1,"action":"change_mode","status":"ok","elapsed_ms":3.5,...}
[[nodiscard]] inline std::string to_json_line(const Completed& c) {
  detail::JsonLine j("booster rpc completed");
  j.integer("sequence", static_cast<long long>(c.sequence)).text("action", to_string(c.action)).text("status", to_string(c.status));
  j.number("elapsed_ms", c.elapsed_ms).integer("in_flight_at_start", c.in_flight_at_start);
  j.integer("remaining_in_flight", c.remaining_in_flight).integer("code", c.code);
  j.integer("attempts", c.attempts).boolean("sent", c.sent).boolean("answered", c.answered);
  return std::move(j).finish();
}

// {"event":"booster rpc retry","sequence":1,"action":"change_mode","attempt":2,"after_code":502,...}
[[nodiscard]] inline std::string retry_json_line(const Scheduled& s, std::uint32_t attempt, std::int32_t code,
                                                 std::string_view why, Duration backoff) {
  detail::JsonLine j("booster rpc retry");
  j.integer("sequence", static_cast<long long>(s.sequence)).text("action", to_string(s.action));
  if (s.action == Action::change_mode) j.text("mode", to_string(s.what.mode));
  j.integer("attempt", attempt).integer("after_code", code).escaped("after", why);
  j.number("backoff_ms", std::chrono::duration<double, std::milli>(backoff).count());
  return std::move(j).finish();
}

// {"event":"booster input state changed","motion":"walk","desired_mode":"Soccer",...}
[[nodiscard]] inline std::string to_json_line(const InputState& s) {
  detail::JsonLine j("booster input state changed");
  j.text("motion", to_string(s.motion)).text("desired_mode", to_string(s.desired_mode));
  j.text("assumed_mode", to_string(s.assumed_mode)).boolean("visual_kick_active", s.visual_kick_active);
  j.boolean("head_present", s.head_present);
  return std::move(j).finish();
}

class ActionLog {
 public:
  using Writer = std::function<void(const std::string& line)>;

  ActionLog() = default;
  explicit ActionLog(Writer writer) : writer_(std::move(writer)) {}
  ActionLog(const ActionLog&) = delete;
  ActionLog& operator=(const ActionLog&) = delete;

  Scheduled schedule(const PlannedAction& what) {
    const std::lock_guard lock(mutex_);
    Scheduled s{++sequence_, what.action, ++in_flight_[index(what.action)], what};
    ++counts_[index(what.action)].scheduled;
    if (writer_) writer_(to_json_line(s));
    return s;
  }

  // `attempts`, `sent` and `answered` as in Completed; the defaults describe a call made once that
  // the robot answered (or, with a failed status, one that failed without an answer).
  Completed complete(const Scheduled& call, Completed::Status status, Duration elapsed, std::int32_t code,
                     std::uint32_t attempts = 1, bool sent = true, bool answered = true) {
    const std::lock_guard lock(mutex_);
    auto& count = in_flight_[index(call.action)];
    if (count > 0) --count;  // a completion reported twice must not wrap the count around
    if (status == Completed::dropped || status == Completed::timeout) answered = false;
    if (status == Completed::dropped) sent = false;
    const Completed c{call.sequence, call.action, status, std::chrono::duration<double, std::milli>(elapsed).count(),
                      call.in_flight, count, code, attempts, sent, answered};
    auto& n = counts_[index(call.action)];
    n.sent += sent ? 1 : 0;
    n.answered += answered ? 1 : 0;
    n.ok += status == Completed::ok ? 1 : 0;
    n.refused += status == Completed::error && answered ? 1 : 0;
    n.failed += status == Completed::error && !answered ? 1 : 0;
    n.timed_out += status == Completed::timeout ? 1 : 0;
    n.dropped += status == Completed::dropped ? 1 : 0;
    if (writer_) writer_(to_json_line(c));
    return c;
  }

  // A failed attempt of `call` is tried again: `attempt` is the number of the next one.
  void retry(const Scheduled& call, std::uint32_t attempt, std::int32_t code, std::string_view why, Duration backoff) {
    const std::lock_guard lock(mutex_);
    ++counts_[index(call.action)].retries;
    if (writer_) writer_(retry_json_line(call, attempt, code, why, backoff));
  }

  [[nodiscard]] ActionCounts counts(Action a) const {
    const std::lock_guard lock(mutex_);
    return counts_[index(a)];
  }

  [[nodiscard]] std::uint32_t in_flight(Action a) const {
    const std::lock_guard lock(mutex_);
    return in_flight_[index(a)];
  }
  [[nodiscard]] std::uint32_t total_in_flight() const {
    const std::lock_guard lock(mutex_);
    std::uint32_t n = 0;
    for (const auto c : in_flight_) n += c;
    return n;
  }
  [[nodiscard]] std::uint64_t last_sequence() const {
    const std::lock_guard lock(mutex_);
    return sequence_;
  }

 private:
  static std::size_t index(Action a) { return static_cast<std::size_t>(a); }

  mutable std::mutex mutex_;
  Writer writer_;
  std::uint64_t sequence_ = 0;
  std::array<std::uint32_t, k_actions> in_flight_{};
  std::array<ActionCounts, k_actions> counts_{};
};

}  // namespace praxis::booster
