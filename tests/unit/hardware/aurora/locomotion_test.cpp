// Unit tests for include/praxis/hardware/aurora/locomotion.hpp: to be written (issue #24, tests mirror the tree).
