// Booster rt/remote_controller_state (hardware/booster/topics.hpp decode_remote): the bytes fill
// the event, the four axes and the buttons (one byte each, as DDS delivers bools: 0 or 1). An
// accepted remote must give finite axes and the buttons the message said; a refused one leaves
// the gamepad untouched.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/topics.hpp"

namespace {

namespace b = praxis::booster;
constexpr const char* k_target = "booster_remote";

struct Options {  // what BoosterTopics' Context reads of the backend's options
  b::WireOptions wire;
};
using Topics = b::BoosterTopics<b::T1, Options>;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  b::RemoteWire r{};
  r.event = in.take<std::uint32_t>();
  r.lx = in.take<float>();
  r.ly = in.take<float>();
  r.rx = in.take<float>();
  r.ry = in.take<float>();
  for (bool* button : {&r.a, &r.b, &r.x, &r.y, &r.lb, &r.rb, &r.lt, &r.rt, &r.ls, &r.rs, &r.back, &r.start, &r.hat_c,
                       &r.hat_u, &r.hat_d, &r.hat_l, &r.hat_r, &r.hat_lu, &r.hat_ld, &r.hat_ru, &r.hat_rd}) {
    *button = in.boolean();
  }
  r.reserved = in.take<std::uint8_t>();

  const Options options;
  Topics::Context context(options);
  praxis::RobotState<Topics::N> out;
  out.gamepad.lx = 0.5f;
  const auto before = out.gamepad;
  if (Topics::decode_remote(r, {}, out, context)) {
    const auto& g = out.gamepad;
    praxis::fuzz::require(std::isfinite(g.lx) && std::isfinite(g.ly) && std::isfinite(g.rx) && std::isfinite(g.ry) &&
                              std::isfinite(g.l2),
                          k_target, "an accepted remote has a non-finite axis");
    praxis::fuzz::require(g.pressed(praxis::GamepadButton::A) == r.a && g.pressed(praxis::GamepadButton::start) == r.start,
                          k_target, "a button differs from the message");
  } else {
    praxis::fuzz::require(out.gamepad.lx == before.lx && out.gamepad.buttons == before.buttons, k_target,
                          "a refused remote changed the gamepad");
  }
  return 0;
}
