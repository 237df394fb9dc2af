// Unit tests for include/praxis/hardware/tienkung/walking_backend.hpp: a Tienkung walking under its
// own motion controller (HRIC) owns no joint of praxis', and acquire() refuses, naming why, every
// robot praxis may not steer: no status, no MotionStatus, the remote steering, a controller in zero
// or stop, no SetMotionMode service. Over Cyclone DDS against a raw C-API robot that streams limb
// statuses, the IMU and MotionStatus (no service: the walking itself is the integration test's,
// tests/integration/tienkung_walking_dds_test.cpp). Fact sheet
// (/work/shared/vendors/aurora-and-tienkung.md): B.3 (the hric topics), B.7 (names on DDS).

#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include <dds/dds.h>

#include <praxis/idl/bodyctrl_msgs.h>
#include <praxis/idl/hric_msgs.h>

#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/tienkung/walking_backend.hpp"

namespace tienkung_walking_backend_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
using tk::Limb;
using tk::Lite;
using Walking = tk::WalkingBackend<Lite>;
constexpr std::size_t L = Lite::joint_count;

static_assert(praxis::HasLifecycle<Walking>);
static_assert(praxis::HasLocomotion<Walking> && praxis::HasModes<Walking>);
// No limb command topic exists at all.
static_assert(std::tuple_size_v<decltype(tk::StateOnlyTopics<Lite, tk::StatusLayout::with_error>::command_topics(
                  tk::BackendOptions{}))> == 0);

std::uint32_t test_domain() { return 8 + static_cast<std::uint32_t>(::getpid() % 2); }
// Tests sharing a domain (the other Tienkung tests, a parallel run) must not hear each other.
std::string unique_prefix() { return "rt/wb" + std::to_string(::getpid()) + "/"; }

// A Lite that streams its leg and arm statuses, the IMU and a MotionStatus every 5 ms.
class RawWalker {
 public:
  // What MotionStatus says from its first sample on: walk_mode and is_console_control.
  RawWalker(std::uint32_t domain, const std::string& prefix, bool with_motion_status,
            tk::WalkMode mode = tk::WalkMode::stand, bool console = true)
      : participant_(dds_create_participant(domain, nullptr, nullptr)), mode_(mode), console_(console) {
    REQUIRE(participant_ > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 10);
    const auto writer = [&](const std::string& name, const dds_topic_descriptor_t* d) {
      const dds_entity_t t = dds_create_topic(participant_, d, (prefix + name).c_str(), nullptr, nullptr);
      REQUIRE(t > 0);
      const dds_entity_t w = dds_create_writer(participant_, t, qos, nullptr);
      REQUIRE(w > 0);
      return w;
    };
    leg_ = writer("leg/status", &bodyctrl_msgs_msg_dds__MotorStatusMsg__desc);
    arm_ = writer("arm/status", &bodyctrl_msgs_msg_dds__MotorStatusMsg__desc);
    imu_ = writer("imu/status", &bodyctrl_msgs_msg_dds__Imu__desc);
    if (with_motion_status) motion_ = writer("hric/motion/status", &hric_msgs_msg_dds__MotionStatus__desc);
    dds_delete_qos(qos);
    thread_ = std::thread([this] { loop(); });
  }
  ~RawWalker() {
    stop_ = true;
    thread_.join();
    dds_delete(participant_);
  }
  RawWalker(const RawWalker&) = delete;
  RawWalker& operator=(const RawWalker&) = delete;

 private:
  void status(dds_entity_t writer, Limb limb) {
    const tk::LimbSpec& spec = *tk::find_limb<Lite>(limb);
    std::vector<bodyctrl_msgs_msg_dds__MotorStatus_> m;
    for (std::size_t j = spec.first; j < spec.first + spec.count; ++j) {
      m.push_back({Lite::motor_ids[j], 0.01f * static_cast<float>(j), 0.0f, 2.0f, 36.0f, 0u});
    }
    const auto n = static_cast<std::uint32_t>(m.size());
    bodyctrl_msgs_msg_dds__MotorStatusMsg_ msg{};
    msg.header.frame_id = frame_.data();
    msg.status = {n, n, m.data(), false};
    dds_write(writer, &msg);
  }
  void loop() {
    while (!stop_) {
      status(arm_, Limb::arm);
      bodyctrl_msgs_msg_dds__Imu_ imu{};
      imu.header.frame_id = frame_.data();
      imu.orientation.w = 1.0;
      imu.linear_acceleration.z = 9.81;
      dds_write(imu_, &imu);
      if (motion_ > 0) {
        hric_msgs_msg_dds__MotionStatus_ s{};
        s.header.frame_id = frame_.data();
        s.walk_mode = static_cast<std::uint8_t>(mode_);
        s.is_console_control = console_;
        dds_write(motion_, &s);
      }
      status(leg_, Limb::leg);  // last: the primary topic finds the others merged
      std::this_thread::sleep_for(5ms);
    }
  }

  dds_entity_t participant_;
  dds_entity_t leg_ = 0, arm_ = 0, imu_ = 0, motion_ = 0;
  tk::WalkMode mode_;
  bool console_;
  std::array<char, 1> frame_{};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// The backend's options with every topic under `prefix`.
struct Setup {
  tk::BackendOptions backend;
  tk::HricOptions hric;
};
Setup setup(const std::string& prefix) {
  Setup s;
  s.backend.dds = {test_domain(), "lo"};
  for (std::size_t k = 0; k < tk::k_limb_kinds; ++k) {
    const std::string limb(tk::to_string(static_cast<Limb>(k)));
    s.backend.topics.limbs[k] = {prefix + limb + "/status", prefix + limb + "/cmd_ctrl", prefix + limb + "/cmd_vel",
                                 prefix + limb + "/cmd_pos"};
  }
  s.backend.topics.imu = prefix + "imu/status";
  s.hric.names.status = prefix + "hric/motion/status";
  s.hric.names.cmd_vel = prefix + "hric/robot/cmd_vel";
  s.hric.names.service_request = "rq/" + prefix.substr(3) + "hric/motion/set_motion_modeRequest";
  s.hric.names.service_reply = "rr/" + prefix.substr(3) + "hric/motion/set_motion_modeReply";
  return s;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("tienkung walking backend: owns no joint - hands back only what it asked for - the robot's safe state",
          "[tienkung][walking_backend]") {
  CHECK(Walking::safe_state == praxis::SafeState::mode_request);
  CHECK(Walking::capabilities.locomotion);
  CHECK(Walking::capabilities.modes);
  CHECK_FALSE(Walking::has_remote);
  const auto o = Walking::robot("eth0");
  CHECK(o.dds.domain == 0);  // ROS' default ROS_DOMAIN_ID (UNVERIFIED on the robot)
  CHECK(o.dds.interface == "eth0");
  CHECK(Walking::robot("eth0", 3).dds.domain == 3);

  const auto s = setup(unique_prefix());
  Walking robot(s.backend, tk::WalkingOptions{}, s.hric);
  CHECK(robot.hric().names.status == s.hric.names.status);
  praxis::JointCommand<L> c;
  robot.write(c, praxis::Clock::now());
  robot.write(c, praxis::Clock::now());
  CHECK(robot.commands_withheld() == 2);
  CHECK_FALSE(robot.controller_heard(praxis::Clock::now()));
  praxis::RobotStatus status;
  robot.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::idle);

  // Nothing was asked of the robot: release() leaves it as it was, at once.
  praxis::RobotRequests walk;
  walk.any = true;
  walk.mode = praxis::RobotMode::locomotion;
  robot.post(walk);  // not in control: dropped
  const auto released = robot.release(1s);
  CHECK(released.ok);
  CHECK(released.message == "no request in this run: the robot left as it was");
  CHECK(robot.walking().calls() == 0);
}

TEST_CASE("tienkung walking backend: acquire() refuses a robot praxis may not steer and says why",
          "[tienkung][walking_backend][dds]") {
  const std::string prefix = unique_prefix();
  const auto s = setup(prefix);
  SECTION("nothing published") {
    Walking robot(s.backend, tk::WalkingOptions{}, s.hric);
    const auto r = robot.acquire(200ms);
    CHECK_FALSE(r.ok);
    CHECK(r.stage == praxis::LifecycleStage::failed);
    CHECK(contains(r.message, "no valid status on " + prefix + "leg/status within 200 ms (domain " +
                                  std::to_string(test_domain())));
  }
  SECTION("statuses but no MotionStatus: HRIC is not running") {
    Walking robot(s.backend, tk::WalkingOptions{}, s.hric);
    RawWalker walker(test_domain(), prefix, false);
    const auto r = robot.acquire(1s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(contains(r.message, "no MotionStatus on " + prefix + "hric/motion/status within 1000 ms"));
  }
  SECTION("the remote steers, by the default reading of is_console_control") {
    Walking robot(s.backend, tk::WalkingOptions{}, s.hric);
    RawWalker walker(test_domain(), prefix, true, tk::WalkMode::stand, false);
    const auto r = robot.acquire(3s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(contains(r.message, "the remote steers the robot (" + prefix +
                                  "hric/motion/status: is_console_control = false, read as true: a program steers)"));
  }
  SECTION("the same flag read the other way round passes that check") {
    tk::WalkingOptions w;
    w.console = tk::ConsoleMeaning::remote_steers;
    Walking robot(s.backend, w, s.hric);
    RawWalker walker(test_domain(), prefix, true, tk::WalkMode::stand, false);
    const auto r = robot.acquire(1s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK_FALSE(contains(r.message, "the remote steers"));
    CHECK(contains(r.message, "no SetMotionMode service"));
  }
  SECTION("a controller in zero or stop is never stood up by praxis") {
    Walking robot(s.backend, tk::WalkingOptions{}, s.hric);
    RawWalker walker(test_domain(), prefix, true, tk::WalkMode::zero);
    const auto r = robot.acquire(3s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(contains(r.message, "the robot's motion controller is in zero (1): stand it up with the remote first"));
    CHECK(robot.walking().calls() == 0);
  }
  SECTION("standing, a program steering, but no SetMotionMode service") {
    tk::HricOptions hric = s.hric;
    hric.wire = tk::ServiceWire::cyclonedds;
    Walking robot(s.backend, tk::WalkingOptions{}, hric);
    RawWalker walker(test_domain(), prefix, true);
    const auto r = robot.acquire(1s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(contains(r.message, "no SetMotionMode service on rq/" + prefix.substr(3) +
                                  "hric/motion/set_motion_modeRequest / rr/" + prefix.substr(3) +
                                  "hric/motion/set_motion_modeReply within 1000 ms (hric.wire = cyclonedds"));
    // What it heard meanwhile counts: the controller is heard, the limbs' state arrives.
    CHECK(robot.controller_heard(praxis::Clock::now()));
    CHECK(robot.states_accepted() > 0);
    praxis::RobotStatus status;
    robot.read_status(status);
    CHECK(status.lifecycle == praxis::LifecycleStage::failed);
  }
}

}  // namespace tienkung_walking_backend_test
