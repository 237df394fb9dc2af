// previous<P> copies P's value every cycle; a move-only value type must be reported by praxis, not
// by the standard library deep inside the pipeline.
#include <memory>

#include "praxis/graph.hpp"

struct Plan : praxis::port<"plan", std::unique_ptr<int>> {};
struct Out : praxis::port<"out", int> {};

struct Planner {
  using outputs = praxis::ports<Plan>;
  void cycle(std::unique_ptr<int>&) {}
};
struct Follower {
  using inputs = praxis::ports<praxis::previous<Plan>>;
  using outputs = praxis::ports<Out>;
  void cycle(const std::unique_ptr<int>&, int&) {}
};

praxis::Pipeline<Planner, Follower> pipeline;
void run() { pipeline.cycle(); }

// expect: previous_of_a_port_whose_value_cannot_be_copied<Follower, Plan,
// expect: cannot be copy-assigned
