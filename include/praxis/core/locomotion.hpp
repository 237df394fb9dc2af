#pragma once
// A request for walking velocity, handed to whatever walks the robot: the robot's own locomotion
// controller (a backend capability) or a walking node of the user's.

namespace praxis {

struct LocomotionRequest {
  bool active = false;  // false: stand still
  double vx = 0.0;      // m/s forward
  double vy = 0.0;      // m/s left
  double wz = 0.0;      // rad/s counter-clockwise
};

// How a walking command becomes a step (motion/walking.hpp computes it). Here, below both
// motion/ and hardware/, because a robot's own parameter files carry these values too (Booster's
// booster_interface.json5 "walking").
struct WalkOptions {
  double hybrid_align_distance = 1.0;  // m beyond distance_to_be_aligned over which alignment fades out
  double max_alignment_rate = 1.0;     // rad/s of turn for an orientation error of 90 degrees
  double deceleration_distance = 0.5;  // m: slow down within this path length of the target
};

}  // namespace praxis
