#include "praxis/sim/mujoco_world.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
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
  const MjcfTranslation source(model_file);
  translations_ = source.changes();
  model_.reset(load(source));
  map_joints(joint_names);

  const mjModel* m = model_.get();
  int base = -1;
  for (int j = 0; j < m->njnt && base < 0; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) base = j;
  }
  if (base < 0) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": no free joint (the robot's base must float)");
  }
  base_qpos_ = m->jnt_qposadr[base];
  base_dof_ = m->jnt_dofadr[base];
  base_body_ = m->jnt_bodyid[base];
  find_imu();

  data_.reset(mj_makeData(m));
  probe_.reset(mj_makeData(m));
  if (!data_ || !probe_) throw ModelError("MuJoCo model " + quoted(model_file) + ": could not allocate its mjData");
  reset();
}

// The translated texts go to MuJoCo through its virtual file system under their own file names:
// 2.2.2 looks a file up there first, by its name without the folder, and opens anything else (the
// meshes) from the model file's folder as usual.
mjModel* MujocoWorld::load(const MjcfTranslation& source) const {
  std::array<char, 1024> error{};
  mjModel* m = nullptr;
  if (!source.changed()) {
    m = mj_loadXML(file_.c_str(), nullptr, error.data(), static_cast<int>(error.size()));
  } else {
    auto vfs = std::make_unique<mjVFS>();  // about 2 MB of file names
    mj_defaultVFS(vfs.get());
    struct Files {
      mjVFS* vfs;
      ~Files() { mj_deleteVFS(vfs); }
    } files{vfs.get()};
    std::vector<std::string> names;
    for (const auto& f : source.files()) {
      std::string name = f.path.filename().string();
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        throw ModelError("MuJoCo model " + quoted(file_) + ": two of its files are named '" + f.path.filename().string() +
                         "' (" + quoted(f.path) + "): MuJoCo 2.2.2 names the translated files by file name alone");
      }
      names.push_back(name);
      if (!f.changed) continue;
      const std::string vfs_name = f.path.filename().string();
      if (mj_makeEmptyFileVFS(vfs.get(), vfs_name.c_str(), static_cast<int>(f.text.size())) != 0) {
        throw ModelError("MuJoCo model " + quoted(file_) + ": MuJoCo's virtual file system took no file " + quoted(f.path));
      }
      const int id = mj_findFileVFS(vfs.get(), vfs_name.c_str());
      std::memcpy(vfs->filedata[id], f.text.data(), f.text.size());
    }
    m = mj_loadXML(file_.c_str(), vfs.get(), error.data(), static_cast<int>(error.size()));
  }
  if (!m) {
    std::string why = error.data();
    // MuJoCo's message spans lines ("...\n\nElement 'joint', line 0"); one line reads better in a log.
    for (auto at = why.find('\n'); at != std::string::npos; at = why.find('\n')) {
      const auto end = why.find_first_not_of('\n', at);
      why.replace(at, (end == std::string::npos ? why.size() : end) - at, end == std::string::npos ? "" : "; ");
    }
    const std::string at = source.locate(error.data());
    throw ModelError("MuJoCo model " + quoted(file_) + ": MuJoCo " + mj_versionString() + " rejected it: " + why +
                     (at.empty() ? std::string{} : " (at " + at + ")"));
  }
  return m;
}

void MujocoWorld::map_joints(std::span<const std::string_view> joint_names) {
  const mjModel* m = model_.get();
  const auto& model_file = file_;
  joints_.resize(joint_names.size());
  targets_.resize(joint_names.size());
  for (std::size_t i = 0; i < joint_names.size(); ++i) {
    const std::string name(joint_names[i]);
    int id = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (id < 0) id = mj_name2id(m, mjOBJ_JOINT, (name + "_joint").c_str());
    if (id < 0) {
      missing_.push_back(i);
      joints_[i] = JointSlot{};
      continue;
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

  std::string missing;
  for (const std::size_t i : missing_) {
    const std::string name(joint_names[i]);
    missing += (missing.empty() ? "" : ", ") + name + " (robot joint " + std::to_string(i) + ": no joint '" + name +
               "' or '" + name + "_joint')";
  }
  if (!joint_names.empty() && missing_.size() == joint_names.size()) {
    throw ModelError("MuJoCo model " + quoted(model_file) + ": none of the robot's " + std::to_string(joint_names.size()) +
                     " joints is in it: " + missing);
  }
  // An actuator on a joint the robot does not know would stay unpowered and unseen, which is also
  // what a misspelt joint name looks like: refused.
  for (int a = 0; a < m->nu; ++a) {
    const bool used = std::any_of(joints_.begin(), joints_.end(), [&](const JointSlot& s) { return s.actuator == a; });
    if (used) continue;
    const char* actuator = mj_id2name(m, mjOBJ_ACTUATOR, a);
    const char* target = m->actuator_trntype[a] == mjTRN_JOINT ? mj_id2name(m, mjOBJ_JOINT, m->actuator_trnid[2 * a]) : nullptr;
    throw ModelError("MuJoCo model " + quoted(model_file) + ": actuator " +
                     (actuator ? "'" + std::string(actuator) + "'" : std::to_string(a)) + " drives " +
                     (target ? "joint '" + std::string(target) + "', which is" : std::string("something that is")) +
                     " not one of the robot's joints" +
                     (missing.empty() ? std::string{} : "; the robot's joints missing from the model: " + missing));
  }
}

void MujocoWorld::find_imu() {
  const mjModel* m = model_.get();
  const auto& model_file = file_;
  const std::array<const char*, 5> praxis_names{"imu_quat", "imu_gyro", "imu_acc", "frame_pos", "frame_vel"};
  const bool praxis_sensors = std::any_of(praxis_names.begin(), praxis_names.end(),
                                          [&](const char* n) { return mj_name2id(m, mjOBJ_SENSOR, n) >= 0; });
  if (praxis_sensors) {
    imu_.quat = find_sensor(m, model_file, {"imu_quat", mjSENS_FRAMEQUAT, "framequat", 4});
    imu_.gyro = find_sensor(m, model_file, {"imu_gyro", mjSENS_GYRO, "gyro", 3});
    imu_.acc = find_sensor(m, model_file, {"imu_acc", mjSENS_ACCELEROMETER, "accelerometer", 3});
    imu_.pos = find_sensor(m, model_file, {"frame_pos", mjSENS_FRAMEPOS, "framepos", 3});
    imu_.vel = find_sensor(m, model_file, {"frame_vel", mjSENS_FRAMELINVEL, "framelinvel", 3});
    imu_source_ = {ImuSource::Kind::sensors, {}, "sensors imu_quat, imu_gyro, imu_acc, frame_pos, frame_vel"};
    return;
  }
  const char* base_name = mj_id2name(m, mjOBJ_BODY, base_body_);
  const std::string base = base_name ? base_name : "";
  int site = mj_name2id(m, mjOBJ_SITE, "imu");
  if (site < 0 && !base.empty()) site = mj_name2id(m, mjOBJ_SITE, ("imu_in_" + base).c_str());
  if (site >= 0) {
    imu_frame_type_ = mjOBJ_SITE;
    imu_frame_id_ = site;
    imu_source_.kind = ImuSource::Kind::site;
    imu_source_.frame = mj_id2name(m, mjOBJ_SITE, site);
    imu_source_.description = "site '" + imu_source_.frame + "'";
  } else {
    imu_frame_type_ = mjOBJ_XBODY;
    imu_frame_id_ = base_body_;
    imu_source_.kind = ImuSource::Kind::body;
    imu_source_.frame = base;
    imu_source_.description = "body '" + base + "', the free joint's (no site 'imu'" +
                              (base.empty() ? std::string{} : " or 'imu_in_" + base + "'") + ")";
  }
  // A sensor of the model on the IMU frame gives its reading (with the model's cutoff).
  const int frame_obj = imu_frame_type_ == mjOBJ_SITE ? mjOBJ_SITE : mjOBJ_XBODY;
  std::string from_sensors, computed;
  const auto channel = [&](int& adr, int type, const char* what) {
    for (int s = 0; s < m->nsensor && adr < 0; ++s) {
      if (m->sensor_type[s] != type || m->sensor_objid[s] != imu_frame_id_ || m->sensor_refid[s] >= 0) continue;
      if (m->sensor_objtype[s] != frame_obj) continue;
      adr = m->sensor_adr[s];
      const char* n = mj_id2name(m, mjOBJ_SENSOR, s);
      from_sensors += std::string(from_sensors.empty() ? "" : ", ") + what + " from sensor '" + (n ? n : "") + "'";
    }
    if (adr < 0) computed += std::string(computed.empty() ? "" : ", ") + what;
  };
  channel(imu_.quat, mjSENS_FRAMEQUAT, "orientation");
  channel(imu_.gyro, mjSENS_GYRO, "gyro");
  channel(imu_.acc, mjSENS_ACCELEROMETER, "accelerometer");
  channel(imu_.pos, mjSENS_FRAMEPOS, "position");
  channel(imu_.vel, mjSENS_FRAMELINVEL, "velocity");
  imu_source_.description += ": " + from_sensors + (from_sensors.empty() || computed.empty() ? "" : "; ") +
                             (computed.empty() ? std::string{} : computed + " computed from the frame's motion");
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
    if (s.actuator < 0) continue;  // a missing joint: nothing drives it
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

double MujocoWorld::q(std::size_t joint) const noexcept {
  return has_joint(joint) ? data_->qpos[joints_[joint].qpos] : 0.0;
}
double MujocoWorld::dq(std::size_t joint) const noexcept {
  return has_joint(joint) ? data_->qvel[joints_[joint].dof] : 0.0;
}
double MujocoWorld::tau(std::size_t joint) const noexcept {
  return has_joint(joint) ? data_->actuator_force[joints_[joint].actuator] : 0.0;
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
  // Body accelerations (cacc) are only there when the model has an acceleration sensor.
  if (imu_.acc < 0) mj_rnePostConstraint(m, p);
  sensors_current_ = true;
}

Vector3 MujocoWorld::frame_velocity(bool angular, bool local) const noexcept {
  std::array<mjtNum, 6> v{};
  mj_objectVelocity(model_.get(), probe_.get(), imu_frame_type_, imu_frame_id_, v.data(), local ? 1 : 0);
  const int k = angular ? 0 : 3;
  return {v[k], v[k + 1], v[k + 2]};
}

Vector3 MujocoWorld::sensor3(int adr) const noexcept {
  const mjtNum* s = probe_->sensordata + adr;
  return {s[0], s[1], s[2]};
}

// The computed readings are what MuJoCo's framequat, gyro, accelerometer, framepos and framelinvel
// sensors give on the same frame (the test compares them).
ImuReading MujocoWorld::imu() noexcept {
  refresh_sensors();
  const mjModel* m = model_.get();
  const mjData* p = probe_.get();
  ImuReading r;
  if (imu_.quat >= 0) {
    const mjtNum* q = p->sensordata + imu_.quat;
    r.orientation = Quaternion(q[0], q[1], q[2], q[3]);
  } else {
    std::array<mjtNum, 4> q{};
    if (imu_frame_type_ == mjOBJ_SITE) {
      mju_mat2Quat(q.data(), p->site_xmat + 9 * imu_frame_id_);
    } else {
      std::copy_n(p->xquat + 4 * imu_frame_id_, 4, q.begin());
    }
    r.orientation = Quaternion(q[0], q[1], q[2], q[3]);
  }
  r.gyro = imu_.gyro >= 0 ? sensor3(imu_.gyro) : frame_velocity(true, true);
  if (imu_.acc >= 0) {
    r.accelerometer = sensor3(imu_.acc);
  } else {
    std::array<mjtNum, 6> a{};
    mj_objectAcceleration(m, p, imu_frame_type_, imu_frame_id_, a.data(), 1);
    r.accelerometer = {a[3], a[4], a[5]};
  }
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
  if (imu_.pos >= 0) {
    r.imu_position = sensor3(imu_.pos);
  } else {
    const mjtNum* x = imu_frame_type_ == mjOBJ_SITE ? probe_->site_xpos + 3 * imu_frame_id_ : probe_->xpos + 3 * imu_frame_id_;
    r.imu_position = {x[0], x[1], x[2]};
  }
  r.imu_velocity = imu_.vel >= 0 ? sensor3(imu_.vel) : frame_velocity(false, false);
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
    if (!has_joint(i)) continue;
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
