// Unit tests for include/praxis/hardware/tienkung/robot_codec.hpp: to be written (issue #24, tests mirror the tree).
