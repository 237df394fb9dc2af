// Unit tests for include/praxis/hardware/unitree/sport_backend.hpp: to be written (issue #24, tests mirror the tree).
