// Unit tests for include/praxis/sim/camera.hpp: to be written (issue #24, tests mirror the tree).
