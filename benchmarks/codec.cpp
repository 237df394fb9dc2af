// Codec cost per vendor message: ns per call, a command encoded from a JointCommand into the wire
// sample the publisher hands to Cyclone, and a state decoded from the wire sample Cyclone hands
// over into a RobotState (both halves: the copy on Cyclone's thread and the decode on the reading
// thread, where a vendor splits them). No network: what the backend adds to every cycle.
//
//   Unitree Go2   go LowCmd (CRC included) / go LowState (CRC checked)
//   Unitree G1    hg LowCmd / hg LowState, 29 joints
//   Booster T1    LowCmd (rt/joint_ctrl) / LowState (rt/low_state), 23 joints
//   Aurora GR-1   RobotControlGroupCmd / RobotControlGroupState, 32 joints in 6 groups
//   Tienkung Pro  CmdMotorCtrl / MotorStatusMsg, one per limb: 4 messages, 30 motors
//
// Baseline per vendor: copying the JointCommand (encode) or the RobotState (decode) once, the
// least any codec does with the data; the ratio says how many such copies the codec costs.
//
//   bench_codec [results.json]

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "praxis/hardware/aurora/codec.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/robot_codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/tienkung/codec.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
namespace u = praxis::unitree;
namespace b = praxis::booster;
namespace a = praxis::aurora;
namespace t = praxis::tienkung;

// ns per call of `f` over `batches` batches of `per_batch` calls.
template <class F>
std::vector<double> time_batches(F&& f, std::size_t batches, std::size_t per_batch) {
  std::vector<double> out;
  for (std::size_t i = 0; i < per_batch; ++i) f();  // warm-up
  for (std::size_t k = 0; k < batches; ++k) {
    const auto t0 = clock_type::now();
    for (std::size_t i = 0; i < per_batch; ++i) f();
    out.push_back(std::chrono::duration<double, std::nano>(clock_type::now() - t0).count() /
                  static_cast<double>(per_batch));
  }
  return out;
}

struct Bench {
  std::size_t batches, per_batch;
  std::vector<praxis::bench::ReportRow> rows;
  // `what` is measured against copying `data` once: the ratio is in copies.
  template <class F, class Data>
  void add(const std::string& vendor, const std::string& what, F&& f, Data& data) {
    constexpr bool is_command = requires { data.tau_ff; };
    const std::string base = vendor + (is_command ? " copy JointCommand" : " copy RobotState") +
                             (is_command ? " (encode baseline)" : " (decode baseline)");
    Data copy{};
    const auto baseline = time_batches(
        [&] {
          praxis::bench::keep(data);
          copy = data;
          praxis::bench::keep(copy);
        },
        batches, per_batch);
    const auto measured = time_batches(f, batches, per_batch);
    rows.push_back({base, praxis::bench::summarize(baseline), "", std::nullopt});
    rows.push_back({vendor + " " + what, praxis::bench::summarize(measured), base, std::nullopt});
  }
};

template <std::size_t N>
praxis::JointCommand<N> position_command() {
  praxis::JointCommand<N> c;
  c.mode.fill(praxis::JointMode::position);
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.01 * static_cast<double>(j);
    c.kp[i] = 50.0;
    c.kd[i] = 1.0;
  }
  return c;
}

// The hg robots' mode_machine, echoed in every command; the go family has none.
template <class M>
constexpr std::uint8_t mode_machine() {
  if constexpr (requires { u::Wire<M>::expected_mode_machine; }) {
    return u::Wire<M>::expected_mode_machine;
  } else {
    return 0;
  }
}

template <class M>
void unitree(Bench& bench, const std::string& vendor) {
  constexpr std::size_t N = M::joint_count;
  using W = u::Wire<M>;
  constexpr std::uint8_t machine = mode_machine<M>();
  auto cmd = position_command<N>();
  typename W::Family::LowCmd wire_cmd{};
  bench.add(vendor, "encode LowCmd (CRC included)", [&] {
    u::encode_command<M>(cmd, {0, machine}, wire_cmd);
    praxis::bench::keep(wire_cmd.crc);
  }, cmd);
  praxis::RobotState<N> state;
  typename W::Family::LowState wire_state{};
  u::encode_state<M>(state, {1, machine, 0}, wire_state);
  bool ok = true;
  bench.add(vendor, "decode LowState (CRC checked)", [&] {
    ok &= u::decode_state<M>(wire_state, {}, state);
    praxis::bench::keep(state);
  }, state);
  if (!ok) throw std::runtime_error(vendor + ": a state did not decode");
}

void booster(Bench& bench) {
  using M = b::T1;
  constexpr std::size_t N = M::joint_count;
  const b::CodecOptions options;
  auto cmd = position_command<N>();
  b::LowCmdValue<N> value;
  b::LowCmdToWire<N> to_wire;
  b::LowCmdWire wire_cmd{};
  bench.add("Booster T1", "encode LowCmd", [&] {
    b::encode_low_cmd(cmd, options, value);
    to_wire(value, wire_cmd);
    praxis::bench::keep(wire_cmd);
  }, cmd);
  praxis::RobotState<N> state;
  b::LowStateToWire<N> state_to_wire;
  b::LowStateWire wire_state{};
  state_to_wire(state, wire_state);
  b::LowStateValue<N> state_value;
  bool ok = true;
  bench.add("Booster T1", "decode LowState", [&] {
    ok &= b::low_state_from_wire(wire_state, state_value) == nullptr;
    ok &= b::decode_low_state(state_value, options, state);
    praxis::bench::keep(state);
  }, state);
  if (!ok) throw std::runtime_error("Booster T1: a state did not decode");
}

void aurora(Bench& bench) {
  using M = a::GR1;
  constexpr std::size_t N = M::joint_count;
  constexpr std::size_t G = M::groups.size();
  auto cmd = position_command<N>();
  a::GroupCommandValue value;
  a::GroupCommandToWire to_wire;
  a::GroupCommandWire wire_cmd{};
  bool ok = true;
  bench.add("Aurora GR-1", "encode RobotControlGroupCmd", [&] {
    ok &= a::encode_group_command<M>(cmd, a::k_all_groups<M>, value).fault == a::CommandFault::none;
    ok &= to_wire(value, wire_cmd);
    praxis::bench::keep(wire_cmd);
  }, cmd);
  // A group state as Aurora sends it: every group of the model, in the model's order.
  std::array<std::array<double, a::k_max_group_joints>, G> values{};
  std::array<std::array<char, a::k_max_group_name + 1>, G> names{};
  std::array<fourier_msgs_msg_ControlGroupState, G> groups{};
  std::array<std::uint8_t, G> motion{};
  for (std::size_t g = 0; g < G; ++g) {
    const auto& spec = M::groups[g];
    std::memcpy(names[g].data(), spec.name.data(), spec.name.size());
    for (std::size_t k = 0; k < spec.count; ++k) values[g][k] = 0.01 * static_cast<double>(spec.first + k);
    const auto n = static_cast<std::uint32_t>(spec.count);
    groups[g].group_name = names[g].data();
    groups[g].joint_position = groups[g].joint_velocity = groups[g].joint_effort = {n, n, values[g].data(), false};
  }
  std::array<char, 1> frame{};
  a::GroupStateWire wire_state{};
  wire_state.header.frame_id = frame.data();
  wire_state.group_state = {G, G, groups.data(), false};
  wire_state.group_motion_state = {G, G, motion.data(), false};
  a::GroupStateValue state_value;
  praxis::RobotState<N> state;
  bench.add("Aurora GR-1", "decode RobotControlGroupState", [&] {
    ok &= a::group_state_from_wire(wire_state, state_value) == nullptr;
    ok &= a::decode_group_state<M>(state_value, state).ok();
    praxis::bench::keep(state);
  }, state);
  if (!ok) throw std::runtime_error("Aurora GR-1: a message did not encode or decode");
}

void tienkung(Bench& bench) {
  using M = t::Pro;
  constexpr std::size_t N = M::joint_count;
  constexpr std::size_t L = M::limbs.size();
  auto cmd = position_command<N>();
  std::array<t::LimbCtrl, L> values{};
  std::array<t::CtrlToWire, L> to_wire{};
  std::array<t::CmdMotorCtrlWire, L> wire_cmd{};
  bool ok = true;
  const auto encode_all = [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((ok &= t::encode_limb_ctrl<M, M::limbs[I].limb>(cmd, values[I]), ok &= to_wire[I](values[I], wire_cmd[I])), ...);
  };
  bench.add("Tienkung Pro", "encode CmdMotorCtrl, 4 limbs", [&] {
    encode_all(std::make_index_sequence<L>{});
    praxis::bench::keep(wire_cmd);
  }, cmd);
  // One MotorStatusMsg per limb, every motor of the limb, as the robot sends them.
  using Status = t::StatusWire<t::StatusLayout::with_error>;
  std::array<std::array<Status::Element, t::k_max_limb_motors>, L> elements{};
  std::array<Status::Message, L> wire_state{};
  std::array<std::array<char, 1>, L> frames{};
  for (std::size_t l = 0; l < L; ++l) {
    const auto& limb = M::limbs[l];
    for (std::size_t k = 0; k < limb.count; ++k) {
      auto& e = elements[l][k];
      e.name = M::motor_ids[limb.first + k];
      e.pos = 0.01f * static_cast<float>(limb.first + k);
      e.temperature = 40.0f;
    }
    const auto n = static_cast<std::uint32_t>(limb.count);
    wire_state[l].header.frame_id = frames[l].data();
    wire_state[l].status = {n, n, elements[l].data(), false};
  }
  std::array<t::LimbStatus, L> status{};
  praxis::RobotState<N> state;
  const auto decode_all = [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((ok &= t::limb_status_from_wire<M, M::limbs[I].limb, t::StatusLayout::with_error>(wire_state[I], status[I]) ==
                nullptr,
      ok &= t::decode_limb_status<M, M::limbs[I].limb>(status[I], state)),
     ...);
  };
  bench.add("Tienkung Pro", "decode MotorStatusMsg, 4 limbs", [&] {
    decode_all(std::make_index_sequence<L>{});
    praxis::bench::keep(state);
  }, state);
  if (!ok) throw std::runtime_error("Tienkung Pro: a message did not encode or decode");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "codec.json";
  Bench bench{praxis::bench::scaled<std::size_t>(200, 20), praxis::bench::scaled<std::size_t>(2000, 500), {}};
  try {
    unitree<u::Go2>(bench, "Unitree Go2");
    unitree<u::G1>(bench, "Unitree G1");
    booster(bench);
    aurora(bench);
    tienkung(bench);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "codec: %s\n", e.what());
    return 1;
  }
  std::vector<praxis::bench::Row> table;
  for (const auto& r : bench.rows) table.push_back({r.name, r.ns});
  praxis::bench::print_table("codec per message, ns per call (batches of " + std::to_string(bench.per_batch) + ")",
                             table);
  praxis::bench::write_json(json_path, {{"benchmark", "codec"}, {"report", praxis::bench::report_json(bench.rows)}});
  return 0;
}
