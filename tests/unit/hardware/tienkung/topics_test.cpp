// Unit tests for include/praxis/hardware/tienkung/topics.hpp: the ROS 2 names on DDS and their QoS
// by default, the order of the state and command tables (a limb's cmd_vel before its cmd_ctrl, the
// servo topics last), upper-body-only and servo mode choosing which topics a command reaches, and
// the other limbs and the IMU judged silent while the legs speak, and not after a pause of all. Fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md): B.3 (topic map), B.5 (rates, QoS), B.7 (ROS 2 topic and
// type names on DDS).

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <thread>
#include <tuple>

#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/tienkung/topics.hpp"

namespace tienkung_topics_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
using tk::Limb;
using tk::Lite;
using tk::Pro;
using ProTopics = tk::TienkungTopics<Pro, tk::StatusLayout::with_error>;
using LiteTopics = tk::TienkungTopics<Lite, tk::StatusLayout::without_error>;
constexpr std::size_t P = Pro::joint_count;

// A complete, still, error-free status of one limb of model M, joint j at q = 0.01 j, speed `speed`.
template <class M>
tk::LimbStatus status_of(Limb limb, float speed = 0.0f) {
  const tk::LimbSpec& spec = *tk::find_limb<M>(limb);
  tk::LimbStatus s;
  for (std::size_t j = spec.first; j < spec.first + spec.count; ++j) {
    s.motors[s.motors.size++] = {M::motor_ids[j], static_cast<float>(0.01 * static_cast<double>(j)), speed, 1.0f,
                                 35.0f, 0u, 0.0f};
  }
  return s;
}

bool offline(const praxis::RobotState<P>& s, std::size_t j) { return (s.health[j].faults & praxis::k_joint_offline) != 0; }

TEST_CASE("tienkung topics: ROS 2 names on DDS - type names and QoS by default", "[tienkung][topics]") {
  const tk::BackendOptions o;
  // B.3 /<limb>/status, cmd_ctrl, cmd_vel, cmd_pos, /imu/status, /arm/cmd_set_zero; B.7: "rt" + the name.
  CHECK(o.topics.of(Limb::leg).status == "rt/leg/status");
  CHECK(o.topics.of(Limb::arm).cmd_ctrl == "rt/arm/cmd_ctrl");
  CHECK(o.topics.of(Limb::waist).cmd_vel == "rt/waist/cmd_vel");
  CHECK(o.topics.of(Limb::head).cmd_pos == "rt/head/cmd_pos");
  CHECK(o.topics.imu == "rt/imu/status");
  CHECK(o.topics.set_zero == "rt/arm/cmd_set_zero");
  // B.7: <package>::msg::dds_::<Message>_.
  CHECK(o.types.motor_status == "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
  CHECK(o.types.motor_ctrl == "bodyctrl_msgs::msg::dds_::CmdMotorCtrl_");
  CHECK(o.types.motor_speed == "bodyctrl_msgs::msg::dds_::CmdSetMotorSpeed_");
  CHECK(o.types.motor_position == "bodyctrl_msgs::msg::dds_::CmdSetMotorPosition_");
  CHECK(o.types.imu == "bodyctrl_msgs::msg::dds_::Imu_");
  CHECK(o.types.string == "std_msgs::msg::dds_::String_");
  // B.5: status observed RELIABLE + VOLATILE, rclcpp's depth 10; ROS_DOMAIN_ID 0 (UNVERIFIED).
  CHECK(o.state_qos.reliable == true);
  CHECK(o.state_qos.depth == 10);
  CHECK_FALSE(o.state_qos.transient_local);
  CHECK(o.command_qos.reliable == true);
  CHECK(o.dds.domain == 0);
  CHECK(o.position_command == tk::PositionCommand::hybrid);
  CHECK(o.speed_unit == tk::SpeedUnit::rad_per_s);
}

TEST_CASE("tienkung topics: the state table is the model's limbs - legs first - then the IMU", "[tienkung][topics]") {
  tk::BackendOptions o;
  o.topics.of(Limb::head).status = "rt/my_head/status";
  const auto pro = ProTopics::state_topics(o);
  STATIC_REQUIRE(std::tuple_size_v<decltype(pro)> == 5);
  CHECK(std::get<0>(pro).name == "rt/leg/status");
  CHECK(std::get<1>(pro).name == "rt/waist/status");
  CHECK(std::get<2>(pro).name == "rt/arm/status");
  CHECK(std::get<3>(pro).name == "rt/my_head/status");
  CHECK(std::get<ProTopics::k_imu_topic>(pro).name == "rt/imu/status");
  CHECK(std::string(std::get<0>(pro).descriptor->m_typename) == "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
  const auto lite = LiteTopics::state_topics(o);
  STATIC_REQUIRE(std::tuple_size_v<decltype(lite)> == 3);
  CHECK(std::get<1>(lite).name == "rt/arm/status");
  CHECK(std::get<LiteTopics::k_imu_topic>(lite).name == "rt/imu/status");
  // Whatever the layout, the one type name robots use.
  CHECK(std::string(std::get<0>(lite).descriptor->m_typename) == "bodyctrl_msgs::msg::dds_::MotorStatusMsg_");
}

TEST_CASE("tienkung topics: each limb's cmd_vel comes before its cmd_ctrl - the servo topics after all",
          "[tienkung][topics]") {
  const tk::BackendOptions o;
  const auto t = ProTopics::command_topics(o);
  STATIC_REQUIRE(std::tuple_size_v<decltype(t)> == 12);
  STATIC_REQUIRE(ProTopics::speed_topic_index(2) == 4);
  STATIC_REQUIRE(ProTopics::ctrl_topic_index(2) == 5);
  STATIC_REQUIRE(ProTopics::position_topic_index(0) == 8);
  CHECK(std::get<ProTopics::speed_topic_index(0)>(t).name == "rt/leg/cmd_vel");
  CHECK(std::get<ProTopics::ctrl_topic_index(0)>(t).name == "rt/leg/cmd_ctrl");
  CHECK(std::get<ProTopics::speed_topic_index(1)>(t).name == "rt/waist/cmd_vel");
  CHECK(std::get<ProTopics::ctrl_topic_index(2)>(t).name == "rt/arm/cmd_ctrl");
  CHECK(std::get<ProTopics::ctrl_topic_index(3)>(t).name == "rt/head/cmd_ctrl");
  CHECK(std::get<ProTopics::position_topic_index(0)>(t).name == "rt/leg/cmd_pos");
  CHECK(std::get<ProTopics::position_topic_index(3)>(t).name == "rt/head/cmd_pos");
  CHECK(std::string(std::get<1>(t).descriptor->m_typename) == "bodyctrl_msgs::msg::dds_::CmdMotorCtrl_");
  CHECK(std::string(std::get<0>(t).descriptor->m_typename) == "bodyctrl_msgs::msg::dds_::CmdSetMotorSpeed_");
  STATIC_REQUIRE(std::tuple_size_v<decltype(LiteTopics::command_topics(o))> == 6);
}

TEST_CASE("tienkung topics: upper-body-only never writes the legs - servo mode moves positions to cmd_pos",
          "[tienkung][topics]") {
  praxis::JointCommand<P> c;  // every joint in position mode
  for (std::size_t j = 0; j < P; ++j) c.kp[static_cast<Eigen::Index>(j)] = 10.0;
  tk::LimbCtrl ctrl;
  tk::LimbPosition position;
  tk::LimbSpeed speed;
  const praxis::TimePoint now = praxis::TimePoint{} + 1s;

  tk::BackendOptions o;
  ProTopics::Context hybrid(o);
  CHECK(ProTopics::encode_ctrl<0>(c, now, hybrid, ctrl));
  CHECK(ctrl.cmds.size == 12);
  CHECK_FALSE(ProTopics::encode_position<0>(c, now, hybrid, position));  // hybrid: no cmd_pos

  o.upper_body_only = true;
  ProTopics::Context upper(o);
  CHECK_FALSE(ProTopics::encode_ctrl<0>(c, now, upper, ctrl));
  REQUIRE(ProTopics::encode_ctrl<2>(c, now, upper, ctrl));
  CHECK(ctrl.cmds.size == 14);
  CHECK(ctrl.cmds[0].name == 11);
  auto v = c;
  v.mode.fill(praxis::JointMode::velocity);
  CHECK_FALSE(ProTopics::encode_speed<0>(v, now, upper, speed));
  REQUIRE(ProTopics::encode_speed<1>(v, now, upper, speed));
  CHECK(speed.cmds[0].name == 31);

  o.upper_body_only = false;
  o.position_command = tk::PositionCommand::servo;
  ProTopics::Context servo(o);
  REQUIRE(ProTopics::encode_position<0>(c, now, servo, position));
  CHECK(position.cmds.size == 12);
  CHECK(position.cmds[0].name == 51);
  o.upper_body_only = true;
  ProTopics::Context servo_upper(o);
  CHECK_FALSE(ProTopics::encode_position<0>(c, now, servo_upper, position));
  CHECK(ProTopics::encode_position<3>(c, now, servo_upper, position));
}

// What DdsBackend::read() does with a leg status: decode it, then judge the others.
void legs_at(praxis::TimePoint t, praxis::RobotState<P>& s, ProTopics::Context& c) {
  REQUIRE(ProTopics::decode_limb<0>(status_of<Pro>(Limb::leg), t, s, c));
  ProTopics::complete_state(t, s, c);
}

TEST_CASE("tienkung topics: on a leg status the other limbs and the IMU are judged silent or heard",
          "[tienkung][topics]") {
  tk::BackendOptions o;  // limb_timeout 50 ms, imu_timeout 100 ms
  ProTopics::Context c(o);
  praxis::RobotState<P> s;
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;

  // Only the legs heard: every other limb offline, the IMU NaN (never heard counts as silent).
  legs_at(t0, s, c);
  CHECK_FALSE(offline(s, 0));
  for (const std::size_t j : {12, 13, 26, 27, 29}) CHECK(offline(s, j));
  CHECK(std::isnan(s.imu.gyro.x()));

  // Everything heard: nothing offline, the IMU back.
  REQUIRE(ProTopics::decode_limb<1>(status_of<Pro>(Limb::waist), t0 + 1ms, s, c));
  REQUIRE(ProTopics::decode_limb<2>(status_of<Pro>(Limb::arm), t0 + 1ms, s, c));
  REQUIRE(ProTopics::decode_limb<3>(status_of<Pro>(Limb::head), t0 + 1ms, s, c));
  REQUIRE(ProTopics::decode_imu_topic(tk::ImuReading{{0, 0, 0, 1}, {0.1, 0, 0}, {0, 0, 9.81}, 0}, t0 + 1ms, s, c));
  legs_at(t0 + 2ms, s, c);
  for (std::size_t j = 0; j < P; ++j) CHECK_FALSE(offline(s, j));
  CHECK(s.imu.gyro.x() == Approx(0.1));

  // The legs speak every 10 ms, the others fall silent: 51 ms later the other limbs are offline;
  // the IMU is not yet (its timeout is 100 ms).
  for (int ms = 12; ms <= 42; ms += 10) legs_at(t0 + std::chrono::milliseconds(ms), s, c);
  CHECK_FALSE(offline(s, 13));
  legs_at(t0 + 52ms, s, c);
  CHECK(offline(s, 13));
  CHECK(offline(s, 12));
  CHECK_FALSE(offline(s, 0));
  CHECK_FALSE(std::isnan(s.imu.gyro.x()));
  // A limb that speaks again is online at once; the IMU silent for 101 ms is NaN.
  for (int ms = 62; ms <= 92; ms += 10) legs_at(t0 + std::chrono::milliseconds(ms), s, c);
  REQUIRE(ProTopics::decode_limb<2>(status_of<Pro>(Limb::arm), t0 + 100ms, s, c));
  legs_at(t0 + 102ms, s, c);
  CHECK_FALSE(offline(s, 13));
  CHECK(offline(s, 12));  // the waist is still silent
  CHECK(std::isnan(s.imu.gyro.x()));
}

TEST_CASE("tienkung topics: after a pause of the whole link the others are judged from the legs' return",
          "[tienkung][topics][faults]") {
  tk::BackendOptions o;  // limb_timeout 50 ms, imu_timeout 100 ms
  ProTopics::Context c(o);
  praxis::RobotState<P> s;
  const praxis::TimePoint t0 = praxis::TimePoint{} + 10s;
  const auto everyone_at = [&](praxis::TimePoint t) {
    REQUIRE(ProTopics::decode_limb<1>(status_of<Pro>(Limb::waist), t, s, c));
    REQUIRE(ProTopics::decode_limb<2>(status_of<Pro>(Limb::arm), t, s, c));
    REQUIRE(ProTopics::decode_limb<3>(status_of<Pro>(Limb::head), t, s, c));
    REQUIRE(ProTopics::decode_imu_topic(tk::ImuReading{{0, 0, 0, 1}, {0.1, 0, 0}, {0, 0, 9.81}, 0}, t, s, c));
  };
  everyone_at(t0);
  legs_at(t0, s, c);
  REQUIRE(s.first_faulted_joint() == P);

  // Nothing at all for 300 ms, then the legs' status a moment before the others': nobody was silent
  // while the legs spoke, so nothing is offline and the IMU is kept.
  legs_at(t0 + 300ms, s, c);
  CHECK(s.first_faulted_joint() == P);
  CHECK(s.all_finite());
  // The others come back, except the head; the legs speak on every 10 ms.
  REQUIRE(ProTopics::decode_limb<1>(status_of<Pro>(Limb::waist), t0 + 301ms, s, c));
  REQUIRE(ProTopics::decode_limb<2>(status_of<Pro>(Limb::arm), t0 + 301ms, s, c));
  for (int ms = 310; ms <= 350; ms += 10) legs_at(t0 + std::chrono::milliseconds(ms), s, c);
  CHECK(s.first_faulted_joint() == P);  // the head silent for 50 ms since the legs came back: not yet
  legs_at(t0 + 351ms, s, c);
  CHECK(s.first_faulted_joint() == 27);  // now it is: the pause does not hide a limb that stayed away
  CHECK(s.all_finite());                 // the IMU has had 51 of its 100 ms
  for (int ms = 360; ms <= 400; ms += 10) legs_at(t0 + std::chrono::milliseconds(ms), s, c);
  CHECK(s.all_finite());
  legs_at(t0 + 401ms, s, c);
  CHECK_FALSE(s.all_finite());  // and neither an IMU that stayed away
}

TEST_CASE("tienkung topics: speeds on an rpm wire are read back in rad/s and feed the stops in rad/s",
          "[tienkung][topics]") {
  tk::BackendOptions o;
  o.speed_unit = tk::SpeedUnit::rpm;
  ProTopics::Context c(o);
  praxis::RobotState<P> s;
  const praxis::TimePoint t0 = praxis::Clock::now();
  const float rpm = tk::wire_speed_per_rad_s(tk::SpeedUnit::rpm);
  REQUIRE(ProTopics::decode_limb<0>(status_of<Pro>(Limb::leg, 1.0f * rpm), t0, s, c));
  CHECK(s.dq[0] == Approx(1.0));
  // 0.03 rad/s on the wire is 0.03 * rpm: below stopped_speed once converted, so a stop can be
  // confirmed; read unconverted (0.29) it never could be.
  praxis::JointCommand<P> v;
  v.mode.fill(praxis::JointMode::none);
  v.mode[0] = praxis::JointMode::velocity;
  tk::LimbSpeed speed;
  REQUIRE(ProTopics::encode_speed<0>(v, t0, c, speed));
  praxis::JointCommand<P> stop;
  stop.mode.fill(praxis::JointMode::none);
  REQUIRE(ProTopics::decode_limb<0>(status_of<Pro>(Limb::leg, 0.03f * rpm), praxis::Clock::now(), s, c));
  REQUIRE(ProTopics::encode_speed<0>(stop, t0, c, speed));  // armed
  bool confirmed = false;
  for (int k = 0; k < 40 && !confirmed; ++k) {
    std::this_thread::sleep_for(2ms);
    REQUIRE(ProTopics::decode_limb<0>(status_of<Pro>(Limb::leg, 0.03f * rpm), praxis::Clock::now(), s, c));
    confirmed = !ProTopics::encode_speed<0>(stop, t0, c, speed);
  }
  CHECK(confirmed);
  CHECK(c.stops.stops_confirmed() == 1);
}

}  // namespace tienkung_topics_test
