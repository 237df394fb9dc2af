// Unit tests for include/praxis/graph/node.hpp: to be written (issue #24, tests mirror the tree).
