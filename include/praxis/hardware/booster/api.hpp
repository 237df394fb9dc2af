#pragma once
// Booster's high-level API as numbers: the loco and light services' API ids, the robot's modes and
// the RPC status codes (SDK b1_loco_api.hpp, robot_shared.hpp, light_control_api.hpp, rpc/error.hpp;
// docs/backends/booster.md, "Wire facts and their sources": RPC, loco API ids and modes), and the
// topic names of the DDS channels. Names that only third-party code confirms are defaults of
// BoosterTopicNames, not constants.

#include <cstdint>
#include <string>
#include <string_view>

namespace praxis::booster {

// The robot's own modes (RobotMode in the SDK; Soccer since v1.3).
enum class Mode : std::int32_t { unknown = -1, damping = 0, prepare = 1, walking = 2, custom = 3, soccer = 4 };

[[nodiscard]] constexpr std::string_view to_string(Mode m) {
  switch (m) {
    case Mode::unknown: return "Unknown";
    case Mode::damping: return "Damping";
    case Mode::prepare: return "Prepare";
    case Mode::walking: return "Walking";
    case Mode::custom: return "Custom";
    case Mode::soccer: return "Soccer";
  }
  return "?";
}

// Loco service API ids (LocoApiId). Only those praxis calls or its fake robot answers are named.
namespace loco_api {
inline constexpr std::int64_t k_change_mode = 2000;  // {"mode": int}
inline constexpr std::int64_t k_move = 2001;         // {"vx", "vy" (m/s), "vyaw" (rad/s)}
inline constexpr std::int64_t k_rotate_head = 2004;  // {"pitch", "yaw"} (rad)
inline constexpr std::int64_t k_lie_down = 2007;     // empty
inline constexpr std::int64_t k_get_up = 2008;       // {"version": 0 V1 | 1 V2}
inline constexpr std::int64_t k_get_mode = 2017;     // empty -> {"mode": int}
inline constexpr std::int64_t k_get_status = 2018;   // empty -> {"current_mode", "current_body_control", "current_actions"}
inline constexpr std::int64_t k_shoot = 2024;        // empty
inline constexpr std::int64_t k_upper_body_custom_control = 2030;  // {"start": bool}
inline constexpr std::int64_t k_visual_kick = 2038;  // {"start": bool, "version": 0 V1 | 1 V2}
}  // namespace loco_api

// Light service API ids (LightApiId).
namespace light_api {
inline constexpr std::int64_t k_set_led_light_color = 2000;   // {"r", "g", "b"} 0..255
inline constexpr std::int64_t k_stop_led_light_control = 2001;  // empty
}  // namespace light_api

// RPC status codes (rpc/error.hpp). -1 in a response means "not final yet".
namespace status {
inline constexpr std::int32_t k_pending = -1;
inline constexpr std::int32_t k_ok = 0;
inline constexpr std::int32_t k_timeout = 100;
inline constexpr std::int32_t k_bad_request = 400;
inline constexpr std::int32_t k_conflict = 409;            // invalid in the robot's current state / mode
inline constexpr std::int32_t k_too_frequent = 429;
inline constexpr std::int32_t k_internal_error = 500;
inline constexpr std::int32_t k_refused = 501;
inline constexpr std::int32_t k_transition_failed = 502;  // state machine transition failed
}  // namespace status

[[nodiscard]] constexpr std::string_view status_meaning(std::int32_t code) {
  switch (code) {
    case status::k_pending: return "not answered yet";
    case status::k_ok: return "success";
    case status::k_timeout: return "timeout";
    case status::k_bad_request: return "bad request";
    case status::k_conflict: return "conflicts with the robot's current state";
    case status::k_too_frequent: return "request too frequent";
    case status::k_internal_error: return "internal server error";
    case status::k_refused: return "server refused";
    case status::k_transition_failed: return "state machine transition failed";
    default: return "unknown status";
  }
}

// Topic names. The RPC channels are rt/<channel>Req and rt/<channel>Resp.
struct TopicNames {
  std::string joint_ctrl = "rt/joint_ctrl";
  std::string low_state = "rt/low_state";
  std::string odometer = "rt/odometer_state";
  std::string fall_down = "rt/fall_down";
  std::string kick_ball = "rt/kick_ball";
  std::string button_event = "rt/button_event";                        // 3rd-party name
  std::string remote_controller = "rt/remote_controller_state";        // 3rd-party name
  std::string loco_channel = "rt/LocoApiTopic";
  std::string light_channel = "rt/LightControlApiTopic";               // 3rd-party name
};

[[nodiscard]] inline std::string request_topic(const std::string& channel) { return channel + "Req"; }
[[nodiscard]] inline std::string response_topic(const std::string& channel) { return channel + "Resp"; }

}  // namespace praxis::booster
