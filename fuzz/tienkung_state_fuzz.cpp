// Tienkung's state topics (hardware/tienkung/codec.hpp): a limb's MotorStatusMsg in one of the
// three element layouts, and rt/imu/status. The first byte picks the model (Pro, Lite), the second
// the limb and the layout; motor names come mostly from the model's ids so whole limbs are
// reachable. Samples go through *_from_wire and decode_* as on the robot. An accepted state must be
// finite; a refused one leaves the output untouched.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "byte_reader.hpp"
#include "finding.hpp"
#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/tienkung/models.hpp"

namespace {

namespace t = praxis::tienkung;
constexpr const char* k_target = "tienkung_state";

template <class M>
std::uint16_t motor_name(praxis::fuzz::ByteReader& in) {
  const auto pick = in.take<std::uint8_t>();
  if (pick < 224) return M::motor_ids[pick % M::joint_count];
  return in.take<std::uint16_t>();
}

template <class M, t::Limb L, t::StatusLayout Layout>
void limb(praxis::fuzz::ByteReader& in) {
  using Wire = t::StatusWire<Layout>;
  std::vector<typename Wire::Element> elements(in.length(t::k_max_limb_motors + 1));
  for (auto& e : elements) {
    e = {};
    e.name = motor_name<M>(in);
    e.pos = in.take<float>();
    e.speed = in.take<float>();
    e.current = in.take<float>();
    e.temperature = in.take<float>();
    if constexpr (Layout != t::StatusLayout::without_error) e.error = in.take<std::uint32_t>();
    if constexpr (Layout == t::StatusLayout::with_voltage) e.voltage = in.take<float>();
  }
  std::string frame;
  typename Wire::Message wire{};
  wire.header.frame_id = frame.data();
  wire.status = {static_cast<std::uint32_t>(elements.size()), static_cast<std::uint32_t>(elements.size()),
                 elements.data(), false};
  t::LimbStatus status;
  if (t::limb_status_from_wire<M, L, Layout>(wire, status) != nullptr) return;
  praxis::RobotState<M::joint_count> out;
  out.q.setConstant(0.25);
  const auto before = out.q;
  praxis::fuzz::require(t::decode_limb_status<M, L>(status, out), k_target,
                        "decode refused a status that limb_status_from_wire accepted");
  praxis::fuzz::require(out.all_finite(), k_target, "an accepted limb status gave a non-finite joint value");
  for (std::size_t j = 0; j < M::joint_count; ++j) {
    const auto* spec = t::find_limb<M>(L);
    const bool in_limb = j >= spec->first && j < spec->first + spec->count;
    praxis::fuzz::require(in_limb || out.q[static_cast<Eigen::Index>(j)] == before[static_cast<Eigen::Index>(j)],
                          k_target, "a limb status wrote a joint of another limb");
  }
}

template <class M, t::Limb L>
void limb_in_layout(praxis::fuzz::ByteReader& in, unsigned layout) {
  if constexpr (t::find_limb<M>(L) != nullptr) {
    switch (layout % 3) {
      case 0: limb<M, L, t::StatusLayout::without_error>(in); break;
      case 1: limb<M, L, t::StatusLayout::with_error>(in); break;
      default: limb<M, L, t::StatusLayout::with_voltage>(in); break;
    }
  }
}

template <class M>
void model(praxis::fuzz::ByteReader& in) {
  const auto choice = in.take<std::uint8_t>();
  switch (choice % 4) {
    case 0: limb_in_layout<M, t::Limb::leg>(in, choice / 4u); break;
    case 1: limb_in_layout<M, t::Limb::arm>(in, choice / 4u); break;
    case 2: limb_in_layout<M, t::Limb::waist>(in, choice / 4u); break;
    default: limb_in_layout<M, t::Limb::head>(in, choice / 4u); break;
  }
}

void imu(praxis::fuzz::ByteReader& in) {
  t::ImuWire wire{};
  std::string frame;
  wire.header.frame_id = frame.data();
  wire.orientation.x = in.take<double>();
  wire.orientation.y = in.take<double>();
  wire.orientation.z = in.take<double>();
  wire.orientation.w = in.take<double>();
  wire.angular_velocity.x = in.take<double>();
  wire.angular_velocity.y = in.take<double>();
  wire.angular_velocity.z = in.take<double>();
  wire.linear_acceleration.x = in.take<double>();
  wire.linear_acceleration.y = in.take<double>();
  wire.linear_acceleration.z = in.take<double>();
  wire.error = in.take<std::uint8_t>() < 200 ? 0u : 1u;
  t::ImuReading reading;
  const bool accepted_on_wire = t::imu_from_wire(wire, reading) == nullptr;
  praxis::RobotState<4> out;
  out.imu.gyro.setConstant(0.25);
  const bool decoded = t::decode_imu(reading, out);
  praxis::fuzz::require(decoded == accepted_on_wire, k_target, "imu_from_wire and decode_imu disagree");
  if (decoded) {
    praxis::fuzz::require_finite_state(out, k_target);
  } else {
    praxis::fuzz::require(out.imu.gyro.isConstant(0.25), k_target, "a refused IMU sample changed the output");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  praxis::fuzz::ByteReader in(data, size);
  const auto choice = in.take<std::uint8_t>();
  if ((choice & 1u) == 0) {
    model<t::Pro>(in);
  } else {
    model<t::Lite>(in);
  }
  imu(in);
  return 0;
}
