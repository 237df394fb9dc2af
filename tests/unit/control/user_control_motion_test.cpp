// control/user_control_motion.hpp: the motion that runs a USER_CTRL, as a node on its own. It is
// always safe to leave; it runs only while selected, or kept warm in STAND (computed, not sent);
// it resets the controller on every entry into a motion it runs in; it writes every joint's target,
// gains, velocity, torque and mode only while user_control is selected, and leaves the command as
// it was otherwise; its start pose is the controller's init_pos. The controller's way through
// RobotController and MotionController is tested in their files and in the integration suites.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <filesystem>
#include <string_view>

#include "praxis/control/user_control_motion.hpp"

namespace user_control_motion_test {

namespace m = praxis::motion;
using m::MotionType;
constexpr std::size_t N = 3;

struct Three {
  static constexpr std::string_view name = "three";
  static constexpr std::size_t joint_count = N;
  static constexpr std::array<praxis::JointSpec, N> joints{
      {{"a", -2.0, 2.0, 10.0, 5.0}, {"b", -2.0, 2.0, 10.0, 5.0}, {"c", -2.0, 2.0, 10.0, 5.0}}};
  static constexpr std::array<double, N> stand_pose{0.0, 0.0, 0.0};
  static constexpr std::array<double, N> rest_pose{0.0, 0.0, 0.0};
  static constexpr std::array<double, N> default_kp{1.0, 1.0, 1.0};
  static constexpr std::array<double, N> default_kd{1.0, 1.0, 1.0};
};

// Targets count its calculations, so a test can tell which cycle's output went out.
struct Counting {
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, praxis::JointMode::torque};
  double dt = 0.002;
  std::array<double, N> kp{10.0, 20.0, 30.0};
  double kd = 0.5;
  std::array<double, N> init_pos{0.1, -0.2, 0.3};
  std::array<double, N> jpos_des{};
  std::array<double, N> jvel_des{};
  std::array<double, N> tau_ff{};
  std::array<praxis::JointMode, N> joint_mode{praxis::JointMode::position, praxis::JointMode::position,
                                              praxis::JointMode::torque};
  int resets = 0, calculations = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { ++resets; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    ++calculations;
    for (std::size_t j = 0; j < N; ++j) {
      jpos_des[j] = init_pos[j] + 0.01 * calculations;
      jvel_des[j] = 0.1 * calculations;
      tau_ff[j] = 1.0 * calculations;
    }
  }
  std::array<float, 0> log() const { return {}; }
};

using Motion = praxis::control::UserControlMotion<Three, Counting>;

m::MotionSelection selection(MotionType current, bool changed) {
  m::MotionSelection s;
  s.current = current;
  s.changed = changed;
  return s;
}

struct Harness {
  Motion motion;
  praxis::RobotState<N> state;
  praxis::Gamepad pad;
  praxis::JointCommand<N> cmd;
  bool safe = false;
  void cycle(MotionType current, bool changed) { motion.cycle(selection(current, changed), state, pad, cmd, safe); }
  Counting& ctrl() { return motion.adapter.controller(); }
};

// A command no motion writes: what "left as it was" looks like.
praxis::JointCommand<N> untouched() {
  praxis::JointCommand<N> c;
  c.q.setConstant(9.0);
  c.kp.setConstant(9.0);
  return c;
}

TEST_CASE("user control motion: named user_control and writing that motion's ports", "[control][user_control_motion]") {
  CHECK(Motion::name == praxis::to_string(MotionType::user_control));
  STATIC_REQUIRE(std::is_same_v<Motion::outputs, praxis::ports<m::BodyCommandPort<MotionType::user_control, N>,
                                                              m::SafeExitPort<MotionType::user_control>>>);
}

TEST_CASE("user control motion: not selected it does not run and leaves the command",
          "[control][user_control_motion]") {
  Harness h;
  h.cmd = untouched();
  for (const auto t : {MotionType::damping, MotionType::stand, MotionType::dispatching, MotionType::walk}) {
    INFO(praxis::to_string(t));
    h.cycle(t, true);
    CHECK_FALSE(h.motion.ran());
    CHECK(h.safe);  // always safe to leave: the selector never waits on it
  }
  CHECK(h.ctrl().calculations == 0);
  CHECK(h.ctrl().resets == 0);
  CHECK(h.cmd.q[0] == 9.0);
}

TEST_CASE("user control motion: selected it resets on entry and writes every field of every joint",
          "[control][user_control_motion]") {
  Harness h;
  h.cycle(MotionType::user_control, true);
  CHECK(h.motion.ran());
  CHECK(h.ctrl().resets == 1);
  CHECK(h.ctrl().calculations == 1);
  h.cycle(MotionType::user_control, false);
  h.cycle(MotionType::user_control, false);
  CHECK(h.ctrl().resets == 1);  // only on entry
  CHECK(h.ctrl().calculations == 3);
  CHECK(h.safe);
  // This cycle's output, not an earlier one.
  CHECK(h.cmd.q[0] == Approx(0.1 + 0.03));
  CHECK(h.cmd.q[2] == Approx(0.3 + 0.03));
  CHECK(h.cmd.dq[1] == Approx(0.3));
  CHECK(h.cmd.tau_ff[2] == Approx(3.0));
  CHECK(h.cmd.kp[0] == 10.0);
  CHECK(h.cmd.kp[2] == 30.0);
  CHECK(h.cmd.kd[1] == 0.5);
  CHECK(h.cmd.mode[0] == praxis::JointMode::position);
  CHECK(h.cmd.mode[2] == praxis::JointMode::torque);

  // Left and entered again: reset again.
  h.cycle(MotionType::damping, true);
  h.cycle(MotionType::user_control, true);
  CHECK(h.ctrl().resets == 2);
}

TEST_CASE("user control motion: warm in stand it computes without sending and resets on entering stand and CTRL",
          "[control][user_control_motion]") {
  Harness h;
  h.motion.warm_in_stand = true;
  h.cmd = untouched();
  h.cycle(MotionType::stand, true);
  CHECK(h.motion.ran());
  CHECK(h.ctrl().resets == 1);
  h.cycle(MotionType::stand, false);
  CHECK(h.ctrl().calculations == 2);
  CHECK(h.cmd.q[0] == 9.0);  // computed, not sent
  CHECK(h.cmd.kp[0] == 9.0);
  h.cycle(MotionType::user_control, true);
  CHECK(h.ctrl().resets == 2);  // CTRL starts from a controller that has seen the robot stand, reset
  CHECK(h.cmd.q[0] == Approx(0.1 + 0.03));
  // Warm only in stand: damping still stops it.
  h.cycle(MotionType::damping, true);
  CHECK_FALSE(h.motion.ran());
  CHECK(h.ctrl().calculations == 3);

  Harness cold;  // not warm: stand does not run it
  cold.cycle(MotionType::stand, true);
  CHECK_FALSE(cold.motion.ran());
  CHECK(cold.ctrl().calculations == 0);
}

// A controller that keeps out of STAND: at compile time (a trained policy's static constexpr) or
// at run time (a controller that chooses what it runs, as the demo's does).
struct Cold : Counting {
  static constexpr bool runs_in_stand = false;
};
struct Choosing : Counting {
  bool warm = true;
  [[nodiscard]] bool runs_in_stand() const { return warm; }
};

template <class C>
struct HarnessOf {
  praxis::control::UserControlMotion<Three, C> motion;
  praxis::RobotState<N> state;
  praxis::Gamepad pad;
  praxis::JointCommand<N> cmd;
  bool safe = false;
  HarnessOf() { motion.warm_in_stand = true; }
  void cycle(MotionType current, bool changed) { motion.cycle(selection(current, changed), state, pad, cmd, safe); }
  C& ctrl() { return motion.adapter.controller(); }
};

TEST_CASE("user control motion: a controller that says it does not run in stand is left out of it and reset on CTRL",
          "[control][user_control_motion]") {
  HarnessOf<Cold> cold;
  cold.cycle(MotionType::stand, true);
  cold.cycle(MotionType::stand, false);
  CHECK_FALSE(cold.motion.ran());
  CHECK(cold.ctrl().calculations == 0);
  CHECK(cold.ctrl().resets == 0);
  cold.cycle(MotionType::user_control, true);
  CHECK(cold.ctrl().resets == 1);
  CHECK(cold.ctrl().calculations == 1);

  HarnessOf<Choosing> choosing;
  choosing.ctrl().warm = false;
  choosing.cycle(MotionType::stand, true);
  CHECK(choosing.ctrl().calculations == 0);
  choosing.ctrl().warm = true;  // the run-time answer is asked every cycle
  choosing.cycle(MotionType::stand, false);
  CHECK(choosing.ctrl().calculations == 1);
}

TEST_CASE("user control motion: the start pose is the controller's init_pos", "[control][user_control_motion]") {
  Harness h;
  CHECK(h.motion.start_pose() == std::array<double, N>{0.1, -0.2, 0.3});
  h.ctrl().init_pos = {0.5, 0.6, 0.7};
  CHECK(h.motion.start_pose() == std::array<double, N>{0.5, 0.6, 0.7});
}

}  // namespace user_control_motion_test
