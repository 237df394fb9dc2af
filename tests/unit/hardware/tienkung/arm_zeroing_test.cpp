// Unit tests for include/praxis/hardware/tienkung/arm_zeroing.hpp: to be written (issue #24, tests mirror the tree).
