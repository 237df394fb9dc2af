#pragma once
// Camera: where a rendered picture is taken from, as MuJoCo's free camera orbits a point.

#include "praxis/core/joint_vector.hpp"

namespace praxis::sim {

class MujocoWorld;

struct Camera {
  Vector3 lookat{0.0, 0.0, 0.3};  // the point looked at, world frame (m)
  double distance = 1.6;          // from lookat (m)
  double azimuth = 135.0;         // degrees about world z, MuJoCo's free-camera convention
  double elevation = -20.0;       // degrees; negative looks down
};

// The same view, moved so that it looks at the robot's floating base (its free joint's position),
// keeping the height of `view.lookat` when keep_height is true, so a falling or standing robot
// moves in the picture instead of the floor. Needs a model with a free joint (MujocoWorld requires
// one).
[[nodiscard]] Camera track_base(const MujocoWorld& world, Camera view, bool keep_height = false);

}  // namespace praxis::sim
