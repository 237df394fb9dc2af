// Unit tests for include/praxis/sim/png.hpp: to be written (issue #24, tests mirror the tree).
