// The motion pipeline on mock hardware: dispatching, scripts, walking (by the robot or by a node
// of the user's), head motion, the collector's guards, and zero allocations per cycle.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <vector>

#include "../support/alloc_counter.hpp"
#include "../support/scratch_dir.hpp"
#include "motion_rig.hpp"
#include "praxis/graph/introspection.hpp"

namespace motion_pipeline_test {

using namespace motion_test;

namespace {

// A walking node of the user's: steps the legs in place, faster with more requested speed.
struct StepInPlace {
  static constexpr std::string_view name = "step_in_place";
  using inputs = praxis::ports<m::MotionSelectionPort, m::LocomotionRequestPort, praxis::CyclePort>;
  using outputs = praxis::ports<m::BodyCommandPort<MotionType::walk, 12>, m::SafeExitPort<MotionType::walk>>;
  double phase = 0.0;
  int cycles_walking = 0;
  void cycle(const m::MotionSelection& sel, const praxis::LocomotionRequest& req, const praxis::CycleInfo&,
             praxis::JointCommand<12>& cmd, bool& safe) {
    safe = true;
    if (sel.current != MotionType::walk) return;
    ++cycles_walking;
    phase += 0.002 * (1.0 + req.vx);
    for (int j = 0; j < 12; ++j) {
      cmd.q[j] = Go2::stand_pose[static_cast<std::size_t>(j)] + (j % 3 == 1 ? 0.1 * std::sin(6.0 * phase) : 0.0);
    }
    cmd.kp.setConstant(40.0);
    cmd.kd.setConstant(1.0);
    cmd.mode.fill(praxis::JointMode::position);
  }
};

static_assert(praxis::HasLocomotion<WalkingMock> && !praxis::HasModes<WalkingMock>);
static_assert(!praxis::HasLocomotion<praxis::mock::MockRobot<Go2>>);
static_assert(praxis::HasModes<ModalMock> && praxis::HasLocomotion<ModalMock> && praxis::ReportsStatus<ModalMock>);

}  // namespace

TEST_CASE("the pipeline sorts selection before execution before sending", "[motion][pipeline]") {
  using MC = praxis::control::MotionController<praxis::mock::MockRobot<Go2>, praxis::control::CommandInput, StepInPlace>;
  using Graph = std::remove_cvref_t<decltype(std::declval<const MC&>().graph())>;
  const auto g = praxis::describe<Graph>();
  auto pos = [&](std::string_view n) {
    return static_cast<std::size_t>(std::find(g.nodes.begin(), g.nodes.end(), n) - g.nodes.begin());
  };
  CHECK(pos("motion_selector") < pos("dispatching"));
  CHECK(pos("motion_selector") < pos("step_in_place"));
  CHECK(pos("dispatching") < pos("motor_commands_collector"));
  CHECK(pos("step_in_place") < pos("motor_commands_collector"));
  CHECK(pos("motor_commands_collector") < pos("commands_sender"));
  CHECK(pos("commands_sender") == g.nodes.size() - 1);
}

TEST_CASE("dispatching reaches the target pose in the configured time", "[motion][pipeline]") {
  auto o = Rig<praxis::mock::MockRobot<Go2>, StepInPlace>::quiet();
  o.dispatch_duration = 1500ms;
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts(), o);
  rig.run_until(0.2);  // damping first
  CHECK(rig.motion->selection().current == MotionType::damping);
  rig.command(m::command::Stand{});
  rig.run_until(0.202);
  REQUIRE(rig.motion->selection().current == MotionType::dispatching);
  CHECK(rig.motion->selection().dispatching_to == MotionType::stand);
  // Halfway through, the target is halfway (cosine shape: exactly half at half time).
  rig.run_until(0.202 + 0.75);
  const double start = Go2::rest_pose[2], goal = Go2::stand_pose[2];
  CHECK(rig.motion->command().q[2] == Approx(start + 0.5 * (goal - start)).margin(0.01));
  CHECK(rig.motion->selection().current == MotionType::dispatching);
  rig.run_until(0.202 + 1.5);
  CHECK(rig.motion->command().q[2] == Approx(goal).margin(1e-6));
  rig.run_until(0.202 + 1.51);
  CHECK(rig.motion->selection().current == MotionType::stand);
  rig.run_until(3.0);
  for (std::size_t j = 0; j < 12; ++j) {
    CHECK(rig.robot.q()[static_cast<Eigen::Index>(j)] == Approx(Go2::stand_pose[j]).margin(2e-3));
  }
}

TEST_CASE("a script command plays the script through the pipeline", "[motion][pipeline][script]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  REQUIRE(rig.motion->selection().current == MotionType::stand);
  m::command::Script sit;
  sit.request.names = {"sit"};
  sit.request.count = 1;
  sit.id = 1;
  rig.command(sit);
  rig.run_until(2.6);  // dispatch (1 s) to the script's start, then it starts
  REQUIRE(rig.motion->selection().current == MotionType::script);
  CHECK(!rig.motion->safe_exits()[MotionType::script]);
  rig.run_until(5.0);  // sit takes 1.8 s
  CHECK(rig.motion->safe_exits()[MotionType::script]);
  CHECK(rig.robot.q()[7] == Approx(2.1).margin(0.01));  // RR_thigh folded
  CHECK(rig.robot.q()[1] == Approx(0.3).margin(0.01));  // FR_thigh
}

TEST_CASE("an unsafe motion is not left until it is done", "[motion][pipeline][script]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  m::command::Script wave;
  wave.request.names = {"wave"};
  wave.request.count = 1;
  wave.id = 7;
  rig.command(wave);
  rig.run_until(1.2);
  REQUIRE(rig.motion->selection().current == MotionType::script);
  rig.command(m::command::Stand{});
  rig.run_until(2.0);
  CHECK(rig.motion->selection().current == MotionType::script);  // wave runs 3.6 s
  rig.run_until(5.5);
  CHECK(rig.motion->selection().current != MotionType::script);
  rig.command(m::command::Damping{});
  rig.run_until(5.502);
  CHECK(rig.motion->selection().current == MotionType::damping);  // damping is always immediate
}

TEST_CASE("a robot without locomotion walks with the user's node", "[motion][pipeline][walk]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.4, -0.1};
  walk.angular_velocity = 0.2;
  rig.command(walk);
  rig.run_until(1.6);
  CHECK(rig.motion->selection().current == MotionType::walk);  // stand -> walk directly
  CHECK(rig.motion->locomotion().active);
  CHECK(rig.motion->locomotion().vx == 0.4);
  CHECK(rig.motion->locomotion().vy == -0.1);
  CHECK(rig.motion->node<StepInPlace>().cycles_walking > 0);
  rig.command(m::command::Stand{});
  rig.run_until(1.7);
  CHECK(rig.motion->selection().current == MotionType::stand);
  CHECK(!rig.motion->locomotion().active);
}

TEST_CASE("a robot that walks by itself gets the request, not joint commands", "[motion][pipeline][walk]") {
  Rig<WalkingMock> rig(g1_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  REQUIRE(rig.motion->selection().current == MotionType::stand);
  const auto joint_commands = rig.robot.commands_received();
  m::command::Walk walk;
  walk.path.add({1.0, 0.0});
  walk.speed = 0.5;
  rig.command(walk);
  rig.run_until(2.0);
  CHECK(rig.robot.walking_posts == 250);  // one walking request per cycle
  CHECK(rig.robot.last.locomotion.vx == Approx(0.5));
  CHECK(rig.robot.commands_received() == joint_commands);  // no joint commands while walking
  rig.command(m::command::Stand{});
  rig.run_until(2.1);
  CHECK(!rig.robot.last.locomotion.active);  // told to stop
  CHECK(rig.robot.commands_received() > joint_commands);
}

TEST_CASE("walk paths slow down near the target and turn toward it", "[motion][walk]") {
  m::command::Walk w;
  w.path.add({0.25, 0.0});
  w.speed = 1.0;
  const auto r = m::locomotion_from(w, m::WalkOptions{});
  CHECK(r.vx == Approx(0.5));  // 0.25 m left, deceleration distance 0.5 m
  CHECK(r.wz == Approx(0.0));
  w.path.points[0] = {0.0, 2.0};
  const auto left = m::locomotion_from(w, m::WalkOptions{});
  CHECK(left.vy == Approx(1.0));
  CHECK(left.wz == Approx(1.0));  // sin(90 degrees) * max turn rate
}

TEST_CASE("the collector never sends NaN and limits targets", "[motion][pipeline][guard]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  // A far target: clamped to the joint limit and approached at the target rate limit.
  rig.motion->node<m::StandMotion<Go2>>().pose[1] = 10.0;
  rig.run_until(1.502);
  CHECK(rig.motion->report().clamped_joints >= 1);
  CHECK(rig.motion->report().rate_limited_joints >= 1);
  CHECK(rig.motion->command().q[1] <= Go2::joints[1].upper);
  CHECK(rig.motion->command().q[1] == Approx(Go2::stand_pose[1] + 10.0 * 0.002).margin(1e-6));
  rig.motion->node<m::StandMotion<Go2>>().pose[1] = std::numeric_limits<double>::quiet_NaN();
  rig.run_until(1.504);
  CHECK(rig.motion->report().fallback_to_damping);
  CHECK(rig.motion->command().kp.maxCoeff() == 0.0);
  CHECK(rig.robot.non_finite_commands() == 0);
}

TEST_CASE("a fall switches to fall protection immediately", "[motion][pipeline]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  rig.robot.tilt(1.3, 0.0, at(1.6));
  rig.run_until(1.65);
  CHECK(rig.motion->selection().current == MotionType::fall_protection);
  CHECK(rig.motion->command().kp.maxCoeff() == 0.0);
}

TEST_CASE("the full motion pipeline allocates nothing per cycle", "[motion][pipeline][realtime]") {
  Rig<praxis::mock::MockRobot<Go2>, StepInPlace> rig(go2_scripts());
  rig.command(m::command::Stand{});
  rig.run_until(1.5);
  m::command::Script wave;
  wave.request.names = {"sit", "wave"};
  wave.request.count = 2;
  wave.id = 3;
  // The control thread's own allocations: the reporter thread (transitions) is not the cycle.
  const auto before = praxis::test::thread_allocation_count();
  rig.command(wave);
  rig.run_until(8.0);
  m::command::WalkWithVelocity walk;
  walk.velocity = {0.2, 0.0};
  rig.command(walk);
  rig.run_until(12.0);
  rig.command(m::command::Damping{});
  rig.run_until(13.0);
  CHECK(praxis::test::thread_allocation_count() == before);
  CHECK(rig.motion->selection().current == MotionType::damping);
}

namespace {
// A small humanoid with a head, for the head motion (the Unitree models have none).
struct HeadBot {
  static constexpr std::string_view name = "headbot";
  static constexpr std::size_t joint_count = 4;
  static constexpr std::array<praxis::JointSpec, 4> joints{{
      {"head_yaw", -1.5, 1.5, 5, 10},
      {"head_pitch", -0.7, 0.7, 5, 10},
      {"left_knee", 0.0, 2.0, 50, 20},
      {"right_knee", 0.0, 2.0, 50, 20},
  }};
  static constexpr std::array<double, 4> stand_pose{0, 0, 0.4, 0.4};
  static constexpr std::array<double, 4> rest_pose{0, 0, 1.5, 1.5};
  static constexpr std::array<double, 4> default_kp{10, 10, 80, 80};
  static constexpr std::array<double, 4> default_kd{1, 1, 2, 2};
  static constexpr std::size_t head_yaw_joint = 0;
  static constexpr std::size_t head_pitch_joint = 1;
};
struct HeadBotWalker : praxis::mock::MockRobot<HeadBot> {
  static constexpr praxis::Capabilities capabilities{.locomotion = true};
  void post(const praxis::RobotRequests&) {}
};
}  // namespace

TEST_CASE("head motion: targets, per-axis rate limit, yaw-dependent pitch limits", "[motion][head]") {
  static_assert(m::ModelWithHead<HeadBot>);
  const praxis::test::ScratchDir dir("headbot_scripts");
  Rig<HeadBotWalker> rig(dir.path().c_str());
  m::command::Stand stand;
  stand.head.kind = m::HeadMotion::Kind::look_at_angles;
  stand.head.yaw = 1.0;
  stand.head.pitch = 0.6;
  rig.command(stand);
  rig.run_until(1.1);  // dispatching to stand (1 s)
  REQUIRE(rig.motion->selection().current == MotionType::stand);
  const double yaw_before = rig.motion->head().yaw;
  rig.run_until(1.2);
  // Rate limited to 3 rad/s: 0.1 s later the yaw moved by exactly 0.3 rad.
  CHECK(rig.motion->head().active);
  CHECK(rig.motion->head().yaw - yaw_before == Approx(0.3));
  CHECK(rig.motion->command().q[0] == Approx(rig.motion->head().yaw));
  rig.run_until(2.5);
  CHECK(rig.motion->head().yaw == Approx(1.0));
  // At yaw 1.0 the pitch band is narrower than at 0: 0.6 is cut to the blended upper limit.
  const auto [lo, hi] = m::pitch_limits(1.0, m::HeadOptions{});
  CHECK(hi < 0.6);
  CHECK(rig.motion->head().pitch == Approx(hi));
  CHECK(m::pitch_limits(0.0, m::HeadOptions{}).second == Approx(0.6));

  stand.head = m::HeadMotion::look_at({1.0, 1.0, 0.5});  // 45 degrees left, at camera height
  rig.command(stand);
  rig.run_until(3.5);
  CHECK(rig.motion->head().yaw == Approx(std::atan2(1.0, 1.0)));
  CHECK(rig.motion->head().pitch == Approx(0.0).margin(1e-9));

  stand.head.kind = m::HeadMotion::Kind::unstiff;
  rig.command(stand);
  rig.run_until(3.6);
  CHECK(rig.motion->command().kp[0] == 0.0);
  CHECK(rig.motion->command().kp[2] == 80.0);  // the body keeps standing
}

TEST_CASE("on a robot with its own modes, prepare and stand-up are mode requests", "[motion][pipeline][modes]") {
  Rig<ModalMock> rig(g1_scripts());
  using R = praxis::RobotMode;
  rig.run_until(0.1);
  CHECK(rig.robot.posts.empty());  // nothing asked before the behaviour's first command
  const auto damping_commands = rig.robot.commands_received();
  CHECK(damping_commands > 0);  // damping also holds the joints back

  rig.command(m::command::Prepare{});
  rig.run_until(0.3);
  CHECK(rig.motion->selection().current == MotionType::prepare);  // directly: no dispatching
  CHECK(rig.robot.mode_changes() == std::vector<R>{R::prepare});
  CHECK(rig.robot.commands_received() == damping_commands);  // no joint commands in prepare

  rig.command(m::command::StandUp{});
  rig.run_until(0.5);
  CHECK(rig.motion->selection().current == MotionType::stand_up);
  CHECK(rig.robot.posts.back().mode == R::prepare);  // the robot gets up from its prepare mode
  CHECK(rig.robot.posts.back().get_up == 1);
  CHECK(rig.motion->selection().stand_up_attempts == 1);

  rig.command(m::command::Stand{});
  const auto before_stand = rig.robot.posts.size();
  rig.run_until(0.7);
  CHECK(rig.robot.posts.back().mode == R::locomotion);
  const auto standing = std::count_if(rig.robot.posts.begin() + static_cast<std::ptrdiff_t>(before_stand),
                                      rig.robot.posts.end(), [](const praxis::RobotRequests& r) {
                                        return r.mode == R::locomotion && r.locomotion.active && r.locomotion.vx == 0.0;
                                      });
  CHECK(standing == 100);  // standing: zero velocity every cycle

  m::command::WalkWithVelocity walk;
  walk.velocity = {0.5, 0.0};
  rig.command(walk);
  rig.run_until(0.9);
  CHECK(rig.robot.posts.back().locomotion.vx == 0.5);
  CHECK(rig.robot.mode_changes() == std::vector<R>{R::prepare, R::locomotion});  // walking is still locomotion
  rig.command(m::command::Damping{});
  rig.run_until(1.0);
  CHECK(rig.robot.mode_changes() == std::vector<R>{R::prepare, R::locomotion, R::damping});
  CHECK(rig.robot.posts.back().get_up == 1);  // the counter only moves on a stand-up entry
}

}  // namespace motion_pipeline_test
