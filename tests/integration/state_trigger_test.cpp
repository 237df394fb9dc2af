// State-triggered control: the backend wakes the control loop when a state arrives, so every state
// gets a cycle at once and its command leaves at once, instead of waiting for the next timer tick.
// In-process over the loopback transport, with a robot thread publishing LowState at 500 Hz.

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/transport/loopback.hpp"
#include "../support/hold.hpp"

namespace state_trigger_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
using Loopback = praxis::transport::LoopbackTransport;
using Backend = u::UnitreeBackend<u::G1, Loopback>;

static_assert(praxis::WakesOnState<Backend>);
static_assert(praxis::WakesOnState<u::UnitreeBackend<u::G1>>);

namespace {
// A 50 Hz controller holding the stand pose.
struct HoldController : praxis::test::Hold<u::G1> {
  HoldController() { dt = 0.02; }
};

struct Robot {
  praxis::transport::LoopbackBus& bus;
  praxis::transport::LoopbackPublisher<unitree_hg_msg_dds__LowState_> states{bus, "rt/lowstate"};
  praxis::transport::LoopbackSubscriber<unitree_hg_msg_dds__LowCmd_> commands{bus, "rt/lowcmd"};
  std::atomic<std::uint32_t> published{0};
  std::atomic<std::uint32_t> answered{0};  // states whose command arrived before the next state

  void run(praxis::Duration length, praxis::Duration period) {
    praxis::RobotState<29> truth;
    truth.q = Eigen::Map<const Eigen::Matrix<double, 29, 1>>(u::G1::rest_pose.data());
    unitree_hg_msg_dds__LowState_ msg;
    praxis::transport::Stamped<unitree_hg_msg_dds__LowCmd_> cmd{};
    const auto end = praxis::Clock::now() + length;
    auto next = praxis::Clock::now();
    std::uint64_t seen = 0;
    while (praxis::Clock::now() < end) {
      u::encode_state<u::G1>(truth, {.tick = published.load() + 1, .mode_machine = 6, .mode_pr = 0}, msg);
      states.write(msg);
      published.fetch_add(1);
      next += period;
      std::this_thread::sleep_until(next);
      if (commands.fetch(cmd) && cmd.count > seen) {
        seen = cmd.count;
        answered.fetch_add(1);
      }
    }
  }
};
}  // namespace

TEST_CASE("Trigger::state: every state gets a cycle, and its command is written at once", "[control][trigger]") {
  praxis::transport::LoopbackBus bus;
  Backend backend(bus, u::BackendOptions{});
  Robot robot{bus};
  praxis::control::ControllerOptions options;
  options.print = false;
  options.trigger = praxis::control::Trigger::state;
  options.period = 50ms;  // only when no state arrives: the timer alone would run 10 cycles
  options.safety.stale_timeout = 200ms;
  praxis::control::RobotController<Backend, HoldController> controller(backend, options);

  std::thread robot_thread([&] { robot.run(500ms, 2ms); });
  (void)controller.run_for(450ms);
  robot_thread.join();

  const auto published = robot.published.load();
  INFO("published " << published << ", cycles " << controller.cycles() << ", answered " << robot.answered.load());
  REQUIRE(published > 150);
  // Each state woke one cycle; states that arrive while a cycle runs merge into the next one, which
  // a loaded machine (2 cores, parallel tests) makes common. Still several times the timer's 9.
  CHECK(controller.cycles() > published * 4 / 10);
  CHECK(controller.cycles() <= published + 10);
  // The commands went out from the cycles themselves (no send thread), answering most states before
  // the robot's next one; the run's closing damping command is the one more.
  CHECK(backend.commands_sent() + backend.commands_withheld() == controller.cycles() + 1);
  CHECK(robot.answered.load() > published / 2);
  CHECK(controller.state() == praxis::control::ControlState::damping);
}

TEST_CASE("Trigger::state on a backend that cannot wake the loop is refused with the reason", "[control][trigger]") {
  praxis::transport::LoopbackBus bus;
  struct NoWake {
    using model = u::G1;
    Backend inner;
    bool read(praxis::RobotState<29>& s, praxis::TimePoint now) { return inner.read(s, now); }
    void write(const praxis::JointCommand<29>& c, praxis::TimePoint now) { inner.write(c, now); }
  } backend{Backend(bus, u::BackendOptions{})};
  static_assert(!praxis::WakesOnState<NoWake>);
  praxis::control::ControllerOptions options;
  options.print = false;
  options.trigger = praxis::control::Trigger::state;
  praxis::control::RobotController<NoWake, HoldController> controller(backend, options);
  CHECK_THROWS_WITH(controller.run_for(50ms), Catch::Contains("Trigger::state") && Catch::Contains("set_wakeup"));
}

}  // namespace state_trigger_test
