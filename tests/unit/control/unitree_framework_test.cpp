// Controllers for the Unitree deployment framework driven through ControllerAdapter, and the
// per-joint gains and optional targets of USER_CTRL.

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include "praxis/control/controller_adapter.hpp"
#include "praxis/control/unitree_framework.hpp"
#include "praxis/control/user_controller.hpp"

// The only lines a port changes: what used to pull in the framework's own headers.
// Global, where the framework declares them (outside this file's namespace).
namespace fs = std::filesystem;
using RobotInterface = praxis::control::unitree_framework::RobotInterface<12>;
using Gamepad = praxis::control::unitree_framework::Gamepad;
using BasicUserController = praxis::control::unitree_framework::BasicUserController<12>;
#include "unitree_framework_controller.hpp"
#include "../../support/scratch_dir.hpp"

namespace unitree_framework_test {

namespace {

static_assert(praxis::control::UnitreeFrameworkController<RampToStandController, 12>);
static_assert(praxis::control::UserController<RampToStandController, 12>);
static_assert(!praxis::control::UserController<RampToStandController, 29>);
static_assert(praxis::control::check_user_controller<RampToStandController, 12>());
static_assert(std::is_same_v<praxis::control::unitree_framework::BasicUserController<>, BasicUserController>);

constexpr std::array<float, 12> k_stand{0.0f, 0.9f, -1.8f, 0.0f, 0.9f, -1.8f,
                                        0.0f, 0.9f, -1.8f, 0.0f, 0.9f, -1.8f};

praxis::RobotState<12> lying_state() {
  praxis::RobotState<12> s;
  for (Eigen::Index j = 0; j < 12; ++j) s.q[j] = (j % 3 == 2) ? -2.6 : (j % 3 == 1 ? 1.2 : 0.1);
  return s;
}

struct ParamFolder {
  praxis::test::ScratchDir scratch{"unitree_framework_params"};
  const fs::path& path = scratch.path();
  explicit ParamFolder(const char* json) { scratch.write("params.json", json); }
};

}  // namespace

TEST_CASE("a controller derived from BasicUserController runs through the adapter",
          "[control][unitree_framework]") {
  const ParamFolder params(
      R"({"dt": 0.01, "kp": 35.0, "kd": 1.5, "ramp_time": 0.1, "stick_gain": 0.2,
          "init_pos": [0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8]})");

  praxis::control::ControllerAdapter<RampToStandController, 12> adapter;
  STATIC_REQUIRE(decltype(adapter)::framework_style);
  STATIC_REQUIRE_FALSE(decltype(adapter)::per_joint_kp);
  STATIC_REQUIRE_FALSE(decltype(adapter)::has_jvel_des);

  adapter.load_params(params.path);
  CHECK(adapter.dt() == Approx(0.01));
  CHECK(adapter.kp() == Approx(35.0));
  CHECK(adapter.kd() == Approx(1.5));
  for (std::size_t j = 0; j < 12; ++j) {
    CHECK(adapter.kp(j) == Approx(35.0));
    CHECK(adapter.kd(j) == Approx(1.5));
    CHECK(adapter.init_pos(j) == Approx(k_stand[j]));
    CHECK(adapter.dq_des(j) == 0.0);
    CHECK(adapter.tau_ff(j) == 0.0);
  }
  CHECK(adapter.gains_valid());

  auto state = lying_state();
  state.imu.orientation = praxis::Quaternion(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitX()));
  state.update_derived();
  praxis::Gamepad pad;
  adapter.reset(state, pad);
  for (std::size_t j = 0; j < 12; ++j) {
    CHECK(adapter.jpos_des(j) == Approx(state.q[static_cast<Eigen::Index>(j)]));  // held at Reset
  }

  // Half of the 0.1 s ramp: halfway between the measured pose and init_pos.
  for (int i = 0; i < 5; ++i) adapter.step(state, pad);
  for (std::size_t j = 0; j < 12; ++j) {
    const double from = state.q[static_cast<Eigen::Index>(j)];
    CHECK(adapter.jpos_des(j) == Approx(from + 0.5 * (k_stand[j] - from)).margin(1e-5));
  }
  std::array<float, 4> log{};
  CHECK(adapter.log_into(log) == 2);
  CHECK(log[0] == Approx(0.5f));
  CHECK(log[1] == Approx(-std::cos(0.5)).margin(1e-6));  // RobotInterface::projected_gravity was filled

  // A pauses the ramp (the Gamepad view carries the edge); the stick shifts joint 0.
  praxis::GamepadState raw;
  raw.set(praxis::GamepadButton::A, true);
  raw.lx = 0.5f;
  pad.update(raw);
  for (int i = 0; i < 3; ++i) {
    adapter.step(state, pad);
    pad.update(raw);  // held: on_press only in the first cycle
  }
  CHECK(adapter.log_into(log) == 2);
  CHECK(log[0] == Approx(0.5f));
  const double from0 = state.q[0];
  CHECK(adapter.jpos_des(0) == Approx(from0 + 0.5 * (k_stand[0] - from0) + 0.5 * 0.2).margin(1e-5));

  // Resumed and run to the end: init_pos exactly.
  raw.set(praxis::GamepadButton::A, false);
  raw.lx = 0.0f;
  pad.update(raw);
  raw.set(praxis::GamepadButton::A, true);
  pad.update(raw);
  for (int i = 0; i < 20; ++i) {
    adapter.step(state, pad);
    pad.update(raw);
  }
  for (std::size_t j = 0; j < 12; ++j) CHECK(adapter.jpos_des(j) == Approx(k_stand[j]));
}

TEST_CASE("the Gamepad view keeps sticks in range and reads a NaN or infinite axis as released",
          "[control][gamepad]") {
  // A controller scales the sticks into velocities: a remote glitching to 5.0 must not ask for five
  // times the top speed, and a NaN must not reach the joint targets (the guard would damp the robot).
  praxis::Gamepad pad;
  praxis::GamepadState raw;
  raw.lx = 5.0f;
  raw.ly = -3.0f;
  raw.rx = std::numeric_limits<float>::quiet_NaN();
  raw.ry = -std::numeric_limits<float>::infinity();
  raw.l2 = -0.5f;
  raw.set(praxis::GamepadButton::R2, true);
  CHECK_FALSE(raw.finite());
  pad.update(raw);
  CHECK(pad.lx == 1.0f);
  CHECK(pad.ly == -1.0f);
  CHECK(pad.rx == 0.0f);
  CHECK(pad.ry == 0.0f);
  CHECK(pad.l2 == 0.0f);  // the trigger's range is [0, 1]
  CHECK(pad.R2.on_press);  // the buttons are unaffected
  raw = {};
  raw.lx = -0.25f;
  raw.l2 = 0.75f;
  CHECK(raw.finite());
  pad.update(raw);
  CHECK(pad.lx == -0.25f);  // in range: exactly as sent
  CHECK(pad.l2 == 0.75f);
}

TEST_CASE("the framework base class starts at zero, so a forgotten dt is visible",
          "[control][unitree_framework]") {
  praxis::control::ControllerAdapter<RampToStandController, 12> adapter;
  CHECK(adapter.dt() == 0.0);
  CHECK(adapter.kp() == 0.0);
  for (std::size_t j = 0; j < 12; ++j) CHECK(adapter.init_pos(j) == 0.0);
}

namespace {

// A 23-joint humanoid controller on the same base class: holds init_pos, adding a per-joint bias
// proportional to the measured velocity.
class Humanoid23Controller : public praxis::control::unitree_framework::BasicUserController<23> {
 public:
  using Interface = praxis::control::unitree_framework::RobotInterface<23>;
  void LoadParam(std::filesystem::path&) override {
    dt = 0.002f;
    kp = 80.0f;
    kd = 2.0f;
    for (std::size_t i = 0; i < 23; ++i) init_pos[i] = 0.01f * static_cast<float>(i);
  }
  void Reset(Interface&, praxis::control::unitree_framework::Gamepad&) override { resets++; }
  void GetInput(Interface& robot, praxis::control::unitree_framework::Gamepad&) override { jvel = robot.jvel; }
  void Calculate() override {
    for (std::size_t i = 0; i < 23; ++i) jpos_des[i] = init_pos[i] + 0.1f * jvel[i];
  }
  std::vector<float> GetLog() override { return {jvel[22]}; }

  int resets = 0;
  std::array<float, 23> jvel{};
};

static_assert(praxis::control::UserController<Humanoid23Controller, 23>);
static_assert(!praxis::control::UserController<Humanoid23Controller, 12>);

}  // namespace

TEST_CASE("BasicUserController serves any joint count", "[control][unitree_framework]") {
  praxis::control::ControllerAdapter<Humanoid23Controller, 23> adapter;
  adapter.load_params("unused");
  praxis::RobotState<23> state;
  for (Eigen::Index j = 0; j < 23; ++j) state.dq[j] = 0.5 * static_cast<double>(j);
  adapter.reset(state, {});
  adapter.step(state, {});
  CHECK(adapter.controller().resets == 1);
  CHECK(adapter.dt() == Approx(0.002));
  for (std::size_t j = 0; j < 23; ++j) {
    CHECK(adapter.kp(j) == Approx(80.0));
    CHECK(adapter.jpos_des(j) == Approx(0.01 * static_cast<double>(j) + 0.05 * static_cast<double>(j)));
  }
  std::array<float, 1> log{};
  CHECK(adapter.log_into(log) == 1);
  CHECK(log[0] == Approx(11.0f));
}

namespace {

// Per-joint gains: stiff legs, soft arms. kp as std::array, kd as an Eigen vector.
struct PerJointGainController {
  double dt = 0.002;
  std::array<double, 12> kp{60, 60, 60, 60, 60, 60, 20, 20, 20, 20, 20, 25};
  Eigen::Matrix<double, 12, 1> kd = Eigen::Matrix<double, 12, 1>::LinSpaced(0.5, 2.7);
  std::array<float, 12> init_pos{};
  std::array<float, 12> jpos_des{};
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 1> log() const { return {}; }
};

static_assert(praxis::control::UserController<PerJointGainController, 12>);

}  // namespace

TEST_CASE("per-joint kp and kd reach the adapter joint by joint", "[control][gains]") {
  praxis::control::ControllerAdapter<PerJointGainController, 12> adapter;
  STATIC_REQUIRE(decltype(adapter)::per_joint_kp);
  STATIC_REQUIRE(decltype(adapter)::per_joint_kd);
  for (std::size_t j = 0; j < 12; ++j) {
    CHECK(adapter.kp(j) == adapter.controller().kp[j]);
    CHECK(adapter.kd(j) == Approx(0.5 + 0.2 * static_cast<double>(j)));
  }
  CHECK(adapter.kp(0) == 60.0);
  CHECK(adapter.kp(6) == 20.0);
  // The one-gain view is the largest per-joint gain.
  CHECK(adapter.kp() == 60.0);
  CHECK(adapter.kd() == Approx(2.7));
  CHECK(adapter.gains_valid());

  adapter.controller().kp[11] = -1.0;
  CHECK_FALSE(adapter.gains_valid());
  CHECK(adapter.kp() == 60.0);  // the largest hides a negative gain; gains_valid() does not
  adapter.controller().kp[11] = 25.0;
  adapter.controller().kd[3] = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(adapter.gains_valid());
  CHECK(std::isnan(adapter.kd()));  // NaN is never hidden by the largest
}

namespace {

// Velocity and feed-forward targets, with the RobotInterface's names: a joint-space spring-damper
// whose torque is computed here and whose velocity target follows the measured velocity.
struct TorqueController {
  double dt = 0.002, kp = 10, kd = 0.5;
  Eigen::Matrix<double, 12, 1> init_pos = Eigen::Matrix<double, 12, 1>::Zero();
  Eigen::Matrix<double, 12, 1> jpos_des = Eigen::Matrix<double, 12, 1>::Zero();
  Eigen::Matrix<double, 12, 1> jvel_des = Eigen::Matrix<double, 12, 1>::Zero();
  std::array<float, 12> tau_ff{};

  Eigen::Matrix<double, 12, 1> q = Eigen::Matrix<double, 12, 1>::Zero();
  Eigen::Matrix<double, 12, 1> dq = Eigen::Matrix<double, 12, 1>::Zero();

  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<12>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<12>& s, const praxis::Gamepad&) {
    q = s.q;
    dq = s.dq;
  }
  void calculate() {
    jpos_des = q;
    jvel_des = 0.5 * dq;
    for (Eigen::Index j = 0; j < 12; ++j) {
      tau_ff[static_cast<std::size_t>(j)] = static_cast<float>(-3.0 * (q[j] - init_pos[j]));
    }
  }
  std::array<float, 1> log() const { return {static_cast<float>(tau_ff[0])}; }
};

static_assert(praxis::control::UserController<TorqueController, 12>);

}  // namespace

TEST_CASE("jvel_des and tau_ff are read back through the adapter", "[control][gains]") {
  praxis::control::ControllerAdapter<TorqueController, 12> adapter;
  STATIC_REQUIRE(decltype(adapter)::has_jvel_des);
  STATIC_REQUIRE(decltype(adapter)::has_tau_ff);
  praxis::RobotState<12> state;
  for (Eigen::Index j = 0; j < 12; ++j) {
    state.q[j] = 0.1 * static_cast<double>(j);
    state.dq[j] = -0.2 * static_cast<double>(j);
  }
  adapter.reset(state, {});
  adapter.step(state, {});
  for (std::size_t j = 0; j < 12; ++j) {
    const double jj = static_cast<double>(j);
    CHECK(adapter.jpos_des(j) == Approx(0.1 * jj));
    CHECK(adapter.dq_des(j) == Approx(-0.1 * jj));
    CHECK(adapter.tau_ff(j) == Approx(-0.3 * jj).margin(1e-6));
  }
  std::array<float, 1> log{};
  CHECK(adapter.log_into(log) == 1);
  CHECK(log[0] == 0.0f);
}

namespace {
struct Scalars {
  double dt = 0.01, kp = 1, kd = 1;
  std::array<double, 12> init_pos{}, jpos_des{};
};
struct ElevenKp : Scalars {
  std::array<double, 11> kp{};
};
struct WrongTau : Scalars {
  std::array<double, 13> tau_ff{};
};
struct ShortTargets {
  double dt = 0.01, kp = 1, kd = 1;
  std::array<double, 12> init_pos{};
  std::array<double, 6> jpos_des{};
};
struct VectorKd : Scalars {
  Eigen::Matrix<float, 12, 1> kd = Eigen::Matrix<float, 12, 1>::Ones();
};
static_assert(praxis::control::HasControllerMembers<Scalars>);
static_assert(praxis::control::HasControllerMembers<VectorKd>);
static_assert(!praxis::control::HasControllerMembers<ElevenKp>);
static_assert(!praxis::control::HasControllerMembers<WrongTau>);
static_assert(!praxis::control::HasControllerMembers<ShortTargets>);
}  // namespace

}  // namespace unitree_framework_test
