// Named inputs and outputs: cycle(praxis::in<...>, praxis::out<...>) binds by port, beside the
// positional form, in one pipeline; the views' lists are the node's inputs and outputs.

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/graph.hpp"

namespace named_test {

namespace {

struct Left : praxis::port<"left", double> {};
struct Right : praxis::port<"right", double> {};
struct Gain : praxis::port<"gain", double> {
  static double default_value() { return 1.0; }
};
struct Mixed : praxis::port<"mixed", double> {};
struct Trace : praxis::port<"trace", std::array<int, 3>> {};

// Positional producers: the named node must not care about their order or the order it lists them.
struct Sources {
  using outputs = praxis::ports<Left, Right>;
  double t = 0;
  void cycle(double& left, double& right) {
    t += 1.0;
    left = t;
    right = 10.0 * t;
  }
};

// Named, no declared lists: reads Right before Left (the opposite of the producer's order), last
// cycle's Gain, and writes two ports in the order it likes.
struct Mixer {
  static constexpr std::string_view name = "mixer";
  void cycle(praxis::in<Right, praxis::previous<Gain>, Left> in, praxis::out<Trace, Mixed> out) {
    out.get<Mixed>() = in.get<praxis::previous<Gain>>() * (in.get<Left>() - in.get<Right>());
    out.get<Trace>() = {static_cast<int>(in.get<Left>()), static_cast<int>(in.get<Right>()),
                        static_cast<int>(in.get<praxis::previous<Gain>>())};
  }
};

// Named with its lists declared as well (they agree), outputs only.
struct GainSource {
  using outputs = praxis::ports<Gain>;
  int cycles = 0;
  void cycle(praxis::out<Gain> out) { out.get<Gain>() = 2.0 + cycles++; }
};

// Named, inputs only (a sink), const member function.
double g_seen = 0.0;
struct Sink {
  void cycle(praxis::in<Mixed> in) const { g_seen = in.get<Mixed>(); }
};

// Positional reader of the named node's output.
struct Doubler {
  using inputs = praxis::ports<Mixed>;
  using outputs = praxis::ports<praxis::port<"doubled", double>>;
  void cycle(const double& mixed, double& doubled) { doubled = 2.0 * mixed; }
};

}  // namespace

TEST_CASE("named inputs: the views' lists are the node's ports, and values bind by port, not by position",
          "[graph][named]") {
  static_assert(std::is_same_v<praxis::inputs_of<Mixer>, praxis::ports<Right, praxis::previous<Gain>, Left>>);
  static_assert(std::is_same_v<praxis::outputs_of<Mixer>, praxis::ports<Trace, Mixed>>);
  static_assert(std::is_same_v<praxis::inputs_of<GainSource>, praxis::ports<>>);
  static_assert(std::is_same_v<praxis::inputs_of<Sink>, praxis::ports<Mixed>>);
  static_assert(std::is_same_v<praxis::outputs_of<Sink>, praxis::ports<>>);
  static_assert(praxis::Node<Mixer> && praxis::Node<GainSource> && praxis::Node<Sink>);

  // Listed so that the sort has to move the sink and the named node after their producers.
  praxis::Pipeline<Sink, Doubler, Mixer, GainSource, Sources> pipeline;
  pipeline.cycle();
  // Cycle 1: left 1, right 10, last gain = the port's default 1.
  CHECK(pipeline.get<Mixed>() == Approx(-9.0));
  CHECK(pipeline.get<Trace>() == std::array<int, 3>{1, 10, 1});
  CHECK(g_seen == Approx(-9.0));
  CHECK(pipeline.get<praxis::port<"doubled", double>>() == Approx(-18.0));
  pipeline.cycle();
  // Cycle 2: left 2, right 20, last gain = what GainSource wrote in cycle 1 (2).
  CHECK(pipeline.get<Mixed>() == Approx(-36.0));
  CHECK(pipeline.get<Trace>() == std::array<int, 3>{2, 20, 2});
  CHECK(g_seen == Approx(-36.0));
}

TEST_CASE("named inputs: the pipeline orders a named node by its ports like any other", "[graph][named]") {
  using P = praxis::Pipeline<Sink, Mixer, GainSource, Sources>;
  const auto g = praxis::describe<P>();
  const auto at = [&](std::string_view name) {
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i] == name) return i;
    }
    return g.nodes.size();
  };
  REQUIRE(at("mixer") < g.nodes.size());
  CHECK(at("Sources") < at("mixer"));
  CHECK(at("mixer") < at("Sink"));
  // previous<Gain> read by the named node is a previous-reader, not an ordering edge.
  for (const auto& row : g.ports) {
    if (row.name == "gain") {
      CHECK(row.readers.empty());
      CHECK(row.previous_readers == std::vector<std::size_t>{at("mixer")});
    }
  }
}

}  // namespace named_test
