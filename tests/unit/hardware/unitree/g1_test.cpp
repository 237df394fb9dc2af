// Unit tests for include/praxis/hardware/unitree/g1.hpp: to be written (issue #24, tests mirror the tree).
