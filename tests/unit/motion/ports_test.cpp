// Unit tests for include/praxis/motion/ports.hpp: to be written (issue #24, tests mirror the tree).
