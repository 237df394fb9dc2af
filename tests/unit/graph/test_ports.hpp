#pragma once
// Ports and nodes shared by the graph tests.

#include <array>
#include <cstddef>
#include <string_view>

#include "praxis/graph.hpp"

namespace graph_test {

// Ports named "w0", "w1", ... generated at compile time, for large generated graphs.
inline constexpr std::size_t k_max_wires = 128;
inline constexpr auto k_wire_names = [] {
  std::array<std::array<char, 8>, k_max_wires> names{};
  for (std::size_t i = 0; i < k_max_wires; ++i) {
    auto& n = names[i];
    std::size_t k = 0;
    n[k++] = 'w';
    if (i >= 100) n[k++] = static_cast<char>('0' + i / 100);
    if (i >= 10) n[k++] = static_cast<char>('0' + (i / 10) % 10);
    n[k++] = static_cast<char>('0' + i % 10);
  }
  return names;
}();

template <std::size_t I>
struct Wire {
  using type = long;
  static constexpr std::string_view name{k_wire_names[I].data()};
};

}  // namespace graph_test
