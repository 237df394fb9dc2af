// One declaration of a port has a default_value() and another (a plain port of the same name) has
// none: listing the plain one first would silently drop the default.
#include "praxis/graph.hpp"

struct Gain : praxis::port<"gain", double> {
  static double default_value() { return 40.0; }
};
using PlainGain = praxis::port<"gain", double>;
struct Out : praxis::port<"out", double> {};

struct Tuner {
  using outputs = praxis::ports<Gain>;
  void cycle(double&) {}
};
struct Controller {
  using inputs = praxis::ports<praxis::previous<PlainGain>>;
  using outputs = praxis::ports<Out>;
  void cycle(const double&, double&) {}
};

praxis::Pipeline<Controller, Tuner> pipeline;

// expect: port_declared_with_two_default_values
// expect: declared_in<Controller, praxis::port<
// expect: declared_in<Tuner, Gain, double>
