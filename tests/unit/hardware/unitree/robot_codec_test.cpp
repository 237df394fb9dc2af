// The robot's side of the Unitree wire (robot_codec.hpp): what decode_command accepts and refuses,
// and the LowState and wireless_remote bytes encode_state and encode_remote build.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

namespace {
namespace unitree_robot_codec_test {

using praxis::unitree::G1;
using praxis::unitree::G1_23;
using praxis::unitree::Go2;
using praxis::unitree::H1_2;
namespace u = praxis::unitree;

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

bool all_pass(const u::CommandCheck& c) {
  return c.crc_ok && c.header_ok && c.mode_ok && c.mode_machine_ok && c.finite_ok;
}

// ---- decode_command ----

TEST_CASE("commands decode back with every check passing", "[unitree][codec]") {
  const auto c = go2_command();
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(c, {}, msg);
  praxis::JointCommand<12> back;
  const auto check = u::decode_command<Go2>(msg, 0, back);
  CHECK(check.crc_ok);
  CHECK(check.header_ok);
  CHECK(check.mode_ok);
  CHECK(back.q[5] == Approx(0.5));
  CHECK(back.kp[11] == 51.0);

  msg.motor_cmd[4].kp = 1.0f;  // changed after signing
  CHECK(!u::decode_command<Go2>(msg, 0, back).crc_ok);

  praxis::JointCommand<29> g;
  unitree_hg_msg_dds__LowCmd_ hg;
  u::encode_command<G1>(g, {.mode_pr = 0, .mode_machine = 4}, hg);
  praxis::JointCommand<29> gb;
  CHECK(!u::decode_command<G1>(hg, 5, gb).mode_machine_ok);
  CHECK(u::decode_command<G1>(hg, 4, gb).mode_machine_ok);
}

TEST_CASE("a go LowCmd with a wrong head byte or level flag fails only the header check", "[unitree][codec]") {
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(go2_command(), {}, msg);
  praxis::JointCommand<12> out;
  REQUIRE(all_pass(u::decode_command<Go2>(msg, 0, out)));

  auto resign = [](unitree_go_msg_dds__LowCmd_& m) { m.crc = u::message_crc(m); };
  SECTION("head[0]") { msg.head[0] = 0xFF; }
  SECTION("head[1]") { msg.head[1] = 0x00; }
  SECTION("level flag: 0x00 is the high-level (sport) flag") { msg.level_flag = 0x00; }
  resign(msg);
  const auto check = u::decode_command<Go2>(msg, 0, out);
  CHECK(check.crc_ok);
  CHECK_FALSE(check.header_ok);
  CHECK(check.mode_ok);
  CHECK(check.mode_machine_ok);
}

TEST_CASE("a LowCmd with a NaN or an infinity in a joint slot fails only the finite check", "[unitree][codec]") {
  auto c = go2_command();
  unitree_go_msg_dds__LowCmd_ msg;
  praxis::JointCommand<12> out;
  u::encode_command<Go2>(c, {}, msg);
  CHECK(u::decode_command<Go2>(msg, 0, out).finite_ok);
  SECTION("q") { msg.motor_cmd[u::Wire<Go2>::slot[3]].q = std::numeric_limits<float>::quiet_NaN(); }
  SECTION("dq") { msg.motor_cmd[u::Wire<Go2>::slot[0]].dq = std::numeric_limits<float>::infinity(); }
  SECTION("kp") { msg.motor_cmd[u::Wire<Go2>::slot[11]].kp = std::numeric_limits<float>::infinity(); }
  SECTION("kd") { msg.motor_cmd[u::Wire<Go2>::slot[7]].kd = -std::numeric_limits<float>::infinity(); }
  SECTION("tau") { msg.motor_cmd[u::Wire<Go2>::slot[5]].tau = std::numeric_limits<float>::quiet_NaN(); }
  msg.crc = u::message_crc(msg);
  const auto check = u::decode_command<Go2>(msg, 0, out);
  CHECK(check.crc_ok);
  CHECK(check.header_ok);
  CHECK(check.mode_ok);
  CHECK_FALSE(check.finite_ok);
}

TEST_CASE("the go family has no mode_machine: any robot value passes", "[unitree][codec]") {
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(go2_command(), {}, msg);
  praxis::JointCommand<12> out;
  CHECK(u::decode_command<Go2>(msg, 0, out).mode_machine_ok);
  CHECK(u::decode_command<Go2>(msg, 7, out).mode_machine_ok);
}

TEST_CASE("an hg robot reporting mode_machine 0 is a simulator and takes any command's mode_machine",
          "[unitree][codec]") {
  praxis::JointCommand<29> c;
  unitree_hg_msg_dds__LowCmd_ msg;
  u::encode_command<G1>(c, {.mode_pr = 0, .mode_machine = 9}, msg);
  praxis::JointCommand<29> out;
  CHECK(u::decode_command<G1>(msg, 0, out).mode_machine_ok);
  CHECK(u::decode_command<G1>(msg, 9, out).mode_machine_ok);
  CHECK_FALSE(u::decode_command<G1>(msg, 5, out).mode_machine_ok);
  // A command that echoes 0 to a real robot (mode_machine 5) is not the robot's.
  u::encode_command<G1>(c, {.mode_pr = 0, .mode_machine = 0}, msg);
  CHECK_FALSE(u::decode_command<G1>(msg, 5, out).mode_machine_ok);
  // The hg family has no head bytes.
  CHECK(u::decode_command<G1>(msg, 0, out).header_ok);
}

TEST_CASE("motor mode bytes: hg takes enable or disable, go only its servo mode", "[unitree][codec]") {
  SECTION("hg: 0 disables the joint, anything but 0 and 1 fails the mode check") {
    praxis::JointCommand<29> c;
    c.q.setConstant(0.3);
    c.kp.setConstant(50.0);
    c.mode[3] = praxis::JointMode::disabled;
    unitree_hg_msg_dds__LowCmd_ msg;
    u::encode_command<G1>(c, {.mode_pr = 0, .mode_machine = 5}, msg);
    praxis::JointCommand<29> out;
    auto check = u::decode_command<G1>(msg, 5, out);
    CHECK(check.mode_ok);
    CHECK(out.mode[3] == praxis::JointMode::disabled);
    CHECK(out.mode[4] == praxis::JointMode::position);

    msg.motor_cmd[u::Wire<G1>::slot[4]].mode = 0x0A;  // a go-family motor mode: not hg's
    msg.crc = u::message_crc(msg);
    check = u::decode_command<G1>(msg, 5, out);
    CHECK(check.crc_ok);
    CHECK_FALSE(check.mode_ok);
    CHECK(out.mode[4] == praxis::JointMode::disabled);  // not enabled: the joint is not driven
  }
  SECTION("go: mode 0 on a joint's slot fails the mode check") {
    unitree_go_msg_dds__LowCmd_ msg;
    u::encode_command<Go2>(go2_command(), {}, msg);
    msg.motor_cmd[7].mode = 0;
    msg.crc = u::message_crc(msg);
    praxis::JointCommand<12> out;
    const auto check = u::decode_command<Go2>(msg, 0, out);
    CHECK(check.crc_ok);
    CHECK(check.header_ok);
    CHECK_FALSE(check.mode_ok);
    CHECK(out.mode[7] == praxis::JointMode::disabled);
  }
  SECTION("slots that are no joint of the model are not checked") {
    praxis::JointCommand<23> c;
    unitree_hg_msg_dds__LowCmd_ msg;
    u::encode_command<G1_23>(c, {.mode_pr = 0, .mode_machine = 4}, msg);
    msg.motor_cmd[13].mode = 0x7F;  // waist roll: not on a 23-DOF G1
    msg.motor_cmd[34].mode = 0x7F;  // past the last motor
    msg.crc = u::message_crc(msg);
    praxis::JointCommand<23> out;
    CHECK(u::decode_command<G1_23>(msg, 4, out).mode_ok);
  }
}

TEST_CASE("decode_command passes values through as sent: a non-finite one fails the finite check only",
          "[unitree][codec]") {
  // A NaN target arrives as NaN so the fake robot's intake and fuzzers see exactly what the
  // controller sent; finite_ok says the intake must refuse the frame.
  praxis::JointCommand<29> c;
  c.q.setConstant(0.1);
  unitree_hg_msg_dds__LowCmd_ msg;
  u::encode_command<G1>(c, {.mode_pr = 0, .mode_machine = 5}, msg);
  msg.motor_cmd[u::Wire<G1>::slot[2]].q = std::numeric_limits<float>::quiet_NaN();
  msg.motor_cmd[u::Wire<G1>::slot[6]].tau = std::numeric_limits<float>::infinity();
  msg.crc = u::message_crc(msg);
  praxis::JointCommand<29> out;
  const auto check = u::decode_command<G1>(msg, 5, out);
  CHECK(check.crc_ok);
  CHECK(check.header_ok);
  CHECK(check.mode_ok);
  CHECK(check.mode_machine_ok);
  CHECK_FALSE(check.finite_ok);
  CHECK(std::isnan(out.q[2]));
  CHECK(std::isinf(out.tau_ff[6]));
  CHECK(out.q[3] == Approx(0.1));
}

TEST_CASE("velocity and torque commands come back as enabled joints with the gains that went out",
          "[unitree][codec]") {
  // The wire has no joint mode: the robot sees the PD law the controller encoded.
  praxis::JointCommand<12> c = go2_command();
  c.mode[0] = praxis::JointMode::velocity;
  c.mode[1] = praxis::JointMode::torque;
  c.mode[2] = praxis::JointMode::disabled;
  unitree_go_msg_dds__LowCmd_ msg;
  u::encode_command<Go2>(c, {}, msg);
  praxis::JointCommand<12> out;
  REQUIRE(all_pass(u::decode_command<Go2>(msg, 0, out)));
  CHECK(out.mode[0] == praxis::JointMode::position);
  CHECK(out.kp[0] == 0.0);
  CHECK(out.kd[0] == 1.5);
  CHECK(out.mode[1] == praxis::JointMode::position);
  CHECK(out.kp[1] == 0.0);
  CHECK(out.kd[1] == 0.0);
  CHECK(out.tau_ff[1] == 0.25);
  // go: a joint not driven keeps the servo mode with zero gains and torque.
  CHECK(out.mode[2] == praxis::JointMode::position);
  CHECK(out.kp[2] == 0.0);
  CHECK(out.kd[2] == 0.0);
  CHECK(out.tau_ff[2] == 0.0);
}

// ---- encode_state ----

TEST_CASE("go LowState: head bytes, level flag, tick, servo mode on the joints' slots and a valid CRC",
          "[unitree][codec]") {
  praxis::RobotState<12> s;
  s.q[11] = -1.2;
  s.tau[0] = 3.5;
  unitree_go_msg_dds__LowState_ msg;
  std::memset(&msg, 0xAB, sizeof msg);  // whatever was in the buffer before
  u::encode_state<Go2>(s, {.tick = 77}, msg);
  CHECK(msg.head[0] == 0xFE);
  CHECK(msg.head[1] == 0xEF);
  CHECK(msg.level_flag == 0xFF);
  CHECK(msg.tick == 77u);
  CHECK(msg.motor_state[0].mode == u::Wire<Go2>::motor_mode);
  CHECK(msg.motor_state[11].mode == u::Wire<Go2>::motor_mode);
  CHECK(msg.motor_state[11].q == Approx(-1.2f));
  CHECK(msg.motor_state[0].tau_est == 3.5f);
  CHECK(msg.motor_state[12].mode == 0);  // unused slots: cleared, not left from the buffer
  CHECK(msg.motor_state[19].q == 0.0f);
  CHECK(msg.bms_state.soc == 0);
  CHECK(msg.crc == u::message_crc(msg));
  CHECK(u::state_crc_ok<Go2>(msg));
}

TEST_CASE("hg LowState: mode_machine and mode_pr as given and a joint's error code in its motorstate",
          "[unitree][codec]") {
  praxis::RobotState<27> s;
  s.health[5].error_code = 0x0102;
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<H1_2>(s, {.tick = 3, .mode_machine = 6, .mode_pr = 1}, msg);
  CHECK(msg.mode_machine == 6);
  CHECK(msg.mode_pr == 1);
  CHECK(msg.tick == 3u);
  CHECK(msg.motor_state[u::Wire<H1_2>::slot[5]].motorstate == 0x0102u);
  CHECK(msg.motor_state[u::Wire<H1_2>::slot[4]].motorstate == 0u);
  CHECK(msg.motor_state[u::Wire<H1_2>::slot[26]].mode == 1);
  CHECK(msg.motor_state[27].mode == 0);  // past the H1-2's last joint
  CHECK(u::state_crc_ok<H1_2>(msg));
}

TEST_CASE("the IMU goes out as quaternion w x y z and gyro accelerometer rpy x y z", "[unitree][codec]") {
  praxis::RobotState<29> s;
  s.imu.orientation = praxis::Quaternion(0.5, -0.5, 0.5, 0.5);  // unit, every component distinct in sign
  s.imu.gyro = {0.1, 0.2, 0.3};
  s.imu.accelerometer = {1.0, 2.0, 9.5};
  s.imu.rpy = {-0.4, 0.25, 1.0};
  unitree_hg_msg_dds__LowState_ msg;
  u::encode_state<G1>(s, {.tick = 1}, msg);
  CHECK(msg.imu_state.quaternion[0] == 0.5f);  // w first
  CHECK(msg.imu_state.quaternion[1] == -0.5f);
  CHECK(msg.imu_state.quaternion[2] == 0.5f);
  CHECK(msg.imu_state.quaternion[3] == 0.5f);
  CHECK(msg.imu_state.gyroscope[2] == Approx(0.3f));
  CHECK(msg.imu_state.accelerometer[2] == 9.5f);
  CHECK(msg.imu_state.rpy[0] == Approx(-0.4f));
  CHECK(msg.imu_state.rpy[1] == 0.25f);
}

// ---- encode_remote ----

TEST_CASE("encode_remote writes buttons and axes at their bytes and clears the rest", "[unitree][codec]") {
  praxis::GamepadState g;
  g.set(praxis::GamepadButton::A, true);   // bit 8: byte 3 bit 0
  g.set(praxis::GamepadButton::R1, true);  // bit 0: byte 2 bit 0
  g.lx = 0.25f;
  g.rx = -0.5f;
  g.ry = 0.75f;
  g.l2 = 1.0f;
  g.ly = -1.0f;
  std::uint8_t r[40];
  std::memset(r, 0xCD, sizeof r);
  u::encode_remote(g, r);
  CHECK(r[0] == 0);
  CHECK(r[1] == 0);
  CHECK(r[2] == 0x01);
  CHECK(r[3] == 0x01);
  auto at = [&](int offset) {
    float f;
    std::memcpy(&f, r + offset, 4);
    return f;
  };
  CHECK(at(4) == 0.25f);
  CHECK(at(8) == -0.5f);
  CHECK(at(12) == 0.75f);
  CHECK(at(16) == 1.0f);
  CHECK(at(20) == -1.0f);
  for (int k = 24; k < 40; ++k) CHECK(r[k] == 0);
  CHECK(u::decode_remote(r) == g);
}

}  // namespace unitree_robot_codec_test
}  // namespace
