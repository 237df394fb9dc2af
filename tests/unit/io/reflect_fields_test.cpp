// Unit tests for include/praxis/io/reflect_fields.hpp: to be written (issue #24, tests mirror the tree).
