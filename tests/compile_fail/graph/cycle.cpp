// Three nodes feed each other in a loop; an unrelated node must not be named.
#include "praxis/graph.hpp"

struct Sensor : praxis::port<"sensor", int> {};
struct Plan : praxis::port<"plan", int> {};
struct Act : praxis::port<"act", int> {};
struct Feedback : praxis::port<"feedback", int> {};

struct Reader {
  using outputs = praxis::ports<Sensor>;
  void cycle(int&) {}
};
struct Planner {
  using inputs = praxis::ports<Sensor, Feedback>;
  using outputs = praxis::ports<Plan>;
  void cycle(const int&, const int&, int&) {}
};
struct Actor {
  using inputs = praxis::ports<Plan>;
  using outputs = praxis::ports<Act>;
  void cycle(const int&, int&) {}
};
struct Monitor {
  using inputs = praxis::ports<Act>;
  using outputs = praxis::ports<Feedback>;
  void cycle(const int&, int&) {}
};

praxis::Pipeline<Reader, Monitor, Actor, Planner> pipeline;

// expect: dependency_cycle_between<Monitor, Planner, Actor>
// expect: depend on each other in a cycle
// Monitor writes feedback, which Planner reads; Planner writes plan, which Actor reads.
// expect: each writes a port the next one reads
