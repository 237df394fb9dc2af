// Unit tests for include/praxis/hardware/unitree/go2.hpp: to be written (issue #24, tests mirror the tree).
