// A Unitree backend's options by field name (options_params.hpp): the UNVERIFIED wire facts (topics,
// their QoS, mode_machine, mode_pr) and the lifecycle's choices, for the low-level backend and the
// G1 arm SDK, from settings and from a parameters document.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "praxis/hardware/unitree/options_params.hpp"

namespace {
namespace unitree_options_params_test {

namespace u = praxis::unitree;
using namespace std::chrono_literals;

template <class Options>
void set(Options& o, std::vector<std::string> settings) {
  praxis::io::apply_settings(o, settings, "--set");
}

TEST_CASE("unitree options: topics, QoS, mode_pr and a fixed mode_machine are settings", "[unitree][params]") {
  u::BackendOptions o;
  CHECK_FALSE(o.mode_machine.has_value());  // default: echo the robot's
  set(o, {"lowcmd_topic=rt/lowcmd_b", "lowstate_topic=rt/lowstate_b", "qos.reliable=false", "qos.depth=1",
          "qos.transient_local=true", "mode_pr=1", "mode_machine=6", "dds.domain=3", "dds.interface=enp2s0"});
  CHECK(o.lowcmd_topic == "rt/lowcmd_b");
  CHECK(o.lowstate_topic == "rt/lowstate_b");
  REQUIRE(o.qos.reliable.has_value());
  CHECK_FALSE(*o.qos.reliable);
  CHECK(o.qos.depth == 1);
  CHECK(o.qos.transient_local);
  CHECK(o.mode_pr == 1);
  CHECK(o.mode_machine == std::uint8_t{6});
  CHECK(o.dds.domain == 3u);
  CHECK(o.dds.interface == "enp2s0");
  CHECK(o.check_state_crc);  // untouched keys keep their defaults
  set(o, {"mode_machine=null"});
  CHECK_FALSE(o.mode_machine.has_value());  // back to echoing the robot's
}

TEST_CASE("unitree options: the lifecycle's choices and durations", "[unitree][params]") {
  u::BackendOptions o;
  set(o, {"release_motion_service=false", "motion_switcher_required=false", "check_state_crc=false",
          "link_timeout=0.25", "release.call_timeout=0.5", "release.overall_timeout=4", "release.retry_interval=1.5"});
  CHECK_FALSE(o.release_motion_service);
  CHECK_FALSE(o.motion_switcher_required);
  CHECK_FALSE(o.check_state_crc);
  CHECK(o.link_timeout == 250ms);
  CHECK(o.release.call_timeout == 500ms);
  CHECK(o.release.overall_timeout == 4s);
  CHECK(o.release.retry_interval == 1500ms);
}

TEST_CASE("unitree options: a mode_machine or mode_pr outside a byte is refused and changes nothing",
          "[unitree][params]") {
  u::BackendOptions o;
  set(o, {"mode_machine=5"});
  CHECK_THROWS_WITH(set(o, {"mode_machine=256"}), Catch::Contains("mode_machine"));
  CHECK_THROWS_WITH(set(o, {"mode_pr=-1"}), Catch::Contains("mode_pr"));
  CHECK_THROWS_WITH(set(o, {"lowcmd=rt/x"}), Catch::Contains("lowcmd"));  // no such key
  CHECK(o.mode_machine == std::uint8_t{5});
  CHECK(o.mode_pr == 0);
}

TEST_CASE("unitree arm SDK options: the topic, the weight slot and its rate from a parameters document",
          "[unitree][params]") {
  u::ArmSdkOptions o;
  CHECK(o.weight_slot == 29u);  // unitree_sdk2's G1 arm SDK example
  const auto doc = nlohmann::json::parse(R"({
    "arm_sdk_topic": "rt/arm_sdk_b", "lowstate_topic": "rt/lf/lowstate", "weight_slot": 30,
    "weight_rate": 0.5, "mode_machine": 4, "check_state_crc": false, "link_timeout": 0.2,
    "dds": {"domain": 2}, "qos": {"depth": 5}
  })");
  praxis::io::load_struct_into(o, doc, "arm.json");
  CHECK(o.arm_sdk_topic == "rt/arm_sdk_b");
  CHECK(o.lowstate_topic == "rt/lf/lowstate");
  CHECK(o.weight_slot == 30u);
  CHECK(o.weight_rate == 0.5);
  CHECK(o.mode_machine == std::uint8_t{4});
  CHECK_FALSE(o.check_state_crc);
  CHECK(o.link_timeout == 200ms);
  CHECK(o.dds.domain == 2u);
  CHECK(o.qos.depth == 5);
  CHECK_FALSE(o.qos.reliable.has_value());
}

}  // namespace unitree_options_params_test
}  // namespace
