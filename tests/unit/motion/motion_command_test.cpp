// What the behaviour asks for (motion/motion_command.hpp): the head motion a command carries
// (head_of); a walking path's length and its direction at the robot; scripts handed over as
// objects, which resolve only for the joint count they were made for.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <optional>
#include <variant>

#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"

namespace motion_command_test {

namespace m = praxis::motion;
using m::MotionType;
using praxis::Duration;
using praxis::TimePoint;

TEST_CASE("motion command: the head motion a command carries", "[motion][motion_command]") {
  m::command::Stand stand;
  stand.head = m::HeadMotion::look_at_angles(0.3, -0.1);
  const auto from_stand = m::head_of(stand);
  REQUIRE(from_stand.has_value());
  CHECK(from_stand->kind == m::HeadMotion::Kind::look_at_angles);
  CHECK(from_stand->yaw == 0.3);
  CHECK(from_stand->pitch == -0.1);

  m::command::Walk walk;
  walk.head = m::HeadMotion::look_around();
  REQUIRE(m::head_of(walk).has_value());
  CHECK(m::head_of(walk)->kind == m::HeadMotion::Kind::look_around);

  m::command::VisualKick kick;
  kick.head = m::HeadMotion::look_at({1.0, 2.0, 0.0}, m::ImageRegion::bottom);
  const auto from_kick = m::head_of(kick);
  REQUIRE(from_kick.has_value());
  CHECK(from_kick->kind == m::HeadMotion::Kind::look_at);
  CHECK(from_kick->target.y() == 2.0);
  CHECK(from_kick->image_region_target == m::ImageRegion::bottom);

  // Prepare centres the head with its target at the top of the image.
  const auto from_prepare = m::head_of(m::command::Prepare{});
  REQUIRE(from_prepare.has_value());
  CHECK(from_prepare->kind == m::HeadMotion::Kind::center);
  CHECK(from_prepare->image_region_target == m::ImageRegion::top);

  // The others leave the head to the body motion.
  CHECK_FALSE(m::head_of(m::MotionCommand{}).has_value());
  CHECK_FALSE(m::head_of(m::command::Damping{}).has_value());
  CHECK_FALSE(m::head_of(m::command::StandUp{}).has_value());
  CHECK_FALSE(m::head_of(m::command::Script{}).has_value());
  CHECK_FALSE(m::head_of(m::command::UserControl{}).has_value());
  CHECK_FALSE(m::head_of(m::command::Request{MotionType::stand}).has_value());
}

TEST_CASE("motion command: the kick's fields are praxis::Kick's as a robot receives them", "[motion][motion_command]") {
  m::command::VisualKick kick;
  kick.ball_position = {0.6, -0.1};
  kick.kick_direction = 0.2;
  kick.target_position = {3.0, 1.0};
  kick.robot_theta_to_field = -0.5;
  kick.kick_power = m::KickPower::strong;
  const praxis::Kick& wire = kick;  // one struct from the command to the requests
  CHECK(wire.ball_position.x() == 0.6);
  CHECK(wire.target_position.y() == 1.0);
  CHECK(wire.kick_direction == 0.2);
  CHECK(wire.robot_theta_to_field == -0.5);
  CHECK(wire.kick_power == praxis::KickPower::strong);
  // Defaults: a soft kick at a ball on the robot.
  const praxis::Kick none;
  CHECK(none.kick_power == praxis::KickPower::soft);
  CHECK(none.ball_position.isZero());
}

TEST_CASE("motion command: a path's length and its direction at the robot", "[motion][motion_command]") {
  m::Path path;
  CHECK(path.length() == 0.0);
  CHECK_FALSE(path.direction_at_robot().has_value());
  // A first waypoint on the robot has no direction: the next segment's counts.
  REQUIRE(path.add({0.0, 0.0}));
  REQUIRE(path.add({3.0, 4.0}));
  REQUIRE(path.add({3.0, 6.0}));
  CHECK(path.length() == Approx(5.0 + 2.0));
  const auto d = path.direction_at_robot();
  REQUIRE(d.has_value());
  CHECK(d->x() == Approx(0.6));
  CHECK(d->y() == Approx(0.8));
  // Full at k_max_path_points: the next point is refused and the path unchanged.
  m::Path full;
  for (std::size_t k = 0; k < m::k_max_path_points; ++k) REQUIRE(full.add({static_cast<double>(k + 1), 0.0}));
  CHECK_FALSE(full.add({100.0, 0.0}));
  CHECK(full.size() == m::k_max_path_points);
  CHECK(full.length() == Approx(static_cast<double>(m::k_max_path_points)));
}

namespace {
template <std::size_t N>
praxis::script::Script<N> script_named(const char* name) {
  praxis::script::Script<N> s;
  s.name = name;
  return s;
}
}  // namespace

TEST_CASE("motion command: scripts as objects resolve only for the joint count they were made for",
          "[motion][motion_command]") {
  const auto twelve = script_named<12>("wave");
  const auto twenty_nine = script_named<29>("wave");
  praxis::script::ExecuteScript<12> request;
  request.priority = 3;
  request.count = 1;
  request.scripts[0] = &twelve;
  request.duration = std::chrono::milliseconds(1500);
  request.start = TimePoint{} + std::chrono::seconds(2);

  const auto objects = m::ExecuteScriptObjects::from(request);
  const auto back = objects.resolve<12>();
  REQUIRE(back.has_value());
  CHECK(back->priority == 3);
  CHECK(back->count == 1);
  CHECK(back->scripts[0] == &twelve);
  CHECK(back->duration == Duration(std::chrono::milliseconds(1500)));
  CHECK(back->start == request.start);
  // Made for 12 joints: a 29-joint robot gets nothing rather than a script of the wrong shape.
  CHECK_FALSE(objects.resolve<29>().has_value());

  m::ScriptHandle handle(twenty_nine);
  CHECK(handle.joint_count() == 29);
  CHECK(handle.get<29>() == &twenty_nine);
  CHECK(handle.get<12>() == nullptr);
  CHECK(m::ScriptHandle{}.empty());

  // Nothing to play, too many to play, or an empty handle: nothing resolves.
  m::ExecuteScriptObjects empty;
  CHECK_FALSE(empty.resolve<12>().has_value());
  m::ExecuteScriptObjects too_many = objects;
  too_many.count = praxis::script::k_max_sequence + 1;
  CHECK_FALSE(too_many.resolve<12>().has_value());
  m::ExecuteScriptObjects hole = objects;
  hole.count = 2;  // the second handle was never set
  CHECK_FALSE(hole.resolve<12>().has_value());
}

}  // namespace motion_command_test
