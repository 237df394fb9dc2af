// Unit tests for include/praxis/transport/dds.hpp: to be written (issue #24, tests mirror the tree).
