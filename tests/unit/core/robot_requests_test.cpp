// Unit tests for include/praxis/core/robot_requests.hpp: to be written (issue #24, tests mirror the tree).
