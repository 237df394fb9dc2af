#pragma once
// Tienkung's codec: the per-limb bodyctrl_msgs messages <-> praxis' RobotState and JointCommand.
// Pure functions over fixed-size values; topics.hpp puts them on the generic DDS backend.
//
// Receive, per limb topic rt/<limb>/status (MotorStatusMsg):
//   limb_status_from_wire<M, Limb, Layout>   wire -> LimbStatus, on Cyclone's thread; nullptr
//                                            accepts, otherwise why the sample was refused
//   decode_limb_status<M, Limb>              LimbStatus -> the limb's q, dq, tau and health
// and rt/imu/status (Imu): imu_from_wire, decode_imu.
// Send, per limb: encode_limb_ctrl (cmd_ctrl, the hybrid mode: position, torque and disabled
// joints) and encode_limb_speed (cmd_vel: velocity joints, and speed 0 for joints that left velocity
// mode until their status confirms them stopped), with CtrlToWire / SpeedToWire lending the sample storage.
//
// The MotorStatus layout (StatusLayout) is fixed per backend. Robots of different generations send
// different layouts under the same DDS type name (docs/backends/tienkung.md, "Wire facts and their
// sources"), so a wrong choice is not a type mismatch DDS could catch: the bytes decode, misread.
// praxis decodes each layout with its own IDL type and checks what came out:
//   - the configured element is SHORTER than the robot's (e.g. without_error against TG2.0): Cyclone
//     reads the elements at the wrong stride, so every element after the first takes its `name`
//     from the middle of a previous element (an error code, a float's low half: 0 or a value outside
//     the limb's MotorName range). The check that every element names a motor of the limb, once,
//     and that every motor of the limb is there refuses such a sample with a reason naming the
//     layout as the likely cause.
//   - the configured element is LONGER than the robot's: the sequence claims more bytes than the
//     sample holds, and Cyclone drops the sample before praxis sees it (logging "deserialization
//     ... failed in type conversion"); the backend's acquire() then reports that no valid status
//     arrived and names the configured layout.
// Both are shown over real Cyclone DDS against a peer that announces no type information, as
// rmw_fastrtps does (tests/unit/hardware/tienkung/backend_test.cpp). A peer that does announce it
// (another Cyclone) is simply not matched by a reader of another layout.
// Sanity of the values (finite readings, a non-negative finite voltage) backs this up.
//
// Error codes (the vendor's arm interface manual, 8.7.1): 33072 device offline, 33073 joint position
// out of range, 1 motor over-temperature, 2 over-current, 3 under-voltage, 4 MOS over-temperature,
// 5 stall, 6 over-voltage, 7 phase loss, 8 encoder error. Any other nonzero code is reported as a
// driver error too (the list may be incomplete); the raw code is kept in JointHealth::error_code.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <string_view>

#include <praxis/idl/bodyctrl_msgs.h>

#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/tienkung/models.hpp"
#include "praxis/hardware/tienkung/velocity_stops.hpp"
#include "praxis/transport/dds_sequence.hpp"

namespace praxis::tienkung {

// ---- wire types ----

using MotorCtrlWire = bodyctrl_msgs_msg_dds__MotorCtrl_;
using CmdMotorCtrlWire = bodyctrl_msgs_msg_dds__CmdMotorCtrl_;
using SetMotorSpeedWire = bodyctrl_msgs_msg_dds__SetMotorSpeed_;
using CmdSetMotorSpeedWire = bodyctrl_msgs_msg_dds__CmdSetMotorSpeed_;
using SetMotorPositionWire = bodyctrl_msgs_msg_dds__SetMotorPosition_;
using CmdSetMotorPositionWire = bodyctrl_msgs_msg_dds__CmdSetMotorPosition_;
using ImuWire = bodyctrl_msgs_msg_dds__Imu_;

// Which MotorStatus the robot sends (docs/backends/tienkung.md, "Wire facts and their sources":
// generations and MotorStatus).
enum class StatusLayout : std::uint8_t {
  without_error,  // name, pos, speed, current, temperature (20 bytes; the ROS 1 Lite layout)
  with_error,     // + uint32 error (24 bytes; TG2.0 / Pro / Plus: the default)
  with_voltage,   // + uint32 error + float32 voltage (28 bytes; Ultra, order UNVERIFIED)
};

[[nodiscard]] constexpr std::string_view to_string(StatusLayout l) {
  constexpr std::array<std::string_view, 3> names{"without_error", "with_error", "with_voltage"};
  return names[static_cast<std::size_t>(l)];
}

template <StatusLayout L>
struct StatusWire;
template <>
struct StatusWire<StatusLayout::without_error> {
  using Element = bodyctrl_msgs_layout_MotorStatusNoError;
  using Message = bodyctrl_msgs_layout_MotorStatusMsgNoError;
  static constexpr std::size_t element_bytes = 20;
  static const dds_topic_descriptor_t* descriptor() { return &bodyctrl_msgs_layout_MotorStatusMsgNoError_desc; }
};
template <>
struct StatusWire<StatusLayout::with_error> {
  using Element = bodyctrl_msgs_msg_dds__MotorStatus_;
  using Message = bodyctrl_msgs_msg_dds__MotorStatusMsg_;
  static constexpr std::size_t element_bytes = 24;
  static const dds_topic_descriptor_t* descriptor() { return &bodyctrl_msgs_msg_dds__MotorStatusMsg__desc; }
};
template <>
struct StatusWire<StatusLayout::with_voltage> {
  using Element = bodyctrl_msgs_layout_MotorStatusWithVoltage;
  using Message = bodyctrl_msgs_layout_MotorStatusMsgWithVoltage;
  static constexpr std::size_t element_bytes = 28;
  static const dds_topic_descriptor_t* descriptor() { return &bodyctrl_msgs_layout_MotorStatusMsgWithVoltage_desc; }
};

// ---- motor errors ----

enum class MotorError : std::uint32_t {
  none = 0,
  over_temperature = 1,
  over_current = 2,
  under_voltage = 3,
  mos_over_temperature = 4,
  stall = 5,
  over_voltage = 6,
  phase_loss = 7,
  encoder = 8,
  offline = 33072,
  position_out_of_range = 33073,
};

// A motor's health from its error code and temperature (NaN when the layout has none).
[[nodiscard]] constexpr JointHealth health_from_error(std::uint32_t error, float temperature) {
  JointHealth h;
  h.error_code = error;
  h.temperature = temperature;
  switch (static_cast<MotorError>(error)) {
    case MotorError::none:
      break;
    case MotorError::offline:
      h.faults = k_joint_offline;
      break;
    case MotorError::position_out_of_range:
      h.faults = k_joint_over_range;
      break;
    case MotorError::over_temperature:
    case MotorError::mos_over_temperature:
      h.faults = k_joint_driver_error | k_joint_overheated;
      break;
    default:  // 2, 3, 5-8 and codes the manual does not list
      h.faults = k_joint_driver_error;
      break;
  }
  return h;
}

// ---- receive: limb status ----

struct MotorReading {
  std::uint16_t name = 0;
  float pos = 0, speed = 0, current = 0, temperature = 0;
  std::uint32_t error = 0;  // 0 in the layout without error
  float voltage = 0;        // NaN unless the layout has it
};

// One rt/<limb>/status sample, fixed-size.
struct LimbStatus {
  transport::BoundedSequence<MotorReading, k_max_limb_motors> motors;
};

// Whether `status` is a complete, well-formed report of limb L of model M: nullptr if so, otherwise
// why not. Elements may name motors of the limb's MotorName range the model does not drive (the
// Lite's arm topic may carry wrist motors); those are ignored.
template <TienkungModel M, Limb L>
[[nodiscard]] const char* check_limb_status(const LimbStatus& status) {
  constexpr const LimbSpec* limb = find_limb<M>(L);
  static_assert(has_limb<M>(L), "check_limb_status: the model has no such limb");
  std::array<bool, M::joint_count> seen{};
  std::size_t found = 0;
  for (std::uint32_t k = 0; k < status.motors.size; ++k) {
    const MotorReading& m = status.motors[k];
    if (!detail::id_in_limb(m.name, L)) {
      return "MotorStatusMsg: an element names a motor that is not on this limb; a MotorStatus layout shorter than "
             "the robot's misreads the names this way (check the backend's StatusLayout) - or a wrong topic";
    }
    for (std::uint32_t i = 0; i < k; ++i) {
      if (status.motors[i].name == m.name) return "MotorStatusMsg: a motor is named twice";
    }
    if (!std::isfinite(m.pos) || !std::isfinite(m.speed) || !std::isfinite(m.current) ||
        !std::isfinite(m.temperature)) {
      return "MotorStatusMsg: a position, speed, current or temperature is not finite";
    }
    const std::size_t j = joint_of_motor<M>(m.name);
    if (j < limb->first || j >= limb->first + limb->count) continue;  // a motor the model does not drive
    if (!seen[j]) ++found;
    seen[j] = true;
  }
  if (found != limb->count) return "MotorStatusMsg: a motor of the limb is missing";
  return nullptr;
}

// On Cyclone's thread: the wire sample into a LimbStatus, checked.
template <TienkungModel M, Limb L, StatusLayout Layout>
const char* limb_status_from_wire(const typename StatusWire<Layout>::Message& in, LimbStatus& out) {
  if (in.status._length > k_max_limb_motors) return "MotorStatusMsg: more elements than a limb has motors";
  for (std::uint32_t k = 0; k < in.status._length; ++k) {
    const auto& e = in.status._buffer[k];
    MotorReading& m = out.motors[k];
    m.name = e.name;
    m.pos = e.pos;
    m.speed = e.speed;
    m.current = e.current;
    m.temperature = e.temperature;
    m.error = 0;
    m.voltage = std::numeric_limits<float>::quiet_NaN();
    if constexpr (Layout != StatusLayout::without_error) m.error = e.error;
    if constexpr (Layout == StatusLayout::with_voltage) {
      if (!std::isfinite(e.voltage) || e.voltage < 0.0f) {
        return "MotorStatusMsg: a voltage is negative or not finite (is the robot's layout really with_voltage?)";
      }
      m.voltage = e.voltage;
    }
  }
  out.motors.size = in.status._length;
  return check_limb_status<M, L>(out);
}

// On the thread that reads: the limb's joints from a checked status (checked again: a loopback
// peer hands the value over directly). False changes nothing.
template <TienkungModel M, Limb L>
bool decode_limb_status(const LimbStatus& in, RobotState<M::joint_count>& out) {
  if (check_limb_status<M, L>(in) != nullptr) return false;
  for (const MotorReading& m : in.motors.view()) {
    const std::size_t j = joint_of_motor<M>(m.name);
    if (j == M::joint_count) continue;
    const auto i = static_cast<Eigen::Index>(j);
    out.q[i] = m.pos;
    out.dq[i] = m.speed;
    out.tau[i] = static_cast<double>(m.current) * M::ct_scale[j];
    out.health[j] = health_from_error(m.error, m.temperature);
  }
  return true;
}

// ---- receive: IMU ----

struct ImuReading {
  std::array<double, 4> orientation{0, 0, 0, 1};  // x, y, z, w: body to world
  std::array<double, 3> gyro{};                   // rad/s
  std::array<double, 3> accelerometer{};          // m/s^2
  std::uint32_t error = 0;
};

namespace detail {
// A rotation quaternion's norm this far from 1 is not a rotation (an unset or misread sample).
inline constexpr double k_quaternion_norm_tolerance = 0.1;

[[nodiscard]] inline const char* check_imu(const ImuReading& r) {
  const auto finite = [](const auto& a) { return std::all_of(a.begin(), a.end(), [](double x) { return std::isfinite(x); }); };
  if (!finite(r.orientation) || !finite(r.gyro) || !finite(r.accelerometer)) return "Imu: a value is not finite";
  const auto& q = r.orientation;
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (std::abs(norm - 1.0) > k_quaternion_norm_tolerance) return "Imu: the orientation is not a unit quaternion";
  if (r.error != 0) return "Imu: the IMU reports an error";
  return nullptr;
}
}  // namespace detail

inline const char* imu_from_wire(const ImuWire& in, ImuReading& out) {
  out.orientation = {in.orientation.x, in.orientation.y, in.orientation.z, in.orientation.w};
  out.gyro = {in.angular_velocity.x, in.angular_velocity.y, in.angular_velocity.z};
  out.accelerometer = {in.linear_acceleration.x, in.linear_acceleration.y, in.linear_acceleration.z};
  out.error = in.error;
  return detail::check_imu(out);
}

// An IMU reporting an error is not used (the previous reading stays): false.
template <std::size_t N>
bool decode_imu(const ImuReading& in, RobotState<N>& out) {
  if (detail::check_imu(in) != nullptr) return false;
  const auto& q = in.orientation;
  out.imu.orientation = Quaternion(q[3], q[0], q[1], q[2]).normalized();
  out.imu.gyro = Vector3(in.gyro[0], in.gyro[1], in.gyro[2]);
  out.imu.accelerometer = Vector3(in.accelerometer[0], in.accelerometer[1], in.accelerometer[2]);
  out.update_derived();
  return true;
}

// ---- send ----

// ROS time stamps are wall-clock time.
struct RosStamp {
  std::int32_t sec = 0;
  std::uint32_t nanosec = 0;
};
[[nodiscard]] inline RosStamp ros_now() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return {static_cast<std::int32_t>(ns / 1'000'000'000), static_cast<std::uint32_t>(ns % 1'000'000'000)};
}

// How JointMode::position goes out: the hybrid mode (cmd_ctrl: praxis' PD law, its gains) or the
// motor's position servo (cmd_pos: a target with a speed and a current limit, the robot's own loop
// and gains; what the vendor's tools use to pose the robot and to zero the waist).
enum class PositionCommand : std::uint8_t { hybrid, servo };

// The unit of every speed on the wire (MotorStatus.speed, MotorCtrl.spd, SetMotorSpeed.spd,
// SetMotorPosition.spd): rad/s per the arm manual and the ROS 2 users, rpm per a ROS 1 comment
// (UNVERIFIED). praxis speaks rad/s; the codec converts at the wire.
enum class SpeedUnit : std::uint8_t { rad_per_s, rpm };

// Wire units per rad/s.
[[nodiscard]] constexpr float wire_speed_per_rad_s(SpeedUnit u) {
  return u == SpeedUnit::rpm ? static_cast<float>(60.0 / (2.0 * std::numbers::pi)) : 1.0f;
}

struct ServoLimits {
  float speed = 0.3f;    // SetMotorPosition.spd: rad/s per the arm manual, rpm per a ROS 1 comment (UNVERIFIED)
  float current = 3.0f;  // A; 0.3 / 3 are the deploy configuration's waist-zeroing values
};

// One limb's cmd_ctrl / cmd_vel / cmd_pos, fixed-size.
struct LimbCtrl {
  RosStamp stamp;
  transport::BoundedSequence<MotorCtrlWire, k_max_limb_motors> cmds;
};
struct LimbSpeed {
  RosStamp stamp;
  transport::BoundedSequence<SetMotorSpeedWire, k_max_limb_motors> cmds;
};
struct LimbPosition {
  RosStamp stamp;
  transport::BoundedSequence<SetMotorPositionWire, k_max_limb_motors> cmds;
};

// The hybrid-mode message of limb L: its joints in position mode (kp, kd, q, dq, tau_ff), torque
// mode (gains 0, tau_ff) and disabled (everything 0: no torque; leaving the joint out would leave
// the motor on its last target). False when none of the limb's joints is in those modes.
template <TienkungModel M, Limb L>
bool encode_limb_ctrl(const JointCommand<M::joint_count>& c, LimbCtrl& out,
                      PositionCommand position = PositionCommand::hybrid, float speed_scale = 1.0f,
                      const VelocityStops<M::joint_count>* stops = nullptr) {
  constexpr const LimbSpec* limb = find_limb<M>(L);
  static_assert(has_limb<M>(L), "encode_limb_ctrl: the model has no such limb");
  out.cmds.size = 0;
  for (std::size_t j = limb->first; j < limb->first + limb->count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    // A joint whose first speed 0 goes out in this write gets its cmd_ctrl in the next one.
    if (stops != nullptr && stops->first_zero(j)) continue;
    MotorCtrlWire m{};
    m.name = M::motor_ids[j];
    switch (c.mode[j]) {
      case JointMode::position:
        if (position == PositionCommand::servo) continue;  // cmd_pos's
        m.kp = static_cast<float>(c.kp[i]);
        m.kd = static_cast<float>(c.kd[i]);
        m.pos = static_cast<float>(c.q[i]);
        m.spd = static_cast<float>(c.dq[i]) * speed_scale;
        m.tor = static_cast<float>(c.tau_ff[i]);
        break;
      case JointMode::torque:
        m.tor = static_cast<float>(c.tau_ff[i]);
        break;
      case JointMode::disabled:
        break;
      case JointMode::velocity:  // cmd_vel's
      case JointMode::none:      // the robot's own controller keeps it
        continue;
    }
    out.cmds[out.cmds.size++] = m;
  }
  if (out.cmds.size == 0) return false;
  out.stamp = ros_now();
  return true;
}

// The velocity-mode message of limb L: its joints in velocity mode with their speed, and speed 0
// for every joint that left velocity mode (damping took over, the command stopped covering it, it
// was disabled) until the limb's status confirms it stopped (velocity_stops.hpp: a motor keeps
// turning until speed 0 reaches it, and one sent while the motor was offline is lost). A command
// covering no joint at all therefore keeps stopping every joint not yet confirmed (the backend's
// stop). `wall` is Clock::now(). False when there is nothing to send.
template <TienkungModel M, Limb L>
bool encode_limb_speed(const JointCommand<M::joint_count>& c, VelocityStops<M::joint_count>& stops, TimePoint wall,
                       LimbSpeed& out, float speed_scale = 1.0f) {
  constexpr const LimbSpec* limb = find_limb<M>(L);
  static_assert(has_limb<M>(L), "encode_limb_speed: the model has no such limb");
  out.cmds.size = 0;
  for (std::size_t j = limb->first; j < limb->first + limb->count; ++j) {
    float speed = 0.0f;
    if (!stops.next(j, c.mode[j] == JointMode::velocity, static_cast<float>(c.dq[static_cast<Eigen::Index>(j)]), wall,
                    speed)) {
      continue;
    }
    out.cmds[out.cmds.size++] = SetMotorSpeedWire{M::motor_ids[j], speed * speed_scale, limb->velocity_current_limit};
  }
  if (out.cmds.size == 0) return false;
  out.stamp = ros_now();
  return true;
}

// The position-servo message of limb L (PositionCommand::servo): its joints in position mode, each
// with the target and the configured limits (a joint's kp / kd are the robot's own here). False
// when none of the limb's joints is in position mode.
template <TienkungModel M, Limb L>
bool encode_limb_position(const JointCommand<M::joint_count>& c, const ServoLimits& limits, LimbPosition& out,
                          float speed_scale = 1.0f) {
  constexpr const LimbSpec* limb = find_limb<M>(L);
  static_assert(has_limb<M>(L), "encode_limb_position: the model has no such limb");
  out.cmds.size = 0;
  for (std::size_t j = limb->first; j < limb->first + limb->count; ++j) {
    if (c.mode[j] != JointMode::position) continue;
    out.cmds[out.cmds.size++] = SetMotorPositionWire{M::motor_ids[j], static_cast<float>(c.q[static_cast<Eigen::Index>(j)]),
                                                     limits.speed * speed_scale, limits.current};
  }
  if (out.cmds.size == 0) return false;
  out.stamp = ros_now();
  return true;
}

namespace detail {
// Header: the stamp, and an empty frame_id lent from `frame`.
template <class Header>
void fill_header(Header& h, const RosStamp& stamp, std::array<char, 1>& frame) {
  h.stamp.sec = stamp.sec;
  h.stamp.nanosec = stamp.nanosec;
  frame[0] = '\0';
  h.frame_id = frame.data();
}
}  // namespace detail

// transport::EncodingPublisher's encoders: the sequences point at storage owned here, allocated once.
class CtrlToWire {
 public:
  bool operator()(const LimbCtrl& v, CmdMotorCtrlWire& out) {
    detail::fill_header(out.header, v.stamp, frame_);
    return transport::lend(out.cmds, std::span<MotorCtrlWire>(cmds_), v.cmds);
  }

 private:
  std::array<MotorCtrlWire, k_max_limb_motors> cmds_{};
  std::array<char, 1> frame_{};
};

class SpeedToWire {
 public:
  bool operator()(const LimbSpeed& v, CmdSetMotorSpeedWire& out) {
    detail::fill_header(out.header, v.stamp, frame_);
    return transport::lend(out.cmds, std::span<SetMotorSpeedWire>(cmds_), v.cmds);
  }

 private:
  std::array<SetMotorSpeedWire, k_max_limb_motors> cmds_{};
  std::array<char, 1> frame_{};
};

class PositionToWire {
 public:
  bool operator()(const LimbPosition& v, CmdSetMotorPositionWire& out) {
    detail::fill_header(out.header, v.stamp, frame_);
    return transport::lend(out.cmds, std::span<SetMotorPositionWire>(cmds_), v.cmds);
  }

 private:
  std::array<SetMotorPositionWire, k_max_limb_motors> cmds_{};
  std::array<char, 1> frame_{};
};

}  // namespace praxis::tienkung
