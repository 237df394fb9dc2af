#include "praxis/sim/mujoco_world.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <mujoco/mujoco.h>

namespace praxis::sim {

namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

struct SensorSpec {
  const char* name;
  int type;
  const char* element;  // how the MJCF spells the type, for the message
  int dim;
};

int find_sensor(const mjModel* m, const std::filesystem::path& file, const SensorSpec& spec) {
  const int id = mj_name2id(m, mjOBJ_SENSOR, spec.name);
  if (id < 0) {
    throw ModelError("MuJoCo model " + quoted(file) + ": no sensor named '" + spec.name +
                     "' (expected a <" + spec.element + "> on the IMU site)");
  }
  if (m->sensor_type[id] != spec.type || m->sensor_dim[id] != spec.dim) {
    throw ModelError("MuJoCo model " + quoted(file) + ": sensor '" + spec.name + "' must be a <" +
                     spec.element + ">");
  }
  return m->sensor_adr[id];
}

// The motor law needs ctrl to be the joint torque: a <motor> (no activation dynamics, unit gain, no
// bias) with gear 1 on a joint.
bool is_torque_motor(const mjModel* m, int a) {
  return m->actuator_dyntype[a] == mjDYN_NONE && m->actuator_gaintype[a] == mjGAIN_FIXED &&
         m->actuator_gainprm[a * mjNGAIN] == 1.0 && m->actuator_biastype[a] == mjBIAS_NONE &&
         m->actuator_gear[a * 6] == 1.0;
}

}  // namespace

void MujocoWorld::ModelDeleter::operator()(mjModel_* m) const noexcept { mj_deleteModel(m); }
void MujocoWorld::DataDeleter::operator()(mjData_* d) const noexcept { mj_deleteData(d); }

MujocoWorld::MujocoWorld(const std::filesystem::path& model_file,
                         std::span<const std::string_view> joint_names)
    : file_(model_file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(model_file, ec)) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": no such file");
  }
  std::array<char, 1024> error{};
  model_.reset(mj_loadXML(model_file.c_str(), nullptr, error.data(), static_cast<int>(error.size())));
  if (!model_) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": MuJoCo " + mj_versionString() +
                     " rejected it: " + error.data());
  }
  const mjModel* m = model_.get();

  joints_.resize(joint_names.size());
  targets_.resize(joint_names.size());
  for (std::size_t i = 0; i < joint_names.size(); ++i) {
    const std::string name(joint_names[i]);
    int id = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (id < 0) id = mj_name2id(m, mjOBJ_JOINT, (name + "_joint").c_str());
    if (id < 0) {
      throw ModelError("MuJoCo model " + quoted(model_file) + ": no joint named '" + name + "' or '" +
                       name + "_joint' (robot joint " + std::to_string(i) + ")");
    }
    if (m->jnt_type[id] != mjJNT_HINGE && m->jnt_type[id] != mjJNT_SLIDE) {
      throw ModelError("MuJoCo model " + quoted(model_file) + ": joint '" + mj_id2name(m, mjOBJ_JOINT, id) +
                       "' must be a hinge or slide joint");
    }
    for (std::size_t k = 0; k < i; ++k) {
      if (joints_[k].joint == id) {
        throw ModelError("MuJoCo model " + quoted(model_file) + ": robot joints " + std::to_string(k) +
                         " and " + std::to_string(i) + " both map to joint '" +
                         mj_id2name(m, mjOBJ_JOINT, id) + "'");
      }
    }
    int actuator = -1;
    for (int a = 0; a < m->nu; ++a) {
      if (m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != id) continue;
      if (actuator >= 0) {
        throw ModelError("MuJoCo model " + quoted(model_file) + ": joint '" + mj_id2name(m, mjOBJ_JOINT, id) +
                         "' has more than one actuator (expected one <motor>)");
      }
      actuator = a;
    }
    if (actuator < 0) {
      throw ModelError("MuJoCo model " + quoted(model_file) + ": no actuator drives joint '" +
                       mj_id2name(m, mjOBJ_JOINT, id) + "' (expected a <motor> with gear 1)");
    }
    if (!is_torque_motor(m, actuator)) {
      throw ModelError("MuJoCo model " + quoted(model_file) + ": the actuator of joint '" +
                       mj_id2name(m, mjOBJ_JOINT, id) + "' must be a <motor> with gear 1, so that ctrl is the joint torque");
    }
    if (!m->actuator_ctrllimited[actuator]) {
      throw ModelError("MuJoCo model " + quoted(model_file) + ": the motor of joint '" +
                       mj_id2name(m, mjOBJ_JOINT, id) + "' needs a ctrlrange (its torque limit)");
    }
    joints_[i] = JointSlot{id, actuator, m->jnt_qposadr[id], m->jnt_dofadr[id],
                           m->actuator_ctrlrange[2 * actuator], m->actuator_ctrlrange[2 * actuator + 1]};
  }

  int base = -1;
  for (int j = 0; j < m->njnt && base < 0; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) base = j;
  }
  if (base < 0) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": no free joint (the robot's base must float)");
  }
  base_qpos_ = m->jnt_qposadr[base];
  base_dof_ = m->jnt_dofadr[base];

  imu_quat_ = find_sensor(m, model_file, {"imu_quat", mjSENS_FRAMEQUAT, "framequat", 4});
  imu_gyro_ = find_sensor(m, model_file, {"imu_gyro", mjSENS_GYRO, "gyro", 3});
  imu_acc_ = find_sensor(m, model_file, {"imu_acc", mjSENS_ACCELEROMETER, "accelerometer", 3});
  frame_pos_ = find_sensor(m, model_file, {"frame_pos", mjSENS_FRAMEPOS, "framepos", 3});
  frame_vel_ = find_sensor(m, model_file, {"frame_vel", mjSENS_FRAMELINVEL, "framelinvel", 3});

  data_.reset(mj_makeData(m));
  probe_.reset(mj_makeData(m));
  if (!data_ || !probe_) throw ModelError("MuJoCo model " + quoted(model_file) + ": could not allocate its mjData");
  reset();
}

MujocoWorld::~MujocoWorld() = default;
MujocoWorld::MujocoWorld(MujocoWorld&&) noexcept = default;
MujocoWorld& MujocoWorld::operator=(MujocoWorld&&) noexcept = default;

double MujocoWorld::timestep() const noexcept { return model_->opt.timestep; }
double MujocoWorld::total_mass() const noexcept { return mj_getTotalmass(model_.get()); }

void MujocoWorld::apply_motor_law() noexcept {
  mjData* d = data_.get();
  for (std::size_t i = 0; i < joints_.size(); ++i) {
    const auto& s = joints_[i];
    const auto& t = targets_[i];
    double u = 0.0;
    if (t.enabled) {
      u = t.tau + t.kp * (t.q - d->qpos[s.qpos]) + t.kd * (t.dq - d->qvel[s.dof]);
      // A diverged state must not turn into a NaN torque; the motor then rests.
      if (!std::isfinite(u)) u = 0.0;
      u = std::clamp(u, s.ctrl_min, s.ctrl_max);
    }
    d->ctrl[s.actuator] = u;
  }
}

void MujocoWorld::step(std::size_t n) noexcept {
  for (std::size_t k = 0; k < n; ++k) {
    apply_motor_law();
    mj_step(model_.get(), data_.get());
    ++steps_;
  }
  if (n > 0) sensors_current_ = false;
}

double MujocoWorld::q(std::size_t joint) const noexcept { return data_->qpos[joints_[joint].qpos]; }
double MujocoWorld::dq(std::size_t joint) const noexcept { return data_->qvel[joints_[joint].dof]; }
double MujocoWorld::tau(std::size_t joint) const noexcept {
  return data_->actuator_force[joints_[joint].actuator];
}

void MujocoWorld::refresh_sensors() noexcept {
  if (sensors_current_) return;
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  mjData* p = probe_.get();
  // Everything mj_forward reads: the state, the inputs, and the warm start (same result bits).
  p->time = d->time;
  std::copy_n(d->qpos, m->nq, p->qpos);
  std::copy_n(d->qvel, m->nv, p->qvel);
  std::copy_n(d->act, m->na, p->act);
  std::copy_n(d->ctrl, m->nu, p->ctrl);
  std::copy_n(d->qacc_warmstart, m->nv, p->qacc_warmstart);
  std::copy_n(d->qfrc_applied, m->nv, p->qfrc_applied);
  std::copy_n(d->xfrc_applied, 6 * m->nbody, p->xfrc_applied);
  std::copy_n(d->mocap_pos, 3 * m->nmocap, p->mocap_pos);
  std::copy_n(d->mocap_quat, 4 * m->nmocap, p->mocap_quat);
  mj_forward(m, p);
  sensors_current_ = true;
}

Vector3 MujocoWorld::sensor3(int adr) const noexcept {
  const mjtNum* s = probe_->sensordata + adr;
  return {s[0], s[1], s[2]};
}

ImuReading MujocoWorld::imu() noexcept {
  refresh_sensors();
  const mjtNum* q = probe_->sensordata + imu_quat_;
  ImuReading r;
  r.orientation = Quaternion(q[0], q[1], q[2], q[3]);
  r.gyro = sensor3(imu_gyro_);
  r.accelerometer = sensor3(imu_acc_);
  return r;
}

BaseReading MujocoWorld::base() noexcept {
  refresh_sensors();
  const mjtNum* p = data_->qpos + base_qpos_;
  const mjtNum* v = data_->qvel + base_dof_;
  BaseReading r;
  r.position = {p[0], p[1], p[2]};
  r.orientation = Quaternion(p[3], p[4], p[5], p[6]);
  // A free joint's velocity is the origin's linear velocity in the world frame, then the angular
  // velocity in the body frame.
  r.linear_velocity = {v[0], v[1], v[2]};
  r.angular_velocity = {v[3], v[4], v[5]};
  r.imu_position = sensor3(frame_pos_);
  r.imu_velocity = sensor3(frame_vel_);
  return r;
}

bool MujocoWorld::diverged() const noexcept {
  return data_->warning[mjWARN_BADQPOS].number + data_->warning[mjWARN_BADQVEL].number +
             data_->warning[mjWARN_BADQACC].number >
         0;
}

void MujocoWorld::reset() noexcept {
  if (model_->nkey > 0) {
    mj_resetDataKeyframe(model_.get(), data_.get(), 0);
  } else {
    mj_resetData(model_.get(), data_.get());
  }
  std::fill(targets_.begin(), targets_.end(), MotorTarget{});
  steps_ = 0;
  sensors_current_ = false;
}

void MujocoWorld::set_joint_positions(std::span<const double> q) {
  if (q.size() != joints_.size()) {
    throw std::invalid_argument("MujocoWorld::set_joint_positions: " + std::to_string(q.size()) +
                                " positions for " + std::to_string(joints_.size()) + " joints");
  }
  for (std::size_t i = 0; i < joints_.size(); ++i) {
    data_->qpos[joints_[i].qpos] = q[i];
    data_->qvel[joints_[i].dof] = 0.0;
  }
  sensors_current_ = false;
}

void MujocoWorld::set_base_pose(const Vector3& position, const Quaternion& orientation) noexcept {
  const Quaternion o = orientation.normalized();
  mjtNum* p = data_->qpos + base_qpos_;
  p[0] = position.x();
  p[1] = position.y();
  p[2] = position.z();
  p[3] = o.w();
  p[4] = o.x();
  p[5] = o.y();
  p[6] = o.z();
  std::fill(data_->qvel + base_dof_, data_->qvel + base_dof_ + 6, 0.0);
  sensors_current_ = false;
}

}  // namespace praxis::sim
