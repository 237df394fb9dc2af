// Unit tests for include/praxis/hardware/booster/event_log.hpp: to be written (issue #24, tests mirror the tree).
