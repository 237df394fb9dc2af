#include "praxis/graph.hpp"

struct Target : praxis::port<"target", double> {};

struct WalkPlanner {
  using outputs = praxis::ports<Target>;
  void cycle(double&) {}
};
struct KickPlanner {
  using outputs = praxis::ports<Target>;
  void cycle(double&) {}
};

praxis::Pipeline<WalkPlanner, KickPlanner> pipeline;

// expect: port_with_two_producers<Target, WalkPlanner, KickPlanner>
// expect: two nodes write the same port
