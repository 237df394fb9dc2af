// The same port name declared twice with different value types.
#include "praxis/graph.hpp"

struct SpeedAsDouble : praxis::port<"speed", double> {};
struct SpeedAsInt : praxis::port<"speed", int> {};

struct Odometer {
  using outputs = praxis::ports<SpeedAsDouble>;
  void cycle(double&) {}
};
struct Governor {
  using inputs = praxis::ports<SpeedAsInt>;
  void cycle(const int&) {}
};

praxis::Pipeline<Odometer, Governor> pipeline;

// expect: port_name_declared_with_two_types
// expect: declared_in<Odometer, SpeedAsDouble, double>
// expect: declared_in<Governor, SpeedAsInt, int>
