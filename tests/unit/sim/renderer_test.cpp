// Offscreen rendering of the Go2 model, its pictures through PNG files and contact sheets. Tests
// skip (with the reason) where Renderer::available() says no OpenGL context can be made. PNG files,
// contact sheets and cameras on their own are tested in png_test.cpp, contact_sheet_test.cpp and
// camera_test.cpp.
//
// PRAXIS_RENDER_DIR, when set, is a folder where the rendering tests also leave their pictures
// (docs/simulation/ was made that way).
#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/camera.hpp"
#include "praxis/sim/contact_sheet.hpp"
#include "praxis/sim/image.hpp"
#include "praxis/sim/mujoco_plant.hpp"
#include "praxis/sim/png.hpp"
#include "praxis/sim/renderer.hpp"

namespace sim_render_test {

using Go2 = praxis::unitree::Go2;
using Plant = praxis::sim::MujocoPlant<Go2>;
using praxis::sim::Camera;
using praxis::sim::Image;
using praxis::sim::Renderer;
using praxis::sim::Rgb;

inline const std::filesystem::path k_go2_xml = std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml";
constexpr int k_width = 320;
constexpr int k_height = 240;
constexpr double k_kp = 50.0;
constexpr double k_kd = 3.5;

// Looks at the standing Go2 (base near 0.36 m) from the front left, a little from above.
Camera front_view() {
  Camera c;
  c.lookat = praxis::Vector3(0.0, 0.0, 0.25);
  c.distance = 1.4;
  c.azimuth = 135.0;
  c.elevation = -20.0;
  return c;
}

Plant::Command pd(const std::array<double, 12>& q) {
  Plant::Command c;
  for (std::size_t j = 0; j < 12; ++j) c.q[static_cast<Eigen::Index>(j)] = q[j];
  c.kp.setConstant(k_kp);
  c.kd.setConstant(k_kd);
  return c;
}

// The Go2 held in Go2::stand_pose, feet on the floor, settled for 1 s.
void stand(Plant& plant) {
  plant.set_joint_positions(Go2::stand_pose);
  plant.set_base_pose({0.0, 0.0, 0.374});
  plant.write(pd(Go2::stand_pose));
  plant.step(500);
}

// Skips the calling test (returns true) when no OpenGL context can be made here.
bool no_gl() {
  std::string why;
  if (Renderer::available(&why)) return false;
  WARN("SKIPPED: no OpenGL context for offscreen rendering: " << why);
  return true;
}

int abs_diff(Rgb a, Rgb b) { return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b); }

// Pixels of the rectangle [x0, x1) x [y0, y1) that differ between two pictures by more than `tol`
// (sum over R, G, B), as a fraction of the rectangle.
double changed_fraction(const Image& a, const Image& b, int x0, int y0, int x1, int y1, int tol = 30) {
  int changed = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) changed += abs_diff(a.at(x, y), b.at(x, y)) > tol ? 1 : 0;
  }
  return static_cast<double>(changed) / static_cast<double>((x1 - x0) * (y1 - y0));
}

void save(const Image& image, const std::string& name) {
  if (const char* dir = std::getenv("PRAXIS_RENDER_DIR")) {
    praxis::sim::write_png(image, std::filesystem::path(dir) / name);
  }
}

class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("praxis_render_test_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST_CASE("render: the standing Go2 fills the middle of the picture, the floor is grey") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  stand(plant);
  Renderer renderer(plant.world(), k_width, k_height);
  CHECK(renderer.width() == k_width);
  CHECK(renderer.height() == k_height);
  const Image with_robot = renderer.render(plant.world(), front_view());
  save(with_robot, "go2_standing.png");
  REQUIRE(with_robot.width == k_width);
  REQUIRE(with_robot.height == k_height);
  REQUIRE(with_robot.pixels.size() == static_cast<std::size_t>(k_width * k_height * 3));

  // The same view with the robot 50 m away: only the floor and the background remain.
  plant.world().set_base_pose({50.0, 0.0, 0.374}, praxis::Quaternion::Identity());
  const Image empty = renderer.render(plant.world(), front_view());

  // The robot covers most of the centre and none of the corners. The bottom corners are floor.
  const double centre = changed_fraction(with_robot, empty, k_width * 2 / 5, k_height * 2 / 5,
                                         k_width * 3 / 5, k_height * 3 / 5);
  const double corners = changed_fraction(with_robot, empty, 0, k_height - 20, 20, k_height) +
                         changed_fraction(with_robot, empty, k_width - 20, k_height - 20, k_width, k_height);
  INFO("centre changed " << centre << ", bottom corners changed " << corners);
  CHECK(centre > 0.5);
  CHECK(corners < 0.02);

  // The floor (rgba 0.8 0.8 0.8, lit): grey, neither black nor saturated.
  const Rgb floor = empty.at(k_width / 2, k_height - 5);
  INFO("floor " << int(floor.r) << " " << int(floor.g) << " " << int(floor.b));
  CHECK(std::abs(floor.r - floor.g) < 12);
  CHECK(std::abs(floor.g - floor.b) < 12);
  CHECK(floor.r > 60);
  CHECK(floor.r < 250);
}

TEST_CASE("render: rows are top-down (the floor is at the bottom) and equal states give equal pictures") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  stand(plant);
  Renderer renderer(plant.world(), k_width, k_height);
  Camera low = front_view();
  low.elevation = -5.0;  // looking nearly level: the floor below the horizon, the background above
  plant.world().set_base_pose({50.0, 0.0, 0.374}, praxis::Quaternion::Identity());
  const Image level = renderer.render(plant.world(), low);
  const Rgb top = level.at(k_width / 2, 2);
  const Rgb bottom = level.at(k_width / 2, k_height - 3);
  INFO("top " << int(top.r) << " " << int(top.g) << " " << int(top.b) << ", bottom " << int(bottom.r) << " "
              << int(bottom.g) << " " << int(bottom.b));
  CHECK(bottom.r + bottom.g + bottom.b > top.r + top.g + top.b + 60);

  plant.world().set_base_pose({0.0, 0.0, 0.374}, praxis::Quaternion::Identity());
  const Image a = renderer.render(plant.world(), front_view());
  const Image b = renderer.render(plant.world(), front_view());
  CHECK(a == b);
  // A second renderer on the same state draws the same picture.
  Renderer other(plant.world(), k_width, k_height);
  CHECK(other.render(plant.world(), front_view()) == a);
}

TEST_CASE("render: rendering leaves the simulation's course unchanged") {
  if (no_gl()) return;
  Plant watched(k_go2_xml);
  Plant alone(k_go2_xml);
  stand(watched);
  stand(alone);
  Renderer renderer(watched.world(), 64, 48);
  for (int k = 0; k < 5; ++k) {
    (void)renderer.render(watched.world(), front_view());
    watched.step(20);
    alone.step(20);
  }
  for (std::size_t j = 0; j < 12; ++j) CHECK(watched.world().q(j) == alone.world().q(j));
}

TEST_CASE("render: a label is drawn in the top-left corner only") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  stand(plant);
  Renderer renderer(plant.world(), k_width, k_height);
  const Image plain = renderer.render(plant.world(), front_view());
  const Image labelled = renderer.render(plant.world(), front_view(), "t = 1.00 s");
  CHECK(changed_fraction(plain, labelled, 0, 0, k_width / 3, k_height / 6, 0) > 0.01);
  CHECK(changed_fraction(plain, labelled, k_width / 2, k_height / 3, k_width, k_height, 0) == 0.0);
}

TEST_CASE("render: a rendered picture survives the PNG file unchanged") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  stand(plant);
  Renderer renderer(plant.world(), k_width, k_height);
  const Image picture = renderer.render(plant.world(), front_view());
  const TempFile file("go2.png");
  praxis::sim::write_png(picture, file.path());
  CHECK(praxis::sim::read_png(file.path()) == picture);
}

TEST_CASE("render: a renderer refuses another model's world and impossible sizes") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  Plant other(k_go2_xml);
  Renderer renderer(plant.world(), 32, 24);
  CHECK_THROWS_AS(renderer.render(other.world(), front_view()), std::invalid_argument);
  CHECK_THROWS_AS(Renderer(plant.world(), 0, 24), std::invalid_argument);
}

TEST_CASE("render: a contact sheet of the Go2 standing up from lying") {
  if (no_gl()) return;
  Plant plant(k_go2_xml);
  plant.set_joint_positions(Go2::rest_pose);
  plant.set_base_pose({0.0, 0.0, 0.184});
  Renderer renderer(plant.world(), 240, 180);
  std::vector<Image> frames;
  const auto take = [&](double t) {
    const Camera view = praxis::sim::track_base(plant.world(), front_view(), true);
    frames.push_back(renderer.render(plant.world(), view, "t = " + std::to_string(t).substr(0, 4) + " s"));
  };
  plant.write(pd(Go2::rest_pose));
  plant.step(250);
  take(0.5);
  for (int k = 1; k <= 500; ++k) {
    std::array<double, 12> q{};
    for (std::size_t j = 0; j < 12; ++j) q[j] = Go2::rest_pose[j] + (Go2::stand_pose[j] - Go2::rest_pose[j]) * k / 500.0;
    plant.write(pd(q));
    plant.step();
    if (k % 125 == 0) take(0.5 + k * 0.002);
  }
  REQUIRE(frames.size() == 5);
  const Image sheet = praxis::sim::contact_sheet(frames, 3);
  save(sheet, "go2_stand_up_sheet.png");
  CHECK(sheet.width == 3 * 240 + 4 * 4);
  CHECK(sheet.height == 2 * 180 + 3 * 4);
  // Frame 4 (second row, second column) sits where the tiling puts it.
  CHECK(sheet.at(4 + 240 + 4 + 120, 4 + 180 + 4 + 90) == frames[4].at(120, 90));
  // Standing up changes the picture: the first and last frames differ around the robot.
  CHECK(changed_fraction(frames.front(), frames.back(), 60, 45, 180, 135) > 0.1);
}

}  // namespace sim_render_test
