// RobotState and the IMU maths: the defaults (level, upright, healthy, at rest), projected gravity
// (body frame, z > 0 past 90 degrees of tilt), roll / pitch / yaw in the ZYX convention (round trip,
// signs, no NaN at the gimbal lock), update_derived() recomputing both from the orientation, the
// joint-fault bits and the first faulted joint, and all_finite() finding a NaN or an infinity in
// every measured field (but not in the temperature, which is NaN where a robot does not report it).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>

#include "praxis/core/robot_state.hpp"

namespace robot_state_test {

using praxis::Quaternion;
using praxis::Vector3;

namespace {

constexpr std::size_t N = 3;
using State = praxis::RobotState<N>;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_pi = std::numbers::pi;

// A body-to-world rotation from roll, pitch and yaw, built the ZYX way: yaw about z, then pitch about
// the new y, then roll about the new x.
Quaternion zyx(double roll, double pitch, double yaw) {
  return Quaternion(Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(pitch, Vector3::UnitY()) *
                    Eigen::AngleAxisd(roll, Vector3::UnitX()));
}

}  // namespace

TEST_CASE("robot state: a default state is level at rest healthy and all finite", "[core][robot_state]") {
  const State s;
  STATIC_REQUIRE(State::joint_count == N);
  CHECK(s.q.isZero());
  CHECK(s.dq.isZero());
  CHECK(s.tau.isZero());
  CHECK(s.imu.orientation.coeffs() == Quaternion::Identity().coeffs());
  CHECK(s.imu.gyro.isZero());
  CHECK(s.imu.accelerometer == Vector3(0.0, 0.0, 9.81));  // reads +g when level
  CHECK(s.imu.rpy.isZero());
  CHECK(s.projected_gravity == Vector3(0.0, 0.0, -1.0));
  CHECK(s.gamepad == praxis::GamepadState{});
  CHECK(s.first_faulted_joint() == N);
  for (const auto& h : s.health) {
    CHECK(h.ok());
    CHECK(h.error_code == 0);
    CHECK(std::isnan(h.temperature));  // not reported
  }
  CHECK(s.stamp == praxis::TimePoint{});
  CHECK(s.age == praxis::Duration::zero());
  CHECK(s.sequence == 0);
  CHECK(s.all_finite());  // the NaN temperatures are not measurements
}

TEST_CASE("robot state: projected gravity points down the body when level and up once past 90 degrees",
          "[core][robot_state]") {
  const auto level = praxis::projected_gravity(Quaternion::Identity());
  CHECK(level.isApprox(Vector3(0.0, 0.0, -1.0)));

  // A yaw does not tilt the body: gravity is still straight down in its frame.
  CHECK(praxis::projected_gravity(zyx(0.0, 0.0, 1.2)).isApprox(Vector3(0.0, 0.0, -1.0)));

  // Rolled right-side down by r (about x): gravity in the body frame is (0, -sin r, -cos r).
  const double r = 0.4;
  const auto rolled = praxis::projected_gravity(zyx(r, 0.0, 0.0));
  CHECK(rolled.x() == Approx(0.0).margin(1e-12));
  CHECK(rolled.y() == Approx(-std::sin(r)));
  CHECK(rolled.z() == Approx(-std::cos(r)));

  // Pitched nose-down by p (about y): (sin p, 0, -cos p).
  const double p = 0.3;
  const auto pitched = praxis::projected_gravity(zyx(0.0, p, 0.0));
  CHECK(pitched.x() == Approx(std::sin(p)));
  CHECK(pitched.y() == Approx(0.0).margin(1e-12));
  CHECK(pitched.z() == Approx(-std::cos(p)));

  // Tilted past 90 degrees z turns positive, upside down it is +1; always a unit vector.
  CHECK(praxis::projected_gravity(zyx(0.0, 1.7, 0.0)).z() > 0.0);
  CHECK(praxis::projected_gravity(zyx(1.6, 0.0, 0.0)).z() > 0.0);
  CHECK(praxis::projected_gravity(zyx(1.5, 0.0, 0.0)).z() < 0.0);
  CHECK(praxis::projected_gravity(zyx(k_pi, 0.0, 0.0)).isApprox(Vector3(0.0, 0.0, 1.0)));
  CHECK(praxis::projected_gravity(zyx(0.3, -0.7, 2.0)).norm() == Approx(1.0));
}

TEST_CASE("robot state: roll pitch yaw give back the ZYX angles a rotation was made of", "[core][robot_state]") {
  const std::array<std::array<double, 3>, 7> angles{{
      {0.0, 0.0, 0.0},
      {0.3, 0.0, 0.0},
      {0.0, -0.4, 0.0},
      {0.0, 0.0, 2.5},
      {0.2, 0.5, -1.0},
      {-2.8, 1.2, 3.0},
      {1.0, -1.4, -2.9},
  }};
  for (const auto& a : angles) {
    const auto rpy = praxis::roll_pitch_yaw(zyx(a[0], a[1], a[2]));
    INFO("roll " << a[0] << " pitch " << a[1] << " yaw " << a[2]);
    CHECK(rpy.x() == Approx(a[0]).margin(1e-9));
    CHECK(rpy.y() == Approx(a[1]).margin(1e-9));
    CHECK(rpy.z() == Approx(a[2]).margin(1e-9));
  }
  // q and -q are the same rotation.
  const Quaternion q = zyx(0.2, 0.5, -1.0);
  const Quaternion minus(-q.w(), -q.x(), -q.y(), -q.z());
  CHECK(praxis::roll_pitch_yaw(minus).isApprox(praxis::roll_pitch_yaw(q)));
}

TEST_CASE("robot state: pitch at the gimbal lock is plus or minus 90 degrees and never NaN", "[core][robot_state]") {
  for (const double sign : {1.0, -1.0}) {
    // Rounding can push 2 (w y - z x) just past 1 here; asin of that would be NaN without a clamp.
    for (const double yaw : {0.0, 0.7, -2.0}) {
      const auto rpy = praxis::roll_pitch_yaw(zyx(0.3, sign * k_pi / 2, yaw));
      INFO("pitch " << sign << " * 90 degrees, yaw " << yaw);
      CHECK(std::isfinite(rpy.x()));
      CHECK(std::isfinite(rpy.z()));
      CHECK(rpy.y() == Approx(sign * k_pi / 2).margin(1e-6));
    }
    // A quaternion whose 2 (w y - z x) is exactly past 1: w = y = sqrt(0.5) + a little.
    const double c = std::sqrt(0.5) * (1.0 + 1e-12);
    const auto rpy = praxis::roll_pitch_yaw(Quaternion(c, 0.0, sign * c, 0.0));
    CHECK(rpy.y() == sign * k_pi / 2);
  }
}

TEST_CASE("robot state: update_derived recomputes projected gravity and rpy from the orientation",
          "[core][robot_state]") {
  State s;
  s.imu.orientation = zyx(0.25, -0.35, 1.1);
  s.projected_gravity = Vector3(7.0, 7.0, 7.0);  // stale values the update must replace
  s.imu.rpy = Vector3(7.0, 7.0, 7.0);
  s.update_derived();
  CHECK(s.projected_gravity.isApprox(praxis::projected_gravity(s.imu.orientation)));
  CHECK(s.imu.rpy.x() == Approx(0.25));
  CHECK(s.imu.rpy.y() == Approx(-0.35));
  CHECK(s.imu.rpy.z() == Approx(1.1));
  // The raw IMU readings are not touched.
  CHECK(s.imu.accelerometer == Vector3(0.0, 0.0, 9.81));
  CHECK(s.imu.gyro.isZero());

  s.imu.orientation = Quaternion::Identity();
  s.update_derived();
  CHECK(s.projected_gravity.isApprox(Vector3(0.0, 0.0, -1.0)));
  CHECK(s.imu.rpy.isZero());
}

TEST_CASE("robot state: the joint faults are distinct bits and any of them makes a joint not ok",
          "[core][robot_state]") {
  constexpr std::array<praxis::JointFault, 4> faults{praxis::k_joint_offline, praxis::k_joint_over_range,
                                                     praxis::k_joint_driver_error, praxis::k_joint_overheated};
  unsigned seen = 0;
  for (const auto f : faults) {
    CHECK(f != praxis::k_joint_ok);
    CHECK((seen & f) == 0u);  // no two share a bit
    CHECK((f & (f - 1)) == 0);  // one bit each
    seen |= f;
    praxis::JointHealth h;
    h.faults = f;
    CHECK_FALSE(h.ok());
  }
  praxis::JointHealth h;
  CHECK(h.ok());
  h.error_code = 42;  // a vendor code alone is for logs: the joint is ok until a fault bit is set
  h.temperature = 80.0f;
  CHECK(h.ok());
  h.faults = static_cast<std::uint8_t>(praxis::k_joint_offline | praxis::k_joint_overheated);
  CHECK_FALSE(h.ok());
}

TEST_CASE("robot state: first_faulted_joint is the lowest joint with a fault or N", "[core][robot_state]") {
  State s;
  CHECK(s.first_faulted_joint() == N);
  s.health[2].faults = praxis::k_joint_overheated;
  CHECK(s.first_faulted_joint() == 2);  // the last joint is found
  s.health[1].faults = praxis::k_joint_offline;
  CHECK(s.first_faulted_joint() == 1);  // the lower one wins
  s.health[0].faults = praxis::k_joint_driver_error;
  CHECK(s.first_faulted_joint() == 0);
  s.health[0].faults = praxis::k_joint_ok;
  s.health[1].faults = praxis::k_joint_ok;
  CHECK(s.first_faulted_joint() == 2);
  s.health[2].error_code = 7;  // a code without a fault bit is not a fault
  s.health[2].faults = praxis::k_joint_ok;
  CHECK(s.first_faulted_joint() == N);
}

TEST_CASE("robot state: all_finite finds a NaN or an infinity in any measured field", "[core][robot_state]") {
  for (const double bad : {k_nan, k_inf, -k_inf}) {
    INFO("bad value " << bad);
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      INFO("joint " << j);
      State s;
      s.q[i] = bad;
      CHECK_FALSE(s.all_finite());
      s = State{};
      s.dq[i] = bad;
      CHECK_FALSE(s.all_finite());
      s = State{};
      s.tau[i] = bad;
      CHECK_FALSE(s.all_finite());
    }
    for (int k = 0; k < 4; ++k) {
      State s;
      s.imu.orientation.coeffs()[k] = bad;
      INFO("orientation coefficient " << k);
      CHECK_FALSE(s.all_finite());
    }
    for (int k = 0; k < 3; ++k) {
      INFO("axis " << k);
      State s;
      s.imu.gyro[k] = bad;
      CHECK_FALSE(s.all_finite());
      s = State{};
      s.imu.accelerometer[k] = bad;
      CHECK_FALSE(s.all_finite());
    }
  }
  // +inf and -inf in different fields do not cancel.
  State s;
  s.q[0] = k_inf;
  s.imu.gyro[0] = -k_inf;
  CHECK_FALSE(s.all_finite());

  // Large finite values are fine, and so is a reported temperature of any kind.
  State big;
  big.q[0] = std::numeric_limits<double>::max();
  big.tau[2] = -std::numeric_limits<double>::max();
  big.health[1].temperature = std::numeric_limits<float>::infinity();
  CHECK(big.all_finite());
}

}  // namespace robot_state_test
