// Cameras (sim/camera.hpp): track_base moves a view's look-at point to the floating base and keeps
// the rest of the view.

#include <catch2/catch.hpp>

#include <filesystem>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/camera.hpp"
#include "praxis/sim/mujoco_plant.hpp"

namespace {
namespace camera_test {

using Plant = praxis::sim::MujocoPlant<praxis::unitree::Go2>;
using praxis::sim::Camera;

inline const std::filesystem::path k_go2_xml = std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml";

Camera front_view() {
  Camera c;
  c.lookat = praxis::Vector3(0.0, 0.0, 0.25);
  c.distance = 1.4;
  c.azimuth = 135.0;
  c.elevation = -20.0;
  return c;
}

TEST_CASE("camera: track_base looks at the floating base", "[sim][camera]") {
  Plant plant(k_go2_xml);
  plant.world().set_base_pose({1.0, -2.0, 0.3}, praxis::Quaternion::Identity());
  const Camera moved = praxis::sim::track_base(plant.world(), front_view());
  CHECK(moved.lookat.x() == Approx(1.0));
  CHECK(moved.lookat.y() == Approx(-2.0));
  CHECK(moved.lookat.z() == Approx(0.3));
  CHECK(moved.distance == front_view().distance);
  CHECK(moved.azimuth == front_view().azimuth);
  const Camera level = praxis::sim::track_base(plant.world(), front_view(), true);
  CHECK(level.lookat.z() == Approx(front_view().lookat.z()));
}

TEST_CASE("camera: keep_height follows the base in x and y only and the view's angles stay", "[sim][camera]") {
  Plant plant(k_go2_xml);
  // A turned base: where the camera looks depends on the base's position, not its orientation.
  const praxis::Quaternion turned(Eigen::AngleAxisd(1.0, praxis::Vector3::UnitZ()));
  plant.world().set_base_pose({-3.0, 0.5, 0.9}, turned);
  Camera view;
  view.lookat = praxis::Vector3(7.0, 7.0, 0.42);
  view.distance = 2.5;
  view.azimuth = 10.0;
  view.elevation = -45.0;
  const Camera level = praxis::sim::track_base(plant.world(), view, true);
  CHECK(level.lookat.x() == -3.0);
  CHECK(level.lookat.y() == 0.5);
  CHECK(level.lookat.z() == 0.42);
  CHECK(level.distance == 2.5);
  CHECK(level.azimuth == 10.0);
  CHECK(level.elevation == -45.0);
  const Camera free = praxis::sim::track_base(plant.world(), view);
  CHECK(free.lookat.z() == 0.9);
  CHECK(free.elevation == -45.0);
}

TEST_CASE("camera: after a step the view looks where the base is now", "[sim][camera]") {
  Plant plant(k_go2_xml);
  plant.world().set_base_pose({0.0, 0.0, 1.5}, praxis::Quaternion::Identity());
  plant.step(50);  // falling: each step moves the base
  const double before = plant.world().base().position.z();
  plant.step();
  const double now = plant.world().base().position.z();
  REQUIRE(now < before);
  const Camera view = praxis::sim::track_base(plant.world(), front_view());
  CHECK(view.lookat.z() == now);
}

}  // namespace camera_test
}  // namespace
