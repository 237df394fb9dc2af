// Unit tests for include/praxis/hardware/aurora/topics.hpp: to be written (issue #24, tests mirror the tree).
