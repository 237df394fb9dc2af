// Unit tests for include/praxis/hardware/booster/upper_body.hpp: to be written (issue #24, tests mirror the tree).
