#pragma once
// The graph analysis: port identification, producer lookup and the topological sort, all as
// constexpr functions over std::arrays of indices. Type-level work is limited to one pack expansion
// that lists every port declaration; everything after that is plain O(N + E log N) value code,
// which keeps compile time and compiler memory low even for hundreds of nodes.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "praxis/graph/detail/in_order.hpp"
#include "praxis/graph/detail/indexed.hpp"
#include "praxis/graph/node.hpp"

namespace praxis::detail {

inline constexpr std::uint32_t k_none = 0xFFFFFFFFu;

struct PortDecl {
  std::string_view name;
  std::string_view type_name;  // the port's value type: ports of one name must agree on it
  // The port type that supplies default_value(), or empty. Declarations of one port must agree on
  // it, or the port's starting value would depend on which declaration is listed first.
  std::string_view default_from;
  std::uint32_t node = 0;
  std::uint32_t slot = 0;  // position within the node's inputs or outputs
  bool output = false;
  bool previous = false;
};

template <class N>
inline constexpr std::size_t input_count = inputs_of<N>::size;
template <class N>
inline constexpr std::size_t output_count = outputs_of<N>::size;
template <class N>
inline constexpr std::size_t decl_count = input_count<N> + output_count<N>;

template <class P>
constexpr PortDecl make_decl(std::uint32_t node, std::uint32_t slot, bool output) {
  using Base = typename unwrap_previous<P>::type;
  std::string_view default_from{};
  if constexpr (has_default_value<Base>) default_from = type_name_v<Base>;
  return PortDecl{std::string_view{Base::name}, type_name_v<typename Base::type>, default_from,
                  node, slot, output, is_previous<P>::value};
}

// One node's declarations, inputs then outputs; `node` is filled in by analyze(). A variable per
// node type, so that analyze() gathers them with a pack expansion instead of a fold over all nodes.
template <class... In, class... Out, std::size_t... I, std::size_t... O>
constexpr std::array<PortDecl, sizeof...(In) + sizeof...(Out)> make_node_decls(
    ports<In...>*, ports<Out...>*, std::index_sequence<I...>, std::index_sequence<O...>) {
  return {make_decl<In>(0, I, false)..., make_decl<Out>(0, O, true)...};
}
template <class N>
inline constexpr auto node_decls =
    make_node_decls(static_cast<inputs_of<N>*>(nullptr), static_cast<outputs_of<N>*>(nullptr),
                    std::make_index_sequence<input_count<N>>{},
                    std::make_index_sequence<output_count<N>>{});

enum class GraphError : std::uint8_t {
  none,
  node_listed_twice,
  port_type_conflict,
  port_default_conflict,
  two_producers,
  no_producer,
  cycle,
};

template <std::size_t N, std::size_t D>
struct Analysis {
  std::array<PortDecl, D> decls{};
  std::array<std::uint32_t, N + 1> decl_begin{};  // decls of node n: [decl_begin[n], decl_begin[n+1])
  std::array<std::uint32_t, D> port_of_decl{};
  std::size_t port_count = 0;
  std::array<std::uint32_t, D> port_repr{};      // first declaration of each port (first port_count)
  std::array<std::uint32_t, D> port_producer{};  // producing node or k_none
  std::array<bool, D> port_has_previous_reader{};
  std::array<std::uint32_t, N> order{};          // execution order: node indices
  std::array<std::uint32_t, N> position{};       // inverse of order

  GraphError error = GraphError::none;
  std::uint32_t error_a = 0;  // meaning depends on the error (node or declaration indices)
  std::uint32_t error_b = 0;
  std::array<std::uint32_t, N> cycle{};
  std::size_t cycle_length = 0;
};

// FNV-1a, 64 bit.
constexpr std::uint64_t name_hash(std::string_view name) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// Groups declarations by port name with an open-addressing hash table: O(D) steps. Sorting by
// name was tried first; clang counts every constexpr step (default budget 2^20) and a sort with
// string comparisons exhausted it at 256 nodes. Ports are numbered in order of first declaration
// here, and renumbered in execution order once the graph is sorted.
template <std::size_t N, std::size_t D>
constexpr void identify_ports(Analysis<N, D>& a) {
  constexpr std::size_t table_size = std::bit_ceil(2 * D + 1);
  std::array<std::uint32_t, table_size> table{};
  std::array<std::uint64_t, D> hash{};
  table.fill(k_none);
  for (std::uint32_t d = 0; d < D; ++d) {
    hash[d] = name_hash(a.decls[d].name);
    auto i = static_cast<std::size_t>(hash[d]) & (table_size - 1);
    while (table[i] != k_none) {
      const auto other = table[i];
      if (hash[other] == hash[d] && a.decls[other].name == a.decls[d].name) break;
      i = (i + 1) & (table_size - 1);
    }
    if (table[i] == k_none) {
      table[i] = d;
      a.port_repr[a.port_count] = d;
      a.port_producer[a.port_count] = k_none;
      a.port_of_decl[d] = static_cast<std::uint32_t>(a.port_count++);
    } else {
      a.port_of_decl[d] = a.port_of_decl[table[i]];
    }
  }
}

// Finds a node type listed twice: the first node whose type is not at a unique position of the pack
// (see unique_position in indexed.hpp), or k_none.
template <std::size_t N>
constexpr std::uint32_t find_repeated_node(const std::array<std::size_t, N>& unique_positions) {
  for (std::uint32_t n = 0; n < N; ++n) {
    if (unique_positions[n] != n) return n;
  }
  return k_none;
}

template <std::size_t N, std::size_t D>
constexpr void check_ports(Analysis<N, D>& a) {
  // Type conflicts first: any later error message would otherwise be confusing.
  for (std::uint32_t d = 0; d < D; ++d) {
    const auto repr = a.port_repr[a.port_of_decl[d]];
    // Type names tell the types apart; two distinct types that print alike (local classes of one
    // name) pass here and are stopped where the pipeline calls the node's cycle().
    if (a.decls[d].type_name != a.decls[repr].type_name) {
      a.error = GraphError::port_type_conflict;
      a.error_a = repr;
      a.error_b = d;
      return;
    }
  }
  for (std::uint32_t d = 0; d < D; ++d) {
    const auto repr = a.port_repr[a.port_of_decl[d]];
    if (a.decls[d].default_from != a.decls[repr].default_from) {
      a.error = GraphError::port_default_conflict;
      a.error_a = repr;
      a.error_b = d;
      return;
    }
  }
  for (std::uint32_t d = 0; d < D; ++d) {
    if (!a.decls[d].output) continue;
    auto& producer = a.port_producer[a.port_of_decl[d]];
    if (producer != k_none) {
      a.error = GraphError::two_producers;
      a.error_a = producer;
      a.error_b = d;
      return;
    }
    producer = a.decls[d].node;
  }
  for (std::uint32_t d = 0; d < D; ++d) {
    if (a.decls[d].output) continue;
    const auto port = a.port_of_decl[d];
    if (a.decls[d].previous) a.port_has_previous_reader[port] = true;
    if (a.port_producer[port] == k_none) {
      a.error = GraphError::no_producer;
      a.error_a = d;
      return;
    }
  }
}

// Kahn's algorithm; among the nodes that are ready, the one declared first runs first, so the order
// is deterministic and matches the user's listing wherever the data flow allows.
template <std::size_t N, std::size_t D>
constexpr void sort_nodes(Analysis<N, D>& a) {
  std::array<std::uint32_t, N + 1> out_begin{};
  std::array<std::uint32_t, N> in_degree{};
  std::array<std::uint32_t, D + 1> targets{};
  auto producer_of = [&](std::uint32_t d) { return a.port_producer[a.port_of_decl[d]]; };
  auto is_edge = [&](std::uint32_t d) { return !a.decls[d].output && !a.decls[d].previous; };

  for (std::uint32_t d = 0; d < D; ++d) {
    if (!is_edge(d)) continue;
    ++out_begin[producer_of(d) + 1];
    ++in_degree[a.decls[d].node];
  }
  for (std::size_t n = 0; n < N; ++n) out_begin[n + 1] += out_begin[n];
  std::array<std::uint32_t, N> fill{};
  for (std::uint32_t d = 0; d < D; ++d) {
    if (!is_edge(d)) continue;
    const auto u = producer_of(d);
    targets[out_begin[u] + fill[u]++] = a.decls[d].node;
  }

  std::array<std::uint32_t, N> heap{};
  std::size_t heap_size = 0;
  const auto later = [](std::uint32_t x, std::uint32_t y) { return x > y; };
  for (std::uint32_t n = 0; n < N; ++n) {
    if (in_degree[n] == 0) heap[heap_size++] = n;
  }
  std::make_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(heap_size), later);
  std::size_t emitted = 0;
  while (heap_size > 0) {
    std::pop_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(heap_size), later);
    const auto u = heap[--heap_size];
    a.position[u] = static_cast<std::uint32_t>(emitted);
    a.order[emitted++] = u;
    for (auto e = out_begin[u]; e < out_begin[u + 1]; ++e) {
      if (--in_degree[targets[e]] == 0) {
        heap[heap_size++] = targets[e];
        std::push_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(heap_size), later);
      }
    }
  }
  if (emitted == N) return;

  // Every node left over still has a predecessor that is left over, so walking predecessors from any
  // of them must come back to a node already visited: that loop is a cycle to report.
  std::array<std::uint32_t, N> step{};  // 0 = not visited, else 1 + index in walk
  std::array<std::uint32_t, N> walk{};
  std::uint32_t v = 0;
  while (in_degree[v] == 0) ++v;
  std::size_t length = 0;
  while (step[v] == 0) {
    step[v] = static_cast<std::uint32_t>(++length);
    walk[length - 1] = v;
    for (auto d = a.decl_begin[v]; d < a.decl_begin[v + 1]; ++d) {
      if (is_edge(d) && in_degree[producer_of(d)] != 0) {
        v = producer_of(d);
        break;
      }
    }
  }
  // walk[step[v]-1 .. length) is the loop, following edges backwards; report it forwards, starting
  // at the node declared first.
  const std::size_t first = step[v] - 1;
  a.cycle_length = length - first;
  for (std::size_t k = 0; k < a.cycle_length; ++k) a.cycle[k] = walk[length - 1 - k];
  std::rotate(a.cycle.begin(),
              std::min_element(a.cycle.begin(),
                               a.cycle.begin() + static_cast<std::ptrdiff_t>(a.cycle_length)),
              a.cycle.begin() + static_cast<std::ptrdiff_t>(a.cycle_length));
  a.error = GraphError::cycle;
}

// Renumbers ports in the order their producers run (each node's outputs in declaration order), so
// port storage is laid out the way a cycle writes it, as hand-written code would lay it out.
template <std::size_t N, std::size_t D>
constexpr void number_ports_by_execution(Analysis<N, D>& a) {
  std::array<std::uint32_t, D> new_id{};
  std::uint32_t next = 0;
  for (std::size_t k = 0; k < N; ++k) {
    const auto n = a.order[k];
    for (auto d = a.decl_begin[n]; d < a.decl_begin[n + 1]; ++d) {
      if (a.decls[d].output) new_id[a.port_of_decl[d]] = next++;
    }
  }
  // Every port has a producer here (the graph is valid), so next == port_count.
  const auto repr = a.port_repr;
  const auto producer = a.port_producer;
  const auto has_previous = a.port_has_previous_reader;
  for (std::size_t p = 0; p < a.port_count; ++p) {
    a.port_repr[new_id[p]] = repr[p];
    a.port_producer[new_id[p]] = producer[p];
    a.port_has_previous_reader[new_id[p]] = has_previous[p];
  }
  for (std::size_t d = 0; d < D; ++d) a.port_of_decl[d] = new_id[a.port_of_decl[d]];
}

template <class... Nodes>
constexpr auto analyze() {
  constexpr std::size_t N = sizeof...(Nodes);
  constexpr std::array<std::size_t, N> counts{decl_count<Nodes>...};
  constexpr std::size_t D = sum_of(counts);
  Analysis<N, D> a{};

  {
    const std::array<const PortDecl*, N> decls_of_node{node_decls<Nodes>.data()...};
    std::uint32_t d = 0;
    for (std::uint32_t n = 0; n < N; ++n) {
      a.decl_begin[n] = d;
      for (std::size_t k = 0; k < counts[n]; ++k) {
        a.decls[d] = decls_of_node[n][k];
        a.decls[d++].node = n;
      }
    }
    a.decl_begin[N] = static_cast<std::uint32_t>(D);
  }
  for (std::uint32_t n = 0; n < N; ++n) a.order[n] = a.position[n] = n;

  using NodeIndex = type_pack_index<std::index_sequence_for<Nodes...>, Nodes...>;
  constexpr std::array<std::size_t, N> unique_positions{
      unique_position<Nodes>(static_cast<const NodeIndex*>(nullptr))...};
  if (const auto repeated = find_repeated_node(unique_positions); repeated != k_none) {
    a.error = GraphError::node_listed_twice;
    a.error_a = repeated;
    return a;
  }

  identify_ports(a);
  check_ports(a);
  if (a.error != GraphError::none) return a;
  sort_nodes(a);
  if (a.error != GraphError::none) {
    for (std::uint32_t n = 0; n < N; ++n) a.order[n] = a.position[n] = n;
    return a;
  }
  number_ports_by_execution(a);
  return a;
}

}  // namespace praxis::detail
