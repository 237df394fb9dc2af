// Unit tests for include/praxis/hardware/unitree/backend.hpp: to be written (issue #24, tests mirror the tree).
