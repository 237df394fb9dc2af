// Booster codec: LowState -> RobotState, JointCommand -> LowCmd (the robot's side: robot_codec_test.cpp).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/rpc.hpp"
#include "praxis/transport/dds.hpp"

namespace {
namespace booster_codec_test {

namespace b = praxis::booster;
using praxis::JointMode;

template <std::size_t N>
b::LowStateValue<N> state_value(float base) {
  b::LowStateValue<N> v;
  v.serial_count = v.parallel_count = N;
  for (std::size_t j = 0; j < N; ++j) {
    v.serial[j].q = base + 0.01f * static_cast<float>(j);
    v.serial[j].dq = -0.5f;
    v.serial[j].tau_est = 2.0f;
    v.serial[j].temperature = 40;
    v.parallel[j].q = 100.0f;  // recognisably not the serial array
  }
  v.imu.rpy[0] = 0.1f;
  v.imu.rpy[1] = -0.2f;
  v.imu.rpy[2] = 0.3f;
  v.imu.gyro[2] = 1.5f;
  v.imu.acc[2] = 9.8f;
  return v;
}

TEST_CASE("booster codec: the serial array of a K1 LowState becomes the joint state - the IMU's rpy its orientation") {
  constexpr std::size_t N = b::K1::joint_count;
  praxis::RobotState<N> s;
  REQUIRE(b::decode_low_state<N>(state_value<N>(0.2f), b::CodecOptions{}, s));
  CHECK(s.q[0] == Approx(0.2));
  CHECK(s.q[21] == Approx(0.41));
  CHECK(s.dq[5] == Approx(-0.5));
  CHECK(s.tau[7] == Approx(2.0));
  CHECK(s.health[3].temperature == 40.0f);
  CHECK(s.health[3].ok());
  CHECK(s.imu.rpy[0] == Approx(0.1).margin(1e-6));
  CHECK(s.imu.rpy[1] == Approx(-0.2).margin(1e-6));
  CHECK(s.imu.rpy[2] == Approx(0.3).margin(1e-6));
  CHECK(s.imu.gyro[2] == Approx(1.5));
  CHECK(s.projected_gravity[2] < -0.9);
}

TEST_CASE("booster codec: the parallel space reads the motor array") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::RobotState<N> s;
  b::CodecOptions o;
  o.space = b::MotorSpace::parallel;
  REQUIRE(b::decode_low_state<N>(state_value<N>(0.0f), o, s));
  CHECK(s.q[4] == Approx(100.0));
}

TEST_CASE("booster codec: a LowState of another robot's size or with non-finite values is rejected whole") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::RobotState<N> s;
  s.q.setConstant(7.0);
  auto v = state_value<N>(0.0f);
  v.serial_count = 22;  // a K1's LowState reaching a T1 backend
  CHECK_FALSE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK(s.q[0] == 7.0);
  v = state_value<N>(0.0f);
  v.serial[3].dq = std::nanf("");
  CHECK_FALSE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK(s.q[0] == 7.0);
}

TEST_CASE("booster codec: motor error flags and heat become joint health") {
  constexpr std::size_t N = b::K1::joint_count;
  auto v = state_value<N>(0.0f);
  v.serial[2].reserve[0] = 17;
  v.serial[9].temperature = 95;
  praxis::RobotState<N> s;
  REQUIRE(b::decode_low_state<N>(v, b::CodecOptions{}, s));
  CHECK((s.health[2].faults & praxis::k_joint_driver_error) != 0);
  CHECK(s.health[2].error_code == 17u);
  CHECK((s.health[9].faults & praxis::k_joint_overheated) != 0);
  CHECK(s.first_faulted_joint() == 2);
}

TEST_CASE("booster codec: a joint command becomes one MotorCmd per joint: uncovered joints carry weight 0") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::JointCommand<N> c;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.1 * static_cast<double>(j);
    c.kp[i] = 50;
    c.kd[i] = 2;
    c.tau_ff[i] = 0.5;
  }
  c.mode[0] = c.mode[1] = JointMode::none;  // the head stays with the robot
  c.mode[2] = JointMode::disabled;
  c.mode[3] = JointMode::torque;
  b::LowCmdValue<N> v;
  REQUIRE(b::encode_low_cmd<N>(c, b::CodecOptions{}, v));
  CHECK(v.space == b::MotorSpace::serial);
  CHECK(v.motors[0].weight == 0.0f);
  CHECK(v.motors[1].weight == 0.0f);
  CHECK(v.motors[2].kp == 0.0f);
  CHECK(v.motors[2].kd == 0.0f);
  CHECK(v.motors[2].tau == 0.0f);
  CHECK(v.motors[2].weight == 1.0f);
  CHECK(v.motors[3].kp == 0.0f);
  CHECK(v.motors[3].tau == 0.5f);
  CHECK(v.motors[10].q == Approx(1.0));
  CHECK(v.motors[10].kp == 50.0f);
  CHECK(v.motors[10].kd == 2.0f);
  CHECK(v.motors[10].weight == 1.0f);

  // Through the wire encoder: the space as cmd_type, the motors in a sequence of N.
  b::LowCmdToWire<N> to_wire;
  b::LowCmdWire wire{};
  REQUIRE(to_wire(v, wire));
  CHECK(wire.cmd_type == booster_interface_msg_dds__SERIAL);
  REQUIRE(wire.motor_cmd._length == N);
  CHECK(wire.motor_cmd._buffer[10].q == v.motors[10].q);
  CHECK(wire.motor_cmd._buffer[0].weight == 0.0f);
}

TEST_CASE("booster codec: a command covering no joint sends nothing") {
  constexpr std::size_t N = b::K1::joint_count;
  praxis::JointCommand<N> c;
  c.mode.fill(JointMode::none);
  b::LowCmdValue<N> v;
  CHECK_FALSE(b::encode_low_cmd<N>(c, b::CodecOptions{}, v));
}

TEST_CASE("booster RPC: the envelope registers under the type names it is given") {
  praxis::transport::Participant p({static_cast<std::uint32_t>(150 + ::getpid() % 10), "lo"});
  b::DdsRpcChannel named(p, "test/TypedChannel", "RpcReqMsg", "RpcRespMsg");
  b::DdsRpcChannel plain(p, "test/PlainChannel");
  bool typed = false, idl = false;
  for (const auto& w : praxis::transport::discovered_writers(p)) {
    typed = typed || (w.topic == "test/TypedChannelReq" && w.type == "RpcReqMsg");
    idl = idl || (w.topic == "test/PlainChannelReq" && w.type == "booster_msgs::msg::dds_::RpcReqMsg_");
  }
  CHECK(typed);
  CHECK(idl);
}

}  // namespace booster_codec_test
}  // namespace
