// control/robot_controller.hpp on its own terms, stepped in simulated time on mock hardware: the
// motions it offers (damping, stand, user control, dispatching, fall protection; every other motion
// unoffered unless a node of yours carries it), its start poses (dispatching leads to the model's
// stand pose; STAND holds USER_CTRL's init_pos, or the pose a robot reports with StandPose::robot),
// the stand gains (the model's or USER_CTRL's), the pd_ratio options, the period from USER_CTRL's
// dt, what it refuses before anything is sent (dt, gains, init_pos, naming joint and parameter
// folder), and the robot's safe state when control ends. The gamepad stories (R2, A, L2+B, faults)
// are in integration/controller_story_test.cpp and controller_seam_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace robot_controller_test {

using namespace std::chrono_literals;
namespace m = praxis::motion;
using m::MotionType;
using Go2 = praxis::unitree::Go2;
constexpr std::size_t N = Go2::joint_count;
using Mock = praxis::mock::MockRobot<Go2>;

// A USER_CTRL whose values a test sets: gains that differ from Go2's (60, 5), an init_pos off the
// model's stand pose on the front-right thigh.
struct Ctrl {
  double dt = 0.004;
  std::array<double, N> kp = [] {
    std::array<double, N> k{};
    k.fill(45.0);
    return k;
  }();
  double kd = 1.25;
  std::array<double, N> init_pos = [] {
    auto p = Go2::stand_pose;
    p[1] += 0.1;
    return p;
  }();
  std::array<double, N> jpos_des = Go2::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() { jpos_des = init_pos; }
  std::array<float, 0> log() const { return {}; }
};

// A node of yours that carries the walk motion (RobotController offers none of its own).
struct MyWalk {
  static constexpr std::string_view name = "my_walk";
  using outputs = praxis::ports<m::BodyCommandPort<MotionType::walk, N>, m::SafeExitPort<MotionType::walk>>;
  void cycle(praxis::JointCommand<N>&, bool& safe) const { safe = true; }
};

using Controller = praxis::control::RobotController<Mock, Ctrl>;

praxis::control::ControllerOptions quiet() {
  praxis::control::ControllerOptions o;
  o.print = false;
  return o;
}

template <class C>
bool has_node(const C& c, std::string_view name) {
  const auto& names = std::remove_cvref_t<decltype(c.graph())>::node_names;
  return std::find(names.begin(), names.end(), name) != names.end();
}

const praxis::TimePoint t0{};

TEST_CASE("robot controller: it offers damping and stand and user control and dispatching and fall protection only",
          "[control][robot_controller]") {
  Mock robot;
  Controller c(robot, quiet());
  for (const auto offered : {"damping", "stand", "user_control", "dispatching", "fall_protection"}) {
    INFO(offered);
    CHECK(has_node(c, offered));
  }
  // The framework's state machine selects, not the behaviour's selector; no behaviour, no head.
  CHECK(has_node(c, "state_machine"));
  CHECK_FALSE(has_node(c, "motion_selector"));
  CHECK_FALSE(has_node(c, "head_motion"));
  for (const auto unoffered : {"prepare", "stand_up", "walk", "visual_kick", "script"}) {
    INFO(unoffered);
    CHECK_FALSE(has_node(c, unoffered));
  }
  CHECK(has_node(c, "unoffered"));  // writes their ports once, so the graph is whole
}

TEST_CASE("robot controller: a node of yours carries a motion it does not offer", "[control][robot_controller]") {
  Mock robot;
  praxis::control::RobotController<Mock, Ctrl, MyWalk> c(robot, quiet());
  CHECK(has_node(c, "my_walk"));
  CHECK_FALSE(has_node(c, "walk"));
  CHECK(has_node(c, "unoffered"));  // the other four still are
}

TEST_CASE("robot controller: dispatching leads to the model's stand pose and STAND holds USER_CTRL's init_pos",
          "[control][robot_controller]") {
  Mock robot;
  Controller c(robot, quiet());
  for (const auto& pose : c.node<m::DispatchingMotion<Go2>>().start_pose) CHECK(pose == Go2::stand_pose);
  CHECK(c.node<m::StandMotion<Go2>>().pose == Go2::stand_pose);  // until the first step
  c.step(t0 + 4ms);
  CHECK(c.node<m::StandMotion<Go2>>().pose == Ctrl{}.init_pos);
  // STAND's pose is taken from init_pos when control starts, not followed mid-run.
  c.user().init_pos[0] = 0.05;
  CHECK(c.node<m::StandMotion<Go2>>().pose[0] == Ctrl{}.init_pos[0]);
}

TEST_CASE("robot controller: the stand gains are the model's unless USER_CTRL's are asked for",
          "[control][robot_controller]") {
  Mock robot;
  SECTION("model") {
    Controller c(robot, quiet());
    c.step(t0 + 4ms);
    CHECK(c.node<m::StandMotion<Go2>>().kp == Go2::default_kp);
    CHECK(c.node<m::StandMotion<Go2>>().kd == Go2::default_kd);
  }
  SECTION("user controller") {
    auto o = quiet();
    o.stand_gains = praxis::control::StandGains::user_controller;
    Controller c(robot, o);
    c.step(t0 + 4ms);
    CHECK(c.node<m::StandMotion<Go2>>().kp == Ctrl{}.kp);
    for (const double kd : c.node<m::StandMotion<Go2>>().kd) CHECK(kd == 1.25);
  }
}

TEST_CASE("robot controller: a pose the robot reports it stands in becomes STAND's and init_pos unless kept",
          "[control][robot_controller]") {
  Mock robot;
  auto reported = Go2::stand_pose;
  reported[2] -= 0.2;
  SECTION("StandPose::robot") {
    Controller c(robot, quiet());
    c.adopt_stand_pose(reported);
    CHECK(c.user().init_pos == reported);
    CHECK(c.node<m::StandMotion<Go2>>().pose == reported);
    CHECK(c.node<m::DispatchingMotion<Go2>>().start_pose[static_cast<std::size_t>(MotionType::stand)] == reported);
    c.step(t0 + 4ms);
    CHECK(c.node<m::StandMotion<Go2>>().pose == reported);  // the start keeps it: it is init_pos now
  }
  SECTION("StandPose::init_pos") {
    auto o = quiet();
    o.stand_pose = praxis::control::StandPose::init_pos;
    Controller c(robot, o);
    c.adopt_stand_pose(reported);
    CHECK(c.user().init_pos == Ctrl{}.init_pos);
    CHECK(c.node<m::DispatchingMotion<Go2>>().start_pose[static_cast<std::size_t>(MotionType::stand)] ==
          Go2::stand_pose);
    c.step(t0 + 4ms);
    CHECK(c.node<m::StandMotion<Go2>>().pose == Ctrl{}.init_pos);
  }
}

TEST_CASE("robot controller: the period is USER_CTRL's dt unless the options set one", "[control][robot_controller]") {
  Mock robot;
  Controller c(robot, quiet());
  CHECK(c.period() == 4ms);
  auto o = quiet();
  o.period = 1ms;
  Controller fixed(robot, o);
  CHECK(fixed.period() == 1ms);
}

TEST_CASE("robot controller: the state machine starts in damping with the pd_ratio options",
          "[control][robot_controller]") {
  Mock robot;
  auto o = quiet();
  o.pd_ratio_init = 0.5;
  o.delta_pd = 0.01;
  Controller c(robot, o);
  const auto& sm = c.node<praxis::control::GamepadSelector>();
  CHECK(sm.initial.pd_ratio == 0.5);
  CHECK(sm.initial.delta_pd == 0.01);
  CHECK(sm.machine.pd_ratio == 0.5);
  robot.set_joint_positions(Go2::stand_pose);
  robot.hold(praxis::GamepadButton::R2, t0 + 20ms, 1s);
  c.step(t0 + 4ms);
  CHECK(c.state() == praxis::control::ControlState::damping);
  for (auto t = t0 + 8ms; t <= t0 + 32ms; t += 4ms) c.step(t);
  REQUIRE(c.state() == praxis::control::ControlState::stand);
  // Entered at the options' ratio: at most one delta_pd step per cycle since R2 went down.
  CHECK(c.pd_ratio() >= 0.5);
  CHECK(c.pd_ratio() <= 0.5 + 4 * 0.01 + 1e-12);
}

TEST_CASE("robot controller: USER_CTRL's dt and gains and init_pos are checked before anything is sent",
          "[control][robot_controller]") {
  Mock robot;
  const auto refused = [&](Ctrl ctrl, const std::string& expected) {
    Controller c(robot, quiet(), ctrl);
    const auto before = robot.commands_received();
    CHECK_THROWS_WITH(c.step(t0 + 4ms), Catch::Contains(expected));
    CHECK(robot.commands_received() == before);
  };
  SECTION("dt") {
    Ctrl zero;
    zero.dt = 0.0;
    refused(zero, "USER_CTRL dt must be in (0, 1] seconds");
    Ctrl long_dt;
    long_dt.dt = 1.5;
    refused(long_dt, "USER_CTRL dt must be in (0, 1] seconds");
    Ctrl nan;
    nan.dt = std::numeric_limits<double>::quiet_NaN();
    refused(nan, "USER_CTRL dt must be in (0, 1] seconds");
  }
  SECTION("gains") {
    Ctrl negative;
    negative.kp[4] = -1.0;
    refused(negative, "joint 4 (FL_thigh) has kp -1");
    Ctrl nan;
    nan.kd = std::numeric_limits<double>::quiet_NaN();
    refused(nan, "USER_CTRL kp and kd must be finite and >= 0; joint 0 (FR_hip)");
  }
  SECTION("init_pos") {
    Ctrl outside;
    outside.init_pos[2] = Go2::joints[2].upper + 0.01;
    refused(outside, "USER_CTRL init_pos[2] (FR_calf)");
    refused(outside, "is outside the joint's limits");
  }
  SECTION("an accepted USER_CTRL runs") {
    Controller c(robot, quiet());
    CHECK_NOTHROW(c.step(t0 + 4ms));
    CHECK(robot.commands_received() == 1);
  }
}

TEST_CASE("robot controller: load_params checks at once and names the parameter folder",
          "[control][robot_controller]") {
  Mock robot;
  Ctrl bad;
  bad.dt = 2.0;
  Controller c(robot, quiet(), bad);
  CHECK_FALSE(c.param_folder().has_value());
  CHECK_THROWS_WITH(c.load_params("params/go2"), Catch::Contains("(parameters from params/go2)"));
  REQUIRE(c.param_folder().has_value());
  CHECK(*c.param_folder() == std::filesystem::path("params/go2"));
}

TEST_CASE("robot controller: control of a joint-level robot ends in joint damping from STAND too",
          "[control][robot_controller]") {
  Mock robot;
  auto o = quiet();
  o.damping_kd = 3.0;
  Controller c(robot, o);
  robot.set_joint_positions(Go2::stand_pose);
  robot.hold(praxis::GamepadButton::R2, t0 + 20ms, 1s);
  auto t = t0;
  for (t = t0 + 4ms; t <= t0 + 400ms; t += 4ms) c.step(t);
  REQUIRE(c.state() == praxis::control::ControlState::stand);
  REQUIRE(robot.last_command().command.kp.maxCoeff() > 0.0);  // stiff while standing
  const auto outcome = c.finish();
  CHECK(outcome.safe_state == praxis::SafeState::joint_damping);
  CHECK(outcome.safe_state_sent == "joint damping on 12 joints");
  const auto& last = robot.last_command().command;
  CHECK(last.kp.maxCoeff() == 0.0);
  CHECK(last.kd.minCoeff() == 3.0);
  CHECK(last.kd.maxCoeff() == 3.0);
}

// A USER_CTRL whose CTRL target steps 0.3 rad away from init_pos on the front-right thigh at once,
// as a trained policy's first inference does, and says whether the guard may slow it.
struct Stepping : Ctrl {
  bool limited = true;
  [[nodiscard]] bool limits_target_rate() const { return limited; }
  void calculate() {
    jpos_des = init_pos;
    jpos_des[1] += 0.3;
  }
};

TEST_CASE("robot controller: USER_CTRL's targets are rate limited unless its limits_target_rate() says no",
          "[control][robot_controller]") {
  const bool limited = GENERATE(true, false);
  Mock robot;
  Stepping ctrl;
  ctrl.limited = limited;
  praxis::control::RobotController<Mock, Stepping> c(robot, quiet(), ctrl);
  c.load_params("params");  // where RobotController reads the controller's choice
  robot.set_joint_positions(c.user().init_pos);
  robot.hold(praxis::GamepadButton::R2, t0 + 20ms, 1s);
  robot.hold(praxis::GamepadButton::A, t0 + 1600ms, 100ms);
  auto t = t0;
  for (t = t0 + 4ms; c.state() != praxis::control::ControlState::ctrl && t <= t0 + 3s; t += 4ms) c.step(t);
  REQUIRE(c.state() == praxis::control::ControlState::ctrl);
  const double from = c.user().init_pos[1];
  const double sent = robot.last_command().command.q[1];
  INFO("CTRL's first target on joint 1: " << sent << " from " << from);
  if (limited) {
    // 10 rad/s over the 4 ms period: 0.04 rad.
    CHECK(sent == Approx(from + 10.0 * 0.004).margin(1e-9));
  } else {
    CHECK(sent == Approx(from + 0.3).margin(1e-12));
  }
}

}  // namespace robot_controller_test
