// Unit tests for include/praxis/graph/diagnostics.hpp: to be written (issue #24, tests mirror the tree).
