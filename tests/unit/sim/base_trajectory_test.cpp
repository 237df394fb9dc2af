// BaseTrajectory: heading and tilt from the base's orientation, the sampling grid, the summary
// (upright time, distance, end point, heading), the CSV, and a trajectory of the simulated Go2.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/base_trajectory.hpp"
#include "praxis/sim/mujoco_plant.hpp"
#include "../../support/alloc_counter.hpp"
#include "../../support/scratch_dir.hpp"

namespace base_trajectory_test {

using praxis::Quaternion;
using praxis::Vector3;
using praxis::sim::BaseReading;
using praxis::sim::BaseTrajectory;
using namespace std::chrono_literals;

BaseReading reading(double x, double y, double z, double yaw, double roll = 0.0) {
  BaseReading r;
  r.position = Vector3(x, y, z);
  r.orientation = Quaternion(Eigen::AngleAxisd(yaw, Vector3::UnitZ())) * Quaternion(Eigen::AngleAxisd(roll, Vector3::UnitX()));
  return r;
}

TEST_CASE("a sample's heading is the yaw about world z and its tilt the base's z axis from the vertical") {
  const auto level = BaseTrajectory::sample(0.0, reading(1, 2, 3, 0.0));
  CHECK(level.x == 1.0);
  CHECK(level.y == 2.0);
  CHECK(level.z == 3.0);
  CHECK(level.yaw == Approx(0.0).margin(1e-12));
  CHECK(level.tilt == Approx(0.0).margin(1e-6));
  const auto turned = BaseTrajectory::sample(0.0, reading(0, 0, 0, 2.5, 0.3));
  CHECK(turned.yaw == Approx(2.5).margin(1e-12));
  CHECK(turned.tilt == Approx(0.3).margin(1e-9));
  const auto behind = BaseTrajectory::sample(0.0, reading(0, 0, 0, -3.0));
  CHECK(behind.yaw == Approx(-3.0).margin(1e-12));
  // Upside down: tilt pi, whatever the heading.
  CHECK(BaseTrajectory::sample(0.0, reading(0, 0, 0, 1.0, std::numbers::pi)).tilt == Approx(std::numbers::pi));
}

TEST_CASE("samples are taken on a grid of the period, from the first offer, and late offers do not bunch them") {
  BaseTrajectory t(20ms);
  int taken = 0;
  for (int ms = 0; ms <= 100; ms += 2) taken += t.offer(std::chrono::milliseconds(ms), reading(0, 0, 0.3, 0)) ? 1 : 0;
  CHECK(taken == 6);
  REQUIRE(t.samples().size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(t.samples()[i].time == Approx(0.02 * static_cast<double>(i)));
  CHECK_FALSE(t.due(101ms));
  CHECK(t.due(120ms));
  // A gap (offers 150 ms late) gives one sample, and the grid starts again from it.
  CHECK(t.offer(270ms, reading(0, 0, 0.3, 0)));
  CHECK_FALSE(t.offer(280ms, reading(0, 0, 0.3, 0)));
  CHECK(t.offer(290ms, reading(0, 0, 0.3, 0)));
  CHECK_THROWS_WITH(BaseTrajectory(0ms), Catch::Contains("period must be positive"));
}

TEST_CASE("the summary: upright time, path length, displacement, end point, heading and the turn unwrapped") {
  BaseTrajectory t(20ms);
  // 2 s forward along x at 0.5 m/s with a sideways wiggle, turning at 0.5 rad/s from 2.9 rad across
  // +-pi, tilting past the upright limit at 1.5 s.
  for (int k = 0; k <= 100; ++k) {
    const double s = 0.02 * k;
    const double yaw = std::remainder(2.9 + 0.5 * s, 2.0 * std::numbers::pi);
    const double roll = s < 1.5 ? 0.1 : 1.2;
    t.offer(std::chrono::milliseconds(20 * k), reading(0.5 * s, k % 2 == 0 ? 0.0 : 0.01, 0.7, yaw, roll));
  }
  const auto sum = t.summary();
  CHECK(sum.duration == Approx(2.0));
  CHECK(sum.upright_seconds == Approx(1.5).margin(1e-9));
  CHECK(sum.displacement == Approx(1.0));
  // Every 20 ms step goes 0.01 m along x and 0.01 m across.
  CHECK(sum.distance == Approx(100 * std::sqrt(2.0) * 0.01));
  CHECK(sum.end.x == Approx(1.0));
  CHECK(sum.end.z == Approx(0.7));
  CHECK(sum.end.yaw == Approx(std::remainder(3.9, 2.0 * std::numbers::pi)));
  CHECK(sum.turned == Approx(1.0));
  CHECK(sum.finite);

  CHECK(praxis::sim::describe(sum) ==
        "2.00 s, upright 1.50 s, travelled 1.414 m (1.000 m from the start), end point (1.000, 0.000, 0.700) m, "
        "heading -136.5 deg (turned +57.3 deg)");

  BaseTrajectory empty;
  CHECK(empty.summary().duration == 0.0);
  CHECK(empty.summary().distance == 0.0);

  BaseTrajectory broken(20ms);
  broken.offer(0ms, reading(0, 0, 0.3, 0));
  broken.offer(20ms, reading(std::nan(""), 0, 0.3, 0));
  CHECK_FALSE(broken.summary().finite);
  CHECK_THAT(praxis::sim::describe(broken.summary()), Catch::EndsWith(", NOT FINITE"));
}

TEST_CASE("the CSV has a row per sample with every bit of each value, and a failed write leaves no file") {
  praxis::test::ScratchDir dir("base_trajectory");
  BaseTrajectory t(20ms);
  t.offer(0ms, reading(0.1, -0.2, 0.3, 0.4, 0.05));
  t.offer(20ms, reading(1.0 / 3.0, 2.0 / 7.0, 0.31, -1.0, 0.0));
  const auto file = dir.path() / "base_trajectory.csv";
  t.write_csv(file);
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  CHECK(header == "time,x,y,z,yaw,tilt");
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::stringstream cells(line);
    std::vector<double> row;
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  REQUIRE(rows.size() == 2);
  const auto& b = t.samples()[1];
  CHECK(rows[1] == std::vector<double>{0.02, b.x, b.y, b.z, b.yaw, b.tilt});
  CHECK_FALSE(std::filesystem::exists(file.string() + ".partial"));

  const auto missing = dir.path() / "no_such_folder" / "base_trajectory.csv";
  CHECK_THROWS_WITH(t.write_csv(missing), Catch::Contains(missing.string()) && Catch::Contains("cannot write"));
  CHECK_FALSE(std::filesystem::exists(missing.parent_path()));
}

TEST_CASE("offering allocates nothing once reserve() made room for the run") {
  BaseTrajectory t(20ms);
  t.reserve(10s);
  const auto r = reading(0, 0, 0.3, 0);
  const praxis::test::AllocationScope scope;
  for (int ms = 0; ms <= 10000; ms += 2) t.offer(std::chrono::milliseconds(ms), r);
  CHECK(scope.allocations() == 0);
  CHECK(t.samples().size() == 501);
}

TEST_CASE("the Go2 with its motors off: the trajectory follows the simulated base down to the floor") {
  praxis::sim::MujocoPlant<praxis::unitree::Go2> plant(std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml");
  BaseTrajectory t(20ms);
  const double start_z = plant.base().position.z();
  for (praxis::Duration elapsed{}; elapsed <= 1s; elapsed = plant.time() - praxis::TimePoint{}) {  // the base read when due
    if (t.due(elapsed)) t.offer(elapsed, plant.base());
    plant.step(1);
  }
  REQUIRE(t.samples().size() == 51);
  const auto sum = t.summary();
  CHECK(sum.finite);
  CHECK(sum.duration == Approx(1.0));
  CHECK(sum.start.z == start_z);
  CHECK(sum.end.z < start_z - 0.1);  // fell onto its folded legs
  CHECK(sum.upright_seconds == Approx(1.0));  // it lands on its belly, not on its side
  CHECK(sum.displacement < 0.05);
}

}  // namespace base_trajectory_test
