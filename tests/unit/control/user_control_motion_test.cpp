// Unit tests for include/praxis/control/user_control_motion.hpp: to be written (issue #24, tests mirror the tree).
