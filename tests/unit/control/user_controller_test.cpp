// control/user_controller.hpp: what a USER_CTRL is (the UserController concept: snake-case or the
// Unitree framework's names, joint arrays sized by init_pos, gains a number or one per joint,
// optional velocity targets, torques and joint modes). How ControllerAdapter reads one is in
// controller_adapter_test.cpp; what the compiler says to a wrong USER_CTRL is tested in
// compile_fail/control; a framework-written controller end to end in seed_controller_test.cpp.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "praxis/control/user_controller.hpp"
#include "sample_controllers.hpp"

namespace user_controller_test {

using namespace sample_controllers;

// A kp of the wrong size, and an init_pos of another robot's size.
struct KpWrongSize : Scalar {
  std::array<double, 2> kp{1.0, 2.0};
};
struct FourJoints : Scalar {
  std::array<float, 4> init_pos{};
  std::array<float, 4> jpos_des{};
};
struct NoCalculate {
  double dt = 0.002, kp = 1.0, kd = 1.0;
  std::array<float, N> init_pos{}, jpos_des{};
  void load_params(const std::filesystem::path&) {}
  void reset(const State&, const praxis::Gamepad&) {}
  void get_input(const State&, const praxis::Gamepad&) {}
  std::array<float, 0> log() const { return {}; }
};
// joint_mode without the joint_modes it uses declared.
struct ModesUndeclared : Scalar {
  std::array<praxis::JointMode, N> joint_mode{};
};

TEST_CASE("user controller: which types are a USER_CTRL for a robot of N joints", "[control][user_controller]") {
  STATIC_REQUIRE(praxis::control::UserController<Scalar, N>);
  STATIC_REQUIRE(praxis::control::SnakeCaseController<Scalar, N>);
  STATIC_REQUIRE(praxis::control::UserController<PerJoint, N>);
  STATIC_REQUIRE(praxis::control::UserController<Framework, N>);
  STATIC_REQUIRE(praxis::control::UnitreeFrameworkController<Framework, N>);
  STATIC_REQUIRE_FALSE(praxis::control::SnakeCaseController<Framework, N>);
  STATIC_REQUIRE_FALSE(praxis::control::UserController<Scalar, 4>);  // written for 3 joints
  STATIC_REQUIRE(praxis::control::controller_joint_count<FourJoints>() == 4);
  STATIC_REQUIRE_FALSE(praxis::control::UserController<FourJoints, N>);  // arrays of another robot's size
  STATIC_REQUIRE_FALSE(praxis::control::UserController<KpWrongSize, N>);
  STATIC_REQUIRE_FALSE(praxis::control::UserController<NoCalculate, N>);
  STATIC_REQUIRE_FALSE(praxis::control::UserController<ModesUndeclared, N>);
  STATIC_REQUIRE_FALSE(praxis::control::UserController<int, N>);
  STATIC_REQUIRE(praxis::control::check_user_controller<Scalar, N>());
}

}  // namespace user_controller_test
