// Unit tests for include/praxis/graph/pipeline.hpp: to be written (issue #24, tests mirror the tree).
