// The robot's side of Aurora's wire (what the fake robot reads): a group command and a motor
// configuration as values, every field in place, and each refusal with the reason the robot logs:
// more than 8 groups, a group name longer than 31 characters, a group with more than 8 values.

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>

#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/robot_codec.hpp"

namespace aurora_robot_codec_test {

namespace a = praxis::aurora;

// Wire samples on storage of the test's own (Cyclone's reader owns it in the fake robot).
struct CommandSample {
  std::array<fourier_msgs_msg_ControlGroupCmd, 9> groups{};
  std::array<std::array<double, 9>, 9> values{};
  std::array<std::string, 9> names{};
  a::GroupCommandWire wire{};

  // `count` groups named g0, g1, ..., each with `values` positions, velocities and efforts.
  CommandSample(std::uint32_t count, std::uint32_t per_group) {
    for (std::uint32_t g = 0; g < count; ++g) {
      names[g] = "g" + std::to_string(g);
      for (std::uint32_t k = 0; k < per_group; ++k) values[g][k] = g + 0.1 * k;
      auto& e = groups[g];
      e.group_name = names[g].data();
      e.group_motion_state = 2;
      e.control_type = 1;
      e.motor_mode = static_cast<std::uint8_t>(g % 2);
      e.position = {per_group, per_group, values[g].data(), false};
      e.velocity = {per_group, per_group, values[g].data(), false};
      e.effort = {per_group, per_group, values[g].data(), false};
    }
    wire.group_cmd = {count, count, groups.data(), false};
  }
};

TEST_CASE("aurora robot codec: a group command reads back with every group's name, states and values",
          "[aurora][robot_codec]") {
  CommandSample sample(3, 7);
  a::GroupCommandValue v;
  REQUIRE(a::group_command_from_wire(sample.wire, v) == nullptr);
  REQUIRE(v.groups.size == 3);
  CHECK(v.groups[2].name.view() == "g2");
  CHECK(v.groups[2].motion_state == 2);
  CHECK(v.groups[2].control_type == 1);
  CHECK(v.groups[1].motor_mode == 1);
  CHECK(v.groups[0].motor_mode == 0);
  REQUIRE(v.groups[2].position.size == 7);
  CHECK(v.groups[2].position[6] == Approx(2.6));
  CHECK(v.groups[1].effort[3] == Approx(1.3));
}

TEST_CASE("aurora robot codec: a group command the robot cannot hold is refused with its reason",
          "[aurora][robot_codec]") {
  a::GroupCommandValue v;
  SECTION("nine groups") {
    CommandSample sample(9, 1);
    CHECK(std::string(a::group_command_from_wire(sample.wire, v)) == "robot_control_group_cmd: more than 8 groups");
  }
  SECTION("a name of 32 characters") {
    CommandSample sample(2, 1);
    sample.names[1] = std::string(32, 'x');
    sample.groups[1].group_name = sample.names[1].data();
    CHECK(std::string(a::group_command_from_wire(sample.wire, v)) ==
          "robot_control_group_cmd: a group_name longer than 31 characters");
  }
  SECTION("nine values in a group") {
    CommandSample sample(2, 9);
    CHECK(std::string(a::group_command_from_wire(sample.wire, v)) ==
          "robot_control_group_cmd: a group with more than 8 values");
  }
}

TEST_CASE("aurora robot codec: a motor configuration reads back per group, and one too large is refused",
          "[aurora][robot_codec]") {
  std::array<fourier_msgs_msg_MotorCfgGroupCmd, 2> groups{};
  std::array<double, 9> kp{400, 300, 200, 100, 50, 40, 30, 20, 10};
  std::array<double, 9> kd{4, 3, 2, 1, 0.5, 0.4, 0.3, 0.2, 0.1};
  std::string left = "left_leg", right = "right_leg";
  groups[0] = {left.data(), {6, 6, kp.data(), false}, {6, 6, kd.data(), false}};
  groups[1] = {right.data(), {6, 6, kp.data(), false}, {6, 6, kd.data(), false}};
  a::MotorConfigWire wire{};
  wire.group_cmd = {2, 2, groups.data(), false};
  a::MotorConfigValue v;
  REQUIRE(a::motor_config_from_wire(wire, v) == nullptr);
  REQUIRE(v.groups.size == 2);
  CHECK(v.groups[1].name.view() == "right_leg");
  CHECK(v.groups[1].kp[3] == 100);
  CHECK(v.groups[0].kd[5] == Approx(0.4));

  groups[1].pd_kd = {9, 9, kd.data(), false};
  CHECK(std::string(a::motor_config_from_wire(wire, v)) == "robot_motor_cfg_group_cmd: a group with more than 8 gains");
}

}  // namespace aurora_robot_codec_test
