// Unit tests for include/praxis/sim/mujoco_world.hpp: to be written (issue #24, tests mirror the tree).
