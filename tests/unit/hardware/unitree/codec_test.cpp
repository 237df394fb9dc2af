// The Unitree codec, the controller's side (codec.hpp): fields where docs/backends/unitree_wire.md
// puts them, states and remote bytes as decoded, CRC checks. The robot's side builds the inputs.

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <limits>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace unitree_codec_test {

using praxis::unitree::G1;
using praxis::unitree::Go2;
namespace u = praxis::unitree;

namespace {
template <class T>
const unsigned char* bytes(const T& m) {
  return reinterpret_cast<const unsigned char*>(&m);
}
float float_at(const unsigned char* b, std::size_t offset) {
  float f;
  std::memcpy(&f, b + offset, 4);
  return f;
}
praxis::JointCommand<12> go2_command() {
  praxis::JointCommand<12> c;
  for (int j = 0; j < 12; ++j) {
    c.q[j] = 0.1 * j;
    c.dq[j] = -0.01 * j;
    c.kp[j] = 40.0 + j;
    c.kd[j] = 1.5;
    c.tau_ff[j] = 0.25;
  }
  return c;
}
}  // namespace

TEST_CASE("go LowCmd: header, motors, unused slots and CRC at the fact sheet's offsets", "[unitree][codec]") {
  unitree_go_msg_dds__LowCmd_ msg;
  const auto c = go2_command();
  u::encode_command<Go2>(c, {}, msg);
  const auto* b = bytes(msg);
  CHECK(b[0] == 0xFE);
  CHECK(b[1] == 0xEF);
  CHECK(b[2] == 0xFF);                          // level_flag
  CHECK(b[22] == 0);                            // padding is zero
  CHECK(b[23] == 0);
  const std::size_t m3 = 24 + 36 * 3;           // motor_cmd[3], stride 36
  CHECK(b[m3] == 0x01);                         // mode
  CHECK(b[m3 + 1] == 0);                        // padding after mode
  CHECK(float_at(b, m3 + 4) == Approx(0.3f));   // q
  CHECK(float_at(b, m3 + 8) == Approx(-0.03f)); // dq
  CHECK(float_at(b, m3 + 12) == 0.25f);         // tau
  CHECK(float_at(b, m3 + 16) == 43.0f);         // kp
  CHECK(float_at(b, m3 + 20) == 1.5f);          // kd
  const std::size_t m15 = 24 + 36 * 15;         // an unused slot
  CHECK(float_at(b, m15 + 4) == u::k_pos_stop);
  CHECK(float_at(b, m15 + 8) == u::k_vel_stop);
  CHECK(float_at(b, m15 + 16) == 0.0f);
  std::uint32_t crc;
  std::memcpy(&crc, b + 808, 4);
  CHECK(crc == u::message_crc(msg));
}

TEST_CASE("go LowCmd with stop values everywhere is the fact sheet's vector V2", "[unitree][codec]") {
  praxis::JointCommand<12> c;
  c.q.setConstant(2.146e9);
  c.dq.setConstant(16000.0);
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(c, {}, msg);
  CHECK(msg.crc == 0x06E577CDu);
}

TEST_CASE("hg LowCmd: mode_pr, echoed mode_machine, enable and disable", "[unitree][codec]") {
  praxis::JointCommand<29> c;
  c.q.setConstant(0.2);
  c.kp.setConstant(60.0);
  c.mode[28] = praxis::JointMode::disabled;
  unitree_hg_msg_dds__LowCmd_ msg;
  u::encode_command<G1>(c, {.mode_pr = 1, .mode_machine = 5}, msg);
  const auto* b = bytes(msg);
  CHECK(b[0] == 1);  // mode_pr
  CHECK(b[1] == 5);  // mode_machine
  CHECK(b[2] == 0);  // padding
  CHECK(b[3] == 0);
  CHECK(b[4 + 28 * 0] == 1);                       // motor 0 enabled
  CHECK(float_at(b, 4 + 28 * 10 + 4) == 0.2f);     // motor 10 q
  CHECK(b[4 + 28 * 28] == 0);                      // motor 28 disabled
  CHECK(float_at(b, 4 + 28 * 28 + 16) == 0.0f);    // and no gains
  CHECK(b[4 + 28 * 30] == 0);                      // unused slot
  std::uint32_t crc;
  std::memcpy(&crc, b + 1000, 4);
  CHECK(crc == u::message_crc(msg));
}

TEST_CASE("hg LowCmd: velocity and torque modes are the PD law without its position (and damping) term",
          "[unitree][codec]") {
  praxis::JointCommand<29> c;
  c.q.setConstant(0.2);
  c.dq.setConstant(1.5);
  c.kp.setConstant(60.0);
  c.kd.setConstant(2.0);
  c.tau_ff.setConstant(3.0);
  c.mode[1] = praxis::JointMode::velocity;
  c.mode[2] = praxis::JointMode::torque;
  unitree_hg_msg_dds__LowCmd_ msg;
  u::encode_command<G1>(c, {.mode_pr = 0, .mode_machine = 5}, msg);
  const auto* b = bytes(msg);
  auto motor = [&](int slot) { return 4 + 28 * slot; };  // mode, q @4, dq @8, tau @12, kp @16, kd @20
  const int s0 = static_cast<int>(u::Wire<G1>::slot[0]), s1 = static_cast<int>(u::Wire<G1>::slot[1]),
            s2 = static_cast<int>(u::Wire<G1>::slot[2]);
  CHECK(float_at(b, motor(s0) + 16) == 60.0f);  // position: kp and kd as given
  CHECK(float_at(b, motor(s0) + 20) == 2.0f);
  CHECK(b[motor(s1)] == 1);                      // velocity: enabled, no position term
  CHECK(float_at(b, motor(s1) + 16) == 0.0f);
  CHECK(float_at(b, motor(s1) + 20) == 2.0f);
  CHECK(float_at(b, motor(s1) + 8) == 1.5f);
  CHECK(b[motor(s2)] == 1);                      // torque: only the feed-forward torque
  CHECK(float_at(b, motor(s2) + 16) == 0.0f);
  CHECK(float_at(b, motor(s2) + 20) == 0.0f);
  CHECK(float_at(b, motor(s2) + 12) == 3.0f);
}

TEST_CASE("hg LowState: a driver's motorstate error code and temperature reach the joint's health",
          "[unitree][codec]") {
  praxis::RobotState<29> truth;
  truth.health[4].error_code = 0x21;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<G1>(truth, {.tick = 1, .mode_machine = 6, .mode_pr = 0}, msg);
  msg.motor_state[u::Wire<G1>::slot[7]].temperature[0] = 61;
  msg.crc = u::message_crc(msg);
  praxis::RobotState<29> s;
  REQUIRE(u::decode_state<G1>(msg, {}, s));
  CHECK(s.health[4].faults == praxis::k_joint_driver_error);
  CHECK(s.health[4].error_code == 0x21);
  CHECK(s.first_faulted_joint() == 4);
  CHECK(s.health[7].ok());
  CHECK(s.health[7].temperature == 61.0f);
}

TEST_CASE("states round-trip: a bad CRC is rejected and changes nothing", "[unitree][codec]") {
  praxis::RobotState<29> s;
  for (int j = 0; j < 29; ++j) {
    s.q[j] = 0.01 * j;
    s.dq[j] = 0.1;
    s.tau[j] = -1.0;
  }
  s.imu.orientation = praxis::Quaternion(Eigen::AngleAxisd(0.3, praxis::Vector3::UnitX()));
  s.imu.gyro = {0.1, 0.2, 0.3};
  s.update_derived();
  s.gamepad.set(praxis::GamepadButton::A, true);
  s.gamepad.lx = 0.5f;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<G1>(s, {.tick = 1234, .mode_machine = 5, .mode_pr = 0}, msg);
  CHECK(msg.mode_machine == 5);
  CHECK(bytes(msg)[2032 + 3] == 0x01);  // wireless_remote byte 3 bit 0: A (bit 8)

  praxis::RobotState<29> back;
  const praxis::TimePoint t{std::chrono::seconds(7)};
  REQUIRE(u::decode_state<G1>(msg, t, back));
  CHECK(back.q[17] == Approx(0.17));
  CHECK(back.tau[0] == -1.0);
  CHECK(back.imu.orientation.x() == Approx(s.imu.orientation.x()).epsilon(1e-6));
  CHECK(back.projected_gravity.y() == Approx(s.projected_gravity.y()).epsilon(1e-5));
  CHECK(back.gamepad.pressed(praxis::GamepadButton::A));
  CHECK(back.gamepad.lx == 0.5f);
  CHECK(back.sequence == 1234);
  CHECK(back.stamp == t);

  msg.motor_state[3].q = 9.0f;  // corrupted in transit
  praxis::RobotState<29> untouched = back;
  CHECK(!u::decode_state<G1>(msg, t, untouched));
  CHECK(untouched.q[3] == back.q[3]);
}

TEST_CASE("a correctly signed LowState with a non-finite IMU rpy is refused", "[unitree][codec]") {
  // Found by the unitree_state fuzz target: rpy was copied without the finiteness check the
  // quaternion, gyroscope and accelerometer get.
  praxis::RobotState<29> s;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<G1>(s, {.tick = 1}, msg);
  msg.imu_state.rpy[1] = std::numeric_limits<float>::quiet_NaN();
  msg.crc = u::message_crc(msg);
  praxis::RobotState<29> out;
  out.q.setConstant(0.5);
  CHECK(!u::decode_state<G1>(msg, {}, out));
  CHECK(out.q[0] == 0.5);
  msg.imu_state.rpy[1] = 0.0f;
  msg.crc = u::message_crc(msg);
  CHECK(u::decode_state<G1>(msg, {}, out));
}

TEST_CASE("wireless remote bits and axes follow the fact sheet", "[unitree][codec]") {
  std::uint8_t r[40] = {};
  r[2] = 0b0001'0001;  // R1 (bit 0), R2 (bit 4)
  r[3] = 0b1000'0010;  // B (bit 9), left (bit 15)
  const float ly = -0.75f;
  std::memcpy(r + 20, &ly, 4);
  const auto g = u::decode_remote(r);
  using B = praxis::GamepadButton;
  CHECK(g.pressed(B::R1));
  CHECK(g.pressed(B::R2));
  CHECK(g.pressed(B::B));
  CHECK(g.pressed(B::left));
  CHECK(!g.pressed(B::A));
  CHECK(g.ly == -0.75f);
  std::uint8_t again[40];
  u::encode_remote(g, again);
  CHECK(std::memcmp(r, again, 40) == 0);
}

TEST_CASE("a LowState whose remote has a NaN stick is used, and the gamepad keeps its last reading",
          "[unitree][codec]") {
  praxis::RobotState<29> s;
  s.q.setConstant(0.25);
  s.gamepad.ly = 0.5f;
  s.gamepad.set(praxis::GamepadButton::A, true);
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<G1>(s, {.tick = 1}, msg);
  praxis::RobotState<29> out;
  REQUIRE(u::decode_state<G1>(msg, {}, out));
  CHECK(out.gamepad.ly == 0.5f);

  // The next frame: joints moved, the remote's ly is NaN (CRC correct: it is what the robot sent).
  s.q.setConstant(0.5);
  u::encode_state<G1>(s, {.tick = 2}, msg);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(msg.wireless_remote + 20, &nan, 4);
  msg.crc = u::message_crc(msg);
  CHECK(u::decode_state<G1>(msg, {}, out));
  CHECK(out.q[0] == Approx(0.5));           // the joints count
  CHECK(out.gamepad.ly == 0.5f);            // the last reading, not NaN
  CHECK(out.gamepad.pressed(praxis::GamepadButton::A));
}

}  // namespace unitree_codec_test
