#include "praxis/graph.hpp"

struct Command : praxis::port<"command", float> {};
struct Out : praxis::port<"out", float> {};

struct Filter {
  using inputs = praxis::ports<praxis::previous<Command>>;
  using outputs = praxis::ports<Out>;
  void cycle(const float&, float&) {}
};

praxis::Pipeline<Filter> pipeline;

// expect: input_without_producer<Filter, Command>
