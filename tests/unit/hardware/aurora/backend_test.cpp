// Unit tests for include/praxis/hardware/aurora/backend.hpp. AuroraBackend end to end: against a robot simulated in the test on the in-process loopback bus,
// and over real Cyclone DDS against a raw C-API peer that knows nothing of praxis (domains 6-7).
// The robot obeys (or refuses) FSM requests, publishes its group state, stand level and FSM state;
// the tests check that acquire() runs Aurora's sequence, that a read()/write() loop gets the
// decoded state, and that the robot receives complete groups only.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <praxis/idl/fourier_msgs.h>

#include "praxis/control/guard.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/with_gamepad.hpp"
#include "praxis/hardware/aurora/backend.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/transport/loopback.hpp"
#include "../../../support/hold.hpp"

namespace aurora_backend_unit_test {

using namespace std::chrono_literals;
namespace a = praxis::aurora;
using Loopback = praxis::transport::LoopbackTransport;
using LoopbackGR2 = a::AuroraBackend<a::GR2, a::Access::joints, Loopback>;
using WalkingGR2 = a::AuroraBackend<a::GR2, a::Access::locomotion, Loopback>;
using DdsGR2 = a::AuroraBackend<a::GR2>;

static_assert(praxis::Backend<LoopbackGR2>);
static_assert(praxis::Backend<DdsGR2>);
static_assert(praxis::HasLifecycle<DdsGR2>);
static_assert(praxis::ReportsStatus<DdsGR2>);
static_assert(praxis::WakesOnState<DdsGR2>);
static_assert(praxis::Backend<a::AuroraBackend<a::GR1>> && praxis::Backend<a::AuroraBackend<a::GR3>> &&
              praxis::Backend<a::AuroraBackend<a::N1>>);

namespace aurora_backend_test {

constexpr std::size_t N = a::GR2::joint_count;

// Joint j of the simulated robot reads q = 0.01 j + offset.
template <class M>
a::GroupStateValue group_state(double offset) {
  a::GroupStateValue v;
  for (const auto& g : M::groups) {
    auto& e = v.groups[v.groups.size++];
    e.name.assign(g.name);
    e.q.size = e.dq.size = e.tau.size = static_cast<std::uint32_t>(g.count);
    for (std::size_t k = 0; k < g.count; ++k) {
      e.q[k] = 0.01 * static_cast<double>(g.first + k) + offset;
      e.dq[k] = 0.0;
      e.tau[k] = 1.0;
    }
  }
  v.motion.size = v.groups.size;
  return v;
}

// What the simulated robot received, shared with the test thread.
struct Received {
  std::mutex mutex;
  std::vector<a::GroupCommandValue> commands;
  std::vector<a::MotorConfigValue> configs;
  std::vector<std::uint8_t> requests;
};

// Aurora on the loopback bus: obeys FSM requests (unless told not to), stands stable 100 ms after
// PdStand, publishes every 2 ms.
template <class M = a::GR2>
class LoopbackAurora {
 public:
  explicit LoopbackAurora(praxis::transport::LoopbackBus& bus)
      : groups_(bus, "robot_control_group_state"),
        base_(bus, "base_data_pub"),
        contact_(bus, "contact_data_pub"),
        fsm_(bus, "aurora_state"),
        stand_(bus, "robot_stand_pose_state"),
        requests_(bus, "whole_body_fsm_state_change_cmd"),
        configs_(bus, "robot_motor_cfg_group_cmd"),
        commands_(bus, "robot_control_group_cmd"),
        sources_(bus, "velocity_source_cmd"),
        velocities_(bus, "velocity_cmd"),
        thread_([this] { loop(); }) {}
  ~LoopbackAurora() {
    stop_ = true;
    thread_.join();
  }
  LoopbackAurora(const LoopbackAurora&) = delete;
  LoopbackAurora& operator=(const LoopbackAurora&) = delete;

  std::atomic<bool> obeys_pd_stand{true}, obeys_user_cmd{true};
  std::atomic<bool> silent{false};  // publishes nothing (a robot switched off, a cable pulled)
  std::atomic<double> stand_offset{0.0};  // added to every q from PdStand on: PdStand moves the joints
  std::atomic<int> state{0};
  std::atomic<int> velocity_source{0};
  std::atomic<double> vx{0.0}, yaw{0.0};
  std::atomic<int> velocities{0};
  Received received;

 private:
  void loop() {
    praxis::TimePoint standing_since{};
    std::uint64_t tick = 0;
    while (!stop_) {
      praxis::transport::Stamped<a::StateRequestValue> request;
      if (requests_.fetch(request)) {
        const int want = request.message.desired;
        const bool obey = want == 2 ? obeys_pd_stand.load() : want >= 10 ? obeys_user_cmd.load() : true;
        if (obey && state.exchange(want) != want && want == 2) standing_since = praxis::Clock::now();
        std::lock_guard lock(received.mutex);
        received.requests.push_back(request.message.desired);
      }
      praxis::transport::Stamped<a::MotorConfigValue> config;
      if (configs_.fetch(config)) {
        std::lock_guard lock(received.mutex);
        received.configs.push_back(config.message);
      }
      praxis::transport::Stamped<a::GroupCommandValue> command;
      if (commands_.fetch(command)) {
        std::lock_guard lock(received.mutex);
        received.commands.push_back(command.message);
      }
      praxis::transport::Stamped<a::StateRequestValue> source;
      if (sources_.fetch(source)) velocity_source = source.message.desired;
      praxis::transport::Stamped<a::VelocityValue> velocity;
      if (velocities_.fetch(velocity) && state == 3 && velocity_source == 2) {
        vx = velocity.message.vx;
        yaw = velocity.message.yaw;
        ++velocities;
      }
      const bool stable = state == 2 && praxis::Clock::now() - standing_since > 100ms;
      if (silent) {
        std::this_thread::sleep_for(2ms);
        continue;
      }
      fsm_.write(a::AuroraStateValue{static_cast<std::uint8_t>(velocity_source.load()), static_cast<std::uint8_t>(state.load()), 0, false});
      stand_.write(a::StandPoseValue{0, 0, 0, static_cast<std::uint8_t>(stable || state >= 10 ? 105 : 30)});
      a::BaseValue base;
      base.acc_b = {0, 0, 9.81};
      base_.write(base);
      if (++tick % 10 == 0) {
        a::ContactValue contact;
        contact.force.assign(std::array<double, 12>{0, 0, 300, 0, 0, 0, 0, 0, 310, 0, 0, 0});
        contact.probability.assign(std::array<double, 2>{1.0, 0.9});
        contact_.write(contact);
      }
      // Last: a new primary state finds the others merged.
      groups_.write(group_state<M>(state >= 2 ? stand_offset.load() : 0.0));
      std::this_thread::sleep_for(2ms);
    }
  }

  praxis::transport::LoopbackPublisher<a::GroupStateValue> groups_;
  praxis::transport::LoopbackPublisher<a::BaseValue> base_;
  praxis::transport::LoopbackPublisher<a::ContactValue> contact_;
  praxis::transport::LoopbackPublisher<a::AuroraStateValue> fsm_;
  praxis::transport::LoopbackPublisher<a::StandPoseValue> stand_;
  praxis::transport::LoopbackSubscriber<a::StateRequestValue> requests_;
  praxis::transport::LoopbackSubscriber<a::MotorConfigValue> configs_;
  praxis::transport::LoopbackSubscriber<a::GroupCommandValue> commands_;
  praxis::transport::LoopbackSubscriber<a::StateRequestValue> sources_;
  praxis::transport::LoopbackSubscriber<a::VelocityValue> velocities_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

praxis::JointCommand<N> stand_command() {
  praxis::JointCommand<N> c;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    c.q[i] = 0.1;
    c.kp[i] = a::GR2::default_kp[j];
    c.kd[i] = a::GR2::default_kd[j];
  }
  return c;
}

template <class F>
bool eventually(F&& f, praxis::Duration timeout = 3s) {
  const auto deadline = praxis::Clock::now() + timeout;
  while (praxis::Clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

a::BackendOptions quick_options() {
  a::BackendOptions o;
  o.sequence.pd_stand_timeout = 500ms;
  o.sequence.stable_timeout = 1s;
  o.sequence.control_state_timeout = 300ms;
  o.sequence.release_timeout = 300ms;
  o.sequence.resend_period = 50ms;
  o.sequence.motor_config_sends = 2;
  return o;
}

}  // namespace aurora_backend_test

using namespace aurora_backend_test;

TEST_CASE("aurora backend (loopback): acquire - a read/write loop of complete groups - the robot leaving - release",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackGR2 backend(bus, quick_options());
  LoopbackAurora<> robot(bus);
  praxis::RobotState<N> s;
  const auto c = stand_command();

  backend.write(c, praxis::Clock::now());  // before acquire(): nothing leaves
  const auto taken = backend.acquire(2s);
  INFO(taken.message);
  REQUIRE(taken.ok);
  CHECK(taken.stage == praxis::LifecycleStage::in_control);
  CHECK(contains(taken.message, "UserCmd (10)"));
  CHECK(robot.state == 10);
  {
    std::lock_guard lock(robot.received.mutex);
    CHECK(robot.received.commands.empty());
    REQUIRE(robot.received.configs.size() >= 1);
    const auto& cfg = robot.received.configs.front();
    REQUIRE(cfg.groups.size == 6);
    CHECK(cfg.groups[0].name.view() == "left_leg");
    CHECK(cfg.groups[0].kp[3] == 400);  // the model's example gains
    CHECK(robot.received.requests.front() == 2);
    CHECK(robot.received.requests.back() == 10);
  }
  praxis::RobotStatus status;
  backend.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::in_control);
  CHECK(status.mode_confirmed());

  // The loop: fresh states in, complete groups out.
  int cycles = 0;
  REQUIRE(eventually([&] {
    if (backend.read(s, praxis::Clock::now())) {
      backend.write(c, praxis::Clock::now());
      ++cycles;
    }
    return cycles >= 20;
  }));
  CHECK(s.q[28] == Approx(0.28));
  CHECK(s.tau[0] == 1.0);
  CHECK(s.projected_gravity.z() == Approx(-1.0));
  REQUIRE(eventually([&] {
    std::lock_guard lock(robot.received.mutex);
    return robot.received.commands.size() >= 10;
  }));
  {
    std::lock_guard lock(robot.received.mutex);
    const auto& last = robot.received.commands.back();
    REQUIRE(last.groups.size == 6);
    CHECK(last.groups[5].name.view() == "right_manipulator");
    CHECK(last.groups[5].position.size == 7);
    CHECK(last.groups[5].position[6] == 0.1);
  }
  CHECK(backend.gain_updates_sent() == 0);  // the command's gains are the ones acquire() sent
  a::ContactState contact;
  REQUIRE(eventually([&] { return backend.read_contact(contact); }));
  CHECK(contact.contact.force[8] == 310);
  CHECK(contact.contact.probability[1] == 0.9);

  // One joint of the left arm not driven: nothing at all is sent, the refusal is counted.
  auto partial = c;
  partial.mode[17] = praxis::JointMode::none;
  const auto sent_before = backend.group_commands_sent();
  backend.write(partial, praxis::Clock::now());
  CHECK(backend.group_commands_sent() == sent_before);
  CHECK(backend.commands_refused() == 1);
  CHECK(a::describe<a::GR2>(backend.last_command_fault()) ==
        "robot_control_group_cmd: group 'left_manipulator' is covered partly (left_shoulder_yaw_joint is not driven); "
        "Aurora takes complete groups only, nothing was sent");

  // New gains for the left arm: one configuration message with that group only.
  auto softer = c;
  for (std::size_t j = 15; j < 22; ++j) softer.kp[static_cast<Eigen::Index>(j)] = 20;
  REQUIRE(eventually([&] {
    backend.write(softer, praxis::Clock::now());
    return backend.gain_updates_sent() == 1;
  }));
  REQUIRE(eventually([&] {
    std::lock_guard lock(robot.received.mutex);
    return robot.received.configs.back().groups.size == 1;
  }));
  {
    std::lock_guard lock(robot.received.mutex);
    CHECK(robot.received.configs.back().groups[0].name.view() == "left_manipulator");
    CHECK(robot.received.configs.back().groups[0].kp[0] == 20);
  }

  // The robot leaves UserCmd by itself (joystick LT+RT): commands stop at once.
  robot.state = 9;
  REQUIRE(eventually([&] {
    backend.read(s, praxis::Clock::now());
    return backend.whole_body_state() == 9;
  }));
  const auto sent_at_leaving = backend.group_commands_sent();
  backend.write(c, praxis::Clock::now());
  CHECK(backend.group_commands_sent() == sent_at_leaving);
  CHECK(backend.commands_outside_control() >= 1);
  backend.read_status(status);
  CHECK(status.reported_mode == praxis::RobotMode::damping);
  CHECK_FALSE(status.mode_confirmed());
  CHECK(status.lifecycle == praxis::LifecycleStage::failed);
  CHECK_FALSE(backend.in_control());
  CHECK(backend.control_loss() == "aurora_state reports SecurityProtection (9) where praxis held UserCmd (10) (the "
                                  "robot restarted, or its joystick or its own safety took over)");

  // The joystick has the robot now: release() does not move it (issue 21: a hand-back is for what
  // praxis holds), and says why.
  const auto released = backend.release(1s);
  INFO(released.message);
  CHECK_FALSE(released.ok);
  CHECK(robot.state == 9);
  CHECK(contains(released.message, "control was lost before the hand-back: aurora_state reports SecurityProtection "
                                   "(9) where praxis held UserCmd (10)"));
}

TEST_CASE("aurora backend (loopback): the robot refusing UserCmd fails acquire() naming the step and topic",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackGR2 backend(bus, quick_options());
  LoopbackAurora<> robot(bus);
  robot.obeys_user_cmd = false;
  const auto taken = backend.acquire(2s);
  CHECK_FALSE(taken.ok);
  CHECK(taken.stage == praxis::LifecycleStage::failed);
  CHECK(contains(taken.message, "(await UserCmd (10)): aurora_state.whole_body_fsm_state stayed PdStand (2) for 300 ms"));
  backend.write(stand_command(), praxis::Clock::now());
  CHECK(backend.group_commands_sent() == 0);
  CHECK(backend.commands_outside_control() == 1);
}

TEST_CASE("aurora backend (loopback): another robot's groups - or none - fail acquire() with the reason",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackGR2 backend(bus, quick_options());
  SECTION("nothing published") {
    const auto taken = backend.acquire(100ms);
    CHECK_FALSE(taken.ok);
    CHECK(contains(taken.message, "no valid state on robot_control_group_state within 100 ms (domain 123"));
  }
  SECTION("a GR-3 answering") {
    LoopbackAurora<a::GR3> robot(bus);
    const auto taken = backend.acquire(200ms);
    CHECK_FALSE(taken.ok);
    CHECK(contains(taken.message, "invalid ones arrived, the last: robot_control_group_state: group 'waist' has 3 "
                                  "values, gr2 expects 1"));
    CHECK(robot.state == 0);  // no request was sent
  }
}

namespace aurora_backend_test {
// A user controller that holds the model's stand pose.
template <class Model>
using Hold = praxis::test::Hold<Model>;
}  // namespace aurora_backend_test

TEST_CASE("aurora backend (loopback): the RobotController takes control - holds in complete groups - hands back",
          "[aurora][backend][controller]") {
  praxis::transport::LoopbackBus bus;
  LoopbackGR2 backend(bus, quick_options());
  LoopbackAurora<> robot(bus);
  praxis::control::ControllerOptions copts;
  copts.print = false;
  copts.lifecycle_timeout = 3s;
  // Aurora's state carries no remote: RobotController takes a gamepad of the user's.
  praxis::control::WithGamepad pad(backend);
  praxis::control::RobotController<praxis::control::WithGamepad<LoopbackGR2>, Hold<a::GR2>> controller(pad, copts);
  const auto outcome = controller.run_for(500ms);
  REQUIRE(controller.acquired().has_value());
  INFO(controller.acquired()->message);
  CHECK(controller.acquired()->ok);
  INFO(outcome.summary());
  CHECK(outcome.ok());
  CHECK(outcome.safe_state == praxis::SafeState::hand_back);
  CHECK(controller.state() == praxis::control::ControlState::damping);  // nobody pressed a button
  CHECK(robot.state == 2);                                     // handed back: PdStand
  std::lock_guard lock(robot.received.mutex);
  REQUIRE(robot.received.commands.size() > 50);
  for (const auto& c : robot.received.commands) CHECK(c.groups.size == 6);
  // The robot balances itself: its damping state is a hold of the measured pose with the gains in
  // force, never kp 0 on the legs, from the first frame to the hand-back.
  REQUIRE(!robot.received.configs.empty());
  for (const auto& config : robot.received.configs) {
    REQUIRE(config.groups.size == 6);
    for (std::size_t g = 0; g < config.groups.size; ++g) {
      for (std::size_t k = 0; k < config.groups[g].kp.size; ++k) CHECK(config.groups[g].kp[k] > 0.0);
    }
  }
  CHECK(backend.commands_refused() == 0);
}

static_assert(praxis::HasLocomotion<WalkingGR2> && praxis::HasModes<WalkingGR2>);
// praxis-guard reaches a robot over DDS only: an in-process (loopback) robot runs without it, also
// through a gamepad wrapper (a guard that cannot hear the robot would fail the run's start).
static_assert(!praxis::control::Guardable<praxis::control::WithGamepad<LoopbackGR2>>);
static_assert(praxis::control::Guardable<praxis::control::WithGamepad<a::AuroraBackend<a::GR2>>>);
static_assert(!praxis::PostsRequests<LoopbackGR2>);

TEST_CASE("aurora backend (loopback): the robot's own walking from posted requests - joints untouched",
          "[aurora][backend][locomotion]") {
  praxis::transport::LoopbackBus bus;
  WalkingGR2 backend(bus, quick_options());
  LoopbackAurora<> robot(bus);
  praxis::RobotRequests early;
  early.any = true;
  early.mode = praxis::RobotMode::locomotion;
  backend.post(early);  // before acquire() nobody listens: dropped
  backend.post_safe_mode(praxis::RobotMode::prepare);
  std::this_thread::sleep_for(100ms);
  {
    std::lock_guard lock(robot.received.mutex);
    CHECK(robot.received.requests.empty());
  }
  CHECK(backend.locomotion() == nullptr);
  const auto taken = backend.acquire(2s);
  INFO(taken.message);
  REQUIRE(taken.ok);
  CHECK(robot.state == 0);  // nothing before the cycle's first request
  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.locomotion = {true, 2.0, 0.0, 0.3};  // faster than a GR-2 walks: clamped to 0.75
  praxis::RobotState<N> s;
  REQUIRE(eventually([&] {
    backend.read(s, praxis::Clock::now());
    backend.post(r);
    backend.write(stand_command(), praxis::Clock::now());
    return robot.velocities > 5;
  }));
  CHECK(robot.state == 3);
  CHECK(robot.velocity_source == 2);
  CHECK(robot.vx == 0.75);
  CHECK(robot.yaw == Approx(0.3));
  CHECK(backend.locomotion()->velocities_clamped() > 0);
  praxis::RobotStatus status;
  REQUIRE(eventually([&] {
    backend.read(s, praxis::Clock::now());
    backend.read_status(status);
    return status.mode_confirmed();
  }));
  CHECK(status.reported_mode == praxis::RobotMode::locomotion);
  CHECK(backend.group_commands_sent() == 0);  // the robot's controller has the joints
  {
    std::lock_guard lock(robot.received.mutex);
    CHECK(robot.received.commands.empty());
  }
  // Stop walking: zero velocity, still in state 3.
  r.locomotion.active = false;
  REQUIRE(eventually([&] {
    backend.read(s, praxis::Clock::now());
    backend.post(r);
    return robot.vx == 0.0;
  }));
  CHECK(robot.state == 3);
  const auto released = backend.release(1s);
  INFO(released.message);
  CHECK(released.ok);
  CHECK(robot.state == 2);
}

TEST_CASE("aurora backend: the safety constants and the robot's options", "[aurora][backend]") {
  // A.5: Aurora's damping is SecurityProtection (damping 2 s, then zero torque): the end of control
  // is a hand-back to PdStand, never a damping request.
  CHECK(LoopbackGR2::safe_state == praxis::SafeState::hand_back);
  CHECK(WalkingGR2::safe_mode == praxis::RobotMode::prepare);
  CHECK_FALSE(LoopbackGR2::has_remote);
  CHECK_FALSE(LoopbackGR2::capabilities.locomotion);
  CHECK(WalkingGR2::capabilities.locomotion);
  CHECK(WalkingGR2::capabilities.modes);
  // A.1: domain 123; A.2: the prefix only with a serial number.
  const auto bare = DdsGR2::robot("eth1", "gr2");
  CHECK(bare.dds.domain == 123);
  CHECK(bare.dds.interface == "eth1");
  CHECK(bare.wire.topics.aurora_state == "aurora_state");
  CHECK(DdsGR2::robot("eth1", "gr2", "SN5").wire.topics.aurora_state == "gr2/SN5/aurora_state");
}

TEST_CASE("aurora backend (loopback): the stand pose is the one measured in the stable PdStand or the model's",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  auto options = quick_options();
  SECTION("measured (the default): just before UserCmd") {
    LoopbackGR2 backend(bus, options);
    CHECK_FALSE(backend.measured_stand_pose().has_value());
    CHECK(backend.stand_pose() == a::GR2::stand_pose);  // nothing measured yet
    LoopbackAurora<> robot(bus);
    robot.stand_offset = 0.5;
    const auto taken = backend.acquire(2s);
    INFO(taken.message);
    REQUIRE(taken.ok);
    REQUIRE(backend.measured_stand_pose().has_value());
    const auto pose = backend.stand_pose();
    CHECK(pose[3] == Approx(0.53));  // the simulated robot's q = 0.01 j, plus PdStand's offset
    CHECK(pose[28] == Approx(0.78));
    CHECK(*backend.measured_stand_pose() == pose);
  }
  SECTION("arms only in PdStand: the stable stand itself, not the pose before it") {
    options.sequence.control_state = a::WholeBodyState::pd_stand;
    LoopbackGR2 backend(bus, options);
    LoopbackAurora<> robot(bus);
    robot.stand_offset = 0.5;
    const auto taken = backend.acquire(2s);
    INFO(taken.message);
    REQUIRE(taken.ok);
    REQUIRE(backend.measured_stand_pose().has_value());
    CHECK(backend.stand_pose()[20] == Approx(0.70));
    CHECK(backend.stand_pose()[0] == Approx(0.50));
  }
  SECTION("the model's") {
    options.stand_pose = a::StandPoseSource::model;
    LoopbackGR2 backend(bus, options);
    LoopbackAurora<> robot(bus);
    robot.stand_offset = 0.5;
    REQUIRE(backend.acquire(2s).ok);
    REQUIRE(backend.measured_stand_pose().has_value());  // measured all the same
    CHECK(backend.stand_pose() == a::GR2::stand_pose);
  }
}

TEST_CASE("aurora backend (loopback): arms only in PdStand sends no PD configuration and never the legs",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  auto options = quick_options();
  options.sequence.control_state = a::WholeBodyState::pd_stand;
  LoopbackGR2 backend(bus, options);
  LoopbackAurora<> robot(bus);
  const auto taken = backend.acquire(2s);
  INFO(taken.message);
  REQUIRE(taken.ok);
  CHECK(contains(taken.message, "commands for waist, head and arms only on robot_control_group_cmd"));
  CHECK(robot.state == 2);
  praxis::RobotState<N> s;
  auto c = stand_command();
  for (std::size_t j = 15; j < 22; ++j) c.kp[static_cast<Eigen::Index>(j)] = 5;  // would be a gain update
  REQUIRE(eventually([&] {
    if (backend.read(s, praxis::Clock::now())) backend.write(c, praxis::Clock::now());
    return backend.group_commands_sent() >= 5;
  }));
  CHECK(backend.groups_withheld() >= 10);  // both legs, every time
  CHECK(backend.gain_updates_sent() == 0);
  CHECK(backend.motor_configs_sent() == 0);
  {
    std::lock_guard lock(robot.received.mutex);
    CHECK(robot.received.configs.empty());
    REQUIRE_FALSE(robot.received.commands.empty());
    for (const auto& command : robot.received.commands) {
      REQUIRE(command.groups.size == 4);
      CHECK(command.groups[0].name.view() == "waist");
    }
  }
  // The control state is the release state: the hand-back confirms PdStand and stops the arms.
  const auto released = backend.release(1s);
  INFO(released.message);
  CHECK(released.ok);
  CHECK(contains(released.message, "robot in PdStand (2); stopped sending robot_control_group_cmd"));
  CHECK(robot.state == 2);
  const auto sent = backend.group_commands_sent();
  backend.write(c, praxis::Clock::now());
  CHECK(backend.group_commands_sent() == sent);
}

TEST_CASE("aurora backend (loopback): a robot that falls silent is control lost at once - with its age in words",
          "[aurora][backend]") {
  praxis::transport::LoopbackBus bus;
  LoopbackGR2 backend(bus, quick_options());  // link_timeout 100 ms
  LoopbackAurora<> robot(bus);
  REQUIRE(backend.acquire(2s).ok);
  praxis::RobotState<N> s;
  REQUIRE(eventually([&] { return backend.read(s, praxis::Clock::now()); }));
  CHECK(backend.in_control());
  CHECK(backend.control_loss().empty());

  robot.silent = true;
  REQUIRE(eventually([&] {
    backend.read(s, praxis::Clock::now());
    return !backend.in_control();
  }));
  std::this_thread::sleep_for(20ms);
  const auto loss = backend.control_loss();
  INFO(loss);
  CHECK(contains(loss, "no aurora_state for "));
  CHECK(contains(loss, " s (the last one reported UserCmd (10))"));
  const auto sent = backend.group_commands_sent();
  backend.write(stand_command(), praxis::Clock::now());
  CHECK(backend.group_commands_sent() == sent);
  CHECK(backend.commands_without_fresh_state() == 1);
  praxis::RobotStatus status;
  backend.read_status(status);
  CHECK(status.lifecycle == praxis::LifecycleStage::failed);
  CHECK_FALSE(status.link.connected);
  CHECK(status.reported_mode == praxis::RobotMode::unknown);

  // Nobody knows where the robot is: the hand-back requests nothing (release_when_unknown is off).
  const auto requests = backend.fsm_requests_sent();
  const auto released = backend.release(200ms);
  CHECK_FALSE(released.ok);
  CHECK(backend.fsm_requests_sent() == requests);
  CHECK(contains(released.message, "where the robot is is unknown"));
}

// ---------------------------------------------------------------------------------------------
// Over Cyclone DDS, against a raw peer.

namespace aurora_backend_test {

std::uint32_t test_domain() { return 6 + static_cast<std::uint32_t>(::getpid() % 2); }

// Aurora written against the Cyclone C API directly, best effort like Fourier's endpoints.
class RawAurora {
 public:
  RawAurora(std::uint32_t domain, const std::string& prefix) {
    participant_ = dds_create_participant(domain, nullptr, nullptr);
    REQUIRE(participant_ > 0);
    dds_qos_t* qos = dds_create_qos();
    dds_qset_reliability(qos, DDS_RELIABILITY_BEST_EFFORT, 0);
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1);
    const auto topic = [&](const std::string& name, const dds_topic_descriptor_t* d) {
      const dds_entity_t t = dds_create_topic(participant_, d, (prefix + name).c_str(), nullptr, nullptr);
      REQUIRE(t > 0);
      return t;
    };
    groups_ = dds_create_writer(participant_, topic("robot_control_group_state", &fourier_msgs_msg_RobotControlGroupState_desc), qos, nullptr);
    fsm_ = dds_create_writer(participant_, topic("aurora_state", &fourier_msgs_msg_AuroraState_desc), qos, nullptr);
    stand_ = dds_create_writer(participant_, topic("robot_stand_pose_state", &fourier_msgs_msg_RobotStandPoseState_desc), qos, nullptr);
    requests_ = dds_create_reader(participant_, topic("whole_body_fsm_state_change_cmd", &fourier_msgs_msg_WholeBodyFsmStateChangeCmd_desc), qos, nullptr);
    dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 64);
    configs_ = dds_create_reader(participant_, topic("robot_motor_cfg_group_cmd", &fourier_msgs_msg_RobotMotorCfgGroupCmd_desc), qos, nullptr);
    commands_ = dds_create_reader(participant_, topic("robot_control_group_cmd", &fourier_msgs_msg_RobotControlGroupCmd_desc), qos, nullptr);
    dds_delete_qos(qos);
    REQUIRE((groups_ > 0 && fsm_ > 0 && stand_ > 0 && requests_ > 0 && configs_ > 0 && commands_ > 0));
    thread_ = std::thread([this] { loop(); });
  }
  ~RawAurora() {
    stop_ = true;
    thread_.join();
    dds_delete(participant_);
  }
  RawAurora(const RawAurora&) = delete;
  RawAurora& operator=(const RawAurora&) = delete;

  std::atomic<int> state{0};
  std::atomic<int> configs_received{0};

  // Group commands received so far: per message, the group names and their position counts.
  struct Command {
    std::vector<std::string> names;
    std::vector<std::uint32_t> counts;
    std::vector<std::uint8_t> motor_modes;
    double first_position = 0;
  };
  std::vector<Command> take_commands() {
    std::vector<Command> out;
    void* samples[16] = {};
    dds_sample_info_t info[16];
    const dds_return_t n = dds_take(commands_, samples, info, 16, 16);
    for (dds_return_t i = 0; i < n; ++i) {
      if (!info[i].valid_data) continue;
      const auto* m = static_cast<const a::GroupCommandWire*>(samples[i]);
      Command c;
      for (std::uint32_t g = 0; g < m->group_cmd._length; ++g) {
        const auto& e = m->group_cmd._buffer[g];
        c.names.emplace_back(e.group_name);
        c.counts.push_back(e.position._length);
        c.motor_modes.push_back(e.motor_mode);
        if (g == 0 && e.position._length > 0) c.first_position = e.position._buffer[0];
      }
      out.push_back(std::move(c));
    }
    if (n > 0) dds_return_loan(commands_, samples, n);
    return out;
  }

 private:
  void loop() {
    // The GR-2's groups on the wire, from this thread's own arrays.
    std::array<std::array<double, 8>, 6> values{};
    std::array<fourier_msgs_msg_ControlGroupState, 6> groups{};
    for (std::size_t g = 0; g < 6; ++g) {
      const auto& group = a::GR2::groups[g];
      for (std::size_t k = 0; k < group.count; ++k) values[g][k] = 0.01 * static_cast<double>(group.first + k);
      auto& w = groups[g];
      w.group_name = const_cast<char*>(group.name.data());  // string_views of literals: NUL-terminated
      const auto count = static_cast<std::uint32_t>(group.count);
      w.joint_position = {count, count, values[g].data(), false};
      w.joint_velocity = {count, count, values[g].data(), false};
      w.joint_effort = {count, count, values[g].data(), false};
    }
    std::array<std::uint8_t, 6> motion{};
    char frame[1] = {'\0'};
    while (!stop_) {
      void* samples[4] = {};
      dds_sample_info_t info[4];
      const dds_return_t n = dds_take(requests_, samples, info, 4, 4);
      for (dds_return_t i = 0; i < n; ++i) {
        if (info[i].valid_data) state = static_cast<const a::WholeBodyRequestWire*>(samples[i])->desired_state;
      }
      if (n > 0) dds_return_loan(requests_, samples, n);
      void* cfg[8] = {};
      dds_sample_info_t cfg_info[8];
      const dds_return_t m = dds_take(configs_, cfg, cfg_info, 8, 8);
      for (dds_return_t i = 0; i < m; ++i) {
        if (cfg_info[i].valid_data && static_cast<const a::MotorConfigWire*>(cfg[i])->group_cmd._length == 6) ++configs_received;
      }
      if (m > 0) dds_return_loan(configs_, cfg, m);

      a::AuroraStateWire fsm{};
      fsm.header.frame_id = frame;
      fsm.whole_body_fsm_state = static_cast<std::uint8_t>(state.load());
      dds_write(fsm_, &fsm);
      a::StandPoseStateWire stand{};
      stand.header.frame_id = frame;
      stand.stable_level = state == 2 ? 110 : 0;
      dds_write(stand_, &stand);
      a::GroupStateWire s{};
      s.header.frame_id = frame;
      s.group_motion_state = {6, 6, motion.data(), false};
      s.group_state = {6, 6, groups.data(), false};
      dds_write(groups_, &s);
      std::this_thread::sleep_for(3ms);
    }
  }

  dds_entity_t participant_ = 0, groups_ = 0, fsm_ = 0, stand_ = 0, requests_ = 0, configs_ = 0, commands_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace aurora_backend_test

TEST_CASE("aurora backend over Cyclone: prefixed topics - Aurora's sequence - complete groups to a raw peer",
          "[aurora][backend][dds]") {
  auto options = quick_options();
  options.dds = {test_domain(), "lo"};
  options.wire.topics = a::TopicNames{}.prefixed("gr2", "SN0042");
  options.sequence.pd_stand_timeout = 3s;  // discovery first
  CHECK(options.wire.topics.group_command == "gr2/SN0042/robot_control_group_cmd");
  DdsGR2 backend(options);
  RawAurora robot(test_domain(), "gr2/SN0042/");

  const auto taken = backend.acquire(5s);
  INFO(taken.message);
  REQUIRE(taken.ok);
  CHECK(robot.state == 10);
  CHECK(eventually([&] { return robot.configs_received >= 1; }));

  praxis::RobotState<N> s;
  REQUIRE(eventually([&] { return backend.read(s, praxis::Clock::now()); }));
  CHECK(s.q[14] == Approx(0.14));  // head_pitch_joint

  // Only the upper body (waist, head, arms) in torque mode, the legs left to nobody: 4 groups.
  auto c = stand_command();
  for (std::size_t j = 0; j < 12; ++j) c.mode[j] = praxis::JointMode::none;
  for (std::size_t j = 12; j < N; ++j) c.mode[j] = praxis::JointMode::torque;
  std::vector<RawAurora::Command> got;
  REQUIRE(eventually([&] {
    backend.write(c, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
    got = robot.take_commands();
    return !got.empty();
  }));
  const auto& first = got.front();
  CHECK(first.names == std::vector<std::string>{"waist", "head", "left_manipulator", "right_manipulator"});
  CHECK(first.counts == std::vector<std::uint32_t>{1, 2, 7, 7});
  CHECK(first.motor_modes == std::vector<std::uint8_t>{1, 1, 1, 1});
  CHECK(first.first_position == 0.1);

  // A half-covered head: nothing reaches the robot.
  c.mode[13] = praxis::JointMode::none;
  for (int i = 0; i < 20; ++i) backend.write(c, praxis::Clock::now());
  std::this_thread::sleep_for(100ms);
  CHECK(robot.take_commands().empty());
  CHECK(backend.commands_refused() == 20);

  const auto released = backend.release(1s);
  INFO(released.message);
  CHECK(released.ok);
  CHECK(robot.state == 2);
}

}  // namespace aurora_backend_unit_test
