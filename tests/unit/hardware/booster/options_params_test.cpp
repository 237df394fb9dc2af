// Unit tests for include/praxis/hardware/booster/options_params.hpp: to be written (issue #24, tests mirror the tree).
