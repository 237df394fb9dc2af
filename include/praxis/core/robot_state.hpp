#pragma once
// The canonical robot state every backend delivers.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <Eigen/Geometry>

#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_vector.hpp"

namespace praxis {

struct ImuState {
  Quaternion orientation = Quaternion::Identity();  // body to world
  Vector3 gyro = Vector3::Zero();                    // rad/s, body frame
  Vector3 accelerometer{0.0, 0.0, 9.81};             // m/s^2, body frame (reads +g when level)
  Vector3 rpy = Vector3::Zero();                     // roll, pitch, yaw (rad), ZYX convention
};

// The unit gravity vector expressed in the body frame: (0, 0, -1) when level, z > 0 once the body is
// tilted past 90 degrees.
[[nodiscard]] inline Vector3 projected_gravity(const Quaternion& body_to_world) {
  return body_to_world.conjugate() * Vector3(0.0, 0.0, -1.0);
}

// Roll, pitch, yaw (ZYX) of a body-to-world rotation.
[[nodiscard]] inline Vector3 roll_pitch_yaw(const Quaternion& q) {
  const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
  const double roll = std::atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y));
  const double sin_pitch = std::clamp(2.0 * (w * y - z * x), -1.0, 1.0);
  const double yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
  return {roll, std::asin(sin_pitch), yaw};
}

template <std::size_t N>
struct RobotState {
  static constexpr std::size_t joint_count = N;

  JointVector<N> q = JointVector<N>::Zero();    // rad
  JointVector<N> dq = JointVector<N>::Zero();   // rad/s
  JointVector<N> tau = JointVector<N>::Zero();  // estimated joint torque, N m
  ImuState imu;
  Vector3 projected_gravity{0.0, 0.0, -1.0};
  GamepadState gamepad;

  TimePoint stamp{};           // when the state was measured (or received, if the robot has no clock)
  Duration age{};              // now - stamp, filled by the controller each cycle
  std::uint64_t sequence = 0;  // increases with every new state from the backend

  // Recomputes the IMU-derived fields from the orientation.
  void update_derived() {
    projected_gravity = praxis::projected_gravity(imu.orientation);
    imu.rpy = roll_pitch_yaw(imu.orientation);
  }

  // See JointCommand::all_finite for the x * 0 test.
  [[nodiscard]] bool all_finite() const {
    const double zero = (q.array() * 0.0 + dq.array() * 0.0 + tau.array() * 0.0).sum() +
                        (imu.orientation.coeffs().array() * 0.0).sum() + (imu.gyro.array() * 0.0).sum() +
                        (imu.accelerometer.array() * 0.0).sum();
    return zero == 0.0;
  }
};

}  // namespace praxis
