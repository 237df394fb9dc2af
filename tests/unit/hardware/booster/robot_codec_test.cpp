// Booster's robot side of the wire (robot_codec.hpp): what the fake robot decodes from rt/joint_ctrl
// and publishes on rt/low_state and rt/remote_controller_state.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/robot_codec.hpp"
#include "praxis/hardware/booster/topics.hpp"

namespace {
namespace booster_robot_codec_test {

namespace b = praxis::booster;
using praxis::GamepadButton;

// Bit for bit, field by field: a memcmp of whole structs would also compare their padding (after the
// octet `mode`), which no copy has to carry.
template <class F>
bool same_bits(const F& x, const F& y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}
bool same_motors(const b::MotorCmd* a, const b::MotorCmd* c, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    const auto& x = a[j];
    const auto& y = c[j];
    if (x.mode != y.mode || !same_bits(x.q, y.q) || !same_bits(x.dq, y.dq) || !same_bits(x.tau, y.tau) ||
        !same_bits(x.kp, y.kp) || !same_bits(x.kd, y.kd) || !same_bits(x.weight, y.weight))
      return false;
  }
  return true;
}

// A LowCmd whose sequence points at `motors` (count as given: the robot must check it).
b::LowCmdWire command_over(std::vector<b::MotorCmd>& motors, std::int32_t cmd_type) {
  b::LowCmdWire wire{};
  wire.motor_cmd = {static_cast<std::uint32_t>(motors.size()), static_cast<std::uint32_t>(motors.size()),
                    motors.data(), false};
  std::memcpy(&wire.cmd_type, &cmd_type, sizeof cmd_type);
  return wire;
}

TEST_CASE("booster robot codec: the robot refuses a LowCmd whose cmd_type is neither PARALLEL nor SERIAL",
          "[booster][fuzz]") {
  // Found by the booster_command fuzz target: decode_low_cmd compared cmd_type through the C enum
  // CmdType, which holds only 0 and 1, so 369098752 was undefined behaviour (and would have been
  // read as PARALLEL); it now reads the field's bits and refuses the command, output untouched.
  constexpr std::size_t N = b::T1::joint_count;
  std::array<b::MotorCmd, N> motors{};
  motors[4].q = 0.5f;
  b::LowCmdWire wire{};
  wire.motor_cmd = {static_cast<std::uint32_t>(N), static_cast<std::uint32_t>(N), motors.data(), false};
  b::LowCmdValue<N> out;
  out.space = b::MotorSpace::serial;
  for (const std::int32_t bad : {2, 369098752, -1}) {
    CAPTURE(bad);
    std::memcpy(&wire.cmd_type, &bad, sizeof bad);
    CHECK_FALSE(b::decode_low_cmd<N>(wire, out));
    CHECK(out.space == b::MotorSpace::serial);
    CHECK(out.motors[4].q == 0.0f);
  }
  wire.cmd_type = booster_interface_msg_dds__PARALLEL;
  REQUIRE(b::decode_low_cmd<N>(wire, out));
  CHECK(out.space == b::MotorSpace::parallel);
  CHECK(out.motors[4].q == 0.5f);
}

TEST_CASE("booster robot codec: a LowCmd without exactly one motor per joint is refused and the output kept") {
  // A T1 (23 motors) must not take a K1's 22-motor frame, nor a 29-motor T1's, nor an empty one.
  constexpr std::size_t N = b::T1::joint_count;
  b::LowCmdValue<N> out;
  out.space = b::MotorSpace::parallel;
  for (auto& m : out.motors) m.q = 0.25f;
  for (const std::size_t count : {std::size_t{0}, b::K1::joint_count, N + 1, b::T1Arms7::joint_count}) {
    CAPTURE(count);
    std::vector<b::MotorCmd> motors(count);
    for (auto& m : motors) m.q = 1.0f;
    const auto wire = command_over(motors, booster_interface_msg_dds__SERIAL);
    CHECK_FALSE(b::decode_low_cmd<N>(wire, out));
    CHECK(out.space == b::MotorSpace::parallel);
    CHECK(out.motors[0].q == 0.25f);
    CHECK(out.motors[N - 1].q == 0.25f);
  }
}

TEST_CASE("booster robot codec: an accepted LowCmd names its space and carries every MotorCmd field bit for bit") {
  constexpr std::size_t N = b::K1::joint_count;
  std::vector<b::MotorCmd> motors(N);
  for (std::size_t j = 0; j < N; ++j) {
    const auto f = static_cast<float>(j);
    motors[j].mode = static_cast<std::uint8_t>(j);
    motors[j].q = 0.1f * f;
    motors[j].dq = -0.2f * f;
    motors[j].tau = 0.3f * f;
    motors[j].kp = 10.0f + f;
    motors[j].kd = 1.0f + f;
    motors[j].weight = f / static_cast<float>(N);
  }
  motors[7].q = std::numeric_limits<float>::quiet_NaN();  // the robot's side does not judge values
  const auto wire = command_over(motors, booster_interface_msg_dds__SERIAL);
  b::LowCmdValue<N> out;
  out.space = b::MotorSpace::parallel;
  REQUIRE(b::decode_low_cmd<N>(wire, out));
  CHECK(out.space == b::MotorSpace::serial);
  CHECK(same_motors(out.motors.data(), motors.data(), N));
  CHECK(std::isnan(out.motors[7].q));
  CHECK(out.motors[21].weight == Approx(21.0 / 22.0));
}

TEST_CASE("booster robot codec: the controller's LowCmd encoder and the robot's decoder agree") {
  constexpr std::size_t N = b::T1::joint_count;
  praxis::JointCommand<N> c;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.mode[j] = praxis::JointMode::position;
    c.q[i] = 0.05 * static_cast<double>(j);
    c.kp[i] = 40;
    c.kd[i] = 1;
  }
  c.mode[0] = praxis::JointMode::none;
  for (const auto space : {b::MotorSpace::parallel, b::MotorSpace::serial}) {
    b::CodecOptions o;
    o.space = space;
    b::LowCmdValue<N> sent;
    REQUIRE(b::encode_low_cmd<N>(c, o, sent));
    b::LowCmdToWire<N> to_wire;
    b::LowCmdWire wire{};
    REQUIRE(to_wire(sent, wire));
    b::LowCmdValue<N> back;
    back.space = space == b::MotorSpace::serial ? b::MotorSpace::parallel : b::MotorSpace::serial;
    REQUIRE(b::decode_low_cmd<N>(wire, back));
    CHECK(back.space == space);
    CHECK(same_motors(back.motors.data(), sent.motors.data(), N));
    CHECK(back.motors[0].weight == 0.0f);
    CHECK(back.motors[20].q == Approx(1.0));
  }
}

TEST_CASE("booster robot codec: the robot's LowState encoder and the backend's decoder agree") {
  constexpr std::size_t N = b::K1::joint_count;
  praxis::RobotState<N> s;
  for (std::size_t j = 0; j < N; ++j) s.q[static_cast<Eigen::Index>(j)] = 0.03 * static_cast<double>(j);
  s.imu.orientation = b::orientation_from_rpy(0.05, 0.1, -0.4);
  s.update_derived();
  b::LowStateToWire<N> to_wire;
  b::LowStateWire wire{};
  REQUIRE(to_wire(s, wire));
  b::LowStateValue<N> value;
  REQUIRE(b::low_state_from_wire<N>(wire, value) == nullptr);
  praxis::RobotState<N> back;
  REQUIRE(b::decode_low_state<N>(value, b::CodecOptions{}, back));
  CHECK(back.q[21] == Approx(0.63).margin(1e-6));
  CHECK(back.imu.rpy[2] == Approx(-0.4).margin(1e-6));
}

TEST_CASE("booster robot codec: the fake robot publishes one state in both arrays: a motor's error code and "
          "temperature in the wire's ranges") {
  // The fake robot has no ankle linkage, so either motor space reads the same joints. MotorState's
  // temperature is a uint8 and reserve[1] the motor's communication rate (0..800 Hz, the ROS 2
  // message's comments).
  constexpr std::size_t N = b::T1::joint_count;
  praxis::RobotState<N> s;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    s.q[i] = -0.1 * static_cast<double>(j);
    s.dq[i] = 0.5;
    s.tau[i] = -3.0;
    s.health[j].temperature = 45.6f;
  }
  s.health[1].temperature = -20.0f;                                     // below the byte: 0
  s.health[2].temperature = 300.0f;                                     // above: 255
  s.health[3].temperature = std::numeric_limits<float>::quiet_NaN();   // not reported: 0
  s.health[4].error_code = 9;
  s.gamepad.set(GamepadButton::A, true);
  s.imu.gyro = praxis::Vector3(0.1, -0.2, 0.3);
  s.imu.accelerometer = praxis::Vector3(0.0, 0.0, 9.81);
  b::LowStateToWire<N> to_wire;
  b::LowStateWire wire{};
  REQUIRE(to_wire(s, wire));
  REQUIRE(wire.motor_state_serial._length == N);
  REQUIRE(wire.motor_state_parallel._length == N);
  for (std::size_t j = 0; j < N; ++j) {
    CAPTURE(j);
    const auto& serial = wire.motor_state_serial._buffer[j];
    const auto& parallel = wire.motor_state_parallel._buffer[j];
    CHECK(serial.mode == parallel.mode);
    CHECK(same_bits(serial.q, parallel.q));
    CHECK(same_bits(serial.dq, parallel.dq));
    CHECK(same_bits(serial.ddq, parallel.ddq));
    CHECK(same_bits(serial.tau_est, parallel.tau_est));
    CHECK(serial.temperature == parallel.temperature);
    CHECK(serial.lost == parallel.lost);
    CHECK(serial.reserve[0] == parallel.reserve[0]);
    CHECK(serial.reserve[1] == parallel.reserve[1]);
    CHECK(serial.q == Approx(-0.1 * static_cast<double>(j)));
    CHECK(serial.dq == 0.5f);
    CHECK(serial.tau_est == -3.0f);
    CHECK(serial.reserve[1] > 0u);
    CHECK(serial.reserve[1] <= 800u);
  }
  CHECK(wire.motor_state_serial._buffer[0].temperature == 45);
  CHECK(wire.motor_state_serial._buffer[1].temperature == 0);
  CHECK(wire.motor_state_serial._buffer[2].temperature == 255);
  CHECK(wire.motor_state_serial._buffer[3].temperature == 0);
  CHECK(wire.motor_state_serial._buffer[4].reserve[0] == 9u);
  CHECK(wire.motor_state_serial._buffer[5].reserve[0] == 0u);
  CHECK(wire.imu_state.gyro[1] == -0.2f);
  CHECK(wire.imu_state.acc[2] == Approx(9.81));

  // The backend reads the error code as a driver fault on that joint, the clamped 255 as heat.
  b::LowStateValue<N> value;
  REQUIRE(b::low_state_from_wire<N>(wire, value) == nullptr);
  praxis::RobotState<N> back;
  b::CodecOptions parallel;
  parallel.space = b::MotorSpace::parallel;
  REQUIRE(b::decode_low_state<N>(value, parallel, back));
  CHECK(back.health[4].faults == praxis::k_joint_driver_error);
  CHECK(back.health[4].error_code == 9u);
  CHECK(back.health[2].faults == praxis::k_joint_overheated);
  CHECK(back.health[0].ok());
  CHECK(back.health[5].ok());
}

TEST_CASE("booster robot codec: the remote as the robot sends it: a button event with the sticks' front negative") {
  praxis::GamepadState g;
  g.set(GamepadButton::X, true);
  g.lx = 0.25f;
  g.ly = 0.5f;   // pushed forward
  g.rx = -0.75f;
  g.ry = -1.0f;  // pulled back
  const b::RemoteWire r = b::remote_from(g);
  CHECK(r.event == 0x603u);  // BUTTON_DOWN (RemoteControllerEvent)
  CHECK(r.x);
  CHECK_FALSE(r.a);
  CHECK(r.lx == 0.25f);
  CHECK(r.ly == -0.5f);
  CHECK(r.rx == -0.75f);
  CHECK(r.ry == 1.0f);
}

TEST_CASE("booster robot codec: every button the remote has comes back alone through the controller's reading") {
  // F1 and F2 have no key on Booster's remote: they are dropped, not mapped onto another button.
  for (const auto button : {GamepadButton::A, GamepadButton::B, GamepadButton::X, GamepadButton::Y, GamepadButton::L1,
                            GamepadButton::R1, GamepadButton::L2, GamepadButton::R2, GamepadButton::select,
                            GamepadButton::start, GamepadButton::up, GamepadButton::down, GamepadButton::left,
                            GamepadButton::right}) {
    CAPTURE(static_cast<int>(button));
    praxis::GamepadState g;
    g.set(button, true);
    const auto back = b::gamepad_from(b::remote_from(g));
    CHECK(back.buttons == praxis::button_bit(button));
  }
  for (const auto absent : {GamepadButton::F1, GamepadButton::F2}) {
    praxis::GamepadState g;
    g.set(absent, true);
    CHECK(b::gamepad_from(b::remote_from(g)).buttons == 0);
  }
  // The remote's LT is a button: the analog l2 comes back as 1 when L2 is pressed, else 0.
  praxis::GamepadState g;
  g.l2 = 0.4f;
  CHECK(b::gamepad_from(b::remote_from(g)).l2 == 0.0f);
  g.set(GamepadButton::L2, true);
  CHECK(b::gamepad_from(b::remote_from(g)).l2 == 1.0f);
  g.ly = 0.3f;
  g.ry = -0.6f;
  const auto sticks = b::gamepad_from(b::remote_from(g));
  CHECK(sticks.ly == 0.3f);
  CHECK(sticks.ry == -0.6f);
}

}  // namespace booster_robot_codec_test
}  // namespace
