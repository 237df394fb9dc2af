// Unit tests for include/praxis/hardware/tienkung/walking_params.hpp: to be written (issue #24, tests mirror the tree).
