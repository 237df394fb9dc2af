// Aurora's state topics (hardware/aurora/codec.hpp): robot_control_group_state and base_data_pub,
// built from the bytes and run through *_from_wire and decode_* as on the robot, for GR1 or N1
// (first byte). Group names come from the model, the hands, or the bytes; sequence lengths go one
// past what the codec takes. An accepted state must be finite; a refused one leaves the output
// untouched.

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/models.hpp"

namespace {

namespace a = praxis::aurora;
constexpr const char* k_target = "aurora_state";

// Owns what a generated sample's sequences point at, for as long as the sample is read.
class Storage {
 public:
  template <class Sequence>
  void doubles(praxis::fuzz::ByteReader& in, std::uint32_t limit, Sequence& out) {
    auto& v = doubles_.emplace_back(in.length(limit));
    for (auto& x : v) x = in.take<double>();
    out = {static_cast<std::uint32_t>(v.size()), static_cast<std::uint32_t>(v.size()), v.data(), false};
  }
  char* text(std::string s) { return texts_.emplace_back(std::move(s)).data(); }

 private:
  std::deque<std::vector<double>> doubles_;  // a deque: earlier elements stay where they are
  std::deque<std::string> texts_;
};

template <class M>
std::string group_name(praxis::fuzz::ByteReader& in) {
  const auto pick = in.take<std::uint8_t>();
  if (pick < 128) return std::string(M::groups[pick % M::groups.size()].name);
  if (pick < 160) return std::string(a::k_undriven_groups[pick % a::k_undriven_groups.size()]);
  return in.text(a::k_max_group_name + 1);
}

template <class M>
void groups(praxis::fuzz::ByteReader& in, Storage& storage) {
  a::GroupStateWire wire{};
  std::vector<std::uint8_t> motion(in.length(a::k_max_groups + 1));
  for (auto& m : motion) m = in.take<std::uint8_t>();
  wire.group_motion_state = {static_cast<std::uint32_t>(motion.size()), static_cast<std::uint32_t>(motion.size()),
                             motion.data(), false};
  std::vector<fourier_msgs_msg_ControlGroupState> entries(in.length(a::k_max_groups + 1));
  for (auto& e : entries) {
    e = {};
    e.group_name = storage.text(group_name<M>(in));
    storage.doubles(in, a::k_max_group_joints + 1, e.joint_position);
    storage.doubles(in, a::k_max_group_joints + 1, e.joint_velocity);
    storage.doubles(in, a::k_max_group_joints + 1, e.joint_effort);
  }
  wire.group_state = {static_cast<std::uint32_t>(entries.size()), static_cast<std::uint32_t>(entries.size()),
                      entries.data(), false};
  wire.stable_level = in.take<std::uint8_t>();
  a::GroupStateValue value;
  if (a::group_state_from_wire(wire, value) != nullptr) return;
  praxis::RobotState<M::joint_count> out;
  out.q.setConstant(0.25);
  const auto before = out.q;
  const auto result = a::decode_group_state<M>(value, out);
  if (result.ok()) {
    praxis::fuzz::require_finite_state(out, k_target);
  } else {
    praxis::fuzz::require(out.q == before, k_target, "a refused group state changed the output");
    praxis::fuzz::require(!a::describe<M>(result).empty(), k_target, "a refusal without a reason");
  }
}

void base(praxis::fuzz::ByteReader& in, Storage& storage) {
  a::BaseDataWire wire{};
  wire.header.frame_id = storage.text("");
  storage.doubles(in, 5, wire.quat_xyzw);
  storage.doubles(in, 4, wire.omega_B);
  storage.doubles(in, 4, wire.acc_B);
  a::BaseValue value;
  if (a::base_from_wire(wire, value) != nullptr) return;
  praxis::RobotState<4> out;
  out.imu.gyro.setConstant(0.25);
  if (a::decode_base(value, out)) {
    praxis::fuzz::require_finite_state(out, k_target);
  } else {
    praxis::fuzz::require(out.imu.gyro.isConstant(0.25), k_target, "a refused base sample changed the output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  Storage storage;
  const auto choice = in.take<std::uint8_t>();
  if ((choice & 1u) == 0) {
    groups<a::GR1>(in, storage);
  } else {
    groups<a::N1>(in, storage);
  }
  base(in, storage);
  return 0;
}
