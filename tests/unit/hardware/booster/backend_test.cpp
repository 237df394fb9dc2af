// Unit tests for include/praxis/hardware/booster/backend.hpp: to be written (issue #24, tests mirror the tree).
