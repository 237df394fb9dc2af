#pragma once
// What a Unitree robot publishes besides rt/lowstate that vendor examples subscribe to:
//   rt/wirelesscontroller  unitree_go WirelessController_ (G1 too), 100 Hz: the rate of Unitree's
//                          Python simulator bridge; the robot's own rate is not documented
//   rt/lf/lowstate         the LowState again, 50 Hz: "low frequency" is all that is documented
//   rt/secondary_imu       G1 only, hg IMUState_ (the torso IMU), with every LowState (500 Hz). The
//                          mock has one IMU, so the torso reads what the pelvis reads.

#include <cstdint>
#include <optional>
#include <type_traits>

#include <praxis/hardware/unitree/wire.hpp>
#include <praxis/transport/dds.hpp>

namespace fake_robot {

struct SideCounts {
  std::uint64_t wireless_controller = 0, lf_lowstate = 0, secondary_imu = 0;
};

template <praxis::unitree::UnitreeModel M>
class SideTopics {
 public:
  using Family = typename praxis::unitree::Wire<M>::Family;
  using LowState = typename Family::LowState;
  static constexpr bool has_torso_imu = std::is_same_v<M, praxis::unitree::G1> || std::is_same_v<M, praxis::unitree::G1_23>;
  // In 500 Hz ticks.
  static constexpr std::uint32_t k_wireless_every = 5;
  static constexpr std::uint32_t k_lf_every = 10;

  explicit SideTopics(const praxis::transport::Participant& p)
      : wireless_(p, "rt/wirelesscontroller", &unitree_go_msg_dds__WirelessController__desc),
        lf_(p, "rt/lf/lowstate", Family::low_state_descriptor()) {
    if constexpr (has_torso_imu) imu_.emplace(p, "rt/secondary_imu", &unitree_hg_msg_dds__IMUState__desc);
  }

  // `state` is the LowState just published on rt/lowstate, `tick` its 500 Hz tick.
  void publish(const LowState& state, const praxis::GamepadState& pad, std::uint32_t tick) {
    if (tick % k_wireless_every == 0) {
      unitree_go_msg_dds__WirelessController_ w{};
      w.lx = pad.lx;
      w.ly = pad.ly;
      w.rx = pad.rx;
      w.ry = pad.ry;
      w.keys = pad.buttons;  // the same bit order as wireless_remote
      n_.wireless_controller += wireless_.write(w);
    }
    if (tick % k_lf_every == 0) n_.lf_lowstate += lf_.write(state);
    if constexpr (has_torso_imu) {
      n_.secondary_imu += imu_->write(state.imu_state);
    }
  }

  [[nodiscard]] const SideCounts& counts() const { return n_; }

 private:
  praxis::transport::Publisher<unitree_go_msg_dds__WirelessController_> wireless_;
  praxis::transport::Publisher<LowState> lf_;
  std::optional<praxis::transport::Publisher<unitree_hg_msg_dds__IMUState_>> imu_;
  SideCounts n_;
};

}  // namespace fake_robot
