// A node reading the port it writes, without previous<>.
#include "praxis/graph.hpp"

struct Level : praxis::port<"level", double> {};

struct Integrator {
  using inputs = praxis::ports<Level>;
  using outputs = praxis::ports<Level>;
  void cycle(const double&, double&) {}
};

praxis::Pipeline<Integrator> pipeline;

// expect: dependency_cycle_between<Integrator>
