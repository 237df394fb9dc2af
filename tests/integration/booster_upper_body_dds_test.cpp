// Booster arms only (Access::upper_body) over real Cyclone DDS against praxis-fake-booster in another
// process: the robot is brought to Walking and keeps its legs and balance, praxis' arms are blended
// in by rt/joint_ctrl's weight and out again when control ends, normally or by a fault; a robot it
// cannot take that way is left alone; Ctrl-C, a stalled control thread and an exception in the
// controller. What counts is what the fake robot recorded: its modes, every loco call, and the
// weights of every frame it took while walking. Domains 173..175, 184, 185 and 188.

#include <catch2/catch.hpp>

#include <array>
#include <csignal>
#include <stdexcept>
#include <thread>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/fake_robot_process.hpp"

#include "praxis/control/robot_controller.hpp"
#include "praxis/control/signals.hpp"
#include "praxis/hardware/booster/backend.hpp"

using namespace std::chrono_literals;
namespace b = praxis::booster;

namespace {

using Backend = b::BoosterBackend<b::T1, b::Access::upper_body>;
constexpr std::size_t N = b::T1::joint_count;
constexpr std::size_t k_left_shoulder_pitch = 2;
constexpr std::size_t k_left_knee = 14;
static_assert(b::T1::joints[k_left_shoulder_pitch].name == "LeftShoulderPitch");
static_assert(b::T1::joints[k_left_knee].name == "LeftKneePitch");
static_assert(b::upper_body_joints<b::T1>(false)[k_left_shoulder_pitch] && !b::upper_body_joints<b::T1>(false)[k_left_knee]);
static_assert(!b::upper_body_joints<b::T1>(false)[0] && b::upper_body_joints<b::T1>(true)[0]);  // the head, on request
static_assert(!b::upper_body_joints<b::T1>(true)[10]);                                          // never the waist
static_assert(Backend::safe_state == praxis::SafeState::joint_damping);
static_assert(!Backend::joint_modes.contains(praxis::JointMode::disabled));  // no arm switched off under a walking robot

struct FakeBooster : praxis::test::FakeRobotProcess {
  FakeBooster(std::uint32_t domain, std::vector<std::string> extra)
      : FakeRobotProcess(PRAXIS_FAKE_BOOSTER, "t1", domain, std::move(extra)) {}
};

// Raises the left shoulder 0.3 rad from the stand pose; with `nan_after` > 0 its output turns NaN
// that many seconds into CTRL (a broken controller: the cycle's fault).
struct RaiseArm {
  double dt = 0.002, kp = 40.0, kd = 1.0;
  std::array<double, N> init_pos = b::T1::stand_pose;
  std::array<double, N> jpos_des = b::T1::stand_pose;
  double nan_after = 0.0;
  // The other ways a controller ends a run, `disturb_after` seconds into CTRL, once.
  enum class Disturbance { none, signal, stall, exception } disturbance = Disturbance::none;
  double disturb_after = 0.8;
  bool disturbed = false;
  double in_ctrl = 0.0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { in_ctrl = 0.0; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    in_ctrl += dt;
    jpos_des = init_pos;
    jpos_des[k_left_shoulder_pitch] += 0.3;
    if (nan_after > 0.0 && in_ctrl > nan_after) jpos_des[k_left_shoulder_pitch] = std::numeric_limits<double>::quiet_NaN();
    if (disturbance != Disturbance::none && !disturbed && in_ctrl > disturb_after) {
      disturbed = true;
      if (disturbance == Disturbance::signal) std::raise(SIGINT);
      if (disturbance == Disturbance::stall) std::this_thread::sleep_for(std::chrono::seconds(1));
      if (disturbance == Disturbance::exception) throw std::runtime_error("the controller failed (test)");
    }
  }
  std::array<float, 0> log() const { return {}; }
};

b::BackendOptions backend_options(std::uint32_t domain) {
  auto o = Backend::fake_robot(domain);
  o.prepare_settle = 300ms;
  o.upper_body.weight_rate = 2.0;  // 0.5 s in and out: the test sees the whole blend
  o.link_timeout = 500ms;          // a loaded machine may starve the fake's state; not tested here
  return o;
}

praxis::control::ControllerOptions controller_options() {
  praxis::control::ControllerOptions o;
  o.print = false;
  o.lifecycle_timeout = 10s;
  o.safety.stale_timeout = 500ms;
  return o;
}

std::vector<std::string> modes_of(const nlohmann::json& report) {
  std::vector<std::string> modes;
  for (const auto& e : report["modes"]) modes.push_back(e["mode"].get<std::string>());
  return modes;
}

std::vector<std::string> upper_body_calls(const nlohmann::json& report) {
  std::vector<std::string> calls;
  for (const auto& c : report["loco_calls"]) {
    if (c["name"] == "UpperBodyCustomControl") calls.push_back(c["body"].get<std::string>() + " " + std::to_string(c["status"].get<int>()));
  }
  return calls;
}

std::size_t calls_named(const nlohmann::json& report, const std::string& name) {
  std::size_t n = 0;
  for (const auto& c : report["loco_calls"]) n += c["name"] == name ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("booster upper body over DDS: the arms blended in while the robot walks and out at the end: no leg ever "
          "weighted", "[booster][dds][two-process][upper_body]") {
  constexpr std::uint32_t domain = 173;
  FakeBooster fake(domain, {"--gamepad", "R2:0.3-1.5,A:1.8", "--script-start", "first-command"});
  Backend robot(backend_options(domain));
  praxis::control::RobotController<Backend, RaiseArm> controller(robot, controller_options());
  const auto outcome = controller.run_for(4s);
  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(controller.acquired().has_value());
  INFO("acquire: " << controller.acquired()->message << "\nend: " << outcome.summary());
  CHECK(controller.acquired()->ok);
  CHECK_THAT(controller.acquired()->message, Catch::Contains("asked for Prepare") && Catch::Contains("Walking"));
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK(outcome.hand_back_ok);
  CHECK_THAT(outcome.hand_back, Catch::Contains("weight 0") && Catch::Contains("UpperBodyCustomControl stopped"));
  CHECK(controller.state() == praxis::control::ControlState::ctrl);

  // Taken the robot's way and left walking: never Custom, never Damping.
  CHECK(modes_of(report) == std::vector<std::string>{"Damping", "Prepare", "Walking"});
  CHECK(upper_body_calls(report) == std::vector<std::string>{"{\"start\":true} 0", "{\"start\":false} 0"});
  const auto& u = report["upper_body"];
  CHECK(u["leg_weight_in_walking"] == 0);
  CHECK(u["without_upper_body_control"] == 0);
  CHECK(u["arms_blended_in_walking"].get<int>() > 200);
  CHECK(u["max_arm_weight"].get<double>() == Approx(1.0));
  CHECK(u["last_weight"].get<double>() == 0.0);  // the last frame handed the arms back
  CHECK(u["control_at_end"] == false);
  CHECK(report["joint_ctrl"]["applied_in_custom"] == 0);
  CHECK(robot.weight() == 0.0);
  // The controller's arm target reached the arm while it was blended in; the robot's own
  // controller kept the legs where it stands them.
  CHECK(report["final_q"][k_left_knee].get<double>() == Approx(b::T1::stand_pose[k_left_knee]).margin(0.02));
}

TEST_CASE("booster upper body over DDS: a fault in the cycle (NaN command) blends the arms out, the robot keeps walking",
          "[booster][dds][two-process][upper_body]") {
  constexpr std::uint32_t domain = 174;
  FakeBooster fake(domain, {"--gamepad", "R2:0.3-1.5,A:1.8", "--script-start", "first-command"});
  Backend robot(backend_options(domain));
  praxis::control::RobotController<Backend, RaiseArm> controller(robot, controller_options());
  controller.user().nan_after = 0.8;
  const auto outcome = controller.run_for(5s);
  const auto report = fake.stop();
  INFO(report.dump());
  INFO("end: " << outcome.summary());
  CHECK(outcome.end == praxis::control::RunEnd::fault);
  CHECK(controller.state() == praxis::control::ControlState::damping);
  CHECK(outcome.hand_back_ok);
  CHECK(modes_of(report) == std::vector<std::string>{"Damping", "Prepare", "Walking"});
  CHECK(upper_body_calls(report) == std::vector<std::string>{"{\"start\":true} 0", "{\"start\":false} 0"});
  const auto& u = report["upper_body"];
  CHECK(u["leg_weight_in_walking"] == 0);
  CHECK(u["max_arm_weight"].get<double>() == Approx(1.0));
  CHECK(u["last_weight"].get<double>() == 0.0);
  CHECK(report["joint_ctrl"]["non_finite"] == 0);  // the NaN never left praxis
}

TEST_CASE("booster upper body over DDS: a robot praxis may not take that way is left as it is",
          "[booster][dds][two-process][upper_body]") {
  constexpr std::uint32_t domain = 175;
  SECTION("in Custom: another program has its joints") {
    FakeBooster fake(domain, {"--start-mode", "custom"});
    Backend robot(backend_options(domain));
    const auto r = robot.acquire(5s);
    const auto report = fake.stop();
    INFO(r.message << "\n" << report.dump());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.message, Catch::Contains("the robot is in Custom"));
    CHECK(calls_named(report, "ChangeMode") == 0);
    CHECK(calls_named(report, "UpperBodyCustomControl") == 0);
    CHECK(report["joint_ctrl"]["received"] == 0);
  }
  SECTION("not walking, and told not to start it") {
    FakeBooster fake(domain, {});
    auto o = backend_options(domain);
    o.upper_body.enter_walking = false;
    Backend robot(o);
    const auto r = robot.acquire(5s);
    const auto report = fake.stop();
    INFO(r.message << "\n" << report.dump());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.message, Catch::Contains("the robot is in Damping") && Catch::Contains("upper_body.enter_walking"));
    CHECK(calls_named(report, "ChangeMode") == 0);
    CHECK(report["joint_ctrl"]["received"] == 0);
  }
  SECTION("UpperBodyCustomControl refused (409)") {
    FakeBooster fake(domain, {"--start-mode", "walking", "--refuse-once", "2030:409"});
    Backend robot(backend_options(domain));
    const auto r = robot.acquire(5s);
    const auto report = fake.stop();
    INFO(r.message << "\n" << report.dump());
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.message, Catch::Contains("UpperBodyCustomControl") && Catch::Contains("409"));
    CHECK(calls_named(report, "ChangeMode") == 0);  // it was walking: nothing asked of its modes
    CHECK(modes_of(report) == std::vector<std::string>{"Walking"});
    CHECK(report["joint_ctrl"]["received"] == 0);
  }
}

TEST_CASE("booster upper body over DDS: Ctrl-C, a stalled control thread and an exception in the controller each hand "
          "the arms back, and the robot keeps walking", "[booster][dds][two-process][upper_body][ends]") {
  using D = RaiseArm::Disturbance;
  const auto disturbance = GENERATE(D::signal, D::stall, D::exception);
  const std::uint32_t domain = disturbance == D::signal ? 184 : disturbance == D::stall ? 185 : 188;
  FakeBooster fake(domain, {"--gamepad", "R2:0.3-1.5,A:1.8", "--script-start", "first-command"});
  Backend robot(backend_options(domain));
  praxis::control::RobotController<Backend, RaiseArm> controller(robot, controller_options());
  controller.user().disturbance = disturbance;
  praxis::control::RunOutcome outcome;
  if (disturbance == D::exception) {
    CHECK_THROWS_WITH(controller.run_for(5s), Catch::Contains("the controller failed"));
  } else {
    const praxis::control::StopOnSignals stop_on_signals(controller);
    outcome = controller.run_for(5s);
  }
  const auto report = fake.stop();
  INFO(report.dump());
  INFO("end: " << outcome.summary());
  if (disturbance == D::signal) {
    CHECK(outcome.signal == SIGINT);
    CHECK(outcome.end == praxis::control::RunEnd::normal);
  }
  if (disturbance == D::stall) {
    // A robot that lends praxis its arms: past stall_timeout the safe state (the arms blending out)
    // is sent by the send thread while the control thread sleeps; control resumes after it.
    CHECK(controller.stalled_sends() > 0);
    CHECK(outcome.end == praxis::control::RunEnd::normal);
  }
  if (disturbance != D::exception) CHECK(outcome.hand_back_ok);
  CHECK(modes_of(report) == std::vector<std::string>{"Damping", "Prepare", "Walking"});
  CHECK(upper_body_calls(report) == std::vector<std::string>{"{\"start\":true} 0", "{\"start\":false} 0"});
  const auto& u = report["upper_body"];
  CHECK(u["leg_weight_in_walking"] == 0);
  CHECK(u["last_weight"].get<double>() == 0.0);
  CHECK(u["control_at_end"] == false);
}
