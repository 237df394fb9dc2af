// The motion nodes of motion/motions.hpp, each driven directly through cycle() with hand-made
// selections, states, statuses and constructed time points (no wall clock), on the Go2's 12
// joints: the fall detector's phases at and around its tilt, rest-rate and rest-time thresholds;
// the safety monitor's findings (no state, stale, invalid, tilted, faulted joint, link lost);
// damping (and its hold on a robot that balances itself, or held at start); stand with its pose,
// gains and the gain ramp's floor; fall protection; scripted motions and the script motion over a
// small script library built in code; the robot-run (mode) motion's safe exit after the robot's
// confirmation or a time-out; the robot's own walking; the visual kick; dispatching's cosine blend
// from the last actuated command to the target's start pose, its safe exit and a retarget mid-way.
// Every node works only while its motion is selected and forgets its progress once left; each
// motion_node<tag> names its node for joint-controlled robots and for robots with modes or walking.

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string_view>
#include <type_traits>

#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/script/library.hpp"

namespace motions_test {

namespace m = praxis::motion;
using m::FallPhase;
using m::MotionType;
using praxis::JointMode;
using namespace std::chrono_literals;

namespace {

using Go2 = praxis::unitree::Go2;
using G1 = praxis::unitree::G1;
constexpr std::size_t N = Go2::joint_count;
using Cmd = praxis::JointCommand<N>;
using State = praxis::RobotState<N>;
using Vec = praxis::JointVector<N>;
using Pose = m::Pose<N>;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();

Eigen::Index ix(std::size_t j) { return static_cast<Eigen::Index>(j); }

// Time points well away from the clock's epoch (TimePoint{} means "unset" to a script request).
const praxis::TimePoint t0 = praxis::TimePoint{} + 100s;
praxis::TimePoint at(std::chrono::milliseconds d) { return t0 + d; }

Vec vec(const Pose& p) {
  Vec v;
  for (std::size_t j = 0; j < N; ++j) v[ix(j)] = p[j];
  return v;
}

// A pose unlike the model's stand and rest poses, so each source of a target is told apart.
constexpr Pose k_other{0.2, 0.9, -1.6, -0.2, 0.9, -1.6, 0.2, 1.0, -1.7, -0.2, 1.0, -1.7};

State state_at(const Pose& q) {
  State s;
  s.q = vec(q);
  return s;
}

m::MotionSelection selected(MotionType t, bool changed = false) {
  m::MotionSelection sel;
  sel.current = t;
  sel.changed = changed;
  return sel;
}

m::MotionSelection dispatching_to(MotionType target, bool changed = false) {
  m::MotionSelection sel = selected(MotionType::dispatching, changed);
  sel.dispatching_to = target;
  return sel;
}

praxis::CycleInfo cycle_at(praxis::TimePoint now, bool have_state = true) {
  praxis::CycleInfo info;
  info.now = now;
  info.have_state = have_state;
  return info;
}

m::SafetyStatus state_seen() {
  m::SafetyStatus s;
  s.no_state = false;
  return s;
}

// A command no node writes: what a node that leaves its output alone leaves behind.
Cmd marker() {
  Cmd c;
  c.q.setConstant(7.0);
  c.dq.setConstant(7.0);
  c.kp.setConstant(7.0);
  c.kd.setConstant(7.0);
  c.tau_ff.setConstant(7.0);
  c.mode.fill(JointMode::velocity);
  return c;
}
bool is_marker(const Cmd& c) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.mode[j] != JointMode::velocity) return false;
  }
  return (c.q.array() == 7.0).all() && (c.dq.array() == 7.0).all() && (c.kp.array() == 7.0).all() &&
         (c.kd.array() == 7.0).all() && (c.tau_ff.array() == 7.0).all();
}

// A stiff command in force: position mode, the given pose and gains on every joint.
Cmd stiff(const Pose& q, double kp, double kd) {
  Cmd c;
  praxis::set_position_command(c, vec(q), kp, kd);
  return c;
}

bool no_velocity_or_torque(const Cmd& c) { return c.dq.isZero(0.0) && c.tau_ff.isZero(0.0); }
bool all_modes(const Cmd& c, JointMode mode) {
  for (const auto md : c.mode) {
    if (md != mode) return false;
  }
  return true;
}

// The gravity vector in the body frame for a body tilted by `angle` about its x axis.
praxis::Vector3 tilted_by(double angle) { return {0.0, std::sin(angle), -std::cos(angle)}; }

// A small script library for the Go2. "rise": FR_hip (joint 0) to 0.5 in 1 s (kp 30, kd 1.5),
// then FR_thigh (joint 1) to 1.0 in the next 1 s (kp 20, kd 1); no other joint.
using Script = praxis::script::Script<N>;
using Frame = praxis::script::Frame<N>;
Frame frame(praxis::Duration d) {
  Frame f;
  f.duration = d;
  f.position.fill(praxis::script::k_unset);
  f.kp.fill(0.0);
  f.kd.fill(0.0);
  return f;
}
Script rise_script() {
  Script s;
  s.name = "rise";
  Frame f0 = frame(1000ms);
  f0.position[0] = 0.5;
  f0.kp[0] = 30.0;
  f0.kd[0] = 1.5;
  f0.kp[1] = 20.0;  // back-filled: joint 1 is not targeted yet
  f0.kd[1] = 1.0;
  Frame f1 = f0;
  f1.duration = 1000ms;
  f1.position[1] = 1.0;
  s.frames = {f0, f1};
  s.joints.set(0);
  s.joints.set(1);
  return s;
}
// "calf": FR_calf (joint 2) to -1.0 in 0.5 s (kp 40, kd 2).
Script calf_script() {
  Script s;
  s.name = "calf";
  Frame f = frame(500ms);
  f.position[2] = -1.0;
  f.kp[2] = 40.0;
  f.kd[2] = 2.0;
  s.frames = {f};
  s.joints.set(2);
  return s;
}
praxis::script::ScriptLibrary<Go2> library() {
  praxis::script::ScriptLibrary<Go2> lib;
  lib.add(rise_script());
  lib.add(calf_script());
  return lib;
}

m::MotionCommand script_by_name(std::string_view name, std::uint32_t id) {
  m::command::Script c;
  c.request.names[0] = name;
  c.request.count = 1;
  c.id = id;
  return c;
}

// "rise" started at `start` from pose `from`: joint 0's and joint 1's targets at `t` after start.
double rise_q0(const Pose& from, double t) { return t >= 1.0 ? 0.5 : from[0] + t * (0.5 - from[0]); }
double rise_q1(const Pose& from, double t) {
  return t <= 1.0 ? from[1] : t >= 2.0 ? 1.0 : from[1] + (t - 1.0) * (1.0 - from[1]);
}

// Joints a script does not use hold `hold` with the model's gains.
void check_held_by_model(const Cmd& cmd, const Pose& hold, std::size_t first_joint) {
  for (std::size_t j = first_joint; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == hold[j]);
    CHECK(cmd.kp[ix(j)] == Go2::default_kp[j]);
    CHECK(cmd.kd[ix(j)] == Go2::default_kd[j]);
    CHECK(cmd.mode[j] == JointMode::position);
  }
}

constexpr praxis::Capabilities k_joints_only{};
constexpr praxis::Capabilities k_modes{.modes = true};
constexpr praxis::Capabilities k_walks{.locomotion = true};
template <class Tag, class Model, praxis::Capabilities C>
using node_of = typename m::motion_node<Tag>::template node<Model, C>;

}  // namespace

// ---------------------------------------------------------------------------------------------
// FallDetector

TEST_CASE("motions: FallDetector: upright below the tilt threshold and falling above it", "[motion][motions]") {
  m::FallDetector<N> detector;  // falling_tilt 1.0 rad
  State s;
  m::FallState out;
  out.phase = FallPhase::fallen;

  detector.cycle(s, cycle_at(at(0ms)), out);  // level
  CHECK(out.phase == FallPhase::upright);
  CHECK(out.tilt == Approx(0.0).margin(1e-12));

  s.projected_gravity = tilted_by(0.99);
  s.imu.gyro = {0.0, 2.0, 0.0};
  detector.cycle(s, cycle_at(at(2ms)), out);
  CHECK(out.phase == FallPhase::upright);
  CHECK(out.tilt == Approx(0.99));
  CHECK(out.angular_speed == Approx(2.0));

  s.projected_gravity = tilted_by(1.01);
  detector.cycle(s, cycle_at(at(4ms)), out);
  CHECK(out.phase == FallPhase::falling);
  CHECK(out.falling());
  CHECK(out.tilt == Approx(1.01));

  // Upside down: the largest tilt there is.
  s.projected_gravity = {0.0, 0.0, 1.0};
  detector.cycle(s, cycle_at(at(6ms)), out);
  CHECK(out.phase == FallPhase::falling);
  CHECK(out.tilt == Approx(std::numbers::pi));
}

TEST_CASE("motions: FallDetector: a tilt exactly at the threshold counts as upright", "[motion][motions]") {
  m::FallDetector<N> detector;
  detector.options.falling_tilt = std::numbers::pi / 2.0;
  State s;
  s.imu.gyro = {1.0, 0.0, 0.0};
  m::FallState out;

  s.projected_gravity = {1.0, 0.0, 0.0};  // on its side: exactly 90 degrees
  detector.cycle(s, cycle_at(at(0ms)), out);
  CHECK(out.tilt == Approx(std::numbers::pi / 2.0));
  CHECK(out.phase == FallPhase::upright);

  s.projected_gravity = {1.0, 0.0, 1e-6};  // a hair past it
  detector.cycle(s, cycle_at(at(2ms)), out);
  CHECK(out.tilt > std::numbers::pi / 2.0);
  CHECK(out.phase == FallPhase::falling);
}

TEST_CASE("motions: FallDetector: fallen once still for the rest time past the tilt", "[motion][motions]") {
  m::FallDetector<N> detector;  // rest_rate 0.3 rad/s, rest_time 300 ms
  State s;
  s.projected_gravity = tilted_by(1.5);
  s.imu.gyro = {0.0, 0.1, 0.0};  // still
  m::FallState out;

  detector.cycle(s, cycle_at(at(0ms)), out);  // the rest begins
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(s, cycle_at(at(299ms)), out);
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(s, cycle_at(at(300ms)), out);
  CHECK(out.phase == FallPhase::fallen);
  CHECK(out.fallen());
  CHECK_FALSE(out.falling());
  detector.cycle(s, cycle_at(at(5000ms)), out);
  CHECK(out.phase == FallPhase::fallen);

  // Moving again: falling, and the rest starts over once still.
  s.imu.gyro = {0.0, 0.0, 1.0};
  detector.cycle(s, cycle_at(at(5002ms)), out);
  CHECK(out.phase == FallPhase::falling);
  s.imu.gyro = {0.0, 0.0, 0.0};
  detector.cycle(s, cycle_at(at(5004ms)), out);
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(s, cycle_at(at(5303ms)), out);
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(s, cycle_at(at(5304ms)), out);
  CHECK(out.phase == FallPhase::fallen);
}

TEST_CASE("motions: FallDetector: an angular speed at the rest rate is moving", "[motion][motions]") {
  m::FallDetector<N> detector;
  detector.options.rest_rate = 0.5;
  detector.options.rest_time = 100ms;
  State s;
  s.projected_gravity = tilted_by(1.5);
  s.imu.gyro = {0.0, 0.5, 0.0};  // |gyro| = 0.5 exactly
  m::FallState out;
  for (int k = 0; k <= 10; ++k) {
    detector.cycle(s, cycle_at(at(std::chrono::milliseconds(50 * k))), out);
    CHECK(out.phase == FallPhase::falling);
  }
  CHECK(out.angular_speed == Approx(0.5));
  s.imu.gyro = {0.0, 0.49, 0.0};  // just below: still
  detector.cycle(s, cycle_at(at(600ms)), out);
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(s, cycle_at(at(700ms)), out);
  CHECK(out.phase == FallPhase::fallen);
}

TEST_CASE("motions: FallDetector: upright again or reset forgets the rest", "[motion][motions]") {
  m::FallDetector<N> detector;  // rest_time 300 ms
  State tilted;
  tilted.projected_gravity = tilted_by(1.5);
  State level;
  m::FallState out;

  detector.cycle(tilted, cycle_at(at(0ms)), out);
  detector.cycle(level, cycle_at(at(200ms)), out);
  CHECK(out.phase == FallPhase::upright);
  detector.cycle(tilted, cycle_at(at(250ms)), out);  // the rest begins again here
  detector.cycle(tilted, cycle_at(at(400ms)), out);
  CHECK(out.phase == FallPhase::falling);  // 150 ms, not 400
  detector.cycle(tilted, cycle_at(at(550ms)), out);
  CHECK(out.phase == FallPhase::fallen);

  detector.reset();
  detector.cycle(tilted, cycle_at(at(600ms)), out);  // a new rest from here
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(tilted, cycle_at(at(899ms)), out);
  CHECK(out.phase == FallPhase::falling);
  detector.cycle(tilted, cycle_at(at(900ms)), out);
  CHECK(out.phase == FallPhase::fallen);
}

TEST_CASE("motions: FallDetector: a non-finite gravity vector counts as upright", "[motion][motions]") {
  m::FallDetector<N> detector;
  State s;
  s.projected_gravity = {0.0, 0.0, k_nan};
  m::FallState out;
  out.phase = FallPhase::falling;
  detector.cycle(s, cycle_at(at(0ms)), out);
  CHECK(out.phase == FallPhase::upright);
  CHECK(std::isnan(out.tilt));
  CHECK(m::FallDetector<N>::name == "fall_detector");
}

// ---------------------------------------------------------------------------------------------
// SafetyMonitor

TEST_CASE("motions: SafetyMonitor: before the first state only no_state is reported", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;
  monitor.options.use_link_status = true;
  State s;  // faulted, non-finite, tilted and old: none of it counts before a state arrived
  s.health[3].faults = praxis::k_joint_offline;
  s.q[0] = k_nan;
  s.projected_gravity = {0.0, 0.0, 1.0};
  praxis::RobotStatus status;  // link down
  m::SafetyStatus out;
  out.no_state = false;
  out.stale = out.invalid = out.tilted = out.joint_fault = out.link_lost = true;
  monitor.cycle(s, cycle_at(at(10s), false), status, out);
  CHECK(out.no_state);
  CHECK_FALSE(out.stale);
  CHECK_FALSE(out.invalid);
  CHECK_FALSE(out.tilted);
  CHECK_FALSE(out.joint_fault);
  CHECK(out.faulted_joint == N);
  CHECK_FALSE(out.link_lost);
  CHECK(out.age == praxis::Duration::zero());
  CHECK(out.must_damp());
}

TEST_CASE("motions: SafetyMonitor: a fresh healthy state is fine and its age is measured", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;
  State s;
  s.stamp = at(0ms);
  m::SafetyStatus out;
  monitor.cycle(s, cycle_at(at(40ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.no_state);
  CHECK_FALSE(out.stale);
  CHECK_FALSE(out.invalid);
  CHECK_FALSE(out.tilted);
  CHECK_FALSE(out.joint_fault);
  CHECK(out.faulted_joint == N);
  CHECK_FALSE(out.link_lost);  // no link status used: a disconnected default status does not count
  CHECK(out.age == 40ms);
  CHECK_FALSE(out.must_damp());
}

TEST_CASE("motions: SafetyMonitor: stale past the timeout and not at it", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;  // 100 ms
  State s;
  s.stamp = at(0ms);
  m::SafetyStatus out;
  monitor.cycle(s, cycle_at(at(100ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.stale);
  monitor.cycle(s, cycle_at(at(101ms)), praxis::RobotStatus{}, out);
  CHECK(out.stale);
  CHECK(out.age == 101ms);
  CHECK(out.must_damp());

  monitor.options.stale_timeout = 500ms;
  monitor.cycle(s, cycle_at(at(400ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.stale);
  monitor.cycle(s, cycle_at(at(501ms)), praxis::RobotStatus{}, out);
  CHECK(out.stale);
}

TEST_CASE("motions: SafetyMonitor: NaN or infinity in the state is invalid and never tilted", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;
  m::SafetyStatus out;
  {
    State s;
    s.stamp = at(0ms);
    s.q[4] = k_nan;
    s.projected_gravity = {0.0, 0.0, 1.0};  // upside down, but the state cannot be trusted
    monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
    CHECK(out.invalid);
    CHECK_FALSE(out.tilted);
    CHECK(out.must_damp());
  }
  {
    State s;
    s.stamp = at(0ms);
    s.imu.gyro.y() = k_inf;
    monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
    CHECK(out.invalid);
  }
  {
    State s;
    s.stamp = at(0ms);
    s.tau[11] = -k_inf;
    monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
    CHECK(out.invalid);
  }
  State fine;
  fine.stamp = at(0ms);
  monitor.cycle(fine, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.invalid);
}

TEST_CASE("motions: SafetyMonitor: tilted when gravity's z is above the threshold", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;  // threshold 0: past 90 degrees
  State s;
  s.stamp = at(0ms);
  m::SafetyStatus out;
  s.projected_gravity = {1.0, 0.0, 0.0};
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.tilted);
  s.projected_gravity = {0.99, 0.0, 0.1};
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK(out.tilted);
  CHECK_FALSE(out.must_damp());  // tilt stops only the user's controller (the selector's rule)

  monitor.options.tilt_threshold = -0.5;  // 60 degrees
  s.projected_gravity = tilted_by(std::acos(0.6));  // z = -0.6: within
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.tilted);
  s.projected_gravity = tilted_by(std::acos(0.4));  // z = -0.4: past it
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK(out.tilted);
}

TEST_CASE("motions: SafetyMonitor: the first faulted joint is reported", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;
  State s;
  s.stamp = at(0ms);
  s.health[8].faults = praxis::k_joint_offline;
  s.health[5].faults = praxis::k_joint_overheated;
  m::SafetyStatus out;
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK(out.joint_fault);
  CHECK(out.faulted_joint == 5);
  CHECK_FALSE(out.invalid);

  s.health[5].faults = praxis::k_joint_ok;
  s.health[5].error_code = 17;  // a code alone is no fault
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK(out.faulted_joint == 8);

  s.health[8].faults = praxis::k_joint_ok;
  monitor.cycle(s, cycle_at(at(1ms)), praxis::RobotStatus{}, out);
  CHECK_FALSE(out.joint_fault);
  CHECK(out.faulted_joint == N);
}

TEST_CASE("motions: SafetyMonitor: link lost only where the link status is used", "[motion][motions]") {
  m::SafetyMonitor<N> monitor;
  State s;
  s.stamp = at(0ms);
  praxis::RobotStatus status;
  status.link.connected = false;
  m::SafetyStatus out;
  monitor.cycle(s, cycle_at(at(1ms)), status, out);
  CHECK_FALSE(out.link_lost);

  monitor.options.use_link_status = true;
  monitor.cycle(s, cycle_at(at(1ms)), status, out);
  CHECK(out.link_lost);
  CHECK(out.must_damp());
  status.link.connected = true;
  monitor.cycle(s, cycle_at(at(1ms)), status, out);
  CHECK_FALSE(out.link_lost);
  CHECK(m::SafetyMonitor<N>::name == "safety_monitor");
}

// ---------------------------------------------------------------------------------------------
// DampingMotion

TEST_CASE("motions: DampingMotion: no stiffness and the damping gain where the joints are", "[motion][motions]") {
  m::DampingMotion<Go2> damping;  // joint damping, kd 2
  State s = state_at(Go2::rest_pose);
  s.q[7] = k_nan;
  const Cmd in_force = stiff(Go2::stand_pose, 60.0, 5.0);
  Cmd cmd = marker();
  bool safe = false;
  damping.cycle(selected(MotionType::damping, true), s, state_seen(), in_force, cmd, safe);
  CHECK(safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == (j == 7 ? 0.0 : Go2::rest_pose[j]));  // a NaN measurement is no target
    CHECK(cmd.kp[ix(j)] == 0.0);
    CHECK(cmd.kd[ix(j)] == 2.0);
    CHECK(cmd.mode[j] == JointMode::position);
  }
  CHECK(no_velocity_or_torque(cmd));

  // It follows the joints: the next cycle's targets are where they are then.
  damping.kd = 3.5;
  s = state_at(k_other);
  damping.cycle(selected(MotionType::damping), s, state_seen(), in_force, cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == k_other[j]);
    CHECK(cmd.kp[ix(j)] == 0.0);
    CHECK(cmd.kd[ix(j)] == 3.5);
  }
  CHECK(m::DampingMotion<Go2>::name == "damping");
}

TEST_CASE("motions: DampingMotion: not selected it leaves its output alone and is safe", "[motion][motions]") {
  m::DampingMotion<Go2> damping;
  Cmd cmd = marker();
  bool safe = false;
  damping.cycle(selected(MotionType::stand), state_at(Go2::rest_pose), state_seen(), Cmd{}, cmd, safe);
  CHECK(safe);
  CHECK(is_marker(cmd));
}

TEST_CASE("motions: DampingMotion: on a robot that balances itself it holds the pose with the gains in force",
          "[motion][motions]") {
  m::DampingMotion<Go2> damping;
  damping.style = praxis::SafeState::hand_back;
  damping.hold_kp.fill(45.0);
  damping.hold_kd.fill(4.0);
  State s = state_at(Go2::rest_pose);
  s.q[4] = k_nan;  // never measured: cannot be held
  Cmd in_force = stiff(Go2::stand_pose, 80.0, 3.0);
  in_force.mode[1] = JointMode::none;      // left to the robot: stays with it
  in_force.kp[ix(2)] = 0.0;                // no stiffness in force: the hold's gains
  in_force.mode[3] = JointMode::velocity;  // no stiffness in force either
  m::SafetyStatus safety = state_seen();
  Cmd cmd = marker();
  bool safe = false;
  damping.cycle(selected(MotionType::damping, true), s, safety, in_force, cmd, safe);
  CHECK(safe);
  const auto check_hold = [&](const Pose& where) {
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << j);
      if (j == 1 || j == 4) {
        CHECK(cmd.mode[j] == JointMode::none);
        continue;
      }
      CHECK(cmd.mode[j] == JointMode::position);
      CHECK(cmd.q[ix(j)] == where[j]);
      CHECK(cmd.kp[ix(j)] == (j == 2 || j == 3 ? 45.0 : 80.0));
      CHECK(cmd.kd[ix(j)] == (j == 2 || j == 3 ? 4.0 : 3.0));
      CHECK(cmd.dq[ix(j)] == 0.0);
      CHECK(cmd.tau_ff[ix(j)] == 0.0);
    }
  };
  check_hold(Go2::rest_pose);

  // The pose measured on entry is held while the joints move (never kp 0).
  State moved = state_at(k_other);
  damping.cycle(selected(MotionType::damping), moved, safety, stiff(k_other, 1.0, 1.0), cmd, safe);
  check_hold(Go2::rest_pose);

  // Left and entered again: the hold is taken anew, where the joints are then.
  damping.cycle(selected(MotionType::stand, true), moved, safety, in_force, cmd, safe);
  moved.q[4] = k_nan;
  damping.cycle(selected(MotionType::damping, true), moved, safety, in_force, cmd, safe);
  check_hold(k_other);
}

TEST_CASE("motions: DampingMotion: the hold waits for a state and then covers every joint", "[motion][motions]") {
  m::DampingMotion<Go2> damping;
  damping.style = praxis::SafeState::hand_back;
  Cmd nothing_sent;  // what reached the motors while nothing was commanded
  nothing_sent.mode.fill(JointMode::none);
  Cmd cmd = marker();
  bool safe = false;
  damping.cycle(selected(MotionType::damping, true), State{}, m::SafetyStatus{}, nothing_sent, cmd, safe);
  CHECK(safe);
  CHECK_FALSE(cmd.covers_any());

  m::SafetyStatus invalid = state_seen();
  invalid.invalid = true;
  damping.cycle(selected(MotionType::damping), State{}, invalid, nothing_sent, cmd, safe);
  CHECK_FALSE(cmd.covers_any());

  // The state arrives: the joints the motion itself left uncovered are held, with the model's gains.
  damping.cycle(selected(MotionType::damping), state_at(Go2::rest_pose), state_seen(), nothing_sent, cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.mode[j] == JointMode::position);
    CHECK(cmd.q[ix(j)] == Go2::rest_pose[j]);
    CHECK(cmd.kp[ix(j)] == Go2::default_kp[j]);
    CHECK(cmd.kd[ix(j)] == Go2::default_kd[j]);
  }
}

TEST_CASE("motions: DampingMotion: hold_at_start holds until the selection first leaves damping",
          "[motion][motions]") {
  m::DampingMotion<Go2> damping;  // joint damping after the start
  damping.hold_at_start = true;
  Cmd cmd = marker();
  bool safe = false;
  damping.cycle(selected(MotionType::damping), state_at(Go2::stand_pose), state_seen(), stiff(Go2::stand_pose, 80, 3),
                cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == Go2::stand_pose[j]);
    CHECK(cmd.kp[ix(j)] == 80.0);
    CHECK(cmd.kd[ix(j)] == 3.0);
  }
  damping.cycle(selected(MotionType::damping), state_at(k_other), state_seen(), stiff(k_other, 1, 1), cmd, safe);
  CHECK(cmd.q[0] == Go2::stand_pose[0]);
  CHECK(cmd.kp[0] == 80.0);

  // Leaving damping once ends it: damping after that is damping.
  damping.cycle(selected(MotionType::stand, true), state_at(k_other), state_seen(), Cmd{}, cmd, safe);
  damping.cycle(selected(MotionType::damping, true), state_at(k_other), state_seen(), stiff(k_other, 80, 3), cmd,
                safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == k_other[j]);
    CHECK(cmd.kp[ix(j)] == 0.0);
    CHECK(cmd.kd[ix(j)] == 2.0);
  }

  // A reset starts over: held again.
  damping.reset();
  damping.cycle(selected(MotionType::damping), state_at(Go2::rest_pose), state_seen(), stiff(k_other, 70, 4), cmd,
                safe);
  CHECK(cmd.q[0] == Go2::rest_pose[0]);
  CHECK(cmd.kp[0] == 70.0);
  CHECK(cmd.kd[0] == 4.0);
}

// ---------------------------------------------------------------------------------------------
// StandMotion

TEST_CASE("motions: StandMotion: the stand pose with the stand gains", "[motion][motions]") {
  m::StandMotion<Go2> stand;
  Cmd cmd = marker();
  bool safe = false;
  stand.cycle(selected(MotionType::stand, true), Cmd{}, cmd, safe);
  CHECK(safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == Go2::stand_pose[j]);
    CHECK(cmd.kp[ix(j)] == Go2::default_kp[j]);
    CHECK(cmd.kd[ix(j)] == Go2::default_kd[j]);
    CHECK(cmd.mode[j] == JointMode::position);
  }
  CHECK(no_velocity_or_torque(cmd));
  CHECK(stand.start_pose() == Go2::stand_pose);
  CHECK(m::StandMotion<Go2>::name == "stand");
}

TEST_CASE("motions: StandMotion: a configured pose and gains", "[motion][motions]") {
  m::StandMotion<Go2> stand;
  stand.pose = k_other;
  stand.kp.fill(33.0);
  stand.kd.fill(2.5);
  stand.kp[6] = 90.0;
  Cmd cmd = marker();
  bool safe = false;
  stand.cycle(selected(MotionType::stand, true), Cmd{}, cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == k_other[j]);
    CHECK(cmd.kp[ix(j)] == (j == 6 ? 90.0 : 33.0));
    CHECK(cmd.kd[ix(j)] == 2.5);
  }
  CHECK(stand.start_pose() == k_other);
}

TEST_CASE("motions: StandMotion: gain_ratio scales both gains from damping", "[motion][motions]") {
  m::StandMotion<Go2> stand;  // kp 60, kd 5
  const Cmd damped = stiff(Go2::rest_pose, 0.0, 2.0);  // damping's command: kp 0, kd 2
  Cmd cmd;
  bool safe = false;
  auto sel = selected(MotionType::stand, true);
  sel.gain_ratio = 0.1;
  stand.cycle(sel, damped, cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.kp[ix(j)] == Approx(6.0));
    CHECK(cmd.kd[ix(j)] == Approx(0.5));  // damping's kd 2 is no floor
    CHECK(cmd.q[ix(j)] == Go2::stand_pose[j]);
  }
  sel.changed = false;
  sel.gain_ratio = 0.5;
  stand.cycle(sel, cmd, cmd, safe);
  CHECK(cmd.kp[0] == Approx(30.0));
  CHECK(cmd.kd[0] == Approx(2.5));
  sel.gain_ratio = 1.0;
  stand.cycle(sel, cmd, cmd, safe);
  CHECK(cmd.kp[0] == Approx(60.0));
  CHECK(cmd.kd[0] == Approx(5.0));
}

TEST_CASE("motions: StandMotion: the ramp never drops below the stiffness in force on entry", "[motion][motions]") {
  m::StandMotion<Go2> stand;  // kp 60, kd 5
  Cmd held = stiff(Go2::stand_pose, 40.0, 4.0);
  held.kp[ix(1)] = 100.0;               // above the stand gains: capped at them
  held.kd[ix(1)] = 9.0;
  held.mode[2] = JointMode::none;       // not in force: no floor
  held.kp[ix(3)] = k_nan;               // not a stiffness: no floor
  held.mode[4] = JointMode::disabled;   // off: no floor
  auto sel = selected(MotionType::stand, true);
  sel.gain_ratio = 0.1;
  Cmd cmd;
  bool safe = false;
  stand.cycle(sel, held, cmd, safe);
  const auto check_floors = [&] {
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << j);
      if (j == 1) {
        CHECK(cmd.kp[ix(j)] == Approx(60.0));
        CHECK(cmd.kd[ix(j)] == Approx(5.0));
      } else if (j >= 2 && j <= 4) {
        CHECK(cmd.kp[ix(j)] == Approx(6.0));
        CHECK(cmd.kd[ix(j)] == Approx(0.5));
      } else {
        CHECK(cmd.kp[ix(j)] == Approx(40.0));
        CHECK(cmd.kd[ix(j)] == Approx(4.0));
      }
    }
  };
  check_floors();

  // The floor is taken on entry only: what is in force later does not move it.
  sel.changed = false;
  stand.cycle(sel, stiff(Go2::stand_pose, 0.0, 2.0), cmd, safe);
  check_floors();

  // Above the floor the ramp rules.
  sel.gain_ratio = 0.9;
  stand.cycle(sel, cmd, cmd, safe);
  CHECK(cmd.kp[0] == Approx(54.0));
  CHECK(cmd.kd[0] == Approx(4.5));

  // Entered again from damping: the old floor is gone.
  sel.changed = true;
  sel.gain_ratio = 0.1;
  stand.cycle(selected(MotionType::damping, true), cmd, cmd, safe);
  stand.cycle(sel, stiff(Go2::rest_pose, 0.0, 2.0), cmd, safe);
  CHECK(cmd.kp[0] == Approx(6.0));
  CHECK(cmd.kd[0] == Approx(0.5));

  // reset() forgets the floor too.
  stand.cycle(sel, held, cmd, safe);
  CHECK(cmd.kp[0] == Approx(40.0));
  stand.reset();
  sel.changed = false;
  stand.cycle(sel, held, cmd, safe);
  CHECK(cmd.kp[0] == Approx(6.0));
}

TEST_CASE("motions: StandMotion: not selected it leaves its output alone and is safe", "[motion][motions]") {
  m::StandMotion<Go2> stand;
  Cmd cmd = marker();
  bool safe = false;
  stand.cycle(selected(MotionType::walk, true), Cmd{}, cmd, safe);
  CHECK(safe);
  CHECK(is_marker(cmd));
}

// ---------------------------------------------------------------------------------------------
// FallProtectionMotion

TEST_CASE("motions: FallProtectionMotion: soft while falling and safe once no longer falling",
          "[motion][motions]") {
  m::FallProtectionMotion<Go2> protection;  // kd 1
  const State s = state_at(k_other);
  m::FallState fall;
  fall.phase = FallPhase::falling;
  Cmd cmd = marker();
  bool safe = true;
  protection.cycle(selected(MotionType::fall_protection, true), s, fall, cmd, safe);
  CHECK_FALSE(safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == k_other[j]);
    CHECK(cmd.kp[ix(j)] == 0.0);
    CHECK(cmd.kd[ix(j)] == 1.0);
    CHECK(cmd.mode[j] == JointMode::position);
  }
  CHECK(no_velocity_or_torque(cmd));

  fall.phase = FallPhase::fallen;
  protection.kd = 0.5;
  protection.cycle(selected(MotionType::fall_protection), state_at(Go2::rest_pose), fall, cmd, safe);
  CHECK(safe);
  CHECK(cmd.q[0] == Go2::rest_pose[0]);
  CHECK(cmd.kd[0] == 0.5);
  CHECK(cmd.kp[0] == 0.0);

  fall.phase = FallPhase::upright;
  safe = false;
  protection.cycle(selected(MotionType::fall_protection), s, fall, cmd, safe);
  CHECK(safe);

  Cmd untouched = marker();
  protection.cycle(selected(MotionType::stand), s, fall, untouched, safe);
  CHECK(is_marker(untouched));
  CHECK(m::FallProtectionMotion<Go2>::name == "fall_protection");
}

// ---------------------------------------------------------------------------------------------
// ScriptedMotion

TEST_CASE("motions: ScriptedMotion: plays its script from where the joints are on entry", "[motion][motions]") {
  const auto lib = library();
  m::ScriptedMotion<Go2, MotionType::stand_up> stand_up;
  stand_up.library = &lib;
  stand_up.script_name = "rise";
  const auto sel = selected(MotionType::stand_up, true);
  const Pose from = Go2::rest_pose;
  Cmd cmd = marker();
  bool safe = true;

  stand_up.cycle(sel, state_at(from), cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(from[0]));
  CHECK(cmd.kp[0] == 30.0);
  CHECK(cmd.kd[0] == 1.5);
  CHECK(cmd.q[1] == Approx(from[1]));
  CHECK(cmd.kp[1] == 20.0);
  CHECK(cmd.kd[1] == 1.0);
  check_held_by_model(cmd, from, 2);
  CHECK(no_velocity_or_torque(cmd));

  // The measured joints move; the joints the script does not use still hold the entry pose.
  const auto later = selected(MotionType::stand_up);
  stand_up.cycle(later, state_at(k_other), cycle_at(at(500ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(rise_q0(from, 0.5)));
  CHECK(cmd.q[1] == Approx(from[1]));
  check_held_by_model(cmd, from, 2);

  stand_up.cycle(later, state_at(k_other), cycle_at(at(1500ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(0.5));
  CHECK(cmd.q[1] == Approx(rise_q1(from, 1.5)));

  stand_up.cycle(later, state_at(k_other), cycle_at(at(1999ms)), cmd, safe);
  CHECK_FALSE(safe);
  stand_up.cycle(later, state_at(k_other), cycle_at(at(2000ms)), cmd, safe);
  CHECK(safe);
  CHECK(cmd.q[1] == Approx(1.0));
  stand_up.cycle(later, state_at(k_other), cycle_at(at(5000ms)), cmd, safe);
  CHECK(safe);
  CHECK(cmd.q[0] == Approx(0.5));
  CHECK(cmd.q[1] == Approx(1.0));
  check_held_by_model(cmd, from, 2);
  CHECK(m::ScriptedMotion<Go2, MotionType::stand_up>::name == "stand_up");
  CHECK(m::ScriptedMotion<Go2, MotionType::prepare>::name == "prepare");
}

TEST_CASE("motions: ScriptedMotion: a duration scales the whole script", "[motion][motions]") {
  const auto lib = library();
  m::ScriptedMotion<Go2, MotionType::prepare> prepare;
  prepare.library = &lib;
  prepare.script_name = "rise";
  prepare.duration = 1000ms;  // half the 2 s written
  const Pose from = Go2::rest_pose;
  Cmd cmd;
  bool safe = true;
  prepare.cycle(selected(MotionType::prepare, true), state_at(from), cycle_at(at(0ms)), cmd, safe);
  prepare.cycle(selected(MotionType::prepare), state_at(from), cycle_at(at(250ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(from, 0.5)));
  prepare.cycle(selected(MotionType::prepare), state_at(from), cycle_at(at(750ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[1] == Approx(rise_q1(from, 1.5)));
  prepare.cycle(selected(MotionType::prepare), state_at(from), cycle_at(at(1000ms)), cmd, safe);
  CHECK(safe);
}

TEST_CASE("motions: ScriptedMotion: left it forgets and entered again it starts over", "[motion][motions]") {
  const auto lib = library();
  m::ScriptedMotion<Go2, MotionType::prepare> prepare;
  prepare.library = &lib;
  prepare.script_name = "rise";
  Cmd cmd;
  bool safe = false;
  prepare.cycle(selected(MotionType::prepare, true), state_at(Go2::rest_pose), cycle_at(at(0ms)), cmd, safe);
  prepare.cycle(selected(MotionType::prepare), state_at(Go2::rest_pose), cycle_at(at(900ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(Go2::rest_pose, 0.9)));

  Cmd untouched = marker();
  safe = false;
  prepare.cycle(selected(MotionType::damping, true), state_at(Go2::rest_pose), cycle_at(at(1000ms)), untouched, safe);
  CHECK(safe);
  CHECK(is_marker(untouched));

  // Back at 10 s, from another pose: the script starts again from there.
  prepare.cycle(selected(MotionType::prepare, true), state_at(k_other), cycle_at(at(10000ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(k_other[0]));
  check_held_by_model(cmd, k_other, 2);
  prepare.cycle(selected(MotionType::prepare), state_at(k_other), cycle_at(at(10500ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(k_other, 0.5)));
}

TEST_CASE("motions: ScriptedMotion: without its script it holds the entry pose and may be left",
          "[motion][motions]") {
  const auto lib = library();
  m::ScriptedMotion<Go2, MotionType::stand_up> missing;
  missing.library = &lib;
  missing.script_name = "no such script";
  m::ScriptedMotion<Go2, MotionType::stand_up> no_library;  // library null
  for (auto* node : {&missing, &no_library}) {
    Cmd cmd = marker();
    bool safe = false;
    node->cycle(selected(MotionType::stand_up, true), state_at(k_other), cycle_at(at(0ms)), cmd, safe);
    CHECK(safe);
    check_held_by_model(cmd, k_other, 0);
    node->cycle(selected(MotionType::stand_up), state_at(Go2::rest_pose), cycle_at(at(100ms)), cmd, safe);
    check_held_by_model(cmd, k_other, 0);
  }
}

TEST_CASE("motions: ScriptedMotion: script_name chooses the script", "[motion][motions]") {
  const auto lib = library();
  m::ScriptedMotion<Go2, MotionType::prepare> prepare;
  prepare.library = &lib;
  prepare.script_name = "calf";
  const Pose from = Go2::rest_pose;
  Cmd cmd;
  bool safe = true;
  prepare.cycle(selected(MotionType::prepare, true), state_at(from), cycle_at(at(0ms)), cmd, safe);
  prepare.cycle(selected(MotionType::prepare), state_at(from), cycle_at(at(250ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[2] == Approx(from[2] + 0.5 * (-1.0 - from[2])));
  CHECK(cmd.kp[2] == 40.0);
  CHECK(cmd.q[0] == from[0]);
  CHECK(cmd.kp[0] == Go2::default_kp[0]);
  prepare.cycle(selected(MotionType::prepare), state_at(from), cycle_at(at(500ms)), cmd, safe);
  CHECK(safe);
}

// ---------------------------------------------------------------------------------------------
// ScriptMotion

TEST_CASE("motions: ScriptMotion: a request by name plays from where the joints are", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  const Pose from = Go2::rest_pose;
  const auto command = script_by_name("rise", 1);
  Cmd cmd = marker();
  bool safe = true;
  script.cycle(selected(MotionType::script, true), command, state_at(from), cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(from[0]));
  CHECK(cmd.kp[0] == 30.0);
  check_held_by_model(cmd, from, 2);

  // The same id keeps it running (the measured pose moving does not restart it).
  script.cycle(selected(MotionType::script), command, state_at(k_other), cycle_at(at(500ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(from, 0.5)));
  check_held_by_model(cmd, from, 2);
  script.cycle(selected(MotionType::script), command, state_at(k_other), cycle_at(at(2000ms)), cmd, safe);
  CHECK(safe);
  CHECK(cmd.q[0] == Approx(0.5));
  CHECK(cmd.q[1] == Approx(1.0));
  CHECK(script.rejected() == 0);
  CHECK(m::ScriptMotion<Go2>::name == "script");
}

TEST_CASE("motions: ScriptMotion: a new id starts the request again", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  const Pose from = Go2::rest_pose;
  Cmd cmd;
  bool safe = true;
  script.cycle(selected(MotionType::script, true), script_by_name("rise", 1), state_at(from), cycle_at(at(0ms)), cmd,
               safe);
  script.cycle(selected(MotionType::script), script_by_name("rise", 1), state_at(from), cycle_at(at(1000ms)), cmd,
               safe);
  CHECK(cmd.q[0] == Approx(0.5));
  // Id 2 at 1 s, from the pose measured then: joint 0 starts over.
  script.cycle(selected(MotionType::script), script_by_name("rise", 2), state_at(k_other), cycle_at(at(1000ms)), cmd,
               safe);
  CHECK(cmd.q[0] == Approx(k_other[0]));
  CHECK_FALSE(safe);
  script.cycle(selected(MotionType::script), script_by_name("rise", 2), state_at(k_other), cycle_at(at(1500ms)), cmd,
               safe);
  CHECK(cmd.q[0] == Approx(rise_q0(k_other, 0.5)));
  // Unowned joints still hold the pose of the entry into the motion, not of the new request.
  check_held_by_model(cmd, from, 2);
  script.cycle(selected(MotionType::script), script_by_name("rise", 2), state_at(k_other), cycle_at(at(3000ms)), cmd,
               safe);
  CHECK(safe);
}

TEST_CASE("motions: ScriptMotion: two requests share the joints", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  const Pose from = Go2::rest_pose;
  Cmd cmd;
  bool safe = true;
  script.cycle(selected(MotionType::script, true), script_by_name("rise", 1), state_at(from), cycle_at(at(0ms)), cmd,
               safe);
  script.cycle(selected(MotionType::script), script_by_name("calf", 2), state_at(from), cycle_at(at(0ms)), cmd,
               safe);
  script.cycle(selected(MotionType::script), script_by_name("calf", 2), state_at(from), cycle_at(at(500ms)), cmd,
               safe);
  CHECK(cmd.q[0] == Approx(rise_q0(from, 0.5)));  // rise keeps its joints
  CHECK(cmd.q[2] == Approx(-1.0));               // calf has its own
  CHECK(cmd.kp[2] == 40.0);
  CHECK_FALSE(safe);  // rise still runs
  check_held_by_model(cmd, from, 3);
}

TEST_CASE("motions: ScriptMotion: unknown names and scripts for another robot are rejected", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  Cmd cmd = marker();
  bool safe = false;
  script.cycle(selected(MotionType::script, true), script_by_name("nope", 1), state_at(k_other), cycle_at(at(0ms)),
               cmd, safe);
  CHECK(script.rejected() == 1);
  CHECK(safe);
  check_held_by_model(cmd, k_other, 0);
  // The same id is not asked again.
  script.cycle(selected(MotionType::script), script_by_name("nope", 1), state_at(k_other), cycle_at(at(2ms)), cmd,
               safe);
  CHECK(script.rejected() == 1);

  // A script object for a robot of 3 joints.
  praxis::script::Script<3> other;
  other.name = "three";
  praxis::script::ExecuteScript<3> r3;
  r3.scripts[0] = &other;
  r3.count = 1;
  m::command::Script objects;
  objects.objects = m::ExecuteScriptObjects::from(r3);
  objects.id = 2;
  script.cycle(selected(MotionType::script), objects, state_at(k_other), cycle_at(at(4ms)), cmd, safe);
  CHECK(script.rejected() == 2);

  // Without a library a name cannot be resolved.
  m::ScriptMotion<Go2> no_library;
  no_library.cycle(selected(MotionType::script, true), script_by_name("rise", 1), state_at(k_other),
                   cycle_at(at(0ms)), cmd, safe);
  CHECK(no_library.rejected() == 1);
}

TEST_CASE("motions: ScriptMotion: scripts given as objects and a start in the future", "[motion][motions]") {
  m::ScriptMotion<Go2> script;  // no library needed for objects
  const Script rise = rise_script();
  praxis::script::ExecuteScript<N> r;
  r.scripts[0] = &rise;
  r.count = 1;
  r.start = at(1000ms);
  m::command::Script c;
  c.objects = m::ExecuteScriptObjects::from(r);
  c.id = 5;
  const Pose from = Go2::rest_pose;
  Cmd cmd;
  bool safe = true;
  script.cycle(selected(MotionType::script, true), c, state_at(from), cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);  // waiting to start
  check_held_by_model(cmd, from, 0);
  script.cycle(selected(MotionType::script), c, state_at(from), cycle_at(at(1500ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(from, 0.5)));
  CHECK(cmd.kp[0] == 30.0);
  script.cycle(selected(MotionType::script), c, state_at(from), cycle_at(at(2999ms)), cmd, safe);
  CHECK_FALSE(safe);
  script.cycle(selected(MotionType::script), c, state_at(from), cycle_at(at(3000ms)), cmd, safe);
  CHECK(safe);
  CHECK(script.rejected() == 0);
}

TEST_CASE("motions: ScriptMotion: a full player rejects the request", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  Cmd cmd;
  bool safe = true;
  // Eight running requests fill the player's eight slots; the ninth finds none free.
  for (std::uint32_t id = 1; id <= 9; ++id) {
    script.cycle(selected(MotionType::script, id == 1), script_by_name("rise", id), state_at(Go2::rest_pose),
                 cycle_at(at(std::chrono::milliseconds(id))), cmd, safe);
    CHECK(script.rejected() == (id <= 8 ? 0u : 1u));
  }
}

TEST_CASE("motions: ScriptMotion: left it forgets its requests and the same id starts again", "[motion][motions]") {
  const auto lib = library();
  m::ScriptMotion<Go2> script;
  script.library = &lib;
  const auto command = script_by_name("rise", 1);
  Cmd cmd;
  bool safe = false;
  script.cycle(selected(MotionType::script, true), command, state_at(Go2::rest_pose), cycle_at(at(0ms)), cmd, safe);
  script.cycle(selected(MotionType::script), command, state_at(Go2::rest_pose), cycle_at(at(800ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(Go2::rest_pose, 0.8)));

  Cmd untouched = marker();
  safe = false;
  script.cycle(selected(MotionType::stand, true), command, state_at(Go2::rest_pose), cycle_at(at(900ms)), untouched,
               safe);
  CHECK(safe);
  CHECK(is_marker(untouched));

  script.cycle(selected(MotionType::script, true), command, state_at(k_other), cycle_at(at(5000ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(k_other[0]));
  check_held_by_model(cmd, k_other, 2);
  script.cycle(selected(MotionType::script), command, state_at(k_other), cycle_at(at(5500ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(k_other, 0.5)));

  // Another command while the script runs neither restarts nor rejects anything.
  script.cycle(selected(MotionType::script), m::MotionCommand{m::command::Stand{}}, state_at(k_other),
               cycle_at(at(5750ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx(rise_q0(k_other, 0.75)));
  CHECK(script.rejected() == 0);
}

// ---------------------------------------------------------------------------------------------
// RobotRunMotion / ModeMotion

TEST_CASE("motions: RobotRunMotion: no joint command and safe once the robot confirms the mode",
          "[motion][motions]") {
  m::ModeMotion<Go2, MotionType::prepare> prepare;  // confirm_timeout 2 s
  praxis::RobotStatus status;
  status.assumed_mode = praxis::RobotMode::prepare;
  status.reported_mode = praxis::RobotMode::damping;  // not there yet
  Cmd cmd = marker();
  bool safe = true;
  prepare.cycle(selected(MotionType::prepare, true), status, cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(all_modes(cmd, JointMode::none));
  CHECK_FALSE(cmd.covers_any());

  prepare.cycle(selected(MotionType::prepare), status, cycle_at(at(500ms)), cmd, safe);
  CHECK_FALSE(safe);
  status.reported_mode = praxis::RobotMode::prepare;
  prepare.cycle(selected(MotionType::prepare), status, cycle_at(at(600ms)), cmd, safe);
  CHECK(safe);

  // Unknown is never a confirmation, even when both say so.
  status.reported_mode = praxis::RobotMode::unknown;
  status.assumed_mode = praxis::RobotMode::unknown;
  prepare.cycle(selected(MotionType::prepare), status, cycle_at(at(700ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(m::ModeMotion<Go2, MotionType::prepare>::name == "robot/prepare");
  CHECK(m::RobotRunMotion<Go2, MotionType::stand_up>::name == "robot/stand_up");
}

TEST_CASE("motions: RobotRunMotion: safe after confirm_timeout on a robot that reports no mode",
          "[motion][motions]") {
  m::RobotRunMotion<Go2, MotionType::prepare> prepare;
  const praxis::RobotStatus silent;  // reports nothing
  Cmd cmd;
  bool safe = true;
  prepare.cycle(selected(MotionType::prepare, true), silent, cycle_at(at(1000ms)), cmd, safe);
  CHECK_FALSE(safe);
  prepare.cycle(selected(MotionType::prepare), silent, cycle_at(at(2999ms)), cmd, safe);
  CHECK_FALSE(safe);
  prepare.cycle(selected(MotionType::prepare), silent, cycle_at(at(3000ms)), cmd, safe);
  CHECK(safe);

  // Left and entered again: the time-out counts from the new entry.
  prepare.cycle(selected(MotionType::stand, true), silent, cycle_at(at(3100ms)), cmd, safe);
  CHECK(safe);
  CHECK(all_modes(cmd, JointMode::none));  // it writes no joint command even when not selected
  prepare.cycle(selected(MotionType::prepare, true), silent, cycle_at(at(10000ms)), cmd, safe);
  CHECK_FALSE(safe);
  prepare.cycle(selected(MotionType::prepare), silent, cycle_at(at(11999ms)), cmd, safe);
  CHECK_FALSE(safe);

  prepare.confirm_timeout = 500ms;
  prepare.cycle(selected(MotionType::prepare, true), silent, cycle_at(at(20000ms)), cmd, safe);
  CHECK_FALSE(safe);
  prepare.cycle(selected(MotionType::prepare), silent, cycle_at(at(20500ms)), cmd, safe);
  CHECK(safe);
}

TEST_CASE("motions: RobotRunMotion: wait_for_get_up waits for the get-up too", "[motion][motions]") {
  m::RobotRunMotion<Go2, MotionType::stand_up> stand_up;  // get_up_timeout 15 s
  stand_up.wait_for_get_up = true;
  praxis::RobotStatus status;
  status.assumed_mode = praxis::RobotMode::prepare;
  status.reported_mode = praxis::RobotMode::prepare;  // confirmed long before it stands
  status.get_ups_completed = 3;
  status.posture = praxis::Posture::fallen;
  Cmd cmd;
  bool safe = true;
  stand_up.cycle(selected(MotionType::stand_up, true), status, cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(5000ms)), cmd, safe);
  CHECK_FALSE(safe);  // past confirm_timeout: it does not count here
  status.get_ups_completed = 4;
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(6000ms)), cmd, safe);
  CHECK(safe);
  // Got up but the mode not confirmed: not yet.
  status.reported_mode = praxis::RobotMode::damping;
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(6002ms)), cmd, safe);
  CHECK_FALSE(safe);

  // Entered again: the get-ups are counted from this entry.
  status.reported_mode = praxis::RobotMode::prepare;
  stand_up.cycle(selected(MotionType::stand_up, true), status, cycle_at(at(20000ms)), cmd, safe);
  CHECK_FALSE(safe);
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(34999ms)), cmd, safe);
  CHECK_FALSE(safe);
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(35000ms)), cmd, safe);
  CHECK(safe);  // the get-up time-out

  // Upright when the stand-up began: nothing to get up from.
  status.posture = praxis::Posture::upright;
  stand_up.cycle(selected(MotionType::stand_up, true), status, cycle_at(at(40000ms)), cmd, safe);
  CHECK(safe);
  status.posture = praxis::Posture::fallen;  // what counts is the posture on entry
  stand_up.cycle(selected(MotionType::stand_up), status, cycle_at(at(40002ms)), cmd, safe);
  CHECK(safe);
}

// ---------------------------------------------------------------------------------------------
// BackendWalkBody, VisualKickMotion, WalkMotion, Unoffered

TEST_CASE("motions: BackendWalkBody: no joint command and always safe", "[motion][motions]") {
  const m::BackendWalkBody<Go2> walk{};
  for (auto t : {MotionType::walk, MotionType::stand, MotionType::damping}) {
    INFO(m::to_string(t));
    Cmd cmd = marker();
    bool safe = false;
    walk.cycle(selected(t, true), cmd, safe);
    CHECK(safe);
    CHECK(all_modes(cmd, JointMode::none));
  }
  CHECK(m::BackendWalkBody<Go2>::name == "robot/walk");
}

TEST_CASE("motions: VisualKickMotion: holds the stand pose while selected", "[motion][motions]") {
  const m::VisualKickMotion<Go2> kick{};
  Cmd cmd = marker();
  bool safe = false;
  kick.cycle(selected(MotionType::visual_kick, true), cmd, safe);
  CHECK(safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == Go2::stand_pose[j]);
    CHECK(cmd.kp[ix(j)] == Go2::default_kp[j]);
    CHECK(cmd.kd[ix(j)] == Go2::default_kd[j]);
    CHECK(cmd.mode[j] == JointMode::position);
  }
  CHECK(no_velocity_or_torque(cmd));

  Cmd untouched = marker();
  safe = false;
  kick.cycle(selected(MotionType::walk), untouched, safe);
  CHECK(safe);
  CHECK(is_marker(untouched));
  CHECK(m::VisualKickMotion<Go2>::name == "visual_kick");
}

TEST_CASE("motions: WalkMotion: a velocity request only while walking is selected", "[motion][motions]") {
  const m::WalkMotion walk{};
  m::command::WalkWithVelocity v;
  v.velocity = m::Vector2(0.4, -0.1);
  v.angular_velocity = 0.3;
  praxis::LocomotionRequest out;
  walk.cycle(selected(MotionType::walk), m::MotionCommand{v}, out);
  CHECK(out.active);
  CHECK(out.vx == 0.4);
  CHECK(out.vy == -0.1);
  CHECK(out.wz == 0.3);
  walk.cycle(selected(MotionType::stand), m::MotionCommand{v}, out);
  CHECK_FALSE(out.active);
  CHECK(out.vx == 0.0);
  CHECK(out.vy == 0.0);
  CHECK(out.wz == 0.0);
}

TEST_CASE("motions: Unoffered: leaves its outputs as they are", "[motion][motions]") {
  const m::Unoffered<m::BodyCommandPort<MotionType::script, N>, m::SafeExitPort<MotionType::script>> unoffered{};
  Cmd cmd = marker();
  bool safe = false;
  unoffered.cycle(cmd, safe);
  CHECK(is_marker(cmd));
  CHECK_FALSE(safe);
}

// ---------------------------------------------------------------------------------------------
// DispatchingMotion

TEST_CASE("motions: DispatchingMotion: a cosine blend from the last command to the target's start pose",
          "[motion][motions]") {
  m::DispatchingMotion<Go2> dispatching;  // 1 s, every start pose the stand pose
  const Pose from = Go2::rest_pose;
  const Pose to = Go2::stand_pose;
  const Cmd last = stiff(from, 60.0, 5.0);
  const State measured = state_at(k_other);  // held joints start from the command, not from here
  Cmd cmd = marker();
  bool safe = true;
  const auto check_at = [&](double fraction) {
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << j << " fraction " << fraction);
      CHECK(cmd.q[ix(j)] == Approx(from[j] + fraction * (to[j] - from[j])).margin(1e-12));
      CHECK(cmd.kp[ix(j)] == Go2::default_kp[j]);
      CHECK(cmd.kd[ix(j)] == Go2::default_kd[j]);
      CHECK(cmd.mode[j] == JointMode::position);
    }
    CHECK(no_velocity_or_torque(cmd));
  };

  dispatching.cycle(dispatching_to(MotionType::stand, true), last, measured, cycle_at(at(0ms)), cmd, safe);
  CHECK_FALSE(safe);
  check_at(0.0);

  // A quarter of the time: (1 - cos(pi / 4)) / 2 of the way.
  const auto sel = dispatching_to(MotionType::stand);
  dispatching.cycle(sel, cmd, measured, cycle_at(at(250ms)), cmd, safe);
  CHECK_FALSE(safe);
  check_at((1.0 - std::sqrt(0.5)) / 2.0);

  // Half the time: exactly half the way.
  dispatching.cycle(sel, cmd, measured, cycle_at(at(500ms)), cmd, safe);
  CHECK_FALSE(safe);
  check_at(0.5);

  dispatching.cycle(sel, cmd, measured, cycle_at(at(750ms)), cmd, safe);
  check_at((1.0 + std::sqrt(0.5)) / 2.0);
  dispatching.cycle(sel, cmd, measured, cycle_at(at(999ms)), cmd, safe);
  CHECK_FALSE(safe);

  dispatching.cycle(sel, cmd, measured, cycle_at(at(1000ms)), cmd, safe);
  CHECK(safe);
  check_at(1.0);
  dispatching.cycle(sel, cmd, measured, cycle_at(at(3000ms)), cmd, safe);
  CHECK(safe);
  check_at(1.0);
  CHECK(m::DispatchingMotion<Go2>::name == "dispatching");
}

TEST_CASE("motions: DispatchingMotion: limp joints start from where they are measured", "[motion][motions]") {
  m::DispatchingMotion<Go2> dispatching;
  Cmd last = stiff(Go2::rest_pose, 60.0, 5.0);
  last.kp[ix(3)] = 0.0;              // damped
  last.mode[4] = JointMode::none;    // left to the robot
  last.q[ix(5)] = k_nan;             // no target
  last.mode[6] = JointMode::disabled;
  const State measured = state_at(k_other);
  Cmd cmd;
  bool safe = true;
  dispatching.cycle(dispatching_to(MotionType::stand, true), last, measured, cycle_at(at(0ms)), cmd, safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    const bool limp = j >= 3 && j <= 6;
    CHECK(cmd.q[ix(j)] == (limp ? k_other[j] : Go2::rest_pose[j]));
    CHECK(cmd.mode[j] == JointMode::position);
  }
  dispatching.cycle(dispatching_to(MotionType::stand), cmd, measured, cycle_at(at(500ms)), cmd, safe);
  CHECK(cmd.q[ix(3)] == Approx((k_other[3] + Go2::stand_pose[3]) / 2.0));
  CHECK(cmd.q[ix(0)] == Approx((Go2::rest_pose[0] + Go2::stand_pose[0]) / 2.0));
}

TEST_CASE("motions: DispatchingMotion: each target has its own start pose and the duration is an option",
          "[motion][motions]") {
  m::DispatchingMotion<Go2> dispatching;
  dispatching.duration = 2s;
  dispatching.start_pose[static_cast<std::size_t>(MotionType::walk)] = k_other;
  dispatching.kp.fill(70.0);
  dispatching.kd.fill(6.0);
  const Cmd last = stiff(Go2::rest_pose, 60.0, 5.0);
  Cmd cmd;
  bool safe = true;
  dispatching.cycle(dispatching_to(MotionType::walk, true), last, State{}, cycle_at(at(0ms)), cmd, safe);
  dispatching.cycle(dispatching_to(MotionType::walk), cmd, State{}, cycle_at(at(1000ms)), cmd, safe);
  CHECK_FALSE(safe);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(cmd.q[ix(j)] == Approx((Go2::rest_pose[j] + k_other[j]) / 2.0));
    CHECK(cmd.kp[ix(j)] == 70.0);
    CHECK(cmd.kd[ix(j)] == 6.0);
  }
  dispatching.cycle(dispatching_to(MotionType::walk), cmd, State{}, cycle_at(at(2000ms)), cmd, safe);
  CHECK(safe);
  CHECK(cmd.q[ix(7)] == Approx(k_other[7]));

  // No duration: there at once.
  dispatching.duration = praxis::Duration::zero();
  dispatching.cycle(dispatching_to(MotionType::stand, true), last, State{}, cycle_at(at(5000ms)), cmd, safe);
  CHECK(safe);
  for (std::size_t j = 0; j < N; ++j) CHECK(cmd.q[ix(j)] == Approx(Go2::stand_pose[j]));
}

TEST_CASE("motions: DispatchingMotion: a retarget mid-way blends on from where it was", "[motion][motions]") {
  m::DispatchingMotion<Go2> dispatching;  // 1 s
  dispatching.start_pose[static_cast<std::size_t>(MotionType::walk)] = k_other;
  const Cmd last = stiff(Go2::rest_pose, 60.0, 5.0);
  Cmd cmd;
  bool safe = true;
  dispatching.cycle(dispatching_to(MotionType::stand, true), last, State{}, cycle_at(at(0ms)), cmd, safe);
  dispatching.cycle(dispatching_to(MotionType::stand), cmd, State{}, cycle_at(at(500ms)), cmd, safe);
  Pose halfway{};
  for (std::size_t j = 0; j < N; ++j) halfway[j] = (Go2::rest_pose[j] + Go2::stand_pose[j]) / 2.0;
  for (std::size_t j = 0; j < N; ++j) CHECK(cmd.q[ix(j)] == Approx(halfway[j]));

  // The selection turns toward walk at 0.6 s, with last cycle's command in force: no jump, and a
  // whole duration from here.
  const Cmd in_force = cmd;
  dispatching.cycle(dispatching_to(MotionType::walk, true), in_force, State{}, cycle_at(at(600ms)), cmd, safe);
  CHECK_FALSE(safe);
  for (std::size_t j = 0; j < N; ++j) CHECK(cmd.q[ix(j)] == Approx(halfway[j]));
  dispatching.cycle(dispatching_to(MotionType::walk), cmd, State{}, cycle_at(at(1100ms)), cmd, safe);
  CHECK_FALSE(safe);
  for (std::size_t j = 0; j < N; ++j) CHECK(cmd.q[ix(j)] == Approx((halfway[j] + k_other[j]) / 2.0));
  dispatching.cycle(dispatching_to(MotionType::walk), cmd, State{}, cycle_at(at(1599ms)), cmd, safe);
  CHECK_FALSE(safe);
  dispatching.cycle(dispatching_to(MotionType::walk), cmd, State{}, cycle_at(at(1600ms)), cmd, safe);
  CHECK(safe);
  for (std::size_t j = 0; j < N; ++j) CHECK(cmd.q[ix(j)] == Approx(k_other[j]));
}

TEST_CASE("motions: DispatchingMotion: only while selected and from the start on each entry", "[motion][motions]") {
  m::DispatchingMotion<Go2> dispatching;
  const Cmd last = stiff(Go2::rest_pose, 60.0, 5.0);
  Cmd cmd = marker();
  bool safe = false;
  dispatching.cycle(selected(MotionType::stand, true), last, State{}, cycle_at(at(0ms)), cmd, safe);
  CHECK(safe);
  CHECK(is_marker(cmd));

  dispatching.cycle(dispatching_to(MotionType::stand, true), last, State{}, cycle_at(at(0ms)), cmd, safe);
  dispatching.cycle(dispatching_to(MotionType::stand), cmd, State{}, cycle_at(at(1000ms)), cmd, safe);
  CHECK(safe);
  dispatching.cycle(selected(MotionType::stand, true), cmd, State{}, cycle_at(at(1002ms)), cmd, safe);
  // Entered again much later, from the rest pose: the blend starts over.
  dispatching.cycle(dispatching_to(MotionType::stand, true), last, State{}, cycle_at(at(9000ms)), cmd, safe);
  CHECK_FALSE(safe);
  CHECK(cmd.q[0] == Approx(Go2::rest_pose[0]));
  dispatching.cycle(dispatching_to(MotionType::stand), cmd, State{}, cycle_at(at(9500ms)), cmd, safe);
  CHECK(cmd.q[0] == Approx((Go2::rest_pose[0] + Go2::stand_pose[0]) / 2.0));
}

// ---------------------------------------------------------------------------------------------
// motion_node: the node each motion tag names

TEST_CASE("motions: motion_node: each tag names its node per robot kind", "[motion][motions]") {
  using T = praxis::motions::Damping;
  STATIC_REQUIRE(std::is_same_v<node_of<T, Go2, k_joints_only>, m::DampingMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<T, G1, k_modes>, m::DampingMotion<G1>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Stand, Go2, k_joints_only>, m::StandMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Stand, Go2, k_walks>, m::StandMotion<Go2>>);
  STATIC_REQUIRE(
      std::is_same_v<node_of<praxis::motions::FallProtection, Go2, k_joints_only>, m::FallProtectionMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Script, Go2, k_joints_only>, m::ScriptMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Script, G1, k_modes>, m::ScriptMotion<G1>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::VisualKick, Go2, k_joints_only>, m::VisualKickMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Dispatching, Go2, k_joints_only>, m::DispatchingMotion<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Dispatching, Go2, k_modes>, m::DispatchingMotion<Go2>>);

  // Prepare and stand-up: the robot's own modes where it has them, else scripts.
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Prepare, Go2, k_joints_only>,
                                m::ScriptedMotion<Go2, MotionType::prepare>>);
  STATIC_REQUIRE(
      std::is_same_v<node_of<praxis::motions::Prepare, Go2, k_modes>, m::ModeMotion<Go2, MotionType::prepare>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::StandUp, Go2, k_joints_only>,
                                m::ScriptedMotion<Go2, MotionType::stand_up>>);
  STATIC_REQUIRE(
      std::is_same_v<node_of<praxis::motions::StandUp, G1, k_modes>, m::RobotRunMotion<G1, MotionType::stand_up>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Prepare, Go2, k_walks>,
                                m::ScriptedMotion<Go2, MotionType::prepare>>);  // walking is no mode

  // Walking: the robot's own where it walks by itself, else a node of yours.
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Walk, Go2, k_walks>, m::BackendWalkBody<Go2>>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Walk, Go2, k_joints_only>, m::needs_a_node_of_yours>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::Walk, Go2, k_modes>, m::needs_a_node_of_yours>);

  // The user's controller: only ever a node of yours.
  STATIC_REQUIRE(
      std::is_same_v<node_of<praxis::motions::UserControl, Go2, k_joints_only>, m::offered_with_a_node_of_yours>);
  STATIC_REQUIRE(std::is_same_v<node_of<praxis::motions::UserControl, Go2, k_walks>, m::offered_with_a_node_of_yours>);
}

}  // namespace motions_test
