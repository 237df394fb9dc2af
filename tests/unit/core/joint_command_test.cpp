// JointCommand and its helpers: the mode names, JointModeSet's membership and subset tests, which
// joints a command drives and covers, the all-finite test over all five vectors, the pure position
// command, damping (per joint and on the covered joints, a non-finite measurement becoming no
// target) and the hand-back hold (the gains in force kept where the joint is stiff, the fallback
// gains otherwise, a never-measured joint left to the robot, uncovered joints untouched).
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <string_view>

#include "praxis/core/joint_command.hpp"

namespace joint_command_test {

using praxis::JointMode;
using praxis::JointModeSet;

namespace {

constexpr std::size_t N = 4;
using Cmd = praxis::JointCommand<N>;
using Vec = praxis::JointVector<N>;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();

Eigen::Index ix(std::size_t j) { return static_cast<Eigen::Index>(j); }

// A command whose every field on every joint is a distinct, recognisable value.
Cmd marked() {
  Cmd c;
  for (std::size_t j = 0; j < N; ++j) {
    const double base = 10.0 * static_cast<double>(j + 1);
    c.q[ix(j)] = base + 0.1;
    c.dq[ix(j)] = base + 0.2;
    c.kp[ix(j)] = base + 0.3;
    c.kd[ix(j)] = base + 0.4;
    c.tau_ff[ix(j)] = base + 0.5;
  }
  return c;
}

// Whether joint j of a and b agree in every field.
bool same_joint(const Cmd& a, const Cmd& b, std::size_t j) {
  const auto i = ix(j);
  return a.mode[j] == b.mode[j] && a.q[i] == b.q[i] && a.dq[i] == b.dq[i] && a.kp[i] == b.kp[i] &&
         a.kd[i] == b.kd[i] && a.tau_ff[i] == b.tau_ff[i];
}

}  // namespace

TEST_CASE("joint command: every mode has its own name", "[core][joint_command]") {
  CHECK(praxis::to_string(JointMode::position) == "position");
  CHECK(praxis::to_string(JointMode::velocity) == "velocity");
  CHECK(praxis::to_string(JointMode::torque) == "torque");
  CHECK(praxis::to_string(JointMode::disabled) == "disabled");
  CHECK(praxis::to_string(JointMode::none) == "none");
  STATIC_REQUIRE(praxis::k_joint_modes == 5);
  STATIC_REQUIRE(praxis::to_string(JointMode::none) == std::string_view("none"));
}

TEST_CASE("joint command: a mode set holds exactly the modes it was made of", "[core][joint_command]") {
  constexpr std::array<JointMode, 5> all{JointMode::position, JointMode::velocity, JointMode::torque,
                                         JointMode::disabled, JointMode::none};
  const JointModeSet empty{};
  for (const auto m : all) CHECK_FALSE(empty.contains(m));

  // Each single mode: that mode alone.
  for (const auto m : all) {
    const JointModeSet one{m};
    for (const auto other : all) {
      INFO("set {" << praxis::to_string(m) << "}, asked " << praxis::to_string(other));
      CHECK(one.contains(other) == (other == m));
    }
  }

  const JointModeSet pv{JointMode::position, JointMode::velocity};
  CHECK(pv.contains(JointMode::position));
  CHECK(pv.contains(JointMode::velocity));
  CHECK_FALSE(pv.contains(JointMode::torque));
  CHECK_FALSE(pv.contains(JointMode::disabled));
  CHECK_FALSE(pv.contains(JointMode::none));

  // A repeated mode is still one member.
  const JointModeSet twice{JointMode::torque, JointMode::torque};
  CHECK(twice.bits == JointModeSet{JointMode::torque}.bits);

  // Usable in constant expressions, as backends declare them.
  constexpr JointModeSet c{JointMode::position, JointMode::disabled};
  STATIC_REQUIRE(c.contains(JointMode::disabled));
  STATIC_REQUIRE_FALSE(c.contains(JointMode::velocity));
}

TEST_CASE("joint command: a mode set contains another only when it holds all of its modes",
          "[core][joint_command]") {
  const JointModeSet all{JointMode::position, JointMode::velocity, JointMode::torque, JointMode::disabled,
                         JointMode::none};
  const JointModeSet pd{JointMode::position, JointMode::disabled};
  const JointModeSet pt{JointMode::position, JointMode::torque};
  const JointModeSet p{JointMode::position};

  CHECK(all.contains(pd));
  CHECK(pd.contains(p));
  CHECK(pd.contains(pd));
  CHECK_FALSE(pd.contains(pt));  // torque is missing, though position is shared
  CHECK_FALSE(p.contains(pd));
  CHECK_FALSE(pd.contains(all));
  // The empty set is in every set, and contains nothing but itself.
  CHECK(p.contains(JointModeSet{}));
  CHECK(JointModeSet{}.contains(JointModeSet{}));
  CHECK_FALSE(JointModeSet{}.contains(p));
}

TEST_CASE("joint command: every backend's basic modes are position and disabled", "[core][joint_command]") {
  STATIC_REQUIRE(praxis::k_basic_joint_modes.contains(JointMode::position));
  STATIC_REQUIRE(praxis::k_basic_joint_modes.contains(JointMode::disabled));
  STATIC_REQUIRE_FALSE(praxis::k_basic_joint_modes.contains(JointMode::velocity));
  STATIC_REQUIRE_FALSE(praxis::k_basic_joint_modes.contains(JointMode::torque));
  STATIC_REQUIRE_FALSE(praxis::k_basic_joint_modes.contains(JointMode::none));
}

TEST_CASE("joint command: a default command is position mode with every target and gain zero",
          "[core][joint_command]") {
  const Cmd c;
  STATIC_REQUIRE(Cmd::joint_count == N);
  for (std::size_t j = 0; j < N; ++j) {
    CHECK(c.mode[j] == JointMode::position);
    CHECK(c.q[ix(j)] == 0.0);
    CHECK(c.dq[ix(j)] == 0.0);
    CHECK(c.kp[ix(j)] == 0.0);
    CHECK(c.kd[ix(j)] == 0.0);
    CHECK(c.tau_ff[ix(j)] == 0.0);
  }
  CHECK(c.covers_any());
  CHECK(c.all_finite());
}

TEST_CASE("joint command: a joint is driven in position velocity and torque mode but not disabled or none",
          "[core][joint_command]") {
  Cmd c;
  c.mode = {JointMode::velocity, JointMode::torque, JointMode::disabled, JointMode::none};
  CHECK(c.drives(0));
  CHECK(c.drives(1));
  CHECK_FALSE(c.drives(2));
  CHECK_FALSE(c.drives(3));
  c.mode[3] = JointMode::position;
  CHECK(c.drives(3));
  // Driving is about the mode, not the gains: position with kp 0 (damping) still drives.
  CHECK(c.kp[3] == 0.0);
}

TEST_CASE("joint command: a command covers any joint unless every joint is none", "[core][joint_command]") {
  Cmd c;
  c.mode.fill(JointMode::none);
  CHECK_FALSE(c.covers_any());
  // One covered joint anywhere is enough, the last one included; a disabled joint is covered.
  for (std::size_t j = 0; j < N; ++j) {
    for (const auto m : {JointMode::position, JointMode::velocity, JointMode::torque, JointMode::disabled}) {
      Cmd one;
      one.mode.fill(JointMode::none);
      one.mode[j] = m;
      INFO("joint " << j << " in mode " << praxis::to_string(m));
      CHECK(one.covers_any());
    }
  }
}

TEST_CASE("joint command: all_finite finds a NaN or an infinity in any of the five vectors on any joint",
          "[core][joint_command]") {
  CHECK(marked().all_finite());

  // Large finite values, negative zero and denormals are finite.
  Cmd big = marked();
  big.q[0] = std::numeric_limits<double>::max();
  big.dq[1] = -std::numeric_limits<double>::max();
  big.kp[2] = -0.0;
  big.tau_ff[3] = std::numeric_limits<double>::denorm_min();
  CHECK(big.all_finite());

  using Field = Vec Cmd::*;
  constexpr std::array<Field, 5> fields{&Cmd::q, &Cmd::dq, &Cmd::kp, &Cmd::kd, &Cmd::tau_ff};
  constexpr std::array<const char*, 5> names{"q", "dq", "kp", "kd", "tau_ff"};
  for (std::size_t f = 0; f < fields.size(); ++f) {
    for (std::size_t j = 0; j < N; ++j) {
      for (const double bad : {k_nan, k_inf, -k_inf}) {
        Cmd c = marked();
        (c.*fields[f])[ix(j)] = bad;
        INFO(names[f] << "[" << j << "] = " << bad);
        CHECK_FALSE(c.all_finite());
      }
    }
  }

  // +inf on one field and -inf on another must not cancel out (inf * 0 is NaN, not inf).
  Cmd cancel = marked();
  cancel.q[0] = k_inf;
  cancel.dq[0] = -k_inf;
  CHECK_FALSE(cancel.all_finite());
  // The mode does not matter: a NaN on a joint left to the robot is still a NaN in the command.
  Cmd uncovered = marked();
  uncovered.mode[2] = JointMode::none;
  uncovered.kd[2] = k_nan;
  CHECK_FALSE(uncovered.all_finite());
}

TEST_CASE("joint command: a position command sets every joint to position mode with the targets and gains",
          "[core][joint_command]") {
  Cmd c = marked();
  c.mode = {JointMode::none, JointMode::torque, JointMode::disabled, JointMode::velocity};
  Vec q;
  q << 0.1, -0.2, 0.3, -0.4;
  praxis::set_position_command(c, q, 55.0, 2.5);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(c.mode[j] == JointMode::position);
    CHECK(c.q[ix(j)] == q[ix(j)]);
    CHECK(c.dq[ix(j)] == 0.0);
    CHECK(c.kp[ix(j)] == 55.0);
    CHECK(c.kd[ix(j)] == 2.5);
    CHECK(c.tau_ff[ix(j)] == 0.0);
  }
  // Damping is the same call with kp 0.
  praxis::set_position_command(c, q, 0.0, 4.0);
  CHECK(c.kp.isZero());
  CHECK(c.kd[3] == 4.0);
}

TEST_CASE("joint command: damping one joint brakes it where it was measured and leaves the others",
          "[core][joint_command]") {
  const Cmd before = [] {
    Cmd c = marked();
    c.mode = {JointMode::torque, JointMode::velocity, JointMode::disabled, JointMode::none};
    return c;
  }();

  for (std::size_t j = 0; j < N; ++j) {
    Cmd c = before;
    praxis::damp_joint(c, j, 0.75, 3.5);
    INFO("joint " << j << " was " << praxis::to_string(before.mode[j]));
    CHECK(c.mode[j] == JointMode::position);
    CHECK(c.q[ix(j)] == 0.75);
    CHECK(c.dq[ix(j)] == 0.0);
    CHECK(c.kp[ix(j)] == 0.0);
    CHECK(c.kd[ix(j)] == 3.5);
    CHECK(c.tau_ff[ix(j)] == 0.0);
    for (std::size_t k = 0; k < N; ++k) {
      if (k != j) CHECK(same_joint(c, before, k));
    }
  }

  // A measurement that is not a number is no target: 0, so the command stays finite.
  for (const double bad : {k_nan, k_inf, -k_inf}) {
    Cmd c = before;
    praxis::damp_joint(c, 1, bad, 2.0);
    INFO("measured " << bad);
    CHECK(c.q[1] == 0.0);
    CHECK(c.kp[1] == 0.0);
    CHECK(c.kd[1] == 2.0);
    CHECK(c.mode[1] == JointMode::position);
  }
  Cmd all = before;
  for (std::size_t j = 0; j < N; ++j) praxis::damp_joint(all, j, k_nan, 1.0);
  CHECK(all.all_finite());
}

TEST_CASE("joint command: damp_covered damps every covered joint and leaves the joints left to the robot",
          "[core][joint_command]") {
  Cmd c = marked();
  c.mode = {JointMode::position, JointMode::none, JointMode::torque, JointMode::disabled};
  const Cmd before = c;
  Vec measured;
  measured << 0.5, 0.6, k_nan, -0.8;
  praxis::damp_covered(c, measured, 1.5);

  CHECK(same_joint(c, before, 1));  // none: untouched, even its mode
  for (const std::size_t j : {std::size_t{0}, std::size_t{2}, std::size_t{3}}) {
    INFO("joint " << j);
    CHECK(c.mode[j] == JointMode::position);  // a disabled joint is damped too
    CHECK(c.kp[ix(j)] == 0.0);
    CHECK(c.kd[ix(j)] == 1.5);
    CHECK(c.dq[ix(j)] == 0.0);
    CHECK(c.tau_ff[ix(j)] == 0.0);
  }
  CHECK(c.q[0] == 0.5);
  CHECK(c.q[2] == 0.0);  // measured NaN
  CHECK(c.q[3] == -0.8);

  // A command covering nothing is unchanged.
  Cmd none = marked();
  none.mode.fill(JointMode::none);
  const Cmd none_before = none;
  praxis::damp_covered(none, measured, 1.5);
  for (std::size_t j = 0; j < N; ++j) CHECK(same_joint(none, none_before, j));
}

TEST_CASE("joint command: a hold keeps the gains of a stiff position joint at the measured position",
          "[core][joint_command]") {
  Cmd c = marked();  // position mode, kp 20.3 on joint 1, kd 20.4
  const Cmd before = c;
  praxis::hold_joint(c, 1, 0.33, 99.0, 9.0);
  CHECK(c.mode[1] == JointMode::position);
  CHECK(c.q[1] == 0.33);
  CHECK(c.dq[1] == 0.0);
  CHECK(c.tau_ff[1] == 0.0);
  CHECK(c.kp[1] == before.kp[1]);
  CHECK(c.kd[1] == before.kd[1]);
  CHECK(same_joint(c, before, 0));
  CHECK(same_joint(c, before, 2));
  CHECK(same_joint(c, before, 3));
}

TEST_CASE("joint command: a hold takes the fallback gains where the command in force has no usable stiffness",
          "[core][joint_command]") {
  struct Case {
    const char* what;
    JointMode mode;
    double kp, kd;
  };
  const std::array<Case, 9> cases{{
      {"damping (kp 0)", JointMode::position, 0.0, 3.0},
      {"negative kp", JointMode::position, -5.0, 3.0},
      {"NaN kp", JointMode::position, k_nan, 3.0},
      {"infinite kp", JointMode::position, k_inf, 3.0},
      {"NaN kd", JointMode::position, 40.0, k_nan},
      {"infinite kd", JointMode::position, 40.0, k_inf},
      {"velocity mode", JointMode::velocity, 40.0, 3.0},
      {"torque mode", JointMode::torque, 40.0, 3.0},
      {"disabled", JointMode::disabled, 40.0, 3.0},
  }};
  for (const auto& k : cases) {
    Cmd c = marked();
    c.mode[2] = k.mode;
    c.kp[2] = k.kp;
    c.kd[2] = k.kd;
    praxis::hold_joint(c, 2, -0.25, 70.0, 6.0);
    INFO(k.what);
    CHECK(c.mode[2] == JointMode::position);
    CHECK(c.q[2] == -0.25);
    CHECK(c.kp[2] == 70.0);
    CHECK(c.kd[2] == 6.0);
    CHECK(c.dq[2] == 0.0);
    CHECK(c.tau_ff[2] == 0.0);
  }
  // The smallest positive kp is stiffness: it is kept.
  Cmd tiny = marked();
  tiny.kp[2] = std::numeric_limits<double>::denorm_min();
  praxis::hold_joint(tiny, 2, -0.25, 70.0, 6.0);
  CHECK(tiny.kp[2] == std::numeric_limits<double>::denorm_min());
  CHECK(tiny.kd[2] == marked().kd[2]);
}

TEST_CASE("joint command: a joint whose position was never measured cannot be held and is left to the robot",
          "[core][joint_command]") {
  for (const double bad : {k_nan, k_inf, -k_inf}) {
    Cmd c = marked();
    c.mode[0] = JointMode::torque;
    praxis::hold_joint(c, 0, bad, 70.0, 6.0);
    INFO("measured " << bad);
    CHECK(c.mode[0] == JointMode::none);
    CHECK_FALSE(c.drives(0));
    // Nothing else of that joint becomes the fallback or the measurement.
    CHECK(c.kp[0] != 70.0);
    CHECK(c.q[0] == marked().q[0]);
  }
}

TEST_CASE("joint command: hold_covered holds each covered joint with its own fallback and leaves the rest",
          "[core][joint_command]") {
  Cmd c = marked();
  c.mode = {JointMode::position, JointMode::none, JointMode::torque, JointMode::position};
  c.kp[3] = 0.0;  // damping: falls back
  const Cmd before = c;
  Vec measured;
  measured << 0.1, 0.2, 0.3, k_nan;
  const std::array<double, N> fallback_kp{101, 102, 103, 104};
  const std::array<double, N> fallback_kd{1, 2, 3, 4};
  praxis::hold_covered(c, measured, fallback_kp, fallback_kd);

  // Joint 0: stiff, keeps its gains.
  CHECK(c.mode[0] == JointMode::position);
  CHECK(c.q[0] == 0.1);
  CHECK(c.kp[0] == before.kp[0]);
  CHECK(c.kd[0] == before.kd[0]);
  // Joint 1: left to the robot, untouched.
  CHECK(same_joint(c, before, 1));
  // Joint 2: torque, takes its own fallback (not another joint's).
  CHECK(c.mode[2] == JointMode::position);
  CHECK(c.q[2] == 0.3);
  CHECK(c.kp[2] == 103.0);
  CHECK(c.kd[2] == 3.0);
  // Joint 3: never measured, so left to the robot even though it was covered.
  CHECK(c.mode[3] == JointMode::none);
  CHECK(c.covers_any());
}

}  // namespace joint_command_test
