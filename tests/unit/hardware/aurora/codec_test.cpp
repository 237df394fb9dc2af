// Aurora's codec against hand-built samples: group states into the model's order (and the samples
// it must refuse whole), base data into the IMU, commands into complete groups only, gains per
// group, and the lent wire samples read back.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/robot_codec.hpp"
#include "praxis/hardware/aurora/models.hpp"

namespace aurora_codec_test {

namespace a = praxis::aurora;

constexpr std::size_t N2 = a::GR2::joint_count;

// A group state whose joint j (model order) reads q = 0.01 j, dq = 0.1 + j, tau = -j.
a::GroupStateEntry entry(std::string_view name, std::size_t first, std::size_t count) {
  a::GroupStateEntry e;
  e.name.assign(name);
  e.q.size = e.dq.size = e.tau.size = static_cast<std::uint32_t>(count);
  for (std::size_t k = 0; k < count; ++k) {
    const auto j = static_cast<double>(first + k);
    e.q[k] = 0.01 * j;
    e.dq[k] = 0.1 + j;
    e.tau[k] = -j;
  }
  return e;
}

template <class M>
a::GroupStateValue full_state(bool with_hands) {
  a::GroupStateValue v;
  for (const auto& g : M::groups) v.groups[v.groups.size++] = entry(g.name, g.first, g.count);
  if (with_hands) {
    v.groups[v.groups.size++] = entry("left_hand", 100, 6);
    v.groups[v.groups.size++] = entry("right_hand", 100, 6);
  }
  v.motion.size = v.groups.size;
  return v;
}

praxis::JointCommand<N2> gr2_command(praxis::JointMode mode) {
  praxis::JointCommand<N2> c;
  c.mode.fill(mode);
  for (std::size_t j = 0; j < N2; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.02 * static_cast<double>(j);
    c.dq[i] = 0.5;
    c.tau_ff[i] = static_cast<double>(j);
    c.kp[i] = 10.0 + static_cast<double>(j);
    c.kd[i] = 1.0;
  }
  return c;
}

TEST_CASE("aurora codec: group states land in the model's order, the hands are skipped", "[aurora][codec]") {
  praxis::RobotState<N2> s;
  auto v = full_state<a::GR2>(true);
  // Aurora's order need not be praxis': reverse the body groups.
  std::reverse(v.groups.items.begin(), v.groups.items.begin() + 6);
  const auto d = a::decode_group_state<a::GR2>(v, s);
  REQUIRE(d.ok());
  for (std::size_t j = 0; j < N2; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    CHECK(s.q[i] == Approx(0.01 * static_cast<double>(j)));
    CHECK(s.dq[i] == Approx(0.1 + static_cast<double>(j)));
    CHECK(s.tau[i] == Approx(-static_cast<double>(j)));
  }
}

TEST_CASE("aurora codec: a wrong joint count, an unknown or missing group, NaN reject the whole sample",
          "[aurora][codec]") {
  praxis::RobotState<N2> s;
  s.q.setConstant(7.0);
  SECTION("GR-3's three-joint waist against the GR-2 model") {
    auto v = full_state<a::GR2>(false);
    v.groups[2] = entry("waist", 12, 3);
    const auto d = a::decode_group_state<a::GR2>(v, s);
    CHECK(d.fault == a::StateFault::wrong_joint_count);
    CHECK(d.group == 2);
    CHECK(d.found == 3);
    const auto text = a::describe<a::GR2>(d);
    CHECK(text.find("robot_control_group_state") != std::string::npos);
    CHECK(text.find("'waist' has 3 values, gr2 expects 1") != std::string::npos);
  }
  SECTION("a velocity sequence one short") {
    auto v = full_state<a::GR2>(false);
    v.groups[4].dq.size = 6;
    const auto d = a::decode_group_state<a::GR2>(v, s);
    CHECK(d.fault == a::StateFault::wrong_joint_count);
    CHECK(d.group == 4);
  }
  SECTION("a name Aurora does not use") {
    auto v = full_state<a::GR2>(false);
    v.groups[v.groups.size++] = entry("tail", 0, 2);
    const auto d = a::decode_group_state<a::GR2>(v, s);
    CHECK(d.fault == a::StateFault::unknown_group);
    CHECK(d.group == 6);  // the sample's entry
    CHECK(a::describe<a::GR2>(d).find("neither a group of gr2") != std::string::npos);
  }
  SECTION("the head missing") {
    auto v = full_state<a::GR2>(false);
    v.groups[3] = v.groups[5];
    v.groups.size = 5;
    const auto d = a::decode_group_state<a::GR2>(v, s);
    CHECK(d.fault == a::StateFault::missing_group);
    CHECK(a::describe<a::GR2>(d).find("'head' of gr2 is missing") != std::string::npos);
  }
  SECTION("a NaN torque") {
    auto v = full_state<a::GR2>(false);
    v.groups[1].tau[2] = std::numeric_limits<double>::quiet_NaN();
    CHECK(a::decode_group_state<a::GR2>(v, s).fault == a::StateFault::not_finite);
  }
  CHECK(s.q[0] == 7.0);  // nothing applied
  CHECK(s.q[28] == 7.0);
}

TEST_CASE("aurora codec: the wire group state is copied whole or refused with a reason", "[aurora][codec]") {
  std::array<double, 6> q{1, 2, 3, 4, 5, 6};
  std::array<double, 9> nine{};
  std::array<char, 16> name{"left_leg"};
  fourier_msgs_msg_ControlGroupState g{};
  g.group_name = name.data();
  g.joint_position = {6, 6, q.data(), false};
  g.joint_velocity = {6, 6, q.data(), false};
  g.joint_effort = {6, 6, q.data(), false};
  std::array<std::uint8_t, 1> motion{3};
  std::array<char, 1> frame{};
  a::GroupStateWire w{};
  w.header.frame_id = frame.data();
  w.group_state = {1, 1, &g, false};
  w.group_motion_state = {1, 1, motion.data(), false};
  w.stable_level = 42;
  a::GroupStateValue v;
  REQUIRE(a::group_state_from_wire(w, v) == nullptr);
  REQUIRE(v.groups.size == 1);
  CHECK(v.groups[0].name.view() == "left_leg");
  CHECK(v.groups[0].q[5] == 6.0);
  CHECK(v.motion[0] == 3);
  CHECK(v.stable_level == 42);

  g.joint_effort = {9, 9, nine.data(), false};
  CHECK(std::string(a::group_state_from_wire(w, v)) == "robot_control_group_state: a group with more than 8 joint values");
  std::array<fourier_msgs_msg_ControlGroupState, 9> many{};
  w.group_state = {9, 9, many.data(), false};
  CHECK(std::string(a::group_state_from_wire(w, v)) == "robot_control_group_state: more than 8 groups");
}

TEST_CASE("aurora codec: base data is the IMU, its lengths are checked", "[aurora][codec]") {
  // Pitched forward by 90 degrees about y: gravity along the body's +x.
  const double h = std::sqrt(0.5);
  std::array<double, 4> quat{0, h, 0, h};  // x, y, z, w
  std::array<double, 3> omega{0.1, 0.2, 0.3}, acc{0, 0, 9.8};
  std::array<char, 1> frame{};
  a::BaseDataWire w{};
  w.header.frame_id = frame.data();
  w.quat_xyzw = {4, 4, quat.data(), false};
  w.omega_B = {3, 3, omega.data(), false};
  w.acc_B = {3, 3, acc.data(), false};
  a::BaseValue v;
  REQUIRE(a::base_from_wire(w, v) == nullptr);
  praxis::RobotState<N2> s;
  REQUIRE(a::decode_base(v, s));
  CHECK(s.imu.gyro.y() == 0.2);
  CHECK(s.imu.accelerometer.z() == 9.8);
  CHECK(s.projected_gravity.x() == Approx(1.0));
  CHECK(s.projected_gravity.z() == Approx(0.0).margin(1e-9));
  CHECK(s.imu.rpy.y() == Approx(M_PI / 2));

  w.quat_xyzw._length = 3;
  CHECK(std::string(a::base_from_wire(w, v)) == "base_data_pub: quat_xyzw must hold 4 values (x, y, z, w)");
  v.quat_xyzw = {0, 0, 0, 0};  // not a rotation
  CHECK_FALSE(a::decode_base(v, s));
  v.quat_xyzw = {0, 0, 0, 1};
  v.acc_b[1] = std::numeric_limits<double>::infinity();
  CHECK_FALSE(a::decode_base(v, s));
  CHECK(s.projected_gravity.x() == Approx(1.0));  // unchanged
}

TEST_CASE("aurora codec: a full command goes out as complete groups with Aurora's fields", "[aurora][codec]") {
  auto c = gr2_command(praxis::JointMode::position);
  for (std::size_t j = 15; j < 22; ++j) c.mode[j] = praxis::JointMode::torque;  // the left arm in effort mode
  a::GroupCommandValue out;
  const auto r = a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out);
  REQUIRE(r.sent());
  REQUIRE(out.groups.size == 6);
  for (std::size_t g = 0; g < 6; ++g) {
    const auto& e = out.groups[g];
    const auto& group = a::GR2::groups[g];
    CHECK(e.name.view() == group.name);
    CHECK(e.motion_state == 1);  // move
    CHECK(e.control_type == 0);  // joint space
    CHECK(e.motor_mode == (group.name == "left_manipulator" ? 1 : 0));
    REQUIRE(e.position.size == group.count);
    REQUIRE(e.velocity.size == group.count);
    REQUIRE(e.effort.size == group.count);
    for (std::size_t k = 0; k < group.count; ++k) {
      const auto j = static_cast<double>(group.first + k);
      CHECK(e.position[k] == Approx(0.02 * j));
      CHECK(e.velocity[k] == 0.5);
      CHECK(e.effort[k] == j);
    }
  }
}

TEST_CASE("aurora codec: groups the command leaves are not sent, a partly covered group refuses it all",
          "[aurora][codec]") {
  auto c = gr2_command(praxis::JointMode::position);
  a::GroupCommandValue out;
  SECTION("only the head and the waist") {
    c.mode.fill(praxis::JointMode::none);
    c.mode[12] = c.mode[13] = c.mode[14] = praxis::JointMode::position;
    const auto r = a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out);
    REQUIRE(r.sent());
    REQUIRE(out.groups.size == 2);
    CHECK(out.groups[0].name.view() == "waist");
    CHECK(out.groups[1].name.view() == "head");
  }
  SECTION("one joint of the right arm left out") {
    c.mode[25] = praxis::JointMode::none;
    const auto r = a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out);
    CHECK(r.fault == a::CommandFault::partial_group);
    CHECK(r.group == 5);
    CHECK(r.joint == 25);
    CHECK(out.groups.size == 0);  // not even the complete groups
    const auto text = a::describe<a::GR2>(r);
    CHECK(text.find("'right_manipulator' is covered partly (right_elbow_pitch_joint") != std::string::npos);
  }
  SECTION("position and torque mixed in a leg") {
    c.mode[3] = praxis::JointMode::torque;
    const auto r = a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out);
    CHECK(r.fault == a::CommandFault::mixed_modes);
    CHECK(r.joint == 3);
  }
  SECTION("a velocity-mode joint") {
    for (std::size_t j = 0; j < 6; ++j) c.mode[j] = praxis::JointMode::velocity;
    CHECK(a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out).fault == a::CommandFault::unsupported_mode);
  }
  SECTION("a NaN target") {
    c.q[20] = std::numeric_limits<double>::quiet_NaN();
    CHECK(a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out).fault == a::CommandFault::not_finite);
  }
  SECTION("nothing covered") {
    c.mode.fill(praxis::JointMode::none);
    CHECK(a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, out).fault == a::CommandFault::nothing_covered);
  }
  SECTION("UpperBodyUserCmd: the legs are withheld, the rest is sent") {
    const auto r = a::encode_group_command<a::GR2>(c, a::upper_body_groups<a::GR2>(), out);
    REQUIRE(r.sent());
    CHECK(r.withheld == 2);
    REQUIRE(out.groups.size == 4);
    CHECK(out.groups[0].name.view() == "waist");
  }
}

TEST_CASE("aurora codec: PD configuration per group from per-joint gains", "[aurora][codec]") {
  praxis::JointVector<N2> kp, kd;
  a::default_gains<a::GR2>(kp, kd);
  a::MotorConfigValue v;
  a::motor_config<a::GR2>(kp, kd, a::upper_body_groups<a::GR2>(), v);
  REQUIRE(v.groups.size == 4);
  CHECK(v.groups[0].name.view() == "waist");
  CHECK(v.groups[0].kp[0] == 200);
  CHECK(v.groups[0].kd[0] == 10);
  CHECK(v.groups[2].name.view() == "left_manipulator");
  REQUIRE(v.groups[2].kp.size == 7);
  CHECK(v.groups[2].kp[0] == 300);
  CHECK(v.groups[2].kd[6] == 5);
}

TEST_CASE("aurora codec: the lent wire samples read back as sent, headers zeroed, ex_data empty", "[aurora][codec]") {
  auto c = gr2_command(praxis::JointMode::position);
  a::GroupCommandValue sent;
  REQUIRE(a::encode_group_command<a::GR2>(c, a::k_all_groups<a::GR2>, sent).sent());
  a::GroupCommandToWire to_wire;
  a::GroupCommandWire w{};
  REQUIRE(to_wire(sent, w));
  CHECK(w.header.stamp.sec == 0);
  CHECK(std::string(w.header.frame_id).empty());
  CHECK(w.ex_data._length == 0);
  CHECK_FALSE(w.group_cmd._release);
  a::GroupCommandValue back;
  REQUIRE(a::group_command_from_wire(w, back) == nullptr);
  REQUIRE(back.groups.size == 6);
  CHECK(back.groups[5].name.view() == "right_manipulator");
  CHECK(back.groups[5].position[6] == Approx(0.02 * 28));
  CHECK(back.groups[0].effort[5] == 5.0);

  praxis::JointVector<N2> kp, kd;
  a::default_gains<a::GR2>(kp, kd);
  a::MotorConfigValue cfg;
  a::motor_config<a::GR2>(kp, kd, a::k_all_groups<a::GR2>, cfg);
  a::MotorConfigToWire cfg_to_wire;
  a::MotorConfigWire cw{};
  REQUIRE(cfg_to_wire(cfg, cw));
  a::MotorConfigValue cfg_back;
  REQUIRE(a::motor_config_from_wire(cw, cfg_back) == nullptr);
  REQUIRE(cfg_back.groups.size == 6);
  CHECK(cfg_back.groups[1].name.view() == "right_leg");
  CHECK(cfg_back.groups[1].kp[3] == 400);

  a::HeaderMessageToWire<a::WholeBodyRequestWire, a::StateRequestValue> request;
  a::WholeBodyRequestWire rw{};
  REQUIRE(request(a::StateRequestValue{10}, rw));
  CHECK(rw.desired_state == 10);
  CHECK(std::string(rw.header.frame_id).empty());
}

TEST_CASE("aurora codec: walking commands are clamped to the model's ranges", "[aurora][codec]") {
  a::VelocityValue v{2.0, -0.1, -3.0};
  CHECK(a::clamp_velocity<a::GR2>(v));
  CHECK(v.vx == 0.75);
  CHECK(v.vy == -0.1);
  CHECK(v.yaw == -1.0);
  a::VelocityValue ok{-0.3, 0.2, 0.5};
  CHECK_FALSE(a::clamp_velocity<a::GR2>(ok));
  a::VelocityValue nan{std::numeric_limits<double>::quiet_NaN(), 0, 0};
  CHECK(a::clamp_velocity<a::GR3>(nan));
  CHECK(nan.vx == 0.0);
}

TEST_CASE("aurora codec: a group reporting motion state error marks its joints faulted, and clears when it recovers",
          "[aurora][codec]") {
  praxis::RobotState<N2> s;
  auto v = full_state<a::GR2>(false);
  for (std::size_t e = 0; e < v.motion.size; ++e) v.motion[e] = static_cast<std::uint8_t>(a::GroupMotionState::move);
  const std::size_t g = a::group_index<a::GR2>(v.groups[2].name.view());
  REQUIRE(g < a::GR2::groups.size());
  v.motion[2] = static_cast<std::uint8_t>(a::GroupMotionState::error);
  REQUIRE(a::decode_group_state<a::GR2>(v, s).ok());
  const auto& group = a::GR2::groups[g];
  CHECK(s.first_faulted_joint() == group.first);
  for (std::size_t k = 0; k < group.count; ++k) {
    CHECK((s.health[group.first + k].faults & praxis::k_joint_driver_error) != 0);
    CHECK(s.health[group.first + k].error_code == 3u);
  }
  v.motion[2] = static_cast<std::uint8_t>(a::GroupMotionState::stop);
  REQUIRE(a::decode_group_state<a::GR2>(v, s).ok());
  CHECK(s.first_faulted_joint() == N2);
}

}  // namespace aurora_codec_test
