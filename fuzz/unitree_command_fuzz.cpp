// Unitree LowCmd as the robot reads it (hardware/unitree/robot_codec.hpp decode_command, used by the fake
// robot's command intake) for the go family (Go2) and the hg family (G1). The first byte picks the
// model and whether the CRC is recomputed; the second is the robot's own mode_machine; the rest
// fills the fixed-size generated struct. The checks must say what the bytes say (CRC, go header,
// motor modes, hg mode_machine) and every joint's values must arrive as sent.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {

constexpr const char* k_target = "unitree_command";
namespace u = praxis::unitree;

// A float widened to double, NaN for NaN (its payload need not survive).
bool same(float sent, double got) { return std::isnan(sent) ? std::isnan(got) : static_cast<double>(sent) == got; }

template <class M>
void decode(praxis::fuzz::ByteReader& in, bool fix_crc) {
  using W = u::Wire<M>;
  const auto robot_mode_machine = in.take<std::uint8_t>();
  typename W::Family::LowCmd msg;
  in.fill(&msg, sizeof msg);
  if (fix_crc) msg.crc = u::message_crc(msg);
  praxis::JointCommand<M::joint_count> out;
  const auto check = u::decode_command<M>(msg, robot_mode_machine, out);
  praxis::fuzz::require(check.crc_ok == (u::message_crc(msg) == msg.crc), k_target, "crc_ok disagrees with the CRC");
  praxis::fuzz::require(!fix_crc || check.crc_ok, k_target, "a correctly signed command failed the CRC check");
  if constexpr (std::is_same_v<typename W::Family, u::GoFamily>) {
    praxis::fuzz::require(check.header_ok == (msg.head[0] == 0xFE && msg.head[1] == 0xEF && msg.level_flag == 0xFF),
                          k_target, "header_ok disagrees with the head bytes and level flag");
  } else {
    praxis::fuzz::require(check.mode_machine_ok == (robot_mode_machine == 0 || msg.mode_machine == robot_mode_machine),
                          k_target, "mode_machine_ok disagrees with the robot's and the command's mode_machine");
  }
  bool modes = true;
  bool finite = true;
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    const auto& m = msg.motor_cmd[W::slot[j]];
    const bool enabled = m.mode == W::motor_mode;
    modes = modes && (enabled || (std::is_same_v<typename W::Family, u::HgFamily> && m.mode == 0));
    finite = finite && std::isfinite(m.q) && std::isfinite(m.dq) && std::isfinite(m.kp) && std::isfinite(m.kd) &&
             std::isfinite(m.tau);
    praxis::fuzz::require(out.mode[j] == (enabled ? praxis::JointMode::position : praxis::JointMode::disabled), k_target,
                          "a joint's mode does not follow its motor's mode byte");
    praxis::fuzz::require(same(m.q, out.q[i]) && same(m.dq, out.dq[i]) && same(m.kp, out.kp[i]) && same(m.kd, out.kd[i]) &&
                              same(m.tau, out.tau_ff[i]),
                          k_target, "a joint's values differ from its motor command");
  }
  praxis::fuzz::require(check.mode_ok == modes, k_target, "mode_ok disagrees with the motors' mode bytes");
  praxis::fuzz::require(check.finite_ok == finite, k_target, "finite_ok disagrees with the joint slots' values");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  const auto choice = in.take<std::uint8_t>();
  const bool fix_crc = (choice & 2u) == 0;
  if ((choice & 1u) == 0) {
    decode<u::Go2>(in, fix_crc);
  } else {
    decode<u::G1>(in, fix_crc);
  }
  return 0;
}
