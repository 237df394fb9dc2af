// Unit tests for include/praxis/transport/loopback.hpp: to be written (issue #24, tests mirror the tree).
