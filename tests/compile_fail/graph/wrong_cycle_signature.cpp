#include "praxis/graph.hpp"

struct In : praxis::port<"in", int> {};
struct Out : praxis::port<"out", double> {};

struct Source {
  using outputs = praxis::ports<In>;
  void cycle(int&) {}
};
struct Swapped {
  using inputs = praxis::ports<In>;
  using outputs = praxis::ports<Out>;
  void cycle(double&, const int&) {}  // outputs must come after inputs
};

praxis::Pipeline<Source, Swapped> pipeline;

// expect: node_cycle_cannot_be_called_with<Swapped
// expect: expected_cycle_arguments<const int
