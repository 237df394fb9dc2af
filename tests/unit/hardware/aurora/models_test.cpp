// Unit tests for include/praxis/hardware/aurora/models.hpp: to be written (issue #24, tests mirror the tree).
