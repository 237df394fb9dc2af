// Unit tests for include/praxis/hardware/tienkung/models.hpp: to be written (issue #24, tests mirror the tree).
