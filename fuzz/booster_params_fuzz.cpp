// Booster interface parameters (hardware/booster/interface_params.hpp): the input is the text of a
// booster_interface.json5 file. A bad file must give a ParamError starting with the file's name;
// a file that loads has no negative duration (the loader refuses them).

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "finding.hpp"
#include "praxis/hardware/booster/interface_params.hpp"
#include "praxis/io/params.hpp"

namespace {
constexpr const char* k_target = "booster_params";
constexpr std::string_view k_origin = "fuzz/booster_interface.json5";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto p = praxis::booster::parse_interface_params(text, std::string(k_origin));
    const auto zero = praxis::Duration::zero();
    praxis::fuzz::require(p.move_robot_message_interval >= zero && p.rotate_head_message_interval >= zero &&
                              p.sdk_request_timeout >= zero && p.startup_wait >= zero &&
                              p.kicking.kick_message_interval >= zero,
                          k_target, "a loaded file has a negative duration");
  } catch (const praxis::io::ParamError& e) {
    praxis::fuzz::require(std::string_view(e.what()).substr(0, k_origin.size()) == k_origin, k_target,
                          "a ParamError does not start with the file's name");
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  return 0;
}
