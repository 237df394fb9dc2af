// Unit tests for include/praxis/hardware/booster/custom_entry.hpp: to be written (issue #24, tests mirror the tree).
