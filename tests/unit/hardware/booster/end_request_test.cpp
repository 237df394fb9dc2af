// Unit tests for include/praxis/hardware/booster/end_request.hpp: to be written (issue #24, tests mirror the tree).
