#pragma once
// DdsOptions and TopicQos by field name, for the vendors' backend parameters (their
// options_params.hpp): a parameters file or `--set dds.domain=0` reads them through
// praxis/io/reflect_load.hpp.
//
//   "dds": { "domain": 0, "interface": "eth0" }
//   "qos": { "reliable": true, "depth": 10, "transient_local": false }   (null: Cyclone's default)

#include <boost/hana/adapt_struct.hpp>

#include "praxis/transport/dds.hpp"

BOOST_HANA_ADAPT_STRUCT(praxis::transport::DdsOptions, domain, interface);
BOOST_HANA_ADAPT_STRUCT(praxis::transport::TopicQos, reliable, depth, transient_local);
