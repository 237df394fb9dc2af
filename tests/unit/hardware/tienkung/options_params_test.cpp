// The Tienkung backend's options by name, and the UNVERIFIED speed unit: praxis speaks rad/s, the
// wire gets rpm when told so, both ways.

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "praxis/hardware/tienkung/options_params.hpp"

namespace tk = praxis::tienkung;
using namespace std::chrono_literals;

TEST_CASE("tienkung options: speed unit, layout-independent names and QoS by name", "[tienkung][params]") {
  tk::BackendOptions o;
  CHECK(o.speed_unit == tk::SpeedUnit::rad_per_s);
  praxis::io::apply_settings(o,
                             std::vector<std::string>{"speed_unit=rpm", "dds.domain=7", "types.imu=bodyctrl_msgs::msg::Imu",
                                                      "state_qos.reliable=false", "topics.imu=rt/imu"},
                             "--set");
  CHECK(o.speed_unit == tk::SpeedUnit::rpm);
  CHECK(o.dds.domain == 7);
  CHECK(o.types.imu == "bodyctrl_msgs::msg::Imu");
  CHECK(o.state_qos.reliable == false);
  CHECK(o.topics.imu == "rt/imu");
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"speed_unit=rps"}, "--set"),
                    Catch::Contains("speed_unit") && Catch::Contains("\"rpm\""));
}

TEST_CASE("tienkung options: one limb's topic names by index from the command line, the others kept, a bad index "
          "named", "[tienkung][params]") {
  tk::BackendOptions o;
  const auto arm = o.topics.of(tk::Limb::arm);
  praxis::io::apply_settings(o, std::vector<std::string>{"topics.limbs[0].status=rt/legs/state", "topics.limbs.3.cmd_ctrl=rt/h"},
                             "--set");
  CHECK(o.topics.of(tk::Limb::leg).status == "rt/legs/state");
  CHECK(o.topics.of(tk::Limb::leg).cmd_ctrl == "rt/leg/cmd_ctrl");  // the element's other fields kept
  CHECK(o.topics.of(tk::Limb::head).cmd_ctrl == "rt/h");
  CHECK(o.topics.of(tk::Limb::arm).status == arm.status);           // the other elements kept
  const auto before = o.topics.of(tk::Limb::leg).status;
  CHECK_THROWS_WITH(
      praxis::io::apply_settings(o, std::vector<std::string>{"topics.imu=rt/x", "topics.limbs[4].status=rt/y"}, "--set"),
      Catch::Contains("topics.limbs") && Catch::Contains("index 0..3") && Catch::Contains("\"4\""));
  CHECK(o.topics.of(tk::Limb::leg).status == before);  // nothing half-applied
  CHECK(o.topics.imu == "rt/imu/status");
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"topics.limbs[x].status=rt/y"}, "--set"),
                    Catch::Contains("\"x\""));
}

TEST_CASE("tienkung codec: speeds go to the wire in rpm when the robot takes rpm", "[tienkung][codec][params]") {
  constexpr std::size_t P = tk::Pro::joint_count;
  const float rpm = tk::wire_speed_per_rad_s(tk::SpeedUnit::rpm);
  CHECK(rpm == Approx(60.0 / (2.0 * std::numbers::pi)));
  CHECK(tk::wire_speed_per_rad_s(tk::SpeedUnit::rad_per_s) == 1.0f);

  praxis::JointCommand<P> c;
  c.mode.fill(praxis::JointMode::none);
  c.mode[0] = praxis::JointMode::velocity;
  c.dq[0] = 1.0;
  tk::VelocityStops<P> stops(tk::StopRule{0.05f, 20ms, 50ms});
  tk::LimbSpeed speed;
  REQUIRE(tk::encode_limb_speed<tk::Pro, tk::Limb::leg>(c, stops, praxis::TimePoint{100s}, speed, rpm));
  CHECK(speed.cmds[0].spd == Approx(9.5493));

  c.mode[0] = praxis::JointMode::position;
  c.dq[0] = 0.5;
  tk::LimbCtrl ctrl;
  REQUIRE(tk::encode_limb_ctrl<tk::Pro, tk::Limb::leg>(c, ctrl, tk::PositionCommand::hybrid, rpm));
  CHECK(ctrl.cmds[0].spd == Approx(0.5 * 9.5493));

  tk::LimbPosition servo;
  REQUIRE(tk::encode_limb_position<tk::Pro, tk::Limb::leg>(c, tk::ServoLimits{0.3f, 3.0f}, servo, rpm));
  CHECK(servo.cmds[0].spd == Approx(0.3 * 9.5493));
}
