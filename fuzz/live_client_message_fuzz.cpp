// parse_client_message (observe/live_server.hpp): the input is the text a WebSocket client sends the
// live server. Anything may come in; what comes out is a subscribe, an unsubscribe or a refusal with
// a reason. An accepted message is valid JSON, carries no repeated subscription id or channel, and
// says the same when written back as the protocol's JSON and parsed again.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "finding.hpp"
#include "praxis/observe/live_server.hpp"

namespace {

constexpr const char* k_target = "live_client_message";
using praxis::fuzz::require;
namespace observe = praxis::observe;

template <class T>
bool unique(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

void check_subscribe(const observe::Subscribe& s) {
  std::vector<std::uint32_t> ids, channels;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [id, channel] : s.subscriptions) {
    ids.push_back(id);
    channels.push_back(channel);
    list.push_back({{"id", id}, {"channelId", channel}});
  }
  require(unique(ids), k_target, "an accepted subscribe repeats a subscription id");
  require(unique(channels), k_target, "an accepted subscribe repeats a channel");
  const auto again = observe::parse_client_message(nlohmann::json{{"op", "subscribe"}, {"subscriptions", list}}.dump());
  const auto* back = std::get_if<observe::Subscribe>(&again);
  require(back != nullptr && back->subscriptions == s.subscriptions, k_target,
          "a subscribe written back as JSON does not parse to the same subscriptions");
}

void check_unsubscribe(const observe::Unsubscribe& u) {
  require(unique(u.subscription_ids), k_target, "an accepted unsubscribe repeats a subscription id");
  const auto again = observe::parse_client_message(
      nlohmann::json{{"op", "unsubscribe"}, {"subscriptionIds", u.subscription_ids}}.dump());
  const auto* back = std::get_if<observe::Unsubscribe>(&again);
  require(back != nullptr && back->subscription_ids == u.subscription_ids, k_target,
          "an unsubscribe written back as JSON does not parse to the same ids");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto message = observe::parse_client_message(text);
    if (const auto* r = std::get_if<observe::Refused>(&message)) {
      require(!r->reason.empty(), k_target, "a refusal without a reason");
      return 0;
    }
    require(size <= observe::max_client_message_bytes, k_target, "accepted a message over the size limit");
    require(nlohmann::json::accept(text), k_target, "accepted text that is not JSON");
    if (const auto* s = std::get_if<observe::Subscribe>(&message)) check_subscribe(*s);
    if (const auto* u = std::get_if<observe::Unsubscribe>(&message)) check_unsubscribe(*u);
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  return 0;
}
