#pragma once
// The text of praxis' timed command-line scripts (the gamepad script, a policy's command timeline):
// items split on one separator, numbers and times read whole with std::from_chars, and one wording
// for what is refused: every message starts with the option's name and quotes the item.
//
// std::stod took "1.5x" as 1.5, threw a bare "stod" on "x" and std::out_of_range on "1e999"; a time
// that is not plain seconds in range (1e300, inf, nan) must be refused here rather than overflow
// the clock's nanoseconds into a nonsense time point.

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace praxis::detail {

// About eleven days: longer than any scripted run, far inside the clock's range.
inline constexpr double k_script_max_seconds = 1e6;

// "<option>: \"<item>\": <what>"
[[noreturn]] inline void refuse_item(std::string_view option, std::string_view item, const std::string& what) {
  throw std::invalid_argument(std::string(option) + ": \"" + std::string(item) + "\": " + what);
}

// `text` split at every `separator`; "" gives no part, "a," gives "a" and "".
[[nodiscard]] inline std::vector<std::string_view> split_items(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  if (text.empty()) return parts;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// The whole of `text` as a finite number (decimal or exponent form), or nothing.
[[nodiscard]] inline std::optional<double> whole_number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The whole of `text` as plain decimal seconds from 0 to k_script_max_seconds.
[[nodiscard]] inline double whole_seconds(std::string_view option, std::string_view item, std::string_view text,
                                          std::string_view which) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  if (text.empty() || error != std::errc() || stop != end || !(value >= 0.0 && value <= k_script_max_seconds)) {
    refuse_item(option, item,
                "the " + std::string(which) + " time \"" + std::string(text) +
                    "\" is not a number of seconds from 0 to " + std::to_string(static_cast<long>(k_script_max_seconds)));
  }
  return value;
}

// A time window "FROM[-UNTIL]" in seconds; no UNTIL: `until` is empty (the caller's default).
struct TimeWindow {
  double from = 0.0;
  std::optional<double> until;
};

// `first` and `second` name the two times in messages ("press" / "release", "start" / "end").
[[nodiscard]] inline TimeWindow time_window(std::string_view option, std::string_view item, std::string_view text,
                                            std::string_view first, std::string_view second) {
  const auto dash = text.find('-');
  TimeWindow w;
  w.from = whole_seconds(option, item, text.substr(0, dash), first);
  if (dash == std::string_view::npos) return w;
  w.until = whole_seconds(option, item, text.substr(dash + 1), second);
  if (*w.until < w.from) {
    refuse_item(option, item, "the " + std::string(second) + " time comes before the " + std::string(first) + " time");
  }
  return w;
}

}  // namespace praxis::detail
