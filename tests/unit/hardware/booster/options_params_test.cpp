// A Booster backend's options by field name (options_params.hpp): the UNVERIFIED wire facts (topic
// and type names, QoS, the motor space, MotorCmd.mode) and the lifecycle's choices from settings.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "praxis/hardware/booster/options_params.hpp"

namespace {
namespace booster_options_params_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;

void set(b::BackendOptions& o, std::vector<std::string> settings) {
  praxis::io::apply_settings(o, settings, "--set");
}

TEST_CASE("booster options: the wire's unverified facts are settings: topic and type names and QoS and space and motor mode",
          "[booster][params]") {
  b::BackendOptions o;
  set(o, {"wire.topics.joint_ctrl=rt/low_cmd", "wire.topics.light_channel=rt/LightApi",
          "wire.types.low_state=booster_interface::msg::dds_::LowState_", "wire.types.rpc_request=RpcReqMsg",
          "wire.codec.space=parallel", "wire.codec.motor_mode=1", "wire.codec.weight=0.5",
          "wire.codec.overheat_celsius=80", "wire.state_qos.reliable=false", "wire.state_qos.depth=1",
          "wire.command_qos.transient_local=true", "dds.domain=7", "dds.interface=eth1"});
  CHECK(o.wire.topics.joint_ctrl == "rt/low_cmd");
  CHECK(o.wire.topics.light_channel == "rt/LightApi");
  CHECK(o.wire.topics.low_state == "rt/low_state");  // untouched keys keep their defaults
  CHECK(o.wire.types.low_state == "booster_interface::msg::dds_::LowState_");
  CHECK(o.wire.types.rpc_request == "RpcReqMsg");
  CHECK(o.wire.types.low_cmd.empty());
  CHECK(o.wire.codec.space == b::MotorSpace::parallel);
  CHECK(o.wire.codec.motor_mode == 1);
  CHECK(o.wire.codec.weight == 0.5f);
  CHECK(o.wire.codec.overheat_celsius == 80.0f);
  CHECK(o.wire.state_qos.reliable == false);
  CHECK(o.wire.state_qos.depth == 1);
  CHECK(o.wire.command_qos.transient_local);
  CHECK(o.dds.domain == 7);
  CHECK(o.dds.interface == "eth1");
}

TEST_CASE("booster options: the release mode and motor space by their names and errors that list the choices",
          "[booster][params]") {
  b::BackendOptions o;
  set(o, {"release_mode=prepare", "wire.codec.space=serial", "upper_body.include_head=true",
          "upper_body.weight_rate=0.25", "upper_body.enter_walking=false", "upper_body.call_upper_body_api=false"});
  CHECK(o.release_mode == b::Mode::prepare);
  CHECK(o.wire.codec.space == b::MotorSpace::serial);
  CHECK(o.upper_body.include_head);
  CHECK(o.upper_body.weight_rate == 0.25);
  CHECK_FALSE(o.upper_body.enter_walking);
  CHECK_FALSE(o.upper_body.call_upper_body_api);
  for (const char* mode : {"damping", "prepare", "walking", "custom", "soccer"}) {
    set(o, {std::string("release_mode=") + mode});
    CHECK(b::to_string(o.release_mode) == std::string(1, static_cast<char>(mode[0] - 'a' + 'A')) + (mode + 1));
  }
  CHECK_THROWS_WITH(set(o, {"release_mode=Damping"}), Catch::Contains("release_mode") && Catch::Contains("\"damping\""));
  CHECK_THROWS_WITH(set(o, {"wire.codec.space=motor"}), Catch::Contains("wire.codec.space") && Catch::Contains("\"parallel\""));
  CHECK_THROWS_WITH(set(o, {"wire.topics.low_cmd=rt/x"}), Catch::Contains("low_cmd"));
  CHECK(o.release_mode == b::Mode::soccer);  // a refused setting changes nothing
}

TEST_CASE("booster options: durations are read from settings", "[booster][params]") {
  b::BackendOptions o;
  CHECK(o.worker_period == 10ms);          // HULKs' tick
  CHECK(o.lifecycle_rpc_timeout == 1000ms);  // the SDK's default per call
  set(o, {"link_timeout=0.25", "worker_period=0.02", "prepare_settle=3", "lifecycle_rpc_timeout=0.5"});
  CHECK(o.link_timeout == 250ms);
  CHECK(o.worker_period == 20ms);
  CHECK(o.prepare_settle == 3s);
  CHECK(o.lifecycle_rpc_timeout == 500ms);
}

}  // namespace booster_options_params_test
}  // namespace
