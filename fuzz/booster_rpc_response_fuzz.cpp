// Booster JSON RPC responses (hardware/booster/rpc.hpp): the input is split at its first newline
// into a response header and a reply body. The header goes through the envelope
// (BoosterRpcTraits::reply_of / is_final, parse_response_status) and, as a server reads it,
// parse_request_header; the body is GetMode's answer read by LocoClient::get_mode. Unreadable text
// must give the RPC errors (transport::RpcError and its subclasses); anything else is a finding.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include "finding.hpp"
#include "praxis/hardware/booster/rpc.hpp"

namespace {

namespace b = praxis::booster;
constexpr const char* k_target = "booster_rpc_response";

// Answers every call with the fuzzed reply, as a robot would.
class ReplayChannel final : public b::RpcChannel {
 public:
  explicit ReplayChannel(b::RpcReply reply) : reply_(std::move(reply)) {}
  b::RpcReply call(const b::RpcCall&, praxis::Duration) override { return reply_; }
  [[nodiscard]] const std::string& name() const override { return name_; }

 private:
  b::RpcReply reply_;
  std::string name_ = "rt/LocoApiTopic";
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  // DDS strings end at their first NUL, so the envelope sees the text up to there.
  const std::string header(std::string(input.substr(0, newline)).c_str());
  const std::string body(newline == std::string_view::npos ? std::string() : std::string(input.substr(newline + 1)).c_str());

  std::string error;
  const auto status = b::parse_response_status(header, &error);
  praxis::fuzz::require(status.has_value() == error.empty(), k_target,
                        "parse_response_status gave neither a status nor an error (or both)");

  booster_msgs_msg_dds__RpcRespMsg_ response{};
  std::string uuid = "00000000-0000-4000-8000-000000000000";
  response.uuid = uuid.data();
  response.header = const_cast<char*>(header.c_str());
  response.body = const_cast<char*>(body.c_str());
  const auto reply = b::BoosterRpcTraits::reply_of(response);
  praxis::fuzz::require(reply.body == body && reply.header_error == error, k_target, "reply_of disagrees with the parts");
  (void)b::BoosterRpcTraits::is_final(response);

  try {
    (void)b::parse_request_header(header);
  } catch (const praxis::transport::RpcError&) {
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }

  ReplayChannel channel(b::RpcReply{status.value_or(b::status::k_ok), body, {}});
  b::LocoClient loco(channel);
  try {
    (void)loco.get_mode();
  } catch (const praxis::transport::RpcError&) {
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  return 0;
}
