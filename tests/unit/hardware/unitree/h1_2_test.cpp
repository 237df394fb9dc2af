// Unit tests for include/praxis/hardware/unitree/h1_2.hpp: to be written (issue #24, tests mirror the tree).
