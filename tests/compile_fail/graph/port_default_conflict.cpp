// One port declared by two port types with different default_value(): which default the port
// starts with would depend on which node is listed first.
#include "praxis/graph.hpp"

struct ModeIdle : praxis::port<"mode", int> {
  static int default_value() { return 0; }
};
struct ModeStand : praxis::port<"mode", int> {
  static int default_value() { return 2; }
};
struct Out : praxis::port<"out", int> {};

struct Selector {
  using inputs = praxis::ports<praxis::previous<ModeIdle>>;
  using outputs = praxis::ports<ModeIdle>;
  void cycle(const int&, int&) {}
};
struct Motion {
  using inputs = praxis::ports<ModeStand>;
  using outputs = praxis::ports<Out>;
  void cycle(const int&, int&) {}
};

praxis::Pipeline<Motion, Selector> pipeline;

// expect: port_declared_with_two_default_values
// expect: declared_in<Motion, ModeStand, int>
// expect: declared_in<Selector, ModeIdle, int>
// expect: would depend on the order the nodes are listed
