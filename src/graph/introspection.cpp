#include "praxis/graph/introspection.hpp"

#include <algorithm>
#include <sstream>

namespace praxis {

namespace {

// DOT identifiers and labels are quoted; a name with a quote or backslash must not break the file.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string join_nodes(const GraphDescription& g, const std::vector<std::size_t>& positions) {
  std::string out;
  for (const auto p : positions) {
    if (!out.empty()) out += ", ";
    out += g.nodes[p];
  }
  return out;
}

}  // namespace

std::string to_dot(const GraphDescription& graph, std::string_view title) {
  std::ostringstream dot;
  dot << "digraph " << quoted(title) << " {\n";
  dot << "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
    dot << "  n" << n << " [label=" << quoted(std::to_string(n + 1) + ". " + std::string(graph.nodes[n]))
        << "];\n";
  }
  for (const auto& port : graph.ports) {
    if (!port.producer) continue;
    for (const auto reader : port.readers) {
      dot << "  n" << *port.producer << " -> n" << reader << " [label=" << quoted(port.name)
          << "];\n";
    }
    for (const auto reader : port.previous_readers) {
      dot << "  n" << *port.producer << " -> n" << reader
          << " [label=" << quoted(std::string("previous<") + std::string(port.name) + ">")
          << ", style=dashed, constraint=false];\n";
    }
  }
  dot << "}\n";
  return dot.str();
}

std::string to_table(const GraphDescription& graph) {
  struct Row {
    std::string port, type, producer, readers;
  };
  std::vector<Row> rows;
  rows.push_back({"port", "type", "producer", "readers"});
  for (const auto& p : graph.ports) {
    std::string readers = join_nodes(graph, p.readers);
    for (const auto r : p.previous_readers) {
      if (!readers.empty()) readers += ", ";
      readers += std::string(graph.nodes[r]) + " (previous)";
    }
    rows.push_back({std::string(p.name), std::string(p.type),
                    p.producer ? std::string(graph.nodes[*p.producer]) : std::string("-"),
                    readers.empty() ? std::string("-") : readers});
  }
  std::size_t w0 = 0, w1 = 0, w2 = 0;
  for (const auto& r : rows) {
    w0 = std::max(w0, r.port.size());
    w1 = std::max(w1, r.type.size());
    w2 = std::max(w2, r.producer.size());
  }
  std::ostringstream out;
  for (const auto& r : rows) {
    out << r.port << std::string(w0 - r.port.size() + 2, ' ') << r.type
        << std::string(w1 - r.type.size() + 2, ' ') << r.producer
        << std::string(w2 - r.producer.size() + 2, ' ') << r.readers << '\n';
  }
  return out.str();
}

}  // namespace praxis
