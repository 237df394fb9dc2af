#pragma once
// The fake Booster robot's light service: SetLEDLightColor (2000, {"r","g","b"} 0..255) takes the
// LEDs over with one colour, StopLEDLightControl (2001) hands them back to the robot. Calls are
// recorded with their arrival time. Errors as in the loco service: a bad body or unknown id is 400.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service.hpp"

namespace praxis::fake_booster {

struct Color {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Color&, const Color&) = default;
};

class LightService {
 public:
  Answer handle(TimePoint now, std::int64_t api_id, std::string_view body) {
    Answer answer;
    try {
      answer = dispatch(api_id, body);
    } catch (const detail::BadBody& e) {
      answer = {booster::status::k_bad_request, detail::message_body(e.what())};
    }
    calls_.push_back({now, api_id, std::string(body), answer.status, true});
    return answer;
  }

  // The colour set over RPC; empty while the robot drives its LEDs itself (at start, after stop).
  [[nodiscard]] std::optional<Color> color() const { return color_; }
  [[nodiscard]] std::vector<RecordedCall> calls() const { return calls_; }

 private:
  static std::uint8_t channel(const nlohmann::json& j, const char* key) {
    const auto v = detail::integer(j, "SetLEDLightColor", key);
    if (v < 0 || v > 255) {
      throw detail::BadBody(std::string("SetLEDLightColor: \"") + key + "\" must be 0..255, got " + std::to_string(v));
    }
    return static_cast<std::uint8_t>(v);
  }

  Answer dispatch(std::int64_t api_id, std::string_view body) {
    switch (api_id) {
      case booster::light_api::k_set_led_light_color: {
        const auto j = detail::parse_body("SetLEDLightColor", body);
        color_ = Color{channel(j, "r"), channel(j, "g"), channel(j, "b")};
        return {};
      }
      case booster::light_api::k_stop_led_light_control:
        (void)detail::parse_body("StopLEDLightControl", body);
        color_.reset();
        return {};
      default:
        return {booster::status::k_bad_request,
                detail::message_body("the light service has no API " + std::to_string(api_id))};
    }
  }

  std::optional<Color> color_;
  std::vector<RecordedCall> calls_;
};

}  // namespace praxis::fake_booster
