#pragma once
// Keyframe scripts: static motions as a list of frames, each saying which joints go where and how
// long the move takes. A Script<N> is resolved against one robot model at load time into dense
// per-frame tables, so playing it back in the cycle is arithmetic on fixed arrays.
//
// File format (JSON; see docs/scripts.md):
//   [ { "duration": 1000,                       // ms to reach this frame's targets
//       "targets": [ { "id": "left_knee",       // joint name of the robot model
//                      "position": 0.6,         // rad
//                      "gain": 30,              // stiffness, mapped to kp (and kd) below
//                      "torque": 100 } ] },     // 0..100 % of the gains; 0 makes the joint limp
//     ... ]

#include <array>
#include <bitset>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "praxis/core/clock.hpp"

namespace praxis::script {

// How a script's gain and torque become motor gains:
//   kp = gain * kp_per_gain * torque / 100,  kd = kp * kd_per_kp.
struct GainMapping {
  double kp_per_gain = 1.0;  // N m / rad per unit of gain
  double kd_per_kp = 0.05;   // s
};

template <std::size_t N>
struct Frame {
  Duration duration{};
  // Carried forward: the joint's newest target up to and including this frame; NaN where the
  // script has not targeted the joint yet (playback then holds where the joint was at the start).
  std::array<double, N> position{};
  std::array<double, N> kp{};  // back-filled for joints not yet targeted, so a held joint is stiff
  std::array<double, N> kd{};
};

template <std::size_t N>
struct Script {
  std::string name;
  std::vector<Frame<N>> frames;
  std::bitset<N> joints;  // every joint any frame targets

  [[nodiscard]] Duration total() const {
    Duration d{};
    for (const auto& f : frames) d += f.duration;
    return d;
  }
};

inline constexpr double k_unset = std::numeric_limits<double>::quiet_NaN();

}  // namespace praxis::script
