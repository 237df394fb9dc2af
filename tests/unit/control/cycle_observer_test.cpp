// control/cycle_observer.hpp through the runtime: the observer is called once per cycle, after the
// cycle's command reached the backend, with the input the graph saw; in step() and in run().

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "../../support/hold.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace {
namespace cycle_observer_test {

using namespace std::chrono_literals;
using Go2 = praxis::unitree::Go2;
constexpr std::size_t N = Go2::joint_count;
using Mock = praxis::mock::MockRobot<Go2>;
using Controller = praxis::control::RobotController<Mock, praxis::test::Hold<Go2>>;
using Graph = Controller::graph_type;

// Records what it saw; `robot` lets it check that the cycle's command was already written.
struct Recording final : praxis::control::CycleObserver<Graph, N> {
  const Mock* robot = nullptr;
  std::vector<std::uint64_t> cycles;
  std::vector<std::uint64_t> written_before;  // commands the mock had received when called
  std::vector<std::uint64_t> state_sequences;
  std::vector<double> input_q0;
  std::vector<double> graph_q0;
  std::atomic<std::uint64_t> calls{0};
  std::thread::id thread;
  void on_cycle(const Graph& graph, const praxis::control::CycleInput<N>& input) noexcept override {
    if (calls.fetch_add(1) < 100000 && cycles.size() < cycles.capacity()) {
      cycles.push_back(input.info.cycle);
      written_before.push_back(robot->commands_received());
      state_sequences.push_back(input.state.sequence);
      input_q0.push_back(input.state.q[0]);
      graph_q0.push_back(graph.get<praxis::StatePort<N>>().q[0]);
    }
    thread = std::this_thread::get_id();
  }
};

TEST_CASE("cycle observer is called once per step after the command reached the robot") {
  Mock robot;
  Controller controller(robot, {});
  Recording observer;
  observer.robot = &robot;
  observer.cycles.reserve(64);
  controller.set_observer(&observer);
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 20ms, 1s);  // stand: commands on every cycle
  praxis::TimePoint t{};
  for (int k = 0; k < 30; ++k) controller.step(t += controller.period());
  REQUIRE(observer.cycles.size() == 30);
  for (std::size_t k = 0; k < 30; ++k) {
    CHECK(observer.cycles[k] == k);
    // What the graph read is the input handed over, and the input is the robot's newest state.
    CHECK(observer.input_q0[k] == observer.graph_q0[k]);
  }
  // Every cycle that wrote a command had written it before the observer ran.
  std::uint64_t prior = 0;
  for (std::size_t k = 0; k < 30; ++k) {
    CHECK(observer.written_before[k] >= prior);
    prior = observer.written_before[k];
  }
  CHECK(observer.written_before.back() == robot.commands_received());
  CHECK(observer.state_sequences.back() == controller.last_state().sequence);
}

TEST_CASE("cycle observer runs on the control thread in run() for every cycle") {
  Mock robot(praxis::mock::MockOptions{}, praxis::Clock::now());
  Controller controller(robot, {});
  Recording observer;
  observer.robot = &robot;
  observer.cycles.reserve(4096);
  controller.set_observer(&observer);
  (void)controller.run_for(300ms);
  CHECK(observer.calls.load() == controller.cycles());
  CHECK(observer.calls.load() > 10);
  // Trigger::timer runs its control loop on the thread that called run(); receive and send are its own.
  CHECK(observer.thread == std::this_thread::get_id());
  for (std::size_t k = 1; k < observer.cycles.size(); ++k) CHECK(observer.cycles[k] == observer.cycles[k - 1] + 1);
}

TEST_CASE("cycle observer cannot be swapped while run executes") {
  Mock robot(praxis::mock::MockOptions{}, praxis::Clock::now());
  Controller controller(robot, {});
  Recording observer;
  observer.robot = &robot;
  std::thread runner([&] { (void)controller.run_for(3s); });
  // Until the run has started, detaching (nullptr) is allowed; once it runs, it is refused.
  bool refused = false;
  for (int k = 0; k < 2000 && !refused; ++k) {
    try {
      controller.set_observer(nullptr);
      std::this_thread::sleep_for(1ms);
    } catch (const std::logic_error&) {
      refused = true;
    }
  }
  CHECK(refused);
  CHECK_THROWS_AS(controller.set_observer(&observer), std::logic_error);
  controller.request_stop();
  runner.join();
  CHECK(observer.calls.load() == 0);
  controller.set_observer(&observer);  // between runs it may
  CHECK(controller.observer() == &observer);
}

}  // namespace cycle_observer_test
}  // namespace
