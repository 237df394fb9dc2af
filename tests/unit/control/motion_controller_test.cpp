// Unit tests for include/praxis/control/motion_controller.hpp: to be written (issue #24, tests mirror the tree).
