// core/robot_model.hpp: what makes a type a robot model (the RobotModel concept), finding a joint by
// name (joint_index), and the table checks validate_model runs on every shipped model — limits
// ordered and positive, the stand and rest poses within the limits, every bound inclusive.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <string_view>

#include "praxis/core/robot_model.hpp"

namespace robot_model_test {

using praxis::JointSpec;

struct Three {
  static constexpr std::string_view name = "three";
  static constexpr std::size_t joint_count = 3;
  static constexpr std::array<JointSpec, 3> joints{{
      {"hip", -1.0, 1.0, 10.0, 5.0},
      {"knee", 0.0, 2.0, 20.0, 6.0},
      {"ankle", -0.5, 0.5, 5.0, 4.0},
  }};
  static constexpr std::array<double, 3> stand_pose{0.1, 1.0, -0.1};
  static constexpr std::array<double, 3> rest_pose{0.0, 2.0, 0.5};  // on the upper limits: allowed
  static constexpr std::array<double, 3> default_kp{30.0, 40.0, 20.0};
  static constexpr std::array<double, 3> default_kd{1.0, 1.0, 0.5};
};

struct WithoutRestPose {
  static constexpr std::string_view name = "no_rest";
  static constexpr std::size_t joint_count = 1;
  static constexpr std::array<JointSpec, 1> joints{{{"a", -1.0, 1.0, 1.0, 1.0}}};
  static constexpr std::array<double, 1> stand_pose{0.0};
  static constexpr std::array<double, 1> default_kp{1.0};
  static constexpr std::array<double, 1> default_kd{1.0};
};

struct NoJoints {
  static constexpr std::string_view name = "none";
  static constexpr std::size_t joint_count = 0;
  static constexpr std::array<JointSpec, 0> joints{};
  static constexpr std::array<double, 0> stand_pose{};
  static constexpr std::array<double, 0> rest_pose{};
  static constexpr std::array<double, 0> default_kp{};
  static constexpr std::array<double, 0> default_kd{};
};

// A pose of the wrong length: the tables must all be joint_count long.
struct ShortPose {
  static constexpr std::string_view name = "short";
  static constexpr std::size_t joint_count = 2;
  static constexpr std::array<JointSpec, 2> joints{{{"a", -1.0, 1.0, 1.0, 1.0}, {"b", -1.0, 1.0, 1.0, 1.0}}};
  static constexpr std::array<double, 1> stand_pose{0.0};
  static constexpr std::array<double, 2> rest_pose{0.0, 0.0};
  static constexpr std::array<double, 2> default_kp{1.0, 1.0};
  static constexpr std::array<double, 2> default_kd{1.0, 1.0};
};

TEST_CASE("robot model: the concept asks for every table sized by joint_count and at least one joint",
          "[core][robot_model]") {
  STATIC_REQUIRE(praxis::RobotModel<Three>);
  STATIC_REQUIRE_FALSE(praxis::RobotModel<WithoutRestPose>);
  STATIC_REQUIRE_FALSE(praxis::RobotModel<NoJoints>);
  STATIC_REQUIRE_FALSE(praxis::RobotModel<ShortPose>);
  STATIC_REQUIRE_FALSE(praxis::RobotModel<int>);
}

TEST_CASE("robot model: joint_index finds a joint by its name and gives joint_count for none",
          "[core][robot_model]") {
  STATIC_REQUIRE(praxis::joint_index<Three>("hip") == 0);
  CHECK(praxis::joint_index<Three>("knee") == 1);
  CHECK(praxis::joint_index<Three>("ankle") == 2);
  CHECK(praxis::joint_index<Three>("wrist") == Three::joint_count);
  CHECK(praxis::joint_index<Three>("") == Three::joint_count);
  CHECK(praxis::joint_index<Three>("Knee") == Three::joint_count);  // names are exact
  CHECK(praxis::joint_index<Three>("kne") == Three::joint_count);   // not a prefix match
}

TEST_CASE("robot model: a pose is within the limits only when every joint is (bounds included)",
          "[core][robot_model]") {
  namespace d = praxis::detail;
  CHECK(d::poses_within_limits(Three::joints, Three::stand_pose));
  CHECK(d::poses_within_limits(Three::joints, std::array<double, 3>{-1.0, 0.0, -0.5}));  // lower bounds
  CHECK(d::poses_within_limits(Three::joints, std::array<double, 3>{1.0, 2.0, 0.5}));    // upper bounds
  CHECK_FALSE(d::poses_within_limits(Three::joints, std::array<double, 3>{-1.001, 1.0, 0.0}));
  CHECK_FALSE(d::poses_within_limits(Three::joints, std::array<double, 3>{0.0, 2.001, 0.0}));
  CHECK_FALSE(d::poses_within_limits(Three::joints, std::array<double, 3>{0.0, 1.0, 0.6}));  // the last joint
  // NaN compares false both ways: a check written as "below lower or above upper" let a NaN pose
  // through validate_model.
  CHECK_FALSE(
      d::poses_within_limits(Three::joints, std::array<double, 3>{0.0, std::numeric_limits<double>::quiet_NaN(), 0.0}));
}

TEST_CASE("robot model: limits must be ordered and effort and velocity positive", "[core][robot_model]") {
  namespace d = praxis::detail;
  CHECK(d::limits_are_ordered(Three::joints));
  const auto with = [](JointSpec j) { return std::array<JointSpec, 2>{{{"ok", -1.0, 1.0, 1.0, 1.0}, j}}; };
  CHECK_FALSE(d::limits_are_ordered(with({"equal", 0.5, 0.5, 1.0, 1.0})));
  CHECK_FALSE(d::limits_are_ordered(with({"swapped", 1.0, -1.0, 1.0, 1.0})));
  CHECK_FALSE(d::limits_are_ordered(with({"no_effort", -1.0, 1.0, 0.0, 1.0})));
  CHECK_FALSE(d::limits_are_ordered(with({"negative_velocity", -1.0, 1.0, 1.0, -2.0})));
  CHECK_FALSE(d::limits_are_ordered(with({"nan_limit", std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0, 1.0})));
  STATIC_REQUIRE(praxis::validate_model<Three>());
}

}  // namespace robot_model_test
