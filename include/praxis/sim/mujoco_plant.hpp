#pragma once
// MujocoPlant<Model>: a robot simulated by MuJoCo, a praxis::Plant (core/plant.hpp) like
// mock::MockRobot — a JointCommand in, a RobotState out, simulated time — so a fake robot's DDS
// bridge can drive either.
//
// The robot model (e.g. unitree::Go2) gives the joint order: joint i of every command and state is
// M::joints[i], found in the MJCF by name whatever order the file declares its bodies in. Commands
// follow the joint modes of core/joint_command.hpp; a joint with a non-finite target is not driven,
// as a motor driver would refuse it. Nothing here reads a clock: time advances by whole physics
// steps from `start`, so runs are reproducible bit for bit.
//
// Threading, as for MockRobot: write() may be called from one thread and read() from another
// (RobotController::run does this). The command passes through a lock-free latest-value mailbox and
// the physics advances only inside read() and step(); everything else belongs to the thread that
// reads.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/mailbox.hpp"
#include "praxis/core/plant.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/sim/mujoco_world.hpp"

namespace praxis::sim {

template <RobotModel M>
class MujocoPlant {
 public:
  using model = M;
  static constexpr std::size_t N = M::joint_count;
  using State = RobotState<N>;
  using Command = JointCommand<N>;
  static constexpr JointModeSet joint_modes{JointMode::position, JointMode::velocity, JointMode::torque,
                                            JointMode::disabled};

  explicit MujocoPlant(const std::filesystem::path& model_file, TimePoint start = TimePoint{})
      : world_(model_file, k_joint_names), start_(start),
        step_period_(std::chrono::round<Duration>(std::chrono::duration<double>(world_.timestep()))) {
    if (step_period_ <= Duration::zero()) {
      throw ModelError("MuJoCo model '" + model_file.string() + "': timestep " +
                       std::to_string(world_.timestep()) + " s is not a positive clock duration");
    }
  }

  // ---------------- the Backend interface (hardware/backend.hpp) ----------------

  // The command the motors follow from the next physics step on (the next read() or step()), until
  // the next write. `now` is only the caller's bookkeeping, as for a real robot: the command takes
  // effect where the simulation is when it next advances.
  void write(const Command& command, TimePoint /*now*/ = TimePoint{}) noexcept { commands_.publish(command); }

  // Advances to `now` and delivers the state there. False when no physics step happened since the
  // last read (the state would be the same).
  bool read(State& out, TimePoint now) noexcept {
    advance_to(now);
    if (world_.step_count() == last_read_step_ && sequence_ > 0) return false;
    last_read_step_ = world_.step_count();
    current_state(out);
    return true;
  }

  // The state at the current simulated time, without stepping.
  void current_state(State& out) noexcept {
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      out.q[i] = world_.q(j);
      out.dq[i] = world_.dq(j);
      out.tau[i] = world_.tau(j);
      out.health[j] = JointHealth{};
    }
    const ImuReading imu = world_.imu();
    out.imu.orientation = imu.orientation;
    out.imu.gyro = imu.gyro;
    out.imu.accelerometer = imu.accelerometer;
    out.update_derived();
    out.stamp = time();
    out.age = Duration::zero();
    out.sequence = ++sequence_;
  }

  // ---------------- time ----------------

  void step(std::size_t n = 1) noexcept {
    take_command();
    world_.step(n);
  }
  void advance_to(TimePoint now) noexcept {
    if (now <= time()) return;
    step(static_cast<std::size_t>((now - time()) / step_period_));
  }
  [[nodiscard]] TimePoint time() const noexcept {
    return start_ + step_period_ * static_cast<Duration::rep>(world_.step_count());
  }
  [[nodiscard]] Duration step_period() const noexcept { return step_period_; }

  // ---------------- the scene ----------------

  [[nodiscard]] BaseReading base() noexcept { return world_.base(); }
  // The robot's joints (indices into M::joints) the model lacks: the state reports them at 0 with
  // no velocity or torque, and commands to them are ignored.
  [[nodiscard]] std::span<const std::size_t> missing_joints() const noexcept { return world_.missing_joints(); }
  [[nodiscard]] bool diverged() const noexcept { return world_.diverged(); }
  void set_joint_positions(const std::array<double, N>& q) { world_.set_joint_positions(q); }
  void set_base_pose(const Vector3& position, const Quaternion& orientation = Quaternion::Identity()) noexcept {
    world_.set_base_pose(position, orientation);
  }
  // The initial state again; time restarts at `start`, the motors are off until the next write.
  void reset() noexcept {
    (void)commands_.fetch();  // a command written before the reset is dropped with the state
    world_.reset();
    last_read_step_ = 0;
  }

  [[nodiscard]] MujocoWorld& world() noexcept { return world_; }
  [[nodiscard]] const MujocoWorld& world() const noexcept { return world_; }

  // The robot's joint names in its wire order, as the world looks them up in the MJCF.
  static constexpr std::array<std::string_view, N> k_joint_names = [] {
    std::array<std::string_view, N> names{};
    for (std::size_t j = 0; j < N; ++j) names[j] = M::joints[j].name;
    return names;
  }();

 private:

  void take_command() noexcept {
    if (!commands_.fetch()) return;
    for (std::size_t j = 0; j < N; ++j) world_.set_target(j, to_target(commands_.value(), j));
  }

  static Command disabled_command() noexcept {
    Command c;
    c.mode.fill(JointMode::disabled);
    return c;
  }

  static MotorTarget to_target(const Command& c, std::size_t j) noexcept {
    const auto i = static_cast<Eigen::Index>(j);
    MotorTarget t;
    const bool finite = std::isfinite(c.q[i]) && std::isfinite(c.dq[i]) && std::isfinite(c.kp[i]) &&
                        std::isfinite(c.kd[i]) && std::isfinite(c.tau_ff[i]);
    if (!c.drives(j) || !finite) return t;
    t.enabled = true;
    t.tau = c.tau_ff[i];
    if (c.mode[j] == JointMode::torque) return t;
    t.dq = c.dq[i];
    t.kd = std::max(0.0, c.kd[i]);
    if (c.mode[j] == JointMode::velocity) return t;
    t.q = c.q[i];
    t.kp = std::max(0.0, c.kp[i]);
    return t;
  }

  MujocoWorld world_;
  LatestValue<Command> commands_{disabled_command()};
  TimePoint start_;
  Duration step_period_;
  std::uint64_t last_read_step_ = 0;
  std::uint64_t sequence_ = 0;
};

}  // namespace praxis::sim
