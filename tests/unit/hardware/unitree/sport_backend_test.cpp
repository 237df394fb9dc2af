// SportBackend (sport_backend.hpp): which table of calls and which motion service each robot gets,
// its presets, that it never writes a joint, and start-up's refusals over Cyclone DDS (no valid
// state, no motion switcher). Walking with a motion service: tests/integration/unitree_sport_dds_test.cpp.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/hardware/unitree/sport_backend.hpp"
#include "praxis/transport/dds.hpp"

namespace {
namespace unitree_sport_backend_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
namespace transport = praxis::transport;

TEST_CASE("sport backend: each robot's table and motion service by default, the H1-2 talking to loco, never damped", "[unitree][sport]") {
  using H1 = u::SportBackend<u::H1_2>;
  CHECK(H1::default_service() == "loco");
  CHECK(H1::default_api().name == "H1 loco");
  CHECK(H1::default_api().balance.parameter == u::h1_loco_api().balance.parameter);
  CHECK_FALSE(H1::default_api().lays_down);
  STATIC_REQUIRE_FALSE(H1::capabilities.get_up);
  STATIC_REQUIRE(H1::capabilities.locomotion);
  STATIC_REQUIRE(H1::safe_state == praxis::SafeState::mode_request);
  CHECK(u::SportBackend<u::G1>::default_service() == "sport");
  CHECK(u::SportBackend<u::G1>::default_api().name == "G1 loco");
  CHECK(u::SportBackend<u::Go2>::default_service() == "sport");
  CHECK(u::SportBackend<u::Go2>::default_api().name == "Go2 sport");
  CHECK(u::SportOptions{}.service.empty());  // empty: the robot's own
}

TEST_CASE("sport backend: a G1 23-DOF walks with the G1's LocoClient and a Go2 is the only one that gets up",
          "[unitree][sport]") {
  CHECK(u::SportBackend<u::G1_23>::default_api().name == "G1 loco");
  CHECK(u::SportBackend<u::G1_23>::default_service() == "sport");
  STATIC_REQUIRE(u::SportBackend<u::Go2>::capabilities.get_up);
  STATIC_REQUIRE_FALSE(u::SportBackend<u::G1>::capabilities.get_up);
  STATIC_REQUIRE_FALSE(u::SportBackend<u::G1_23>::capabilities.get_up);
  STATIC_REQUIRE(u::SportBackend<u::Go2>::capabilities.modes);
  CHECK(u::SportBackend<u::Go2>::default_api().lays_down);  // StandDown before Damp
  CHECK_FALSE(u::SportBackend<u::G1>::default_api().lays_down);
}

TEST_CASE("sport backend: the robot preset is the low-level backend's and the fake robot's is on lo",
          "[unitree][sport]") {
  const auto robot = u::SportBackend<u::Go2>::robot("eth1");
  CHECK(robot.dds.domain == 0u);
  CHECK(robot.dds.interface == "eth1");
  const auto fake = u::SportBackend<u::Go2>::fake_robot(4);
  CHECK(fake.dds.domain == 4u);
  CHECK(fake.dds.interface == "lo");
  CHECK(u::SportBackend<u::Go2>::fake_robot().dds.domain == 1u);
  // The fake robot runs a motion switcher (acquire asks it which service runs).
  CHECK(fake.motion_switcher_required);
}

// Domains 92 and 93: backend_test.cpp's "VALID state" test case's, on which only unsigned Go2
// LowStates (crc 0) ever appear: a backend checking the CRC never gets a valid state there.
std::uint32_t unsigned_states_domain() { return 92 + static_cast<std::uint32_t>(::getpid() % 2); }
// Domains 90 and 91: backend_test.cpp's, where signed Go2 LowStates come and no motion switcher runs.
std::uint32_t no_switcher_domain() { return 90 + static_cast<std::uint32_t>(::getpid() % 2); }

TEST_CASE("sport backend: no joint is ever written and start-up fails without a valid state", "[unitree][sport][dds]") {
  const auto d = unsigned_states_domain();
  u::SportBackend<u::Go2> backend(u::SportBackend<u::Go2>::fake_robot(d));
  backend.write(praxis::JointCommand<12>{}, praxis::Clock::now());
  backend.write(praxis::JointCommand<12>{}, praxis::Clock::now());
  CHECK(backend.commands_withheld() == 2);

  praxis::RobotRequests walk;
  walk.any = true;
  walk.mode = praxis::RobotMode::locomotion;
  backend.post(walk);  // not in control: dropped
  const auto r = backend.acquire(300ms);
  INFO(r.message);
  CHECK_FALSE(r.ok);
  CHECK(r.stage == praxis::LifecycleStage::failed);
  CHECK(r.message.find("no valid state on rt/lowstate within 300 ms") != std::string::npos);
  praxis::RobotStatus status;
  REQUIRE(backend.read_status(status));
  CHECK(status.lifecycle == praxis::LifecycleStage::failed);

  // Nothing was called in this run: release leaves the robot as it was, at once.
  const auto released = backend.release(5s);
  CHECK(released.ok);
  CHECK(released.message.find("no sport call in this run") != std::string::npos);
  CHECK(backend.sport().calls() == 0u);
}

TEST_CASE("sport backend: start-up with a valid state fails naming the motion switcher when none answers",
          "[unitree][sport][dds]") {
  const auto d = no_switcher_domain();
  transport::Participant robot({d, "lo"});
  transport::Publisher<unitree_go_msg_dds__LowState_> states(robot, "rt/lowstate", u::GoFamily::low_state_descriptor());
  std::atomic<bool> stop{false};
  std::thread stream([&] {
    praxis::RobotState<12> truth;
    unitree_go_msg_dds__LowState_ msg;
    std::uint32_t tick = 0;
    while (!stop.load()) {
      u::encode_state<u::Go2>(truth, {.tick = ++tick}, msg);
      states.write(msg);
      std::this_thread::sleep_for(2ms);
    }
  });
  auto options = u::SportBackend<u::Go2>::fake_robot(d);
  options.release.call_timeout = 300ms;
  u::SportBackend<u::Go2> backend(options);
  const auto r = backend.acquire(3s);
  stop.store(true);
  stream.join();
  INFO(r.message);
  CHECK_FALSE(r.ok);
  CHECK(r.stage == praxis::LifecycleStage::failed);
  CHECK(r.message.find("motion switcher: ") == 0);
  CHECK(r.message.find("rt/api/motion_switcher/request") != std::string::npos);
}

}  // namespace unitree_sport_backend_test
}  // namespace
