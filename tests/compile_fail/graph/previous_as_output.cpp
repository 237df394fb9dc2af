#include "praxis/graph.hpp"

struct Value : praxis::port<"value", int> {};

struct Source {
  using outputs = praxis::ports<praxis::previous<Value>>;
  void cycle(int&) {}
};

praxis::Pipeline<Source> pipeline;

// expect: node_declares_something_that_is_not_a_port<Source, praxis::previous<Value>
