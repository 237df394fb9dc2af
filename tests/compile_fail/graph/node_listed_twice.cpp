#include "praxis/graph.hpp"

struct Logger {
  void cycle() {}
};

praxis::Pipeline<Logger, Logger> pipeline;

// expect: node_listed_twice<Logger>
