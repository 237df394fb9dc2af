// Unit tests for include/praxis/hardware/booster/api.hpp: to be written (issue #24, tests mirror the tree).
