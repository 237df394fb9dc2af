// Unit tests for include/praxis/hardware/booster/action_log.hpp: to be written (issue #24, tests mirror the tree).
