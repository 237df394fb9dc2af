// Producer/consumer table and DOT export.

#include <catch2/catch.hpp>

#include <string>

#include "praxis/graph.hpp"

namespace introspection_test {

namespace intro {

struct Imu : praxis::port<"imu", double> {};
struct Estimate : praxis::port<"estimate", double> {};
struct Command : praxis::port<"command", float> {};

struct ImuReader {
  static constexpr std::string_view name = "imu_reader";
  using outputs = praxis::ports<Imu>;
  void cycle(double& imu) { imu = 1.0; }
};
struct Estimator {
  using inputs = praxis::ports<Imu, praxis::previous<Command>>;
  using outputs = praxis::ports<Estimate>;
  void cycle(const double& imu, const float& cmd, double& est) { est = imu + cmd; }
};
struct Controller {
  using inputs = praxis::ports<Estimate, Imu>;
  using outputs = praxis::ports<Command>;
  void cycle(const double& est, const double& imu, float& cmd) {
    cmd = static_cast<float>(est - imu);
  }
};

}  // namespace intro

using IntroPipeline = praxis::Pipeline<intro::Controller, intro::Estimator, intro::ImuReader>;

TEST_CASE("describe lists nodes in execution order and ports by name with producer and readers",
          "[graph][introspection]") {
  const auto g = praxis::describe<IntroPipeline>();
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0] == "imu_reader");  // a node may name itself
  CHECK(g.nodes[1] == "Estimator");   // otherwise the type name, without namespaces
  CHECK(g.nodes[2] == "Controller");

  REQUIRE(g.ports.size() == 3);
  CHECK(g.ports[0].name == "command");
  CHECK(g.ports[0].type == "float");
  CHECK(g.ports[0].producer == 2u);
  CHECK(g.ports[0].readers.empty());
  CHECK(g.ports[0].previous_readers == std::vector<std::size_t>{1});
  CHECK(g.ports[2].name == "imu");
  CHECK(g.ports[2].producer == 0u);
  CHECK(g.ports[2].readers == std::vector<std::size_t>{1, 2});
}

TEST_CASE("the table names producer and readers of every port", "[graph][introspection]") {
  const auto table = praxis::to_table(praxis::describe<IntroPipeline>());
  CHECK_THAT(table, Catch::Contains("imu       double  imu_reader  Estimator, Controller"));
  CHECK_THAT(table, Catch::Contains("command   float   Controller  Estimator (previous)"));
}

TEST_CASE("DOT export has one edge per read, dashed for previous<>", "[graph][introspection]") {
  const auto dot = praxis::to_dot(praxis::describe<IntroPipeline>(), "intro");
  CHECK_THAT(dot, Catch::StartsWith("digraph \"intro\" {"));
  CHECK_THAT(dot, Catch::Contains("n0 [label=\"1. imu_reader\"];"));
  CHECK_THAT(dot, Catch::Contains("n0 -> n1 [label=\"imu\"];"));
  CHECK_THAT(dot, Catch::Contains("n0 -> n2 [label=\"imu\"];"));
  CHECK_THAT(dot, Catch::Contains("n1 -> n2 [label=\"estimate\"];"));
  CHECK_THAT(dot, Catch::Contains(
                      "n2 -> n1 [label=\"previous<command>\", style=dashed, constraint=false];"));
  CHECK_THAT(dot, Catch::EndsWith("}\n"));
}

TEST_CASE("names are available at compile time", "[graph][introspection]") {
  static_assert(IntroPipeline::node_names[0] == "imu_reader");
  static_assert(IntroPipeline::port_names[0] == "imu");  // in the order their producers run
  static_assert(IntroPipeline::port_names[2] == "command");
  static_assert(IntroPipeline::node_count == 3 && IntroPipeline::port_count == 3);
  SUCCEED("checked by static_assert");
}

}  // namespace introspection_test
