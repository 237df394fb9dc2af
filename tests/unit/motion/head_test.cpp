// The head motion node driven directly: the searching modes, looking left and right of a target,
// image regions, and the head a command carries.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include "../../support/alloc_counter.hpp"
#include "praxis/motion/head.hpp"

namespace head_test {

namespace m = praxis::motion;
using m::HeadMotion;
using m::MotionType;

namespace {
constexpr double k_pi = std::numbers::pi;

struct HeadBot {
  static constexpr std::string_view name = "headbot";
  static constexpr std::size_t joint_count = 3;
  static constexpr std::array<praxis::JointSpec, 3> joints{{
      {"head_yaw", -1.5, 1.5, 5, 10},
      {"head_pitch", -0.7, 0.7, 5, 10},
      {"knee", 0.0, 2.0, 50, 20},
  }};
  static constexpr std::array<double, 3> stand_pose{0, 0, 0.4};
  static constexpr std::array<double, 3> rest_pose{0, 0, 1.5};
  static constexpr std::array<double, 3> default_kp{10, 10, 80};
  static constexpr std::array<double, 3> default_kd{1, 1, 2};
  static constexpr std::size_t head_yaw_joint = 0;
  static constexpr std::size_t head_pitch_joint = 1;
};

// Runs the node at 500 Hz with the head where the node last put it.
struct Rig {
  m::HeadMotionNode<HeadBot> node;
  praxis::RobotState<3> state;
  praxis::CycleInfo info;
  m::MotionSelection selection;
  m::HeadCommand out;
  double t = 0.0;

  Rig() { selection.current = MotionType::stand; }
  const m::HeadCommand& cycle(const m::MotionCommand& c) {
    info.now = praxis::TimePoint{} + praxis::from_seconds(t);
    node.cycle(selection, c, state, info, out);
    if (out.active) {  // the head follows its command exactly
      state.q[0] = out.yaw;
      state.q[1] = out.pitch;
    }
    ++info.cycle;
    return out;
  }
  // Runs until time `until` (s), calling `each` after every cycle.
  template <class F>
  void run(const m::MotionCommand& c, double until, F&& each) {
    while (t <= until + 1e-9) {
      cycle(c);
      each(t, out);
      t += 0.002;
    }
  }
  void run(const m::MotionCommand& c, double until) {
    run(c, until, [](double, const m::HeadCommand&) {});
  }
};

m::command::Stand stand_with(const HeadMotion& h) {
  m::command::Stand s;
  s.head = h;
  return s;
}
}  // namespace

TEST_CASE("look around sweeps the yaw between its limits over time", "[motion][head]") {
  Rig rig;
  const auto sweep = rig.node.options.look_around;
  const double period = praxis::to_seconds(sweep.period);
  double lowest = 0.0, highest = 0.0, fastest = 0.0, last = 0.0;
  rig.run(stand_with(HeadMotion::look_around()), 2.0 * period, [&](double, const m::HeadCommand& h) {
    REQUIRE(h.active);
    lowest = std::min(lowest, h.yaw);
    highest = std::max(highest, h.yaw);
    fastest = std::max(fastest, std::abs(h.yaw - last));
    last = h.yaw;
  });
  CHECK(highest == Approx(sweep.yaw_amplitude).epsilon(1e-3));
  CHECK(lowest == Approx(-sweep.yaw_amplitude).epsilon(1e-3));
  CHECK(fastest <= rig.node.options.max_velocity * 0.002 + 1e-12);
  // Left first, a quarter period in; right at three quarters; the pitch of the sweep throughout.
  rig = Rig{};
  rig.run(stand_with(HeadMotion::look_around()), period / 4);
  CHECK(rig.out.yaw == Approx(sweep.yaw_amplitude).epsilon(1e-3));
  CHECK(rig.out.pitch == Approx(sweep.pitch));
  rig.run(stand_with(HeadMotion::look_around()), 3 * period / 4);
  CHECK(rig.out.yaw == Approx(-sweep.yaw_amplitude).epsilon(1e-3));
  CHECK(rig.out.kp == rig.node.options.kp);
}

TEST_CASE("the sweep follows the cycle's time and starts over with the mode", "[motion][head]") {
  Rig a, b;
  const auto command = stand_with(HeadMotion::look_around());
  // Same times, same inputs: the same head, even with different cycle counts.
  b.info.cycle = 12345;
  a.run(command, 1.3);
  b.run(command, 1.3);
  CHECK(a.out.yaw == b.out.yaw);
  CHECK(a.out.pitch == b.out.pitch);
  // After another mode, the sweep begins again from its start (straight ahead, turning left).
  a.run(stand_with(HeadMotion::zero_angles()), 3.0);
  CHECK(a.out.yaw == Approx(0.0).margin(1e-9));
  const double restart = a.t;
  a.run(command, restart + 0.2);
  const double expected = a.node.options.look_around.yaw_amplitude *
                          std::sin(2.0 * k_pi * 0.2 / praxis::to_seconds(a.node.options.look_around.period));
  CHECK(a.out.yaw == Approx(expected).epsilon(0.02));
  CHECK(a.out.yaw > 0.0);
}

TEST_CASE("searching for a lost ball sweeps wider and looks lower", "[motion][head]") {
  Rig look, search;
  const auto& o = search.node.options;
  REQUIRE(o.search_for_lost_ball.yaw_amplitude > o.look_around.yaw_amplitude);
  REQUIRE(o.search_for_lost_ball.pitch > o.look_around.pitch);
  double look_widest = 0.0, search_widest = 0.0;
  look.run(stand_with(HeadMotion::look_around()), 6.0,
           [&](double, const m::HeadCommand& h) { look_widest = std::max(look_widest, std::abs(h.yaw)); });
  search.run(stand_with(HeadMotion::search_for_lost_ball()), 6.0,
             [&](double, const m::HeadCommand& h) { search_widest = std::max(search_widest, std::abs(h.yaw)); });
  CHECK(search_widest == Approx(o.search_for_lost_ball.yaw_amplitude).epsilon(1e-3));
  CHECK(search_widest > look_widest + 0.3);
  // Half a period in, the yaw is back at 0 and the pitch is the search pitch (lower than looking around).
  Rig half;
  half.run(stand_with(HeadMotion::search_for_lost_ball()), praxis::to_seconds(o.search_for_lost_ball.period) / 2);
  CHECK(half.out.yaw == Approx(0.0).margin(0.01));
  CHECK(half.out.pitch == Approx(o.search_for_lost_ball.pitch));
  // Far to the side, the yaw-dependent band still limits the pitch.
  Rig side;
  side.run(stand_with(HeadMotion::search_for_lost_ball()), praxis::to_seconds(o.search_for_lost_ball.period) / 4);
  CHECK(side.out.pitch == Approx(m::pitch_limits(side.out.yaw, o).second));
  CHECK(side.out.pitch < o.search_for_lost_ball.pitch);
}

TEST_CASE("look left and right of a target alternates around it", "[motion][head]") {
  Rig rig;
  const auto& o = rig.node.options;
  const double period = praxis::to_seconds(o.look_left_and_right_period);
  const Eigen::Vector3d target{2.0, 2.0, 0.0};  // 45 degrees left, on the ground
  const auto command = stand_with(HeadMotion::look_left_and_right_of(target));
  const double centre = k_pi / 4;
  const double pitch = std::atan2(o.camera_height, std::hypot(2.0, 2.0));
  rig.run(command, 0.45 * period);
  CHECK(rig.out.yaw == Approx(centre + o.look_left_and_right_yaw));
  CHECK(rig.out.pitch == Approx(std::min(pitch, m::pitch_limits(rig.out.yaw, o).second)));
  rig.run(command, 0.95 * period);
  CHECK(rig.out.yaw == Approx(centre - o.look_left_and_right_yaw));
  // The switch back to the left is a move at the head's maximum velocity, not a jump.
  rig.run(command, period + 0.1);
  CHECK(rig.out.yaw == Approx(centre - o.look_left_and_right_yaw + o.max_velocity * 0.1).margin(o.max_velocity * 0.0021));
  rig.run(command, 1.45 * period);
  CHECK(rig.out.yaw == Approx(centre + o.look_left_and_right_yaw));
  // A moving target is followed without starting the alternation over.
  const auto moved = stand_with(HeadMotion::look_left_and_right_of({2.0, 0.0, 0.0}));
  rig.run(moved, 1.95 * period);
  CHECK(rig.out.yaw == Approx(-o.look_left_and_right_yaw));
}

TEST_CASE("image regions shift the pitch of center and look at", "[motion][head]") {
  const auto settle = [](const HeadMotion& h) {
    Rig rig;
    rig.run(stand_with(h), 1.0);
    return rig.out;
  };
  const auto o = m::HeadOptions{};
  CHECK(settle(HeadMotion::center()).pitch == Approx(o.center_pitch));
  CHECK(settle(HeadMotion::center(m::ImageRegion::top)).pitch == Approx(o.center_pitch + o.image_region_pitch));
  CHECK(settle(HeadMotion::center(m::ImageRegion::bottom)).pitch == Approx(o.center_pitch - o.image_region_pitch));
  const Eigen::Vector3d ball{3.0, 0.0, 0.0};
  const double at_ball = std::atan2(o.camera_height, 3.0);
  CHECK(settle(HeadMotion::look_at(ball)).pitch == Approx(at_ball));
  CHECK(settle(HeadMotion::look_at(ball, m::ImageRegion::top)).pitch == Approx(at_ball + o.image_region_pitch));
  CHECK(settle(HeadMotion::look_at(ball, m::ImageRegion::bottom)).pitch == Approx(at_ball - o.image_region_pitch));
  CHECK(settle(HeadMotion::look_at(ball)).yaw == Approx(0.0).margin(1e-12));
}

TEST_CASE("the head a command carries", "[motion][head]") {
  const auto prepare = m::head_of(m::command::Prepare{});
  REQUIRE(prepare);
  CHECK(prepare->kind == HeadMotion::Kind::center);
  CHECK(prepare->image_region_target == m::ImageRegion::top);
  CHECK(!m::head_of(m::command::Damping{}));
  CHECK(!m::head_of(m::command::StandUp{}));
  CHECK(!m::head_of(m::command::Script{}));
  m::command::Walk walk;
  walk.head = HeadMotion::search_for_lost_ball();
  CHECK(m::head_of(walk)->kind == HeadMotion::Kind::search_for_lost_ball);
  m::command::VisualKick kick;
  kick.head = HeadMotion::look_at({1.0, 0.5, 0.0}, m::ImageRegion::bottom);
  CHECK(m::head_of(kick)->target.y() == 0.5);
  CHECK(m::head_of(kick)->image_region_target == m::ImageRegion::bottom);
}

TEST_CASE("the head is left to the body outside stand, walk and kick", "[motion][head]") {
  Rig rig;
  rig.selection.current = MotionType::script;
  rig.state.q[0] = 0.7;
  rig.run(stand_with(HeadMotion::look_around()), 0.5);
  CHECK(!rig.out.active);
  // Taking over, the head starts from where it is: one cycle's move from 0.7 towards the sweep's 0.
  rig.selection.current = MotionType::stand;
  rig.cycle(stand_with(HeadMotion::look_around()));
  CHECK(rig.out.active);
  CHECK(rig.out.yaw == Approx(0.7 - rig.node.options.max_velocity * 0.002));
}

TEST_CASE("the head modes allocate nothing", "[motion][head][realtime]") {
  Rig rig;
  const std::array<m::MotionCommand, 5> commands{
      stand_with(HeadMotion::look_around()), stand_with(HeadMotion::search_for_lost_ball()),
      stand_with(HeadMotion::look_left_and_right_of({1.0, -1.0, 0.0})),
      stand_with(HeadMotion::look_at({2.0, 0.3, 0.0}, m::ImageRegion::top)), stand_with(HeadMotion::unstiff())};
  praxis::test::AllocationScope scope;
  double moved = 0.0;
  for (const auto& c : commands) {
    const double before = rig.out.yaw;
    rig.run(c, rig.t + 2.0);
    moved += std::abs(rig.out.yaw - before);
  }
  CHECK(scope.allocations() == 0);
  CHECK(moved > 0.5);  // the loop really moved the head
}

}  // namespace head_test
