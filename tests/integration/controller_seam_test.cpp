// RobotController as a configuration of the motion pipeline: what the runtime seam changed, on the
// mock with a simulated clock — joint faults reported by the robot, the stand gains, every USER_CTRL
// member reaching the collector, and extra nodes of the user's in the same graph.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <type_traits>

#include "praxis/control/robot_controller.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "../support/hold.hpp"

namespace controller_seam_test {

using namespace std::chrono_literals;
using praxis::control::ControlState;
using praxis::GamepadButton;
using praxis::TimePoint;
using praxis::motion::MotionType;
using praxis::motion::SelectionCause;

namespace {

// Holds init_pos with one gain for every joint (kp 50: the stand checks below count on it).
template <class Model>
struct HoldController : praxis::test::Hold<Model> {
  HoldController() { this->kp = 50.0; }
};

// Every optional member, each joint with its own values: per-joint gains, velocity targets and
// feed-forward torques (all well inside the Go2's limits, so the guard leaves them alone).
struct PerJointController {
  static constexpr std::size_t N = 12;
  double dt = 0.002;
  std::array<double, N> kp{}, kd{}, jvel_des{}, tau_ff{};
  std::array<double, N> init_pos = praxis::unitree::Go2::stand_pose;
  std::array<double, N> jpos_des = praxis::unitree::Go2::stand_pose;
  PerJointController() {
    for (std::size_t j = 0; j < N; ++j) {
      const auto x = static_cast<double>(j);
      kp[j] = 20.0 + 2.0 * x;
      kd[j] = 0.5 + 0.1 * x;
      jvel_des[j] = 0.01 * (x - 6.0);
      tau_ff[j] = 0.25 * (x - 5.0);
    }
  }
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    jpos_des = init_pos;
    jpos_des[7] += 0.01;  // one target that differs from the stand pose
  }
  std::array<float, 1> log() const { return {0.0f}; }
};

// An extra node of the user's: reads the robot state, writes a port of its own.
struct KneeProbePort : praxis::port<"test/knee_probe", double> {};
struct KneeProbe {
  static constexpr std::string_view name = "knee_probe";
  using inputs = praxis::ports<praxis::StatePort<12>>;
  using outputs = praxis::ports<KneeProbePort>;
  std::size_t runs = 0;
  void cycle(const praxis::RobotState<12>& state, double& knee) {
    knee = state.q[2];
    ++runs;
  }
};

praxis::control::ControllerOptions quiet() {
  praxis::control::ControllerOptions o;
  o.print = false;
  return o;
}

TimePoint at(double s) { return TimePoint{} + praxis::from_seconds(s); }

template <class Controller>
void run_until(Controller& c, TimePoint& now, double seconds) {
  while (now < at(seconds)) {
    now += 2ms;
    c.step(now);
  }
}

}  // namespace

TEST_CASE("a joint that goes offline in CTRL sends the robot to damping (joint fault)", "[control][seam][faults]") {
  using Model = praxis::unitree::G1;
  praxis::mock::MockRobot<Model> robot;
  praxis::control::RobotController<decltype(robot), HoldController<Model>> controller(robot, quiet());
  TimePoint now{};
  robot.hold(GamepadButton::R2, at(0.1), 1s);
  robot.tap(GamepadButton::A, at(1.4));
  run_until(controller, now, 1.6);
  REQUIRE(controller.state() == ControlState::ctrl);
  CHECK(!controller.safety().joint_fault);

  robot.set_joint_offline(17, at(1.7));
  run_until(controller, now, 1.8);
  CHECK(controller.safety().joint_fault);
  CHECK(controller.safety().faulted_joint == 17);
  CHECK(controller.state() == ControlState::damping);
  CHECK(controller.pd_ratio() == 0.0);
  CHECK(robot.last_command().command.kp.maxCoeff() == 0.0);
  controller.flush();
  const auto t = controller.transitions();
  REQUIRE(!t.empty());
  CHECK(t.back().from == MotionType::user_control);
  CHECK(t.back().to == MotionType::damping);
  CHECK(t.back().cause == SelectionCause::joint_fault);
  // Event times count from the first step (at 2 ms): the fault at 1.7 s is seen within a cycle or two.
  CHECK(t.back().time > 1.69);
  CHECK(t.back().time < 1.71);

  // The gamepad cannot bring it back while the joint is faulted.
  robot.hold(GamepadButton::R2, at(1.9), 300ms);
  run_until(controller, now, 2.3);
  CHECK(controller.state() == ControlState::damping);
}

TEST_CASE("the stand gains are the model's by default, USER_CTRL's on request, both times pd_ratio",
          "[control][seam][stand]") {
  using Model = praxis::unitree::G1;
  for (const auto gains : {praxis::control::StandGains::model, praxis::control::StandGains::user_controller}) {
    praxis::mock::MockRobot<Model> robot;
    auto options = quiet();
    options.stand_gains = gains;
    praxis::control::RobotController<decltype(robot), HoldController<Model>> controller(robot, options);
    TimePoint now{};
    robot.hold(GamepadButton::R2, at(0.1), 200ms);  // about 100 steps of 0.005 from 0.1: mid-ramp
    run_until(controller, now, 0.5);
    REQUIRE(controller.state() == ControlState::stand);
    const double pd = controller.pd_ratio();
    CHECK(pd > 0.4);
    CHECK(pd < 0.8);
    INFO((gains == praxis::control::StandGains::model ? "model gains" : "USER_CTRL gains") << ", pd_ratio " << pd);
    const auto& cmd = controller.command();
    const auto& sent = robot.last_command().command;
    for (std::size_t j = 0; j < Model::joint_count; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const double kp = gains == praxis::control::StandGains::model ? Model::default_kp[j] : 50.0;
      const double kd = gains == praxis::control::StandGains::model ? Model::default_kd[j] : 2.0;
      INFO("joint " << Model::joints[j].name);
      CHECK(cmd.kp[i] == Approx(kp * pd));
      CHECK(cmd.kd[i] == Approx(kd * pd));
      CHECK(sent.kp[i] == Approx(kp * pd));
      CHECK(cmd.q[i] == Approx(Model::stand_pose[j]));  // USER_CTRL's init_pos either way
    }
    // G1 joint 3 (left knee): 100 by the model, 50 by USER_CTRL.
    CHECK(cmd.kp[3] == Approx((gains == praxis::control::StandGains::model ? 100.0 : 50.0) * pd));
  }
}

TEST_CASE("per-joint gains, velocity targets and feed-forward torques of USER_CTRL reach the command in CTRL",
          "[control][seam][user_control]") {
  using Model = praxis::unitree::Go2;
  praxis::mock::MockRobot<Model> robot;
  praxis::control::RobotController<decltype(robot), PerJointController> controller(robot, quiet());
  TimePoint now{};
  robot.hold(GamepadButton::R2, at(0.1), 1s);
  robot.tap(GamepadButton::A, at(1.4));
  run_until(controller, now, 1.6);
  REQUIRE(controller.state() == ControlState::ctrl);
  CHECK(controller.report().clamped_joints == 0);

  const PerJointController ref;
  const auto& cmd = controller.command();
  const auto& sent = robot.last_command().command;
  for (std::size_t j = 0; j < Model::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    INFO("joint " << Model::joints[j].name);
    CHECK(cmd.mode[j] == praxis::JointMode::position);
    CHECK(cmd.q[i] == Approx(Model::stand_pose[j] + (j == 7 ? 0.01 : 0.0)));
    CHECK(cmd.kp[i] == Approx(ref.kp[j]));
    CHECK(cmd.kd[i] == Approx(ref.kd[j]));
    CHECK(cmd.dq[i] == Approx(ref.jvel_des[j]));
    CHECK(cmd.tau_ff[i] == Approx(ref.tau_ff[j]));
    // and the same reached the robot
    CHECK(sent.kp[i] == Approx(ref.kp[j]));
    CHECK(sent.dq[i] == Approx(ref.jvel_des[j]));
    CHECK(sent.tau_ff[i] == Approx(ref.tau_ff[j]));
  }
}

TEST_CASE("an extra node runs every cycle beside the configuration's own nodes", "[control][seam][graph]") {
  using Model = praxis::unitree::Go2;
  using Robot = praxis::mock::MockRobot<Model>;
  using Plain = praxis::control::RobotController<Robot, HoldController<Model>>;
  using WithProbe = praxis::control::RobotController<Robot, HoldController<Model>, KneeProbe>;
  using PlainGraph = std::remove_cvref_t<decltype(std::declval<const Plain&>().graph())>;
  using ProbeGraph = std::remove_cvref_t<decltype(std::declval<const WithProbe&>().graph())>;

  // The configuration's node list is unchanged: the probe is one node more, nothing is replaced.
  STATIC_REQUIRE(ProbeGraph::node_count == PlainGraph::node_count + 1);
  for (const auto name : PlainGraph::declared_node_names) {
    INFO("node " << name);
    CHECK(std::find(ProbeGraph::declared_node_names.begin(), ProbeGraph::declared_node_names.end(), name) !=
          ProbeGraph::declared_node_names.end());
  }
  CHECK(std::find(ProbeGraph::node_names.begin(), ProbeGraph::node_names.end(), std::string_view("knee_probe")) !=
        ProbeGraph::node_names.end());

  Robot robot;
  WithProbe controller(robot, quiet());
  TimePoint now{};
  robot.hold(GamepadButton::R2, at(0.1), 1s);
  run_until(controller, now, 0.3);
  CHECK(controller.node<KneeProbe>().runs == controller.cycles());
  CHECK(controller.graph().get<KneeProbePort>() == controller.last_state().q[2]);
  run_until(controller, now, 1.5);
  CHECK(controller.node<KneeProbe>().runs == controller.cycles());
  CHECK(controller.graph().get<KneeProbePort>() == controller.last_state().q[2]);
  // The configuration behaves as without the probe: it stood up.
  CHECK(controller.state() == ControlState::stand);
  CHECK(controller.last_state().q[2] == Approx(Model::stand_pose[2]).margin(1e-2));
}

}  // namespace controller_seam_test
