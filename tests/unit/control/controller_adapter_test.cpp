// control/controller_adapter.hpp: how ControllerAdapter reads a USER_CTRL of either spelling —
// per-joint values from either gain form, the optional members' neutral values when absent, the
// largest gain (NaN wins), gains_valid, the framework's RobotInterface filled before Reset and
// GetInput, and log values copied up to the room given.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "praxis/control/controller_adapter.hpp"
#include "sample_controllers.hpp"

namespace controller_adapter_test {

using namespace sample_controllers;

TEST_CASE("user controller: the adapter reads scalar gains for every joint and neutral optional members",
          "[control][user_controller]") {
  praxis::control::ControllerAdapter<Scalar, N> a;
  STATIC_REQUIRE_FALSE(decltype(a)::framework_style);
  STATIC_REQUIRE_FALSE(decltype(a)::per_joint_kp);
  CHECK(a.dt() == 0.002);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(a.kp(j) == 30.0);
    CHECK(a.kd(j) == 1.5);
    CHECK(a.dq_des(j) == 0.0);   // no jvel_des
    CHECK(a.tau_ff(j) == 0.0);   // no tau_ff
    CHECK(a.mode(j) == praxis::JointMode::position);  // no joint_mode
  }
  CHECK(a.init_pos(2) == Approx(0.3));
  CHECK(a.jpos_des(1) == 2.0);
  CHECK(a.kp() == 30.0);
  CHECK(a.gains_valid());
}

TEST_CASE("user controller: per-joint gains and the optional members are read joint by joint",
          "[control][user_controller]") {
  praxis::control::ControllerAdapter<PerJoint, N> a;
  STATIC_REQUIRE(decltype(a)::per_joint_kp);
  STATIC_REQUIRE(decltype(a)::has_jvel_des);
  STATIC_REQUIRE(decltype(a)::has_tau_ff);
  STATIC_REQUIRE(decltype(a)::has_joint_mode);
  CHECK(a.dt() == Approx(0.001));
  CHECK(a.kp(0) == 10.0);
  CHECK(a.kp(1) == 20.0);
  CHECK(a.kd(2) == 0.3);
  CHECK(a.kp() == 20.0);  // the largest
  CHECK(a.kd() == 0.3);
  CHECK(a.init_pos(1) == 0.5);
  CHECK(a.dq_des(1) == 1.5);
  CHECK(a.tau_ff(2) == -2.0);
  CHECK(a.mode(1) == praxis::JointMode::velocity);
  CHECK(a.mode(0) == praxis::JointMode::position);
}

TEST_CASE("user controller: gains must be finite and not negative and a NaN is the largest gain",
          "[control][user_controller]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  praxis::control::ControllerAdapter<PerJoint, N> a;
  REQUIRE(a.gains_valid());
  SECTION("negative kp") {
    a.controller().kp[2] = -1.0;
    CHECK_FALSE(a.gains_valid());
  }
  SECTION("NaN kd in the middle") {
    a.controller().kd[1] = nan;
    CHECK_FALSE(a.gains_valid());
    CHECK(std::isnan(a.kd()));  // not hidden by a larger gain after it
  }
  SECTION("NaN kp first") {
    a.controller().kp[0] = nan;
    CHECK(std::isnan(a.kp()));
  }
  SECTION("infinite kp") {
    a.controller().kp[0] = inf;
    CHECK_FALSE(a.gains_valid());
  }
  SECTION("scalar gains") {
    praxis::control::ControllerAdapter<Scalar, N> s;
    s.controller().kd = -0.5;
    CHECK_FALSE(s.gains_valid());
  }
}

TEST_CASE("user controller: reset and step call the controller with the state it is given",
          "[control][user_controller]") {
  praxis::control::ControllerAdapter<Scalar, N> a(Scalar{});
  State s;
  s.q[0] = 0.7;
  a.load_params("somewhere");
  a.reset(s, praxis::Gamepad{});
  CHECK(a.controller().loads == 1);
  CHECK(a.controller().resets == 1);
  CHECK(a.controller().seen_q0 == 0.7);
  s.q[0] = -0.2;
  a.step(s, praxis::Gamepad{});
  a.step(s, praxis::Gamepad{});
  CHECK(a.controller().resets == 1);
  CHECK(a.controller().inputs == 2);
  CHECK(a.controller().calculations == 2);
  CHECK(a.controller().seen_q0 == -0.2);
}

TEST_CASE("user controller: a framework-style controller gets its RobotInterface filled before Reset and GetInput",
          "[control][user_controller]") {
  praxis::control::ControllerAdapter<Framework, N> a;
  STATIC_REQUIRE(decltype(a)::framework_style);
  a.load_params("params/go2");
  CHECK(a.controller().loaded == std::filesystem::path("params/go2"));
  State s;
  s.q[1] = 0.25;
  s.projected_gravity = Eigen::Vector3d(0.0, 0.0, -1.0);
  a.reset(s, praxis::Gamepad{});
  CHECK(a.controller().resets == 1);
  CHECK(a.controller().seen_q1 == 0.25f);
  s.q[1] = 0.5;
  a.step(s, praxis::Gamepad{});
  CHECK(a.controller().inputs == 1);
  CHECK(a.controller().calculations == 1);
  CHECK(a.controller().seen_q1 == 0.5f);
  CHECK(a.controller().seen_gravity_z == -1.0f);
  std::array<float, 4> out{};
  CHECK(a.log_into(out) == 2);
  CHECK(out[0] == 7.0f);
  CHECK(out[1] == 8.0f);
}

TEST_CASE("user controller: log values are copied up to the room given and all are counted",
          "[control][user_controller]") {
  praxis::control::ControllerAdapter<Scalar, N> a;
  std::array<float, 8> room{};
  CHECK(a.log_into(room) == 4);
  CHECK(room[3] == 4.0f);
  CHECK(room[4] == 0.0f);
  std::array<float, 2> small{};
  CHECK(a.log_into(small) == 4);  // the caller learns it was cut
  CHECK(small[0] == 1.0f);
  CHECK(small[1] == 2.0f);
  CHECK(a.log_into(std::span<float>{}) == 4);
}

}  // namespace controller_adapter_test
