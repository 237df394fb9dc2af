// Unit tests for include/praxis/hardware/mock/modal_robot.hpp: to be written (issue #24, tests mirror the tree).
