#pragma once
// A Booster backend's options by field name (docs/backends/booster.md, "The robot in front of
// you"): from a parameters file (praxis::io::load_struct_into) or command-line settings
// (praxis::io::apply_settings, praxis_demo --set KEY=VALUE). The UNVERIFIED wire facts praxis
// depends on are fields here: topic and type names, QoS, the motor space, MotorCmd.mode.

#include <array>
#include <string_view>
#include <utility>

#include <boost/hana/adapt_struct.hpp>

#include "praxis/hardware/booster/backend.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/transport/dds_params.hpp"

template <>
struct praxis::io::EnumNames<praxis::booster::MotorSpace> {
  static constexpr std::array<std::pair<praxis::booster::MotorSpace, std::string_view>, 2> values{
      {{praxis::booster::MotorSpace::parallel, "parallel"}, {praxis::booster::MotorSpace::serial, "serial"}}};
};
template <>
struct praxis::io::EnumNames<praxis::booster::Mode> {
  static constexpr std::array<std::pair<praxis::booster::Mode, std::string_view>, 5> values{
      {{praxis::booster::Mode::damping, "damping"},
       {praxis::booster::Mode::prepare, "prepare"},
       {praxis::booster::Mode::walking, "walking"},
       {praxis::booster::Mode::custom, "custom"},
       {praxis::booster::Mode::soccer, "soccer"}}};
};

BOOST_HANA_ADAPT_STRUCT(praxis::booster::TopicNames, joint_ctrl, low_state, odometer, fall_down, kick_ball,
                        button_event, remote_controller, loco_channel, light_channel);
BOOST_HANA_ADAPT_STRUCT(praxis::booster::TypeNames, low_cmd, low_state, fall_down, remote_controller, button_event,
                        kick, rpc_request, rpc_response);
BOOST_HANA_ADAPT_STRUCT(praxis::booster::CodecOptions, space, motor_mode, weight, overheat_celsius);
BOOST_HANA_ADAPT_STRUCT(praxis::booster::WireOptions, topics, types, codec, state_qos, command_qos);
BOOST_HANA_ADAPT_STRUCT(praxis::booster::UpperBodyOptions, include_head, weight_rate, enter_walking,
                        call_upper_body_api);
BOOST_HANA_ADAPT_STRUCT(praxis::booster::BackendOptions, dds, link_timeout, wire, worker_period,
                        lifecycle_rpc_timeout, prepare_settle, release_mode, upper_body);
