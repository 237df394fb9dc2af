// Unit tests for include/praxis/hardware/aurora/topics.hpp: the wire's names (documented defaults,
// Aurora's prefix rule, the naming styles), and AuroraTopics' decisions on both threads: when a
// report is fresh and praxis counts itself in control, which commands leave (and what is counted
// when they do not), which gains go out and how often, and the topic table's order. Fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md): A.1 (QoS, domain), A.2 (names, prefix), A.5
// (which command is accepted in which state).

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/hardware/aurora/backend.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/aurora/topics.hpp"
#include "praxis/transport/dds.hpp"

namespace aurora_topics_test {

namespace a = praxis::aurora;
using namespace std::chrono_literals;
using Topics = a::AuroraTopics<a::GR2, a::BackendOptions>;
constexpr std::size_t N = a::GR2::joint_count;

TEST_CASE("aurora topics: type names - topic names - prefix - QoS and domain default to the documented ones",
          "[aurora][topics]") {
  const a::TypeNames types;
  CHECK(std::string(fourier_msgs_msg_AuroraState_desc.m_typename) == types.aurora_state);
  CHECK(std::string(fourier_msgs_msg_RobotControlGroupState_desc.m_typename) == types.group_state);
  CHECK(std::string(fourier_msgs_msg_RobotControlGroupCmd_desc.m_typename) == types.group_command);
  CHECK(std::string(fourier_msgs_msg_RobotMotorCfgGroupCmd_desc.m_typename) == types.motor_config);
  CHECK(std::string(fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc.m_typename) == types.whole_body_request);
  CHECK(std::string(fourier_msgs_msg_BaseData_desc.m_typename) == "fourier_msgs::msg::BaseData");

  // Client 0.1.0's naming: the topic's name is the type's.
  const auto legacy = a::TypeNames::topic_names_as_types(a::TopicNames{});
  CHECK(legacy.aurora_state == "aurora_state");
  CHECK(legacy.motor_config == "robot_motor_cfg_group_cmd");
  const auto* renamed = praxis::transport::with_type_name(&fourier_msgs_msg_AuroraState_desc, legacy.aurora_state);
  CHECK(std::string(renamed->m_typename) == "aurora_state");
  CHECK(renamed->m_size == fourier_msgs_msg_AuroraState_desc.m_size);

  const a::TopicNames bare;
  CHECK(bare.base_data == "base_data_pub");
  CHECK(bare.contact == "contact_data_pub");
  CHECK(bare.prefixed("gr2", "").group_state == "robot_control_group_state");  // no serial: no prefix
  const auto p = bare.prefixed("gr3", "GR3A0001");
  CHECK(p.aurora_state == "gr3/GR3A0001/aurora_state");
  CHECK(p.velocity == "gr3/GR3A0001/velocity_cmd");
  CHECK(p.motor_config == "gr3/GR3A0001/robot_motor_cfg_group_cmd");

  const a::BackendOptions o;
  CHECK(o.dds.domain == 123);
  CHECK(o.wire.qos.reliable == false);  // best effort
  CHECK(o.wire.qos.depth == 1);
  CHECK_FALSE(o.wire.qos.transient_local);  // volatile
  const auto robot = a::AuroraBackend<a::GR2>::robot("eth0", "gr2", "SN9");
  CHECK(robot.dds.interface == "eth0");
  CHECK(robot.wire.topics.group_command == "gr2/SN9/robot_control_group_cmd");
}


TEST_CASE("aurora topics: the prefix reaches every topic and the naming styles compose with it", "[aurora][topics]") {
  const a::TopicNames bare;
  const auto p = bare.prefixed("gr2", "SN1");
  for (const auto* topic : {&p.aurora_state, &p.stand_pose, &p.base_data, &p.contact, &p.group_state,
                           &p.whole_body_request, &p.upper_body_request, &p.velocity_source, &p.velocity,
                           &p.group_command, &p.motor_config}) {
    CHECK(topic->rfind("gr2/SN1/", 0) == 0);
  }
  CHECK(p.upper_body_request == "gr2/SN1/upper_body_fsm_state_change_cmd");
  CHECK(p.stand_pose == "gr2/SN1/robot_stand_pose_state");

  // ROS 2 style: "rt/" comes before the extra prefix; a type already mangled is not mangled twice.
  a::WireOptions w;
  w.naming = a::NameStyle::ros2;
  w.topic_prefix = "gr3/";
  w.types.contact = "fourier_msgs::msg::dds_::ContactData_";
  w.types.base_data = "base_data_pub";  // no "::": left as it is
  const auto r = a::resolved_names(w);
  CHECK(r.topics.velocity == "rt/gr3/velocity_cmd");
  CHECK(r.topics.group_state == "rt/gr3/robot_control_group_state");
  CHECK(r.types.contact == "fourier_msgs::msg::dds_::ContactData_");
  CHECK(r.types.base_data == "base_data_pub");
  CHECK(r.types.group_state == "fourier_msgs::msg::dds_::RobotControlGroupState_");
  CHECK(r.naming == a::NameStyle::as_given);
  CHECK(r.topic_prefix.empty());

  // The backend applies them once, at construction.
  a::BackendOptions o;
  o.wire.naming = a::NameStyle::topic_names;
  const auto resolved = a::AuroraBackend<a::GR2>::with_wire_names(o);
  CHECK(resolved.wire.types.group_command == "robot_control_group_cmd");
  CHECK(resolved.wire.topics.group_command == "robot_control_group_cmd");
}

TEST_CASE("aurora topics: the table lists the state and command topics in the order the counters index",
          "[aurora][topics]") {
  a::BackendOptions o;
  o.wire = a::resolved_names(o.wire);
  o.wire.topics = o.wire.topics.prefixed("gr2", "SN7");
  const auto states = Topics::state_topics(o);
  CHECK(std::get<a::k_group_state_topic>(states).name == "gr2/SN7/robot_control_group_state");
  CHECK(std::get<a::k_base_data_topic>(states).name == "gr2/SN7/base_data_pub");
  CHECK(std::get<a::k_contact_topic>(states).name == "gr2/SN7/contact_data_pub");
  CHECK(std::get<a::k_aurora_state_topic>(states).name == "gr2/SN7/aurora_state");
  CHECK(std::get<a::k_stand_pose_topic>(states).name == "gr2/SN7/robot_stand_pose_state");
  CHECK(std::string(std::get<a::k_aurora_state_topic>(states).descriptor->m_typename) ==
        "fourier_msgs::msg::AuroraState");
  CHECK(std::get<a::k_group_state_topic>(states).qos.reliable == false);
  const auto commands = Topics::command_topics(o);
  CHECK(std::get<a::k_motor_config_topic>(commands).name == "gr2/SN7/robot_motor_cfg_group_cmd");
  CHECK(std::get<a::k_group_command_topic>(commands).name == "gr2/SN7/robot_control_group_cmd");
  CHECK(std::get<a::k_group_command_topic>(commands).qos.depth == 1);
}

namespace {

praxis::JointCommand<N> full_command(double kp) {
  praxis::JointCommand<N> c;  // every joint in position mode
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.1;
    c.kp[i] = kp;
    c.kd[i] = 2.0;
  }
  return c;
}

// A context in which the robot reported `whole_body` at `at`, and praxis established `control`.
void report(Topics::Context& c, int whole_body, praxis::TimePoint at, int control) {
  praxis::RobotState<N> unused;
  a::AuroraStateValue v;
  v.whole_body = static_cast<std::uint8_t>(whole_body);
  Topics::decode_fsm(v, at, unused, c);
  c.control_state.store(control);
}

}  // namespace

TEST_CASE("aurora topics: in control only while a fresh aurora_state reports the state acquire() established",
          "[aurora][topics]") {
  a::BackendOptions o;  // link_timeout 100 ms
  Topics::Context c(o);
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  CHECK_FALSE(c.fsm_at().has_value());
  CHECK_FALSE(c.fsm_fresh(t0));

  report(c, 10, t0, Topics::k_not_in_control);
  CHECK(c.whole_body == 10);
  CHECK_FALSE(c.in_control(t0));  // nothing established yet

  c.control_state = 10;
  CHECK(c.in_control(t0));
  CHECK(c.in_control(t0 + o.link_timeout));  // the limit is inclusive
  CHECK_FALSE(c.in_control(t0 + o.link_timeout + 1ms));
  CHECK_FALSE(c.fsm_fresh(t0 + o.link_timeout + 1ms));

  report(c, 9, t0 + 1s, 10);  // the joystick took the robot to SecurityProtection
  CHECK(c.fsm_fresh(t0 + 1s));
  CHECK_FALSE(c.in_control(t0 + 1s));

  // An arrival at time zero is still an arrival (0 means "none").
  Topics::Context z(o);
  report(z, 10, praxis::TimePoint{}, 10);
  REQUIRE(z.fsm_at().has_value());
  CHECK(z.in_control(praxis::TimePoint{}));
  CHECK(z.fsm_reports == 1);
}

TEST_CASE("aurora topics: commands outside control are withheld and counted by cause", "[aurora][topics]") {
  a::BackendOptions o;
  Topics::Context c(o);
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  a::GroupCommandValue out;
  const auto cmd = full_command(50.0);

  // Before acquire(): outside control, but not for want of a fresh state.
  CHECK_FALSE(Topics::encode_groups(cmd, t0, c, out));
  CHECK(c.outside_control == 1);
  CHECK(c.without_fresh_state == 0);

  // Established, then the reports stopped.
  report(c, 10, t0, 10);
  CHECK(Topics::encode_groups(cmd, t0, c, out));
  CHECK(out.groups.size == 6);
  CHECK_FALSE(Topics::encode_groups(cmd, t0 + 1s, c, out));
  CHECK(c.outside_control == 2);
  CHECK(c.without_fresh_state == 1);

  // A fresh report of another state: outside control, the state is fresh.
  report(c, 2, t0 + 1s, 10);
  CHECK_FALSE(Topics::encode_groups(cmd, t0 + 1s, c, out));
  CHECK(c.outside_control == 3);
  CHECK(c.without_fresh_state == 1);
  CHECK(c.refused == 0);
}

TEST_CASE("aurora topics: the upper-body control state withholds the legs and a partial group refuses the command",
          "[aurora][topics]") {
  a::BackendOptions o;
  Topics::Context c(o);
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  report(c, 11, t0, 11);
  c.allowed_groups = a::upper_body_groups<a::GR2>();  // A.5: UpperBodyUserCmd takes waist, head, arms
  a::GroupCommandValue out;
  REQUIRE(Topics::encode_groups(full_command(50.0), t0, c, out));
  REQUIRE(out.groups.size == 4);
  CHECK(out.groups[0].name.view() == "waist");
  CHECK(c.withheld_groups == 2);

  // Only the legs: nothing sent, but nothing refused either (they are not the command's fault).
  auto legs = full_command(50.0);
  for (std::size_t j = 12; j < N; ++j) legs.mode[j] = praxis::JointMode::none;
  CHECK_FALSE(Topics::encode_groups(legs, t0, c, out));
  CHECK(c.refused == 0);
  CHECK(c.withheld_groups == 4);

  // The head half driven: refused, and the fault says which joint of which group.
  auto half = full_command(50.0);
  half.mode[14] = praxis::JointMode::none;
  CHECK_FALSE(Topics::encode_groups(half, t0, c, out));
  CHECK(c.refused == 1);
  const auto fault = Topics::unpack_command(c.last_command_fault);
  CHECK(fault.fault == a::CommandFault::partial_group);
  CHECK(fault.group == 3);
  CHECK(fault.joint == 14);
}

TEST_CASE("aurora topics: gains leave for the complete groups that changed at most every gain_period",
          "[aurora][topics]") {
  a::BackendOptions o;
  o.wire.gain_period = 50ms;
  Topics::Context c(o);
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  a::MotorConfigValue out;
  auto cmd = full_command(50.0);
  CHECK_FALSE(Topics::encode_gains(cmd, t0, c, out));  // not in control

  report(c, 10, t0, 10);
  REQUIRE(Topics::encode_gains(cmd, t0, c, out));  // nothing sent before: every group
  CHECK(out.groups.size == 6);
  CHECK(out.groups[3].kp[1] == 50.0);
  CHECK_FALSE(Topics::encode_gains(cmd, t0 + 60ms, c, out));  // the same gains

  // The left arm softer: only that group, and not within the period.
  for (std::size_t j = 15; j < 22; ++j) cmd.kp[static_cast<Eigen::Index>(j)] = 20.0;
  report(c, 10, t0 + 60ms, 10);
  REQUIRE(Topics::encode_gains(cmd, t0 + 60ms, c, out));
  REQUIRE(out.groups.size == 1);
  CHECK(out.groups[0].name.view() == "left_manipulator");
  cmd.kd[0] = 9.0;
  report(c, 10, t0 + 80ms, 10);
  CHECK_FALSE(Topics::encode_gains(cmd, t0 + 80ms, c, out));  // 20 ms after the last
  report(c, 10, t0 + 110ms, 10);
  REQUIRE(Topics::encode_gains(cmd, t0 + 110ms, c, out));
  REQUIRE(out.groups.size == 1);
  CHECK(out.groups[0].name.view() == "left_leg");

  // A group the command leaves, or a NaN gain in it: not sent.
  auto partial = cmd;
  partial.mode[13] = praxis::JointMode::none;
  partial.kp[14] = 1.0;
  partial.kp[0] = std::numeric_limits<double>::quiet_NaN();
  report(c, 10, t0 + 200ms, 10);
  CHECK_FALSE(Topics::encode_gains(partial, t0 + 200ms, c, out));
}

TEST_CASE("aurora topics: no gains in PdStand's arms-only control or with follow_command_gains off",
          "[aurora][topics]") {
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  a::MotorConfigValue out;
  // A.5: robot_motor_cfg_group_cmd is accepted only in UserCmd and UpperBodyUserCmd.
  a::BackendOptions arms;
  arms.sequence.control_state = a::WholeBodyState::pd_stand;
  CHECK(Topics::arms_in_pd_stand(arms));
  Topics::Context in_stance(arms);
  report(in_stance, 2, t0, 2);
  CHECK_FALSE(Topics::encode_gains(full_command(50.0), t0, in_stance, out));
  a::GroupCommandValue groups;
  CHECK(Topics::encode_groups(full_command(50.0), t0, in_stance, groups));  // the positions do leave

  a::BackendOptions fixed;
  fixed.wire.follow_command_gains = false;
  Topics::Context c(fixed);
  report(c, 10, t0, 10);
  CHECK_FALSE(Topics::encode_gains(full_command(50.0), t0, c, out));
}

TEST_CASE("aurora topics: a refused group state is counted and its reason kept - the stand level stored",
          "[aurora][topics]") {
  a::BackendOptions o;
  Topics::Context c(o);
  praxis::RobotState<N> s;
  a::GroupStateValue v;  // no groups at all
  CHECK_FALSE(Topics::decode_groups(v, praxis::TimePoint{} + 1s, s, c));
  CHECK(c.group_state_rejections == 1);
  CHECK(Topics::unpack_state(c.last_state_fault).fault == a::StateFault::missing_group);

  const auto packed = Topics::pack(static_cast<std::uint8_t>(a::StateFault::wrong_joint_count), 4, 7);
  const auto back = Topics::unpack_state(packed);
  CHECK(back.fault == a::StateFault::wrong_joint_count);
  CHECK(back.group == 4);
  CHECK(back.found == 7);

  CHECK_FALSE(c.stand_at().has_value());
  Topics::decode_stand(a::StandPoseValue{0, 0, 0, 105}, praxis::TimePoint{} + 2s, s, c);
  CHECK(c.stable_level == 105);
  REQUIRE(c.stand_at().has_value());
  CHECK(*c.stand_at() == praxis::TimePoint{} + 2s);
}

}  // namespace aurora_topics_test
