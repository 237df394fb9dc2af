#pragma once
// The canonical robot state every backend delivers.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

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

// What a joint's driver reports about itself. Backends set the faults their robot reports (see each
// backend's page for the mapping); temperature is NaN where the robot does not report it.
enum JointFault : std::uint8_t {
  k_joint_ok = 0,
  k_joint_offline = 1 << 0,      // no data from the driver (lost on the bus, not powered)
  k_joint_over_range = 1 << 1,   // position beyond the driver's range
  k_joint_driver_error = 1 << 2, // the driver reports an error code
  k_joint_overheated = 1 << 3,   // temperature above the driver's limit
};

struct JointHealth {
  std::uint8_t faults = k_joint_ok;
  std::uint32_t error_code = 0;  // the vendor's raw code, for logs (0: none)
  float temperature = std::numeric_limits<float>::quiet_NaN();  // deg C
  [[nodiscard]] constexpr bool ok() const { return faults == k_joint_ok; }
};

template <std::size_t N>
struct RobotState {
  static constexpr std::size_t joint_count = N;

  JointVector<N> q = JointVector<N>::Zero();    // rad
  JointVector<N> dq = JointVector<N>::Zero();   // rad/s
  JointVector<N> tau = JointVector<N>::Zero();  // estimated joint torque, N m
  ImuState imu;
  Vector3 projected_gravity{0.0, 0.0, -1.0};
  GamepadState gamepad;
  std::array<JointHealth, N> health{};

  // The first joint with a fault, or N when every joint is healthy.
  [[nodiscard]] std::size_t first_faulted_joint() const {
    for (std::size_t j = 0; j < N; ++j) {
      if (!health[j].ok()) return j;
    }
    return N;
  }

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
