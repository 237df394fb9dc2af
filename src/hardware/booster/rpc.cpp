#include "praxis/hardware/booster/rpc.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

namespace praxis::booster {

namespace {

using nlohmann::json;

std::string api_label(std::int64_t api_id, std::string_view name) {
  if (name.empty()) return "API " + std::to_string(api_id);
  return std::string(name) + " (" + std::to_string(api_id) + ")";
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t k_max = 200;  // a huge body should not drown the message
  std::string out = "\"";
  out += text.substr(0, k_max);
  out += text.size() <= k_max ? "\"" : "...\"";
  return out;
}

// 64 random bits drawn once per process.
std::uint64_t process_random() {
  static const std::uint64_t value = [] {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ static_cast<std::uint64_t>(device());
  }();
  return value;
}

std::atomic<std::uint64_t> g_uuid_sequence{0};

void append_hex(std::string& out, std::uint64_t v, int nibbles) {
  constexpr std::string_view k_digits = "0123456789abcdef";
  for (int i = nibbles - 1; i >= 0; --i) out += k_digits[(v >> (4 * i)) & 0xFu];
}

void require_finite(const char* function, const char* field, double value) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(std::string("LocoClient::") + function + ": " + field + " must be finite, got " +
                                std::to_string(value));
  }
}

// The reply body of a call answered with status 0; otherwise the typed error.
std::string checked_call(RpcChannel& channel, const RpcCall& call, Duration timeout, std::string_view name) {
  RpcReply reply;
  try {
    reply = channel.call(call, timeout);
  } catch (const RpcTimeout& e) {
    throw RpcTimeout(channel.name() + ": " + api_label(call.api_id, name) + ": " + e.what());
  }
  if (reply.status != status::k_ok) throw_for_status(channel.name(), call.api_id, name, reply.status, reply.body);
  return std::move(reply.body);
}

}  // namespace

// ---- errors ------------------------------------------------------------------------------------

RpcStatusError::RpcStatusError(std::string_view channel, std::int64_t api_id, std::string_view api_name,
                               std::int32_t status, std::string_view body)
    : transport::RpcError(std::string(channel) + ": " + api_label(api_id, api_name) + " failed with status " +
                    std::to_string(status) + " (" + std::string(status_meaning(status)) + ")" +
                    (body.empty() ? std::string(", empty reply body") : ": " + quoted_excerpt(body))),
      status_(status),
      api_id_(api_id),
      body_(body) {}

void throw_for_status(std::string_view channel, std::int64_t api_id, std::string_view api_name, std::int32_t code,
                      std::string_view body) {
  switch (code) {
    case status::k_timeout: throw ServerTimeout(channel, api_id, api_name, code, body);
    case status::k_bad_request: throw BadRequest(channel, api_id, api_name, code, body);
    case status::k_conflict: throw Conflict(channel, api_id, api_name, code, body);
    case status::k_too_frequent: throw TooFrequent(channel, api_id, api_name, code, body);
    case status::k_internal_error: throw InternalError(channel, api_id, api_name, code, body);
    case status::k_refused: throw Refused(channel, api_id, api_name, code, body);
    case status::k_transition_failed: throw TransitionFailed(channel, api_id, api_name, code, body);
    default: throw UnknownStatus(channel, api_id, api_name, code, body);
  }
}

std::string_view loco_api_name(std::int64_t api_id) {
  switch (api_id) {
    case loco_api::k_change_mode: return "ChangeMode";
    case loco_api::k_move: return "Move";
    case loco_api::k_rotate_head: return "RotateHead";
    case loco_api::k_lie_down: return "LieDown";
    case loco_api::k_get_up: return "GetUp";
    case loco_api::k_get_mode: return "GetMode";
    case loco_api::k_get_status: return "GetStatus";
    case loco_api::k_shoot: return "Shoot";
    case loco_api::k_visual_kick: return "VisualKick";
    case loco_api::k_upper_body_custom_control: return "UpperBodyCustomControl";
    default: return "";
  }
}

std::string_view light_api_name(std::int64_t api_id) {
  switch (api_id) {
    case light_api::k_set_led_light_color: return "SetLEDLightColor";
    case light_api::k_stop_led_light_control: return "StopLEDLightControl";
    default: return "";
  }
}

// ---- the envelope ------------------------------------------------------------------------------

std::string request_header(std::int64_t api_id, bool expect_response) {
  return json{{"api_id", api_id}, {"expect_response", expect_response}}.dump();
}

RequestHeader parse_request_header(std::string_view header) {
  const auto j = json::parse(header, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    throw transport::RpcError("request header: expected a JSON object like {\"api_id\": 2000}, got " +
                        quoted_excerpt(header));
  }
  RequestHeader out;
  const auto id = j.find("api_id");
  if (id == j.end()) throw transport::RpcError("request header: missing \"api_id\" in " + quoted_excerpt(header));
  if (!id->is_number_integer()) {
    throw transport::RpcError("request header: \"api_id\" must be an integer, got " + id->dump());
  }
  out.api_id = id->get<std::int64_t>();
  const auto expect = j.find("expect_response");
  if (expect != j.end()) {
    if (!expect->is_boolean()) {
      throw transport::RpcError("request header: \"expect_response\" must be true or false, got " + expect->dump());
    }
    out.expect_response = expect->get<bool>();
  }
  return out;
}

std::string response_header(std::int32_t code) { return json{{"status", code}}.dump(); }

std::optional<std::int32_t> parse_response_status(std::string_view header, std::string* error) {
  const auto j = json::parse(header, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    if (error != nullptr) *error = "expected a JSON object like {\"status\": 0}, got " + quoted_excerpt(header);
    return std::nullopt;
  }
  const auto it = j.find("status");
  if (it == j.end()) return status::k_ok;  // as the vendor's clients read it
  if (!it->is_number_integer() || it->get<std::int64_t>() < std::numeric_limits<std::int32_t>::min() ||
      it->get<std::int64_t>() > std::numeric_limits<std::int32_t>::max()) {
    if (error != nullptr) *error = "\"status\" must be a 32-bit integer, got " + it->dump();
    return std::nullopt;
  }
  return static_cast<std::int32_t>(it->get<std::int64_t>());
}

std::string make_uuid(std::int64_t unique) {
  const std::uint64_t sequence = g_uuid_sequence.fetch_add(1, std::memory_order_relaxed);
  // Version 4 in the top nibble of the third group, variant 10 in the top bits of the fourth.
  const std::uint64_t hi = (process_random() & ~0xF000ull) | 0x4000ull;
  const std::uint64_t lo = ((static_cast<std::uint64_t>(unique) & 0x3FFF'FFFFull) << 32) |
                           (sequence & 0xFFFF'FFFFull) | 0x8000'0000'0000'0000ull;
  std::string out;
  out.reserve(36);
  append_hex(out, hi >> 32, 8);
  out += '-';
  append_hex(out, hi >> 16, 4);
  out += '-';
  append_hex(out, hi, 4);
  out += '-';
  append_hex(out, lo >> 48, 4);
  out += '-';
  append_hex(out, lo, 12);
  return out;
}

void BoosterRpcTraits::fill(Request& r, const Call& c, const Id& id) {
  thread_local std::string header;
  header = request_header(c.api_id, c.expect_response);
  r.uuid = const_cast<char*>(id.c_str());  // only read by dds_write
  r.header = header.data();
  r.body = const_cast<char*>(c.body.c_str());
}

RpcReply BoosterRpcTraits::reply_of(const Response& r) {
  RpcReply reply;
  reply.body = r.body != nullptr ? std::string(r.body) : std::string();
  const auto code = parse_response_status(r.header != nullptr ? r.header : "", &reply.header_error);
  reply.status = code.value_or(status::k_pending);  // the SDK's "invalid" when it cannot be read
  return reply;
}

bool BoosterRpcTraits::is_final(const Response& r) {
  const auto code = parse_response_status(r.header != nullptr ? r.header : "");
  return !code || *code != status::k_pending;  // an unreadable header will not get better
}

// ---- channels ----------------------------------------------------------------------------------

DdsRpcChannel::DdsRpcChannel(const transport::Participant& participant, std::string channel, std::string_view request_type,
                             std::string_view response_type)
    : channel_(std::move(channel)),
      client_(participant, request_topic(channel_), response_topic(channel_), request_type, response_type) {}

RpcReply DdsRpcChannel::call(const RpcCall& call, Duration timeout) {
  RpcReply reply;
  try {
    reply = client_.call(call, timeout);
  } catch (const transport::RpcUnanswered& e) {
    throw RpcTimeout(e.what());
  }
  if (!reply.header_error.empty()) {
    throw BadReply(channel_ + ": API " + std::to_string(call.api_id) + ": unreadable response header: " +
                   reply.header_error);
  }
  return reply;
}

bool DdsRpcChannel::wait_for_server(Duration timeout) {
  const auto deadline = Clock::now() + timeout;
  while (client_.matched() == 0 || client_.response_matched() == 0) {
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// ---- clients -----------------------------------------------------------------------------------

LocoClient::LocoClient(RpcChannel& channel, Duration default_timeout)
    : LocoClient(channel, LocoClientOptions{.default_timeout = default_timeout}) {}

LocoClient::LocoClient(RpcChannel& channel, const LocoClientOptions& options) : channel_(&channel), options_(options) {}

std::string LocoClient::invoke(const RpcCall& call, std::optional<Duration> timeout) {
  if (closed_ && closed_()) throw RpcTimeout(std::string(loco_api_name(call.api_id)) + ": not sent: praxis-guard has the robot");
  const Duration wait = effective_timeout(timeout.value_or(options_.default_timeout));
  const auto start = Clock::now();
  try {
    std::string body = checked_call(*channel_, call, wait, loco_api_name(call.api_id));
    if (call.expect_response) answered_after(Clock::now() - start);
    return body;
  } catch (const RpcStatusError&) {  // answered, with a refusal: the robot's reply time all the same
    answered_after(Clock::now() - start);
    throw;
  }
}

Duration LocoClient::slowest_reply() const {
  std::int64_t slowest = 0;
  for (const auto& r : replies_ns_) slowest = std::max(slowest, r.load(std::memory_order_relaxed));
  return Duration(std::chrono::nanoseconds(slowest));
}

Duration LocoClient::effective_timeout(Duration asked) const {
  if (!options_.adaptive_timeout) return asked;
  const auto learned = std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::nano>(
      static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(slowest_reply()).count()) *
      options_.reply_margin));
  return std::max(asked, std::min(learned, options_.timeout_ceiling));
}

void LocoClient::answered_after(Duration took) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(took).count();
  replies_ns_[next_reply_.fetch_add(1, std::memory_order_relaxed) % k_replies].store(ns, std::memory_order_relaxed);
}

void LocoClient::change_mode(Mode mode, std::optional<Duration> timeout) {
  invoke({loco_api::k_change_mode, json{{"mode", static_cast<std::int32_t>(mode)}}.dump()}, timeout);
}

void LocoClient::move(double vx, double vy, double vyaw, std::optional<Duration> timeout) {
  require_finite("move", "vx", vx);
  require_finite("move", "vy", vy);
  require_finite("move", "vyaw", vyaw);
  invoke({loco_api::k_move, json{{"vx", vx}, {"vy", vy}, {"vyaw", vyaw}}.dump(), !options_.move_fire_and_forget},
         timeout);
}

void LocoClient::rotate_head(double pitch, double yaw, std::optional<Duration> timeout) {
  require_finite("rotate_head", "pitch", pitch);
  require_finite("rotate_head", "yaw", yaw);
  invoke({loco_api::k_rotate_head, json{{"pitch", pitch}, {"yaw", yaw}}.dump()}, timeout);
}

void LocoClient::get_up(int version, std::optional<Duration> timeout) {
  invoke({loco_api::k_get_up, json{{"version", version}}.dump()}, timeout);
}

void LocoClient::lie_down(std::optional<Duration> timeout) { invoke({loco_api::k_lie_down, ""}, timeout); }

void LocoClient::visual_kick(bool start, int version, std::optional<Duration> timeout) {
  invoke({loco_api::k_visual_kick, json{{"start", start}, {"version", version}}.dump()}, timeout);
}

void LocoClient::upper_body_custom_control(bool start, std::optional<Duration> timeout) {
  invoke({loco_api::k_upper_body_custom_control, json{{"start", start}}.dump()}, timeout);
}

Mode LocoClient::get_mode(std::optional<Duration> timeout) {
  const std::string body = invoke({loco_api::k_get_mode, ""}, timeout);
  const std::string where = channel_->name() + ": " + api_label(loco_api::k_get_mode, "GetMode") + ": ";
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("mode") || !j["mode"].is_number_integer()) {
    throw BadReply(where + "expected a reply body like {\"mode\": 1}, got " + quoted_excerpt(body));
  }
  const auto mode = j["mode"].get<std::int64_t>();
  if (mode < static_cast<std::int64_t>(Mode::unknown) || mode > static_cast<std::int64_t>(Mode::soccer)) {
    throw BadReply(where + "\"mode\" " + std::to_string(mode) + " is not a RobotMode (-1..4)");
  }
  return static_cast<Mode>(mode);
}

std::string LocoClient::call(std::int64_t api_id, std::string body, std::optional<Duration> timeout) {
  return invoke({api_id, std::move(body)}, timeout);
}

LightClient::LightClient(RpcChannel& channel, Duration default_timeout)
    : channel_(&channel), default_timeout_(default_timeout) {}

void LightClient::set_color(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::optional<Duration> timeout) {
  const RpcCall call{light_api::k_set_led_light_color, json{{"r", r}, {"g", g}, {"b", b}}.dump()};
  checked_call(*channel_, call, timeout.value_or(default_timeout_), light_api_name(call.api_id));
}

void LightClient::stop(std::optional<Duration> timeout) {
  checked_call(*channel_, {light_api::k_stop_led_light_control, ""}, timeout.value_or(default_timeout_),
               light_api_name(light_api::k_stop_led_light_control));
}

}  // namespace praxis::booster
