// Two processes over real Cyclone DDS on loopback: praxis with the Tienkung backend in this process,
// praxis-fake-tienkung in another. Taking control, standing and running a user's controller through
// the behaviour (Tienkung has no gamepad topic, so command::UserControl rather than the remote
// starts it), handing back; velocity mode's speed-0 guarantee; the faults that must end in damping
// (a motor's error code, a silent limb); a MotorStatus layout that differs from the robot's; the
// speed unit on the wire (rpm on both sides, and a mismatch); bad commands the robot refuses. Judged
// by what the fake robot recorded.
// Every test case uses DDS domain 85; the CTest registration runs them one at a time (RESOURCE_LOCK).

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/alloc_counter.hpp"
#include "../support/fake_robot_process.hpp"
#include "../support/timetable.hpp"

#include "praxis/control/motion_controller.hpp"
#include "praxis/control/user_control_motion.hpp"
#include "praxis/hardware/tienkung/backend.hpp"
#include "../support/hold.hpp"

extern char** environ;

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;
namespace m = praxis::motion;

namespace tienkung_dds_test {

constexpr std::uint32_t k_domain = 85;

using Timetable = praxis::test::Timetable;  // support/timetable.hpp

// Tienkung does not walk by itself and these tests never ask it to: a walk body that covers nothing.
template <std::size_t N>
struct NoWalk {
  static constexpr std::string_view name = "no_walk";
  using inputs = praxis::ports<m::MotionSelectionPort>;
  using outputs = praxis::ports<m::BodyCommandPort<m::MotionType::walk, N>, m::SafeExitPort<m::MotionType::walk>>;
  void cycle(const m::MotionSelection&, praxis::JointCommand<N>& cmd, bool& safe) {
    cmd.mode.fill(praxis::JointMode::none);
    safe = true;
  }
};

// The user's controller: the stand pose, one arm joint (the first shoulder pitch) offset.
template <class Model>
using HoldOffset = praxis::test::HoldOffset<Model, Model::limbs[1].limb == tk::Limb::arm ? Model::limbs[1].first
                                                                                        : Model::limbs[2].first,
                                             300>;
static_assert(HoldOffset<tk::Pro>::k_joint == 13 && tk::Pro::motor_ids[13] == 11);
static_assert(HoldOffset<tk::Lite>::k_joint == 12 && tk::Lite::motor_ids[12] == 11);

// The controller's transitions as "t from -> to (cause)" lines, for a failing check's message.
template <class Controller>
std::string story(Controller& controller) {
  controller.flush();
  std::string out;
  for (const auto& e : controller.transitions()) {
    out += std::to_string(e.time) + " s " + std::string(m::to_string(e.from)) + " -> " + std::string(m::to_string(e.to)) +
           " (" + std::string(m::to_string(e.cause)) + ")\n";
  }
  return out;
}

template <class Model, tk::StatusLayout L = tk::StatusLayout::with_error>
struct Rig {
  using Backend = tk::TienkungBackend<Model, L>;
  using Controller = praxis::control::MotionController<Backend, Timetable, praxis::control::UserControlMotion<Model, HoldOffset<Model>>,
                                              NoWalk<Model::joint_count>>;
  static tk::BackendOptions backend_options() {
    auto o = Backend::robot("lo", k_domain);
    // A loaded two-core machine may hold a 500 Hz topic back for 100 ms and more (under the
    // sanitizers, with another test beside this one); the tests are about faults the fake injects,
    // not about the scheduler, so every timeout is 500 ms, as in the other vendors' DDS tests. (At
    // the defaults, 100 / 50 / 100 ms, clang ASan runs saw the link lost and the IMU silent before
    // the injected motor fault came.)
    o.link_timeout = 500ms;
    o.limb_timeout = 500ms;
    o.imu_timeout = 500ms;
    return o;
  }
  static praxis::control::MotionOptions motion_options() {
    praxis::control::MotionOptions o;
    o.print = false;
    o.lifecycle_timeout = 10s;
    o.safety.stale_timeout = 500ms;
    return o;
  }
  Backend robot{backend_options()};
  praxis::script::ScriptLibrary<Model> library;
  Controller controller{robot, library, motion_options()};
};

// praxis-fake-tienkung as a child process (tests/support/fake_robot_process.hpp).
struct FakeTienkung : praxis::test::FakeRobotProcess {
  explicit FakeTienkung(const std::string& robot, std::vector<std::string> extra = {})
      : FakeRobotProcess(PRAXIS_FAKE_TIENKUNG, robot, k_domain, std::move(extra)) {}
};

// The waist yaw (motor 31: one joint with room to turn for seconds, -2.97..3.14 rad) turned in
// velocity mode at `speed` rad/s, as praxis means it, by a backend speaking `unit` on the wire; then
// release() stops it. What praxis read meanwhile.
struct Spin {
  static constexpr std::size_t joint = 12;
  double dq = 0.0;      // the state's dq while turning (rad/s, as praxis reads the status)
  double q_rate = 0.0;  // how fast the state's q advanced meanwhile, over >= 0.6 s of the states' stamps
  std::size_t turning = 0;             // turning_joints() while turning
  praxis::LifecycleResult released{};  // release()
  std::size_t turning_after = 1;       // turning_joints() after release()
  std::uint64_t stops_confirmed = 0;
  double dq_after = 1.0;  // the state's dq 0.3 s after release()
};
static_assert(tk::Pro::motor_ids[Spin::joint] == 31);

Spin spin_waist(tk::SpeedUnit unit, double speed) {
  constexpr std::size_t N = tk::Pro::joint_count;
  constexpr auto w = static_cast<Eigen::Index>(Spin::joint);
  auto options = Rig<tk::Pro>::backend_options();
  options.speed_unit = unit;
  tk::TienkungBackend<tk::Pro> robot(options);
  const auto acquired = robot.acquire(10s);
  INFO("acquire: " << acquired.message);
  REQUIRE(acquired.ok);

  praxis::RobotState<N> state;
  praxis::JointCommand<N> turn;
  turn.mode.fill(praxis::JointMode::none);
  turn.mode[Spin::joint] = praxis::JointMode::velocity;
  turn.dq[w] = speed;
  const auto turn_for = [&](praxis::Duration d) {
    const auto until = praxis::Clock::now() + d;
    while (praxis::Clock::now() < until) {
      robot.read(state, praxis::Clock::now());
      robot.write(turn, praxis::Clock::now());
      std::this_thread::sleep_for(2ms);
    }
  };
  turn_for(300ms);  // up to speed: the fake's speed loop settles in some 20 ms
  const double q0 = state.q[w];
  const praxis::TimePoint t0 = state.stamp;
  turn_for(600ms);
  Spin out;
  out.dq = state.dq[w];
  out.q_rate = (state.q[w] - q0) / praxis::to_seconds(state.stamp - t0);
  out.turning = robot.turning_joints();

  out.released = robot.release(5s);
  out.turning_after = robot.turning_joints();
  out.stops_confirmed = robot.stops_confirmed();
  std::this_thread::sleep_for(300ms);
  const auto until = praxis::Clock::now() + 200ms;
  while (!robot.read(state, praxis::Clock::now()) && praxis::Clock::now() < until) std::this_thread::sleep_for(1ms);
  out.dq_after = state.dq[w];
  return out;
}

// The report's "speeds" entry for a motor.
nlohmann::json speed_entry(const nlohmann::json& report, int motor) {
  for (const auto& e : report["speeds"]) {
    if (e["motor"] == motor) return e;
  }
  FAIL("no \"speeds\" entry for motor " << motor);
  return {};
}

// rad/s per rpm.
constexpr double k_rad_s_per_rpm = 2.0 * std::numbers::pi / 60.0;

std::uint64_t rejected_total(const nlohmann::json& topic) {
  std::uint64_t n = 0;
  for (const auto& [reason, count] : topic["rejected"].items()) n += count.get<std::uint64_t>();
  return n;
}

}  // namespace tienkung_dds_test

using namespace tienkung_dds_test;

// [wallclock]: the documented rates (legs twice as often as the other limbs, >500 samples in 4 s) and
// no limb silent for 500 ms; the TSan CTest leaves it out (see tests/CMakeLists.txt).
TEST_CASE("tienkung over DDS: take control of a fake Pro, stand, run the user's controller, hand back",
          "[tienkung][dds][two-process][wallclock]") {
  FakeTienkung fake("pro");
  Rig<tk::Pro> rig;
  rig.controller.behaviour().steps = {{0.0, m::command::Stand{}}, {0.5, m::command::UserControl{}}};
  (void)rig.controller.run_for(4s);
  REQUIRE(rig.controller.acquired().has_value());
  INFO("acquire: " << rig.controller.acquired()->message);
  CHECK(rig.controller.acquired()->ok);
  CHECK_THAT(rig.controller.acquired()->message, Catch::Contains("with_error"));
  INFO("transitions:\n" << story(rig.controller));
  CHECK(rig.controller.selection().current == m::MotionType::user_control);
  const auto report = fake.stop();
  INFO(report.dump());

  // Every limb was commanded on cmd_ctrl, nothing refused, no velocity mode used.
  for (const char* limb : {"leg", "arm", "waist", "head"}) {
    INFO(limb);
    const auto& l = report["limbs"][limb];
    CHECK(l["cmd_ctrl"]["applied"].get<int>() > 500);
    CHECK(l["cmd_ctrl"]["stiff_samples"].get<int>() > 500);
    CHECK(rejected_total(l["cmd_ctrl"]) == 0);
    CHECK(l["cmd_vel"]["received"] == 0);
    CHECK(l["cmd_pos"]["received"] == 0);
  }
  // The documented rates: the legs twice as often as the other limbs.
  const double leg_rate = report["limbs"]["leg"]["status_published"].get<double>();
  const double arm_rate = report["limbs"]["arm"]["status_published"].get<double>();
  CHECK(leg_rate / arm_rate == Approx(2.0).margin(0.1));
  CHECK(report["turning_at_exit"].empty());
  CHECK(report["max_turning"] == 0);

  // The controller's target reached the joint; the stand pose held the rest.
  const auto& q = report["final_q"];
  constexpr std::size_t joint = HoldOffset<tk::Pro>::k_joint;
  CHECK(q[joint].get<double>() == Approx(HoldOffset<tk::Pro>::k_offset).margin(0.03));
  CHECK(q[0].get<double>() == Approx(0.0).margin(0.03));
  CHECK(q[joint + 7].get<double>() == Approx(0.0).margin(0.03));  // the other shoulder pitch
  CHECK(rig.robot.rejection_report(0).empty());
}

// Whether a praxis-guard process watches process `pid` (its command line ends "--pid <pid>").
bool guard_watches(int pid) {
  const std::string tail = "--pid " + std::to_string(pid);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (char& c : line) c = c == '\0' ? ' ' : c;
    if (line.find("praxis-guard") != std::string::npos && line.find(tail) != std::string::npos) return true;
  }
  return false;
}

// praxis-guard is on by default, and the Tienkung backend names itself to it: while the run has
// the robot, the guard watches, and the control thread writes its heartbeat into the memory they
// share every cycle. That is stores only: over the run, the control thread allocates nothing.
TEST_CASE("tienkung over DDS: with praxis-guard watching, the control thread allocates nothing",
          "[tienkung][dds][two-process][guard]") {
  FakeTienkung fake("pro");
  tk::TienkungBackend<tk::Pro> robot(Rig<tk::Pro>::backend_options());
  praxis::script::ScriptLibrary<tk::Pro> library;
  auto options = Rig<tk::Pro>::motion_options();
  std::atomic<std::uint64_t> at_start{0}, at_exit{0};
  std::atomic<bool> running{false};
  options.on_thread_start = [&](praxis::control::ThreadRole role) {
    if (role != praxis::control::ThreadRole::control) return;
    at_start = praxis::test::thread_allocation_count();
    running = true;
  };
  options.on_thread_exit = [&](praxis::control::ThreadRole role) {
    if (role == praxis::control::ThreadRole::control) at_exit = praxis::test::thread_allocation_count();
  };
  Rig<tk::Pro>::Controller controller(robot, library, options);
  controller.behaviour().steps = {{0.0, m::command::Stand{}}, {0.5, m::command::UserControl{}}};
  bool watched = false;
  std::thread look([&] {
    while (!running) std::this_thread::sleep_for(5ms);
    std::this_thread::sleep_for(500ms);
    watched = guard_watches(static_cast<int>(::getpid()));
  });
  const auto outcome = controller.run_for(3s);
  look.join();
  const auto report = fake.stop();
  INFO(outcome.summary() << "\n" << report.dump());
  CHECK(watched);
  CHECK(outcome.end == praxis::control::RunEnd::normal);
  CHECK(controller.selection().current == m::MotionType::user_control);
  CHECK(at_exit.load() >= at_start.load());
  CHECK(at_exit.load() - at_start.load() == 0);
  CHECK(report["limbs"]["arm"]["cmd_ctrl"]["applied"].get<int>() > 500);
  CHECK_FALSE(guard_watches(static_cast<int>(::getpid())));  // handed back: the guard went with the run
}

// [wallclock]: the fake turns the joint by its own clock while the test sleeps 0.4 s; a starved fake
// (the TSan build, a loaded machine) turns less. The TSan CTest leaves it out (see tests/CMakeLists.txt).
TEST_CASE("tienkung over DDS: a joint in velocity mode keeps turning until the backend sends speed 0",
          "[tienkung][dds][two-process][wallclock]") {
  FakeTienkung fake("pro");
  constexpr std::size_t N = tk::Pro::joint_count;
  constexpr std::size_t head_yaw = 29, left_elbow = 16;
  static_assert(tk::Pro::motor_ids[head_yaw] == 3 && tk::Pro::motor_ids[left_elbow] == 14);
  tk::TienkungBackend<tk::Pro> robot(Rig<tk::Pro>::backend_options());
  const auto acquired = robot.acquire(10s);
  INFO("acquire: " << acquired.message);
  REQUIRE(acquired.ok);

  praxis::RobotState<N> state;
  const auto q_now = [&](std::size_t j) {
    const auto until = praxis::Clock::now() + 200ms;
    while (!robot.read(state, praxis::Clock::now()) && praxis::Clock::now() < until) std::this_thread::sleep_for(1ms);
    return state.q[static_cast<Eigen::Index>(j)];
  };
  praxis::JointCommand<N> turn;
  turn.mode.fill(praxis::JointMode::none);
  turn.mode[head_yaw] = turn.mode[left_elbow] = praxis::JointMode::velocity;
  turn.dq[head_yaw] = 0.5;
  turn.dq[left_elbow] = -0.5;
  for (int k = 0; k < 150; ++k) {
    robot.write(turn, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  CHECK(robot.turning_joints() == 2);

  // Nothing written for 0.4 s: the motors keep their speed.
  const double q_stop_writing = q_now(head_yaw);
  std::this_thread::sleep_for(400ms);
  const double q_later = q_now(head_yaw);
  CHECK(q_later - q_stop_writing > 0.1);
  CHECK(q_now(left_elbow) < -0.15);

  const auto released = robot.release(1s);
  CHECK(released.ok);
  CHECK_THAT(released.message, Catch::Contains("speed 0 sent to 2 joints"));
  CHECK(robot.turning_joints() == 0);
  std::this_thread::sleep_for(200ms);
  const double q_stopped = q_now(head_yaw);
  std::this_thread::sleep_for(300ms);
  CHECK(std::abs(q_now(head_yaw) - q_stopped) < 0.01);

  const auto report = fake.stop();
  INFO(report.dump());
  CHECK(report["max_turning"] == 2);
  CHECK(report["turning_at_exit"].empty());
  CHECK(report["limbs"]["head"]["cmd_vel"]["zero_speeds"] == 1);
  CHECK(report["limbs"]["arm"]["cmd_vel"]["zero_speeds"] == 1);
  CHECK(report["limbs"]["leg"]["cmd_vel"]["received"] == 0);
  CHECK(report["limbs"]["head"]["cmd_ctrl"]["received"] == 0);  // mode none: no hybrid command at all
}

// The vendor's velocity latch (the fake's default: a cmd_ctrl does not release a motor turning in
// velocity mode): damping replacing a velocity command on a run's last frame reaches the motor only
// if its speed 0 arrived first, in the same write; the hand-back repeats both until the status
// confirms the stop, and the motor ends damped, not in velocity mode.
TEST_CASE("tienkung over DDS: damping replacing velocity mode finds the motor already sent speed 0",
          "[tienkung][dds][two-process][velocity]") {
  FakeTienkung fake("pro");
  constexpr std::size_t N = tk::Pro::joint_count;
  constexpr std::size_t left_elbow = 16;
  static_assert(tk::Pro::motor_ids[left_elbow] == 14);
  tk::TienkungBackend<tk::Pro> robot(Rig<tk::Pro>::backend_options());
  const auto acquired = robot.acquire(10s);
  INFO("acquire: " << acquired.message);
  REQUIRE(acquired.ok);

  praxis::RobotState<N> state;
  praxis::JointCommand<N> turn;
  turn.mode.fill(praxis::JointMode::none);
  turn.mode[left_elbow] = praxis::JointMode::velocity;
  turn.dq[left_elbow] = -0.5;
  for (int k = 0; k < 50; ++k) {
    robot.read(state, praxis::Clock::now());
    robot.write(turn, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  // The run's last frame is damping, then the hand-back.
  praxis::JointCommand<N> damping;
  praxis::damp_covered(damping, state.q, 2.0);
  robot.write(damping, praxis::Clock::now());
  const auto released = robot.release(5s);
  INFO("release: " << released.message);
  CHECK(released.ok);
  CHECK(robot.turning_joints() == 0);
  CHECK(robot.stops_confirmed() == 1);
  const auto report = fake.stop();
  INFO(report.dump());
  const auto& arm = report["limbs"]["arm"];
  CHECK(arm["cmd_vel"]["zero_speeds"] == 1);
  CHECK(arm["cmd_ctrl"]["ignored_while_turning"] == 0);  // no damping reached a latched motor
  CHECK(arm["cmd_ctrl"]["kp_zero_samples"].get<int>() >= 1);
  CHECK(report["velocity_mode_at_exit"].empty());
  CHECK(report["turning_at_exit"].empty());
}

// The speed unit on the wire is UNVERIFIED (rad/s or rpm): BackendOptions::speed_unit converts at the
// wire, --speed-unit makes the fake speak the other unit. With both in rpm, 1 rad/s as praxis means it
// goes out as 9.55 rpm, the motor turns at it, and the status' rpm reads back as rad/s.
TEST_CASE("tienkung over DDS: speed_unit rpm against a robot speaking rpm: 1 rad/s commanded turns the motor at 1 rad/s, then speed 0 stops it",
          "[tienkung][dds][two-process][velocity][speed_unit]") {
  FakeTienkung fake("pro", {"--speed-unit", "rpm"});
  const Spin spin = spin_waist(tk::SpeedUnit::rpm, 1.0);
  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(report["speed_unit"] == "rpm");
  const auto motor = speed_entry(report, 31);
  // The fake's side: 1 rad/s went out as 60/2pi = 9.55 rpm, and the motor took it as 1 rad/s.
  CHECK(motor["commanded_wire"].get<double>() == Approx(1.0 / k_rad_s_per_rpm).epsilon(1e-5));
  CHECK(motor["commanded"].get<double>() == Approx(1.0).epsilon(1e-5));
  // It turned at the command, short of it by the mock's soft speed loop: the fake drives velocity
  // mode with kd 2.5 against the joint's viscous damping 0.2, which settles at 2.5 / 2.7 = 0.93 of
  // the command (measured: 0.926).
  const double turned = motor["peak_speed"].get<double>();
  CHECK(turned > 0.85);
  CHECK(turned <= 1.0);
  // praxis' side: dq reads that speed in rad/s (the status' rpm divided back), and q advances at it.
  INFO("dq " << spin.dq << " rad/s, q advancing at " << spin.q_rate << " rad/s");
  CHECK(spin.dq == Approx(turned).epsilon(0.02));
  CHECK(spin.q_rate / spin.dq > 0.5);  // ~1; loose: the stamps are wall-clock arrivals
  CHECK(spin.q_rate / spin.dq < 2.0);
  CHECK(spin.turning == 1);
  // Then speed 0 stops it, confirmed by a status that reads (in rpm) below stopped_speed.
  INFO("release: " << spin.released.message);
  CHECK(spin.released.ok);
  CHECK_THAT(spin.released.message, Catch::Contains("speed 0 sent to 1 joints"));
  CHECK(spin.turning_after == 0);
  CHECK(spin.stops_confirmed == 1);
  CHECK(std::abs(spin.dq_after) < 0.05);
  CHECK(report["limbs"]["waist"]["cmd_vel"]["zero_speeds"] == 1);
  CHECK(report["max_turning"] == 1);
  CHECK(report["turning_at_exit"].empty());
}

// What a wrong speed_unit does: the robot speaks rpm, praxis rad/s. 1 rad/s goes out as 1.0, which
// the motor takes as 1 rpm = 2pi/60 = 0.105 rad/s. Its status says how fast it turns in rpm (0.93 of
// 1 rpm), which praxis takes for rad/s: the command and the status are off by the same factor, so dq
// reads what was commanded (0.93, as when the units agree) while the joint turns 9.55 times slower.
// Only q betrays it, advancing at a tenth of dq. (The other way round, robot in rad/s and praxis in
// rpm, the joint turns 9.55 times faster than commanded, dq again reads the command, and a speed 0
// is confirmed while the joint still turns at up to 9.55 x stopped_speed.)
TEST_CASE("tienkung over DDS: a speed unit mismatch (robot in rpm, praxis in rad/s): the motor turns 2pi/60 of the command while dq reads the command",
          "[tienkung][dds][two-process][velocity][speed_unit]") {
  FakeTienkung fake("pro", {"--speed-unit", "rpm"});
  const Spin spin = spin_waist(tk::SpeedUnit::rad_per_s, 1.0);
  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(report["speed_unit"] == "rpm");
  const auto motor = speed_entry(report, 31);
  // The fake's side: 1.0 on the wire, unscaled, taken as 1 rpm: the motor was told 0.105 rad/s.
  CHECK(motor["commanded_wire"].get<double>() == Approx(1.0).epsilon(1e-5));
  CHECK(motor["commanded"].get<double>() == Approx(k_rad_s_per_rpm).epsilon(1e-5));
  const double turned = motor["peak_speed"].get<double>();
  CHECK(turned > 0.85 * k_rad_s_per_rpm);
  CHECK(turned <= k_rad_s_per_rpm);
  // praxis' side: dq reads the status' rpm as rad/s, ~0.93 as in the test above, though the motor
  // turns at 2pi/60 of that.
  INFO("dq " << spin.dq << " rad/s, q advancing at " << spin.q_rate << " rad/s");
  CHECK(spin.dq > 0.85);
  CHECK(spin.dq <= 1.0);
  CHECK(turned / spin.dq == Approx(k_rad_s_per_rpm).epsilon(0.03));
  // Only q shows it: it advances at ~0.105 of what dq says (~1 when the units agree).
  CHECK(spin.q_rate / spin.dq < 0.3);
  CHECK(spin.q_rate > 0.0);
  // Speed 0 is 0 in any unit: the stop still works.
  INFO("release: " << spin.released.message);
  CHECK(spin.released.ok);
  CHECK(spin.turning_after == 0);
  CHECK(spin.stops_confirmed == 1);
  CHECK(std::abs(spin.dq_after) < 0.05);
  CHECK(report["limbs"]["waist"]["cmd_vel"]["zero_speeds"] == 1);
  CHECK(report["turning_at_exit"].empty());
}

// A motor off the bus when its speed 0 leaves never hears it; it comes back still latched. The
// backend keeps sending speed 0 until the status shows it stopped, online and error-free.
TEST_CASE("tienkung over DDS: a velocity joint stopped while its motor is offline is stopped when it comes back",
          "[tienkung][dds][two-process][velocity][errors]") {
  // Motor 14 (left elbow) goes off the bus 0.3 s after it is first sent a speed, for 1.5 s.
  FakeTienkung fake("pro", {"--offline", "spin+0.3:14:1.5"});
  constexpr std::size_t N = tk::Pro::joint_count;
  constexpr std::size_t left_elbow = 16;
  tk::TienkungBackend<tk::Pro> robot(Rig<tk::Pro>::backend_options());
  const auto acquired = robot.acquire(10s);
  INFO("acquire: " << acquired.message);
  REQUIRE(acquired.ok);

  praxis::RobotState<N> state;
  praxis::JointCommand<N> turn;
  turn.mode.fill(praxis::JointMode::none);
  turn.mode[left_elbow] = praxis::JointMode::velocity;
  turn.dq[left_elbow] = -0.5;
  const auto offline = [&] { return (state.health[left_elbow].faults & praxis::k_joint_offline) != 0; };
  auto until = praxis::Clock::now() + 5s;
  while (!offline() && praxis::Clock::now() < until) {
    robot.read(state, praxis::Clock::now());
    robot.write(turn, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  REQUIRE(offline());

  // Damping while it is offline: the stop stays pending.
  praxis::JointCommand<N> damping;
  praxis::damp_covered(damping, state.q, 2.0);
  for (int k = 0; k < 50; ++k) {
    robot.read(state, praxis::Clock::now());
    robot.write(damping, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  // (A starved machine may have seen the window end already; then the motor may be stopped.)
  const bool still_offline = offline();
  if (still_offline) CHECK(robot.turning_joints() == 1);
  // Until it is back and stopped.
  until = praxis::Clock::now() + 8s;
  while (robot.turning_joints() > 0 && praxis::Clock::now() < until) {
    robot.read(state, praxis::Clock::now());
    robot.write(damping, praxis::Clock::now());
    std::this_thread::sleep_for(2ms);
  }
  CHECK(robot.turning_joints() == 0);
  CHECK_FALSE(offline());
  CHECK(std::abs(state.dq[left_elbow]) < 0.05);
  CHECK(robot.release(1s).ok);

  const auto report = fake.stop();
  INFO(report.dump());
  REQUIRE(report["offline"].size() == 1);
  const auto& window = report["offline"][0];
  REQUIRE(window["to"].is_number());
  if (still_offline) {
    // The damping above all fell into the window: the motor came back turning, and the stop that
    // reached it was one sent after it came back.
    CHECK(window["turning_when_back"] == true);
    REQUIRE(window["stopped_after_back"].is_number());
    CHECK(window["stopped_after_back"].get<double>() >= 0.0);
  }
  CHECK(report["limbs"]["arm"]["cmd_vel"]["dropped_offline"].get<int>() > 0);
  CHECK(report["turning_at_exit"].empty());
  CHECK(report["velocity_mode_at_exit"].empty());
}

TEST_CASE("tienkung over DDS: a leg motor reporting 33072 (offline) sends the controller to damping",
          "[tienkung][dds][two-process][errors]") {
  // The fault comes 3 s after the fake's start: well after taking control, even on a loaded machine.
  FakeTienkung fake("pro", {"--fault", "3.0:51:33072"});
  Rig<tk::Pro> rig;
  rig.controller.behaviour().steps = {{0.0, m::command::Stand{}}, {0.5, m::command::UserControl{}}};
  (void)rig.controller.run_for(5s);
  REQUIRE(rig.controller.acquired().has_value());
  REQUIRE(rig.controller.acquired()->ok);
  CHECK(rig.controller.selection().current == m::MotionType::damping);
  CHECK(rig.controller.safety().joint_fault);
  CHECK(rig.controller.safety().faulted_joint == 0);  // motor 51, left_hip_roll
  rig.controller.flush();
  const auto t = rig.controller.transitions();
  REQUIRE(!t.empty());
  CHECK(t.back().to == m::MotionType::damping);
  CHECK(t.back().cause == m::SelectionCause::joint_fault);
  const auto report = fake.stop();
  INFO(report.dump());
  // Stiff while standing, then nothing but kp 0 on every limb.
  for (const char* limb : {"leg", "arm", "waist", "head"}) {
    INFO(limb);
    CHECK(report["limbs"][limb]["cmd_ctrl"]["stiff_samples"].get<int>() > 200);
    CHECK(report["limbs"][limb]["cmd_ctrl"]["last_all_kp_zero"] == true);
  }
}

TEST_CASE("tienkung over DDS: a limb whose status falls silent has its joints offline, and the controller damps",
          "[tienkung][dds][two-process][errors]") {
  FakeTienkung fake("lite", {"--silent-limb", "3.0:arm"});
  Rig<tk::Lite> rig;
  rig.controller.behaviour().steps = {{0.0, m::command::Stand{}}, {0.5, m::command::UserControl{}}};
  (void)rig.controller.run_for(5s);
  REQUIRE(rig.controller.acquired().has_value());
  REQUIRE(rig.controller.acquired()->ok);
  CHECK(rig.controller.selection().current == m::MotionType::damping);
  CHECK(rig.controller.safety().faulted_joint == 12);  // the Lite's first arm joint
  rig.controller.flush();
  const auto t = rig.controller.transitions();
  REQUIRE(!t.empty());
  CHECK(t.back().cause == m::SelectionCause::joint_fault);
  const auto report = fake.stop();
  INFO(report.dump());
  const double legs = report["limbs"]["leg"]["status_published"].get<double>();
  const double arms = report["limbs"]["arm"]["status_published"].get<double>();
  CHECK(arms < 0.4 * legs);  // the arm fell silent 3 s into a run of more than 5 s
  CHECK(report["limbs"]["leg"]["cmd_ctrl"]["stiff_samples"].get<int>() > 200);
  CHECK(report["limbs"]["leg"]["cmd_ctrl"]["last_all_kp_zero"] == true);
}

// A Pro that restarts under the user's controller: its process gone mid-CTRL, a new one on the same
// domain. praxis' state goes stale (control lost, joint damping), and the restarted robot gets
// nothing stiff: only damping frames, no velocity, until the run ends.
TEST_CASE("tienkung over DDS: a Pro restarted under the user's controller is not taken again: control lost, only "
          "damping reaches the new robot", "[tienkung][dds][two-process][restart]") {
  std::optional<FakeTienkung> before(std::in_place, "pro", std::vector<std::string>{"--duration", "4"});
  Rig<tk::Pro> rig;
  rig.controller.behaviour().steps = {{0.0, m::command::Stand{}}, {0.5, m::command::UserControl{}}};
  praxis::control::RunOutcome outcome;
  std::thread run([&] { outcome = rig.controller.run_for(7s); });
  REQUIRE(before->wait_for_exit(15000ms));
  const auto first = before->stop();
  CHECK(first["limbs"]["arm"]["cmd_ctrl"]["stiff_samples"].get<int>() > 200);  // under praxis' joints when it went
  CHECK(first["limbs"]["arm"]["cmd_ctrl"]["last_all_kp_zero"] == false);
  std::this_thread::sleep_for(1000ms);  // past the link timeout (500 ms here): a robot boots far slower
  FakeTienkung after("pro");
  run.join();
  const auto report = after.stop();
  INFO(report.dump());
  INFO(outcome.summary());
  INFO("transitions:\n" << story(rig.controller));
  CHECK(outcome.end == praxis::control::RunEnd::control_lost);
  CHECK(rig.controller.selection().current == m::MotionType::damping);
  for (const char* limb : {"leg", "arm", "waist", "head"}) {
    INFO(limb);
    const auto& l = report["limbs"][limb];
    CHECK(l["cmd_ctrl"]["stiff_samples"] == 0);  // never the stand or the user's targets
    CHECK(l["cmd_ctrl"]["kp_zero_samples"].get<int>() > 100);  // damping, every cycle
    CHECK(l["cmd_vel"]["received"] == 0);
    CHECK(rejected_total(l["cmd_ctrl"]) == 0);
  }
  CHECK(report["max_turning"] == 0);
}

TEST_CASE("tienkung over DDS: a MotorStatus layout other than the robot's fails acquire, naming the layout",
          "[tienkung][dds][two-process][errors]") {
  FakeTienkung fake("lite", {"--layout", "without_error"});
  {
    // The robot is up and sending: a backend with its layout takes it.
    tk::TienkungBackend<tk::Lite, tk::StatusLayout::without_error> right(Rig<tk::Lite>::backend_options());
    const auto r = right.acquire(10s);
    INFO("acquire: " << r.message);
    REQUIRE(r.ok);
    CHECK_THAT(r.message, Catch::Contains("without_error"));
    right.release(1s);
  }
  // The backend's default layout against the same robot.
  tk::TienkungBackend<tk::Lite> wrong(Rig<tk::Lite>::backend_options());
  const auto r = wrong.acquire(2s);
  INFO("acquire: " << r.message);
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.message, Catch::Contains("rt/leg/status") && Catch::Contains("with_error"));
  const auto report = fake.stop();
  CHECK(report["limbs"]["leg"]["status_published"].get<int>() > 1000);  // it sent all along
}

TEST_CASE("tienkung over DDS: the fake robot refuses commands for unknown motors, other limbs, non-finite values",
          "[tienkung][dds][two-process][errors]") {
  FakeTienkung fake("pro");
  praxis::transport::Participant participant({k_domain, "lo"});
  const tk::TypeNames types;
  praxis::transport::Publisher<tk::CmdMotorCtrlWire> arm_ctrl(
      participant, "rt/arm/cmd_ctrl", praxis::transport::with_type_name(&bodyctrl_msgs_msg_dds__CmdMotorCtrl__desc,
                                                                   types.motor_ctrl),
      praxis::transport::TopicQos{.reliable = true, .depth = 10});
  const auto until = praxis::Clock::now() + 10s;
  while (arm_ctrl.matched() == 0 && praxis::Clock::now() < until) std::this_thread::sleep_for(10ms);
  REQUIRE(arm_ctrl.matched() == 1);

  char frame[1] = "";
  auto send = [&](std::uint16_t motor, float kp) {
    std::array<tk::MotorCtrlWire, 1> element{};
    element[0].name = motor;
    element[0].kp = kp;
    element[0].kd = 1.0f;
    element[0].pos = 0.2f;
    tk::CmdMotorCtrlWire msg{};
    msg.header.frame_id = frame;
    msg.cmds._buffer = element.data();
    msg.cmds._length = msg.cmds._maximum = 1;
    msg.cmds._release = false;
    REQUIRE(arm_ctrl.write(msg));
  };
  send(51, 20.0f);                                        // a leg motor on the arm's topic
  send(99, 20.0f);                                        // no such motor
  send(11, std::numeric_limits<float>::quiet_NaN());      // kp NaN
  send(11, std::numeric_limits<float>::infinity());       // kp infinite
  send(11, 20.0f);                                        // fine: left shoulder pitch to 0.2
  std::this_thread::sleep_for(1s);
  const auto report = fake.stop();
  INFO(report.dump());
  const auto& arm = report["limbs"]["arm"]["cmd_ctrl"];
  CHECK(arm["received"] == 5);
  CHECK(arm["applied"] == 1);
  CHECK(arm["rejected"]["wrong_limb"] == 1);
  CHECK(arm["rejected"]["unknown_motor_id"] == 1);
  CHECK(arm["rejected"]["non_finite"] == 2);
  CHECK(report["final_q"][13].get<double>() == Approx(0.2).margin(0.02));
  CHECK(report["limbs"]["leg"]["cmd_ctrl"]["received"] == 0);
}
