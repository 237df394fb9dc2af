#pragma once
// A Unitree backend's options by field name (docs/backends/unitree.md, "The robot in front of
// you"): from a parameters file (praxis::io::load_struct_into) or command-line settings
// (praxis::io::apply_settings, praxis_demo --set KEY=VALUE). Every UNVERIFIED wire fact
// (docs/backends/unitree.md, "Wire facts and their sources") that praxis depends on is a field
// here: the topics, their QoS, mode_machine, mode_pr.

#include <boost/hana/adapt_struct.hpp>

#include "praxis/hardware/unitree/arm_sdk.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/sport.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/transport/dds_params.hpp"

BOOST_HANA_ADAPT_STRUCT(praxis::unitree::ReleaseOptions, call_timeout, overall_timeout, retry_interval);
BOOST_HANA_ADAPT_STRUCT(praxis::unitree::BackendOptions, dds, release_motion_service, motion_switcher_required,
                        check_state_crc, release, link_timeout, lowcmd_topic, lowstate_topic, qos, mode_pr,
                        mode_machine, detect_restart);
BOOST_HANA_ADAPT_STRUCT(praxis::unitree::SportOptions, service, call_timeout, move_period, retry_backoff, max_attempts,
                        stand_down_settle, max_vx, max_vy, max_vyaw);
BOOST_HANA_ADAPT_STRUCT(praxis::unitree::ArmSdkOptions, dds, link_timeout, arm_sdk_topic, lowstate_topic, qos,
                        weight_slot, weight_rate, mode_machine, check_state_crc);
