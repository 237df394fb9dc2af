// Unitree's RPC envelope and service tables (rpc.hpp): what a request carries, what a reply gives
// back, the topic names, the motion switcher's CheckMode reply, and the API ids against
// docs/backends/unitree_wire.md's sources. (release_motion_control over DDS and the well-formed
// CheckMode replies: tests/unit/transport/dds_transport_test.cpp.)

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "praxis/hardware/unitree/rpc.hpp"

namespace {
namespace unitree_rpc_test {

namespace u = praxis::unitree;

TEST_CASE("a Unitree request carries the call's id and API id with no lease, priority 0 and a reply wanted",
          "[unitree][rpc]") {
  u::UnitreeApiTraits::Request r{};
  r.header.lease.id = 77;  // whatever was there before
  r.header.policy.noreply = true;
  const u::ApiCall call{u::motion_switcher::k_release_mode, R"({"x":1})"};
  u::UnitreeApiTraits::fill(r, call, 123456789012345);
  CHECK(r.header.identity.id == 123456789012345);
  CHECK(r.header.identity.api_id == 1003);
  CHECK(r.header.lease.id == 0);
  CHECK(r.header.policy.priority == 0);
  CHECK_FALSE(r.header.policy.noreply);
  REQUIRE(r.parameter != nullptr);
  CHECK(std::string(r.parameter) == R"({"x":1})");
}

TEST_CASE("a Unitree reply gives its status code and data, no data as empty text, and is matched by its id",
          "[unitree][rpc]") {
  u::UnitreeApiTraits::Response r{};
  r.header.identity.id = 42;
  r.header.status.code = 3104;
  std::string data = R"({"name":"normal"})";
  r.data = data.data();
  CHECK(u::UnitreeApiTraits::id_of(r) == 42);
  auto reply = u::UnitreeApiTraits::reply_of(r);
  CHECK(reply.code == 3104);
  CHECK(reply.data == data);
  r.data = nullptr;
  reply = u::UnitreeApiTraits::reply_of(r);
  CHECK(reply.data.empty());
  CHECK(u::ApiReply{}.code != 0);  // a reply never filled in is no success
}

TEST_CASE("service topics are rt/api/<service>/request and /response", "[unitree][rpc]") {
  CHECK(u::api_request_topic(u::motion_switcher::k_service) == "rt/api/motion_switcher/request");
  CHECK(u::api_response_topic(u::motion_switcher::k_service) == "rt/api/motion_switcher/response");
  CHECK(u::api_request_topic(u::sport::k_service) == "rt/api/sport/request");
  CHECK(u::api_response_topic(u::h1_loco::k_service) == "rt/api/loco/response");
}

TEST_CASE("a CheckMode reply that is no object or whose name is no text is an error, a missing name is none",
          "[unitree][rpc]") {
  CHECK(u::mode_name_from(R"({"form":"0"})").empty());
  CHECK(u::mode_name_from(R"({"name":"ai-w","form":"1"})") == "ai-w");
  CHECK_THROWS_WITH(u::mode_name_from(R"(["normal"])"), Catch::Contains("expected a JSON object"));
  CHECK_THROWS_WITH(u::mode_name_from("\"normal\""), Catch::Contains("expected a JSON object"));
  CHECK_THROWS_WITH(u::mode_name_from(R"({"name":1})"), Catch::Contains("\"name\" is not a string"));
  CHECK_THROWS_WITH(u::mode_name_from(R"({"name":null})"), Catch::Contains("\"name\" is not a string"));
}

TEST_CASE("the motion switcher's API ids and name are the vendor's", "[unitree][rpc]") {
  CHECK(std::strcmp(u::motion_switcher::k_service, "motion_switcher") == 0);
  CHECK(u::motion_switcher::k_check_mode == 1001);
  CHECK(u::motion_switcher::k_select_mode == 1002);
  CHECK(u::motion_switcher::k_release_mode == 1003);
  CHECK(u::motion_switcher::k_set_silent == 1004);
  CHECK(u::motion_switcher::k_get_silent == 1005);
}

TEST_CASE("the locomotion clients' ids: the Go2's sport service and the G1's and H1's LocoClient", "[unitree][rpc]") {
  // As docs/backends/unitree.md's tables of calls name them. Go2 SportClient: Damp 1001 to Move 1008.
  CHECK(u::sport::k_damp == 1001);
  CHECK(u::sport::k_balance_stand == 1002);
  CHECK(u::sport::k_stop_move == 1003);
  CHECK(u::sport::k_stand_up == 1004);
  CHECK(u::sport::k_stand_down == 1005);
  CHECK(u::sport::k_recovery_stand == 1006);
  CHECK(u::sport::k_move == 1008);
  // The LocoClients: getters 7001 / 8001, setters 7101 / 8101 on; the velocity is the fifth setter.
  CHECK(u::loco::k_get_fsm_id == 7001);
  CHECK(u::loco::k_set_fsm_id == 7101);
  CHECK(u::loco::k_set_velocity == 7105);
  CHECK(u::h1_loco::k_get_fsm_id == 8001);
  CHECK(u::h1_loco::k_set_fsm_id == 8101);
  CHECK(u::h1_loco::k_set_velocity == 8105);
  CHECK(u::loco::k_fsm_stand_up == 4);
  CHECK(u::loco::k_fsm_start == 500);
  CHECK(u::h1_loco::k_fsm_stand_up == 2);
  CHECK(u::h1_loco::k_fsm_start == 204);
  CHECK(u::loco::k_fsm_damp == u::h1_loco::k_fsm_damp);  // both clients: 0 zero torque, 1 damp
  CHECK(u::loco::k_fsm_zero_torque == 0);
  CHECK(u::h1_loco::k_fsm_zero_torque == 0);
}

}  // namespace unitree_rpc_test
}  // namespace
