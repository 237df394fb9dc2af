// Unit tests for include/praxis/hardware/tienkung/velocity_stops.hpp: to be written (issue #24, tests mirror the tree).
