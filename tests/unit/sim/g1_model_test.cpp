// models/g1_29dof.xml, the hand-written Unitree G1 29-DOF (rev_1_0) MuJoCo model, against the numbers
// of its public sources (the keys in models/g1_29dof.xml's header, [tree] [mass] [order] ...): it loads
// in MuJoCo 2.2.2, weighs what they say, has its 29 motors in the unitree_hg order with their joint
// names and torque limits, and
// holds the standing pose for 5 s on the elastic band under joint PD without blowing up.
// Raw MuJoCo C API only; the model directory comes from the compile definition PRAXIS_MODELS_DIR.

#include <catch2/catch.hpp>

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#ifndef PRAXIS_MODELS_DIR
#error "PRAXIS_MODELS_DIR (the directory holding g1_29dof.xml) must be defined"
#endif

namespace g1_model_test {

constexpr int motor_count = 29;
constexpr double source_mass = 33.341;  // [desc] / [height]: rev_1_0, mj_getTotalmass

struct Motor {
  const char* joint;
  double torque;  // [tree], MJCF torque limit (N·m)
  double stand;   // [poses], RL default standing angle (rad)
  double kp;      // [poses], RL gains: legs as deploy_mujoco, waist and arms as deploy_real
  double kd;
};

// Sheet 2.4: unitree_hg motor index i = actuator i.
constexpr std::array<Motor, motor_count> motors{{
    {"left_hip_pitch_joint", 88, -0.1, 100, 2},
    {"left_hip_roll_joint", 139, 0, 100, 2},
    {"left_hip_yaw_joint", 88, 0, 100, 2},
    {"left_knee_joint", 139, 0.3, 150, 4},
    {"left_ankle_pitch_joint", 50, -0.2, 40, 2},
    {"left_ankle_roll_joint", 50, 0, 40, 2},
    {"right_hip_pitch_joint", 88, -0.1, 100, 2},
    {"right_hip_roll_joint", 139, 0, 100, 2},
    {"right_hip_yaw_joint", 88, 0, 100, 2},
    {"right_knee_joint", 139, 0.3, 150, 4},
    {"right_ankle_pitch_joint", 50, -0.2, 40, 2},
    {"right_ankle_roll_joint", 50, 0, 40, 2},
    {"waist_yaw_joint", 88, 0, 300, 3},
    {"waist_roll_joint", 50, 0, 300, 3},
    {"waist_pitch_joint", 50, 0, 300, 3},
    {"left_shoulder_pitch_joint", 25, 0, 100, 2},
    {"left_shoulder_roll_joint", 25, 0, 100, 2},
    {"left_shoulder_yaw_joint", 25, 0, 50, 2},
    {"left_elbow_joint", 25, 0, 50, 2},
    {"left_wrist_roll_joint", 25, 0, 20, 1},
    {"left_wrist_pitch_joint", 5, 0, 20, 1},
    {"left_wrist_yaw_joint", 5, 0, 20, 1},
    {"right_shoulder_pitch_joint", 25, 0, 100, 2},
    {"right_shoulder_roll_joint", 25, 0, 100, 2},
    {"right_shoulder_yaw_joint", 25, 0, 50, 2},
    {"right_elbow_joint", 25, 0, 50, 2},
    {"right_wrist_roll_joint", 25, 0, 20, 1},
    {"right_wrist_pitch_joint", 5, 0, 20, 1},
    {"right_wrist_yaw_joint", 5, 0, 20, 1},
}};

// Sheet 3.5: the unitree_mujoco elastic band, pulling torso_link towards a fixed anchor, with the
// position and velocity read from the free joint (the pelvis).
constexpr double band_k = 200;           // N/m
constexpr double band_c = 100;           // N·s/m
constexpr double band_anchor_z = 3.0;    // m, anchor (0, 0, 3)
constexpr double band_length = 0.6;      // m; replayed with UM's band law: L 0.6 holds the pelvis at 0.784 m
constexpr double band_height = 0.7842;   // m; [height]: pelvis height in the RL default pose

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

inline std::string model_path() { return std::string(PRAXIS_MODELS_DIR) + "/g1_29dof.xml"; }

inline ModelPtr load(std::string& error) {
  std::array<char, 1000> buffer{};
  ModelPtr m{mj_loadXML(model_path().c_str(), nullptr, buffer.data(), static_cast<int>(buffer.size()))};
  error = buffer.data();
  return m;
}

inline int joint_of(const mjModel* m, int actuator) { return m->actuator_trnid[2 * actuator]; }

inline double joint_q(const mjModel* m, const mjData* d, int actuator) {
  return d->qpos[m->jnt_qposadr[joint_of(m, actuator)]];
}

inline bool state_is_finite(const mjModel* m, const mjData* d) {
  return std::all_of(d->qpos, d->qpos + m->nq, [](double x) { return std::isfinite(x); }) &&
         std::all_of(d->qvel, d->qvel + m->nv, [](double x) { return std::isfinite(x); });
}

// ctrl = kp (q* - q) - kd dq, the unitree_mujoco motor law with dq* = 0 and tau = 0 ([sim]);
// MuJoCo clamps ctrl to the actuator's ctrlrange.
inline void apply_pd(const mjModel* m, mjData* d) {
  for (int i = 0; i < motor_count; ++i) {
    const Motor& motor = motors[static_cast<std::size_t>(i)];
    const double dq = d->qvel[m->jnt_dofadr[joint_of(m, i)]];
    d->ctrl[i] = motor.kp * (motor.stand - joint_q(m, d, i)) - motor.kd * dq;
  }
}

// Sheet 3.5: F = (k (dist - L) - c v) n, n the unit vector from the pelvis to the anchor, v the pelvis
// velocity along n; a pure force on torso_link, written before every step.
inline void apply_band(mjData* d, int torso) {
  const std::array<double, 3> delta{-d->qpos[0], -d->qpos[1], band_anchor_z - d->qpos[2]};
  const double dist = std::sqrt(delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]);
  double speed = 0;
  for (std::size_t k = 0; k < 3; ++k) speed += d->qvel[k] * delta[k] / dist;
  const double magnitude = band_k * (dist - band_length) - band_c * speed;
  double* wrench = d->xfrc_applied + 6 * torso;
  for (std::size_t k = 0; k < 6; ++k) wrench[k] = k < 3 ? magnitude * delta[k] / dist : 0.0;
}

TEST_CASE("The G1 29-DOF model loads in the installed MuJoCo and weighs what its sources say") {
  std::string error;
  const ModelPtr m = load(error);
  INFO("model " << model_path() << ", MuJoCo " << mj_versionString() << ": " << error);
  REQUIRE(m != nullptr);

  CHECK(m->nq == 36);
  CHECK(m->nv == 35);
  CHECK(m->nbody == 31);
  CHECK(m->nsensordata == 113);  // [sensors]: 3 x 29 motor values, pelvis IMU + base, torso IMU

  int hinges = 0;
  int frees = 0;
  for (int j = 0; j < m->njnt; ++j) {
    hinges += m->jnt_type[j] == mjJNT_HINGE ? 1 : 0;
    frees += m->jnt_type[j] == mjJNT_FREE ? 1 : 0;
  }
  REQUIRE(m->njnt == 30);
  REQUIRE(hinges == 29);
  REQUIRE(frees == 1);

  const double mass = mj_getTotalmass(m.get());
  INFO("total mass " << mass << " kg, sources " << source_mass << " kg");
  REQUIRE(std::fabs(mass - source_mass) <= 0.01 * source_mass);
}

// [dynamics]: the rotor inertia of each motor as the joint's armature, by motor group, as the
// menagerie's rev_1_0 G1 gives them; joint damping 0.05 as unitree_mujoco's G1; frictionloss 0.1 as
// the menagerie's. A model without armature blows up under stiff PD at 2 ms steps.
TEST_CASE("The G1 model's joints carry the public sources' armature, damping and friction") {
  std::string error;
  const ModelPtr m = load(error);
  REQUIRE(m != nullptr);
  const auto armature_of = [](std::string_view joint) {
    const auto has = [&](std::string_view part) { return joint.find(part) != std::string_view::npos; };
    if (has("hip_roll") || has("knee")) return 0.025101925;
    if (has("hip_pitch") || has("hip_yaw") || has("waist_yaw")) return 0.01017752004;
    if (has("ankle") || has("waist_roll") || has("waist_pitch")) return 0.00721945;
    if (has("wrist_pitch") || has("wrist_yaw")) return 0.00425;
    return 0.003609725;  // shoulders, elbows, wrist roll
  };
  for (int i = 0; i < motor_count; ++i) {
    const Motor& motor = motors[static_cast<std::size_t>(i)];
    const int dof = m->jnt_dofadr[joint_of(m.get(), i)];
    INFO(motor.joint);
    CHECK(m->dof_armature[dof] == armature_of(motor.joint));
    CHECK(m->dof_damping[dof] == 0.05);
    CHECK(m->dof_frictionloss[dof] == 0.1);
  }
}

TEST_CASE("The G1 model's actuators are the 29 unitree_hg motors in order, with their sources' torque limits") {
  std::string error;
  const ModelPtr m = load(error);
  REQUIRE(m != nullptr);
  REQUIRE(m->nu == motor_count);

  for (int i = 0; i < motor_count; ++i) {
    const Motor& motor = motors[static_cast<std::size_t>(i)];
    const int joint = joint_of(m.get(), i);
    INFO("actuator " << i << ", expected joint " << motor.joint);
    REQUIRE(m->actuator_trntype[i] == mjTRN_JOINT);
    REQUIRE(m->jnt_type[joint] == mjJNT_HINGE);
    REQUIRE(std::string(mj_id2name(m.get(), mjOBJ_JOINT, joint)) == motor.joint);
    REQUIRE(std::string(mj_id2name(m.get(), mjOBJ_ACTUATOR, i)) == motor.joint);
    REQUIRE(m->actuator_gear[6 * i] == 1.0);
    REQUIRE(m->actuator_ctrllimited[i] == 1);
    REQUIRE(m->actuator_ctrlrange[2 * i] == -motor.torque);
    REQUIRE(m->actuator_ctrlrange[2 * i + 1] == motor.torque);
    // The body tree is declared in motor order too, so qpos[7 + i] is motor i ([order]).
    REQUIRE(m->jnt_qposadr[joint] == 7 + i);
  }
}

TEST_CASE("On the elastic band, the G1 model holds the standing pose under joint PD for 5 s") {
  std::string error;
  const ModelPtr m = load(error);
  REQUIRE(m != nullptr);
  const DataPtr d{mj_makeData(m.get())};
  REQUIRE(d != nullptr);

  const int torso = mj_name2id(m.get(), mjOBJ_BODY, "torso_link");
  REQUIRE(torso >= 0);
  const int band_site = mj_name2id(m.get(), mjOBJ_SITE, "elastic_band");
  REQUIRE(band_site >= 0);
  REQUIRE(m->site_bodyid[band_site] == torso);

  // The RL default pose, pelvis 5 mm above its standing height, at rest.
  mj_resetData(m.get(), d.get());
  d->qpos[2] = band_height + 0.005;
  for (int i = 0; i < motor_count; ++i)
    d->qpos[m->jnt_qposadr[joint_of(m.get(), i)]] = motors[static_cast<std::size_t>(i)].stand;
  mj_forward(m.get(), d.get());

  const int steps = static_cast<int>(std::lround(5.0 / m->opt.timestep));
  double worst_joint_error = 0;
  int worst_joint = 0;
  double worst_height_error = 0;
  bool finite = true;
  for (int s = 0; s < steps && finite; ++s) {
    apply_band(d.get(), torso);
    apply_pd(m.get(), d.get());
    mj_step(m.get(), d.get());
    finite = state_is_finite(m.get(), d.get());
    for (int i = 0; i < motor_count; ++i) {
      const double e = std::fabs(joint_q(m.get(), d.get(), i) - motors[static_cast<std::size_t>(i)].stand);
      if (e > worst_joint_error) {
        worst_joint_error = e;
        worst_joint = i;
      }
    }
    worst_height_error = std::max(worst_height_error, std::fabs(d->qpos[2] - band_height));
  }

  INFO("t " << d->time << " s, pelvis z " << d->qpos[2] << " m; largest joint error " << worst_joint_error
            << " rad (" << motors[static_cast<std::size_t>(worst_joint)].joint << "), largest pelvis height error "
            << worst_height_error << " m");
  REQUIRE(finite);
  REQUIRE(d->warning[mjWARN_BADQACC].number == 0);
  REQUIRE(d->time >= 5.0 - 1e-9);
  REQUIRE(worst_joint_error < 0.05);
  REQUIRE(worst_height_error < 0.02);
}

}  // namespace g1_model_test
