#pragma once
// Doing something once per node or per port without a fold expression. Clang 14 nests a fold one
// level per element and refuses more than 256 levels (its -fbracket-depth), so a fold over the
// nodes or ports of a pipeline caps graphs at 256 of them. The elements of a braced list have no
// such limit and are evaluated in order, left to right.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace praxis::detail {

// Calls f(std::integral_constant<std::size_t, I>{}) for every I of the sequence, in order.
template <std::size_t... I, class F>
constexpr void for_each_index(std::index_sequence<I...>, F&& f) {
  // The leading 0 keeps the array non-empty for an empty sequence.
  [[maybe_unused]] const int in_order[] = {
      0, (static_cast<void>(f(std::integral_constant<std::size_t, I>{})), 0)...};
}

template <std::size_t N>
constexpr bool all_of(const std::array<bool, N>& values) {
  for (const bool v : values) {
    if (!v) return false;
  }
  return true;
}

template <std::size_t N>
constexpr std::size_t sum_of(const std::array<std::size_t, N>& values) {
  std::size_t total = 0;
  for (const auto v : values) total += v;
  return total;
}

}  // namespace praxis::detail
