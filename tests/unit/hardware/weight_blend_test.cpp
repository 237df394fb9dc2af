// WeightBlend: joints lent to praxis by a robot that keeps balancing itself, blended in and out by a
// weight. Which commands drive the owned joints (a gain, a velocity or torque mode; not damping,
// not a disabled or uncovered joint, not a joint praxis does not own); nothing sent before the first
// driving command; the weight rising at `rate` per second to 1 while driven, falling to 0 while let
// go with the last driven targets held, the frame that reaches 0 the last one sent; the time step
// clamped to [0, 0.1] s; unowned joints never sent (mode none). And joints_named, the mask of joints
// whose names contain any of the given parts.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <string_view>
#include <thread>

#include "praxis/hardware/weight_blend.hpp"

namespace weight_blend_test {

using namespace std::chrono_literals;
using praxis::JointMode;

namespace {

constexpr std::size_t N = 4;
using Cmd = praxis::JointCommand<N>;
using Blend = praxis::WeightBlend<N>;

// Joints 1 and 2 are praxis'; 0 and 3 stay the robot's.
constexpr std::array<bool, N> k_owned{false, true, true, false};
// 4 per second over steps of 1/16 s: a quarter per step, exact in binary.
constexpr double k_rate = 4.0;
constexpr praxis::Duration k_step = std::chrono::microseconds(62'500);
const praxis::TimePoint k_t0 = praxis::TimePoint{} + 100s;

Eigen::Index ix(std::size_t j) { return static_cast<Eigen::Index>(j); }

// Stiff position targets on every joint: q = base + j, kp 30.
Cmd stiff(double base) {
  Cmd c;
  for (std::size_t j = 0; j < N; ++j) {
    c.q[ix(j)] = base + static_cast<double>(j);
    c.kp[ix(j)] = 30.0;
    c.kd[ix(j)] = 1.0;
  }
  return c;
}

// praxis' safe state: kp 0 on every joint, other targets.
Cmd damping() {
  Cmd c;
  c.q.setConstant(-9.0);
  c.kd.setConstant(4.0);
  return c;
}

// A frame `out` must never equal: what step() would leave if it did not write.
Cmd sentinel() {
  Cmd c = stiff(77.0);
  c.mode.fill(JointMode::torque);
  return c;
}

// Whether `out` is `sent` on the owned joints and mode none on the others.
bool owned_slice_of(const Cmd& out, const Cmd& sent) {
  for (std::size_t j = 0; j < N; ++j) {
    if (!k_owned[j]) {
      if (out.mode[j] != JointMode::none) return false;
      continue;
    }
    const auto i = ix(j);
    if (out.mode[j] != sent.mode[j] || out.q[i] != sent.q[i] || out.kp[i] != sent.kp[i] || out.kd[i] != sent.kd[i] ||
        out.dq[i] != sent.dq[i] || out.tau_ff[i] != sent.tau_ff[i]) {
      return false;
    }
  }
  return true;
}

// Robot models' joint tables, for joints_named.
struct Joint {
  std::string_view name;
};
struct ArmBot {
  static constexpr std::size_t joint_count = 6;
  static constexpr std::array<Joint, 6> joints{{
      {"left_hip_pitch"},
      {"left_shoulder_pitch"},
      {"left_elbow"},
      {"waist_yaw"},
      {"right_wrist_roll"},
      {"Right_Shoulder_Roll"},
  }};
};

}  // namespace

TEST_CASE("weight blend: a command drives the owned joints by a gain or a velocity or torque mode",
          "[hardware][weight_blend]") {
  const Blend blend(k_owned, k_rate);
  CHECK(blend.owned() == k_owned);
  CHECK_FALSE(blend.drives(Cmd{}));    // position with kp 0 everywhere: damping
  CHECK_FALSE(blend.drives(damping()));
  CHECK(blend.drives(stiff(0.0)));

  // One owned joint with a gain is enough, the other owned one damped.
  Cmd one = damping();
  one.kp[2] = 0.5;
  CHECK(blend.drives(one));

  // Velocity and torque modes drive whatever kp says.
  for (const auto m : {JointMode::velocity, JointMode::torque}) {
    Cmd c = damping();
    c.mode[1] = m;
    INFO(praxis::to_string(m));
    CHECK(blend.drives(c));
  }
  // Disabled and uncovered joints do not drive, even with a gain.
  for (const auto m : {JointMode::disabled, JointMode::none}) {
    Cmd c = stiff(0.0);
    c.mode[1] = m;
    c.mode[2] = m;
    INFO(praxis::to_string(m));
    CHECK_FALSE(blend.drives(c));
  }
  // Joints praxis does not own never count, in any mode.
  Cmd theirs = damping();
  theirs.kp[0] = 50.0;
  theirs.mode[3] = JointMode::torque;
  CHECK_FALSE(blend.drives(theirs));
  // A negative kp is no stiffness.
  Cmd negative = damping();
  negative.kp[1] = -1.0;
  CHECK_FALSE(blend.drives(negative));
}

TEST_CASE("weight blend: nothing is sent before the first driving command", "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out = sentinel();
  CHECK_FALSE(blend.step(damping(), k_t0, out));
  Cmd theirs = damping();
  theirs.kp[0] = 50.0;  // driving only a joint praxis does not own
  CHECK_FALSE(blend.step(theirs, k_t0 + k_step, out));
  Cmd none;
  none.mode.fill(JointMode::none);
  CHECK_FALSE(blend.step(none, k_t0 + 2 * k_step, out));
  CHECK_FALSE(blend.holding());
  CHECK(blend.weight() == 0.0);
  CHECK(out.mode[0] == JointMode::torque);  // untouched: still the sentinel
  CHECK(out.q[1] == sentinel().q[1]);
}

TEST_CASE("weight blend: the weight rises at the rate to 1 while a command drives and the command is sent",
          "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out = sentinel();

  // The first driving frame is sent at weight 0: no time has passed for the weight to rise in.
  const Cmd first = stiff(1.0);
  REQUIRE(blend.step(first, k_t0, out));
  CHECK(blend.weight() == 0.0);
  CHECK(blend.holding());
  CHECK(owned_slice_of(out, first));
  CHECK(out.mode[0] == JointMode::none);  // never sent for the robot's joints
  CHECK(out.mode[3] == JointMode::none);

  // A quarter per step (4 per second for 1/16 s), each frame the newest command.
  for (int k = 1; k <= 4; ++k) {
    const Cmd c = stiff(1.0 + k);
    REQUIRE(blend.step(c, k_t0 + k * k_step, out));
    INFO("step " << k);
    CHECK(blend.weight() == 0.25 * k);
    CHECK(owned_slice_of(out, c));
  }
  // At 1 it stays.
  REQUIRE(blend.step(stiff(9.0), k_t0 + 5 * k_step, out));
  CHECK(blend.weight() == 1.0);
  REQUIRE(blend.step(stiff(9.0), k_t0 + 6 * k_step, out));
  CHECK(blend.weight() == 1.0);
  CHECK(blend.holding());
}

TEST_CASE("weight blend: let go the weight falls to 0 holding the last driven targets and then stops",
          "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out;
  for (int k = 0; k <= 4; ++k) REQUIRE(blend.step(stiff(2.0), k_t0 + k * k_step, out));
  const Cmd last = stiff(3.5);
  REQUIRE(blend.step(last, k_t0 + 5 * k_step, out));
  REQUIRE(blend.weight() == 1.0);

  // Damping: the weight falls a quarter per step, and the frames hold the last driven targets
  // (stiff, never limp), not the damping command's.
  for (int k = 1; k <= 3; ++k) {
    out = sentinel();
    REQUIRE(blend.step(damping(), k_t0 + (5 + k) * k_step, out));
    INFO("step " << k << " after letting go");
    CHECK(blend.weight() == 1.0 - 0.25 * k);
    CHECK(owned_slice_of(out, last));
    CHECK(blend.holding());
  }
  // The frame whose weight reaches 0 is still sent, and it is the last.
  out = sentinel();
  REQUIRE(blend.step(damping(), k_t0 + 9 * k_step, out));
  CHECK(blend.weight() == 0.0);
  CHECK(owned_slice_of(out, last));
  CHECK_FALSE(blend.holding());
  out = sentinel();
  CHECK_FALSE(blend.step(damping(), k_t0 + 10 * k_step, out));
  CHECK(out.q[1] == sentinel().q[1]);  // nothing written
  CHECK_FALSE(blend.step(damping(), k_t0 + 11 * k_step, out));
  CHECK(blend.weight() == 0.0);

  // No command for the owned joints at all lets go the same way.
  Blend other(k_owned, k_rate);
  REQUIRE(other.step(stiff(1.0), k_t0, out));
  REQUIRE(other.step(stiff(1.0), k_t0 + k_step, out));
  CHECK(other.weight() == 0.25);
  Cmd none;
  none.mode.fill(JointMode::none);
  REQUIRE(other.step(none, k_t0 + 2 * k_step, out));
  CHECK(other.weight() == 0.0);
  CHECK(owned_slice_of(out, stiff(1.0)));
  CHECK_FALSE(other.holding());
  CHECK_FALSE(other.step(none, k_t0 + 3 * k_step, out));
}

// praxis-guard's take-over: a blend that never drove resumes the dead controller's, at the weight
// given, holding the command given; damping then blends out from there, as after letting go.
TEST_CASE("weight blend: resume takes over at a weight holding a command, and damping blends out from there",
          "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out = sentinel();
  CHECK_FALSE(blend.step(damping(), k_t0, out));  // never driven: nothing to blend out of
  const Cmd held = stiff(5.0);
  blend.resume(held, 1.0, k_t0 + k_step);
  CHECK(blend.holding());
  CHECK(blend.weight() == 1.0);
  for (int k = 1; k <= 4; ++k) {
    out = sentinel();
    REQUIRE(blend.step(damping(), k_t0 + (1 + k) * k_step, out));
    INFO("step " << k << " after the take-over");
    CHECK(blend.weight() == 1.0 - 0.25 * k);
    CHECK(owned_slice_of(out, held));
  }
  CHECK_FALSE(blend.holding());
  CHECK_FALSE(blend.step(damping(), k_t0 + 6 * k_step, out));

  // A weight outside 0..1 is taken as its nearest end.
  Blend over(k_owned, k_rate);
  over.resume(held, 3.0, k_t0);
  CHECK(over.weight() == 1.0);
}

// What the guard resumes with: the newest measured pose of the owned joints, held with the model's
// gains; nothing when no state comes.
namespace weight_blend_measured_hold {
struct FourJoints {
  static constexpr std::size_t joint_count = N;
  static constexpr std::array<double, N> default_kp{10.0, 20.0, 30.0, 40.0};
  static constexpr std::array<double, N> default_kd{1.0, 2.0, 3.0, 4.0};
};
struct StateOnce {
  int reads = 0;
  bool has_state = true;
  bool read(praxis::RobotState<N>& s, praxis::TimePoint) {
    ++reads;
    if (!has_state || reads < 3) return false;  // the state comes on the third look
    for (std::size_t j = 0; j < N; ++j) s.q[ix(j)] = 0.1 * static_cast<double>(j + 1);
    return true;
  }
};
}  // namespace weight_blend_measured_hold

TEST_CASE("weight blend: measured_hold holds the owned joints where they are measured, with the model's gains",
          "[hardware][weight_blend]") {
  using namespace weight_blend_measured_hold;
  StateOnce robot;
  const auto hold = praxis::measured_hold<FourJoints>(robot, k_owned, 1s);
  REQUIRE(hold.has_value());
  CHECK(robot.reads == 3);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    if (!k_owned[j]) {
      CHECK(hold->mode[j] == JointMode::none);
      continue;
    }
    CHECK(hold->mode[j] == JointMode::position);
    CHECK(hold->q[ix(j)] == Approx(0.1 * static_cast<double>(j + 1)));
    CHECK(hold->kp[ix(j)] == FourJoints::default_kp[j]);
    CHECK(hold->kd[ix(j)] == FourJoints::default_kd[j]);
    CHECK(hold->dq[ix(j)] == 0.0);
  }
  StateOnce silent;
  silent.has_state = false;
  CHECK_FALSE(praxis::measured_hold<FourJoints>(silent, k_owned, 20ms).has_value());
}

TEST_CASE("weight blend: driving again while the weight falls rises from where it was", "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out;
  for (int k = 0; k <= 3; ++k) REQUIRE(blend.step(stiff(1.0), k_t0 + k * k_step, out));
  REQUIRE(blend.weight() == 0.75);
  REQUIRE(blend.step(damping(), k_t0 + 4 * k_step, out));
  CHECK(blend.weight() == 0.5);
  const Cmd again = stiff(6.0);
  REQUIRE(blend.step(again, k_t0 + 5 * k_step, out));
  CHECK(blend.weight() == 0.75);
  CHECK(owned_slice_of(out, again));

  // After a full let-go a new driving command starts over at weight 0.
  for (int k = 6; k <= 8; ++k) REQUIRE(blend.step(damping(), k_t0 + k * k_step, out));
  REQUIRE(blend.weight() == 0.0);
  REQUIRE_FALSE(blend.holding());
  REQUIRE(blend.step(again, k_t0 + 20 * k_step, out));  // a long pause: no weight gained from it
  CHECK(blend.weight() == 0.0);
  CHECK(blend.holding());
  REQUIRE(blend.step(again, k_t0 + 21 * k_step, out));
  CHECK(blend.weight() == 0.25);
}

TEST_CASE("weight blend: the time step counts at most 0.1 s and never backwards", "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd out;
  REQUIRE(blend.step(stiff(1.0), k_t0, out));
  // A second between frames (a stalled writer) raises the weight by rate * 0.1, not rate * 1.
  REQUIRE(blend.step(stiff(1.0), k_t0 + 1s, out));
  CHECK(blend.weight() == Approx(k_rate * 0.1));
  // A frame stamped earlier than the last one changes nothing.
  REQUIRE(blend.step(stiff(1.0), k_t0 + 500ms, out));
  CHECK(blend.weight() == Approx(k_rate * 0.1));
  // The same time twice changes nothing.
  REQUIRE(blend.step(stiff(1.0), k_t0 + 500ms, out));
  CHECK(blend.weight() == Approx(k_rate * 0.1));
  // Time is measured from the frame before, even a backwards one: 1/16 s after it.
  REQUIRE(blend.step(stiff(1.0), k_t0 + 500ms + k_step, out));
  CHECK(blend.weight() == Approx(k_rate * 0.1 + 0.25));

  // Falling is clamped the same way.
  REQUIRE(blend.step(damping(), k_t0 + 10s, out));
  CHECK(blend.weight() == Approx(k_rate * 0.1 + 0.25 - k_rate * 0.1));
}

TEST_CASE("weight blend: the frame carries what the driving command says of the owned joints only",
          "[hardware][weight_blend]") {
  Blend blend(k_owned, k_rate);
  Cmd c = stiff(1.0);
  c.mode[1] = JointMode::velocity;
  c.dq[1] = 0.7;
  c.mode[2] = JointMode::none;  // one owned joint left out of this command
  c.mode[0] = JointMode::torque;  // the robot's joint: never sent, whatever it says
  c.tau_ff[0] = 5.0;
  Cmd out = sentinel();
  REQUIRE(blend.step(c, k_t0, out));
  CHECK(out.mode[0] == JointMode::none);
  CHECK(out.mode[1] == JointMode::velocity);
  CHECK(out.dq[1] == 0.7);
  CHECK(out.mode[2] == JointMode::none);
  CHECK(out.mode[3] == JointMode::none);
  // The command itself is unchanged.
  CHECK(c.mode[0] == JointMode::torque);
}

TEST_CASE("weight blend: the weight read from another thread stays in 0 to 1 and only rises while driven",
          "[hardware][weight_blend]") {
  Blend blend(k_owned, 2.0);
  std::atomic<bool> done{false};
  bool in_range = true, monotonic = true;
  std::thread reader([&] {
    double last = 0.0;
    while (!done.load(std::memory_order_acquire)) {
      const double w = blend.weight();
      in_range = in_range && w >= 0.0 && w <= 1.0;
      monotonic = monotonic && w >= last;
      last = w;
    }
  });
  Cmd out;
  bool all_sent = true;  // no REQUIRE while the reader runs: it must be joined
  for (int k = 0; k < 2000; ++k) all_sent = blend.step(stiff(1.0), k_t0 + k * 1ms, out) && all_sent;
  done.store(true, std::memory_order_release);
  reader.join();
  CHECK(all_sent);
  CHECK(in_range);
  CHECK(monotonic);
  CHECK(blend.weight() == 1.0);
}

TEST_CASE("weight blend: joints_named marks the joints whose names contain any of the parts",
          "[hardware][weight_blend]") {
  constexpr auto arms = praxis::joints_named<ArmBot>(std::array<std::string_view, 3>{"shoulder", "elbow", "wrist"});
  STATIC_REQUIRE(arms.size() == ArmBot::joint_count);
  CHECK(arms == std::array<bool, 6>{false, true, true, false, true, false});  // names are case-sensitive

  constexpr auto capital = praxis::joints_named<ArmBot>(std::array<std::string_view, 1>{"Shoulder"});
  CHECK(capital == std::array<bool, 6>{false, false, false, false, false, true});

  // A part matching in the middle of a name, and one matching several joints.
  constexpr auto left = praxis::joints_named<ArmBot>(std::array<std::string_view, 1>{"left_"});
  CHECK(left == std::array<bool, 6>{true, true, true, false, false, false});
  constexpr auto pitch = praxis::joints_named<ArmBot>(std::array<std::string_view, 1>{"pitch"});
  CHECK(pitch == std::array<bool, 6>{true, true, false, false, false, false});

  // No part, or parts no name has: nothing.
  constexpr auto nothing = praxis::joints_named<ArmBot>(std::array<std::string_view, 0>{});
  CHECK(nothing == std::array<bool, 6>{});
  constexpr auto tail = praxis::joints_named<ArmBot>(std::array<std::string_view, 2>{"tail", "ankle"});
  CHECK(tail == std::array<bool, 6>{});
}

}  // namespace weight_blend_test
