// Unit tests for include/praxis/core/motion_registry.hpp: to be written (issue #24, tests mirror the tree).
