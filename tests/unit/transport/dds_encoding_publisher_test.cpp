// Unit tests for include/praxis/transport/dds_encoding_publisher.hpp: to be written (issue #24, tests mirror the tree).
