// Booster's high-level API as numbers (api.hpp) against the fact sheet: RobotMode, LocoApiId,
// LightApiId, the RPC status codes (SDK rpc/error.hpp) and the topic names.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "praxis/hardware/booster/api.hpp"

namespace {
namespace booster_api_test {

namespace b = praxis::booster;

TEST_CASE("booster api: RobotMode's values and names are the SDK's - Soccer included") {
  CHECK(static_cast<int>(b::Mode::unknown) == -1);
  CHECK(static_cast<int>(b::Mode::damping) == 0);
  CHECK(static_cast<int>(b::Mode::prepare) == 1);
  CHECK(static_cast<int>(b::Mode::walking) == 2);
  CHECK(static_cast<int>(b::Mode::custom) == 3);
  CHECK(static_cast<int>(b::Mode::soccer) == 4);
  CHECK(b::to_string(b::Mode::unknown) == "Unknown");
  CHECK(b::to_string(b::Mode::damping) == "Damping");
  CHECK(b::to_string(b::Mode::prepare) == "Prepare");
  CHECK(b::to_string(b::Mode::walking) == "Walking");
  CHECK(b::to_string(b::Mode::custom) == "Custom");
  CHECK(b::to_string(b::Mode::soccer) == "Soccer");
  CHECK(b::to_string(static_cast<b::Mode>(5)) == "?");  // a newer firmware's mode is not named as another
}

TEST_CASE("booster api: the loco and light API ids are LocoApiId's and LightApiId's") {
  namespace loco = b::loco_api;
  CHECK(loco::k_change_mode == 2000);
  CHECK(loco::k_move == 2001);
  CHECK(loco::k_rotate_head == 2004);
  CHECK(loco::k_lie_down == 2007);
  CHECK(loco::k_get_up == 2008);
  CHECK(loco::k_get_mode == 2017);
  CHECK(loco::k_get_status == 2018);
  CHECK(loco::k_shoot == 2024);
  CHECK(loco::k_upper_body_custom_control == 2030);
  CHECK(loco::k_visual_kick == 2038);
  CHECK(b::light_api::k_set_led_light_color == 2000);
  CHECK(b::light_api::k_stop_led_light_control == 2001);
}

TEST_CASE("booster api: every RPC status code has its own meaning and an unknown code says so") {
  namespace st = b::status;
  const std::int32_t codes[] = {st::k_pending,       st::k_ok,       st::k_timeout,
                                st::k_bad_request,   st::k_conflict, st::k_too_frequent,
                                st::k_internal_error, st::k_refused, st::k_transition_failed};
  const std::int32_t sheet[] = {-1, 0, 100, 400, 409, 429, 500, 501, 502};
  std::set<std::string_view> meanings;
  for (std::size_t k = 0; k < 9; ++k) {
    CAPTURE(sheet[k]);
    CHECK(codes[k] == sheet[k]);
    CHECK(b::status_meaning(codes[k]) != "unknown status");
    meanings.insert(b::status_meaning(codes[k]));
  }
  CHECK(meanings.size() == 9);
  CHECK(b::status_meaning(st::k_conflict) == "conflicts with the robot's current state");
  CHECK(b::status_meaning(st::k_transition_failed) == "state machine transition failed");
  for (const std::int32_t other : {1, 404, 503, -2}) CHECK(b::status_meaning(other) == "unknown status");
}

TEST_CASE("booster api: the default topic names are the SDK's and the RPC channels add Req and Resp") {
  const b::TopicNames t;
  CHECK(t.joint_ctrl == "rt/joint_ctrl");  // there is no rt/low_cmd
  CHECK(t.low_state == "rt/low_state");
  CHECK(t.odometer == "rt/odometer_state");
  CHECK(t.fall_down == "rt/fall_down");
  CHECK(t.kick_ball == "rt/kick_ball");
  CHECK(t.button_event == "rt/button_event");
  CHECK(t.remote_controller == "rt/remote_controller_state");
  CHECK(t.loco_channel == "rt/LocoApiTopic");
  CHECK(t.light_channel == "rt/LightControlApiTopic");
  CHECK(b::request_topic(t.loco_channel) == "rt/LocoApiTopicReq");
  CHECK(b::response_topic(t.light_channel) == "rt/LightControlApiTopicResp");
}

}  // namespace booster_api_test
}  // namespace
