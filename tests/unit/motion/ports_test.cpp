// motion/ports.hpp: the motion layer's ports and the small decisions they carry — each motion's
// safe-exit and body command ports named "praxis/<kind>/<motion name>" (built at compile time),
// safe-exit flags true until written, which safety findings force damping by themselves
// (must_damp), the fall phases' names and predicates, and which port names are the users' own.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include "praxis/motion/ports.hpp"

namespace motion_ports_test {

namespace m = praxis::motion;
using m::MotionType;

template <MotionType T>
void check_motion_ports(std::string_view motion_name) {
  INFO(motion_name);
  CHECK(m::SafeExitPort<T>::name == "praxis/safe_exit/" + std::string(motion_name));
  CHECK(m::BodyCommandPort<T, 12>::name == "praxis/body/" + std::string(motion_name));
  CHECK(m::BodyCommandPort<T, 29>::name == m::BodyCommandPort<T, 12>::name);  // the name does not carry N
  CHECK(m::SafeExitPort<T>::default_value());  // safe to leave until the node writes otherwise
}

TEST_CASE("motion ports: each motion's ports are named after it", "[motion][ports]") {
  // Written out rather than taken from to_string, so a port name that went wrong (a truncated
  // buffer, a lost prefix) shows; fall_protection is the longest.
  check_motion_ports<MotionType::damping>("damping");
  check_motion_ports<MotionType::prepare>("prepare");
  check_motion_ports<MotionType::stand>("stand");
  check_motion_ports<MotionType::stand_up>("stand_up");
  check_motion_ports<MotionType::walk>("walk");
  check_motion_ports<MotionType::visual_kick>("visual_kick");
  check_motion_ports<MotionType::script>("script");
  check_motion_ports<MotionType::dispatching>("dispatching");
  check_motion_ports<MotionType::fall_protection>("fall_protection");
  check_motion_ports<MotionType::user_control>("user_control");
  STATIC_REQUIRE(m::SafeExitPort<MotionType::walk>::name == "praxis/safe_exit/walk");
}

TEST_CASE("motion ports: the behaviour's ports keep plain names and praxis' own are under praxis/",
          "[motion][ports]") {
  CHECK(m::MotionCommandPort::name == "motion_command");
  CHECK(m::LedCommandPort::name == "led_command");
  for (std::string_view name :
       {m::MotionSelectionPort::name, m::MotionSafeExitsPort::name, m::FallStatePort::name, m::SafetyPort::name,
        m::LocomotionRequestPort::name, m::HeadCommandPort::name, m::CollectorReportPort::name,
        m::RobotRequestsPort::name, m::ActuatedCommandPort<12>::name, m::MotorCommandPort<12>::name}) {
    INFO(name);
    CHECK(name.substr(0, 7) == "praxis/");
  }
  CHECK(m::ActuatedCommandPort<12>::name != m::MotorCommandPort<12>::name);
}

TEST_CASE("motion ports: missing or stale or invalid state or a lost link force damping but tilt and faults do not",
          "[motion][ports]") {
  m::SafetyStatus s;
  CHECK(s.must_damp());  // a fresh status: nothing received yet
  s.no_state = false;
  CHECK_FALSE(s.must_damp());
  // Tilt and joint faults are the selector's to weigh (tilt matters only under the user's controller).
  s.tilted = true;
  s.joint_fault = true;
  CHECK_FALSE(s.must_damp());
  const auto with = [](auto set) {
    m::SafetyStatus t;
    t.no_state = false;
    set(t);
    return t.must_damp();
  };
  CHECK(with([](m::SafetyStatus& t) { t.stale = true; }));
  CHECK(with([](m::SafetyStatus& t) { t.invalid = true; }));
  CHECK(with([](m::SafetyStatus& t) { t.link_lost = true; }));
  CHECK(with([](m::SafetyStatus& t) { t.no_state = true; }));
}

TEST_CASE("motion ports: fall phases with their names and predicates", "[motion][ports]") {
  CHECK(m::to_string(m::FallPhase::upright) == "upright");
  CHECK(m::to_string(m::FallPhase::falling) == "falling");
  CHECK(m::to_string(m::FallPhase::fallen) == "fallen");
  m::FallState f;
  CHECK(f.phase == m::FallPhase::upright);
  CHECK_FALSE(f.falling());
  CHECK_FALSE(f.fallen());
  f.phase = m::FallPhase::falling;
  CHECK(f.falling());
  CHECK_FALSE(f.fallen());
  f.phase = m::FallPhase::fallen;
  CHECK_FALSE(f.falling());  // on the floor is not on the way down
  CHECK(f.fallen());
}

}  // namespace motion_ports_test
