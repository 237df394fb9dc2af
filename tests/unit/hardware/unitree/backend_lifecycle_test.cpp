// Taking control over real Cyclone DDS against a robot that runs no motion switcher (what Unitree's
// simulators are): with the simulator preset start-up carries on with a notice, with the robot
// preset it fails naming the service; either way it needs a valid state first.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "praxis/hardware/unitree/backend.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/transport/dds.hpp"

namespace unitree_backend_lifecycle_test {

using namespace std::chrono_literals;
namespace u = praxis::unitree;
namespace dds = praxis::dds;

namespace {

// Domains 90-93 (free between the transport tests' 10-84 and the two-process tests' 100-189).
std::uint32_t domain(std::uint32_t k) { return 90 + 2 * (k - 1) + static_cast<std::uint32_t>(::getpid() % 2); }

// Publishes Go2 LowStates at 500 Hz, signed or not, as a simulator would; no RPC service at all.
class StateStream {
 public:
  StateStream(std::uint32_t domain, bool signed_frames) : participant_({domain, "lo"}) {
    thread_ = std::thread([this, signed_frames] {
      dds::Publisher<unitree_go_msg_dds__LowState_> states(participant_, "rt/lowstate",
                                                           u::GoFamily::low_state_descriptor());
      praxis::RobotState<12> truth;
      truth.q.setConstant(0.5);
      unitree_go_msg_dds__LowState_ msg;
      std::uint32_t tick = 0;
      while (!stop_.load()) {
        u::encode_state<u::Go2>(truth, {.tick = ++tick}, msg);
        if (!signed_frames) msg.crc = 0;
        states.write(msg);
        std::this_thread::sleep_for(2ms);
      }
    });
  }
  ~StateStream() {
    stop_.store(true);
    thread_.join();
  }
  StateStream(const StateStream&) = delete;
  StateStream& operator=(const StateStream&) = delete;

 private:
  dds::Participant participant_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

u::BackendOptions quick(u::BackendOptions o, std::uint32_t d) {
  o.dds = {d, "lo"};
  o.release.call_timeout = 300ms;  // no server will ever match
  return o;
}

}  // namespace

TEST_CASE("start-up against a simulator without a motion switcher: a notice with the simulator preset, an error "
          "with the robot preset",
          "[unitree][lifecycle][dds]") {
  const auto d = domain(1);
  StateStream sim(d, true);
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::simulator(d), d));
    const auto r = backend.acquire(3s);
    INFO(r.message);
    CHECK(r.ok);
    CHECK(r.stage == praxis::LifecycleStage::in_control);
    CHECK(r.message.find("notice: no motion switcher answered") != std::string::npos);
    CHECK(r.message.find("rt/api/motion_switcher/request") != std::string::npos);
    CHECK(r.message.find("receiving rt/lowstate") != std::string::npos);
  }
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::robot("lo"), d));
    const auto r = backend.acquire(3s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(r.stage == praxis::LifecycleStage::failed);
    CHECK(r.message.find("motion switcher: no RPC server on \"rt/api/motion_switcher/request\"") != std::string::npos);
    CHECK(r.message.find("simulator() preset") != std::string::npos);
  }
}

TEST_CASE("start-up waits for a VALID state and says how many invalid ones arrived", "[unitree][lifecycle][dds]") {
  const auto d = domain(2);
  StateStream python_sim(d, false);  // crc = 0 on every frame
  {
    u::UnitreeBackend<u::Go2> backend(quick(u::UnitreeBackend<u::Go2>::simulator(d), d));
    const auto r = backend.acquire(1s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("no valid state on rt/lowstate within 1000 ms") != std::string::npos);
    CHECK(r.message.find("invalid ones arrived") != std::string::npos);
    CHECK(r.message.find("check_state_crc = false") != std::string::npos);
    CHECK(backend.crc_errors() > 10);
    CHECK_FALSE(backend.have_state());
  }
  auto options = quick(u::UnitreeBackend<u::Go2>::simulator(d), d);
  options.check_state_crc = false;
  u::UnitreeBackend<u::Go2> backend(options);
  const auto r = backend.acquire(3s);
  INFO(r.message);
  CHECK(r.ok);
  praxis::RobotState<12> s;
  REQUIRE(backend.read(s, praxis::Clock::now()));
  CHECK(s.q[7] == Approx(0.5));
}

}  // namespace unitree_backend_lifecycle_test
