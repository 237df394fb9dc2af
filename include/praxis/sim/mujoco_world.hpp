#pragma once
// MujocoWorld: one MuJoCo model and its simulation state, seen as a robot's motors and sensors.
//
// It loads an MJCF file, finds each of the robot's joints by name (in the robot model's wire order,
// not the file's body order) and the <motor> that drives it, and runs the motor drivers' law
//   ctrl = tau + kp (q* - q) + kd (dq* - dq), clamped to the motor's ctrlrange,
// once per physics step, from the joint state at the start of that step. Time only advances through
// step(): no wall clock is involved, so equal inputs give bit-identical runs.
//
// A model written for MuJoCo 3 (the vendors' published MJCF) is translated in memory first
// (mjcf_translation.hpp); the files on disk are read as they are.
//
// Model conventions (models/go2.xml follows them):
//   - the joint for robot joint "X" is named "X" or "X_joint"; a <motor> with gear 1 and a ctrlrange
//     drives it, so ctrl is the joint torque. A robot joint the model does not have is missing: it
//     stays at 0 (as the model holds it, fixed) and commands to it are ignored. Every actuator of the
//     model must drive one of the robot's joints;
//   - the base floats on a free joint;
//   - the IMU: sensors named imu_quat (framequat), imu_gyro (gyro), imu_acc (accelerometer),
//     frame_pos (framepos) and frame_vel (framelinvel); a model without any of these names has its
//     IMU found by imu_source()'s rule instead;
//   - the first keyframe, if there is one, is the initial state.
//
// MuJoCo's own headers stay in the compiled part; code that needs the raw model and data includes
// <mujoco/mujoco.h> itself and links PraxisMuJoCo::mujoco.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/joint_vector.hpp"
#include "praxis/sim/mjcf_translation.hpp"

struct mjModel_;  // MuJoCo's mjModel and mjData (C structs, global namespace)
struct mjData_;

namespace praxis::sim {

// What one motor driver is told to do. A disabled motor produces no torque.
struct MotorTarget {
  double q = 0.0;    // rad
  double dq = 0.0;   // rad/s
  double kp = 0.0;   // N m / rad
  double kd = 0.0;   // N m s / rad
  double tau = 0.0;  // feed-forward torque, N m
  bool enabled = false;
};

struct ImuReading {
  Quaternion orientation = Quaternion::Identity();  // IMU frame to world
  Vector3 gyro = Vector3::Zero();                    // rad/s, IMU frame
  Vector3 accelerometer = Vector3::Zero();           // m/s^2, IMU frame, reads +g at rest
};

// Where the IMU readings come from, found when the model loads:
//   1. the sensors imu_quat, imu_gyro, imu_acc, frame_pos, frame_vel (praxis' own models);
//   2. else the site named "imu", else the site "imu_in_<base body>" (Unitree's G1: imu_in_pelvis;
//      its imu_in_torso is the second IMU, not in rt/lowstate);
//   3. else the base body (the free joint's body) itself.
// For 2 and 3, each reading comes from a sensor of the model on that frame if it has one of the
// right type (framequat, gyro, accelerometer, framepos, framelinvel, with no reference frame), so
// its cutoff holds; else it is computed from the frame's motion exactly as MuJoCo computes those
// sensors.
struct ImuSource {
  enum class Kind { sensors, site, body };
  Kind kind = Kind::sensors;
  std::string frame;        // the site or body (empty for sensors)
  std::string description;  // one line for a user: which frame, and which sensor gives which reading
};

struct BaseReading {
  Vector3 position = Vector3::Zero();                // base origin, world frame (m)
  Quaternion orientation = Quaternion::Identity();   // base to world
  Vector3 linear_velocity = Vector3::Zero();         // base origin, world frame (m/s)
  Vector3 angular_velocity = Vector3::Zero();        // base frame (rad/s)
  Vector3 imu_position = Vector3::Zero();            // frame_pos: the IMU site, world frame
  Vector3 imu_velocity = Vector3::Zero();            // frame_vel: the IMU site, world frame
};

class MujocoWorld {
 public:
  // Throws ModelError when the file is missing, MuJoCo rejects it, or it breaks a convention above.
  MujocoWorld(const std::filesystem::path& model_file, std::span<const std::string_view> joint_names);
  ~MujocoWorld();
  MujocoWorld(MujocoWorld&&) noexcept;
  MujocoWorld& operator=(MujocoWorld&&) noexcept;
  MujocoWorld(const MujocoWorld&) = delete;
  MujocoWorld& operator=(const MujocoWorld&) = delete;

  [[nodiscard]] const std::filesystem::path& file() const noexcept { return file_; }
  [[nodiscard]] std::size_t joint_count() const noexcept { return joints_.size(); }
  // The robot's joints (indices in its order) the model does not have: fixed at 0, never driven.
  [[nodiscard]] std::span<const std::size_t> missing_joints() const noexcept { return missing_; }
  [[nodiscard]] bool has_joint(std::size_t joint) const noexcept { return joints_[joint].joint >= 0; }
  [[nodiscard]] const ImuSource& imu_source() const noexcept { return imu_source_; }
  // What the translation for MuJoCo 2.2.2 changed (MjcfTranslation::changes); empty for a model
  // written for 2.2.2.
  [[nodiscard]] const std::vector<std::string>& translations() const noexcept { return translations_; }
  [[nodiscard]] double timestep() const noexcept;
  [[nodiscard]] double total_mass() const noexcept;

  // ---------------- commands (held until replaced) ----------------
  void set_target(std::size_t joint, const MotorTarget& target) noexcept { targets_[joint] = target; }
  [[nodiscard]] const MotorTarget& target(std::size_t joint) const noexcept { return targets_[joint]; }

  // ---------------- time ----------------
  // n physics steps of timestep() each. Allocation-free: MuJoCo works in the buffers mj_makeData
  // reserved.
  void step(std::size_t n = 1) noexcept;
  [[nodiscard]] std::uint64_t step_count() const noexcept { return steps_; }

  // ---------------- readings of the current state ----------------
  // A missing joint reads 0 (q, dq, tau).
  [[nodiscard]] double q(std::size_t joint) const noexcept;
  [[nodiscard]] double dq(std::size_t joint) const noexcept;
  // The torque the joint's motor applied during the last step (the clamped ctrl).
  [[nodiscard]] double tau(std::size_t joint) const noexcept;
  // Sensor readings at the current state. MuJoCo evaluates sensors before it integrates, so after a
  // step its sensordata describes the previous state; these evaluate the current state (once per
  // state) in a second mjData, because mj_forward on the live one changes the solver's warm start
  // and with it the next steps: reading must not change the simulation's course.
  [[nodiscard]] ImuReading imu() noexcept;
  [[nodiscard]] BaseReading base() noexcept;
  // MuJoCo met a non-finite or huge position, velocity or acceleration and reset the state to keep
  // going; the state alone would not show it.
  [[nodiscard]] bool diverged() const noexcept;

  // ---------------- the scene ----------------
  // Back to the initial state (first keyframe, else the model's reference pose); commands disabled.
  void reset() noexcept;
  // Joint positions in the robot's order (missing joints' are ignored); all velocities become zero.
  // Throws std::invalid_argument on a size mismatch.
  void set_joint_positions(std::span<const double> q);
  // Places the floating base; its velocity becomes zero.
  void set_base_pose(const Vector3& position, const Quaternion& orientation) noexcept;

  // ---------------- MuJoCo itself (tests, rendering) ----------------
  // -1 for a missing joint.
  [[nodiscard]] int joint_id(std::size_t joint) const noexcept { return joints_[joint].joint; }
  [[nodiscard]] int actuator_id(std::size_t joint) const noexcept { return joints_[joint].actuator; }
  [[nodiscard]] const mjModel_* model() const noexcept { return model_.get(); }
  [[nodiscard]] mjData_* data() noexcept { return data_.get(); }
  [[nodiscard]] const mjData_* data() const noexcept { return data_.get(); }

 private:
  struct ModelDeleter {
    void operator()(mjModel_* m) const noexcept;
  };
  struct DataDeleter {
    void operator()(mjData_* d) const noexcept;
  };
  struct JointSlot {
    int joint = -1;
    int actuator = -1;
    int qpos = 0;  // addresses in qpos / qvel
    int dof = 0;
    double ctrl_min = 0.0;
    double ctrl_max = 0.0;
  };

  // One IMU reading: a sensor's address in sensordata, or (-1) computed from the IMU frame.
  struct ImuChannels {
    int quat = -1, gyro = -1, acc = -1, pos = -1, vel = -1;
  };

  [[nodiscard]] mjModel_* load(const MjcfTranslation& source) const;
  void map_joints(std::span<const std::string_view> joint_names);
  void find_imu();
  void apply_motor_law() noexcept;
  void refresh_sensors() noexcept;
  [[nodiscard]] Vector3 sensor3(int adr) const noexcept;
  // The frame's velocity (6: angular, linear), in its own frame (local) or the world's.
  [[nodiscard]] Vector3 frame_velocity(bool angular, bool local) const noexcept;

  std::filesystem::path file_;
  std::unique_ptr<mjModel_, ModelDeleter> model_;
  std::unique_ptr<mjData_, DataDeleter> data_;
  std::unique_ptr<mjData_, DataDeleter> probe_;  // where sensors are evaluated (see imu())
  std::vector<JointSlot> joints_;
  std::vector<MotorTarget> targets_;
  int base_qpos_ = 0;
  int base_dof_ = 0;
  int base_body_ = 0;
  std::vector<std::size_t> missing_;
  ImuSource imu_source_;
  ImuChannels imu_;
  int imu_frame_type_ = 0;  // mjOBJ_SITE or mjOBJ_XBODY, for the computed readings
  int imu_frame_id_ = -1;
  std::vector<std::string> translations_;
  std::uint64_t steps_ = 0;
  bool sensors_current_ = false;
};

}  // namespace praxis::sim
