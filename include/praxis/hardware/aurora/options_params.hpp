#pragma once
// A Fourier Aurora backend's options by field name (docs/backends/aurora.md, "The robot in front
// of you"): from a parameters file (praxis::io::load_struct_into) or command-line settings
// (praxis::io::apply_settings, praxis_demo --set KEY=VALUE). The UNVERIFIED wire facts praxis
// depends on are fields here: topic and type names with their naming style and prefix, QoS, the
// gains' rate, the domain, the stand pose's source, the take-control sequence's states and waits.

#include <array>
#include <string_view>
#include <utility>

#include <boost/hana/adapt_struct.hpp>

#include "praxis/hardware/aurora/backend.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/transport/dds_params.hpp"

template <>
struct praxis::io::EnumNames<praxis::aurora::NameStyle> {
  static constexpr std::array<std::pair<praxis::aurora::NameStyle, std::string_view>, 3> values{
      {{praxis::aurora::NameStyle::as_given, "as_given"},
       {praxis::aurora::NameStyle::topic_names, "topic_names"},
       {praxis::aurora::NameStyle::ros2, "ros2"}}};
};
template <>
struct praxis::io::EnumNames<praxis::aurora::StandPoseSource> {
  static constexpr std::array<std::pair<praxis::aurora::StandPoseSource, std::string_view>, 2> values{
      {{praxis::aurora::StandPoseSource::measured, "measured"}, {praxis::aurora::StandPoseSource::model, "model"}}};
};
// The whole-body states a take-control sequence may ask for, by Aurora's names.
template <>
struct praxis::io::EnumNames<praxis::aurora::WholeBodyState> {
  static constexpr std::array<std::pair<praxis::aurora::WholeBodyState, std::string_view>, 5> values{
      {{praxis::aurora::WholeBodyState::pd_stand, "PdStand"},
       {praxis::aurora::WholeBodyState::joint_stand, "JointStand"},
       {praxis::aurora::WholeBodyState::security, "SecurityProtection"},
       {praxis::aurora::WholeBodyState::user_cmd, "UserCmd"},
       {praxis::aurora::WholeBodyState::upper_body_user_cmd, "UpperBodyUserCmd"}}};
};

BOOST_HANA_ADAPT_STRUCT(praxis::aurora::TopicNames, aurora_state, stand_pose, base_data, contact, group_state,
                        whole_body_request, upper_body_request, velocity_source, velocity, group_command, motor_config);
BOOST_HANA_ADAPT_STRUCT(praxis::aurora::TypeNames, aurora_state, stand_pose, base_data, contact, group_state,
                        whole_body_request, upper_body_request, velocity_source, velocity, group_command, motor_config);
BOOST_HANA_ADAPT_STRUCT(praxis::aurora::WireOptions, topics, types, naming, topic_prefix, qos, follow_command_gains,
                        gain_period);
BOOST_HANA_ADAPT_STRUCT(praxis::aurora::SequenceOptions, stand_first, control_state, release_state, stable_threshold,
                        pd_stand_timeout, stable_timeout, control_state_timeout, release_timeout, resend_period,
                        motor_config_sends, release_when_unknown);
BOOST_HANA_ADAPT_STRUCT(praxis::aurora::BackendOptions, dds, link_timeout, wire, sequence, poll_period, worker_period,
                        stand_pose);
