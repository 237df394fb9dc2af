// Nodes (graph/node.hpp): the lists a node reads and writes, its printed name, and the Node concept
// that decides which structs a pipeline accepts.

#include <catch2/catch.hpp>

#include <string_view>
#include <tuple>
#include <type_traits>

#include "praxis/graph/node.hpp"

namespace {
namespace node_test {

struct Velocity : praxis::port<"velocity", double> {};
struct Position : praxis::port<"position", double> {};
struct Count : praxis::port<"count", int> {};

// Positional, with both lists and previous<> feedback.
struct Integrator {
  using inputs = praxis::ports<Velocity, praxis::previous<Position>>;
  using outputs = praxis::ports<Position>;
  void cycle(const double& velocity, const double& last, double& position) {
    position = last + 0.5 * velocity;
  }
};
// Lists may be omitted when empty.
struct Source {
  using outputs = praxis::ports<Velocity>;
  void cycle(double& velocity) { velocity = 1.0; }
};
struct Sink {
  using inputs = praxis::ports<Position>;
  double seen = 0;
  void cycle(const double& position) { seen = position; }
};
// Named views and no declared lists: the views' lists are the node's.
struct NamedIntegrator {
  static constexpr std::string_view name = "integrator";
  void cycle(praxis::in<Velocity, praxis::previous<Position>> in, praxis::out<Position> out) {
    out.get<Position>() = in.get<praxis::previous<Position>>() + in.get<Velocity>();
  }
};
struct NamedSource {
  void cycle(praxis::out<Count, Velocity> out) { out.get<Count>() = 1; }
};
struct NamedSink {
  void cycle(praxis::in<Count> in) const { (void)in; }
};
// Named views with declared lists that agree.
struct NamedDeclared {
  using inputs = praxis::ports<Velocity>;
  using outputs = praxis::ports<Position>;
  void cycle(praxis::in<Velocity> in, praxis::out<Position> out) { out.get<Position>() = in.get<Velocity>(); }
};
template <int I>
struct Numbered {
  using outputs = praxis::ports<Count>;
  void cycle(int& count) { count = I; }
};

// ---- structs a pipeline must refuse ----

// Arguments in the wrong order (output first).
struct OutputFirst {
  using inputs = praxis::ports<Count>;
  using outputs = praxis::ports<Velocity>;
  void cycle(double& velocity, const int& count) { velocity = count; }
};
// An input taken by mutable reference: inputs are const.
struct WritesItsInput {
  using inputs = praxis::ports<Velocity>;
  using outputs = praxis::ports<Position>;
  void cycle(double& velocity, double& position) { position = velocity; }
};
// An output missing from cycle().
struct MissingOutput {
  using inputs = praxis::ports<Velocity>;
  using outputs = praxis::ports<Position>;
  void cycle(const double& velocity) { (void)velocity; }
};
struct NoCycle {
  using outputs = praxis::ports<Velocity>;
};
// previous<> is only allowed in inputs.
struct PreviousOutput {
  using outputs = praxis::ports<praxis::previous<Position>>;
  void cycle(double& position) { position = 0; }
};
// Something that is not a port in the inputs.
struct IntInput {
  using inputs = praxis::ports<int>;
  void cycle(const int&) {}
};
// Lists that are not praxis::ports<...>.
struct TupleInputs {
  using inputs = std::tuple<Velocity>;
  void cycle(const double&) {}
};
// Views that list other ports than the declared lists.
struct NamedDisagrees {
  using inputs = praxis::ports<Count>;
  using outputs = praxis::ports<Position>;
  void cycle(praxis::in<Velocity> in, praxis::out<Position> out) { out.get<Position>() = in.get<Velocity>(); }
};
// Same ports as declared, in another order.
struct NamedOtherOrder {
  using inputs = praxis::ports<Velocity, Count>;
  void cycle(praxis::in<Count, Velocity> in) { (void)in; }
};

TEST_CASE("inputs_of and outputs_of are the declared lists or empty", "[graph][node]") {
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<Integrator>,
                                praxis::ports<Velocity, praxis::previous<Position>>>);
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<Integrator>, praxis::ports<Position>>);
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<Source>, praxis::ports<>>);
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<Sink>, praxis::ports<>>);
  // Not a port list, but what was declared: the concept, not this alias, refuses it.
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<TupleInputs>, std::tuple<Velocity>>);
}

TEST_CASE("a node without declared lists takes its ports from its in and out views", "[graph][node]") {
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<NamedIntegrator>,
                                praxis::ports<Velocity, praxis::previous<Position>>>);
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<NamedIntegrator>, praxis::ports<Position>>);
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<NamedSource>, praxis::ports<>>);
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<NamedSource>, praxis::ports<Count, Velocity>>);
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<NamedSink>, praxis::ports<Count>>);
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<NamedSink>, praxis::ports<>>);
}

TEST_CASE("declared lists win over the views' lists", "[graph][node]") {
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<NamedDisagrees>, praxis::ports<Count>>);
  STATIC_REQUIRE(std::is_same_v<praxis::inputs_of<NamedOtherOrder>, praxis::ports<Velocity, Count>>);
  // NamedOtherOrder declares no outputs and its views list none: empty, not the views' absence.
  STATIC_REQUIRE(std::is_same_v<praxis::outputs_of<NamedOtherOrder>, praxis::ports<>>);
}

TEST_CASE("node_name is the declared name or the unqualified type name", "[graph][node]") {
  STATIC_REQUIRE(praxis::node_name<NamedIntegrator>() == "integrator");
  STATIC_REQUIRE(praxis::node_name<Integrator>() == "Integrator");
  STATIC_REQUIRE(praxis::node_name<Source>() == "Source");
  // Templates keep their argument list (cutting scopes inside it could make two names alike).
  STATIC_REQUIRE(praxis::node_name<Numbered<3>>() == "Numbered<3>");
  STATIC_REQUIRE(praxis::node_name<Numbered<3>>() != praxis::node_name<Numbered<4>>());
}

TEST_CASE("Node accepts positional and named nodes", "[graph][node]") {
  STATIC_REQUIRE(praxis::Node<Integrator>);
  STATIC_REQUIRE(praxis::Node<Source>);
  STATIC_REQUIRE(praxis::Node<Sink>);
  STATIC_REQUIRE(praxis::Node<NamedIntegrator>);
  STATIC_REQUIRE(praxis::Node<NamedSource>);
  STATIC_REQUIRE(praxis::Node<NamedSink>);
  STATIC_REQUIRE(praxis::Node<NamedDeclared>);
  STATIC_REQUIRE(praxis::Node<Numbered<1>>);
}

TEST_CASE("Node refuses a cycle that cannot take the declared ports in order", "[graph][node]") {
  STATIC_REQUIRE_FALSE(praxis::Node<OutputFirst>);
  STATIC_REQUIRE_FALSE(praxis::Node<WritesItsInput>);
  STATIC_REQUIRE_FALSE(praxis::Node<MissingOutput>);
  STATIC_REQUIRE_FALSE(praxis::Node<NoCycle>);
}

TEST_CASE("Node refuses lists that hold something other than ports", "[graph][node]") {
  STATIC_REQUIRE_FALSE(praxis::Node<PreviousOutput>);
  STATIC_REQUIRE_FALSE(praxis::Node<IntInput>);
  STATIC_REQUIRE_FALSE(praxis::Node<TupleInputs>);
}

TEST_CASE("Node refuses views that disagree with the declared lists", "[graph][node]") {
  STATIC_REQUIRE_FALSE(praxis::Node<NamedDisagrees>);
  STATIC_REQUIRE_FALSE(praxis::Node<NamedOtherOrder>);
}

TEST_CASE("Node refuses what is not a class", "[graph][node]") {
  STATIC_REQUIRE_FALSE(praxis::Node<int>);
  STATIC_REQUIRE_FALSE(praxis::Node<void (*)(double&)>);
}

}  // namespace node_test
}  // namespace
