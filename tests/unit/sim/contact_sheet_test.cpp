// Unit tests for include/praxis/sim/contact_sheet.hpp: to be written (issue #24, tests mirror the tree).
