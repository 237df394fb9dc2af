// Unit tests for include/praxis/core/robot_model.hpp: to be written (issue #24, tests mirror the tree).
