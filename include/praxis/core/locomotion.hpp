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

}  // namespace praxis
