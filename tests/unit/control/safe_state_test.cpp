// control/safe_state.hpp: the last command a robot gets from praxis, by its kind. joint_damping:
// kp 0 and the damping gain at the measured position on every covered joint, whatever the command
// was. hand_back and mode_request: the measured pose held with the gains in force, the model's
// defaults where the joint had no stiffness, never kp 0. Both leave joints the command left to the
// robot (mode none) as they were. The runtime's ends of control are tested in
// integration/safe_edges_test.cpp.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>

#include "praxis/control/safe_state.hpp"

namespace safe_state_test {

using praxis::JointCommand;
using praxis::JointMode;
using praxis::SafeState;

struct Four {
  static constexpr std::string_view name = "four";
  static constexpr std::size_t joint_count = 4;
  static constexpr std::array<praxis::JointSpec, 4> joints{{{"a", -2.0, 2.0, 10.0, 5.0},
                                                             {"b", -2.0, 2.0, 10.0, 5.0},
                                                             {"c", -2.0, 2.0, 10.0, 5.0},
                                                             {"d", -2.0, 2.0, 10.0, 5.0}}};
  static constexpr std::array<double, 4> stand_pose{0.0, 0.0, 0.0, 0.0};
  static constexpr std::array<double, 4> rest_pose{0.0, 0.0, 0.0, 0.0};
  static constexpr std::array<double, 4> default_kp{11.0, 12.0, 13.0, 14.0};
  static constexpr std::array<double, 4> default_kd{0.1, 0.2, 0.3, 0.4};
};
constexpr double k_damping = 3.5;

// Joint a: stiff position PD. b: position with kp 0 (already damping). c: velocity. d: left to the
// robot. Each carries a velocity target and feed-forward torque the safe state must drop.
JointCommand<4> in_force() {
  JointCommand<4> c;
  c.q << 1.0, 1.0, 1.0, 1.0;
  c.dq << 0.5, 0.5, 0.5, 0.5;
  c.kp << 50.0, 0.0, 0.0, 70.0;
  c.kd << 2.0, 1.5, 4.0, 5.0;
  c.tau_ff << 3.0, 3.0, 3.0, 3.0;
  c.mode = {JointMode::position, JointMode::position, JointMode::velocity, JointMode::none};
  return c;
}

praxis::JointVector<4> measured() {
  praxis::JointVector<4> q;
  q << 0.1, -0.2, 0.3, -0.4;
  return q;
}

TEST_CASE("safe state: joint damping is kp 0 and the damping gain at the measured position on covered joints",
          "[control][safe_state]") {
  auto cmd = in_force();
  praxis::control::make_safe<SafeState::joint_damping, Four>(cmd, measured(), k_damping);
  for (std::size_t j = 0; j < 3; ++j) {
    INFO("joint " << j);
    const auto i = static_cast<Eigen::Index>(j);
    CHECK(cmd.mode[j] == JointMode::position);  // the velocity joint too: damping is a PD with kp 0
    CHECK(cmd.kp[i] == 0.0);
    CHECK(cmd.kd[i] == k_damping);
    CHECK(cmd.q[i] == measured()[i]);
    CHECK(cmd.dq[i] == 0.0);
    CHECK(cmd.tau_ff[i] == 0.0);
  }
  // Left to the robot: untouched.
  CHECK(cmd.mode[3] == JointMode::none);
  CHECK(cmd.kp[3] == 70.0);
  CHECK(cmd.q[3] == 1.0);
}

TEST_CASE("safe state: a joint measured as NaN is damped with a finite target", "[control][safe_state]") {
  auto cmd = in_force();
  auto q = measured();
  q[0] = std::numeric_limits<double>::quiet_NaN();
  praxis::control::make_safe<SafeState::joint_damping, Four>(cmd, q, k_damping);
  CHECK(cmd.mode[0] == JointMode::position);
  CHECK(cmd.kp[0] == 0.0);
  CHECK(cmd.kd[0] == k_damping);
  CHECK(std::isfinite(cmd.q[0]));
}

template <SafeState Kind>
void check_hold() {
  auto cmd = in_force();
  praxis::control::make_safe<Kind, Four>(cmd, measured(), k_damping);
  // The stiff joint keeps its gains in force; the two without stiffness get the model's defaults.
  CHECK(cmd.kp[0] == 50.0);
  CHECK(cmd.kd[0] == 2.0);
  CHECK(cmd.kp[1] == Four::default_kp[1]);
  CHECK(cmd.kd[1] == Four::default_kd[1]);
  CHECK(cmd.kp[2] == Four::default_kp[2]);
  CHECK(cmd.kd[2] == Four::default_kd[2]);
  for (std::size_t j = 0; j < 3; ++j) {
    INFO("joint " << j);
    const auto i = static_cast<Eigen::Index>(j);
    CHECK(cmd.mode[j] == JointMode::position);
    CHECK(cmd.kp[i] > 0.0);  // never kp 0: the joint may carry the robot's weight
    CHECK(cmd.q[i] == measured()[i]);
    CHECK(cmd.dq[i] == 0.0);
    CHECK(cmd.tau_ff[i] == 0.0);
  }
  CHECK(cmd.mode[3] == JointMode::none);
  CHECK(cmd.kp[3] == 70.0);
}

TEST_CASE("safe state: handing back holds the measured pose with the gains in force or else the model's",
          "[control][safe_state]") {
  SECTION("hand back") { check_hold<SafeState::hand_back>(); }
  SECTION("mode request") { check_hold<SafeState::mode_request>(); }
}

TEST_CASE("safe state: a joint never measured cannot be held and is left to the robot", "[control][safe_state]") {
  auto cmd = in_force();
  auto q = measured();
  q[0] = std::numeric_limits<double>::quiet_NaN();
  praxis::control::make_safe<SafeState::hand_back, Four>(cmd, q, k_damping);
  CHECK(cmd.mode[0] == JointMode::none);
  CHECK(cmd.mode[1] == JointMode::position);
  CHECK(cmd.q[1] == measured()[1]);
}

}  // namespace safe_state_test
