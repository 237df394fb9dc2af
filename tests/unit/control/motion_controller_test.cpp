// control/motion_controller.hpp on its own terms, stepped in simulated time on mock hardware: which
// motions it offers and by which node (scripted prepare and stand-up on a joint-level robot, mode
// requests on a robot with modes, walking by the robot or by a node of yours, user control only with
// UserControlMotion among the extra nodes), which motions switch directly instead of dispatching,
// how its options reach their nodes, the start poses dispatching leads to, the behaviour's command
// on its port, the period, and the safe state per robot kind when control ends. The stories through
// the pipeline are in integration/motion_pipeline_test.cpp and motion_rules_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <type_traits>
#include <variant>

#include "praxis/control/motion_controller.hpp"
#include "praxis/control/user_control_motion.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace motion_controller_test {

using namespace std::chrono_literals;
namespace m = praxis::motion;
using m::MotionType;
using Go2 = praxis::unitree::Go2;
constexpr std::size_t N = Go2::joint_count;
using Mock = praxis::mock::MockRobot<Go2>;
using Modal = praxis::mock::ModalRobot<Go2>;
using Library = praxis::script::ScriptLibrary<Go2>;

// The walk motion's node on a robot that does not walk by itself.
struct MyWalk {
  static constexpr std::string_view name = "my_walk";
  using outputs = praxis::ports<m::BodyCommandPort<MotionType::walk, N>, m::SafeExitPort<MotionType::walk>>;
  void cycle(praxis::JointCommand<N>&, bool& safe) const { safe = true; }
};

// The behaviour's LED colour, from a node of yours.
struct MyLeds {
  static constexpr std::string_view name = "my_leds";
  using outputs = praxis::ports<m::LedCommandPort>;
  void cycle(praxis::LedRequest& leds) const { leds = {true, 1, 2, 3}; }
};

struct Ctrl {
  double dt = 0.002, kp = 45.0, kd = 1.25;
  std::array<double, N> init_pos = [] {
    auto p = Go2::stand_pose;
    p[0] += 0.1;
    return p;
  }();
  std::array<double, N> jpos_des = Go2::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() { jpos_des = init_pos; }
  std::array<float, 0> log() const { return {}; }
};
using UserNode = praxis::control::UserControlMotion<Go2, Ctrl>;

using OnMock = praxis::control::MotionController<Mock, praxis::control::CommandInput, MyWalk>;
using OnMockWithUser = praxis::control::MotionController<Mock, praxis::control::CommandInput, MyWalk, UserNode>;
using OnModal = praxis::control::MotionController<Modal, praxis::control::CommandInput>;

praxis::control::MotionOptions quiet() {
  praxis::control::MotionOptions o;
  o.print = false;
  return o;
}

praxis::mock::ModalOptions simulated() {
  praxis::mock::ModalOptions o;
  o.threaded = false;
  return o;
}

template <class C>
bool has_node(const C& c, std::string_view name) {
  const auto& names = std::remove_cvref_t<decltype(c.graph())>::node_names;
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::size_t at(MotionType t) { return static_cast<std::size_t>(t); }

const praxis::TimePoint t0{};

TEST_CASE("motion controller: every motion by its node and user control only with a node of yours",
          "[control][motion_controller]") {
  Mock robot;
  Library library;
  SECTION("a joint-level robot") {
    OnMock c(robot, library, quiet());
    for (const auto name : {"behaviour", "motion_selector", "damping", "prepare", "stand", "stand_up", "my_walk",
                            "visual_kick", "script", "dispatching", "fall_protection", "head_motion", "no_leds"}) {
      INFO(name);
      CHECK(has_node(c, name));
    }
    CHECK_FALSE(has_node(c, "user_control"));
    CHECK(has_node(c, "unoffered"));  // user control's ports, written once
    CHECK_FALSE(has_node(c, "state_machine"));
  }
  SECTION("with UserControlMotion") {
    OnMockWithUser c(robot, library, quiet());
    CHECK(has_node(c, "user_control"));
    CHECK_FALSE(has_node(c, "unoffered"));  // nothing left unoffered
  }
  SECTION("a robot with modes that walks by itself") {
    Modal modal(simulated());
    OnModal c(modal, library, quiet());
    CHECK(has_node(c, "robot/prepare"));
    CHECK(has_node(c, "robot/stand_up"));
    CHECK(has_node(c, "robot/walk"));
    CHECK_FALSE(has_node(c, "prepare"));
    CHECK_FALSE(has_node(c, "stand_up"));
    CHECK(has_node(c, "stand"));  // praxis' stand stays: the selector decides who carries it out
  }
}

TEST_CASE("motion controller: motions the robot carries out and those not dispatched into switch directly",
          "[control][motion_controller]") {
  Library library;
  SECTION("a joint-level robot: prepare, stand-up and scripts") {
    Mock robot;
    OnMock c(robot, library, quiet());
    const auto& jl = c.options().selector.joint_level;
    for (std::size_t t = 0; t < m::k_motion_types; ++t) {
      const auto type = static_cast<MotionType>(t);
      INFO(praxis::to_string(type));
      const bool direct = type == MotionType::prepare || type == MotionType::stand_up || type == MotionType::script;
      CHECK(jl[t] == !direct);
    }
    CHECK(c.node<m::MotionSelector>().options.joint_level == jl);
  }
  SECTION("a robot with modes that walks: also stand, walk and kick") {
    Modal modal(simulated());
    OnModal c(modal, library, quiet());
    const auto& jl = c.options().selector.joint_level;
    for (const auto t : {MotionType::prepare, MotionType::stand_up, MotionType::script, MotionType::stand,
                         MotionType::walk, MotionType::visual_kick}) {
      INFO(praxis::to_string(t));
      CHECK_FALSE(jl[at(t)]);
    }
    for (const auto t : {MotionType::damping, MotionType::dispatching, MotionType::fall_protection,
                         MotionType::user_control}) {
      INFO(praxis::to_string(t));
      CHECK(jl[at(t)]);
    }
  }
  SECTION("a motion the options already switch directly stays so") {
    Mock robot;
    auto o = quiet();
    o.selector.joint_level[at(MotionType::visual_kick)] = false;
    OnMock c(robot, library, o);
    CHECK_FALSE(c.options().selector.joint_level[at(MotionType::visual_kick)]);
    CHECK(c.options().selector.joint_level[at(MotionType::stand)]);
  }
}

TEST_CASE("motion controller: the options reach their nodes", "[control][motion_controller]") {
  Library library;
  auto o = quiet();
  o.prepare_script = "crouch";
  o.stand_up_script = "get_up_front";
  o.dispatch_duration = 700ms;
  o.walk.deceleration_distance = 0.25;
  o.head.max_velocity = 1.5;
  SECTION("a joint-level robot plays prepare and stand-up from the library") {
    Mock robot;
    OnMock c(robot, library, o);
    const auto& prepare = c.node<m::ScriptedMotion<Go2, MotionType::prepare>>();
    const auto& stand_up = c.node<m::ScriptedMotion<Go2, MotionType::stand_up>>();
    CHECK(prepare.library == &library);
    CHECK(prepare.script_name == "crouch");
    CHECK(stand_up.library == &library);
    CHECK(stand_up.script_name == "get_up_front");
    CHECK(c.node<m::ScriptMotion<Go2>>().library == &library);
    CHECK(c.node<m::DispatchingMotion<Go2>>().duration == 700ms);
    CHECK(c.node<m::WalkMotion>().options.deceleration_distance == 0.25);
    CHECK(c.node<m::HeadMotionNode<Go2>>().options.max_velocity == 1.5);
  }
  SECTION("a robot that gets up by itself: stand-up waits for the get-up") {
    Modal modal(simulated());
    OnModal c(modal, library, o);
    CHECK(c.node<m::ModeMotion<Go2, MotionType::stand_up>>().wait_for_get_up);
    CHECK_FALSE(c.node<m::ModeMotion<Go2, MotionType::prepare>>().wait_for_get_up);
    CHECK(c.node<m::ScriptMotion<Go2>>().library == &library);
  }
}

TEST_CASE("motion controller: dispatching leads to each motion's start pose set when control starts",
          "[control][motion_controller]") {
  Mock robot;
  Library library;
  OnMockWithUser c(robot, library, quiet());
  auto& dispatch = c.node<m::DispatchingMotion<Go2>>();
  CHECK(dispatch.start_pose[at(MotionType::user_control)] == Go2::stand_pose);  // before the start
  auto stand = Go2::stand_pose;
  stand[5] -= 0.1;
  c.node<m::StandMotion<Go2>>().pose = stand;
  c.step(t0 + 2ms);
  CHECK(dispatch.start_pose[at(MotionType::user_control)] == Ctrl{}.init_pos);
  CHECK(dispatch.start_pose[at(MotionType::stand)] == stand);
  // Motions without a start pose of their node's own keep the model's stand pose.
  CHECK(dispatch.start_pose[at(MotionType::visual_kick)] == Go2::stand_pose);
  CHECK(dispatch.start_pose[at(MotionType::damping)] == Go2::stand_pose);
}

TEST_CASE("motion controller: a pose a robot reports it stands in is what stand holds and dispatching leads to",
          "[control][motion_controller]") {
  Mock robot;
  Library library;
  OnMock c(robot, library, quiet());
  auto reported = Go2::stand_pose;
  reported[2] -= 0.2;
  c.adopt_stand_pose(reported);
  CHECK(c.node<m::StandMotion<Go2>>().pose == reported);
  CHECK(c.node<m::DispatchingMotion<Go2>>().start_pose[at(MotionType::stand)] == reported);
  c.step(t0 + 2ms);
  CHECK(c.node<m::DispatchingMotion<Go2>>().start_pose[at(MotionType::stand)] == reported);
}

TEST_CASE("motion controller: the period is 2 ms unless the options set one", "[control][motion_controller]") {
  Mock robot;
  Library library;
  OnMock c(robot, library, quiet());
  CHECK(c.period() == 2ms);
  auto o = quiet();
  o.period = 5ms;
  OnMock fixed(robot, library, o);
  CHECK(fixed.period() == 5ms);
}

TEST_CASE("motion controller: the behaviour's command is on its port and nothing is asked before it",
          "[control][motion_controller]") {
  Library library;
  Modal modal(simulated());
  OnModal c(modal, library, quiet());
  c.step(t0 + 2ms);
  CHECK(std::holds_alternative<m::command::Unset>(c.graph().get<m::MotionCommandPort>()));
  CHECK_FALSE(c.selection().commanded);
  CHECK_FALSE(c.requests().any);
  c.behaviour().command = m::command::Stand{};
  c.step(t0 + 4ms);
  CHECK(std::holds_alternative<m::command::Stand>(c.graph().get<m::MotionCommandPort>()));
  CHECK(c.selection().commanded);
}

TEST_CASE("motion controller: a node of yours that writes the LED colour replaces NoLeds",
          "[control][motion_controller]") {
  Library library;
  Modal modal(simulated());
  praxis::control::MotionController<Modal, praxis::control::CommandInput, MyLeds> c(modal, library, quiet());
  CHECK(has_node(c, "my_leds"));
  CHECK_FALSE(has_node(c, "no_leds"));
  c.behaviour().command = m::command::Stand{};
  c.step(t0 + 2ms);
  c.step(t0 + 4ms);
  CHECK(c.graph().get<m::LedCommandPort>() == praxis::LedRequest{true, 1, 2, 3});
  REQUIRE(c.requests().any);
  // This robot has no LEDs of its own (no leds capability): the colour is not passed on.
  STATIC_REQUIRE_FALSE(Modal::capabilities.leds);
  CHECK_FALSE(c.requests().leds.set);
}

TEST_CASE("motion controller: control of a joint-level robot ends in joint damping", "[control][motion_controller]") {
  Mock robot;
  Library library;
  auto o = quiet();
  o.damping_kd = 3.0;
  OnMock c(robot, library, o);
  robot.set_joint_positions(Go2::stand_pose);
  c.behaviour().command = m::command::Stand{};
  for (auto t = t0 + 2ms; t <= t0 + 1500ms; t += 2ms) c.step(t);
  REQUIRE(c.selection().current == MotionType::stand);
  REQUIRE(robot.last_command().command.kp.maxCoeff() > 0.0);
  const auto outcome = c.finish();
  CHECK(outcome.safe_state == praxis::SafeState::joint_damping);
  const auto& last = robot.last_command().command;
  CHECK(last.kp.maxCoeff() == 0.0);
  CHECK(last.kd.minCoeff() == 3.0);
}

TEST_CASE("motion controller: control of a robot with modes ends in a request for its damping mode",
          "[control][motion_controller]") {
  Library library;
  Modal modal(simulated());
  OnModal c(modal, library, quiet());
  c.behaviour().command = m::command::Stand{};
  for (auto t = t0 + 2ms; t <= t0 + 500ms; t += 2ms) c.step(t);
  REQUIRE(c.requests().mode == praxis::RobotMode::locomotion);
  const auto outcome = c.finish();
  CHECK(outcome.safe_state == praxis::SafeState::mode_request);
  CHECK_THAT(outcome.safe_state_sent, Catch::Contains("damping mode requested"));
  // The worker serves it at its next period.
  praxis::RobotState<N> state;
  modal.read(state, t0 + 600ms);
  const auto calls = modal.calls();
  REQUIRE_FALSE(calls.empty());
  CHECK(calls.back().call == praxis::mock::RobotCall::change_mode);
  CHECK(calls.back().mode == praxis::RobotMode::damping);
}

}  // namespace motion_controller_test
