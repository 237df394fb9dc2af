// Tienkung's codec against hand-built bodyctrl_msgs samples: limb status into joints and health
// (error codes), the MotorStatus layout check (a wrong element stride is refused, not misread), the
// IMU, and the per-limb hybrid / velocity commands with the zero-speed rule.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/models.hpp"

namespace tienkung_codec_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
using tk::Limb;
using tk::Lite;
using tk::Pro;
using tk::StatusLayout;

constexpr std::size_t P = Pro::joint_count;

// A motor as a test robot reports it.
struct Motor {
  std::uint16_t id;
  float pos, speed, current, temperature;
  std::uint32_t error;
  float voltage;
};

// Motor k of the legs with distinct values.
Motor leg_motor(std::size_t k, std::uint32_t error = 0) {
  const auto x = static_cast<float>(k);
  return {Pro::motor_ids[k], 0.1f * x, -0.01f * x, 0.5f + x, 30.0f + x, error, 48.0f};
}

std::vector<Motor> legs(std::uint32_t error_on_knee = 0) {
  std::vector<Motor> m;
  for (std::size_t k = 0; k < 12; ++k) m.push_back(leg_motor(k, k == 3 ? error_on_knee : 0));
  return m;
}

// The CDR image of the elements in a layout (little endian: name, 2 bytes padding, floats, the
// error, the voltage), what a robot of that generation puts after the sequence count.
std::vector<unsigned char> element_bytes(const std::vector<Motor>& motors, StatusLayout layout) {
  std::vector<unsigned char> out;
  const auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (const auto& m : motors) {
    const std::uint16_t pad = 0;
    put(&m.id, 2);
    put(&pad, 2);
    put(&m.pos, 4);
    put(&m.speed, 4);
    put(&m.current, 4);
    put(&m.temperature, 4);
    if (layout != StatusLayout::without_error) put(&m.error, 4);
    if (layout == StatusLayout::with_voltage) put(&m.voltage, 4);
  }
  return out;
}

// What a CDR decoder configured for `Read` makes of elements a robot sent in layout `sent`: the
// sequence count is the robot's, the elements are read at Read's stride (on x86 the C struct and the
// CDR element have the same layout, so copying bytes is exactly that decoding).
template <StatusLayout Read>
struct Decoded {
  using Wire = tk::StatusWire<Read>;
  std::vector<typename Wire::Element> elements;
  typename Wire::Message message{};
  Decoded(const std::vector<Motor>& motors, StatusLayout sent) {
    auto bytes = element_bytes(motors, sent);
    const std::size_t stride = Wire::element_bytes;
    static_assert(sizeof(typename Wire::Element) == Wire::element_bytes);
    elements.resize(motors.size());
    bytes.resize(std::max(bytes.size(), motors.size() * stride), 0);  // a longer read past the end: zeros
    for (std::size_t k = 0; k < motors.size(); ++k) std::memcpy(&elements[k], bytes.data() + k * stride, stride);
    message.status._length = message.status._maximum = static_cast<std::uint32_t>(elements.size());
    message.status._buffer = elements.data();
    message.status._release = false;
  }
};

template <StatusLayout L, Limb Lb = Limb::leg, class M = Pro>
const char* from_wire(const std::vector<Motor>& motors, StatusLayout sent, tk::LimbStatus& out) {
  Decoded<L> d(motors, sent);
  return tk::limb_status_from_wire<M, Lb, L>(d.message, out);
}

TEST_CASE("tienkung codec: error codes become joint health, the raw code kept", "[tienkung][codec]") {
  struct Row {
    std::uint32_t code;
    std::uint8_t faults;
  };
  const Row rows[] = {
      {0, praxis::k_joint_ok},
      {33072, praxis::k_joint_offline},
      {33073, praxis::k_joint_over_range},
      {1, praxis::k_joint_driver_error | praxis::k_joint_overheated},
      {2, praxis::k_joint_driver_error},
      {3, praxis::k_joint_driver_error},
      {4, praxis::k_joint_driver_error | praxis::k_joint_overheated},
      {5, praxis::k_joint_driver_error},
      {6, praxis::k_joint_driver_error},
      {7, praxis::k_joint_driver_error},
      {8, praxis::k_joint_driver_error},
      {12345, praxis::k_joint_driver_error},  // not in the manual: still a fault
  };
  for (const auto& r : rows) {
    INFO("error " << r.code);
    const auto h = tk::health_from_error(r.code, 41.5f);
    CHECK(h.faults == r.faults);
    CHECK(h.error_code == r.code);
    CHECK(h.temperature == 41.5f);
    CHECK(h.ok() == (r.code == 0));
  }
}

TEST_CASE("tienkung codec: a leg status fills the legs' q, dq, tau and health, nothing else", "[tienkung][codec]") {
  tk::LimbStatus status;
  REQUIRE(from_wire<StatusLayout::with_error>(legs(33072), StatusLayout::with_error, status) == nullptr);
  REQUIRE(status.motors.size == 12);

  praxis::RobotState<P> s;
  s.q.setConstant(-7.0);
  REQUIRE(tk::decode_limb_status<Pro, Limb::leg>(status, s));
  for (std::size_t k = 0; k < 12; ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    INFO("joint " << Pro::joints[k].name);
    CHECK(s.q[i] == Approx(0.1 * static_cast<double>(k)));
    CHECK(s.dq[i] == Approx(-0.01 * static_cast<double>(k)));
    CHECK(s.tau[i] == Approx((0.5 + static_cast<double>(k)) * Pro::ct_scale[k]));
    CHECK(s.health[k].temperature == Approx(30.0 + static_cast<double>(k)));
  }
  CHECK(s.tau[3] == Approx(3.5 * 2.673));  // the knee's factor
  CHECK(s.health[3].faults == praxis::k_joint_offline);
  CHECK(s.health[3].error_code == 33072);
  CHECK(s.first_faulted_joint() == 3);
  CHECK(s.q[12] == -7.0);  // the waist is not the legs' business
  CHECK(s.q[29] == -7.0);
}

TEST_CASE("tienkung codec: the order of elements on the wire does not matter, their names do", "[tienkung][codec]") {
  auto motors = legs();
  std::reverse(motors.begin(), motors.end());
  tk::LimbStatus status;
  REQUIRE(from_wire<StatusLayout::with_error>(motors, StatusLayout::with_error, status) == nullptr);
  praxis::RobotState<P> s;
  REQUIRE(tk::decode_limb_status<Pro, Limb::leg>(status, s));
  CHECK(s.q[11] == Approx(1.1));  // motor 66, the last leg motor, was the first element
  CHECK(s.q[0] == Approx(0.0));
}

TEST_CASE("tienkung codec: the configured MotorStatus layout reads its own layout and refuses the others",
          "[tienkung][codec][layout]") {
  tk::LimbStatus status;
  // Each layout reads what it is configured for.
  CHECK(from_wire<StatusLayout::without_error>(legs(), StatusLayout::without_error, status) == nullptr);
  CHECK(status.motors[3].error == 0);
  CHECK(std::isnan(status.motors[3].voltage));
  CHECK(from_wire<StatusLayout::with_error>(legs(8), StatusLayout::with_error, status) == nullptr);
  CHECK(status.motors[3].error == 8);
  CHECK(from_wire<StatusLayout::with_voltage>(legs(2), StatusLayout::with_voltage, status) == nullptr);
  CHECK(status.motors[3].error == 2);
  CHECK(status.motors[3].voltage == 48.0f);

  // A shorter element than the robot's: the names after the first come from inside other elements.
  const char* why = from_wire<StatusLayout::without_error>(legs(), StatusLayout::with_error, status);
  REQUIRE(why != nullptr);
  CHECK(std::string(why).find("layout") != std::string::npos);
  why = from_wire<StatusLayout::with_error>(legs(), StatusLayout::with_voltage, status);
  REQUIRE(why != nullptr);
  CHECK(std::string(why).find("layout") != std::string::npos);
  // Even with error codes that happen to look like head motor ids (1-3) in the misread name field.
  auto motors = legs();
  for (auto& m : motors) m.error = 2;
  CHECK(from_wire<StatusLayout::without_error>(motors, StatusLayout::with_error, status) != nullptr);
  // A longer element than the robot's reads past the elements; Cyclone refuses that before the
  // codec (the sample holds too few bytes); were it read, the names would be wrong too.
  CHECK(from_wire<StatusLayout::with_voltage>(legs(), StatusLayout::with_error, status) != nullptr);
}

TEST_CASE("tienkung codec: incomplete, duplicated, foreign and non-finite statuses are refused", "[tienkung][codec]") {
  tk::LimbStatus status;
  auto missing = legs();
  missing.pop_back();
  CHECK(std::string(from_wire<StatusLayout::with_error>(missing, StatusLayout::with_error, status)) ==
        "MotorStatusMsg: a motor of the limb is missing");
  auto twice = legs();
  twice[5].id = twice[4].id;
  CHECK(std::string(from_wire<StatusLayout::with_error>(twice, StatusLayout::with_error, status)) ==
        "MotorStatusMsg: a motor is named twice");
  auto nan = legs();
  nan[2].pos = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::string(from_wire<StatusLayout::with_error>(nan, StatusLayout::with_error, status)) ==
        "MotorStatusMsg: a position, speed, current or temperature is not finite");
  // The arms' status arriving on the legs' decoder (a crossed topic).
  std::vector<Motor> arm;
  for (std::size_t j = 13; j < 27; ++j) arm.push_back({Pro::motor_ids[j], 0, 0, 0, 30, 0, 0});
  CHECK(from_wire<StatusLayout::with_error>(arm, StatusLayout::with_error, status) != nullptr);
  CHECK(from_wire<StatusLayout::with_error, Limb::arm>(arm, StatusLayout::with_error, status) == nullptr);
  auto ultra = legs();
  ultra[0].voltage = -1.0f;
  CHECK(from_wire<StatusLayout::with_voltage>(ultra, StatusLayout::with_voltage, status) != nullptr);

  // Checked again on the reading side (a loopback peer hands values over undecoded).
  tk::LimbStatus direct;
  direct.motors.size = 1;
  direct.motors[0] = {51, 0, 0, 0, 30, 0, 0};
  praxis::RobotState<P> s;
  CHECK_FALSE(tk::decode_limb_status<Pro, Limb::leg>(direct, s));
}

TEST_CASE("tienkung codec: the Lite's arm topic may carry motors the model does not drive", "[tienkung][codec]") {
  std::vector<Motor> arm;
  for (const std::uint16_t id : {11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27}) {
    arm.push_back({id, 0.01f * id, 0, 1.0f, 30, id == 22 ? 5u : 0u, 0});
  }
  tk::LimbStatus status;
  REQUIRE(from_wire<StatusLayout::with_error, Limb::arm, Lite>(arm, StatusLayout::with_error, status) == nullptr);
  praxis::RobotState<Lite::joint_count> s;
  REQUIRE(tk::decode_limb_status<Lite, Limb::arm>(status, s));
  CHECK(s.q[12] == Approx(0.11));  // motor 11
  CHECK(s.q[19] == Approx(0.24));  // motor 24
  CHECK(s.health[17].faults == praxis::k_joint_driver_error);  // motor 22: stall
  CHECK(s.health[17].error_code == 5);
  // But the Lite's own arm motors must all be there.
  arm.erase(arm.begin() + 3);  // motor 14
  CHECK(from_wire<StatusLayout::with_error, Limb::arm, Lite>(arm, StatusLayout::with_error, status) != nullptr);
}

TEST_CASE("tienkung codec: the IMU gives orientation, gyro and accelerometer: bad readings are refused",
          "[tienkung][codec][imu]") {
  tk::ImuWire w{};
  const double half = 0.5 * 0.3;  // 0.3 rad of roll
  w.orientation = {std::sin(half), 0.0, 0.0, std::cos(half)};
  w.angular_velocity = {0.1, -0.2, 0.3};
  w.linear_acceleration = {0.0, 2.9, 9.3};
  tk::ImuReading r;
  REQUIRE(tk::imu_from_wire(w, r) == nullptr);
  praxis::RobotState<P> s;
  REQUIRE(tk::decode_imu(r, s));
  CHECK(s.imu.rpy[0] == Approx(0.3));
  CHECK(s.imu.gyro[2] == Approx(0.3));
  CHECK(s.imu.accelerometer[1] == Approx(2.9));
  CHECK(s.projected_gravity.y() == Approx(-std::sin(0.3)));

  auto zero = w;
  zero.orientation = {0, 0, 0, 0};  // an unset quaternion
  CHECK(std::string(tk::imu_from_wire(zero, r)) == "Imu: the orientation is not a unit quaternion");
  auto broken = w;
  broken.error = 3;
  CHECK(std::string(tk::imu_from_wire(broken, r)) == "Imu: the IMU reports an error");
  CHECK_FALSE(tk::decode_imu(r, s));
  CHECK(s.imu.rpy[0] == Approx(0.3));  // unchanged
  auto nan = w;
  nan.angular_velocity.x = std::numeric_limits<double>::infinity();
  CHECK(std::string(tk::imu_from_wire(nan, r)) == "Imu: a value is not finite");
}

praxis::JointCommand<P> none_command() {
  praxis::JointCommand<P> c;
  c.mode.fill(praxis::JointMode::none);
  return c;
}

TEST_CASE("tienkung codec: cmd_ctrl carries a limb's position, torque and disabled joints by motor id",
          "[tienkung][codec][command]") {
  auto c = none_command();
  // Arm joints 13.. (motors 11..): a position joint, a torque joint, a disabled one, a velocity one.
  c.mode[13] = praxis::JointMode::position;
  c.q[13] = 0.2;
  c.dq[13] = 0.05;
  c.kp[13] = 30;
  c.kd[13] = 10;
  c.tau_ff[13] = 0.5;
  c.mode[15] = praxis::JointMode::torque;
  c.kp[15] = 99;  // not sent: torque mode has no gains
  c.tau_ff[15] = -1.5;
  c.mode[20] = praxis::JointMode::disabled;
  c.kp[20] = 50;
  c.mode[22] = praxis::JointMode::velocity;
  c.dq[22] = 1.0;

  tk::LimbCtrl arm;
  REQUIRE(tk::encode_limb_ctrl<Pro, Limb::arm>(c, arm));
  REQUIRE(arm.cmds.size == 3);
  CHECK(arm.cmds[0].name == 11);
  CHECK(arm.cmds[0].kp == 30.0f);
  CHECK(arm.cmds[0].kd == 10.0f);
  CHECK(arm.cmds[0].pos == 0.2f);
  CHECK(arm.cmds[0].spd == 0.05f);
  CHECK(arm.cmds[0].tor == 0.5f);
  CHECK(arm.cmds[1].name == 13);
  CHECK(arm.cmds[1].kp == 0.0f);
  CHECK(arm.cmds[1].kd == 0.0f);
  CHECK(arm.cmds[1].tor == -1.5f);
  CHECK(arm.cmds[2].name == 21);  // disabled: all zero, no torque
  CHECK(arm.cmds[2].kp == 0.0f);
  CHECK(arm.cmds[2].tor == 0.0f);
  CHECK(arm.stamp.sec > 1'600'000'000);  // wall-clock time, as ROS stamps are

  tk::LimbCtrl leg;
  CHECK_FALSE(tk::encode_limb_ctrl<Pro, Limb::leg>(c, leg));  // no leg joint covered: nothing to send

  tk::CtrlToWire to_wire;
  tk::CmdMotorCtrlWire wire{};
  REQUIRE(to_wire(arm, wire));
  REQUIRE(wire.cmds._length == 3);
  CHECK_FALSE(wire.cmds._release);
  CHECK(wire.cmds._buffer[1].name == 13);
  CHECK(std::string(wire.header.frame_id).empty());
  CHECK(wire.header.stamp.sec == arm.stamp.sec);
}

TEST_CASE("tienkung codec: cmd_vel sends velocity joints, and speed 0 to every joint that left velocity mode",
          "[tienkung][codec][command][velocity]") {
  tk::VelocityStops<P> stops(tk::StopRule{0.05f, 20ms, 50ms});
  const praxis::TimePoint t0{std::chrono::seconds(100)};
  tk::LimbSpeed out;
  auto c = none_command();
  c.mode[0] = c.mode[3] = praxis::JointMode::velocity;
  c.dq[0] = 0.4;
  c.dq[3] = -0.2;
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(c, stops, t0, out));
  REQUIRE(out.cmds.size == 2);
  CHECK(out.cmds[0].name == 51);
  CHECK(out.cmds[0].spd == 0.4f);
  CHECK(out.cmds[0].cur == 10.0f);  // the legs' current limit
  CHECK(out.cmds[1].name == 54);
  CHECK(out.cmds[1].spd == -0.2f);
  CHECK(stops.phase(0) == tk::SpeedPhase::velocity);
  CHECK(stops.not_stopped() == 2);

  // Damping replaces the command (position mode, kp 0): speed 0 for both, on cmd_vel, and again
  // on every write while no status has confirmed them stopped.
  praxis::JointVector<P> q = praxis::JointVector<P>::Zero();
  praxis::JointCommand<P> damping;
  praxis::damp_covered(damping, q, 2.0);
  for (int k = 0; k < 3; ++k) {
    REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + std::chrono::microseconds(100 * k), out));
    REQUIRE(out.cmds.size == 2);
    CHECK(out.cmds[0].name == 51);
    CHECK(out.cmds[0].spd == 0.0f);
    CHECK(out.cmds[1].name == 54);
    CHECK(out.cmds[1].spd == 0.0f);
  }
  CHECK(stops.stopping() == 2);
  CHECK(stops.zeros_sent() == 6);

  // A fully still, error-free reading that arrived before any speed 0 left while the motor read
  // online proves nothing; the one that left at 1.1 ms did (the readings at 1 ms said online).
  stops.observe(0, 0.0f, 0, t0 + 1ms);
  stops.observe(3, -0.2f, 0, t0 + 1ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 1100us, out));
  CHECK(out.cmds.size == 2);
  // Joint 0 reads still; joint 3 goes offline (33072, speed 0): its speed 0 may be lost.
  stops.observe(0, 0.0f, 0, t0 + 2ms);
  stops.observe(3, 0.0f, 33072, t0 + 2ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 2100us, out));
  CHECK(out.cmds.size == 2);  // still for less than confirm_time: both again
  // 23 ms of stillness for joint 0: confirmed, no more speed 0 for it. Joint 3 keeps its stop.
  stops.observe(0, 0.01f, 0, t0 + 25ms);
  stops.observe(3, 0.0f, 33072, t0 + 25ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 25100us, out));
  REQUIRE(out.cmds.size == 1);
  CHECK(out.cmds[0].name == 54);
  CHECK(out.cmds[0].spd == 0.0f);
  CHECK(stops.phase(0) == tk::SpeedPhase::idle);
  CHECK(stops.stops_confirmed() == 1);
  // Joint 3 back online, turning at its latched speed: speed 0 goes on; then still, but only a
  // status older than status_timeout (50 ms) at the next write: not evidence.
  stops.observe(3, -0.2f, 0, t0 + 30ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 30100us, out));
  REQUIRE(out.cmds.size == 1);
  stops.observe(3, 0.0f, 0, t0 + 31ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 31100us, out));
  stops.observe(3, 0.0f, 0, t0 + 60ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 200ms, out));  // 140 ms stale
  REQUIRE(out.cmds.size == 1);
  CHECK(stops.phase(3) == tk::SpeedPhase::stopping);
  // Fresh readings again (the speed 0 at 201.1 ms is the first to count), still from 202 ms to
  // 223 ms: confirmed.
  stops.observe(3, 0.0f, 0, t0 + 201ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 201100us, out));
  stops.observe(3, 0.0f, 0, t0 + 202ms);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 202100us, out));
  stops.observe(3, 0.0f, 0, t0 + 223ms);
  CHECK_FALSE(tk::encode_limb_speed<Pro, Limb::leg>(damping, stops, t0 + 223100us, out));
  CHECK(stops.phase(3) == tk::SpeedPhase::idle);
  CHECK(stops.stops_confirmed() == 2);
  CHECK(stops.not_stopped() == 0);

  // A velocity target of 0 is sent as such, and the joint stays in velocity mode.
  c.dq[0] = 0.0;
  c.mode[3] = praxis::JointMode::none;
  const praxis::TimePoint t1 = t0 + 1s;
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(c, stops, t1, out));
  REQUIRE(out.cmds.size == 1);
  CHECK(out.cmds[0].spd == 0.0f);
  CHECK(stops.phase(0) == tk::SpeedPhase::velocity);

  // A joint the command stops covering (none) is stopped too; other limbs are not this one's.
  c.dq[0] = 1.0;
  c.mode[22] = praxis::JointMode::velocity;  // an arm joint
  c.dq[22] = 0.3;
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(c, stops, t1, out));
  REQUIRE(out.cmds.size == 1);
  REQUIRE(tk::encode_limb_speed<Pro, Limb::arm>(c, stops, t1, out));
  CHECK(out.cmds[0].name == 23);   // joint 22: right_shoulder_roll
  CHECK(out.cmds[0].cur == 8.0f);  // the arms' current limit
  const auto stop = none_command();
  REQUIRE(tk::encode_limb_speed<Pro, Limb::leg>(stop, stops, t1, out));
  REQUIRE(out.cmds.size == 1);
  CHECK(out.cmds[0].name == 51);
  CHECK(out.cmds[0].spd == 0.0f);
  CHECK(stops.phase(22) == tk::SpeedPhase::velocity);  // the arm's stop goes out on the arm's topic
  REQUIRE(tk::encode_limb_speed<Pro, Limb::arm>(stop, stops, t1, out));
  CHECK(out.cmds[0].name == 23);
  CHECK(out.cmds[0].spd == 0.0f);

  tk::SpeedToWire to_wire;
  tk::CmdSetMotorSpeedWire wire{};
  REQUIRE(to_wire(out, wire));
  CHECK(wire.cmds._length == 1);
  CHECK(wire.cmds._buffer[0].name == 23);
  CHECK(wire.cmds._buffer[0].cur == 8.0f);
}

}  // namespace tienkung_codec_test
