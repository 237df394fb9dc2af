// Unit tests for include/praxis/hardware/booster/request_handler.hpp: to be written (issue #24, tests mirror the tree).
