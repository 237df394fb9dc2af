#pragma once
// What the fake Booster robot's RPC services share: the answer to one call, the record of a call,
// and reading a JSON request body with a 400 that names the API and the key. No DDS here: the
// services are plain objects, called with the time of arrival, so tests drive them directly.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <praxis/core/clock.hpp>
#include <praxis/hardware/booster/api.hpp>

namespace praxis::fake_booster {

struct Answer {
  std::int32_t status = booster::status::k_ok;
  std::string body;
  Duration delay{};    // answer this much later (a slow robot)
  bool never = false;  // leave the call unanswered (the client must time out)
};

struct RecordedCall {
  TimePoint at;
  std::int64_t api_id = 0;
  std::string body;
  std::int32_t status = booster::status::k_ok;
  bool answered = true;  // false: the answer was withheld (Answer::never)
};

namespace detail {

// A request the service cannot read; handle() turns it into a 400 carrying the message.
class BadBody : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline std::string message_body(std::string_view message) { return nlohmann::json{{"message", message}}.dump(); }

// The body as a JSON object. "" reads as {} (what vendor clients send for APIs without parameters).
inline nlohmann::json parse_body(std::string_view api, std::string_view body) {
  if (body.empty()) return nlohmann::json::object();
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw BadBody(std::string(api) + ": the body must be a JSON object, got \"" + std::string(body) + "\"");
  }
  return j;
}

inline const nlohmann::json& require_key(const nlohmann::json& j, std::string_view api, const char* key,
                                         const char* expected) {
  const auto it = j.find(key);
  if (it == j.end()) {
    throw BadBody(std::string(api) + ": missing key \"" + key + "\" (expected " + expected + ")");
  }
  return *it;
}

inline double number(const nlohmann::json& j, std::string_view api, const char* key) {
  const auto& v = require_key(j, api, key, "a number");
  if (!v.is_number()) throw BadBody(std::string(api) + ": \"" + key + "\" must be a number, got " + v.dump());
  return v.get<double>();
}

inline std::int64_t integer(const nlohmann::json& j, std::string_view api, const char* key) {
  const auto& v = require_key(j, api, key, "an integer");
  if (!v.is_number_integer()) {
    throw BadBody(std::string(api) + ": \"" + key + "\" must be an integer, got " + v.dump());
  }
  return v.get<std::int64_t>();
}

inline bool boolean(const nlohmann::json& j, std::string_view api, const char* key) {
  const auto& v = require_key(j, api, key, "true or false");
  if (!v.is_boolean()) throw BadBody(std::string(api) + ": \"" + key + "\" must be true or false, got " + v.dump());
  return v.get<bool>();
}

}  // namespace detail
}  // namespace praxis::fake_booster
