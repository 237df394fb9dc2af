#pragma once
// A string usable as a template argument, so a port's name is part of its type and shows up in
// compiler diagnostics and in the graph's introspection without any runtime registry.

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace praxis {

template <std::size_t N>
struct fixed_string {
  char data[N]{};

  // Implicit on purpose: lets users write port<"imu", Imu> with a plain literal.
  constexpr fixed_string(const char (&text)[N]) { std::copy_n(text, N, data); }  // NOLINT

  [[nodiscard]] constexpr std::string_view view() const { return {data, N - 1}; }
  [[nodiscard]] static constexpr std::size_t size() { return N - 1; }
};

}  // namespace praxis
