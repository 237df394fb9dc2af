// Unit tests for include/praxis/hardware/aurora/take_control.hpp: to be written (issue #24, tests mirror the tree).
