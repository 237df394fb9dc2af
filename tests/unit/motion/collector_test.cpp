// MotorCommandsCollector, the only command guard: it passes on the selected motion's command and
// makes it safe — a non-finite command falls back to damping (or, on a robot that balances itself,
// to a hold of the measured pose); position, velocity, torque and gains are clamped to the model's
// and the options' limits; a stiff joint's target moves at most max_target_rate * dt from the last
// actuated one; a joint in a mode the backend cannot send is made safe; joints the command leaves
// to the robot (JointMode::none) stay left. Driven in a Pipeline as the runtime drives it, with
// previous<ActuatedCommandPort> fed back from an Actuate node, on the Go2's joint limits.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>
#include <utility>

#include "praxis/graph.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/registry.hpp"

namespace collector_test {

namespace m = praxis::motion;
using m::MotionType;
using praxis::JointMode;

namespace {

using Model = praxis::unitree::Go2;
constexpr std::size_t N = Model::joint_count;
using Cmd = praxis::JointCommand<N>;
using Vec = praxis::JointVector<N>;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();

Eigen::Index ix(std::size_t j) { return static_cast<Eigen::Index>(j); }

Vec vec(const std::array<double, N>& a) {
  Vec v;
  for (std::size_t j = 0; j < N; ++j) v[ix(j)] = a[j];
  return v;
}

// The measured pose (lying down) and the commanded one (standing) differ on every joint, and both
// are inside the Go2's limits.
const Vec k_measured = vec(Model::rest_pose);
const Vec k_stand = vec(Model::stand_pose);
// Gains that are neither the model's (60 / 5) nor the damping gain, so each source is told apart.
constexpr double k_kp = 80.0;
constexpr double k_kd = 3.0;
constexpr double k_damping_kd = 3.5;

// A stiff stand: every joint in position mode at the stand pose, within every limit.
Cmd stiff_stand() {
  Cmd c;
  praxis::set_position_command(c, k_stand, k_kp, k_kd);
  return c;
}

// Each motion's body command, settable per test.
template <MotionType T>
struct Body {
  static constexpr std::string_view name = m::to_string(T);
  Cmd cmd = stiff_stand();
  void cycle(praxis::out<m::BodyCommandPort<T, N>> out) const { out.template get<m::BodyCommandPort<T, N>>() = cmd; }
};

// The selection, the measured state and the cycle's time.
struct Inputs {
  MotionType current = MotionType::stand;
  praxis::RobotState<N> state{};
  praxis::TimePoint now{};
  void cycle(praxis::out<m::MotionSelectionPort, m::StatePort<N>, praxis::CyclePort, m::HeadCommandPort> out) const {
    out.get<m::MotionSelectionPort>().current = current;
    out.get<m::StatePort<N>>() = state;
    out.get<praxis::CyclePort>().now = now;
    out.get<m::HeadCommandPort>() = {};
  }
};

// What the backend actuated: the collector reads it back next cycle as previous<ActuatedCommandPort>.
struct Actuate {
  void cycle(praxis::in<m::MotorCommandPort<N>> in, praxis::out<m::ActuatedCommandPort<N>> out) const {
    out.get<m::ActuatedCommandPort<N>>() = in.get<m::MotorCommandPort<N>>();
  }
};

template <class Collector, class Seq>
struct graph_for;
template <class Collector, std::size_t... I>
struct graph_for<Collector, std::index_sequence<I...>> {
  using type = praxis::Pipeline<Collector, Inputs, Actuate, Body<static_cast<MotionType>(I)>...>;
};

// The collector in its pipeline, one Body node per motion of the registry.
template <praxis::JointModeSet Supported = praxis::k_basic_joint_modes>
struct Rig {
  using Collector = m::MotorCommandsCollector<Model, Supported>;
  using Graph = typename graph_for<Collector, std::make_index_sequence<m::k_motion_types>>::type;
  static constexpr auto t0 = praxis::TimePoint{} + std::chrono::seconds(100);

  Graph pipeline;

  Rig() {
    inputs().state.q = k_measured;
    options().damping_kd = k_damping_kd;
  }

  Inputs& inputs() { return pipeline.template node<Inputs>(); }
  m::CollectorOptions& options() { return pipeline.template node<Collector>().options; }
  template <MotionType T>
  Cmd& body() {
    return pipeline.template node<Body<T>>().cmd;
  }
  // The selected motion's command (stand unless a test selects another).
  Cmd& selected() { return command_of(inputs().current); }
  Cmd& command_of(MotionType t) { return command_of(t, std::make_index_sequence<m::k_motion_types>{}); }

  // One cycle at t0 + seconds; the guarded command.
  const Cmd& run(double seconds) {
    inputs().now = t0 + praxis::from_seconds(seconds);
    pipeline.cycle();
    return out();
  }
  const Cmd& out() const { return pipeline.template get<m::MotorCommandPort<N>>(); }
  const m::CollectorReport& report() const { return pipeline.template get<m::CollectorReportPort>(); }

 private:
  template <std::size_t... I>
  Cmd& command_of(MotionType t, std::index_sequence<I...>) {
    Cmd* found = nullptr;
    ((static_cast<MotionType>(I) == t ? (found = &body<static_cast<MotionType>(I)>(), 0) : 0), ...);
    return *found;
  }
};

// Whether two commands are equal on every field of joint j.
bool same_joint(const Cmd& a, const Cmd& b, std::size_t j) {
  const auto i = ix(j);
  return a.mode[j] == b.mode[j] && a.q[i] == b.q[i] && a.dq[i] == b.dq[i] && a.kp[i] == b.kp[i] &&
         a.kd[i] == b.kd[i] && a.tau_ff[i] == b.tau_ff[i];
}

bool same(const Cmd& a, const Cmd& b) {
  for (std::size_t j = 0; j < N; ++j) {
    if (!same_joint(a, b, j)) return false;
  }
  return true;
}

// Damping at the measured position: kp 0, the damping gain, no velocity or torque.
void check_damped(const Cmd& c, std::size_t j, double kd) {
  INFO("joint " << j << " (" << Model::joints[j].name << ")");
  const auto i = ix(j);
  CHECK(c.mode[j] == JointMode::position);
  CHECK(c.q[i] == k_measured[i]);
  CHECK(c.dq[i] == 0.0);
  CHECK(c.kp[i] == 0.0);
  CHECK(c.kd[i] == kd);
  CHECK(c.tau_ff[i] == 0.0);
}

// A hold of the measured position with the given gains.
void check_held(const Cmd& c, std::size_t j, double kp, double kd) {
  INFO("joint " << j << " (" << Model::joints[j].name << ")");
  const auto i = ix(j);
  CHECK(c.mode[j] == JointMode::position);
  CHECK(c.q[i] == k_measured[i]);
  CHECK(c.dq[i] == 0.0);
  CHECK(c.kp[i] == kp);
  CHECK(c.kd[i] == kd);
  CHECK(c.tau_ff[i] == 0.0);
}

void check_clean(const m::CollectorReport& r) {
  CHECK_FALSE(r.fallback_to_damping);
  CHECK(r.clamped_joints == 0);
  CHECK(r.rate_limited_joints == 0);
  CHECK(r.unsupported_modes == 0);
}

}  // namespace

TEST_CASE("collector: a command within every limit passes unchanged and the report stays clean",
          "[motion][collector]") {
  Rig<> rig;
  const Cmd expected = stiff_stand();
  CHECK(same(rig.run(0.0), expected));
  check_clean(rig.report());
  CHECK(same(rig.run(0.002), expected));  // the same target again: nothing to limit
  check_clean(rig.report());
}

TEST_CASE("collector: only the selected motion's command is passed on and guarded", "[motion][collector]") {
  Rig<> rig;
  // Every motion's command tells whose it is: hip target and damping gain from its index.
  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    Cmd& c = rig.command_of(static_cast<MotionType>(t));
    c = stiff_stand();
    c.q[0] = 0.05 * static_cast<double>(t);
    c.kd.setConstant(1.0 + static_cast<double>(t));
  }
  // Two motions carry what the guard would act on: a NaN (damping) and a target past the limit
  // (user_control). Neither may matter while another motion is selected.
  rig.body<MotionType::damping>().q[3] = k_nan;
  rig.body<MotionType::user_control>().q[0] = 3.0;

  for (std::size_t t = 0; t < m::k_motion_types; ++t) {
    const auto type = static_cast<MotionType>(t);
    if (type == MotionType::damping || type == MotionType::user_control) continue;
    INFO(m::to_string(type));
    rig.pipeline.reset();  // no rate limit from the last motion's targets
    rig.inputs().current = type;
    const Cmd& out = rig.run(0.0);
    CHECK(same(out, rig.command_of(type)));
    CHECK(out.q[0] == 0.05 * static_cast<double>(t));
    CHECK(out.kd[5] == 1.0 + static_cast<double>(t));
    check_clean(rig.report());
  }

  // Selected, each is guarded.
  rig.pipeline.reset();
  rig.inputs().current = MotionType::damping;
  rig.run(0.0);
  CHECK(rig.report().fallback_to_damping);
  CHECK(rig.out().kd[5] == k_damping_kd);

  rig.pipeline.reset();
  rig.inputs().current = MotionType::user_control;
  rig.run(0.0);
  CHECK_FALSE(rig.report().fallback_to_damping);
  CHECK(rig.report().clamped_joints == 1);
  CHECK(rig.out().q[0] == Model::joints[0].upper);
  CHECK(rig.out().kd[5] == 1.0 + static_cast<double>(MotionType::user_control));
}

TEST_CASE("collector: a non-finite value anywhere in the command falls back to damping at the measured pose",
          "[motion][collector]") {
  const int field = GENERATE(0, 1, 2, 3, 4);  // q, dq, kp, kd, tau_ff
  // By index: given an lvalue first (k_nan), Catch2 v2's GENERATE stores references, which dangle.
  const double bad = std::array{k_nan, k_inf, -k_inf}[GENERATE(std::size_t{0}, std::size_t{1}, std::size_t{2})];
  const std::size_t joint = GENERATE(std::size_t{0}, std::size_t{4}, N - 1);
  INFO("field " << field << " value " << bad << " joint " << joint);

  Rig<> rig;
  // A first, stiff cycle: the fallback must not keep that command's targets or gains.
  rig.run(0.0);
  check_clean(rig.report());

  Cmd& c = rig.selected();
  const std::array<Vec*, 5> fields{&c.q, &c.dq, &c.kp, &c.kd, &c.tau_ff};
  (*fields[static_cast<std::size_t>(field)])[ix(joint)] = bad;
  const Cmd& out = rig.run(0.002);
  CHECK(rig.report().fallback_to_damping);
  CHECK(out.all_finite());
  for (std::size_t j = 0; j < N; ++j) check_damped(out, j, k_damping_kd);
  // Damping at the measured pose is within every limit and has no stiff target to rate-limit.
  CHECK(rig.report().clamped_joints == 0);
  CHECK(rig.report().rate_limited_joints == 0);
  CHECK(rig.report().unsupported_modes == 0);

  // The damping gain is the option's.
  rig.options().damping_kd = 7.25;
  rig.run(0.004);
  CHECK(rig.report().fallback_to_damping);
  CHECK(rig.out().kd[ix(joint)] == 7.25);

  // The report is this cycle's: a finite command again is passed on with no fallback.
  c = stiff_stand();
  const Cmd& again = rig.run(0.006);
  CHECK_FALSE(rig.report().fallback_to_damping);
  CHECK(same(again, c));
}

TEST_CASE("collector: on a hand-back robot a non-finite command holds the measured pose with the model's gains",
          "[motion][collector]") {
  Rig<> rig;
  rig.options().safe_state = praxis::SafeState::hand_back;

  SECTION("before any stiff command: every joint held with the model's gains") {
    rig.selected().kd[2] = k_nan;
    const Cmd& out = rig.run(0.0);
    CHECK(rig.report().fallback_to_damping);
    for (std::size_t j = 0; j < N; ++j) check_held(out, j, Model::default_kp[j], Model::default_kd[j]);
    CHECK(rig.report().clamped_joints == 0);
  }

  SECTION("after a partial stiff command: its joints held with its gains and the rest left to the robot") {
    Cmd& c = rig.selected();
    for (std::size_t j = N / 2; j < N; ++j) c.mode[j] = JointMode::none;
    rig.run(0.0);
    check_clean(rig.report());

    c.tau_ff[1] = -k_inf;
    // A second later: the rate limit (10 rad/s) cannot bind, so only the fallback shapes the command.
    const Cmd& out = rig.run(1.0);
    CHECK(rig.report().fallback_to_damping);
    for (std::size_t j = 0; j < N / 2; ++j) check_held(out, j, k_kp, k_kd);
    for (std::size_t j = N / 2; j < N; ++j) {
      INFO("joint " << j);
      CHECK(out.mode[j] == JointMode::none);
    }
    CHECK(rig.report().unsupported_modes == 0);
  }
}

TEST_CASE("collector: position velocity torque and gain limits clamp and count each joint once",
          "[motion][collector]") {
  Rig<> rig;
  rig.options().max_kp = 100.0;
  rig.options().max_kd = 10.0;
  Cmd& c = rig.selected();
  c.q[0] = 2.0;                  // hip above +1.0472
  c.q[1] = -3.0;                 // front thigh below -1.5708
  c.dq[2] = 20.0;                // calf faster than 15.70
  c.dq[3] = -40.0;               // hip faster than 30.1 backwards
  c.tau_ff[4] = 50.0;            // thigh above 23.7 N m
  c.tau_ff[5] = -60.0;           // calf below -45.43 N m
  c.kp[6] = 150.0;               // above max_kp
  c.kp[7] = -5.0;                // negative stiffness
  c.kd[8] = 12.0;                // above max_kd
  c.kd[9] = -1.0;                // negative damping
  c.q[10] = 5.0;                 // rear thigh above 4.5379 ...
  c.tau_ff[10] = 30.0;           // ... and above 23.7 N m: one joint, counted once
  c.q[11] = Model::calf_hi;      // exactly at the limit: not clamped
  c.dq[11] = -Model::joints[11].velocity;
  c.tau_ff[11] = Model::joints[11].effort;
  const Cmd sent = c;

  const Cmd& out = rig.run(0.0);
  CHECK(rig.report().clamped_joints == 11);
  CHECK_FALSE(rig.report().fallback_to_damping);
  CHECK(rig.report().rate_limited_joints == 0);
  CHECK(rig.report().unsupported_modes == 0);

  CHECK(out.q[0] == Model::joints[0].upper);
  CHECK(out.q[1] == Model::joints[1].lower);
  CHECK(out.dq[2] == Model::joints[2].velocity);
  CHECK(out.dq[3] == -Model::joints[3].velocity);
  CHECK(out.tau_ff[4] == Model::joints[4].effort);
  CHECK(out.tau_ff[5] == -Model::joints[5].effort);
  CHECK(out.kp[6] == 100.0);
  CHECK(out.kp[7] == 0.0);
  CHECK(out.kd[8] == 10.0);
  CHECK(out.kd[9] == 0.0);
  CHECK(out.q[10] == Model::joints[10].upper);
  CHECK(out.tau_ff[10] == Model::joints[10].effort);
  CHECK(same_joint(out, sent, 11));
  // Only the offending field changes: every other field of each joint is as sent.
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    const auto i = ix(j);
    CHECK(out.mode[j] == sent.mode[j]);
    if (j != 0 && j != 1 && j != 10) CHECK(out.q[i] == sent.q[i]);
    if (j != 2 && j != 3) CHECK(out.dq[i] == sent.dq[i]);
    if (j != 6 && j != 7) CHECK(out.kp[i] == sent.kp[i]);
    if (j != 8 && j != 9) CHECK(out.kd[i] == sent.kd[i]);
    if (j != 4 && j != 5 && j != 10) CHECK(out.tau_ff[i] == sent.tau_ff[i]);
  }

  // The count is this cycle's: a command within the limits clears it (a second later, so the rate
  // limit cannot bind either).
  c = stiff_stand();
  CHECK(same(rig.run(1.0), c));
  check_clean(rig.report());
}

TEST_CASE("collector: the report names the first clamped joints, their field, the value asked and the value sent",
          "[motion][collector]") {
  using Field = m::ClampNote::Field;
  Rig<> rig;
  rig.options().max_kp = 100.0;
  Cmd& c = rig.selected();
  c.q[0] = 2.0;      // hip above +1.0472
  c.dq[2] = 20.0;    // calf faster than 15.70
  c.kp[6] = 150.0;   // above max_kp
  c.tau_ff[9] = 30;  // hip above 23.7 N m
  c.q[11] = 5.0;     // calf above its limit: a fifth joint, counted, not noted
  rig.run(0.0);
  const auto& r = rig.report();
  CHECK(r.clamped_joints == 5);
  const auto& n = r.clamps;
  CHECK(n[0].joint == Model::joints[0].name);
  CHECK(n[0].field == Field::q);
  CHECK(n[0].value == 2.0);
  CHECK(n[0].limit == Model::joints[0].upper);
  CHECK(n[1].joint == Model::joints[2].name);
  CHECK(n[1].field == Field::dq);
  CHECK(n[1].limit == Model::joints[2].velocity);
  CHECK(n[2].joint == Model::joints[6].name);
  CHECK(n[2].field == Field::kp);
  CHECK(n[2].value == 150.0);
  CHECK(n[2].limit == 100.0);
  CHECK(n[3].joint == Model::joints[9].name);
  CHECK(n[3].field == Field::tau);
}

// A robot lying with a joint pressed just past its limit is damped at its measured position every
// cycle: the target moves nothing without stiffness, so its clamp is no news.
TEST_CASE("collector: a target without stiffness past a limit is clamped but not counted", "[motion][collector]") {
  Rig<> rig;
  Cmd& c = rig.selected();
  c.q[0] = Model::joints[0].upper + 0.01;
  c.kp[0] = 0.0;
  const Cmd& out = rig.run(0.0);
  CHECK(out.q[0] == Model::joints[0].upper);
  CHECK(rig.report().clamped_joints == 0);
  c.kp[0] = 20.0;  // with stiffness it is news
  rig.run(1.0);
  CHECK(rig.report().clamped_joints == 1);
}

TEST_CASE("collector: a stiff target moves at most max_target_rate times dt from the last actuated one",
          "[motion][collector]") {
  Rig<> rig;
  rig.options().max_target_rate = 5.0;  // rad/s
  rig.run(0.0);                         // stiff at the stand pose
  check_clean(rig.report());

  Cmd& c = rig.selected();
  c.q[0] = k_stand[0] + 0.3;  // a jump up
  c.q[1] = k_stand[1] - 0.3;  // a jump down
  c.q[2] = k_stand[2] + 0.04;  // within 10 ms at 5 rad/s
  c.kp[3] = 0.0;               // no stiffness: not limited
  c.q[3] = k_stand[3] + 0.3;
  c.mode[4] = JointMode::disabled;  // not a position target: not limited
  c.q[4] = k_stand[4] + 0.3;

  // 10 ms: a step of 0.05 rad.
  const Cmd& out = rig.run(0.010);
  CHECK(rig.report().rate_limited_joints == 2);
  CHECK(rig.report().clamped_joints == 0);
  CHECK(out.q[0] == Approx(k_stand[0] + 0.05).margin(1e-12));
  CHECK(out.q[1] == Approx(k_stand[1] - 0.05).margin(1e-12));
  CHECK(out.q[2] == c.q[2]);
  CHECK(out.q[3] == c.q[3]);
  CHECK(out.q[4] == c.q[4]);
  CHECK(out.mode[4] == JointMode::disabled);
  for (std::size_t j = 5; j < N; ++j) CHECK(same_joint(out, c, j));
  // Only the target is limited, not the gains.
  CHECK(out.kp[0] == k_kp);
  CHECK(out.kd[1] == k_kd);

  // 20 ms later: a step of 0.1 rad from what was actuated, not from the command.
  rig.run(0.030);
  CHECK(rig.report().rate_limited_joints == 2);
  CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.15).margin(1e-12));
  CHECK(rig.out().q[1] == Approx(k_stand[1] - 0.15).margin(1e-12));

  rig.run(0.050);
  CHECK(rig.report().rate_limited_joints == 2);
  CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.25).margin(1e-12));

  // The last 0.05 rad fits into a 0.1 rad step: the target is reached and nothing is limited.
  rig.run(0.070);
  CHECK(rig.report().rate_limited_joints == 0);
  CHECK(rig.out().q[0] == c.q[0]);
  CHECK(rig.out().q[1] == c.q[1]);

  // Two cycles at the same time: dt is 0, so a new stiff target does not move at all.
  c.q[0] = k_stand[0];
  rig.run(0.070);
  CHECK(rig.report().rate_limited_joints == 1);
  CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.3).margin(1e-12));
}

// A trained policy's targets step at every inference, as its authors send them (USER_CTRL whose
// controller says limits_target_rate() == false): the rate limit spares CTRL's targets, and only
// CTRL's; the joint limits still bound them.
TEST_CASE("collector: with limit_user_control_rate off, USER_CTRL's targets step and other motions stay limited",
          "[motion][collector]") {
  Rig<> rig;
  rig.options().max_target_rate = 5.0;  // rad/s: 0.05 rad in 10 ms
  rig.options().limit_user_control_rate = false;
  rig.inputs().current = MotionType::user_control;
  rig.command_of(MotionType::user_control) = rig.command_of(MotionType::stand);
  rig.run(0.0);
  check_clean(rig.report());

  Cmd& c = rig.selected();
  c.q[0] = k_stand[0] + 0.3;                    // a step, sent as it is
  c.q[1] = Model::joints[1].upper + 0.2;        // past the limit: clamped all the same
  const Cmd& out = rig.run(0.010);
  CHECK(out.q[0] == c.q[0]);
  CHECK(out.q[1] == Model::joints[1].upper);
  CHECK(rig.report().rate_limited_joints == 0);
  CHECK(rig.report().clamped_joints == 1);

  // The same step asked by STAND is limited: the option is the user's controller's only.
  rig.inputs().current = MotionType::stand;
  Cmd& stand = rig.selected();
  stand.q[0] = out.q[0] - 0.3;
  rig.run(0.020);
  CHECK(rig.report().rate_limited_joints >= 1);
  CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.3 - 0.05).margin(1e-12));

  SECTION("on (the default), USER_CTRL's step is limited as any other") {
    rig.options().limit_user_control_rate = true;
    rig.inputs().current = MotionType::user_control;
    c.q[0] = k_stand[0] + 0.3;
    rig.run(0.030);
    CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.3).margin(1e-12));  // 0.05 back up: where it was
    c.q[0] = k_stand[0] - 0.3;
    rig.run(0.040);
    CHECK(rig.report().rate_limited_joints >= 1);
    CHECK(rig.out().q[0] == Approx(k_stand[0] + 0.25).margin(1e-12));
  }
}

TEST_CASE("collector: the rate limit does not apply to the first cycle after a reset", "[motion][collector]") {
  Rig<> rig;
  rig.run(0.0);  // stiff at the stand pose: last cycle's actuated command
  Cmd& c = rig.selected();
  c.q[0] = k_stand[0] + 0.3;

  SECTION("without a reset the jump is held (dt is 0)") {
    rig.run(0.0);
    CHECK(rig.report().rate_limited_joints == 1);
    CHECK(rig.out().q[0] == k_stand[0]);
  }
  SECTION("after the collector's reset the first target is taken as it is") {
    // Only the collector is reset: last cycle's stiff actuated command is still what it reads.
    rig.pipeline.template node<Rig<>::Collector>().reset();
    rig.run(0.0);
    CHECK(rig.report().rate_limited_joints == 0);
    CHECK(rig.out().q[0] == c.q[0]);
    // And from there on it applies again.
    c.q[0] = k_stand[0];
    rig.run(0.0);
    CHECK(rig.report().rate_limited_joints == 1);
    CHECK(rig.out().q[0] == k_stand[0] + 0.3);
  }
}

TEST_CASE("collector: a joint in a mode the backend cannot send is damped and counted", "[motion][collector]") {
  SECTION("position and disabled only (the default): velocity and torque are replaced") {
    Rig<> rig;
    Cmd& c = rig.selected();
    c.mode[2] = JointMode::velocity;
    c.kp[2] = 0.0;
    c.dq[2] = 1.0;
    c.mode[5] = JointMode::torque;
    c.tau_ff[5] = 4.0;
    c.mode[8] = JointMode::disabled;  // supported: passed on
    const Cmd sent = c;
    const Cmd& out = rig.run(0.0);
    CHECK(rig.report().unsupported_modes == 2);
    CHECK_FALSE(rig.report().fallback_to_damping);
    CHECK(rig.report().clamped_joints == 0);
    check_damped(out, 2, k_damping_kd);
    check_damped(out, 5, k_damping_kd);
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << j);
      if (j != 2 && j != 5) CHECK(same_joint(out, sent, j));
    }
    CHECK(out.mode[8] == JointMode::disabled);
  }

  SECTION("a backend with velocity but without disabled: torque and disabled are replaced") {
    Rig<praxis::JointModeSet{JointMode::position, JointMode::velocity}> rig;
    Cmd& c = rig.selected();
    c.mode[2] = JointMode::velocity;
    c.kp[2] = 0.0;
    c.dq[2] = 1.0;
    c.mode[5] = JointMode::torque;
    c.tau_ff[5] = 4.0;
    c.mode[8] = JointMode::disabled;
    const Cmd sent = c;
    const Cmd& out = rig.run(0.0);
    CHECK(rig.report().unsupported_modes == 2);
    CHECK(same_joint(out, sent, 2));
    CHECK(out.mode[2] == JointMode::velocity);
    check_damped(out, 5, k_damping_kd);
    check_damped(out, 8, k_damping_kd);
  }

  SECTION("on a hand-back robot the joint is held at the measured position with the model's gains") {
    Rig<> rig;
    rig.options().safe_state = praxis::SafeState::hand_back;
    Cmd& c = rig.selected();
    c.mode[2] = JointMode::velocity;
    c.dq[2] = 1.0;  // kp stays 80: the hold must not take the unsupported command's gains
    c.mode[5] = JointMode::torque;
    c.tau_ff[5] = 4.0;
    const Cmd sent = c;
    const Cmd& out = rig.run(0.0);
    CHECK(rig.report().unsupported_modes == 2);
    CHECK_FALSE(rig.report().fallback_to_damping);
    check_held(out, 2, Model::default_kp[2], Model::default_kd[2]);
    check_held(out, 5, Model::default_kp[5], Model::default_kd[5]);
    for (std::size_t j = 0; j < N; ++j) {
      INFO("joint " << j);
      if (j != 2 && j != 5) CHECK(same_joint(out, sent, j));
    }
  }
}

TEST_CASE("collector: joints a partial command leaves to the robot stay none", "[motion][collector]") {
  // A backend that sends position only: none is not a mode it sends, so it is never replaced.
  Rig<praxis::JointModeSet{JointMode::position}> rig;
  Cmd& c = rig.selected();
  for (std::size_t j = 0; j < N; j += 2) {
    c.mode[j] = JointMode::none;
    c.kp[ix(j)] = 0.0;
    c.kd[ix(j)] = 0.0;
  }
  const Cmd sent = c;
  const Cmd& out = rig.run(0.0);
  check_clean(rig.report());
  CHECK(out.covers_any());
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << j);
    CHECK(out.mode[j] == (j % 2 == 0 ? JointMode::none : JointMode::position));
    CHECK(same_joint(out, sent, j));
  }
  // The next cycle too, and the covered joints are still rate-limited as usual.
  c.q[1] = k_stand[1] + 0.3;
  const Cmd& next = rig.run(0.002);
  CHECK(rig.report().unsupported_modes == 0);
  CHECK(rig.report().rate_limited_joints == 1);
  for (std::size_t j = 0; j < N; j += 2) CHECK(next.mode[j] == JointMode::none);
}

TEST_CASE("collector: the hand-back fallback right after a stiff command holds the measured pose, not a rate-limited "
          "step toward it", "[motion][collector]") {
  Rig<> rig;
  rig.options().safe_state = praxis::SafeState::hand_back;
  rig.run(0.0);  // a stiff stand: its targets are far from the measured pose
  check_clean(rig.report());
  rig.selected().q[3] = k_nan;
  const Cmd& out = rig.run(0.002);  // one period later: a rate limit would move the targets 20 mrad
  CHECK(rig.report().fallback_to_damping);
  CHECK(rig.report().rate_limited_joints == 0);
  for (std::size_t j = 0; j < N; ++j) check_held(out, j, k_kp, k_kd);
}

TEST_CASE("collector: what a partial command leaves to the robot is neither clamped nor counted, and a non-finite "
          "value there is zeroed without a fallback", "[motion][collector]") {
  Rig<> rig;
  Cmd& c = rig.selected();
  const std::size_t left = 2;
  c.mode[left] = JointMode::none;
  c.q[ix(left)] = Model::joints[left].upper + 5.0;  // out of range, but never sent
  c.kp[ix(left)] = 1e6;
  c.tau_ff[ix(left)] = k_nan;
  const Cmd& out = rig.run(0.0);
  check_clean(rig.report());
  CHECK(out.mode[left] == JointMode::none);
  CHECK(out.q[ix(left)] == Model::joints[left].upper + 5.0);
  CHECK(out.tau_ff[ix(left)] == 0.0);
  for (std::size_t j = 0; j < N; ++j) {
    if (j == left) continue;
    INFO("joint " << j);
    CHECK(same_joint(out, c, j));  // the covered joints as commanded: no fallback
  }
}

}  // namespace collector_test
