#pragma once
// Doing something once per node or per port, in order, without a fold expression and without a
// helper function per element.
//
// No fold: clang 14 nests a fold one level per element and refuses more than 256 levels (its
// -fbracket-depth), which capped graphs at 256 nodes or ports. The elements of a braced list have no
// such limit and are evaluated left to right:
//
//   detail::in_order{0, (do_something<I>(), 0)...};
//
// No helper per element (a generic lambda, or a member function template of the pipeline): each
// would be a function whose mangled name spells out every node of the pipeline, and g++ spends time
// quadratic in the node count mangling each such name, so 512 nodes took over 4 times as long as 256.
// The functions called per element are free templates whose names carry only the port or node
// concerned.

#include <array>
#include <cstddef>
#include <initializer_list>

namespace praxis::detail {

struct in_order {
  // The leading element keeps the list non-empty when a pipeline has no port of some kind.
  constexpr in_order(std::initializer_list<int>) {}
};

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
