// Booster rt/low_state (hardware/booster/codec.hpp): the first byte picks the model (T1, K1) and
// the motor space read; then the IMU, the two sequence lengths (up to one more than the model has
// joints, to reach the refusal) and the motor states. The sample goes through low_state_from_wire
// and decode_low_state as on the robot. An accepted state must be finite; a refused one leaves the
// output untouched.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"

namespace {

constexpr const char* k_target = "booster_state";
namespace b = praxis::booster;

template <class M>
void decode(praxis::fuzz::ByteReader& in, b::MotorSpace space) {
  constexpr std::size_t N = M::joint_count;
  b::LowStateWire wire{};
  in.fill(&wire.imu_state, sizeof wire.imu_state);
  std::vector<b::MotorState> parallel(in.length(N + 1)), serial(in.length(N + 1));
  for (auto& m : parallel) in.fill(&m, sizeof m);
  for (auto& m : serial) in.fill(&m, sizeof m);
  wire.motor_state_parallel = {static_cast<std::uint32_t>(parallel.size()), static_cast<std::uint32_t>(parallel.size()),
                               parallel.data(), false};
  wire.motor_state_serial = {static_cast<std::uint32_t>(serial.size()), static_cast<std::uint32_t>(serial.size()),
                             serial.data(), false};
  b::LowStateValue<N> value;
  if (b::low_state_from_wire<N>(wire, value) != nullptr) {
    praxis::fuzz::require(parallel.size() > N || serial.size() > N, k_target, "a sample that fits was refused");
    return;
  }
  b::CodecOptions options;
  options.space = space;
  praxis::RobotState<N> out;
  out.q.setConstant(0.25);
  const auto before = out.q;
  if (b::decode_low_state<N>(value, options, out)) {
    praxis::fuzz::require_finite_state(out, k_target);
  } else {
    praxis::fuzz::require(out.q == before, k_target, "a refused LowState changed the output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  const auto choice = in.take<std::uint8_t>();
  const auto space = (choice & 2u) != 0 ? b::MotorSpace::parallel : b::MotorSpace::serial;
  if ((choice & 1u) == 0) {
    decode<b::T1>(in, space);
  } else {
    decode<b::K1>(in, space);
  }
  return 0;
}
