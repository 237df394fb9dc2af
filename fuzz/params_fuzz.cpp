// ParamFile (io/params.hpp): the input is the text of a parameter file. A bad file must give a
// ParamError that starts with the file's name; anything else escaping is a finding. A file that
// loads is then read through every accessor, whose errors follow the same rule.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "finding.hpp"
#include "praxis/io/params.hpp"

namespace {

constexpr const char* k_target = "params";
constexpr std::string_view k_origin = "fuzz/params.json";

void require_named(const praxis::io::ParamError& e) {
  praxis::fuzz::require(std::string_view(e.what()).substr(0, k_origin.size()) == k_origin, k_target,
                        "a ParamError does not start with the file's name");
}

template <class Read>
void accessor(Read&& read) {
  try {
    read();
  } catch (const praxis::io::ParamError& e) {
    require_named(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto p = praxis::io::ParamFile::parse(text, std::string(k_origin));
    // The keys of the shipped parameter files (examples/custom_controller/params), each read with
    // the accessor its users call, plus the other accessors on the same keys.
    accessor([&] { (void)p.number("dt"); });
    accessor([&] { (void)p.number("kp"); });
    accessor([&] { (void)p.number("kd"); });
    accessor([&] { (void)p.number("amplitude"); });
    accessor([&] { (void)p.number("frequency"); });
    accessor([&] { (void)p.array<double, 12>("init_pos"); });
    accessor([&] { (void)p.array<float, 29>("init_pos"); });
    accessor([&] { (void)p.boolean("dt"); });
    accessor([&] { (void)p.text("kp"); });
    accessor([&] { (void)p.numbers("kd", 3); });
  } catch (const praxis::io::ParamError& e) {
    require_named(e);
  } catch (const std::exception& e) {
    praxis::fuzz::unexpected_exception(k_target, e);
  }
  return 0;
}
