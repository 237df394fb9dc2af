// Unit tests for include/praxis/hardware/tienkung/arm_zeroing.hpp: the guards around Tienkung's arm
// zeroing (rt/arm/cmd_set_zero, the motor id as decimal text; fact sheet
// /work/shared/vendors/aurora-and-tienkung.md, B.3; arm motor ids B.4): never while the backend is in
// control, one session at a time, arm motors of the model only, the confirmation text, the quiet
// period after the last joint command. In process, on the loopback bus.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>

#include "praxis/hardware/tienkung/arm_zeroing.hpp"
#include "praxis/hardware/tienkung/backend.hpp"
#include "praxis/transport/loopback.hpp"

namespace tienkung_arm_zeroing_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
using tk::Limb;
using tk::Lite;
using tk::Pro;
using tk::StatusLayout;
using Loopback = praxis::transport::LoopbackTransport;
using LoopPro = tk::TienkungBackend<Pro, StatusLayout::with_error, Loopback>;
using LoopLite = tk::TienkungBackend<Lite, StatusLayout::with_error, Loopback>;
constexpr std::size_t P = Pro::joint_count;

// A limb status of model M: joint j at q = base + 0.01 j, every motor still and error-free.
template <class M>
tk::LimbStatus status_of(Limb limb, double base) {
  const tk::LimbSpec& spec = *tk::find_limb<M>(limb);
  tk::LimbStatus s;
  for (std::size_t j = spec.first; j < spec.first + spec.count; ++j) {
    s.motors[s.motors.size++] = {M::motor_ids[j], static_cast<float>(base + 0.01 * static_cast<double>(j)), 0.0f,
                                 1.0f, 35.0f, 0u, 0.0f};
  }
  return s;
}

// The robot's side of the loopback wire for a Pro.
struct LoopRobot {
  explicit LoopRobot(praxis::transport::LoopbackBus& bus)
      : leg(bus, "rt/leg/status"),
        arm(bus, "rt/arm/status"),
        waist(bus, "rt/waist/status"),
        head(bus, "rt/head/status"),
        imu(bus, "rt/imu/status"),
        arm_ctrl(bus, "rt/arm/cmd_ctrl") {}
  void all(double base) {
    arm.write(status_of<Pro>(Limb::arm, base));
    waist.write(status_of<Pro>(Limb::waist, base));
    head.write(status_of<Pro>(Limb::head, base));
    imu.write(tk::ImuReading{{0, 0, 0, 1}, {0, 0, 0}, {0, 0, 9.81}, 0});
    leg.write(status_of<Pro>(Limb::leg, base));
  }
  praxis::transport::LoopbackPublisher<tk::LimbStatus> leg, arm, waist, head;
  praxis::transport::LoopbackPublisher<tk::ImuReading> imu;
  praxis::transport::LoopbackSubscriber<tk::LimbCtrl> arm_ctrl;
};

TEST_CASE("tienkung arm zeroing: only outside a run - only arm motors - only with the confirmation",
          "[tienkung][backend][zeroing]") {
  praxis::transport::LoopbackBus bus;
  tk::BackendOptions options;
  options.zeroing_quiet_period = 200ms;
  LoopPro robot(bus, options);
  LoopRobot pro(bus);
  praxis::transport::LoopbackSubscriber<tk::ZeroRequest> set_zero(bus, "rt/arm/cmd_set_zero");
  praxis::transport::Stamped<tk::ZeroRequest> got{};
  pro.all(0.0);
  REQUIRE(robot.acquire(200ms).ok);

  // In control: the tool cannot be made.
  try {
    tk::ArmZeroing zeroing(robot);
    FAIL("ArmZeroing was made while the backend was in control");
  } catch (const std::logic_error& e) {
    CHECK(std::string(e.what()).find("in control") != std::string::npos);
  }
  praxis::RobotState<P> s;
  robot.read(s, praxis::Clock::now());
  praxis::JointCommand<P> damping;
  praxis::damp_covered(damping, s.q, 2.0);
  robot.write(damping, praxis::Clock::now());
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  REQUIRE(pro.arm_ctrl.fetch(ctrl));
  REQUIRE(robot.release(50ms).ok);

  {
    tk::ArmZeroing zeroing(robot);
    // While it exists the backend cannot be taken into control.
    const auto r = robot.acquire(50ms);
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("ArmZeroing") != std::string::npos);
    CHECK(r.message.find("rt/arm/cmd_set_zero") != std::string::npos);
    using Zeroing = tk::ArmZeroing<Pro, Loopback>;
    CHECK_THROWS_AS(Zeroing(robot), std::logic_error);  // one session at a time

    // A command was written less than the quiet period ago (a loop may still be running).
    auto z = zeroing.set_zero(12, "zero arm motor 12");
    CHECK_FALSE(z.ok);
    CHECK(z.message.find("less than 200 ms ago") != std::string::npos);
    std::this_thread::sleep_for(250ms);

    z = zeroing.set_zero(31, "zero arm motor 31");
    CHECK_FALSE(z.ok);
    CHECK(z.message.find("not an arm motor of tienkung_pro") != std::string::npos);
    z = zeroing.set_zero(12, "yes");
    CHECK_FALSE(z.ok);
    CHECK(z.message.find("\"zero arm motor 12\"") != std::string::npos);
    CHECK_FALSE(set_zero.fetch(got));  // nothing went out so far

    z = zeroing.set_zero(12, tk::ArmZeroing<Pro, Loopback>::confirmation(12));
    CHECK(z.ok);
    REQUIRE(set_zero.fetch(got));
    CHECK(got.message.data.view() == "12");

    // No joint command leaves while the session holds the robot.
    robot.write(damping, praxis::Clock::now());
    CHECK_FALSE(pro.arm_ctrl.fetch(ctrl));
    CHECK(robot.commands_withheld_while_zeroing() == 1);
  }
  // Closed: the backend can be taken again.
  pro.all(0.0);
  CHECK(robot.acquire(200ms).ok);
  robot.release(50ms);
}


TEST_CASE("tienkung arm zeroing: the confirmation names the motor and every arm motor of the model is accepted",
          "[tienkung][zeroing]") {
  CHECK(tk::ArmZeroing<Pro, Loopback>::confirmation(12) == "zero arm motor 12");
  CHECK(tk::ArmZeroing<Lite, Loopback>::confirmation(24) == "zero arm motor 24");

  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});  // never wrote a command: no quiet period to wait for
  praxis::transport::LoopbackSubscriber<tk::ZeroRequest> set_zero(bus, "rt/arm/cmd_set_zero");
  praxis::transport::Stamped<tk::ZeroRequest> got{};
  tk::ArmZeroing zeroing(robot);
  // B.4: the Pro's arm motors are 11-17 (left) and 21-27 (right).
  for (const std::uint16_t id : {11, 13, 17, 21, 25, 27}) {
    CAPTURE(id);
    const auto r = zeroing.set_zero(id, tk::ArmZeroing<Pro, Loopback>::confirmation(id));
    CHECK(r.ok);
    CHECK(r.message == "sent \"" + std::to_string(id) + "\" on rt/arm/cmd_set_zero");
    REQUIRE(set_zero.fetch(got));
    CHECK(got.message.data.view() == std::to_string(id));
  }
  // Legs, waist and head are not arm motors, nor is an id no motor has; the refusal lists the arm's.
  for (const std::uint16_t id : {51, 66, 31, 1, 3, 18, 0}) {
    CAPTURE(id);
    const auto r = zeroing.set_zero(id, tk::ArmZeroing<Pro, Loopback>::confirmation(id));
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("its arm motors: 11 12 13 14 15 16 17 21 22 23 24 25 26 27") != std::string::npos);
  }
  CHECK_FALSE(set_zero.fetch(got));
  // The confirmation of another motor is no confirmation.
  CHECK_FALSE(zeroing.set_zero(12, "zero arm motor 13").ok);
  CHECK_FALSE(zeroing.set_zero(12, "zero arm motor 12 ").ok);
  CHECK_FALSE(set_zero.fetch(got));
}

TEST_CASE("tienkung arm zeroing: the Lite's arms stop at the elbow", "[tienkung][zeroing]") {
  praxis::transport::LoopbackBus bus;
  LoopLite robot(bus, tk::BackendOptions{});
  tk::ArmZeroing zeroing(robot);
  // B.4: Lite arms 11-14 and 21-24.
  CHECK(zeroing.set_zero(14, "zero arm motor 14").ok);
  CHECK(zeroing.set_zero(21, "zero arm motor 21").ok);
  const auto wrist = zeroing.set_zero(15, "zero arm motor 15");
  CHECK_FALSE(wrist.ok);
  CHECK(wrist.message.find("not an arm motor of tienkung_lite (its arm motors: 11 12 13 14 21 22 23 24)") !=
        std::string::npos);
}

TEST_CASE("tienkung arm zeroing: a closed session gives the backend back - and a failed one takes nothing",
          "[tienkung][zeroing]") {
  praxis::transport::LoopbackBus bus;
  LoopPro robot(bus, tk::BackendOptions{});
  LoopRobot pro(bus);
  { tk::ArmZeroing first(robot); }
  { tk::ArmZeroing second(robot); }  // the first one's claim ended with it
  pro.all(0.0);
  REQUIRE(robot.acquire(200ms).ok);
  CHECK_THROWS_AS((tk::ArmZeroing<Pro, Loopback>(robot)), std::logic_error);
  // The refused construction did not take the backend from its run: commands still leave.
  praxis::RobotState<P> s;
  robot.read(s, praxis::Clock::now());
  praxis::JointCommand<P> damping;
  praxis::damp_covered(damping, s.q, 2.0);
  robot.write(damping, praxis::Clock::now());
  praxis::transport::Stamped<tk::LimbCtrl> ctrl{};
  CHECK(pro.arm_ctrl.fetch(ctrl));
  CHECK(robot.commands_withheld_while_zeroing() == 0);
  REQUIRE(robot.release(50ms).ok);
}

}  // namespace tienkung_arm_zeroing_test
