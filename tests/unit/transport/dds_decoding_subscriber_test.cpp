// Unit tests for include/praxis/transport/dds_decoding_subscriber.hpp: to be written (issue #24, tests mirror the tree).
