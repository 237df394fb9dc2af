#pragma once
// Booster arms only (BoosterBackend<Model, Access::upper_body>): the robot walks and balances under
// its own controller (Walking mode) while praxis commands the arms, and optionally the head, over
// rt/joint_ctrl. The two facts this rests on (docs/backends/booster.md, "Wire facts and their
// sources"):
//   - MotorCmd.weight blends each motor's command with the robot's own (0 = the robot's only,
//     1 = praxis' only), outside Custom mode (RSDK/HULKs; HULKs' K1 sends weight-1 frames in Prepare);
//   - the loco API UpperBodyCustomControl (2030, {"start": bool}) exists. Whether the robot needs
//     it before it honours arm weights while walking is UNVERIFIED: praxis calls it around control
//     by default (upper_body.call_upper_body_api).
// Legs and waist carry the robot: their motors always go out with weight 0 and nothing else in them.
// The arms' weight follows praxis::WeightBlend (weight_blend.hpp): up while praxis' command drives
// them, down (holding the last driven targets) on damping, so praxis' safe state on this robot is
// the arms handed back moving, never limp, and never a leg touched.
//
//   UpperBodyOptions           the part's settings (BackendOptions::upper_body)
//   upper_body_joints<M>(head) the owned joints: shoulder, elbow, wrist and hand joints (and the head)
//   UpperBodyBlend<M>          BoosterTopics' command policy for this access

#include <array>
#include <cstddef>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/hardware/booster/codec.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/weight_blend.hpp"

namespace praxis::booster {

struct UpperBodyOptions {
  bool include_head = false;     // the head's two joints too (the robot otherwise turns it itself)
  double weight_rate = 0.5;      // per second: 2 s to blend fully in or out (praxis' choice; no vendor figure)
  // acquire(): a robot not in Walking is asked for it (Prepare first from Damping, as the SDK's
  // examples do). false: a robot not already walking is an error; its operator starts it.
  bool enter_walking = true;
  bool call_upper_body_api = true;  // UpperBodyCustomControl start / stop around control (UNVERIFIED need)
};

template <BoosterModel M>
[[nodiscard]] constexpr std::array<bool, M::joint_count> upper_body_joints(bool include_head) {
  return include_head ? joints_named<M>(std::array<std::string_view, 5>{"Shoulder", "Elbow", "Wrist", "Hand", "Head"})
                      : joints_named<M>(std::array<std::string_view, 4>{"Shoulder", "Elbow", "Wrist", "Hand"});
}

template <BoosterModel M>
class UpperBodyBlend {
 public:
  static constexpr std::size_t N = M::joint_count;
  // The PD law as in Custom; switching an arm motor off under a walking robot is not offered.
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque};

  template <class Options>
  explicit UpperBodyBlend(const Options& o)
      : blend_(upper_body_joints<M>(o.upper_body.include_head), o.upper_body.weight_rate) {}

  // The blend's weight scales the codec's (CodecOptions::weight, 1 by default) on the owned joints;
  // every other motor goes out with weight 0.
  bool encode(const JointCommand<N>& command, TimePoint now, CodecOptions codec, LowCmdValue<N>& out) {
    JointCommand<N> part;
    if (!blend_.step(command, now, part)) return false;
    codec.weight = static_cast<float>(blend_.weight() * static_cast<double>(codec.weight));
    return encode_low_cmd<N>(part, codec, out);
  }

  [[nodiscard]] const WeightBlend<N>& blend() const { return blend_; }
  // praxis-guard taking over the arms from a controller that went away (WeightBlend::resume).
  void resume(const JointCommand<N>& held, double weight, TimePoint now) { blend_.resume(held, weight, now); }

 private:
  WeightBlend<N> blend_;
};

}  // namespace praxis::booster
