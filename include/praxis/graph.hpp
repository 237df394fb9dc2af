#pragma once
// The compile-time node graph: ports, nodes, previous<>, pipelines and their introspection.
#include "praxis/graph/fixed_string.hpp"
#include "praxis/graph/introspection.hpp"
#include "praxis/graph/node.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/graph/timing.hpp"
