// Keyframe scripts (script/loader.hpp): the input is the text of a script file, parsed for a
// Go2 and for a G1. A bad script must give a ScriptError starting with the script's name; a script
// that parses has at least one frame.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "finding.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/loader.hpp"

namespace {

constexpr const char* k_target = "script";
constexpr std::string_view k_origin = "fuzz_script";

template <class Model>
void parse(std::string_view text) {
  try {
    const auto s = praxis::script::parse_script<Model>(text, std::string(k_origin));
    praxis::fuzz::require(!s.frames.empty(), k_target, "a script parsed without frames");
  } catch (const praxis::script::ScriptError& e) {
    praxis::fuzz::require(std::string_view(e.what()).substr(0, k_origin.size()) == k_origin, k_target,
                          "a ScriptError does not start with the script's name");
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  parse<praxis::unitree::Go2>(text);
  parse<praxis::unitree::G1>(text);
  return 0;
}
