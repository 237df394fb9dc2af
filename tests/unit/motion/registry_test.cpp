// The motion layer's view of the motion registry (motion/registry.hpp): the robot mode each motion
// asks for and whether the robot's own controller carries it out, per robot kind; the safe-exit
// collection and the collector bound by motion. The list itself (count, names, each tag's fields)
// is tested in unit/core/motion_registry_test.cpp.

#include <catch2/catch.hpp>

#include <string_view>

#include "praxis/graph.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/registry.hpp"
#include "praxis/motion/selector.hpp"

namespace registry_test {

namespace m = praxis::motion;
using m::MotionType;
using praxis::RobotMode;

namespace {
constexpr praxis::Capabilities joints_only{};                                  // a Unitree on low-level
constexpr praxis::Capabilities modes_only{.modes = true};                      // an Aurora-like robot
constexpr praxis::Capabilities walks_only{.locomotion = true};                 // a sport-mode robot
constexpr praxis::Capabilities modes_and_walks{.modes = true, .locomotion = true, .get_up = true};  // Booster
}  // namespace

TEST_CASE("motion registry: the mode each motion asks for and who carries it out, per robot kind",
          "[motion][registry]") {
  // A robot without modes is asked for none.
  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    INFO(m::to_string(static_cast<MotionType>(t)));
    CHECK(m::mode_for<joints_only>(static_cast<MotionType>(t)) == RobotMode::unknown);
    CHECK_FALSE(m::backend_runs<joints_only>(static_cast<MotionType>(t)));
  }
  CHECK(m::mode_for<modes_only>(MotionType::damping) == RobotMode::damping);
  CHECK(m::mode_for<modes_only>(MotionType::prepare) == RobotMode::prepare);
  CHECK(m::mode_for<modes_only>(MotionType::stand_up) == RobotMode::prepare);
  CHECK(m::mode_for<modes_only>(MotionType::stand) == RobotMode::user);  // it does not walk: praxis stands it
  CHECK(m::mode_for<modes_and_walks>(MotionType::stand) == RobotMode::locomotion);
  CHECK(m::mode_for<modes_and_walks>(MotionType::walk) == RobotMode::locomotion);
  CHECK(m::mode_for<modes_and_walks>(MotionType::visual_kick) == RobotMode::locomotion);
  CHECK(m::mode_for<modes_and_walks>(MotionType::script) == RobotMode::user);
  CHECK(m::mode_for<modes_and_walks>(MotionType::user_control) == RobotMode::user);

  CHECK(m::backend_runs<modes_only>(MotionType::prepare));
  CHECK(m::backend_runs<modes_only>(MotionType::stand_up));
  CHECK_FALSE(m::backend_runs<modes_only>(MotionType::stand));
  CHECK(m::backend_runs<walks_only>(MotionType::walk));
  CHECK_FALSE(m::backend_runs<walks_only>(MotionType::stand));  // no modes: praxis' stand
  CHECK(m::backend_runs<modes_and_walks>(MotionType::stand));
  CHECK(m::backend_runs<modes_and_walks>(MotionType::visual_kick));
  for (auto t : {MotionType::damping, MotionType::script, MotionType::dispatching, MotionType::fall_protection,
                 MotionType::user_control}) {
    INFO(m::to_string(t));
    CHECK_FALSE(m::backend_runs<modes_and_walks>(t));  // praxis' own nodes, on every robot
  }
}

namespace {
// Every motion's safe-exit flag from its own source: false only for the odd indices.
template <MotionType T>
struct ExitSource {
  static constexpr std::string_view name = m::to_string(T);
  void cycle(praxis::out<m::SafeExitPort<T>> out) const {
    out.template get<m::SafeExitPort<T>>() = static_cast<std::size_t>(T) % 2 == 0;
  }
};
}  // namespace

TEST_CASE("motion registry: the safe-exit collector stores each motion's flag under that motion",
          "[motion][registry]") {
  using MT = MotionType;
  praxis::Pipeline<m::SafeExitCollector, ExitSource<MT::damping>, ExitSource<MT::prepare>, ExitSource<MT::stand>,
                   ExitSource<MT::stand_up>, ExitSource<MT::walk>, ExitSource<MT::visual_kick>,
                   ExitSource<MT::script>, ExitSource<MT::dispatching>, ExitSource<MT::fall_protection>,
                   ExitSource<MT::user_control>>
      pipeline;
  pipeline.cycle();
  const auto& exits = pipeline.get<m::MotionSafeExitsPort>();
  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    INFO(m::to_string(static_cast<MotionType>(t)));
    CHECK(exits[static_cast<MotionType>(t)] == (t % 2 == 0));
  }
}

namespace {
using Model = praxis::unitree::Go2;
constexpr std::size_t N = Model::joint_count;
// Each motion's body command holds its own index as every joint's target, so the collector's output
// says whose command it passed on.
template <MotionType T>
struct BodySource {
  static constexpr std::string_view name = m::to_string(T);
  void cycle(praxis::out<m::BodyCommandPort<T, N>> out) const {
    auto& c = out.template get<m::BodyCommandPort<T, N>>();
    c = {};
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      c.q[i] = std::clamp(0.01 * static_cast<double>(T), Model::joints[j].lower, Model::joints[j].upper);
      c.kd[i] = 1.0;
      c.mode[j] = praxis::JointMode::position;
    }
  }
};
struct Inputs {
  MotionType current = MotionType::damping;
  void cycle(praxis::out<m::MotionSelectionPort, m::StatePort<N>, praxis::CyclePort, m::HeadCommandPort> out) const {
    out.get<m::MotionSelectionPort>().current = current;
  }
};
// What the collector reads back as last cycle's command.
struct Actuate {
  void cycle(praxis::in<m::MotorCommandPort<N>> in, praxis::out<m::ActuatedCommandPort<N>> out) const {
    out.get<m::ActuatedCommandPort<N>>() = in.get<m::MotorCommandPort<N>>();
  }
};
}  // namespace

TEST_CASE("motion registry: the collector passes on the selected motion's own command, for every motion",
          "[motion][registry]") {
  using MT = MotionType;
  praxis::Pipeline<m::MotorCommandsCollector<Model>, Inputs, Actuate, BodySource<MT::damping>, BodySource<MT::prepare>,
                   BodySource<MT::stand>, BodySource<MT::stand_up>, BodySource<MT::walk>,
                   BodySource<MT::visual_kick>, BodySource<MT::script>, BodySource<MT::dispatching>,
                   BodySource<MT::fall_protection>, BodySource<MT::user_control>>
      pipeline;
  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    INFO(m::to_string(static_cast<MotionType>(t)));
    pipeline.reset();  // no rate limit from the last motion's targets
    pipeline.node<Inputs>().current = static_cast<MotionType>(t);
    pipeline.cycle();
    const auto& cmd = pipeline.get<m::MotorCommandPort<N>>();
    const double expected = std::clamp(0.01 * static_cast<double>(t), Model::joints[0].lower, Model::joints[0].upper);
    CHECK(cmd.q[0] == Approx(expected));
  }
}

TEST_CASE("commands sender: a robot with modes is asked for nothing before its first state, even for damping",
          "[motion][registry][sender]") {
  praxis::motion::CommandsSender<Model, modes_and_walks> sender;
  m::MotionSelection sel;
  sel.current = MotionType::damping;  // what "no state" selects
  sel.commanded = true;               // the behaviour already asked to walk
  praxis::JointCommand<N> cmd, actuated;
  praxis::RobotRequests r;
  m::SafetyStatus no_state;  // no_state until the first state arrives
  sender.cycle(cmd, sel, m::MotionCommand{m::command::Walk{}}, praxis::LocomotionRequest{}, m::HeadCommand{},
               praxis::LedRequest{}, praxis::RobotStatus{}, no_state, actuated, r);
  CHECK_FALSE(r.any);
  m::SafetyStatus seen{false};
  seen.stale = true;  // seen once, then silent: damping is asked for
  sender.cycle(cmd, sel, m::MotionCommand{m::command::Walk{}}, praxis::LocomotionRequest{}, m::HeadCommand{},
               praxis::LedRequest{}, praxis::RobotStatus{}, seen, actuated, r);
  CHECK(r.any);
  CHECK(r.mode == RobotMode::damping);
}

}  // namespace registry_test
