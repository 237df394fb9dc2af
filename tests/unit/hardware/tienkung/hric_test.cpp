// Unit tests for include/praxis/hardware/tienkung/hric.hpp: the Tienkung motion controller's (HRIC)
// numbers and names on raw DDS, who may steer by each reading of is_console_control, and the
// SetMotionMode envelopes of both ROS 2 middlewares. Fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md): B.3 (the hric topics and walk_mode_request values),
// B.7 (ROS 2 names on DDS: rt/, rq/...Request, rr/...Reply, <pkg>::msg::dds_::<Type>_), B.5 (rclcpp's
// QoS: reliable, volatile, depth 10).

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <praxis/idl/hric_msgs.h>

#include "praxis/hardware/tienkung/hric.hpp"

namespace tienkung_hric_test {

namespace tk = praxis::tienkung;

TEST_CASE("tienkung hric: walk_mode_request numbers of B.3 and the walk modes by name", "[tienkung][hric]") {
  // B.3: walk_mode_request 1 stop, 2 zero, 3 stand, 4 step in place, 5 run in place.
  CHECK(static_cast<int>(tk::ModeRequest::stop) == 1);
  CHECK(static_cast<int>(tk::ModeRequest::zero) == 2);
  CHECK(static_cast<int>(tk::ModeRequest::stand) == 3);
  CHECK(static_cast<int>(tk::ModeRequest::walk) == 4);
  CHECK(static_cast<int>(tk::ModeRequest::run) == 5);
  CHECK(tk::to_string(tk::ModeRequest::walk) == "walk");
  CHECK(tk::to_string(static_cast<tk::ModeRequest>(9)) == "?");

  CHECK(static_cast<int>(tk::WalkMode::stand) == 3);
  CHECK(static_cast<int>(tk::WalkMode::walk) == 5);
  CHECK(tk::walk_mode_name(-1) == "not reported");
  CHECK(tk::walk_mode_name(0) == "stop (0)");
  CHECK(tk::walk_mode_name(2) == "zero-to-stand (2)");
  CHECK(tk::walk_mode_name(7) == "run (7)");
  CHECK(tk::walk_mode_name(tk::k_walk_modes) == "unknown mode 8");
  CHECK(tk::walk_mode_name(200) == "unknown mode 200");
  CHECK(tk::to_string(tk::ServiceWire::fastrtps) == "fastrtps");
  CHECK(tk::to_string(tk::ServiceWire::cyclonedds) == "cyclonedds");
}

TEST_CASE("tienkung hric: who may steer - by each reading of is_console_control", "[tienkung][hric]") {
  tk::MotionReport console;
  console.console_control = true;
  tk::MotionReport remote;
  remote.console_control = false;
  CHECK(tk::program_may_steer(console, tk::ConsoleMeaning::program_steers));
  CHECK_FALSE(tk::program_may_steer(remote, tk::ConsoleMeaning::program_steers));
  CHECK_FALSE(tk::program_may_steer(console, tk::ConsoleMeaning::remote_steers));
  CHECK(tk::program_may_steer(remote, tk::ConsoleMeaning::remote_steers));
  CHECK(tk::program_may_steer(console, tk::ConsoleMeaning::ignore));
  CHECK(tk::program_may_steer(remote, tk::ConsoleMeaning::ignore));
  CHECK(tk::MotionReport{}.walk_mode == -1);  // nothing reported yet
}

TEST_CASE("tienkung hric: the ROS 2 names on DDS and rclcpp's QoS by default", "[tienkung][hric]") {
  const tk::HricOptions o;
  // B.3 /hric/motion/set_motion_mode, /hric/motion/status, /hric/robot/cmd_vel, mapped as B.7 says.
  CHECK(o.names.service_request == "rq/hric/motion/set_motion_modeRequest");
  CHECK(o.names.service_reply == "rr/hric/motion/set_motion_modeReply");
  CHECK(o.names.status == "rt/hric/motion/status");
  CHECK(o.names.cmd_vel == "rt/hric/robot/cmd_vel");
  CHECK(o.names.request_type == "hric_msgs::srv::dds_::SetMotionMode_Request_");
  CHECK(o.names.reply_type == "hric_msgs::srv::dds_::SetMotionMode_Response_");
  CHECK(o.names.status_type == "hric_msgs::msg::dds_::MotionStatus_");
  CHECK(o.names.cmd_vel_type == "geometry_msgs::msg::dds_::TwistStamped_");
  CHECK(o.wire == tk::ServiceWire::fastrtps);  // Humble's default middleware
  CHECK(o.status_qos.reliable == true);
  CHECK(o.status_qos.depth == 10);
  CHECK_FALSE(o.status_qos.transient_local);
  CHECK(o.cmd_vel_qos.reliable == true);
  CHECK(o.cmd_vel_qos.depth == 10);
  CHECK(std::string(tk::FastRtpsModeTraits::request_descriptor()->m_typename) == o.names.request_type);
  CHECK(std::string(tk::FastRtpsModeTraits::response_descriptor()->m_typename) == o.names.reply_type);
}

TEST_CASE("tienkung hric: the fastrtps envelope is the payload alone and takes any reply", "[tienkung][hric]") {
  tk::FastRtpsModeTraits::Request request{};
  tk::FastRtpsModeTraits::fill(request, tk::ModeCall{tk::ModeRequest::walk, true}, tk::FastRtpsModeTraits::make_id(5));
  CHECK(request.walk_mode_request == 4);
  CHECK(request.is_need_swing_arm);
  tk::FastRtpsModeTraits::Response response{};
  response.success = false;
  response.error_code = 12;
  CHECK(tk::FastRtpsModeTraits::id_of(response) == tk::FastRtpsModeTraits::make_id(99));
  const auto reply = tk::FastRtpsModeTraits::reply_of(response);
  CHECK_FALSE(reply.success);
  CHECK(reply.error_code == 12);
}

TEST_CASE("tienkung hric: the cyclonedds envelope carries this process' id and the call's number and matches on them",
          "[tienkung][hric]") {
  tk::CycloneModeTraits::Request request{};
  tk::CycloneModeTraits::fill(request, tk::ModeCall{tk::ModeRequest::stand, false}, 41);
  CHECK(request.walk_mode_request == 3);
  CHECK_FALSE(request.is_need_swing_arm);
  CHECK(request.sequence_number == 41);
  CHECK(request.client_id == tk::detail::hric_client_id());
  CHECK(tk::detail::hric_client_id() == tk::detail::hric_client_id());  // one id per process

  tk::CycloneModeTraits::Response mine{};
  mine.client_id = request.client_id;
  mine.sequence_number = 41;
  mine.success = true;
  CHECK(tk::CycloneModeTraits::id_of(mine) == 41);
  CHECK(tk::CycloneModeTraits::reply_of(mine).success);
  tk::CycloneModeTraits::Response theirs = mine;
  theirs.client_id = request.client_id + 1;  // another client's call with the same number
  CHECK(tk::CycloneModeTraits::id_of(theirs) == -1);
}

}  // namespace tienkung_hric_test
