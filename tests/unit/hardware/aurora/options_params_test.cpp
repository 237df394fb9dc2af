// The Aurora backend's options by name: the UNVERIFIED naming facts (type-name style, ROS 2
// mangling, a prefix without a serial) from settings, and the names they put on the wire.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "praxis/hardware/aurora/options_params.hpp"

namespace a = praxis::aurora;

TEST_CASE("aurora options: naming styles and a prefix give the wire's topic and type names", "[aurora][params]") {
  a::BackendOptions o;
  praxis::io::apply_settings(o, std::vector<std::string>{"wire.naming=ros2", "dds.domain=123"}, "--set");
  auto w = a::resolved_names(o.wire);
  CHECK(w.topics.aurora_state == "rt/aurora_state");
  CHECK(w.topics.group_command == "rt/robot_control_group_cmd");
  CHECK(w.types.aurora_state == "fourier_msgs::msg::dds_::AuroraState_");
  CHECK(w.types.motor_config == "fourier_msgs::msg::dds_::RobotMotorCfgGroupCmd_");
  CHECK(o.dds.domain == 123);
  // Resolved names are final: resolving again changes nothing.
  const auto again = a::resolved_names(w);
  CHECK(again.topics.aurora_state == w.topics.aurora_state);
  CHECK(again.types.aurora_state == w.types.aurora_state);

  // Client 0.1.0: each topic's own name as its type; a robot name without a serial as the prefix.
  a::BackendOptions c;
  praxis::io::apply_settings(c, std::vector<std::string>{"wire.naming=topic_names", "wire.topic_prefix=gr3/"}, "--set");
  w = a::resolved_names(c.wire);
  CHECK(w.topics.velocity == "gr3/velocity_cmd");
  CHECK(w.types.velocity == "velocity_cmd");  // the bare topic name, as the client registers it

  // One type name of one's own.
  a::BackendOptions d;
  praxis::io::apply_settings(d, std::vector<std::string>{"wire.types.aurora_state=aurora_state"}, "--set");
  w = a::resolved_names(d.wire);
  CHECK(w.types.aurora_state == "aurora_state");
  CHECK(w.types.base_data == "fourier_msgs::msg::BaseData");
}

TEST_CASE("aurora options: the take-control states by Aurora's names, and errors that list the choices",
          "[aurora][params]") {
  a::BackendOptions o;
  praxis::io::apply_settings(
      o, std::vector<std::string>{"sequence.control_state=UpperBodyUserCmd", "sequence.release_state=SecurityProtection",
                                  "stand_pose=model", "wire.qos.reliable=true"},
      "--set");
  CHECK(o.sequence.control_state == a::WholeBodyState::upper_body_user_cmd);
  CHECK(o.sequence.release_state == a::WholeBodyState::security);
  CHECK(o.stand_pose == a::StandPoseSource::model);
  CHECK(o.wire.qos.reliable == true);
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"wire.naming=ros"}, "--set"),
                    Catch::Contains("wire.naming") && Catch::Contains("\"ros2\""));
  CHECK_THROWS_WITH(praxis::io::apply_settings(o, std::vector<std::string>{"wire.topicz.velocity=x"}, "--set"),
                    Catch::Contains("topicz"));
}
