// Unit tests for include/praxis/sim/image.hpp: to be written (issue #24, tests mirror the tree).
