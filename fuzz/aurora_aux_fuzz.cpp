// Aurora's messages other than the joint state and base data (aurora_state covers those), built
// from the bytes and run through their *_from_wire and decode_* halves on one AuroraTopics context:
//   aurora_state             -> decode_fsm, then what the backend derives (robot_mode_of, names)
//   robot_stand_pose_state   -> decode_stand
//   contact_data_pub         -> contact_from_wire, decode_contact, read back from the mailbox
//   robot_control_group_cmd  -> group_command_from_wire (the robot's side: the fake robot)
//   robot_motor_cfg_group_cmd-> motor_config_from_wire (the robot's side)
// The first byte picks GR1 or N1; then each sample starts with a byte picking its message. Every
// uint8 field takes any value (an FSM state Aurora never sends included), sequences and names go
// one past what the codec keeps. A refusal must have a reason; an accepted sample must arrive
// whole, value for value.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/aurora/robot_codec.hpp"
#include "praxis/hardware/aurora/fsm.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/aurora/topics.hpp"

namespace {

namespace a = praxis::aurora;
constexpr const char* k_target = "aurora_aux";

struct Options {  // what AuroraTopics' Context reads of the backend's options
  a::WireOptions wire;
  praxis::Duration link_timeout = std::chrono::milliseconds(100);
};

// Owns what a generated sample's sequences and strings point at, for as long as it is read.
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

// The same doubles, bit for bit (NaN is passed on as it came: these decoders do not judge values).
template <class Sequence, class Bounded>
bool same(const Sequence& wire, const Bounded& value) {
  if (wire._length != value.size) return false;
  return wire._length == 0 || std::memcmp(wire._buffer, value.items.data(), wire._length * sizeof(double)) == 0;
}

template <class M>
std::string group_name(praxis::fuzz::ByteReader& in) {
  const auto pick = in.take<std::uint8_t>();
  if (pick < 128) return std::string(M::groups[pick % M::groups.size()].name);
  if (pick < 160) return std::string(a::k_undriven_groups[pick % a::k_undriven_groups.size()]);
  return in.text(a::k_max_group_name + 1);
}

template <class Topics>
void fsm(praxis::fuzz::ByteReader& in, typename Topics::Context& c) {
  a::AuroraStateWire wire{};
  wire.velocity_command_source = in.take<std::uint8_t>();
  wire.whole_body_fsm_state = in.take<std::uint8_t>();
  wire.upper_body_fsm_state = in.take<std::uint8_t>();
  wire.allow_upper_body_override = in.boolean();
  a::AuroraStateValue value;
  praxis::fuzz::require(a::aurora_state_from_wire(wire, value) == nullptr, k_target, "an aurora_state was refused");
  const auto reports = c.fsm_reports.load();
  praxis::RobotState<Topics::N> out;
  praxis::fuzz::require(Topics::decode_fsm(value, {}, out, c), k_target, "decode_fsm refused a sample");
  praxis::fuzz::require(c.whole_body.load() == wire.whole_body_fsm_state && c.upper_body.load() == wire.upper_body_fsm_state &&
                            c.velocity_source.load() == wire.velocity_command_source && c.fsm_reports.load() == reports + 1,
                        k_target, "decode_fsm did not store the states it was sent");
  // What the backend makes of a report (read_status, take-control messages): any byte has a name.
  const auto mode = a::robot_mode_of(c.whole_body.load());
  praxis::fuzz::require(!praxis::to_string(mode).empty(), k_target, "a whole-body state maps to an unnamed mode");
  praxis::fuzz::require(!a::to_string(static_cast<a::WholeBodyState>(value.whole_body)).empty() &&
                            !a::to_string(static_cast<a::UpperBodyState>(value.upper_body)).empty() &&
                            !a::to_string(static_cast<a::VelocitySource>(value.velocity_source)).empty(),
                        k_target, "a reported state has no name");
}

template <class Topics>
void stand(praxis::fuzz::ByteReader& in, typename Topics::Context& c) {
  a::StandPoseStateWire wire{};
  wire.delta_z = in.take<double>();
  wire.delta_pitch = in.take<double>();
  wire.delta_yaw = in.take<double>();
  wire.stable_level = in.take<std::uint8_t>();
  a::StandPoseValue value;
  praxis::fuzz::require(a::stand_pose_from_wire(wire, value) == nullptr, k_target, "a stand pose was refused");
  praxis::RobotState<Topics::N> out;
  praxis::fuzz::require(Topics::decode_stand(value, {}, out, c), k_target, "decode_stand refused a sample");
  praxis::fuzz::require(c.stable_level.load() == wire.stable_level, k_target, "decode_stand lost the stable level");
}

template <class Topics>
void contact(praxis::fuzz::ByteReader& in, Storage& storage, typename Topics::Context& c) {
  a::ContactDataWire wire{};
  wire.header.frame_id = storage.text("");
  storage.doubles(in, 13, wire.contact_force);
  storage.doubles(in, 5, wire.contact_prob);
  a::ContactValue value;
  if (const char* why = a::contact_from_wire(wire, value)) {
    praxis::fuzz::require(wire.contact_force._length > 12 || wire.contact_prob._length > 4, k_target,
                          "a contact sample that fits was refused");
    praxis::fuzz::require(std::string_view(why).starts_with("contact_data_pub: "), k_target,
                          "a contact refusal does not name its topic");
    return;
  }
  const auto count = c.contact_count;
  praxis::RobotState<Topics::N> out;
  const auto received = praxis::TimePoint(std::chrono::seconds(7));
  praxis::fuzz::require(Topics::decode_contact(value, received, out, c), k_target, "decode_contact refused a sample");
  praxis::fuzz::require(c.contact.fetch(), k_target, "an accepted contact sample was not published");
  const a::ContactState& got = c.contact.value();
  praxis::fuzz::require(got.count == count + 1 && got.received == received, k_target,
                        "the published contact sample has the wrong count or time");
  praxis::fuzz::require(same(wire.contact_force, got.contact.force) && same(wire.contact_prob, got.contact.probability),
                        k_target, "the published contact sample differs from the message");
}

template <class M>
void group_command(praxis::fuzz::ByteReader& in, Storage& storage) {
  a::GroupCommandWire wire{};
  wire.header.frame_id = storage.text("");
  std::vector<fourier_msgs_msg_ControlGroupCmd> entries(in.length(a::k_max_groups + 1));
  for (auto& e : entries) {
    e = {};
    e.group_name = storage.text(group_name<M>(in));
    e.group_motion_state = in.take<std::uint8_t>();
    e.control_type = in.take<std::uint8_t>();
    e.motor_mode = in.take<std::uint8_t>();
    storage.doubles(in, a::k_max_group_joints + 1, e.position);
    storage.doubles(in, a::k_max_group_joints + 1, e.velocity);
    storage.doubles(in, a::k_max_group_joints + 1, e.effort);
  }
  wire.group_cmd = {static_cast<std::uint32_t>(entries.size()), static_cast<std::uint32_t>(entries.size()),
                    entries.data(), false};
  a::GroupCommandValue value;
  if (const char* why = a::group_command_from_wire(wire, value)) {
    praxis::fuzz::require(std::string_view(why).starts_with("robot_control_group_cmd: "), k_target,
                          "a group command refusal does not name its topic");
    return;
  }
  praxis::fuzz::require(value.groups.size == entries.size(), k_target, "a group command lost groups");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const auto& v = value.groups[i];
    praxis::fuzz::require(v.name.view() == std::string_view(e.group_name) && v.motion_state == e.group_motion_state &&
                              v.control_type == e.control_type && v.motor_mode == e.motor_mode &&
                              same(e.position, v.position) && same(e.velocity, v.velocity) && same(e.effort, v.effort),
                          k_target, "an accepted group command differs from the message");
  }
}

template <class M>
void motor_config(praxis::fuzz::ByteReader& in, Storage& storage) {
  a::MotorConfigWire wire{};
  wire.header.frame_id = storage.text("");
  std::vector<fourier_msgs_msg_MotorCfgGroupCmd> entries(in.length(a::k_max_groups + 1));
  for (auto& e : entries) {
    e = {};
    e.group_name = storage.text(group_name<M>(in));
    storage.doubles(in, a::k_max_group_joints + 1, e.pd_kp);
    storage.doubles(in, a::k_max_group_joints + 1, e.pd_kd);
  }
  wire.group_cmd = {static_cast<std::uint32_t>(entries.size()), static_cast<std::uint32_t>(entries.size()),
                    entries.data(), false};
  a::MotorConfigValue value;
  if (const char* why = a::motor_config_from_wire(wire, value)) {
    praxis::fuzz::require(std::string_view(why).starts_with("robot_motor_cfg_group_cmd: "), k_target,
                          "a motor configuration refusal does not name its topic");
    return;
  }
  praxis::fuzz::require(value.groups.size == entries.size(), k_target, "a motor configuration lost groups");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const auto& v = value.groups[i];
    praxis::fuzz::require(v.name.view() == std::string_view(e.group_name) && same(e.pd_kp, v.kp) && same(e.pd_kd, v.kd),
                          k_target, "an accepted motor configuration differs from the message");
  }
}

template <class M>
void run(praxis::fuzz::ByteReader& in) {
  using Topics = a::AuroraTopics<M, Options>;
  const Options options;
  typename Topics::Context context(options);
  // At most 16 samples: enough to mix every message on one context, and a long input stays fast.
  for (int sample = 0; sample < 16 && in.remaining() > 0; ++sample) {
    Storage storage;
    switch (in.take<std::uint8_t>() % 5) {
      case 0: fsm<Topics>(in, context); break;
      case 1: stand<Topics>(in, context); break;
      case 2: contact<Topics>(in, storage, context); break;
      case 3: group_command<M>(in, storage); break;
      default: motor_config<M>(in, storage); break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  if ((in.take<std::uint8_t>() & 1u) == 0) {
    run<a::GR1>(in);
  } else {
    run<a::N1>(in);
  }
  return 0;
}
