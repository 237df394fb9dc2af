#include "praxis/sim/camera.hpp"

#include <mujoco/mujoco.h>

#include "praxis/sim/mujoco_world.hpp"

namespace praxis::sim {

Camera track_base(const MujocoWorld& world, Camera view, bool keep_height) {
  const mjModel* m = world.model();
  const mjData* d = world.data();
  // qpos, not xpos: after mj_step the body positions still describe the state before the step.
  for (int j = 0; j < m->njnt; ++j) {
    if (m->jnt_type[j] != mjJNT_FREE) continue;
    const mjtNum* p = d->qpos + m->jnt_qposadr[j];
    view.lookat.x() = p[0];
    view.lookat.y() = p[1];
    if (!keep_height) view.lookat.z() = p[2];
    break;
  }
  return view;
}

}  // namespace praxis::sim
