#pragma once
// A Tienkung backend's options by field name (docs/backends/tienkung.md, "The robot in front of
// you"): from a parameters file (praxis::io::load_struct_into) or command-line settings
// (praxis::io::apply_settings, praxis_demo --set KEY=VALUE). The UNVERIFIED wire facts praxis
// depends on are fields here: the domain, topic and type names, QoS, the speed unit, the servo
// limits. (The MotorStatus layout is the backend's template parameter: praxis_demo --status-layout.)

#include <array>
#include <string_view>
#include <utility>

#include <boost/hana/adapt_struct.hpp>

#include "praxis/hardware/tienkung/backend.hpp"
#include "praxis/io/reflect_load.hpp"
#include "praxis/transport/dds_params.hpp"

template <>
struct praxis::io::EnumNames<praxis::tienkung::PositionCommand> {
  static constexpr std::array<std::pair<praxis::tienkung::PositionCommand, std::string_view>, 2> values{
      {{praxis::tienkung::PositionCommand::hybrid, "hybrid"}, {praxis::tienkung::PositionCommand::servo, "servo"}}};
};
template <>
struct praxis::io::EnumNames<praxis::tienkung::SpeedUnit> {
  static constexpr std::array<std::pair<praxis::tienkung::SpeedUnit, std::string_view>, 2> values{
      {{praxis::tienkung::SpeedUnit::rad_per_s, "rad_per_s"}, {praxis::tienkung::SpeedUnit::rpm, "rpm"}}};
};

BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::LimbTopicNames, status, cmd_ctrl, cmd_vel, cmd_pos);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::TopicNames, limbs, imu, set_zero);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::TypeNames, motor_status, motor_ctrl, motor_speed, motor_position, imu,
                        string);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::ServoLimits, speed, current);
BOOST_HANA_ADAPT_STRUCT(praxis::tienkung::BackendOptions, dds, link_timeout, limb_timeout, imu_timeout, topics, types,
                        state_qos, command_qos, position_command, servo, speed_unit, upper_body_only, stopped_speed,
                        stop_confirm_time, stop_timeout);
