// Unitree RPC responses (hardware/unitree/rpc.hpp): the input is a response's data text as the
// motion switcher's CheckMode answers it, read through the envelope (UnitreeApiTraits::reply_of)
// and mode_name_from. Unreadable data must give transport::RpcError; any other exception is a finding.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "finding.hpp"
#include "praxis/hardware/unitree/rpc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* k_target = "unitree_rpc_response";
  // A DDS string ends at its first NUL: what the envelope sees is the text up to there.
  std::string text(reinterpret_cast<const char*>(data), size);
  unitree_api_msg_dds__Response_ response{};
  response.header.identity.id = 7;
  response.header.status.code = 0;
  response.data = text.data();
  const auto reply = praxis::unitree::UnitreeApiTraits::reply_of(response);
  praxis::fuzz::require(praxis::unitree::UnitreeApiTraits::id_of(response) == 7, k_target, "id_of lost the call id");
  praxis::fuzz::require(reply.data == std::string(text.c_str()), k_target, "reply_of changed the data text");
  try {
    (void)praxis::unitree::mode_name_from(reply.data);
  } catch (const praxis::transport::RpcError&) {
    // an unreadable answer, named as such
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  return 0;
}
