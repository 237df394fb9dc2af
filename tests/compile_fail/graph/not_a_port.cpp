#include "praxis/graph.hpp"

struct Source {
  using outputs = praxis::ports<int>;
  void cycle(int&) {}
};

praxis::Pipeline<Source> pipeline;

// expect: node_declares_something_that_is_not_a_port<Source, int>
