// Unit tests for include/praxis/graph/port.hpp: to be written (issue #24, tests mirror the tree).
