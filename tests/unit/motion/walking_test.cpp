// The walking step computation: its cases (docs/motion.md), the orientation modes and path length.

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <utility>
#include <variant>

#include "praxis/motion/walking.hpp"

namespace walking_test {

namespace m = praxis::motion;
using m::WalkOptions;

namespace {
constexpr double k_pi = std::numbers::pi;

m::command::Walk walk_to(std::initializer_list<m::Vector2> points, double speed = 1.0) {
  m::command::Walk w;
  for (const auto& p : points) REQUIRE(w.path.add(p));
  w.speed = speed;
  return w;
}
}  // namespace

TEST_CASE("WalkWithVelocity passes straight through", "[motion][walking]") {
  m::command::WalkWithVelocity v;
  v.velocity = {0.3, -0.2};
  v.angular_velocity = 0.4;
  const auto r = m::locomotion_from(v, WalkOptions{});
  CHECK(r.active);
  CHECK(r.vx == 0.3);
  CHECK(r.vy == -0.2);
  CHECK(r.wz == 0.4);
}

TEST_CASE("commands other than walking give a zero step", "[motion][walking]") {
  for (const m::MotionCommand& c : {m::MotionCommand{m::command::Stand{}}, m::MotionCommand{m::command::Damping{}},
                                    m::MotionCommand{m::command::VisualKick{}}}) {
    const auto r = m::locomotion_from(c, WalkOptions{});
    CHECK(!r.active);
    CHECK(r.vx == 0.0);
    CHECK(r.vy == 0.0);
    CHECK(r.wz == 0.0);
  }
}

TEST_CASE("alignment importance: 1 inside, cosine blend, 0 beyond", "[motion][walking]") {
  CHECK(m::alignment_importance(0.5, 1.0, 2.0) == 1.0);
  CHECK(m::alignment_importance(1.0, 1.0, 2.0) == 1.0);
  CHECK(m::alignment_importance(2.0, 1.0, 2.0) == Approx(0.5));  // the cosine midpoint
  CHECK(m::alignment_importance(3.0, 1.0, 2.0) == 0.0);
  CHECK(m::alignment_importance(3.5, 1.0, 2.0) == 0.0);
  CHECK(m::alignment_importance(1.5, 1.0, 2.0) == Approx((1.0 + std::cos(k_pi * 0.25)) / 2.0));
  // Monotonic between the two ends.
  double last = 1.0;
  for (double d = 1.0; d <= 3.0; d += 0.05) {
    const double i = m::alignment_importance(d, 1.0, 2.0);
    CHECK(i <= last + 1e-12);
    last = i;
  }
  CHECK(m::alignment_importance(1.01, 1.0, 0.0) == 0.0);  // no blend range: a step
}

TEST_CASE("a direct path slows down within the deceleration distance", "[motion][walking]") {
  const auto r = m::locomotion_from(walk_to({{0.25, 0.0}}), WalkOptions{});
  CHECK(r.active);
  CHECK(r.vx == Approx(0.5));  // 1 m/s × 0.25 / 0.5
  CHECK(r.vy == Approx(0.0).margin(1e-12));
  CHECK(r.wz == Approx(0.0).margin(1e-12));
  const auto far = m::locomotion_from(walk_to({{3.0, 0.0}}, 0.4), WalkOptions{});
  CHECK(far.vx == Approx(0.4));  // full speed beyond the deceleration distance
}

TEST_CASE("the path length is measured along its segments", "[motion][walking]") {
  // Out 0.2 m, then 0.2 m sideways: 0.4 m along the path, though the target is 0.28 m away.
  const auto w = walk_to({{0.2, 0.0}, {0.2, 0.2}});
  CHECK(w.path.length() == Approx(0.4));
  const auto r = m::locomotion_from(w, WalkOptions{});
  CHECK(r.vx == Approx(0.8));  // along the first segment, deceleration 0.4 / 0.5
  CHECK(r.vy == Approx(0.0).margin(1e-12));
  const auto zigzag = walk_to({{0.3, 0.4}, {0.3, 1.4}, {1.3, 1.4}});
  CHECK(zigzag.path.length() == Approx(0.5 + 1.0 + 1.0));
}

TEST_CASE("the path direction is taken where the path leaves the robot", "[motion][walking]") {
  // A first waypoint at the robot adds no length and no direction.
  const auto w = walk_to({{0.0, 0.0}, {0.0, 2.0}});
  CHECK(w.path.length() == Approx(2.0));
  const auto r = m::locomotion_from(w, WalkOptions{});
  CHECK(r.vx == Approx(0.0).margin(1e-12));
  CHECK(r.vy == Approx(1.0));
  CHECK(r.wz == Approx(1.0));  // aligning with the path: sin(90 degrees) × max alignment rate
  // Nothing to walk: no velocity; the target orientation alone decides the turn.
  // Built in place: copying a Walk whose unused path points were never set makes g++ 12 warn
  // (maybe-uninitialized) under -O2.
  m::MotionCommand empty{std::in_place_type<m::command::Walk>};
  std::get<m::command::Walk>(empty).target_orientation = k_pi / 6;
  const auto still = m::locomotion_from(empty, WalkOptions{});
  CHECK(still.active);
  CHECK(still.vx == 0.0);
  CHECK(still.vy == 0.0);
  CHECK(still.wz == Approx(0.5));
}

TEST_CASE("far from the target the heading comes from the orientation mode", "[motion][walking]") {
  auto w = walk_to({{5.0, 0.0}});  // far: importance 0
  w.target_orientation = 1.0;      // must not count yet
  WalkOptions o;
  o.max_alignment_rate = 2.0;
  SECTION("align with path / unspecified: the direction of travel") {
    CHECK(m::walk_heading(w) == Approx(0.0).margin(1e-12));
    CHECK(m::locomotion_from(w, o).wz == Approx(0.0).margin(1e-12));
    w.orientation_mode = m::OrientationMode::align_with_path();
    w.path.points[0] = {5.0, 5.0};
    CHECK(m::walk_heading(w) == Approx(k_pi / 4));
    CHECK(m::locomotion_from(w, o).wz == Approx(2.0 * std::sin(k_pi / 4)));
  }
  SECTION("look towards: the given direction") {
    w.orientation_mode = m::OrientationMode::look_towards(-k_pi / 6);
    CHECK(m::walk_heading(w) == Approx(-k_pi / 6));
    CHECK(m::locomotion_from(w, o).wz == Approx(-1.0));  // 2 × sin(-30 degrees)
  }
  SECTION("look towards within its tolerance: no turn") {
    w.orientation_mode = m::OrientationMode::look_towards(0.1, 0.2);
    CHECK(m::locomotion_from(w, o).wz == 0.0);
    w.orientation_mode.tolerance = 0.05;
    CHECK(m::locomotion_from(w, o).wz == Approx(2.0 * std::sin(0.1)));
  }
  SECTION("look at: the direction to the target") {
    w.orientation_mode = m::OrientationMode::look_at({1.0, 1.0});
    CHECK(m::walk_heading(w) == Approx(k_pi / 4));
    CHECK(m::locomotion_from(w, o).wz == Approx(2.0 * std::sin(k_pi / 4)));
    w.orientation_mode.target = {-1.0, -1.0e-3};  // behind, slightly right: turn right
    CHECK(m::walk_heading(w) == Approx(-k_pi + 1.0e-3));
    CHECK(m::locomotion_from(w, o).wz < 0.0);
    // The walking direction does not change with the orientation mode.
    CHECK(m::locomotion_from(w, o).vx == Approx(1.0));
  }
}

TEST_CASE("near the target the orientation blends to the target orientation", "[motion][walking]") {
  auto w = walk_to({{0.0, 1.0}});  // heading +90 degrees (travel to the left), 1 m to go
  w.target_orientation = 0.0;
  w.distance_to_be_aligned = 0.5;
  WalkOptions o;  // hybrid 1.0: 1 m is the midpoint of the blend from 0.5 m to 1.5 m
  const auto mid = m::locomotion_from(w, o);
  CHECK(mid.wz == Approx(std::sin(k_pi / 4)));  // halfway from 90 to 0 degrees
  w.path.points[0] = {0.0, 0.4};                 // inside the align distance
  CHECK(m::locomotion_from(w, o).wz == Approx(0.0).margin(1e-12));
  w.path.points[0] = {0.0, 2.6};  // beyond the blend
  CHECK(m::locomotion_from(w, o).wz == Approx(1.0));
}

TEST_CASE("angles blend the short way round the circle", "[motion][walking]") {
  CHECK(m::slerp_angle(0.0, 1.0, 0.5) == Approx(0.5));
  // From 170 to -170 degrees is 20 degrees through 180, not 340 through 0.
  const double a = 170.0 * k_pi / 180.0;
  CHECK(std::abs(m::slerp_angle(a, -a, 0.5)) == Approx(k_pi));
  CHECK(m::slerp_angle(a, -a, 0.25) == Approx(175.0 * k_pi / 180.0));
  CHECK(m::slerp_angle(a, -a, 1.0) == Approx(-a));
  CHECK(m::slerp_angle(0.3, 2.0, 0.0) == Approx(0.3));
  // Blending through 180 degrees in a walk: travel behind-left, target behind-right.
  auto w = walk_to({{-2.0, 2.0 * std::tan(10.0 * k_pi / 180.0)}});  // heading 170 degrees
  w.target_orientation = -a;
  w.distance_to_be_aligned = w.path.length();  // importance 1: exactly the target orientation
  CHECK(m::locomotion_from(w, WalkOptions{}).wz == Approx(std::sin(-a)));
}

TEST_CASE("a full path keeps its waypoints and refuses more", "[motion][walking]") {
  m::command::Walk w;
  for (std::size_t k = 0; k < m::k_max_path_points; ++k) {
    CHECK(w.path.add({static_cast<double>(k + 1), 0.0}));
  }
  CHECK(!w.path.add({100.0, 0.0}));
  CHECK(w.path.size() == m::k_max_path_points);
  CHECK(w.path.length() == Approx(static_cast<double>(m::k_max_path_points)));
}

}  // namespace walking_test
