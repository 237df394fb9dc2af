// Unit tests for include/praxis/hardware/unitree/wire.hpp: to be written (issue #24, tests mirror the tree).
