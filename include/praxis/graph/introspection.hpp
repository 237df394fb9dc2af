#pragma once
// Introspection of a pipeline without running it: the sorted nodes, every port with its producer
// and readers, a plain-text table and a Graphviz DOT export.
//
//   auto g = praxis::describe<MyPipeline>();
//   std::cout << praxis::to_dot(g);   // dot -Tsvg > graph.svg

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace praxis {

struct GraphDescription {
  struct PortRow {
    std::string_view name;
    std::string_view type;
    std::optional<std::size_t> producer;        // execution position of the writing node
    std::vector<std::size_t> readers;           // nodes reading this cycle's value
    std::vector<std::size_t> previous_readers;  // nodes reading previous<port>
  };
  std::vector<std::string_view> nodes;  // in execution order
  std::vector<PortRow> ports;           // sorted by name
};

// Graphviz digraph: one box per node (numbered by execution order), one edge per port read; edges
// of previous<> reads are dashed since they carry last cycle's value and impose no order.
[[nodiscard]] std::string to_dot(const GraphDescription& graph, std::string_view title = "praxis");

// "port | type | producer | readers" as aligned text.
[[nodiscard]] std::string to_table(const GraphDescription& graph);

template <class Pipeline>
[[nodiscard]] GraphDescription describe() {
  constexpr const auto& a = Pipeline::graph();
  GraphDescription g;
  g.nodes.assign(Pipeline::node_names.begin(), Pipeline::node_names.end());
  g.ports.resize(a.port_count);
  for (std::size_t p = 0; p < a.port_count; ++p) {
    const auto& repr = a.decls[a.port_repr[p]];
    g.ports[p].name = repr.name;
    g.ports[p].type = repr.type_name;
  }
  for (const auto& d : a.decls) {
    auto& row = g.ports[a.port_of_decl[&d - a.decls.data()]];
    const std::size_t position = a.position[d.node];
    if (d.output) {
      row.producer = position;
    } else if (d.previous) {
      row.previous_readers.push_back(position);
    } else {
      row.readers.push_back(position);
    }
  }
  for (auto& row : g.ports) {
    std::sort(row.readers.begin(), row.readers.end());
    std::sort(row.previous_readers.begin(), row.previous_readers.end());
  }
  std::sort(g.ports.begin(), g.ports.end(),
            [](const auto& x, const auto& y) { return x.name < y.name; });
  return g;
}

}  // namespace praxis
