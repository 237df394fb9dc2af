// Unit tests for include/praxis/hardware/booster/robot_codec.hpp: to be written (issue #24, tests mirror the tree).
