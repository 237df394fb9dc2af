// MujocoWorld (sim/mujoco_world.hpp): finding the robot's joints and motors by name, the model
// conventions it refuses to break, the motor law with its clamp, time, readings, reset and placing
// the robot. Most cases use a small model written here (a floating box with a two-joint arm), so
// every number is known; the Go2 model's own checks use models/go2.xml.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <mujoco/mujoco.h>
#include <unistd.h>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/sim/mujoco_world.hpp"

namespace {
namespace mujoco_world_test {

using praxis::sim::ModelError;
using praxis::sim::MotorTarget;
using praxis::sim::MujocoWorld;

inline const std::filesystem::path k_go2_xml = std::filesystem::path(PRAXIS_MODELS_DIR) / "go2.xml";

constexpr std::array<std::string_view, 12> k_go2_joints = [] {
  std::array<std::string_view, 12> names{};
  for (std::size_t j = 0; j < 12; ++j) names[j] = praxis::unitree::Go2::joints[j].name;
  return names;
}();

// The small model: "shoulder" is found as "shoulder_joint", "elbow" by its own name; the motors are
// declared in the other order than the robot's joints, with asymmetric torque limits.
constexpr std::array<std::string_view, 2> k_arm_joints{"shoulder", "elbow"};
constexpr double k_shoulder_min = -5.0, k_shoulder_max = 4.0;
constexpr double k_elbow_limit = 3.0;

const std::string k_arm_xml = R"(<mujoco model="arm">
  <option timestep="0.001"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="base" pos="0 0 1">
      <freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <site name="imu" pos="0 0 0"/>
      <body name="upper" pos="0.15 0 0">
        <joint name="shoulder_joint" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.5"/>
        <body name="lower" pos="0.2 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.02" mass="0.3"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="elbow_motor" joint="elbow" ctrllimited="true" ctrlrange="-3 3"/>
    <motor name="shoulder_motor" joint="shoulder_joint" ctrllimited="true" ctrlrange="-5 4"/>
  </actuator>
  <sensor>
    <framequat name="imu_quat" objtype="site" objname="imu"/>
    <gyro name="imu_gyro" site="imu"/>
    <accelerometer name="imu_acc" site="imu"/>
    <framepos name="frame_pos" objtype="site" objname="imu"/>
    <framelinvel name="frame_vel" objtype="site" objname="imu"/>
  </sensor>
  KEYFRAME
</mujoco>
)";
const std::string k_keyframe = R"(<keyframe><key qpos="0.5 -0.25 2 1 0 0 0 0.3 -0.2"/></keyframe>)";

// A model file in the temporary directory for the test's lifetime; the process id in its name keeps
// test runs side by side apart.
class TempModel {
 public:
  TempModel(const std::string& name, const std::string& text)
      : path_((std::filesystem::temp_directory_path() /
               ("praxis_world_test_" + std::to_string(::getpid()) + "_" + name + ".xml"))
                  .string()) {
    std::ofstream(path_) << text;
  }
  ~TempModel() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempModel(const TempModel&) = delete;
  TempModel& operator=(const TempModel&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `text` with every occurrence of `from` replaced, to break exactly one convention.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  for (; at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

std::string arm_xml(bool keyframe = false) { return replaced(k_arm_xml, "KEYFRAME", keyframe ? k_keyframe : ""); }

std::string go2_with(const std::string& from, const std::string& to) {
  std::ifstream in(k_go2_xml);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return replaced(std::move(text), from, to);
}

MujocoWorld go2_world(const std::string& path) { return MujocoWorld(path, k_go2_joints); }

MotorTarget pd(double q, double kp, double kd = 0.0) {
  MotorTarget t;
  t.q = q;
  t.kp = kp;
  t.kd = kd;
  t.enabled = true;
  return t;
}

TEST_CASE("world: joints are found by name or name_joint and motors by the joint they drive", "[sim][mujoco_world]") {
  const TempModel arm("arm", arm_xml());
  MujocoWorld world(arm.path(), k_arm_joints);
  const mjModel* m = world.model();
  CHECK(world.file() == arm.path());
  REQUIRE(world.joint_count() == 2);
  CHECK(std::string(mj_id2name(m, mjOBJ_JOINT, world.joint_id(0))) == "shoulder_joint");
  CHECK(std::string(mj_id2name(m, mjOBJ_JOINT, world.joint_id(1))) == "elbow");
  CHECK(std::string(mj_id2name(m, mjOBJ_ACTUATOR, world.actuator_id(0))) == "shoulder_motor");
  CHECK(std::string(mj_id2name(m, mjOBJ_ACTUATOR, world.actuator_id(1))) == "elbow_motor");
  CHECK(world.timestep() == 0.001);
  CHECK(world.total_mass() == Approx(2.8));
  CHECK(world.step_count() == 0);
  CHECK_FALSE(world.target(0).enabled);
  CHECK_FALSE(world.target(1).enabled);
}

TEST_CASE("world: the motor law from the state at the start of the step", "[sim][mujoco_world]") {
  const TempModel arm("law", arm_xml());
  MujocoWorld world(arm.path(), k_arm_joints);
  world.step(20);  // moving: q and dq are not zero any more
  MotorTarget t;
  t.q = world.q(0) + 0.05;
  t.dq = 0.3;
  t.kp = 20.0;
  t.kd = 1.5;
  t.tau = -0.25;
  t.enabled = true;
  world.set_target(0, t);
  CHECK(world.target(0).kd == 1.5);
  const double expected = -0.25 + 20.0 * 0.05 + 1.5 * (0.3 - world.dq(0));
  REQUIRE(std::abs(expected) < k_shoulder_max);
  world.step();
  CHECK(world.data()->ctrl[world.actuator_id(0)] == Approx(expected).epsilon(1e-12));
  CHECK(world.tau(0) == Approx(expected).epsilon(1e-12));
  // A motor never told anything is off.
  CHECK(world.tau(1) == 0.0);
  CHECK(world.step_count() == 21);
}

TEST_CASE("world: torques are clamped to each motor's own range and a non-finite law rests the motor",
          "[sim][mujoco_world]") {
  const TempModel arm("clamp", arm_xml());
  MujocoWorld world(arm.path(), k_arm_joints);
  world.set_target(0, pd(world.q(0) + 10.0, 1000.0));
  world.set_target(1, pd(world.q(1) - 10.0, 1000.0));
  world.step();
  CHECK(world.tau(0) == k_shoulder_max);
  CHECK(world.tau(1) == -k_elbow_limit);
  world.set_target(0, pd(world.q(0) - 10.0, 1000.0));
  world.set_target(1, pd(world.q(1) + 10.0, 1000.0));
  world.step();
  CHECK(world.tau(0) == k_shoulder_min);
  CHECK(world.tau(1) == k_elbow_limit);

  world.set_target(0, pd(std::numeric_limits<double>::quiet_NaN(), 10.0));
  MotorTarget infinite = pd(0.0, 0.0);
  infinite.tau = std::numeric_limits<double>::infinity();
  world.set_target(1, infinite);
  world.step();
  CHECK(world.tau(0) == 0.0);
  CHECK(world.tau(1) == 0.0);
  CHECK_FALSE(world.diverged());

  // A disabled target produces nothing, whatever its gains say.
  MotorTarget off = pd(world.q(0) + 1.0, 50.0);
  off.tau = 2.0;
  off.enabled = false;
  world.set_target(0, off);
  world.step();
  CHECK(world.tau(0) == 0.0);
}

TEST_CASE("world: reset goes back to the first keyframe or the reference pose and disables the motors",
          "[sim][mujoco_world]") {
  SECTION("with a keyframe") {
    const TempModel arm("keyframe", arm_xml(true));
    MujocoWorld world(arm.path(), k_arm_joints);
    // The keyframe is the initial state too.
    CHECK(world.q(0) == 0.3);
    CHECK(world.q(1) == -0.2);
    CHECK(world.base().position == praxis::Vector3(0.5, -0.25, 2.0));
    world.set_target(0, pd(1.0, 30.0));
    world.step(100);
    REQUIRE(world.q(0) != 0.3);
    world.reset();
    CHECK(world.step_count() == 0);
    CHECK_FALSE(world.target(0).enabled);
    CHECK(world.q(0) == 0.3);
    CHECK(world.q(1) == -0.2);
    CHECK(world.dq(0) == 0.0);
    CHECK(world.base().position == praxis::Vector3(0.5, -0.25, 2.0));
    world.step();
    CHECK(world.tau(0) == 0.0);
  }
  SECTION("without: the model's reference pose") {
    const TempModel arm("reference", arm_xml(false));
    MujocoWorld world(arm.path(), k_arm_joints);
    world.step(100);
    world.reset();
    CHECK(world.q(0) == 0.0);
    CHECK(world.q(1) == 0.0);
    CHECK(world.base().position == praxis::Vector3(0.0, 0.0, 1.0));
  }
}

TEST_CASE("world: placing joints and the base zeroes their velocities", "[sim][mujoco_world]") {
  const TempModel arm("place", arm_xml());
  MujocoWorld world(arm.path(), k_arm_joints);
  MotorTarget push;
  push.tau = 1.0;
  push.enabled = true;
  world.set_target(0, push);
  world.step(100);  // falling and swinging
  REQUIRE(world.dq(0) != 0.0);
  const std::array<double, 2> q{0.4, -0.6};
  world.set_joint_positions(q);
  CHECK(world.q(0) == 0.4);
  CHECK(world.q(1) == -0.6);
  CHECK(world.dq(0) == 0.0);
  CHECK(world.dq(1) == 0.0);
  const std::array<double, 3> three{0.0, 0.0, 0.0};
  CHECK_THROWS_WITH(world.set_joint_positions(three), Catch::Contains("3 positions for 2 joints"));
  CHECK_THROWS_AS(world.set_joint_positions(std::span<const double>{}), std::invalid_argument);

  // The orientation is normalised; position and orientation come back as placed.
  world.set_base_pose({1.0, 2.0, 3.0}, praxis::Quaternion(2.0, 0.0, 0.0, 2.0));
  const auto base = world.base();
  CHECK(base.position == praxis::Vector3(1.0, 2.0, 3.0));
  CHECK(base.orientation.w() == Approx(std::sqrt(0.5)));
  CHECK(base.orientation.z() == Approx(std::sqrt(0.5)));
  CHECK(base.orientation.norm() == Approx(1.0));
  CHECK(base.linear_velocity.isZero());
  CHECK(base.angular_velocity.isZero());
  // The readings are of the placed state, not of the state before placing it.
  CHECK(base.imu_position.x() == Approx(1.0));
  CHECK(base.imu_position.z() == Approx(3.0));
  CHECK(world.imu().orientation.z() == Approx(std::sqrt(0.5)));
}

TEST_CASE("world: readings describe the state after the last step and reading changes nothing",
          "[sim][mujoco_world]") {
  const TempModel arm("readings", arm_xml());
  MujocoWorld watched(arm.path(), k_arm_joints);
  MujocoWorld alone(arm.path(), k_arm_joints);
  MotorTarget push;
  push.tau = 0.5;
  push.enabled = true;
  watched.set_target(0, push);
  alone.set_target(0, push);
  for (int k = 0; k < 50; ++k) {
    watched.step();
    alone.step();
    const auto imu = watched.imu();
    const auto base = watched.base();
    // Falling, the accelerometer reads far less than the +g it reads at rest.
    CHECK(imu.accelerometer.norm() < 5.0);
    CHECK(base.imu_position.z() == Approx(base.position.z()));
    CHECK(base.imu_velocity.z() == Approx(base.linear_velocity.z()));
  }
  CHECK(watched.base().linear_velocity.z() == Approx(-9.81 * 0.05).margin(0.05));
  CHECK(watched.dq(0) != 0.0);
  CHECK(watched.q(0) == alone.q(0));
  CHECK(watched.dq(1) == alone.dq(1));
  CHECK(watched.base().position == alone.base().position);
}

// The arm without praxis' sensor names, its IMU site renamed or given sensors of its own: the IMU
// is then found by the rule of ImuSource.
std::string arm_without_praxis_sensors(const std::string& site, const std::string& sensors) {
  std::string text = arm_xml();
  const auto b = text.find("<sensor>");
  const auto e = text.find("</sensor>") + std::string("</sensor>").size();
  text.replace(b, e - b, sensors.empty() ? std::string{} : "<sensor>" + sensors + "</sensor>");
  return replaced(text, R"(<site name="imu" pos="0 0 0"/>)", "<site name=\"" + site + "\" pos=\"0 0 0\"/>");
}

TEST_CASE("world: without praxis' sensor names the IMU is the site 'imu' or 'imu_in_<base>', else the base body, "
          "read as MuJoCo's sensors read", "[sim][mujoco_world]") {
  // The site sits at the base body's origin, unrotated: every rule reads the same frame, and each
  // reading must equal what the praxis sensors on the site give.
  const TempModel reference_file("imu_reference", arm_xml());
  const TempModel site_file("imu_site", arm_without_praxis_sensors("imu", R"(<gyro name="model_gyro" site="imu"/>)"));
  const TempModel named_file("imu_named", arm_without_praxis_sensors("imu_in_base", ""));
  const TempModel body_file("imu_body", arm_without_praxis_sensors("marker", ""));
  MujocoWorld reference(reference_file.path(), k_arm_joints);
  MujocoWorld site(site_file.path(), k_arm_joints);
  MujocoWorld named(named_file.path(), k_arm_joints);
  MujocoWorld body(body_file.path(), k_arm_joints);

  using Kind = praxis::sim::ImuSource::Kind;
  CHECK(reference.imu_source().kind == Kind::sensors);
  CHECK(site.imu_source().kind == Kind::site);
  CHECK(site.imu_source().frame == "imu");
  CHECK(site.imu_source().description ==
        "site 'imu': gyro from sensor 'model_gyro'; orientation, accelerometer, position, velocity computed from the "
        "frame's motion");
  CHECK(named.imu_source().kind == Kind::site);
  CHECK(named.imu_source().frame == "imu_in_base");
  CHECK(body.imu_source().kind == Kind::body);
  CHECK(body.imu_source().frame == "base");
  CHECK_THAT(body.imu_source().description, Catch::StartsWith("body 'base', the free joint's (no site 'imu' or 'imu_in_base')"));

  // Falling and turning: the arm swings the box while it drops and lands.
  for (MujocoWorld* w : {&reference, &site, &named, &body}) {
    w->set_target(0, pd(1.2, 40.0, 0.5));
    w->set_target(1, pd(-0.8, 30.0, 0.3));
  }
  for (int k = 0; k < 700; ++k) {
    for (MujocoWorld* w : {&reference, &site, &named, &body}) w->step();
    if (k % 70 != 69) continue;
    const auto want = reference.imu();
    const auto want_base = reference.base();
    for (MujocoWorld* w : {&site, &named, &body}) {
      INFO("step " << k << ", IMU from " << w->imu_source().description);
      // Sensors do not change the dynamics: the same state in every world.
      REQUIRE(w->q(0) == reference.q(0));
      const auto got = w->imu();
      const auto base = w->base();
      CHECK(got.orientation.coeffs().isApprox(want.orientation.coeffs(), 1e-12));
      CHECK((got.gyro - want.gyro).norm() <= 1e-9 * (1.0 + want.gyro.norm()));
      CHECK((got.accelerometer - want.accelerometer).norm() <= 1e-9 * (1.0 + want.accelerometer.norm()));
      CHECK((base.imu_position - want_base.imu_position).norm() <= 1e-12);
      CHECK((base.imu_velocity - want_base.imu_velocity).norm() <= 1e-9 * (1.0 + want_base.imu_velocity.norm()));
    }
  }
  // Moving, so a stale or zero reading would not pass.
  CHECK(reference.imu().gyro.norm() > 0.01);
  CHECK(reference.imu().accelerometer.norm() > 1.0);
}

TEST_CASE("world: robot joints the model lacks are reported, read 0 and take no command", "[sim][mujoco_world]") {
  const TempModel arm("missing", arm_xml());
  constexpr std::array<std::string_view, 3> joints{"wrist", "shoulder", "elbow"};
  MujocoWorld world(arm.path(), joints);
  REQUIRE(world.missing_joints().size() == 1);
  CHECK(world.missing_joints()[0] == 0);
  CHECK_FALSE(world.has_joint(0));
  CHECK(world.has_joint(1));
  CHECK(world.joint_id(0) == -1);
  CHECK(world.actuator_id(0) == -1);
  const std::array<double, 3> q{0.7, 0.4, -0.6};
  world.set_joint_positions(q);
  CHECK(world.q(0) == 0.0);
  CHECK(world.q(1) == 0.4);
  CHECK(world.q(2) == -0.6);
  for (std::size_t j = 0; j < 3; ++j) world.set_target(j, pd(1.0, 100.0, 1.0));
  world.step(50);
  CHECK(world.q(0) == 0.0);
  CHECK(world.dq(0) == 0.0);
  CHECK(world.tau(0) == 0.0);
  // The joints the model has are driven.
  CHECK(world.tau(1) != 0.0);
  CHECK(world.q(2) > -0.6);
}

TEST_CASE("world: a model with none of the robot's joints, or a motor on a joint the robot lacks, is refused",
          "[sim][mujoco_world]") {
  const TempModel arm("foreign", arm_xml());
  constexpr std::array<std::string_view, 2> strangers{"hip", "knee"};
  CHECK_THROWS_WITH(MujocoWorld(arm.path(), strangers),
                    Catch::Contains("none of the robot's 2 joints is in it: hip (robot joint 0: no joint 'hip' or 'hip_joint')"));
  constexpr std::array<std::string_view, 2> one_renamed{"shoulder", "knee"};
  CHECK_THROWS_WITH(MujocoWorld(arm.path(), one_renamed),
                    Catch::Contains(arm.path()) &&
                        Catch::Contains("actuator 'elbow_motor' drives joint 'elbow', which is not one of the robot's joints; "
                                        "the robot's joints missing from the model: knee (robot joint 1: no joint 'knee' or "
                                        "'knee_joint')"));
}

TEST_CASE("world: a state MuJoCo cannot integrate is reported as diverged", "[sim][mujoco_world]") {
  const TempModel arm("diverge", arm_xml());
  MujocoWorld world(arm.path(), k_arm_joints);
  world.step();
  CHECK_FALSE(world.diverged());
  world.set_base_pose({std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0}, praxis::Quaternion::Identity());
  world.step();
  CHECK(world.diverged());
  world.reset();
  CHECK_FALSE(world.diverged());
}

TEST_CASE("world: a model that breaks a convention of the small model is refused with the reason",
          "[sim][mujoco_world]") {
  const auto refused = [](const std::string& name, const std::string& text, std::span<const std::string_view> joints) {
    const TempModel model(name, text);
    try {
      MujocoWorld world(model.path(), joints);
    } catch (const ModelError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains(model.path()));
      return what;
    }
    FAIL("model " << name << " was accepted");
    return std::string{};
  };
  const std::array<std::string_view, 2> same_joint_twice{"elbow", "elbow"};
  CHECK_THAT(refused("twice", arm_xml(), same_joint_twice),
             Catch::Contains("robot joints 0 and 1 both map to joint 'elbow'"));
  // The free joint is no robot joint: a motor drives one degree of freedom.
  const std::array<std::string_view, 2> base_as_joint{"shoulder", "root"};
  CHECK_THAT(refused("free_as_robot_joint", arm_xml(), base_as_joint),
             Catch::Contains("'root' must be a hinge or slide joint"));
  CHECK_THAT(refused("two_motors", replaced(arm_xml(), "</actuator>", R"(<motor joint="elbow" ctrllimited="true" ctrlrange="-1 1"/></actuator>)"),
                     k_arm_joints),
             Catch::Contains("'elbow' has more than one actuator"));
  CHECK_THAT(refused("no_motor",
                     replaced(arm_xml(), R"(<motor name="elbow_motor" joint="elbow" ctrllimited="true" ctrlrange="-3 3"/>)", ""),
                     k_arm_joints),
             Catch::Contains("no actuator drives joint 'elbow'"));
  CHECK_THAT(refused("position_servo",
                     replaced(arm_xml(), R"(<motor name="elbow_motor" joint="elbow")",
                              R"(<position name="elbow_motor" joint="elbow" kp="10")"),
                     k_arm_joints),
             Catch::Contains("must be a <motor> with gear 1"));
  CHECK_THAT(refused("fixed_base", replaced(arm_xml(), R"(<freejoint name="root"/>)", ""), k_arm_joints),
             Catch::Contains("no free joint"));
  CHECK_THAT(refused("gyro_as_framepos",
                     replaced(arm_xml(), R"(<gyro name="imu_gyro" site="imu"/>)",
                              R"(<framepos name="imu_gyro" objtype="site" objname="imu"/>)"),
                     k_arm_joints),
             Catch::Contains("'imu_gyro' must be a <gyro>"));
  CHECK_THAT(refused("no_frame_vel", replaced(arm_xml(), R"(<framelinvel name="frame_vel" objtype="site" objname="imu"/>)", ""),
                     k_arm_joints),
             Catch::Contains("no sensor named 'frame_vel'"));
}

TEST_CASE("world: a missing or malformed or unsuitable Go2 model file is rejected with the file and the reason",
          "[sim][mujoco_world]") {
  const std::string missing = "/nonexistent/praxis/go2.xml";
  CHECK_THROWS_WITH(go2_world(missing), Catch::Contains(missing) && Catch::Contains("no such file"));

  const TempModel malformed("malformed", "<mujoco><worldbody><body></worldbody></mujoco>");
  CHECK_THROWS_WITH(go2_world(malformed.path()), Catch::Contains(malformed.path()) && Catch::Contains("XML parse error") &&
                                                 Catch::Contains("line 1: </worldbody> closes <body>"));

  const TempModel unknown_attribute(
      "unknown_attribute", go2_with("<freejoint name=\"floating_base\"/>", "<freejoint name=\"floating_base\" align=\"true\"/>"));
  CHECK_THROWS_WITH(go2_world(unknown_attribute.path()), Catch::Contains(unknown_attribute.path()) && Catch::Contains("align"));

  const TempModel no_joint("no_joint", go2_with("RL_calf_joint", "RL_knee"));
  CHECK_THROWS_AS(go2_world(no_joint.path()), ModelError);
  CHECK_THROWS_WITH(go2_world(no_joint.path()), Catch::Contains(no_joint.path()) &&
                                                Catch::Contains("'RL_calf' or 'RL_calf_joint'") &&
                                                Catch::Contains("robot joint 11"));

  const TempModel no_range(
      "no_range", go2_with("<motor name=\"FL_calf\" joint=\"FL_calf_joint\" class=\"knee\"/>",
                           "<motor name=\"FL_calf\" joint=\"FL_calf_joint\" ctrllimited=\"false\"/>"));
  CHECK_THROWS_WITH(go2_world(no_range.path()), Catch::Contains("FL_calf_joint") && Catch::Contains("ctrlrange"));

  const TempModel geared(
      "geared", go2_with("<motor name=\"FL_calf\" joint=\"FL_calf_joint\" class=\"knee\"/>",
                         "<motor name=\"FL_calf\" joint=\"FL_calf_joint\" class=\"knee\" gear=\"2\"/>"));
  CHECK_THROWS_WITH(go2_world(geared.path()), Catch::Contains("FL_calf_joint") && Catch::Contains("gear 1"));

  const TempModel no_gyro("no_gyro", go2_with("name=\"imu_gyro\"", "name=\"gyro\""));
  CHECK_THROWS_WITH(go2_world(no_gyro.path()), Catch::Contains(no_gyro.path()) && Catch::Contains("'imu_gyro'") &&
                                               Catch::Contains("<gyro>"));
}

TEST_CASE("world: the Go2's IMU reads the current state as MuJoCo's sensors give after mj_forward there",
          "[sim][mujoco_world]") {
  MujocoWorld world(k_go2_xml, k_go2_joints);
  // An asymmetric standing target, so the body tilts and turns while it lands.
  constexpr std::array<double, 12> k_target{0.3, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3, 0, 0.67, -1.3};
  for (std::size_t j = 0; j < 12; ++j) world.set_target(j, pd(k_target[j], 60.0, 5.0));
  world.step(60);
  const auto imu = world.imu();
  const auto base = world.base();
  mjData* d = world.data();
  const mjModel* m = world.model();
  mj_forward(m, d);
  const auto sensor = [&](const char* name, int k) {
    return d->sensordata[m->sensor_adr[mj_name2id(m, mjOBJ_SENSOR, name)] + k];
  };
  CHECK(imu.orientation.w() == sensor("imu_quat", 0));
  CHECK(imu.orientation.z() == sensor("imu_quat", 3));
  for (int k = 0; k < 3; ++k) {
    CHECK(imu.gyro[k] == sensor("imu_gyro", k));
    CHECK(imu.accelerometer[k] == sensor("imu_acc", k));
    CHECK(base.imu_position[k] == sensor("frame_pos", k));
    CHECK(base.imu_velocity[k] == sensor("frame_vel", k));
  }
  // It is moving: a test of stale readings would otherwise pass by accident.
  CHECK(imu.gyro.norm() > 0.01);
}

}  // namespace mujoco_world_test
}  // namespace
