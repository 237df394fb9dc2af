// Unit tests for include/praxis/core/clock.hpp: to be written (issue #24, tests mirror the tree).
