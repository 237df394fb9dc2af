// observe/tap.hpp: every reflected port of a real RobotController, copied after each cycle into a
// preallocated ring with no allocation; a full ring drops and counts, never waits.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "../../support/alloc_counter.hpp"
#include "../../support/hold.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/observe/tap.hpp"

namespace {
namespace observe_tap_test {

using namespace std::chrono_literals;
using G1 = praxis::unitree::G1;
constexpr std::size_t N = G1::joint_count;
using Mock = praxis::mock::MockRobot<G1>;
using Controller = praxis::control::RobotController<Mock, praxis::test::Hold<G1>>;
using Graph = Controller::graph_type;
using Tap = praxis::observe::Tap<Graph, N>;

template <class Port>
constexpr std::size_t index_of() {
  for (std::size_t p = 0; p < Graph::port_count; ++p) {
    if (Graph::port_names[p] == std::string_view(Port::name)) return p;
  }
  return Graph::port_count;
}

constexpr std::size_t k_state = index_of<praxis::StatePort<N>>();
constexpr std::size_t k_cycle = index_of<praxis::CyclePort>();
constexpr std::size_t k_actuated = index_of<praxis::motion::ActuatedCommandPort<N>>();

TEST_CASE("tap records every port of a RobotController graph") {
  STATIC_REQUIRE(k_state < Graph::port_count);
  STATIC_REQUIRE(k_actuated < Graph::port_count);
  // praxis' own ports all have a wire form, so nothing is left out of a record.
  CHECK(Tap::unrecorded_ports().empty());
  for (std::size_t p = 0; p < Graph::port_count; ++p) {
    INFO(Graph::port_names[p]);
    CHECK(Tap::recorded_ports[p]);
  }
}

TEST_CASE("tap snapshots hold each cycle's ports in order as the cycle left them") {
  Mock robot;
  Controller controller(robot, {});
  Tap tap(64);
  controller.set_observer(&tap);
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 100ms, 1s);
  std::vector<praxis::JointCommand<N>> sent;
  std::vector<praxis::RobotState<N>> states;
  praxis::TimePoint t{};
  for (int k = 0; k < 40; ++k) {
    t += controller.period();
    controller.step(t);
    sent.push_back(controller.actuated());
    states.push_back(controller.last_state());
  }
  std::size_t k = 0;
  const auto n = tap.consume([&](const Tap::Snapshot& s) {
    CHECK(s.cycle == k);
    CHECK(std::get<k_cycle>(s.values).cycle == k);
    CHECK(std::get<k_cycle>(s.values).now == s.now);
    const auto& cmd = std::get<k_actuated>(s.values);
    CHECK(std::memcmp(cmd.q.data(), sent[k].q.data(), sizeof(double) * N) == 0);
    CHECK(std::memcmp(cmd.kp.data(), sent[k].kp.data(), sizeof(double) * N) == 0);
    CHECK(cmd.mode == sent[k].mode);
    const auto& state = std::get<k_state>(s.values);
    CHECK(std::memcmp(state.q.data(), states[k].q.data(), sizeof(double) * N) == 0);
    CHECK(state.sequence == states[k].sequence);
    ++k;
  });
  CHECK(n == 40);
  CHECK(tap.taken() == 40);
  CHECK(tap.dropped() == 0);
  CHECK(tap.consume([](const Tap::Snapshot&) {}) == 0);
}

TEST_CASE("tap drops and counts cycles when the observer falls behind and resumes when it catches up") {
  Mock robot;
  Controller controller(robot, {});
  Tap tap(8);
  controller.set_observer(&tap);
  praxis::TimePoint t{};
  for (int k = 0; k < 20; ++k) controller.step(t += controller.period());
  CHECK(tap.taken() == 8);
  CHECK(tap.dropped() == 12);
  std::vector<std::uint64_t> cycles;
  tap.consume([&](const Tap::Snapshot& s) { cycles.push_back(s.cycle); });
  REQUIRE(cycles.size() == 8);
  CHECK(cycles.front() == 0);
  CHECK(cycles.back() == 7);
  controller.step(t += controller.period());
  std::uint64_t next = 0;
  CHECK(tap.consume([&](const Tap::Snapshot& s) { next = s.cycle; }) == 1);
  CHECK(next == 20);  // the dropped cycles are gone, the next one is there
}

TEST_CASE("tap copies ports with no allocation over many cycles") {
  Mock robot;
  Controller controller(robot, {});
  Tap tap(16);
  controller.set_observer(&tap);
  praxis::TimePoint t{};
  for (int k = 0; k < 10; ++k) controller.step(t += controller.period());  // start-up allocates
  tap.consume([](const Tap::Snapshot&) {});
  const praxis::test::AllocationScope scope;
  std::uint64_t consumed = 0;
  for (int k = 0; k < 5000; ++k) {
    controller.step(t += controller.period());
    if (k % 10 == 9) consumed += tap.consume([](const Tap::Snapshot&) {});
  }
  CHECK(scope.allocations() == 0);
  CHECK(consumed == 5000);
}

TEST_CASE("tap sees nothing once detached and a zero capacity is refused") {
  CHECK_THROWS_AS(Tap(0), std::invalid_argument);
  Mock robot;
  Controller controller(robot, {});
  Tap tap(4);
  controller.set_observer(&tap);
  CHECK(controller.observer() == &tap);
  controller.set_observer(nullptr);
  praxis::TimePoint t{};
  controller.step(t += controller.period());
  CHECK(tap.taken() == 0);  // detached: the cycle did not reach it
}

}  // namespace observe_tap_test
}  // namespace
