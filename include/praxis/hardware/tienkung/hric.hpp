#pragma once
// Walker Tienkung's own motion controller (HRIC) on the wire: the walk-mode service, the motion
// status and the velocity command, as ROS 2 puts them on raw DDS (idl/tienkung/hric_msgs.idl).
//
//   rq/hric/motion/set_motion_modeRequest, rr/...Reply   hric_msgs/srv/SetMotionMode
//   rt/hric/motion/status                                hric_msgs/msg/MotionStatus
//   rt/hric/robot/cmd_vel                                geometry_msgs/TwistStamped
//
// A ROS 2 service is two topics, and how a request is matched to its reply depends on the robot's
// ROS middleware (UNVERIFIED on the robot: Humble's default is rmw_fastrtps), so it is an option:
//   ServiceWire::fastrtps    the payload alone; the server replies with the request's RTPS sample
//                            identity in the reply's inline QoS, which Cyclone's API does not show.
//                            praxis makes one call at a time and drops older replies before each
//                            call, so the reply that comes is taken as the call's.
//   ServiceWire::cyclonedds  a 16-byte header (client id, sequence number) ahead of the payload,
//                            echoed in the reply and matched on (rmw_cyclonedds' cdds_request_header_t).
//
// Two facts disagree in the public sources and are options too: what MotionStatus'
// is_console_control = true means (the message's comment: the remote steers; a program written
// against the robot: a program steers), ConsoleMeaning.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <praxis/idl/hric_msgs.h>

#include "praxis/core/clock.hpp"
#include "praxis/transport/rpc.hpp"

namespace praxis::tienkung {

// MotionStatus.walk_mode: what the controller is doing.
enum class WalkMode : std::uint8_t {
  stop = 0,           // stopped stiff ("僵停")
  zero = 1,           // joints at the zero pose (hanging)
  zero_to_stand = 2,  // standing up from zero
  stand = 3,          // standing, balancing
  stand_to_walk = 4,  // starting to step
  walk = 5,           // stepping, steered by cmd_vel
  start = 6,
  run = 7,
};
inline constexpr int k_walk_modes = 8;

[[nodiscard]] constexpr std::string_view to_string(WalkMode m) {
  switch (m) {
    case WalkMode::stop: return "stop";
    case WalkMode::zero: return "zero";
    case WalkMode::zero_to_stand: return "zero-to-stand";
    case WalkMode::stand: return "stand";
    case WalkMode::stand_to_walk: return "stand-to-walk";
    case WalkMode::walk: return "walk";
    case WalkMode::start: return "start";
    case WalkMode::run: return "run";
  }
  return "?";
}
[[nodiscard]] inline std::string walk_mode_name(int m) {
  if (m < 0) return "not reported";
  if (m >= k_walk_modes) return "unknown mode " + std::to_string(m);
  return std::string(to_string(static_cast<WalkMode>(m))) + " (" + std::to_string(m) + ")";
}

// SetMotionMode.walk_mode_request: what praxis may ask for. praxis asks only for stand and walk:
// stop and zero take the balance from a standing robot, start and run are the operator's.
enum class ModeRequest : std::uint8_t { start = 0, stop = 1, zero = 2, stand = 3, walk = 4, run = 5 };

[[nodiscard]] constexpr std::string_view to_string(ModeRequest r) {
  switch (r) {
    case ModeRequest::start: return "start";
    case ModeRequest::stop: return "stop";
    case ModeRequest::zero: return "zero";
    case ModeRequest::stand: return "stand";
    case ModeRequest::walk: return "walk";
    case ModeRequest::run: return "run";
  }
  return "?";
}

enum class ServiceWire : std::uint8_t { fastrtps, cyclonedds };
[[nodiscard]] constexpr std::string_view to_string(ServiceWire w) {
  return w == ServiceWire::fastrtps ? "fastrtps" : "cyclonedds";
}

// Who steers while is_console_control is true.
enum class ConsoleMeaning : std::uint8_t {
  program_steers,  // true: a program (navigation, praxis) steers; false: the remote does
  remote_steers,   // true: the remote steers (the message's own comment)
  ignore,          // do not judge from it
};

struct HricNames {
  std::string service_request = "rq/hric/motion/set_motion_modeRequest";
  std::string service_reply = "rr/hric/motion/set_motion_modeReply";
  std::string status = "rt/hric/motion/status";
  std::string cmd_vel = "rt/hric/robot/cmd_vel";
  std::string request_type = "hric_msgs::srv::dds_::SetMotionMode_Request_";
  std::string reply_type = "hric_msgs::srv::dds_::SetMotionMode_Response_";
  std::string status_type = "hric_msgs::msg::dds_::MotionStatus_";
  std::string cmd_vel_type = "geometry_msgs::msg::dds_::TwistStamped_";
};

struct HricOptions {
  HricNames names{};
  ServiceWire wire = ServiceWire::fastrtps;  // the robot's ROS middleware: UNVERIFIED (above)
  transport::TopicQos status_qos{.reliable = true, .depth = 10};
  transport::TopicQos cmd_vel_qos{.reliable = true, .depth = 10};
};

struct ModeReply {
  bool success = false;
  std::uint32_t error_code = 0;
};

// What MotionStatus said last (walk_mode -1: nothing yet), with its arrival time.
struct MotionReport {
  int walk_mode = -1;
  bool console_control = false;
  bool swing_arm = false;
  std::uint32_t error_code = 0;
  TimePoint at{};
};

// Whether, by `meaning`, a program may steer the robot now.
[[nodiscard]] constexpr bool program_may_steer(const MotionReport& r, ConsoleMeaning meaning) {
  switch (meaning) {
    case ConsoleMeaning::program_steers: return r.console_control;
    case ConsoleMeaning::remote_steers: return !r.console_control;
    case ConsoleMeaning::ignore: return true;
  }
  return false;
}

// ---- the service's envelopes, for transport::RpcClient ----
struct ModeCall {
  ModeRequest mode = ModeRequest::stand;
  bool swing_arms = false;
};

namespace detail {
// Fast DDS correlates by RTPS sample identity, which praxis cannot see: every reply matches.
struct Uncorrelated {
  friend constexpr bool operator==(Uncorrelated, Uncorrelated) { return true; }
};

// A client id for the cyclonedds header, one per process (rmw_cyclonedds uses its writer's
// instance handle; the server only echoes it).
[[nodiscard]] inline std::uint64_t hric_client_id() {
  static const std::uint64_t id = static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                                  0x7072617869730000ULL;  // "praxis"
  return id;
}
}  // namespace detail

struct FastRtpsModeTraits {
  using Request = hric_msgs_srv_dds__SetMotionMode_Request_;
  using Response = hric_msgs_srv_dds__SetMotionMode_Response_;
  using Call = ModeCall;
  using Reply = ModeReply;
  using Id = detail::Uncorrelated;
  static Id make_id(std::int64_t) { return {}; }
  static const dds_topic_descriptor_t* request_descriptor() { return &hric_msgs_srv_dds__SetMotionMode_Request__desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &hric_msgs_srv_dds__SetMotionMode_Response__desc; }
  static void fill(Request& r, const Call& c, const Id&) {
    r.walk_mode_request = static_cast<std::uint8_t>(c.mode);
    r.is_need_swing_arm = c.swing_arms;
  }
  static Id id_of(const Response&) { return {}; }
  static Reply reply_of(const Response& r) { return {r.success, r.error_code}; }
};

struct CycloneModeTraits {
  using Request = hric_msgs_cyclone_SetMotionMode_Request_;
  using Response = hric_msgs_cyclone_SetMotionMode_Response_;
  using Call = ModeCall;
  using Reply = ModeReply;
  static const dds_topic_descriptor_t* request_descriptor() { return &hric_msgs_cyclone_SetMotionMode_Request__desc; }
  static const dds_topic_descriptor_t* response_descriptor() { return &hric_msgs_cyclone_SetMotionMode_Response__desc; }
  static void fill(Request& r, const Call& c, std::int64_t id) {
    r.client_id = detail::hric_client_id();
    r.sequence_number = id;
    r.walk_mode_request = static_cast<std::uint8_t>(c.mode);
    r.is_need_swing_arm = c.swing_arms;
  }
  static std::int64_t id_of(const Response& r) {
    return r.client_id == detail::hric_client_id() ? r.sequence_number : -1;  // another client's reply
  }
  static Reply reply_of(const Response& r) { return {r.success, r.error_code}; }
};

}  // namespace praxis::tienkung
