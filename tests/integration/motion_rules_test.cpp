// The motion pipeline's rules on mock robots in simulated time: falling versus lying on the floor,
// nothing asked of a robot before the behaviour's first command, mode and get-up requests, when a
// motion the robot runs itself may be left, the user's controller as a behaviour-driven motion with
// RobotController's safety, the velocity guard, and zero allocations with the user's controller.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <initializer_list>

#include "../support/alloc_counter.hpp"
#include "motion_rig.hpp"
#include "praxis/control/user_control_motion.hpp"

namespace motion_rules_test {

using namespace motion_test;

namespace {

using R = praxis::RobotMode;
using praxis::mock::StateField;

// A deterministic USER_CTRL for the G1: a slow sine around init_pos (which differs from the
// model's stand pose on the left knee, so that dispatching can be told apart from standing).
struct SwayController {
  static constexpr std::size_t N = G1::joint_count;
  static constexpr std::size_t k_knee = 3;
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = [] {
    auto p = G1::stand_pose;
    p[k_knee] += 0.2;
    return p;
  }();
  std::array<double, N> jpos_des = init_pos;
  std::array<double, N> jvel_des{};
  double t = 0.0;
  int resets = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {
    t = 0.0;
    ++resets;
  }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    t += dt;
    for (std::size_t j = 0; j < N; ++j) {
      jpos_des[j] = init_pos[j] + 0.05 * std::sin(t + 0.1 * static_cast<double>(j));
    }
  }
  [[nodiscard]] std::array<float, 1> log() const { return {static_cast<float>(t)}; }
};

using UserControl = praxis::control::UserControlMotion<G1, SwayController>;
// WalkingMock walks by itself, so the G1 needs no walking node of ours.
using UserRig = Rig<WalkingMock, UserControl>;

// Brings the rig into user_control (dispatching to init_pos first); the time it got there.
double enter_user_control(UserRig& rig) {
  rig.command(m::command::UserControl{});
  rig.run_until(0.1);
  REQUIRE(rig.motion->selection().current == MotionType::dispatching);
  REQUIRE(rig.motion->selection().dispatching_to == MotionType::user_control);
  const auto sel = rig.run_until_change(2.0);
  REQUIRE(sel.current == MotionType::user_control);
  return praxis::to_seconds(rig.now.time_since_epoch());
}

}  // namespace

// ---------------- (a) falling versus fallen ----------------

TEST_CASE("a humanoid lying on the floor is falling, then fallen, and may then get up",
          "[motion][rules][fall]") {
  Rig<WalkingMock> rig(g1_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  REQUIRE(rig.motion->selection().current == MotionType::stand);
  REQUIRE(rig.motion->fall_state().phase == m::FallPhase::upright);

  rig.robot.tilt(1.5, 0.0, at(1.6));  // on its side, not moving (the mock's gyro reads zero)
  rig.run_until(1.62);
  CHECK(rig.motion->fall_state().falling());
  CHECK(rig.motion->fall_state().tilt == Approx(1.5).margin(1e-6));
  CHECK(rig.motion->selection().current == MotionType::fall_protection);
  rig.run_until(1.85);  // still within the rest time (300 ms)
  CHECK(rig.motion->fall_state().falling());
  rig.run_until(1.95);
  CHECK(rig.motion->fall_state().fallen());
  // Fallen, the standing request is still refused: it lies soft in fall protection.
  rig.run_until(2.5);
  CHECK(rig.motion->selection().current == MotionType::fall_protection);
  CHECK(rig.motion->command().kp.maxCoeff() == 0.0);

  // Asked to stand up, it leaves fall protection and runs stand-up (scripted: directly).
  rig.command(m::command::StandUp{});
  const auto sel = rig.run_until_change(2.6);
  CHECK(sel.current == MotionType::stand_up);
  CHECK(sel.previous == MotionType::fall_protection);
  CHECK(sel.stand_up_attempts == 1);
  rig.run_until(2.7);
  CHECK(rig.motion->selection().current == MotionType::stand_up);
  CHECK(rig.motion->command().kp.maxCoeff() > 0.0);  // the stand script stiffens the joints

  // Getting up looks like falling: upright for a moment, then tipping past the threshold again
  // (falling for the rest time) does not interrupt it.
  rig.robot.tilt(0.3, 0.0, at(2.8));
  rig.robot.tilt(1.2, 0.0, at(2.9));
  rig.run_until(2.85);
  CHECK(rig.motion->fall_state().phase == m::FallPhase::upright);
  rig.run_until(3.0);
  CHECK(rig.motion->fall_state().falling());
  CHECK(rig.motion->selection().current == MotionType::stand_up);
  CHECK(rig.motion->selection().stand_up_attempts == 1);
}

TEST_CASE("falling in any other motion goes to fall protection at once", "[motion][rules][fall]") {
  Rig<WalkingMock> rig(g1_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  rig.robot.tilt(1.2, 0.0, at(1.6));
  const auto sel = rig.run_until_change(1.7);
  CHECK(sel.current == MotionType::fall_protection);
  CHECK(sel.cause == m::SelectionCause::falling);
  CHECK(rig.motion->fall_state().falling());
}

// ---------------- (b) nothing before the first command ----------------

TEST_CASE("before the first command a robot with its own modes is asked nothing, a joint-level robot is damped",
          "[motion][rules][unset]") {
  SECTION("a robot with its own modes") {
    Rig<ModalMock> rig(g1_scripts());
    rig.run_until(1.0);
    CHECK(rig.robot.posts.empty());
    CHECK(!rig.motion->requests().any);
    CHECK(!rig.motion->selection().commanded);
    CHECK(rig.motion->selection().current == MotionType::damping);
    rig.command(m::command::Prepare{});
    rig.step();
    REQUIRE(rig.robot.posts.size() == 1);
    CHECK(rig.robot.posts.front().mode == R::prepare);
    rig.run_until(1.1);
    CHECK(rig.robot.posts.size() == 50);  // then every cycle: the requests are level-triggered
  }
  SECTION("a joint-level robot") {
    Rig<WalkingMock> rig(g1_scripts());
    rig.run_until(1.0);
    CHECK(rig.robot.commands_received() == 500);
    const auto& cmd = rig.robot.last_command().command;
    CHECK(cmd.kp.maxCoeff() == 0.0);
    CHECK(cmd.kd.minCoeff() == rig.motion->options().damping_kd);
    for (std::size_t j = 0; j < G1::joint_count; ++j) {
      CHECK(cmd.mode[j] == praxis::JointMode::position);
    }
    // Damping holds the measured positions.
    CHECK((cmd.q - rig.motion->last_state().q).cwiseAbs().maxCoeff() < 1e-9);
    CHECK(!rig.motion->selection().commanded);
    CHECK(rig.robot.posts == 0);  // it walks by itself, but nothing was asked yet
    rig.command(m::command::Stand{});
    rig.step();
    CHECK(rig.motion->selection().commanded);
    CHECK(rig.motion->selection().current == MotionType::dispatching);
    CHECK(rig.robot.posts == 1);
  }
}

// ---------------- (c) mode and get-up requests ----------------

TEST_CASE("prepare and stand-up ask for the prepare mode: each stand-up entry asks for one get-up",
          "[motion][rules][modes]") {
  Rig<ModalMock> rig(g1_scripts());
  rig.command(m::command::Prepare{});
  rig.run_until(0.2);
  CHECK(rig.robot.posts.back().mode == R::prepare);
  CHECK(rig.robot.posts.back().get_up == 0);

  rig.command(m::command::StandUp{});
  rig.run_until(0.5);
  CHECK(rig.motion->selection().current == MotionType::stand_up);
  CHECK(rig.robot.posts.back().mode == R::prepare);
  CHECK(rig.robot.posts.back().get_up == 1);  // once, not once per cycle

  rig.command(m::command::Prepare{});
  rig.run_until(0.6);
  CHECK(rig.motion->selection().current == MotionType::prepare);
  CHECK(rig.robot.posts.back().get_up == 1);
  rig.command(m::command::StandUp{});
  rig.run_until(0.7);
  CHECK(rig.robot.posts.back().get_up == 2);  // a second entry, a second get-up

  rig.command(m::command::Stand{});
  rig.run_until(0.8);
  CHECK(rig.robot.posts.back().mode == R::locomotion);
  CHECK(rig.robot.posts.back().locomotion.active);
  CHECK(rig.robot.posts.back().locomotion.vx == 0.0);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.3, -0.1};
  walk.angular_velocity = 0.2;
  rig.command(walk);
  rig.run_until(0.9);
  CHECK(rig.motion->selection().current == MotionType::walk);
  CHECK(rig.robot.posts.back().mode == R::locomotion);
  CHECK(rig.robot.posts.back().locomotion.active);
  CHECK(rig.robot.posts.back().locomotion.vx == Approx(0.3));
  CHECK(rig.robot.posts.back().locomotion.vy == Approx(-0.1));
  CHECK(rig.robot.posts.back().locomotion.wz == Approx(0.2));
  CHECK(rig.robot.posts.back().get_up == 2);
}

TEST_CASE("a robot without a get-up of its own is only asked for the prepare mode", "[motion][rules][modes]") {
  Rig<ModesOnlyMock> rig(g1_scripts());
  rig.command(m::command::StandUp{});
  rig.run_until(0.5);
  CHECK(rig.motion->selection().current == MotionType::stand_up);
  CHECK(rig.robot.posts.back().mode == R::prepare);
  CHECK(rig.robot.posts.back().get_up == 0);
}

TEST_CASE("a robot that reports itself upright: stand-up asks for no get-up and ends once the prepare mode is confirmed",
          "[motion][rules][modes]") {
  Rig<ModalMock> rig(g1_scripts());
  rig.robot.posture = praxis::Posture::upright;  // standing when the behaviour starts (Booster: IS_READY)
  rig.command(m::command::StandUp{});
  rig.run_until(0.3);
  CHECK(rig.robot.posts.back().mode == R::prepare);
  CHECK(rig.robot.posts.back().get_up == 0);  // nothing to get up from
  CHECK(rig.motion->safe_exits()[MotionType::stand_up]);
  rig.command(m::command::Stand{});
  rig.run_until(0.4);
  // Left at once, not after the 15 s get-up timeout.
  CHECK(rig.motion->selection().current == MotionType::stand);
  CHECK(rig.robot.posts.back().mode == R::locomotion);

  SECTION("a robot lying down still gets up first") {
    Rig<ModalMock> lying(g1_scripts());
    lying.robot.posture = praxis::Posture::fallen;
    lying.robot.confirms_modes = true;
    lying.command(m::command::StandUp{});
    lying.run_until(0.3);
    CHECK(lying.robot.posts.back().get_up == 1);
  }
}

// ---------------- (d) leaving a motion the robot runs ----------------

TEST_CASE("a mode motion may be left once the robot reports the mode, or after the confirm timeout",
          "[motion][rules][modes]") {
  SECTION("the robot confirms") {
    Rig<ModalMock> rig(g1_scripts());
    rig.command(m::command::Prepare{});
    rig.step();  // enters prepare and posts it; the status read before this cycle had no mode yet
    CHECK(rig.motion->selection().current == MotionType::prepare);
    CHECK(!rig.motion->safe_exits()[MotionType::prepare]);
    rig.step();  // the status now reports prepare, as assumed
    CHECK(rig.motion->status().reported_mode == R::prepare);
    CHECK(rig.motion->status().mode_confirmed());
    CHECK(rig.motion->safe_exits()[MotionType::prepare]);
    rig.command(m::command::Stand{});
    rig.step();
    CHECK(rig.motion->selection().current == MotionType::stand);
  }
  SECTION("the robot never reports its mode") {
    Rig<ModalMock> rig(g1_scripts());
    rig.robot.confirms_modes = false;
    rig.command(m::command::Prepare{});
    rig.step();
    const double entered = praxis::to_seconds(rig.now.time_since_epoch());
    rig.command(m::command::Stand{});
    rig.run_until(entered + 1.9);
    CHECK(rig.motion->status().assumed_mode == R::prepare);
    CHECK(!rig.motion->status().mode_confirmed());
    CHECK(rig.motion->selection().current == MotionType::prepare);  // kept: not safe to leave yet
    CHECK(!rig.motion->safe_exits()[MotionType::prepare]);
    const auto sel = rig.run_until_change(entered + 2.2);
    CHECK(sel.current == MotionType::stand);
    // The confirm timeout is 2 s: left on the first cycle after it (the safe flag is last cycle's).
    CHECK(praxis::to_seconds(rig.now.time_since_epoch()) - entered == Approx(2.002).margin(1e-9));
  }
}

// ---------------- (e) the user's controller, behaviour-driven ----------------

TEST_CASE("command::UserControl runs the user's controller after dispatching to its init_pos",
          "[motion][rules][user_control]") {
  UserRig rig(g1_scripts());
  rig.command(m::command::UserControl{});
  rig.run_until(0.1);
  CHECK(rig.motion->selection().dispatching_to == MotionType::user_control);
  CHECK(!rig.motion->node<UserControl>().ran());
  // The last dispatching cycle commands init_pos, not the model's stand pose.
  const auto& ctrl = rig.motion->node<UserControl>().adapter.controller();
  praxis::JointVector<G1::joint_count> last_dispatched;
  while (rig.motion->selection().current == MotionType::dispatching && rig.now < at(2.0)) {
    last_dispatched = rig.motion->command().q;
    rig.step();
  }
  REQUIRE(rig.motion->selection().current == MotionType::user_control);
  for (std::size_t j = 0; j < G1::joint_count; ++j) {
    CHECK(last_dispatched[static_cast<Eigen::Index>(j)] == Approx(ctrl.init_pos[j]).margin(1e-9));
  }
  CHECK(ctrl.resets == 1);  // reset on entry
  rig.run_until(1.5);
  CHECK(rig.motion->node<UserControl>().ran());
  for (std::size_t j = 0; j < G1::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    CHECK(rig.motion->command().q[i] == Approx(ctrl.jpos_des[j]).margin(1e-12));
    CHECK(rig.motion->command().kp[i] == 60.0);
    CHECK(rig.motion->command().kd[i] == 1.5);
  }
  CHECK(rig.robot.last_command().command.q[3] == Approx(ctrl.jpos_des[3]).margin(1e-12));  // and it was sent
  CHECK(rig.robot.q()[3] == Approx(ctrl.jpos_des[3]).margin(0.05));                        // and followed
}

TEST_CASE("the user's controller under the behaviour has RobotController's safety", "[motion][rules][user_control]") {
  UserRig rig(g1_scripts());
  const double t = enter_user_control(rig);
  rig.run_until(t + 0.2);
  REQUIRE(rig.motion->selection().current == MotionType::user_control);

  auto expect_damping = [&](std::initializer_list<m::SelectionCause> causes, double within) {
    const auto sel = rig.run_until_change(t + 0.2 + within);
    INFO("cause: " << m::to_string(sel.cause));
    CHECK(sel.current == MotionType::damping);
    CHECK(sel.previous == MotionType::user_control);
    CHECK(std::find(causes.begin(), causes.end(), sel.cause) != causes.end());
    CHECK(rig.motion->command().kp.maxCoeff() == 0.0);
  };
  SECTION("a stale state") {
    rig.robot.drop_states(at(t + 0.2), at(t + 5.0));
    expect_damping({m::SelectionCause::stale_state}, 0.2);
    CHECK(rig.motion->safety().stale);
    // After the timeout (100 ms), not before it.
    CHECK(praxis::to_seconds(rig.now.time_since_epoch()) - (t + 0.2) > 0.1);
  }
  SECTION("a NaN in the state") {
    rig.robot.inject_nan(StateField::q, 5, at(t + 0.2), at(t + 5.0));
    expect_damping({m::SelectionCause::invalid_state}, 0.02);
    CHECK(rig.motion->safety().invalid);
  }
  SECTION("a tilt past the termination threshold") {
    rig.robot.tilt(1.7, 0.0, at(t + 0.21));
    expect_damping({m::SelectionCause::tilt, m::SelectionCause::falling}, 0.05);
  }
}

TEST_CASE("once a safety rule stopped the user's controller, the behaviour must ask again", "[motion][rules][user_control]") {
  UserRig rig(g1_scripts());
  const double t = enter_user_control(rig);
  rig.run_until(t + 0.2);
  REQUIRE(rig.motion->selection().current == MotionType::user_control);
  rig.robot.drop_states(at(t + 0.2), at(t + 0.5));  // the robot goes silent for 0.3 s, then is back
  rig.run_until(t + 0.45);
  REQUIRE(rig.motion->selection().current == MotionType::damping);
  CHECK(rig.motion->node<m::MotionSelector>().user_control_latched());
  // States are back, the behaviour still says UserControl: the robot stays damped.
  rig.run_until(t + 2.0);
  CHECK(!rig.motion->safety().stale);
  CHECK(rig.motion->selection().current == MotionType::damping);
  // Another request first (stand), then UserControl again: it runs again.
  rig.command(m::command::Stand{});
  rig.run_until(t + 2.1);
  CHECK(!rig.motion->node<m::MotionSelector>().user_control_latched());
  rig.command(m::command::UserControl{});
  rig.run_until(t + 5.0);
  CHECK(rig.motion->selection().current == MotionType::user_control);
}

// ---------------- (f) the velocity guard ----------------

TEST_CASE("the collector clamps velocity targets to the joint's limit", "[motion][rules][guard]") {
  UserRig rig(g1_scripts());
  const double t = enter_user_control(rig);
  rig.run_until(t + 0.1);
  CHECK(rig.motion->report().clamped_joints == 0);
  auto& ctrl = rig.motion->node<UserControl>().adapter.controller();
  ctrl.jvel_des.fill(100.0);
  ctrl.jvel_des[4] = -100.0;
  ctrl.jvel_des[7] = 0.5;  // within every limit
  rig.step();
  CHECK(rig.motion->report().clamped_joints == G1::joint_count - 1);
  for (std::size_t j = 0; j < G1::joint_count; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    const double expected = j == 4 ? -G1::joints[j].velocity : j == 7 ? 0.5 : G1::joints[j].velocity;
    CHECK(rig.motion->command().dq[i] == expected);
    CHECK(rig.robot.last_command().command.dq[i] == expected);
  }
  CHECK(rig.motion->selection().current == MotionType::user_control);  // a clamp is no fault
}

// ---------------- (g) no allocation ----------------

TEST_CASE("MotionController with the user's controller allocates nothing per cycle", "[motion][rules][realtime]") {
  UserRig rig(g1_scripts());
  const double t = enter_user_control(rig);
  const auto before = praxis::test::thread_allocation_count();
  const auto cycles_before = rig.motion->cycles();
  rig.run_until(t + 6.0);
  rig.command(m::command::Damping{});  // transitions too: damping, dispatching back, user control
  rig.run_until(t + 7.0);
  rig.command(m::command::UserControl{});
  rig.run_until(t + 10.0);
  CHECK(praxis::test::thread_allocation_count() == before);
  CHECK(rig.motion->cycles() - cycles_before >= 4'000);
  CHECK(rig.motion->selection().current == MotionType::user_control);
  CHECK(rig.robot.walking_posts == 0);
}

}  // namespace motion_rules_test
