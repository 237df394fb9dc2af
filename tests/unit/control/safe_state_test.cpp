// Unit tests for include/praxis/control/safe_state.hpp: to be written (issue #24, tests mirror the tree).
