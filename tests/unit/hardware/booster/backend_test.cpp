// BoosterBackend (backend.hpp) in one process: its loco and light services are scripted RPC
// channels, its robot a publisher of rt/low_state beside it (Cyclone on the loopback interface,
// topic names of this process only). Pinned: which joint commands it withholds, what acquire()
// asks the robot for in which order for joint and arms-only access, what it refuses, and what
// release() sends and says.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "praxis/hardware/booster/backend.hpp"
#include "praxis/hardware/booster/models.hpp"
#include "praxis/hardware/booster/robot_codec.hpp"
#include "praxis/transport/dds.hpp"
#include "praxis/transport/dds_encoding_publisher.hpp"

namespace {
namespace booster_backend_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;

// The loco service: ChangeMode enters the mode unless refused (the codes to answer with, in
// order, then success); GetMode answers the mode, or nothing when silent.
class FakeLoco final : public b::RpcChannel {
 public:
  b::RpcReply call(const b::RpcCall& call, praxis::Duration) override {
    calls.push_back(call);
    if (call.api_id == b::loco_api::k_change_mode) {
      if (!change_answers.empty()) {
        const auto code = change_answers.front();
        change_answers.erase(change_answers.begin());
        if (code != 0) return {code, "refused", ""};
      }
      mode = call.body.at(call.body.find(':') + 1) - '0';
    }
    if (call.api_id == b::loco_api::k_get_mode) {
      if (get_mode_silent) throw b::RpcTimeout("no answer");
      return {b::status::k_ok, "{\"mode\":" + std::to_string(mode) + "}", ""};
    }
    return {b::status::k_ok, "", ""};
  }
  [[nodiscard]] const std::string& name() const override { return name_; }
  // "2017", "2000:1", "2030:true": the API ids and, for ChangeMode and UpperBodyCustomControl, the argument.
  [[nodiscard]] std::vector<std::string> trace() const {
    std::vector<std::string> out;
    for (const auto& c : calls) {
      std::string t = std::to_string(c.api_id);
      if (c.api_id == b::loco_api::k_change_mode || c.api_id == b::loco_api::k_upper_body_custom_control) {
        t += ":" + c.body.substr(c.body.find(':') + 1, c.body.size() - c.body.find(':') - 2);
      }
      out.push_back(t);
    }
    return out;
  }

  int mode = 0;
  bool get_mode_silent = false;
  std::vector<std::int32_t> change_answers;
  std::vector<b::RpcCall> calls;

 private:
  std::string name_ = "rt/LocoApiTopic";
};

std::uint32_t domain() { return static_cast<std::uint32_t>(180 + ::getpid() % 20); }

// Options for a backend of model M on this process's own topics.
template <class M>
b::BackendOptions options_for(const std::string& tag) {
  auto o = b::BoosterBackend<M, b::Access::joints>::fake_robot(domain());
  const std::string suffix = "_" + tag + "_" + std::to_string(::getpid());
  o.wire.topics.low_state += suffix;
  o.wire.topics.joint_ctrl += suffix;
  o.prepare_settle = 10ms;
  o.interface.retry.backoff = 1ms;
  o.interface.damping_request.backoff = 1ms;
  o.interface.damping_request.deadline = 300ms;
  o.lifecycle_rpc_timeout = 100ms;
  return o;
}

// The robot's rt/low_state, N motors in both arrays, every 5 ms until destroyed.
template <std::size_t N>
class StatePublisher {
 public:
  explicit StatePublisher(const b::BackendOptions& o)
      : participant_({o.dds.domain, "lo"}),
        publisher_(participant_, o.wire.topics.low_state, &booster_interface_msg_dds__LowState__desc) {
    thread_ = std::thread([this] {
      praxis::RobotState<N> s;
      for (std::size_t j = 0; j < N; ++j) s.health[j].temperature = 40.0f;
      while (!stop_.load()) {
        publisher_.write(s);
        std::this_thread::sleep_for(5ms);
      }
    });
  }
  ~StatePublisher() {
    stop_ = true;
    thread_.join();
  }
  StatePublisher(const StatePublisher&) = delete;
  StatePublisher& operator=(const StatePublisher&) = delete;

 private:
  praxis::transport::Participant participant_;
  praxis::transport::EncodingPublisher<b::LowStateWire, praxis::RobotState<N>, b::LowStateToWire<N>> publisher_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("booster backend: commands go in the space the model's values were published in (T1 parallel and K1 serial)") {
  static_assert(b::values_in_motor_space<b::T1>() && !b::values_in_motor_space<b::K1>());
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::robot("eth0").wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::T1, b::Access::joints>::fake_robot(3).wire.codec.space == b::MotorSpace::parallel);
  CHECK(b::BoosterBackend<b::K1>::robot("eth0").wire.codec.space == b::MotorSpace::serial);
  // The T1's ankle targets are its crank motors' (the SDK example's parallel values).
  CHECK(b::T1::joints[15].name == "CrankUpLeft");
  CHECK(b::T1::stand_pose[15] == 0.2);
}

TEST_CASE("booster backend: what each access offers and how its control ends") {
  using Modes = b::BoosterBackend<b::K1>;
  using Joints = b::BoosterBackend<b::K1, b::Access::joints>;
  using Arms = b::BoosterBackend<b::K1, b::Access::upper_body>;
  STATIC_REQUIRE(Modes::safe_state == praxis::SafeState::mode_request);
  STATIC_REQUIRE(Joints::safe_state == praxis::SafeState::joint_damping);
  STATIC_REQUIRE(Arms::safe_state == praxis::SafeState::joint_damping);
  STATIC_REQUIRE(Modes::capabilities.modes);
  STATIC_REQUIRE(Modes::capabilities.kick);
  STATIC_REQUIRE_FALSE(Joints::capabilities.modes);
  STATIC_REQUIRE_FALSE(Arms::capabilities.locomotion);
  // The arms go to the robot by weight: no switched-off motor under a walking robot.
  STATIC_REQUIRE_FALSE(Arms::joint_modes.contains(praxis::JointMode::disabled));
  STATIC_REQUIRE(Joints::joint_modes.contains(praxis::JointMode::disabled));
}

TEST_CASE("booster backend: in the robot's own modes no joint command goes out while it is not in Custom",
          "[booster][dds]") {
  FakeLoco loco, light;
  auto o = options_for<b::K1>("withheld");
  b::BoosterBackend<b::K1> robot(o, &loco, &light);
  praxis::JointCommand<b::K1::joint_count> c;
  robot.write(c, praxis::Clock::now());
  robot.write(c, praxis::Clock::now());
  CHECK(robot.commands_withheld_in_robot_modes() == 2);
  CHECK(robot.commands_sent() == 0);
  CHECK(loco.calls.empty());
  CHECK(robot.release(100ms).message == "nothing to end: no run in control");
}

TEST_CASE("booster backend: acquire() without a state names the topic with its domain and interface and calls nothing",
          "[booster][dds]") {
  FakeLoco loco;
  auto o = options_for<b::T1>("silent");
  b::BoosterBackend<b::T1, b::Access::joints> robot(o, &loco);
  const auto r = robot.acquire(100ms);
  CHECK_FALSE(r.ok);
  CHECK(r.stage == praxis::LifecycleStage::failed);
  CHECK(r.message.rfind("no valid state on " + o.wire.topics.low_state + " within 100 ms (domain " +
                            std::to_string(domain()) + ", interface \"lo\")",
                        0) == 0);
  CHECK(loco.calls.empty());
}

TEST_CASE("booster backend: another model's state is named as such", "[booster][dds]") {
  FakeLoco loco;
  auto o = options_for<b::T1>("model");
  b::BoosterBackend<b::T1, b::Access::joints> robot(o, &loco);
  StatePublisher<b::K1::joint_count> k1(o);
  const auto r = robot.acquire(1s);
  CHECK_FALSE(r.ok);
  INFO(r.message);
  CHECK(contains(r.message, ": the robot sends 22 joints in the parallel array, the model t1 has 23"));
  CHECK(loco.calls.empty());
}

TEST_CASE("booster backend: joint access asks for Prepare then Custom and ends with the release mode confirmed",
          "[booster][dds]") {
  FakeLoco loco;
  auto o = options_for<b::K1>("joints");
  o.release_mode = b::Mode::prepare;
  b::BoosterBackend<b::K1, b::Access::joints> robot(o, &loco);
  StatePublisher<b::K1::joint_count> state(o);
  const auto r = robot.acquire(5s);
  INFO(r.message);
  REQUIRE(r.ok);
  CHECK(loco.trace() == std::vector<std::string>{"2017", "2000:1", "2000:3"});
  CHECK(contains(r.message, "the robot reported Damping; robot in Custom mode (Prepare first, 10 ms), commands on " +
                                o.wire.topics.joint_ctrl));
  praxis::RobotStatus status;
  robot.read_status(status);
  CHECK(status.assumed_mode == praxis::RobotMode::user);

  loco.calls.clear();
  const auto end = robot.release(1s);
  INFO(end.message);
  CHECK(end.ok);
  CHECK(loco.trace() == std::vector<std::string>{"2000:1", "2017"});
  CHECK(end.message.rfind("Prepare confirmed by the robot (ChangeMode answered with success, GetMode reports Prepare", 0) == 0);
  CHECK(robot.end_report().state == b::EndReport::State::confirmed);
  robot.read_status(status);
  CHECK(status.assumed_mode == praxis::RobotMode::unknown);
}

TEST_CASE("booster backend: a Custom the robot refuses fails acquire() - retried only when the refusal may pass",
          "[booster][dds]") {
  FakeLoco loco;
  auto o = options_for<b::K1>("refused");
  b::BoosterBackend<b::K1, b::Access::joints> robot(o, &loco);
  StatePublisher<b::K1::joint_count> state(o);
  SECTION("409: final") {
    loco.change_answers = {0, b::status::k_conflict};
    const auto r = robot.acquire(5s);
    INFO(r.message);
    CHECK_FALSE(r.ok);
    CHECK(loco.trace() == std::vector<std::string>{"2017", "2000:1", "2000:3"});
    CHECK(r.message.rfind("taking joint control (Prepare, then Custom; the robot reported Damping): ", 0) == 0);
    CHECK(contains(r.message, "409"));
  }
  SECTION("502 twice: retried, the third attempt enters") {
    loco.change_answers = {0, b::status::k_transition_failed, b::status::k_transition_failed};
    const auto r = robot.acquire(5s);
    INFO(r.message);
    CHECK(r.ok);
    CHECK(loco.trace() == std::vector<std::string>{"2017", "2000:1", "2000:3", "2000:3", "2000:3"});
  }
  SECTION("502 until the attempts are spent (3)") {
    loco.change_answers = {0, 502, 502, 502, 0};
    const auto r = robot.acquire(5s);
    CHECK_FALSE(r.ok);
    CHECK(loco.trace() == std::vector<std::string>{"2017", "2000:1", "2000:3", "2000:3", "2000:3"});
  }
}

TEST_CASE("booster backend: arms-only access brings the robot to Walking from where it is - never from Custom",
          "[booster][dds]") {
  FakeLoco loco;
  auto o = options_for<b::T1>("arms");
  StatePublisher<b::T1::joint_count> state(o);
  std::vector<std::string> expected;
  bool ok = true;
  SECTION("from Damping: Prepare first") {
    loco.mode = 0;
    expected = {"2017", "2000:1", "2000:2", "2030:true"};
  }
  SECTION("from Soccer: straight to Walking") {
    loco.mode = 4;
    expected = {"2017", "2000:2", "2030:true"};
  }
  SECTION("already walking: only UpperBodyCustomControl") {
    loco.mode = 2;
    expected = {"2017", "2030:true"};
  }
  SECTION("without the UpperBodyCustomControl call") {
    loco.mode = 2;
    o.upper_body.call_upper_body_api = false;
    expected = {"2017"};
  }
  SECTION("in Custom: refused, nothing asked for") {
    loco.mode = 3;
    expected = {"2017"};
    ok = false;
  }
  SECTION("not walking, and entering Walking not allowed: refused") {
    loco.mode = 1;
    o.upper_body.enter_walking = false;
    expected = {"2017"};
    ok = false;
  }
  b::BoosterBackend<b::T1, b::Access::upper_body> arms(o, &loco);
  const auto r = arms.acquire(5s);
  INFO(r.message);
  CHECK(r.ok == ok);
  CHECK(loco.trace() == expected);
  if (loco.mode == 3) CHECK(contains(r.message, "the robot is in Custom: a program has its joints"));
  if (!o.upper_body.enter_walking) CHECK(contains(r.message, "upper_body.enter_walking = true"));
}

TEST_CASE("booster backend: releasing the arms stops UpperBodyCustomControl and leaves the robot walking",
          "[booster][dds]") {
  FakeLoco loco;
  loco.mode = 2;
  auto o = options_for<b::K1>("arms_release");
  StatePublisher<b::K1::joint_count> state(o);
  b::BoosterBackend<b::K1, b::Access::upper_body> arms(o, &loco);
  REQUIRE(arms.acquire(5s).ok);
  loco.calls.clear();
  const auto r = arms.release(1s);
  INFO(r.message);
  CHECK(r.ok);
  CHECK(loco.trace() == std::vector<std::string>{"2030:false"});  // no mode change: it keeps walking
  CHECK(r.message == "arms blended back to the robot's controller (weight 0); UpperBodyCustomControl stopped (1 "
                     "attempt); the robot stays in its own Walking");
  CHECK(arms.weight() == 0.0);
}

}  // namespace booster_backend_test
}  // namespace
