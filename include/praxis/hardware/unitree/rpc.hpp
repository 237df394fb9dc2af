#pragma once
// Unitree's RPC envelope (unitree_api Request_ / Response_ on rt/api/<service>/request|response)
// and the motion switcher, which must release the robot's own motion service before low-level
// control (docs/backends/unitree_wire.md, "Motion switcher").

#include <cstdint>
#include <string>
#include <vector>

#include <praxis/idl/unitree_api.h>

#include "praxis/core/clock.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::unitree {

struct ApiCall {
  std::int64_t api_id = 0;
  std::string parameter;  // JSON text
};
struct ApiReply {
  std::int32_t code = -1;  // 0 = OK
  std::string data;        // JSON text
};

struct UnitreeApiTraits {
  using Request = unitree_api_msg_dds__Request_;
  using Response = unitree_api_msg_dds__Response_;
  using Call = ApiCall;
  using Reply = ApiReply;
  static const dds_topic_descriptor_t* request_descriptor() { return &unitree_api_msg_dds__Request__desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &unitree_api_msg_dds__Response__desc; }
  static void fill(Request& r, const Call& c, std::int64_t id) {
    r.header.identity.id = id;
    r.header.identity.api_id = c.api_id;
    r.header.lease.id = 0;
    r.header.policy.priority = 0;
    r.header.policy.noreply = false;
    r.parameter = const_cast<char*>(c.parameter.c_str());  // only read by dds_write
  }
  static std::int64_t id_of(const Response& r) { return r.header.identity.id; }
  static Reply reply_of(const Response& r) {
    return Reply{r.header.status.code, r.data != nullptr ? std::string(r.data) : std::string()};
  }
};

[[nodiscard]] inline std::string api_request_topic(const std::string& service) { return "rt/api/" + service + "/request"; }
[[nodiscard]] inline std::string api_response_topic(const std::string& service) { return "rt/api/" + service + "/response"; }

namespace motion_switcher {
inline constexpr const char* k_service = "motion_switcher";
inline constexpr std::int64_t k_check_mode = 1001;
inline constexpr std::int64_t k_select_mode = 1002;
inline constexpr std::int64_t k_release_mode = 1003;
inline constexpr std::int64_t k_set_silent = 1004;
inline constexpr std::int64_t k_get_silent = 1005;
}  // namespace motion_switcher

// The sport (locomotion) service of a Go2 (unitree_sdk2 go2/sport/sport_api.hpp: service "sport",
// API version 1.0.0.1): the calls vendor examples send before ReleaseMode, and those praxis' walking
// access uses (sport.hpp). Only the ids praxis calls or its fake robot answers are listed.
namespace sport {
inline constexpr const char* k_service = "sport";
inline constexpr std::int64_t k_damp = 1001;
inline constexpr std::int64_t k_balance_stand = 1002;
inline constexpr std::int64_t k_stop_move = 1003;
inline constexpr std::int64_t k_stand_up = 1004;
inline constexpr std::int64_t k_stand_down = 1005;
inline constexpr std::int64_t k_recovery_stand = 1006;
inline constexpr std::int64_t k_move = 1008;  // {"x": vx, "y": vy, "z": vyaw} (m/s, m/s, rad/s)
}  // namespace sport

// The G1's locomotion (unitree_sdk2 g1/loco/g1_loco_api.hpp, g1_loco_client.hpp: LocoClient, API
// version 1.0.0.0; its service name is "sport" in the current SDK, "loco" in older ones). FSM ids
// from the client's high-level calls.
namespace loco {
inline constexpr std::int64_t k_get_fsm_id = 7001;   // -> {"data": id}
inline constexpr std::int64_t k_set_fsm_id = 7101;   // {"data": id}
inline constexpr std::int64_t k_set_velocity = 7105;  // {"velocity": [vx, vy, omega], "duration": s}
inline constexpr int k_fsm_zero_torque = 0;
inline constexpr int k_fsm_damp = 1;
inline constexpr int k_fsm_squat = 2;
inline constexpr int k_fsm_sit = 3;
inline constexpr int k_fsm_stand_up = 4;
inline constexpr int k_fsm_start = 500;  // walking control (older examples: 200)
}  // namespace loco

// The H1's locomotion (unitree_sdk2 h1/loco/h1_loco_api.hpp, h1_loco_client.hpp: LocoClient, service
// "loco", API version 2.0.0.0; unitree_ros2's H1 client uses the same rt/api/loco/request|response).
// That the H1-2 speaks it is UNVERIFIED: a third-party H1-2 project drives it with the H1 LocoClient.
namespace h1_loco {
inline constexpr const char* k_service = "loco";
inline constexpr std::int64_t k_get_fsm_id = 8001;        // -> {"data": id}
inline constexpr std::int64_t k_get_fsm_mode = 8002;
inline constexpr std::int64_t k_get_balance_mode = 8003;
inline constexpr std::int64_t k_set_fsm_id = 8101;        // {"data": id}
inline constexpr std::int64_t k_set_balance_mode = 8102;  // {"data": mode}: 0 BalanceStand, 1 continuous gait
inline constexpr std::int64_t k_set_stand_height = 8104;
inline constexpr std::int64_t k_set_velocity = 8105;      // {"velocity": [vx, vy, omega], "duration": s}
inline constexpr std::int64_t k_set_arm_task = 8107;
inline constexpr std::int32_t k_error_loco_state_unavailable = 8301;
inline constexpr std::int32_t k_error_invalid_fsm_id = 8302;
inline constexpr int k_fsm_zero_torque = 0;
inline constexpr int k_fsm_damp = 1;
inline constexpr int k_fsm_stand_up = 2;
inline constexpr int k_fsm_start = 204;  // walking control
}  // namespace h1_loco

// The name of the active motion service in a CheckMode reply ("" = none); throws on bad JSON.
std::string mode_name_from(const std::string& check_mode_data);

struct ReleaseOptions {
  Duration call_timeout = std::chrono::seconds(2);
  Duration overall_timeout = std::chrono::seconds(20);
  Duration retry_interval = std::chrono::milliseconds(500);  // the vendor examples wait 1-5 s
};

// CheckMode / ReleaseMode until no motion service is active, as every Unitree low-level example
// does before publishing rt/lowcmd. Returns the names released, in order; throws RpcError with the
// last answer when the robot still runs a motion service after the overall timeout.
std::vector<std::string> release_motion_control(const transport::Participant& participant, const ReleaseOptions& options = {});

}  // namespace praxis::unitree
