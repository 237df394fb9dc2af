// A robot team's first praxis program, built against an installed praxis: a graph, and a
// controller on the mock robot.
#include <chrono>
#include <iostream>

#include <praxis/control/robot_controller.hpp>
#include <praxis/graph.hpp>
#include <praxis/hardware/mock/mock_robot.hpp>
#include <praxis/hardware/unitree/go2.hpp>

struct Value : praxis::port<"value", int> {};
struct Doubled : praxis::port<"doubled", int> {};

struct Source {
  using outputs = praxis::ports<Value>;
  void cycle(int& v) { v = 21; }
};
struct Doubler {
  using inputs = praxis::ports<Value>;
  using outputs = praxis::ports<Doubled>;
  void cycle(const int& v, int& d) { d = 2 * v; }
};

struct HoldStand {
  using Model = praxis::unitree::Go2;
  double dt = 0.002, kp = 40, kd = 1;
  std::array<double, 12> init_pos = Model::stand_pose;
  std::array<double, 12> jpos_des = Model::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 0> log() const { return {}; }
};

int main() {
  praxis::Pipeline<Doubler, Source> pipeline;
  pipeline.cycle();
  using P = decltype(pipeline);
  std::cout << P::node_names[0] << " -> " << P::node_names[1] << ": " << pipeline.get<Doubled>() << '\n';
  std::cout << praxis::to_dot(praxis::describe<P>()).size() << " bytes of DOT\n";

  using namespace std::chrono_literals;
  praxis::mock::MockRobot<praxis::unitree::Go2> robot;
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<decltype(robot), HoldStand> controller(robot, options);
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 10ms, 500ms);
  for (auto t = praxis::TimePoint{} + 2ms; t < praxis::TimePoint{} + 1s; t += 2ms) controller.step(t);
  std::cout << "controller state: " << praxis::control::to_string(controller.state()) << '\n';
  return pipeline.get<Doubled>() == 42 && controller.state() == praxis::control::ControlState::stand ? 0 : 1;
}
