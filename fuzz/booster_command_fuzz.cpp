// Booster rt/joint_ctrl as the robot reads it (hardware/booster/robot_codec.hpp decode_low_cmd, used by
// the fake robot): the first byte picks T1 or K1; then cmd_type as raw 32 bits (any value: the
// enum's bytes as a client could send them), a motor count up to one more than the model has, and
// the motor commands' bytes. A command is accepted exactly when it holds one motor per joint and
// names PARALLEL or SERIAL; then the space is the one named and the motors arrive bit for bit. A
// refused command leaves the output untouched.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/booster/robot_codec.hpp"
#include "praxis/hardware/booster/models.hpp"

namespace {

constexpr const char* k_target = "booster_command";
namespace b = praxis::booster;

template <class M>
void decode(praxis::fuzz::ByteReader& in) {
  constexpr std::size_t N = M::joint_count;
  b::LowCmdWire wire{};
  const auto type = in.take<std::int32_t>();
  static_assert(sizeof wire.cmd_type == sizeof type, "CmdType is a 32-bit enum on the wire");
  std::memcpy(&wire.cmd_type, &type, sizeof type);
  std::vector<b::MotorCmd> motors(in.length(N + 1));
  for (auto& m : motors) {
    in.fill(&m, sizeof m);
  }
  wire.motor_cmd = {static_cast<std::uint32_t>(motors.size()), static_cast<std::uint32_t>(motors.size()), motors.data(),
                    false};

  b::LowCmdValue<N> out;
  out.space = b::MotorSpace::parallel;
  for (auto& m : out.motors) m.q = 0.25f;
  const auto before = out;
  const bool fits = motors.size() == N && (type == 0 || type == 1);
  const bool accepted = b::decode_low_cmd<N>(wire, out);
  praxis::fuzz::require(accepted == fits, k_target,
                        "decode_low_cmd accepted a command without N motors or a CmdType, or refused one with both");
  if (!accepted) {
    praxis::fuzz::require(out.space == before.space && std::memcmp(out.motors.data(), before.motors.data(), sizeof out.motors) == 0,
                          k_target, "a refused command changed the output");
    return;
  }
  praxis::fuzz::require(out.space == (type == 1 ? b::MotorSpace::serial : b::MotorSpace::parallel), k_target,
                        "the decoded motor space is not the one the command named");
  praxis::fuzz::require(std::memcmp(out.motors.data(), motors.data(), sizeof out.motors) == 0, k_target,
                        "the decoded motors differ from the command's");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  if ((in.take<std::uint8_t>() & 1u) == 0) {
    decode<b::T1>(in);
  } else {
    decode<b::K1>(in);
  }
  return 0;
}
