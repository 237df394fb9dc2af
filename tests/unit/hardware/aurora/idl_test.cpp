// The generated fourier_msgs types: member order (= serialisation order) as the Aurora DDS
// reference gives it, and the bytes Cyclone puts on the wire for two messages, which must be
// classic CDR (XCDR1, little endian, doubles aligned to 8 from the payload start) as Fourier's
// Fast DDS client sends them. The type and topic names are tested in topics_test.cpp.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <dds/dds.h>
#include <dds/ddsi/ddsi_serdata.h>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/hardware/aurora/backend.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/topics.hpp"
#include "praxis/transport/dds.hpp"

namespace aurora_idl_test {

namespace a = praxis::aurora;
using namespace std::chrono_literals;

// Members in declaration order have increasing offsets in the generated C struct.
#define AURORA_ORDERED(T, m1, m2) CHECK(offsetof(T, m1) < offsetof(T, m2))

// The serialised bytes (encapsulation header included) of one sample, written and taken back as
// CDR on one participant.
template <class T>
std::vector<unsigned char> wire_bytes(const dds_topic_descriptor_t* desc, const T& sample) {
  const dds_entity_t p = dds_create_participant(7 - static_cast<std::uint32_t>(::getpid() % 2), nullptr, nullptr);
  REQUIRE(p > 0);
  const dds_entity_t t = dds_create_topic(p, desc, "praxis_aurora_idl_test", nullptr, nullptr);
  dds_qos_t* qos = dds_create_qos();
  dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  const dds_entity_t r = dds_create_reader(p, t, qos, nullptr);
  const dds_entity_t w = dds_create_writer(p, t, qos, nullptr);
  dds_delete_qos(qos);
  REQUIRE((r > 0 && w > 0));
  REQUIRE(dds_write(w, &sample) == DDS_RETCODE_OK);
  std::vector<unsigned char> bytes;
  for (int i = 0; i < 200 && bytes.empty(); ++i) {
    ddsi_serdata* d = nullptr;
    dds_sample_info_t info;
    if (dds_takecdr(r, &d, 1, &info, DDS_ANY_STATE) == 1) {
      bytes.resize(ddsi_serdata_size(d));
      ddsi_serdata_to_ser(d, 0, bytes.size(), bytes.data());
      ddsi_serdata_unref(d);
    } else {
      std::this_thread::sleep_for(5ms);
    }
  }
  dds_delete(p);
  return bytes;
}

std::uint32_t u32(const std::vector<unsigned char>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
double f64(const std::vector<unsigned char>& b, std::size_t at) {
  double v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

TEST_CASE("aurora idl: members in the reference's order", "[aurora][idl]") {
  AURORA_ORDERED(fourier_msgs_msg_AuroraState, header, velocity_command_source);
  AURORA_ORDERED(fourier_msgs_msg_AuroraState, velocity_command_source, whole_body_fsm_state);
  AURORA_ORDERED(fourier_msgs_msg_AuroraState, whole_body_fsm_state, upper_body_fsm_state);
  AURORA_ORDERED(fourier_msgs_msg_AuroraState, upper_body_fsm_state, allow_upper_body_override);
  AURORA_ORDERED(fourier_msgs_msg_RobotStandPoseState, delta_yaw, stable_level);
  AURORA_ORDERED(fourier_msgs_msg_BaseData, quat_xyzw, quat_wxyz);
  AURORA_ORDERED(fourier_msgs_msg_BaseData, rpy, omega_W);
  AURORA_ORDERED(fourier_msgs_msg_BaseData, acc_B, vel_W);
  AURORA_ORDERED(fourier_msgs_msg_BaseData, pos_W, vel_B);
  AURORA_ORDERED(fourier_msgs_msg_ContactData, contact_force, contact_prob);
  AURORA_ORDERED(fourier_msgs_msg_RobotControlGroupState, group_motion_state, group_state);
  AURORA_ORDERED(fourier_msgs_msg_RobotControlGroupState, group_state, stable_level);
  AURORA_ORDERED(fourier_msgs_msg_RobotControlGroupState, stable_level, ex_data);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupState, group_name, joint_position);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupState, joint_effort, motor_position);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupState, motor_velocity, motor_effort);
  AURORA_ORDERED(fourier_msgs_msg_RobotCartesianState, coordinate_system, group_motion_state);
  AURORA_ORDERED(fourier_msgs_msg_RobotCartesianState, cartesian_state, stable_level);
  AURORA_ORDERED(fourier_msgs_msg_CartesianState, pose, twist);
  AURORA_ORDERED(fourier_msgs_msg_CartesianState, twist, wrench);
  AURORA_ORDERED(fourier_msgs_msg_VelocityCmd, vx, vy);
  AURORA_ORDERED(fourier_msgs_msg_VelocityCmd, vy, yaw);
  AURORA_ORDERED(fourier_msgs_msg_RobotStandPoseCmd, delta_z, delta_pitch);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupCmd, group_name, group_motion_state);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupCmd, group_motion_state, control_type);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupCmd, control_type, motor_mode);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupCmd, motor_mode, position);
  AURORA_ORDERED(fourier_msgs_msg_ControlGroupCmd, velocity, effort);
  AURORA_ORDERED(fourier_msgs_msg_RobotControlGroupCmd, group_cmd, ex_data);
  AURORA_ORDERED(fourier_msgs_msg_MotorCfgGroupCmd, pd_kp, pd_kd);
  AURORA_ORDERED(fourier_msgs_msg_RobotMotorCfgGroupCmd, group_cmd, ex_data);
  AURORA_ORDERED(fourier_msgs_msg_WholeBodyFsmStateChangeCmd, header, desired_state);
  AURORA_ORDERED(fourier_msgs_msg_UpperBodyFsmStateChangeCmd, header, desired_state);
  AURORA_ORDERED(fourier_msgs_msg_VelocitySourceCmd, header, desired_source);
}

TEST_CASE("aurora idl: AuroraState and a group command on the wire are classic little-endian CDR",
          "[aurora][idl][dds]") {
  std::array<char, 4> frame{"map"};
  a::AuroraStateWire s{};
  s.header.stamp = {7, 9};
  s.header.frame_id = frame.data();
  s.velocity_command_source = 2;
  s.whole_body_fsm_state = 10;
  s.upper_body_fsm_state = 1;
  s.allow_upper_body_override = true;
  const auto b = wire_bytes(&fourier_msgs_msg_AuroraState_desc, s);
  REQUIRE(b.size() == 4 + 4 + 4 + 4 + 4 + 4);
  CHECK(b[0] == 0x00);  // CDR_LE
  CHECK(b[1] == 0x01);
  CHECK(u32(b, 4) == 7);   // stamp.sec
  CHECK(u32(b, 8) == 9);   // stamp.nanosec
  CHECK(u32(b, 12) == 4);  // "map" with its NUL
  CHECK(std::string(reinterpret_cast<const char*>(b.data() + 16)) == "map");
  CHECK(b[20] == 2);
  CHECK(b[21] == 10);
  CHECK(b[22] == 1);
  CHECK(b[23] == 1);

  // One group, as the encoder lends it.
  a::GroupCommandValue v;
  auto& e = v.groups[v.groups.size++];
  e.name.assign("head");
  e.motor_mode = 1;
  e.position.assign(std::array<double, 2>{0.25, -0.5});
  e.velocity.assign(std::array<double, 2>{0, 0});
  e.effort.assign(std::array<double, 2>{1.5, 2.5});
  a::GroupCommandToWire to_wire;
  a::GroupCommandWire w{};
  REQUIRE(to_wire(v, w));
  const auto c = wire_bytes(&fourier_msgs_msg_RobotControlGroupCmd_desc, w);
  // Payload offsets (after the 4-byte encapsulation): stamp 0..8, frame_id length 8 and its NUL
  // 12 (padded to 16), group count 16, name length 20, "head\0" 24..29, three uint8 29..32,
  // position count 32, its doubles aligned to 8: 40; every later sequence likewise.
  REQUIRE(c.size() == 4 + 108);
  CHECK(c[1] == 0x01);
  CHECK(u32(c, 4 + 8) == 1);   // frame_id length: the NUL alone
  CHECK(u32(c, 4 + 16) == 1);  // one group
  CHECK(u32(c, 4 + 20) == 5);  // "head" with its NUL
  CHECK(std::string(reinterpret_cast<const char*>(c.data() + 4 + 24)) == "head");
  CHECK(c[4 + 29] == 1);       // group_motion_state: move
  CHECK(c[4 + 30] == 0);       // control_type: joint
  CHECK(c[4 + 31] == 1);       // motor_mode: effort
  CHECK(u32(c, 4 + 32) == 2);  // position count, then 4 bytes of padding (XCDR1: doubles on 8)
  CHECK(f64(c, 4 + 40) == 0.25);
  CHECK(f64(c, 4 + 48) == -0.5);
  CHECK(u32(c, 4 + 56) == 2);  // velocity count
  CHECK(u32(c, 4 + 80) == 2);  // effort count
  CHECK(f64(c, 4 + 88) == 1.5);
  CHECK(f64(c, 4 + 96) == 2.5);
  CHECK(u32(c, 4 + 104) == 0);  // ex_data: empty
}

#undef AURORA_ORDERED

}  // namespace aurora_idl_test
