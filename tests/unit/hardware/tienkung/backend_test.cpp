// TienkungBackend: one state assembled from the limb topics and the IMU, per-limb commands, the
// speed-0 guarantee of velocity mode, error codes and silent limbs as joint faults that send
// RobotController to damping, the lifecycle (the arm-zeroing guard itself: arm_zeroing_test.cpp). In
// process (loopback) and over real Cyclone DDS against a raw C-API robot (domains 8 and 9).

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <dds/dds.h>
#include <dds/ddsc/dds_opcodes.h>

#include <praxis/idl/bodyctrl_msgs.h>
#include <praxis/idl/std_msgs.h>

#include "../../../support/alloc_counter.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/tienkung/arm_zeroing.hpp"
#include "praxis/hardware/tienkung/backend.hpp"
#include "praxis/transport/loopback.hpp"
#include "../../../support/hold.hpp"

namespace tienkung_backend_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
using praxis::JointMode;
using tk::Limb;
using tk::Lite;
using tk::Pro;
using tk::StatusLayout;
using Loopback = praxis::transport::LoopbackTransport;

using LoopPro = tk::TienkungBackend<Pro, StatusLayout::with_error, Loopback>;
using DdsLite = tk::TienkungBackend<Lite>;
static_assert(praxis::Backend<LoopPro>);
static_assert(praxis::Backend<tk::TienkungBackend<Pro>>);
static_assert(praxis::HasLifecycle<LoopPro>);
static_assert(praxis::ReportsStatus<DdsLite>);
static_assert(praxis::WakesOnState<DdsLite>);
static_assert(praxis::joint_modes_of<LoopPro>().contains(JointMode::velocity));
constexpr std::size_t P = Pro::joint_count;

// A limb status of model M: joint j at q = base + 0.01 j, the given motors with an error code or
// a speed (others still).
template <class M>
tk::LimbStatus status_of(Limb limb, double base, const std::map<std::uint16_t, std::uint32_t>& errors = {},
                         const std::map<std::uint16_t, float>& speeds = {}) {
  const tk::LimbSpec& spec = *tk::find_limb<M>(limb);
  tk::LimbStatus s;
  for (std::size_t j = spec.first; j < spec.first + spec.count; ++j) {
    const std::uint16_t id = M::motor_ids[j];
    const auto e = errors.find(id);
    const auto v = speeds.find(id);
    s.motors[s.motors.size++] = {id, static_cast<float>(base + 0.01 * static_cast<double>(j)),
                                 v == speeds.end() ? 0.0f : v->second, 1.0f, 35.0f,
                                 e == errors.end() ? 0u : e->second, 0.0f};
  }
  return s;
}

tk::ImuReading level_imu() { return tk::ImuReading{{0, 0, 0, 1}, {0, 0, 0}, {0, 0, 9.81}, 0}; }

// The robot's side of the loopback wire for a Pro.
struct LoopRobot {
  explicit LoopRobot(praxis::transport::LoopbackBus& bus)
      : leg(bus, "rt/leg/status"),
        arm(bus, "rt/arm/status"),
        waist(bus, "rt/waist/status"),
        head(bus, "rt/head/status"),
        imu(bus, "rt/imu/status"),
        leg_ctrl(bus, "rt/leg/cmd_ctrl"),
        arm_ctrl(bus, "rt/arm/cmd_ctrl"),
        leg_vel(bus, "rt/leg/cmd_vel"),
        arm_vel(bus, "rt/arm/cmd_vel") {}
  void all(double base, const std::map<std::uint16_t, std::uint32_t>& errors = {},
           const std::map<std::uint16_t, float>& speeds = {}) {
    arm.write(status_of<Pro>(Limb::arm, base, errors, speeds));
    waist.write(status_of<Pro>(Limb::waist, base, errors, speeds));
    head.write(status_of<Pro>(Limb::head, base, errors, speeds));
    imu.write(level_imu());
    leg.write(status_of<Pro>(Limb::leg, base, errors, speeds));
  }
  praxis::transport::LoopbackPublisher<tk::LimbStatus> leg, arm, waist, head;
  praxis::transport::LoopbackPublisher<tk::ImuReading> imu;
  praxis::transport::LoopbackSubscriber<tk::LimbCtrl> leg_ctrl, arm_ctrl;
  praxis::transport::LoopbackSubscriber<tk::LimbSpeed> leg_vel, arm_vel;
};

praxis::JointCommand<P> none_command() {
  praxis::JointCommand<P> c;
  c.mode.fill(JointMode::none);
  return c;
}

TEST_CASE("tienkung backend: the limb topics and the IMU make one state: the legs' status makes it new",
          "[tienkung][backend]") {
  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});
  LoopRobot pro(bus);
  praxis::RobotState<P> s;
  const auto now = praxis::Clock::now();

  pro.arm.write(status_of<Pro>(Limb::arm, 0.5, {{13, 33073}}));
  pro.waist.write(status_of<Pro>(Limb::waist, 0.5));
  pro.head.write(status_of<Pro>(Limb::head, 0.5));
  CHECK_FALSE(robot.read(s, now));  // no leg status yet: no state
  pro.leg.write(status_of<Pro>(Limb::leg, 0.1));
  REQUIRE(robot.read(s, now));
  CHECK_FALSE(s.all_finite());  // no IMU heard yet: not a state to act on
  pro.imu.write(tk::ImuReading{{0, 0, std::sin(0.25), std::cos(0.25)}, {0, 0, 0.2}, {0, 0, 9.81}, 0});
  pro.leg.write(status_of<Pro>(Limb::leg, 0.1));
  REQUIRE(robot.read(s, now));
  CHECK(s.q[0] == Approx(0.1));                 // left_hip_roll, from rt/leg/status
  CHECK(s.q[12] == Approx(0.5 + 0.12));         // waist_yaw, from rt/waist/status
  CHECK(s.q[13] == Approx(0.5 + 0.13));         // motor 11, from rt/arm/status
  CHECK(s.q[29] == Approx(0.5 + 0.29));         // head_yaw, from rt/head/status
  CHECK(s.imu.rpy[2] == Approx(0.5));           // yaw from the IMU
  CHECK(s.imu.gyro[2] == Approx(0.2));
  // Motor 13 (left_shoulder_yaw, joint 15) reports its position out of range.
  CHECK(s.health[15].faults == praxis::k_joint_over_range);
  CHECK(s.health[15].error_code == 33073);
  CHECK(s.first_faulted_joint() == 15);
  CHECK_FALSE(robot.read(s, now));  // nothing new

  // A new arm status alone is merged into the next state, which the next leg status makes.
  pro.arm.write(status_of<Pro>(Limb::arm, 0.7));
  CHECK_FALSE(robot.read(s, now));
  pro.leg.write(status_of<Pro>(Limb::leg, 0.2));
  REQUIRE(robot.read(s, now));
  CHECK(s.q[13] == Approx(0.7 + 0.13));
  CHECK(s.q[0] == Approx(0.2));
  CHECK(s.first_faulted_joint() == P);

  // A leg status missing a motor is refused and counted; the state keeps the last good one.
  auto broken = status_of<Pro>(Limb::leg, 0.9);
  broken.motors.size = 11;
  pro.leg.write(broken);
  CHECK_FALSE(robot.read(s, now));
  CHECK(robot.states_rejected<0>() == 1);
  praxis::RobotStatus status;
  robot.read_status(status);
  CHECK(status.link.states_rejected == 1);
  CHECK(status.link.connected);
}

TEST_CASE("tienkung backend: a limb whose status stops is reported offline until it speaks again",
          "[tienkung][backend][faults]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.limb_timeout = 20ms;
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::RobotState<P> s;
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));
  CHECK(s.first_faulted_joint() == P);

  // Every topic but the head's speaks on, read every 2 ms, for 40 ms.
  const auto until = praxis::Clock::now() + 40ms;
  while (praxis::Clock::now() < until) {
    pro.arm.write(status_of<Pro>(Limb::arm, 0.0));
    pro.waist.write(status_of<Pro>(Limb::waist, 0.0));
    pro.imu.write(level_imu());
    pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
    REQUIRE(robot.read(s, praxis::Clock::now()));
    std::this_thread::sleep_for(2ms);
  }
  pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
  REQUIRE(robot.read(s, praxis::Clock::now()));
  for (std::size_t j = 27; j < 30; ++j) CHECK(s.health[j].faults == praxis::k_joint_offline);
  CHECK(s.first_faulted_joint() == 27);
  CHECK(s.health[13].ok());

  pro.head.write(status_of<Pro>(Limb::head, 0.0));
  pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
  REQUIRE(robot.read(s, praxis::Clock::now()));
  CHECK(s.first_faulted_joint() == P);
  CHECK(s.all_finite());
}

TEST_CASE("tienkung backend: an IMU that stops makes the state invalid until it speaks again",
          "[tienkung][backend][faults]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.limb_timeout = 200ms;  // only the IMU's silence matters here
  options.imu_timeout = 20ms;
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::RobotState<P> s;
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));
  REQUIRE(s.all_finite());

  // The legs speak on, read every 2 ms, for 40 ms; the IMU does not.
  const auto until = praxis::Clock::now() + 40ms;
  while (praxis::Clock::now() < until) {
    pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
    REQUIRE(robot.read(s, praxis::Clock::now()));
    std::this_thread::sleep_for(2ms);
  }
  pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
  REQUIRE(robot.read(s, praxis::Clock::now()));
  CHECK_FALSE(s.all_finite());  // SafetyMonitor: invalid state, damping
  CHECK(s.first_faulted_joint() == P);

  pro.imu.write(level_imu());
  pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
  REQUIRE(robot.read(s, praxis::Clock::now()));
  CHECK(s.all_finite());
  CHECK(s.projected_gravity.z() == Approx(-1.0));
}

// The control thread held up (or the whole link paused) for longer than every timeout: the legs'
// status is taken first, but the others' samples that came meanwhile wait in the same read. Judged
// before they were taken, every limb would be offline and the IMU NaN: a fault on a robot whose
// every topic is alive.
TEST_CASE("tienkung backend: a read held up longer than the timeouts finds every topic that spoke meanwhile alive",
          "[tienkung][backend][faults]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.limb_timeout = 20ms;
  options.imu_timeout = 20ms;
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::RobotState<P> s;
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));
  REQUIRE(s.first_faulted_joint() == P);

  std::this_thread::sleep_for(60ms);
  pro.leg.write(status_of<Pro>(Limb::leg, 0.1));  // the legs first, as after a pause
  pro.arm.write(status_of<Pro>(Limb::arm, 0.1));
  pro.waist.write(status_of<Pro>(Limb::waist, 0.1));
  pro.head.write(status_of<Pro>(Limb::head, 0.1));
  pro.imu.write(level_imu());
  REQUIRE(robot.read(s, praxis::Clock::now()));
  CHECK(s.first_faulted_joint() == P);
  CHECK(s.all_finite());
  CHECK(s.q[29] == Approx(0.1 + 0.29));  // the head's new sample is in this state
}

TEST_CASE("tienkung backend: each limb's topics get only that limb's joints", "[tienkung][backend][command]") {
  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});
  LoopRobot pro(bus);
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  praxis::transport::Stamped<tk::LimbSpeed> vel{};
  praxis::RobotState<P> s;

  auto arms = none_command();
  for (std::size_t j = 13; j < 27; ++j) {
    arms.mode[j] = JointMode::position;
    arms.q[static_cast<Eigen::Index>(j)] = 0.1;
    arms.kp[static_cast<Eigen::Index>(j)] = 20;
  }
  robot.write(arms, praxis::Clock::now());  // before any state: nothing
  CHECK_FALSE(pro.arm_ctrl.fetch(ctrl));
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));

  robot.write(arms, praxis::Clock::now());
  REQUIRE(pro.arm_ctrl.fetch(ctrl));
  REQUIRE(ctrl.message.cmds.size == 14);
  CHECK(ctrl.message.cmds[0].name == 11);
  CHECK(ctrl.message.cmds[13].name == 27);
  CHECK(ctrl.message.cmds[5].kp == 20.0f);
  CHECK_FALSE(pro.leg_ctrl.fetch(ctrl));
  CHECK_FALSE(pro.leg_vel.fetch(vel));
  CHECK_FALSE(pro.arm_vel.fetch(vel));
  CHECK(robot.commands_sent<LoopPro::vendor::ctrl_topic_index(2)>() == 1);  // the arms are the third limb
  CHECK(robot.commands_skipped<LoopPro::vendor::ctrl_topic_index(0)>() == 1);  // the legs' topic declined
}

// The robot's statuses every 2 ms from a thread of their own (what a robot does while release() or
// the destructor waits), the given motors with a speed or an error.
struct StatusFeeder {
  StatusFeeder(LoopRobot& robot, std::map<std::uint16_t, std::uint32_t> errors = {},
               std::map<std::uint16_t, float> speeds = {})
      : thread([&robot, errors = std::move(errors), speeds = std::move(speeds), this] {
          while (!stop.load()) {
            robot.all(0.0, errors, speeds);
            std::this_thread::sleep_for(2ms);
          }
        }) {}
  ~StatusFeeder() {
    stop = true;
    thread.join();
  }
  std::atomic<bool> stop{false};
  std::thread thread;
};

// The statuses are fresh for as long as a loaded machine may take between two lines of a test.
tk::BackendOptions patient_options() {
  tk::BackendOptions o;
  o.limb_timeout = 10s;
  o.link_timeout = 10s;
  o.imu_timeout = 10s;
  o.stop_confirm_time = 4ms;
  o.stop_timeout = 100ms;
  return o;
}

// Whether a cmd_ctrl sample carries motor `id`.
bool has_motor(const tk::LimbCtrl& m, std::uint16_t id) {
  for (const auto& c : m.cmds.view()) {
    if (c.name == id) return true;
  }
  return false;
}

TEST_CASE("tienkung backend: velocity mode is stopped with speed 0 by damping, release() and the destructor",
          "[tienkung][backend][velocity]") {
  praxis::transport::LoopbackBus bus;
  LoopRobot pro(bus);
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  praxis::transport::Stamped<tk::LimbSpeed> vel{};
  praxis::RobotState<P> s;
  auto spin = none_command();
  spin.mode[14] = JointMode::velocity;  // motor 12
  spin.dq[14] = 0.5;
  {
    LoopPro robot(bus, patient_options());
    pro.all(0.0);
    REQUIRE(robot.read(s, praxis::Clock::now()));

    robot.write(spin, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));
    REQUIRE(vel.message.cmds.size == 1);
    CHECK(vel.message.cmds[0].name == 12);
    CHECK(vel.message.cmds[0].spd == 0.5f);
    CHECK_FALSE(pro.arm_ctrl.fetch(ctrl));  // velocity goes on cmd_vel only
    CHECK(robot.turning_joints() == 1);

    // The runtime's damping replaces the command: cmd_vel gets speed 0 (the motor would otherwise
    // keep turning) - on every write, until a status that arrived after it shows the motor still
    // for stop_confirm_time - and cmd_ctrl holds the joint with kd from the write after the first
    // speed 0 (the arm's other joints get their damping at once).
    praxis::JointCommand<P> damping;
    praxis::damp_covered(damping, s.q, 2.0);
    robot.write(damping, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));
    REQUIRE(vel.message.cmds.size == 1);
    CHECK(vel.message.cmds[0].name == 12);
    CHECK(vel.message.cmds[0].spd == 0.0f);
    REQUIRE(pro.arm_ctrl.fetch(ctrl));
    CHECK_FALSE(has_motor(ctrl.message, 12));  // its damping frame waits a write
    CHECK(has_motor(ctrl.message, 11));
    CHECK(robot.zero_speeds_sent() == 1);
    CHECK(robot.turning_joints() == 1);  // sent, not yet confirmed
    robot.write(damping, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));  // again
    CHECK(vel.message.cmds[0].spd == 0.0f);
    REQUIRE(pro.arm_ctrl.fetch(ctrl));
    REQUIRE(has_motor(ctrl.message, 12));  // and now the damping frame
    CHECK(ctrl.message.cmds[1].name == 12);
    CHECK(ctrl.message.cmds[1].kp == 0.0f);
    CHECK(ctrl.message.cmds[1].kd == 2.0f);
    const auto confirm_by = praxis::Clock::now() + 5s;
    while (robot.turning_joints() > 0 && praxis::Clock::now() < confirm_by) {
      std::this_thread::sleep_for(2ms);
      pro.all(0.0);
      robot.read(s, praxis::Clock::now());
      robot.write(damping, praxis::Clock::now());
    }
    CHECK(robot.turning_joints() == 0);
    CHECK(robot.stops_confirmed() == 1);
    (void)pro.arm_vel.fetch(vel);
    robot.write(damping, praxis::Clock::now());
    CHECK_FALSE(pro.arm_vel.fetch(vel));  // confirmed: no more speed 0
    REQUIRE(pro.arm_ctrl.fetch(ctrl));    // while damping goes on

    // release() stops a turning joint and waits for its status to confirm it.
    pro.all(0.0);
    REQUIRE(robot.acquire(100ms).ok);
    robot.write(spin, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));
    {
      StatusFeeder feeder(pro);
      const auto released = robot.release(5s);
      CHECK(released.ok);
      CHECK_THAT(released.message, Catch::Contains("speed 0 sent to 1 joint") && Catch::Contains("confirmed"));
    }
    CHECK(robot.turning_joints() == 0);
    REQUIRE(pro.arm_vel.fetch(vel));
    CHECK(vel.message.cmds[0].name == 12);
    CHECK(vel.message.cmds[0].spd == 0.0f);
    CHECK_FALSE(pro.arm_ctrl.fetch(ctrl));  // nothing else: the stop is not a command for cmd_ctrl

    // And the destructor stops one turning when the backend goes.
    robot.write(spin, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));
    CHECK(vel.message.cmds[0].spd == 0.5f);
  }
  REQUIRE(pro.arm_vel.fetch(vel));
  CHECK(vel.message.cmds[0].name == 12);
  CHECK(vel.message.cmds[0].spd == 0.0f);
}

// A loopback transport that records the order in which the backend's publishers write.
struct RecordingBus : praxis::transport::LoopbackBus {
  std::vector<std::string> sent;
  std::ptrdiff_t position(const std::string& topic) const {
    const auto it = std::find(sent.begin(), sent.end(), topic);
    return it == sent.end() ? -1 : it - sent.begin();
  }
};
template <class T>
class RecordingPublisher {
 public:
  template <class Descriptor, class Qos>
  RecordingPublisher(RecordingBus& bus, std::string_view topic, Descriptor, Qos)
      : bus_(&bus), topic_(topic), inner_(bus, topic) {}
  bool write(const T& message) {
    bus_->sent.push_back(topic_);
    return inner_.write(message);
  }

 private:
  RecordingBus* bus_;
  std::string topic_;
  praxis::transport::LoopbackPublisher<T> inner_;
};
struct RecordingTransport {
  using Context = RecordingBus;
  template <class T>
  using Publisher = RecordingPublisher<T>;
  template <class T>
  using Subscriber = praxis::transport::LoopbackSubscriber<T>;
};
using RecordedPro = tk::TienkungBackend<Pro, StatusLayout::with_error, RecordingTransport>;

TEST_CASE("tienkung backend: in one write a limb's speed 0 leaves before its cmd_ctrl",
          "[tienkung][backend][velocity][order]") {
  // A motor latched in velocity mode keeps turning until speed 0 reaches it: the damping on
  // cmd_ctrl that replaces a velocity command must find the motor already told to stop.
  RecordingBus bus;
  RecordedPro robot(bus, patient_options());
  LoopRobot pro(bus);
  praxis::RobotState<P> s;
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));
  auto spin = none_command();
  spin.mode[14] = spin.mode[3] = JointMode::velocity;  // motor 12 (arm), motor 54 (leg)
  spin.dq[14] = 0.5;
  spin.dq[3] = -0.5;
  robot.write(spin, praxis::Clock::now());

  praxis::JointCommand<P> damping;
  praxis::damp_covered(damping, s.q, 2.0);
  praxis::transport::Stamped<tk::LimbCtrl> sent_ctrl{};
  for (int k = 0; k < 3; ++k) {  // the first speed 0, and its repeats until confirmed
    INFO("write " << k);
    bus.sent.clear();
    while (pro.arm_ctrl.fetch(sent_ctrl)) {
    }
    robot.write(damping, praxis::Clock::now());
    // DDS does not order two topics: the damping frame of a motor that was turning goes out a
    // write after its first speed 0, so that no reader takes it while the motor is latched.
    REQUIRE(pro.arm_ctrl.fetch(sent_ctrl));
    CHECK(has_motor(sent_ctrl.message, 12) == (k > 0));
    for (const char* limb : {"leg", "arm"}) {
      INFO(limb);
      const auto vel = bus.position("rt/" + std::string(limb) + "/cmd_vel");
      const auto ctrl = bus.position("rt/" + std::string(limb) + "/cmd_ctrl");
      REQUIRE(vel >= 0);
      REQUIRE(ctrl >= 0);
      CHECK(vel < ctrl);
    }
    CHECK(bus.position("rt/waist/cmd_vel") == -1);  // nothing to stop there
  }
  // The stop the hand-back repeats: speed 0, then the last command (the damping) on cmd_ctrl, so
  // the motor that takes the speed 0 takes the damping too rather than holding in velocity mode.
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  while (pro.arm_ctrl.fetch(ctrl)) {
  }
  bus.sent.clear();
  CHECK(robot.stop_turning_joints() == 2);
  CHECK(bus.position("rt/arm/cmd_vel") >= 0);
  CHECK(bus.position("rt/arm/cmd_vel") < bus.position("rt/arm/cmd_ctrl"));
  REQUIRE(pro.arm_ctrl.fetch(ctrl));
  CHECK(ctrl.message.cmds[1].name == 12);
  CHECK(ctrl.message.cmds[1].kp == 0.0f);
  CHECK(ctrl.message.cmds[1].kd == 2.0f);
}

TEST_CASE("tienkung backend: an offline motor keeps its pending stop, and gets it first when it comes back",
          "[tienkung][backend][velocity][faults]") {
  RecordingBus bus;
  tk::BackendOptions options = patient_options();
  LoopRobot pro(bus);
  praxis::transport::Stamped<tk::LimbSpeed> vel{};
  praxis::RobotState<P> s;
  auto spin = none_command();
  spin.mode[14] = JointMode::velocity;  // motor 12, left_shoulder_roll
  spin.dq[14] = 0.5;
  praxis::JointCommand<P> damping;
  const auto write_damping = [&](RecordedPro& robot) {
    bus.sent.clear();
    robot.write(damping, praxis::Clock::now());
  };
  {
    RecordedPro robot(bus, options);
    pro.all(0.0);
    REQUIRE(robot.acquire(1s).ok);
    praxis::damp_covered(damping, s.q, 2.0);
    robot.write(spin, praxis::Clock::now());
    REQUIRE(pro.arm_vel.fetch(vel));
    CHECK(vel.message.cmds[0].spd == 0.5f);

    // Motor 12 drops off the bus (33072, speed 0: nothing measured) and the command becomes
    // damping: its speed 0 goes out, is lost, and goes out again on every write.
    for (int k = 0; k < 20; ++k) {
      pro.all(0.0, {{12, 33072}});
      robot.read(s, praxis::Clock::now());
      write_damping(robot);
      REQUIRE(pro.arm_vel.fetch(vel));
      REQUIRE(vel.message.cmds.size == 1);
      CHECK(vel.message.cmds[0].name == 12);
      CHECK(vel.message.cmds[0].spd == 0.0f);
      std::this_thread::sleep_for(1ms);
    }
    CHECK(robot.turning_joints() == 1);  // not counted stopped
    CHECK(robot.stops_confirmed() == 0);
    CHECK(robot.zero_speeds_sent() >= 20);

    // release() while it is offline: the stop is not confirmed, and release says which joint.
    praxis::LifecycleResult released;
    {
      StatusFeeder offline(pro, {{12, 33072}});
      released = robot.release(50ms);
    }
    CHECK_FALSE(released.ok);
    CHECK_THAT(released.message, Catch::Contains("left_shoulder_roll (motor 12)"));
    CHECK(robot.turning_joints() == 1);

    // Back on the bus, turning at its latched speed: speed 0 is still what it gets, first.
    pro.all(0.0, {}, {{12, 0.5f}});
    robot.read(s, praxis::Clock::now());
    write_damping(robot);
    REQUIRE(pro.arm_vel.fetch(vel));
    CHECK(vel.message.cmds[0].name == 12);
    CHECK(vel.message.cmds[0].spd == 0.0f);
    CHECK(bus.position("rt/arm/cmd_vel") < bus.position("rt/arm/cmd_ctrl"));
    CHECK(robot.turning_joints() == 1);
    // It stops: confirmed after stop_confirm_time of still statuses, and then no more speed 0.
    const auto confirm_by = praxis::Clock::now() + 5s;
    while (robot.turning_joints() > 0 && praxis::Clock::now() < confirm_by) {
      std::this_thread::sleep_for(2ms);
      pro.all(0.0);
      robot.read(s, praxis::Clock::now());
      write_damping(robot);
    }
    CHECK(robot.turning_joints() == 0);
    CHECK(robot.stops_confirmed() == 1);
    write_damping(robot);
    CHECK(bus.position("rt/arm/cmd_vel") == -1);
    CHECK(bus.position("rt/arm/cmd_ctrl") >= 0);

    // Stopped while offline, never back: the destructor tries for stop_timeout, then gives up.
    robot.write(spin, praxis::Clock::now());
    pro.all(0.0, {{12, 33072}});
    robot.read(s, praxis::Clock::now());
  }
  REQUIRE(pro.arm_vel.fetch(vel));
  CHECK(vel.message.cmds[0].name == 12);
  CHECK(vel.message.cmds[0].spd == 0.0f);
}

TEST_CASE("tienkung backend: read() and write() allocate nothing, velocity stops included",
          "[tienkung][backend][allocation]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.stop_timeout = 20ms;  // the destructor's wait for stops nobody will confirm here
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::transport::Stamped<tk::LimbSpeed> vel{};
  praxis::RobotState<P> s;
  auto spin = none_command();
  spin.mode[0] = spin.mode[20] = JointMode::velocity;
  spin.dq[0] = spin.dq[20] = 0.3;
  praxis::JointCommand<P> damping;
  pro.all(0.0, {{13, 33072}});
  REQUIRE(robot.read(s, praxis::Clock::now()));
  praxis::damp_covered(damping, s.q, 2.0);
  robot.write(spin, praxis::Clock::now());  // first use of every path
  robot.write(damping, praxis::Clock::now());

  const auto arm = status_of<Pro>(Limb::arm, 0.0, {{13, 33072}});
  const auto before = praxis::test::thread_allocation_count();
  std::size_t states = 0;
  for (int k = 0; k < 2000; ++k) {
    pro.leg.write(status_of<Pro>(Limb::leg, 0.001 * k));  // no error map: nothing allocated
    if (k % 2 == 0) pro.arm.write(arm);
    states += robot.read(s, praxis::Clock::now()) ? 1 : 0;
    robot.write(k % 3 == 0 ? spin : damping, praxis::Clock::now());
  }
  CHECK(praxis::test::thread_allocation_count() - before == 0);
  CHECK(states == 2000);
  CHECK(robot.zero_speeds_sent() > 1000);  // every spin was followed by a stop
  REQUIRE(pro.arm_vel.fetch(vel));
}

TEST_CASE("tienkung backend: acquire() waits for every limb and the IMU and names what is missing",
          "[tienkung][backend][lifecycle]") {
  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});
  LoopRobot pro(bus);
  auto r = robot.acquire(50ms);
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("no valid status on rt/leg/status") != std::string::npos);

  pro.leg.write(status_of<Pro>(Limb::leg, 0.0));
  pro.arm.write(status_of<Pro>(Limb::arm, 0.0));
  r = robot.acquire(50ms);
  CHECK_FALSE(r.ok);
  CHECK(r.message.find("rt/waist/status, rt/head/status, rt/imu/status") != std::string::npos);
  praxis::RobotStatus status;
  robot.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::failed);

  pro.all(0.3);
  r = robot.acquire(200ms);
  REQUIRE(r.ok);
  robot.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::in_control);
  praxis::RobotState<P> s;
  REQUIRE(robot.read(s, praxis::Clock::now()));  // the state acquire() found is the loop's first
  CHECK(s.q[0] == Approx(0.3));
  CHECK(s.first_faulted_joint() == P);
  CHECK_FALSE(robot.acquire(50ms).ok);  // already in control
  CHECK(robot.release(50ms).ok);
}

// ---- through RobotController ----

// Gains kp 40 (the arms' cmd_ctrl check below counts on it).
struct HoldController : praxis::test::Hold<Pro> {
  HoldController() { kp = 40.0; }
};

// The Tienkung has no gamepad topic in this backend: the test holds the buttons, and stamps each
// state with the simulated clock the controller runs on. Everything else is the backend's.
struct PadBridge {
  using model = Pro;
  static constexpr praxis::JointModeSet joint_modes = LoopPro::joint_modes;
  LoopPro* robot;
  praxis::GamepadState pad{};
  bool read(praxis::RobotState<P>& s, praxis::TimePoint now) {
    if (!robot->read(s, now)) return false;
    s.gamepad = pad;
    s.stamp = now;
    return true;
  }
  void write(const praxis::JointCommand<P>& c, praxis::TimePoint now) { robot->write(c, now); }
};

praxis::TimePoint at(double seconds) { return praxis::TimePoint{} + praxis::from_seconds(seconds); }

TEST_CASE("tienkung backend: a motor reporting offline sends RobotController from CTRL to damping",
          "[tienkung][backend][faults][controller]") {
  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});
  LoopRobot pro(bus);
  PadBridge bridge{&robot};
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<PadBridge, HoldController> controller(bridge, options);
  std::map<std::uint16_t, std::uint32_t> errors;
  praxis::TimePoint now{};
  const auto run_until = [&](double seconds) {
    while (now < at(seconds)) {
      now += 2ms;
      const double t = praxis::to_seconds(now - praxis::TimePoint{});
      bridge.pad = {};
      bridge.pad.set(praxis::GamepadButton::R2, t >= 0.1 && t < 1.1);
      bridge.pad.set(praxis::GamepadButton::A, t >= 1.4 && t < 1.45);
      pro.all(0.0, errors);
      controller.step(now);
    }
  };
  run_until(1.6);
  REQUIRE(controller.state() == praxis::control::ControlState::ctrl);
  CHECK_FALSE(controller.safety().joint_fault);
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  REQUIRE(pro.arm_ctrl.fetch(ctrl));
  CHECK(ctrl.message.cmds[0].kp == 40.0f);  // HoldController's gains reach the arms' cmd_ctrl

  errors[22] = 33072;  // right_shoulder_roll (joint 21): device offline
  run_until(1.7);
  CHECK(controller.safety().joint_fault);
  CHECK(controller.safety().faulted_joint == 21);
  CHECK(controller.state() == praxis::control::ControlState::damping);
  REQUIRE(pro.arm_ctrl.fetch(ctrl));
  for (std::size_t k = 0; k < ctrl.message.cmds.size; ++k) CHECK(ctrl.message.cmds[k].kp == 0.0f);
  controller.flush();
  const auto t = controller.transitions();
  REQUIRE_FALSE(t.empty());
  CHECK(t.back().cause == praxis::motion::SelectionCause::joint_fault);

  // A motor fault code (encoder error) keeps it there, whatever the gamepad says.
  errors[22] = 8;
  run_until(2.0);
  CHECK(controller.state() == praxis::control::ControlState::damping);
}

// ---- over Cyclone DDS ----

// A Lite written against the Cyclone C API directly, its topics under `prefix` (so tests sharing a
// domain do not hear each other). Without type information in its descriptors (`announce_types`
// false) it announces its types the way rmw_fastrtps does, so readers match on the type name alone
// and decode whatever bytes arrive; `layout` is the MotorStatus it sends (always under the type
// name bodyctrl_msgs::msg::dds_::MotorStatusMsg_).
class RawLite {
 public:
  RawLite(std::uint32_t domain, bool announce_types, std::string prefix = "rt/",
          StatusLayout layout = StatusLayout::with_error)
      : participant_(dds_create_participant(domain, nullptr, nullptr)), layout_(layout) {
    REQUIRE(participant_ > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 10);
    const auto topic = [&](const char* name, const dds_topic_descriptor_t* d) {
      const std::string full = prefix + name;
      const dds_entity_t t =
          dds_create_topic(participant_, announce_types ? d : untyped(d), full.c_str(), nullptr, nullptr);
      REQUIRE(t > 0);
      return t;
    };
    const dds_topic_descriptor_t* status =
        layout == StatusLayout::with_error ? &bodyctrl_msgs_msg_dds__MotorStatusMsg__desc
                                           : &bodyctrl_msgs_layout_MotorStatusMsgNoError_desc;
    REQUIRE(layout != StatusLayout::with_voltage);
    leg_ = dds_create_writer(participant_, topic("leg/status", status), qos, nullptr);
    arm_ = dds_create_writer(participant_, topic("arm/status", status), qos, nullptr);
    imu_ = dds_create_writer(participant_, topic("imu/status", &bodyctrl_msgs_msg_dds__Imu__desc), qos, nullptr);
    arm_ctrl_ =
        dds_create_reader(participant_, topic("arm/cmd_ctrl", &bodyctrl_msgs_msg_dds__CmdMotorCtrl__desc), qos, nullptr);
    leg_vel_ =
        dds_create_reader(participant_, topic("leg/cmd_vel", &bodyctrl_msgs_msg_dds__CmdSetMotorSpeed__desc), qos, nullptr);
    set_zero_ = dds_create_reader(participant_, topic("arm/cmd_set_zero", &std_msgs_msg_dds__String__desc), qos, nullptr);
    dds_delete_qos(qos);
    REQUIRE((leg_ > 0 && arm_ > 0 && imu_ > 0 && arm_ctrl_ > 0 && leg_vel_ > 0 && set_zero_ > 0));
  }
  ~RawLite() { dds_delete(participant_); }
  RawLite(const RawLite&) = delete;
  RawLite& operator=(const RawLite&) = delete;

  bool wait_readers(praxis::Duration timeout = 5s) {
    const auto deadline = praxis::Clock::now() + timeout;
    while (praxis::Clock::now() < deadline) {
      if (matched_writer(leg_) && matched_writer(arm_) && matched_writer(imu_)) return true;
      std::this_thread::sleep_for(5ms);
    }
    return false;
  }
  bool wait_writers(praxis::Duration timeout = 5s) {
    const auto deadline = praxis::Clock::now() + timeout;
    while (praxis::Clock::now() < deadline) {
      if (matched_reader(arm_ctrl_) && matched_reader(leg_vel_)) return true;
      std::this_thread::sleep_for(5ms);
    }
    return false;
  }

  // Every motor of the limb, motor `error_motor` with `error`. No assertions here: the streamer
  // calls these from its own thread (Catch's assertions are for the test's thread).
  bool send_status(Limb limb, float base, std::uint16_t error_motor = 0, std::uint32_t error = 0) {
    const tk::LimbSpec& spec = *tk::find_limb<Lite>(limb);
    std::vector<bodyctrl_msgs_msg_dds__MotorStatus_> m;
    std::vector<bodyctrl_msgs_layout_MotorStatusNoError> short_m;
    for (std::size_t j = spec.first; j < spec.first + spec.count; ++j) {
      const std::uint16_t id = Lite::motor_ids[j];
      m.push_back({id, base + 0.01f * static_cast<float>(j), 0.0f, 2.0f, 36.0f, id == error_motor ? error : 0u});
      short_m.push_back({id, base + 0.01f * static_cast<float>(j), 0.0f, 2.0f, 36.0f});
    }
    const auto n = static_cast<std::uint32_t>(m.size());
    std::array<char, 1> frame{};
    const dds_entity_t writer = limb == Limb::leg ? leg_ : arm_;
    if (layout_ == StatusLayout::with_error) {
      bodyctrl_msgs_msg_dds__MotorStatusMsg_ msg{};
      msg.header.frame_id = frame.data();
      msg.status = {n, n, m.data(), false};
      return dds_write(writer, &msg) == DDS_RETCODE_OK;
    } else {
      bodyctrl_msgs_layout_MotorStatusMsgNoError msg{};
      msg.header.frame_id = frame.data();
      msg.status = {n, n, short_m.data(), false};
      return dds_write(writer, &msg) == DDS_RETCODE_OK;
    }
  }
  bool send_imu() {
    std::array<char, 1> frame{};
    bodyctrl_msgs_msg_dds__Imu_ imu{};
    imu.header.frame_id = frame.data();
    imu.orientation.w = 1.0;
    imu.linear_acceleration.z = 9.81;
    return dds_write(imu_, &imu) == DDS_RETCODE_OK;
  }

  // The next sample on a command reader within `timeout`, as (motor id, value) pairs: kp for
  // cmd_ctrl, spd for cmd_vel, the text for cmd_set_zero (id 0).
  std::vector<std::pair<std::uint16_t, float>> take_ctrl(praxis::Duration timeout = 2s) {
    return take<bodyctrl_msgs_msg_dds__CmdMotorCtrl_>(arm_ctrl_, timeout, [](const auto& s, auto& out) {
      for (std::uint32_t k = 0; k < s.cmds._length; ++k) out.emplace_back(s.cmds._buffer[k].name, s.cmds._buffer[k].kp);
    });
  }
  std::vector<std::pair<std::uint16_t, float>> take_speed(praxis::Duration timeout = 2s) {
    return take<bodyctrl_msgs_msg_dds__CmdSetMotorSpeed_>(leg_vel_, timeout, [](const auto& s, auto& out) {
      for (std::uint32_t k = 0; k < s.cmds._length; ++k) out.emplace_back(s.cmds._buffer[k].name, s.cmds._buffer[k].spd);
    });
  }
  std::string take_zero(praxis::Duration timeout = 2s) {
    std::string text;
    take<std_msgs_msg_dds__String_>(set_zero_, timeout, [&](const auto& s, auto&) { text = s.data; });
    return text;
  }

 private:
  static const dds_topic_descriptor_t* untyped(const dds_topic_descriptor_t* d) {
    static std::map<const dds_topic_descriptor_t*, dds_topic_descriptor_t> copies;
    const auto it = copies.find(d);
    if (it != copies.end()) return &it->second;
    const bool status = d == &bodyctrl_msgs_layout_MotorStatusMsgNoError_desc;
    const dds_topic_descriptor_t copy{d->m_size,  d->m_align, d->m_flagset & ~DDS_TOPIC_XTYPES_METADATA,
                                      d->m_nkeys, status ? "bodyctrl_msgs::msg::dds_::MotorStatusMsg_" : d->m_typename,
                                      d->m_keys,
                                      d->m_nops,  d->m_ops,   d->m_meta,
                                      {nullptr, 0}, {nullptr, 0}, d->restrict_data_representation};
    return &copies.emplace(d, copy).first->second;
  }
  static bool matched_writer(dds_entity_t w) {
    dds_publication_matched_status_t s{};
    dds_get_publication_matched_status(w, &s);
    return s.current_count > 0;
  }
  static bool matched_reader(dds_entity_t r) {
    dds_subscription_matched_status_t s{};
    dds_get_subscription_matched_status(r, &s);
    return s.current_count > 0;
  }
  template <class T, class F>
  std::vector<std::pair<std::uint16_t, float>> take(dds_entity_t reader, praxis::Duration timeout, F&& f) {
    std::vector<std::pair<std::uint16_t, float>> out;
    const auto deadline = praxis::Clock::now() + timeout;
    while (praxis::Clock::now() < deadline) {
      void* samples[1] = {nullptr};
      dds_sample_info_t info[1];
      const dds_return_t n = dds_take(reader, samples, info, 1, 1);
      if (n > 0) {
        const bool valid = info[0].valid_data;
        if (valid) f(*static_cast<const T*>(samples[0]), out);
        dds_return_loan(reader, samples, n);
        if (valid) return out;
      }
      std::this_thread::sleep_for(1ms);
    }
    return out;
  }

  dds_entity_t participant_;
  StatusLayout layout_;
  dds_entity_t leg_ = 0, arm_ = 0, imu_ = 0, arm_ctrl_ = 0, leg_vel_ = 0, set_zero_ = 0;
};

// The robot's status stream while a test waits in acquire(): every limb and the IMU every 2 ms.
class Streamer {
 public:
  Streamer(RawLite& robot, float base, std::uint16_t error_motor = 0, std::uint32_t error = 0)
      : thread_([this, &robot, base, error_motor, error] {
          while (!stop_.load()) {
            const bool ok = robot.send_status(Limb::arm, base, error_motor, error) && robot.send_imu() &&
                            robot.send_status(Limb::leg, base, error_motor, error);
            if (!ok) failed_.fetch_add(1);
            std::this_thread::sleep_for(2ms);
          }
        }) {}
  ~Streamer() {
    stop_ = true;
    thread_.join();
    CHECK(failed_.load() == 0);  // every dds_write of the robot succeeded
  }
  Streamer(const Streamer&) = delete;
  Streamer& operator=(const Streamer&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> failed_{0};
  std::thread thread_;
};

constexpr std::uint32_t k_domain_main = 9;
constexpr std::uint32_t k_domain_layout = 8;

TEST_CASE("tienkung backend over Cyclone: limb statuses in, per-limb commands out, speed 0 at the end, zeroing",
          "[tienkung][backend][dds]") {
  RawLite lite(k_domain_main, true);
  std::vector<std::pair<std::uint16_t, float>> speeds;
  // Speed 0 repeats until the status confirms it: what arrived since is drained.
  const auto drain_speeds = [&] {
    while (!lite.take_speed(50ms).empty()) {
    }
  };
  {
    std::optional<Streamer> until_destroyed;  // statuses while the backend's destructor confirms its stop
    DdsLite robot(DdsLite::robot("lo", k_domain_main));
    REQUIRE(lite.wait_readers());
    REQUIRE(lite.wait_writers());
    {
      Streamer stream(lite, 0.2f, 12, 2);  // motor 12 (left_shoulder_roll) reports over-current
      const auto r = robot.acquire(3s);
      INFO(r.message);
      REQUIRE(r.ok);
      praxis::RobotState<Lite::joint_count> s;
      REQUIRE(robot.read(s, praxis::Clock::now()));
      CHECK(s.q[0] == Approx(0.2));
      CHECK(s.q[12] == Approx(0.2 + 0.12));  // motor 11, from rt/arm/status
      CHECK(s.tau[12] == Approx(2.0 * 3.207));
      CHECK(s.health[13].faults == praxis::k_joint_driver_error);
      CHECK(s.health[13].error_code == 2);
      CHECK(s.first_faulted_joint() == 13);
    }
    // Arms in hybrid mode, one leg joint in velocity mode.
    praxis::JointCommand<Lite::joint_count> c;
    c.mode.fill(JointMode::none);
    for (std::size_t j = 12; j < 20; ++j) {
      c.mode[j] = JointMode::position;
      c.kp[static_cast<Eigen::Index>(j)] = 25.0;
    }
    c.mode[3] = JointMode::velocity;  // left knee, motor 54
    c.dq[3] = 0.25;
    robot.write(c, praxis::Clock::now());
    const auto ctrl = lite.take_ctrl();
    REQUIRE(ctrl.size() == 8);
    CHECK(ctrl[0] == std::pair<std::uint16_t, float>{11, 25.0f});
    CHECK(ctrl[7] == std::pair<std::uint16_t, float>{24, 25.0f});
    speeds = lite.take_speed();
    REQUIRE(speeds.size() == 1);
    CHECK(speeds[0] == std::pair<std::uint16_t, float>{54, 0.25f});
    {
      Streamer stream(lite, 0.2f);  // the knee reads still: release() confirms its stop
      const auto released = robot.release(3s);
      INFO(released.message);
      CHECK(released.ok);  // speed 0 to the knee
    }
    speeds = lite.take_speed();
    REQUIRE(speeds.size() == 1);
    CHECK(speeds[0] == std::pair<std::uint16_t, float>{54, 0.0f});
    drain_speeds();

    // Released, quiet for the default second: zeroing motor 23 reaches the robot as "23".
    std::this_thread::sleep_for(1100ms);
    {
      tk::ArmZeroing zeroing(robot);
      const auto z = zeroing.set_zero(23, "zero arm motor 23");
      INFO(z.message);
      CHECK(z.ok);
      CHECK(lite.take_zero() == "23");
      CHECK(zeroing.set_zero(15, "zero arm motor 15").message.find("not an arm motor of tienkung_lite") !=
            std::string::npos);
      robot.write(c, praxis::Clock::now());  // withheld while the session holds the robot
      CHECK(lite.take_speed(200ms).empty());
    }

    // The robot heard again first: a robot silent for a second (DdsBackend::k_silence_cutoff; the
    // sleep above is about that long) gets nothing until one of its new states was read.
    until_destroyed.emplace(lite, 0.2f);
    praxis::RobotState<Lite::joint_count> heard;
    const auto deadline = praxis::Clock::now() + 5s;
    while (!robot.read(heard, praxis::Clock::now()) && praxis::Clock::now() < deadline) std::this_thread::sleep_for(1ms);
    drain_speeds();
    robot.write(c, praxis::Clock::now());  // the knee turns again ...
    speeds = lite.take_speed();
    REQUIRE(speeds.size() == 1);
    CHECK(speeds[0].second == 0.25f);
  }
  // ... and the backend's destructor stopped it.
  speeds = lite.take_speed();
  REQUIRE(speeds.size() == 1);
  CHECK(speeds[0] == std::pair<std::uint16_t, float>{54, 0.0f});
}

// The backend's topics under `prefix`.
tk::BackendOptions under(const std::string& prefix, std::uint32_t domain) {
  tk::BackendOptions o;
  o.dds = {domain, "lo"};
  for (std::size_t k = 0; k < tk::k_limb_kinds; ++k) {
    const std::string base = prefix + std::string(tk::to_string(static_cast<Limb>(k))) + "/";
    o.topics.limbs[k] = {base + "status", base + "cmd_ctrl", base + "cmd_vel", base + "cmd_pos"};
  }
  o.topics.imu = prefix + "imu/status";
  o.topics.set_zero = prefix + "arm/cmd_set_zero";
  return o;
}

TEST_CASE("tienkung backend over Cyclone: a MotorStatus layout shorter than the robot's is refused, not misread",
          "[tienkung][backend][dds][layout]") {
  // The robot sends TG2.0 statuses (24 bytes per motor) and announces no type information, as
  // rmw_fastrtps does: the reader matches on the type name and decodes at its own 20-byte stride.
  RawLite lite(k_domain_layout, false, "short/");
  using Misconfigured = tk::TienkungBackend<Lite, StatusLayout::without_error>;
  Misconfigured robot(under("short/", k_domain_layout));
  REQUIRE(lite.wait_readers());
  Streamer stream(lite, 0.2f);
  const auto r = robot.acquire(1s);
  CHECK_FALSE(r.ok);
  INFO(r.message);
  CHECK(r.message.find("no valid status on short/leg/status") != std::string::npos);
  CHECK(r.message.find("topic \"short/leg/status\"") != std::string::npos);
  CHECK(r.message.find("a MotorStatus layout shorter than the robot's misreads the names") != std::string::npos);
  CHECK(robot.state_reader<0>().rejected() > 0);
}

TEST_CASE("tienkung backend over Cyclone: a MotorStatus layout longer than the robot's gets nothing, and says why",
          "[tienkung][backend][dds][layout]") {
  // The robot sends 20-byte statuses; a reader of 24-byte ones finds too few bytes and DDS drops
  // every sample before the codec sees it.
  RawLite lite(k_domain_layout, false, "long/", StatusLayout::without_error);
  tk::TienkungBackend<Lite> robot(under("long/", k_domain_layout));
  REQUIRE(lite.wait_readers());
  Streamer stream(lite, 0.2f);
  const auto r = robot.acquire(1s);
  CHECK_FALSE(r.ok);
  INFO(r.message);
  CHECK(r.message.find("no valid status on long/leg/status") != std::string::npos);
  CHECK(r.message.find("layout longer than the robot's (configured: with_error, 24 bytes per motor)") !=
        std::string::npos);
  CHECK(robot.state_reader<0>().received() == 0);
  CHECK(robot.states_accepted<1>() == 0);
}

TEST_CASE("tienkung backend: with position_command = servo, position joints go to the motor's position servo "
          "(cmd_pos: target, speed and current limits), torque joints stay on cmd_ctrl",
          "[tienkung][backend][command]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.position_command = tk::PositionCommand::servo;
  options.servo = {0.5f, 2.0f};
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::transport::LoopbackSubscriber<tk::LimbPosition> arm_pos(bus, "rt/arm/cmd_pos");
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  praxis::transport::Stamped<tk::LimbPosition> pos{};
  praxis::RobotState<P> s;
  pro.all(0.0);
  REQUIRE(robot.read(s, praxis::Clock::now()));

  auto arms = none_command();
  for (std::size_t j = 13; j < 27; ++j) {
    arms.mode[j] = JointMode::position;
    arms.q[static_cast<Eigen::Index>(j)] = 0.01 * static_cast<double>(j);
    arms.kp[static_cast<Eigen::Index>(j)] = 20;  // the servo's own gains apply: not sent
  }
  arms.mode[26] = JointMode::torque;
  arms.tau_ff[26] = 1.5;
  robot.write(arms, praxis::Clock::now());
  REQUIRE(arm_pos.fetch(pos));
  REQUIRE(pos.message.cmds.size == 13);
  CHECK(pos.message.cmds[0].name == 11);
  CHECK(pos.message.cmds[0].pos == Approx(0.13));
  CHECK(pos.message.cmds[0].spd == 0.5f);
  CHECK(pos.message.cmds[0].cur == 2.0f);
  REQUIRE(pro.arm_ctrl.fetch(ctrl));  // only the torque joint
  REQUIRE(ctrl.message.cmds.size == 1);
  CHECK(ctrl.message.cmds[0].name == 27);
  CHECK(ctrl.message.cmds[0].tor == 1.5f);
  CHECK(robot.commands_sent<LoopPro::vendor::position_topic_index(2)>() == 1);

  // The default (hybrid): nothing on cmd_pos.
  praxis::transport::LoopbackBus bus2;
  LoopPro hybrid(bus2, tk::BackendOptions{});
  LoopRobot pro2(bus2);
  praxis::transport::LoopbackSubscriber<tk::LimbPosition> arm_pos2(bus2, "rt/arm/cmd_pos");
  pro2.all(0.0);
  REQUIRE(hybrid.read(s, praxis::Clock::now()));
  hybrid.write(arms, praxis::Clock::now());
  CHECK_FALSE(arm_pos2.fetch(pos));
  REQUIRE(pro2.arm_ctrl.fetch(ctrl));
  CHECK(ctrl.message.cmds.size == 14);
}

}  // namespace tienkung_backend_test
