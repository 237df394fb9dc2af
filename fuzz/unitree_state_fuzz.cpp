// Unitree LowState (hardware/unitree/codec.hpp decode_state) for the go family (Go2) and the hg
// family (G1). The first byte picks the model and whether the CRC is recomputed (so the decoder's
// checks behind the CRC are reached) or left as the bytes say; the rest fills the fixed-size
// generated struct. An accepted state must be finite; a refused one leaves the output untouched.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {

constexpr const char* k_target = "unitree_state";

template <class M>
void decode(praxis::fuzz::ByteReader& in, bool fix_crc) {
  namespace u = praxis::unitree;
  typename u::Wire<M>::Family::LowState msg;
  in.fill(&msg, sizeof msg);
  if (fix_crc) msg.crc = u::message_crc(msg);
  praxis::RobotState<M::joint_count> out;
  out.q.setConstant(0.25);
  const auto before = out.q;
  if (u::decode_state<M>(msg, {}, out)) {
    praxis::fuzz::require_finite_state(out, k_target);
  } else {
    praxis::fuzz::require(out.q == before, k_target, "a refused LowState changed the output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  const auto choice = in.take<std::uint8_t>();
  const bool fix_crc = (choice & 2u) == 0;
  if ((choice & 1u) == 0) {
    decode<praxis::unitree::Go2>(in, fix_crc);
  } else {
    decode<praxis::unitree::G1>(in, fix_crc);
  }
  return 0;
}
