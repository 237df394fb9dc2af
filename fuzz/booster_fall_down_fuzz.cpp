// Booster rt/fall_down (hardware/booster/topics.hpp decode_fall): the input is a run of
// FallDownState samples, five bytes each - the fall_down_state as a raw 32-bit value (any value:
// the enum's bytes as a peer could send them, out of range included) and is_recovery_available.
// They go through decode_fall one after another on one context, as the reading thread merges them.
// A value outside READY..GETTING_UP must be refused and leave the context as it was; an accepted
// one becomes the fall state, and a finished get-up (GETTING_UP, then READY) is counted once.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/topics.hpp"

namespace {

namespace b = praxis::booster;
constexpr const char* k_target = "booster_fall_down";

struct Options {  // what BoosterTopics' Context reads of the backend's options
  b::WireOptions wire;
};
using Topics = b::BoosterTopics<b::T1, Options>;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  const Options options;
  Topics::Context context(options);
  praxis::RobotState<Topics::N> out;
  // At most 64 samples: enough for every transition, and a long input stays fast.
  for (int sample = 0; sample < 64 && in.remaining() > 0; ++sample) {
    b::FallDownWire wire{};
    // The enum field gets its bytes the way DDS deserialisation writes them, so a value outside
    // the IDL's enumerators is possible here without any cast in this file.
    const auto raw = in.take<std::int32_t>();
    static_assert(sizeof wire.fall_down_state == sizeof raw, "FallDownStateType is a 32-bit enum on the wire");
    std::memcpy(&wire.fall_down_state, &raw, sizeof raw);
    wire.is_recovery_available = in.boolean();

    const auto state_before = context.fall_state.load();
    const auto get_ups_before = context.get_ups_finished.load();
    const bool accepted = Topics::decode_fall(wire, {}, out, context);
    praxis::fuzz::require(accepted == (raw >= 0 && raw <= 3), k_target,
                          "decode_fall accepted a value outside READY..GETTING_UP, or refused one inside");
    if (!accepted) {
      praxis::fuzz::require(context.fall_state.load() == state_before && context.get_ups_finished.load() == get_ups_before,
                            k_target, "a refused sample changed the fall state or the get-up count");
      continue;
    }
    praxis::fuzz::require(context.fall_state.load() == raw, k_target, "an accepted sample is not the new fall state");
    const bool finished = state_before == static_cast<std::int32_t>(b::FallState::getting_up) &&
                          raw == static_cast<std::int32_t>(b::FallState::ready);
    praxis::fuzz::require(context.get_ups_finished.load() == get_ups_before + (finished ? 1u : 0u), k_target,
                          "the get-up count does not follow GETTING_UP -> READY");
  }
  return 0;
}
