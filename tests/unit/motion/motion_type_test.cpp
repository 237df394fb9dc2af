// Unit tests for include/praxis/motion/motion_type.hpp: to be written (issue #24, tests mirror the tree).
