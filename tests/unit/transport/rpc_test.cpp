// Unit tests for include/praxis/transport/rpc.hpp: to be written (issue #24, tests mirror the tree).
