// The fault soak (issue #13): RobotController on a mock G1 for PRAXIS_SOAK_CYCLES cycles (default
// 1,000,000) in simulated time, with fault episodes of every kind chosen by a seeded RNG
// (PRAXIS_SOAK_SEED; printed). Between faults a scripted operator brings the robot back through
// DAMPING -> STAND -> CTRL, and each fault starts in a randomly chosen state, so faults hit every
// state. Required: no crash, no heap allocation on the control thread over the whole loop after
// warm-up, every command the backend received passed the guard, every fault ended in the documented
// state within the documented bound, and every kind was injected, detected and damped often enough
// that none of this can pass vacuously.
//
// The documented outcomes (docs/safety.md) the soak holds the controller to: a dropped, delayed,
// frozen or CRC-rejected stream is stale after stale_timeout, NaN is an invalid state, an offline
// joint is a faulted joint: DAMPING from any state. A tilt damps only in CTRL; STAND and DAMPING keep
// their state. An RPC timeout costs no control cycle: the operator's stop (L2 + B) damps the joints
// in the cycle it is seen while the robot's mode request for it times out. An offline joint is the
// health flag a backend reports; the mock's physics keeps the joint powered (it is damped anyway).
//
// The states travel through the real Unitree codec (encode_state, CRC, decode_state) in process,
// so a bad-CRC fault is a frame the decoder itself rejects. The mock's own fault windows are not
// used: they are lists that grow with every fault scheduled (allocations, and a scan per
// publication that grows with the run); the faults are applied here, on the way out of the mock.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../support/alloc_counter.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/codec.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/robot_codec.hpp"

using namespace std::chrono_literals;
using praxis::control::ControlState;
using praxis::GamepadButton;
using praxis::TimePoint;

namespace {

using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;
using State = praxis::RobotState<N>;
using Command = praxis::JointCommand<N>;
using LowState = praxis::unitree::Wire<Model>::Family::LowState;

enum class Fault : std::uint8_t { none, drop, delay, nan, frozen, offline, tilt, bad_crc, rpc_timeout };
constexpr std::size_t k_fault_kinds = 8;  // without `none`
constexpr std::array<std::string_view, k_fault_kinds> k_fault_names{"drop",    "delay", "nan",     "frozen",
                                                                     "offline", "tilt",  "bad_crc", "rpc_timeout"};
constexpr Fault fault_at(std::size_t k) { return static_cast<Fault>(k + 1); }
constexpr std::size_t index_of(Fault f) { return static_cast<std::size_t>(f) - 1; }

// The simulated robot's mode service: how long an answer takes, and when the caller gives up.
constexpr praxis::Duration k_rpc_latency = 20ms;
constexpr praxis::Duration k_rpc_timeout = 100ms;
constexpr std::size_t k_history = 256;  // decoded states kept for delayed delivery (512 ms)

// What the backend saw that the guard should have prevented.
struct GuardViolations {
  std::uint64_t non_finite = 0;
  std::uint64_t out_of_limits = 0;  // position, speed, torque or gain outside the model / collector caps
  std::uint64_t rate = 0;           // a stiff target that jumped faster than max_target_rate
};

// The backend under the controller: a MockRobot for the physics, the Unitree codec on the way out,
// the injected fault, a mode service with RPC latency and timeouts, and a spy on every command.
class SoakRobot {
 public:
  using model = Model;
  static constexpr praxis::JointModeSet joint_modes = praxis::mock::MockRobot<Model>::joint_modes;
  static constexpr praxis::Capabilities capabilities{.modes = true};

  SoakRobot() : history_(k_history) {
    status_.link.connected = true;
    status_.lifecycle = praxis::LifecycleStage::in_control;
  }

  // ---- Backend ----
  bool read(State& out, TimePoint now) {
    now_ = now;
    settle_request(now);
    if (!physics_.read(fresh_, now)) return false;
    fresh_.gamepad = pad;  // the operator's remote rides in the frame, as on the robot
    praxis::unitree::encode_state<Model>(fresh_, {static_cast<std::uint32_t>(++tick_), 0, 0}, wire_);
    // Damaged in transit: the payload changed after the robot signed it.
    if (fault_ == Fault::bad_crc) wire_.motor_state[tick_ % N].q += 0.125f;
    if (!praxis::unitree::decode_state<Model>(wire_, fresh_.stamp, decoded_)) {
      ++status_.link.states_rejected;
      return false;
    }
    ++status_.link.states_received;
    ++newest_;
    history_[newest_ % k_history] = decoded_;
    switch (fault_) {
      case Fault::drop: return false;
      case Fault::delay:
        out = history_[(newest_ - std::min<std::uint64_t>(lag_, newest_ - 1)) % k_history];
        return true;
      case Fault::frozen: out = frozen_; return true;
      case Fault::nan:
        out = decoded_;
        poison(out);
        return true;
      case Fault::offline:
        out = decoded_;
        out.health[joint_].faults |= praxis::k_joint_offline;
        return true;
      default: out = decoded_; return true;
    }
  }

  void write(const Command& c, TimePoint now) {
    spy(c, now);
    physics_.write(c, now);
  }

  void post(const praxis::RobotRequests& r) {
    if (!r.any || r.mode == praxis::RobotMode::unknown || r.mode == status_.assumed_mode) return;
    status_.assumed_mode = r.mode;
    status_.mode_since = now_;
    status_.last_request = {++request_id_, praxis::RequestOutcome::pending, 0, {}};
    status_.requests_in_flight = 1;
    pending_ = r.mode;
    pending_since_ = now_;
    pending_times_out_ = fault_ == Fault::rpc_timeout;
  }
  bool read_status(praxis::RobotStatus& s) {
    ++status_.sequence;
    s = status_;
    return true;
  }

  // ---- the soak's controls ----
  praxis::GamepadState pad{};

  void start(Fault f, std::mt19937_64& rng) {
    fault_ = f;
    switch (f) {
      case Fault::delay: lag_ = std::uniform_int_distribution<std::uint64_t>(55, 200)(rng); break;
      case Fault::frozen: frozen_ = newest_ > 0 ? history_[newest_ % k_history] : decoded_; break;
      case Fault::nan:
        nan_field_ = std::uniform_int_distribution<int>(0, 3)(rng);
        joint_ = std::uniform_int_distribution<std::size_t>(0, N - 1)(rng);
        break;
      case Fault::offline: joint_ = std::uniform_int_distribution<std::size_t>(0, N - 1)(rng); break;
      case Fault::tilt: {
        // Past 90 degrees about a random horizontal axis: lying on its front, back or side.
        const double angle = std::uniform_real_distribution<double>(1.75, 3.0)(rng);
        const double heading = std::uniform_real_distribution<double>(-std::numbers::pi, std::numbers::pi)(rng);
        const praxis::Vector3 axis(std::cos(heading), std::sin(heading), 0.0);
        physics_.set_orientation(praxis::Quaternion(Eigen::AngleAxisd(angle, axis)));
        break;
      }
      default: break;
    }
  }
  void stop() {
    if (fault_ == Fault::tilt) physics_.set_orientation(praxis::Quaternion::Identity());
    fault_ = Fault::none;
  }

  void set_guard(const praxis::motion::CollectorOptions& o) { guard_ = o; }
  [[nodiscard]] const GuardViolations& violations() const { return violations_; }
  [[nodiscard]] std::uint64_t commands() const { return commands_; }
  [[nodiscard]] const Command& last_command() const { return last_; }
  [[nodiscard]] std::uint64_t rpc_timeouts() const { return rpc_timeouts_; }
  [[nodiscard]] std::uint64_t crc_rejections() const { return status_.link.states_rejected; }

 private:
  void poison(State& s) const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto j = static_cast<Eigen::Index>(joint_);
    switch (nan_field_) {
      case 0: s.q[j] = nan; break;
      case 1: s.dq[j] = nan; break;
      case 2: s.imu.orientation.coeffs()[j % 4] = nan; break;
      default: s.imu.gyro[j % 3] = nan; break;
    }
  }

  void settle_request(TimePoint now) {
    if (status_.requests_in_flight == 0) return;
    if (pending_times_out_) {
      if (now - pending_since_ < k_rpc_timeout) return;
      status_.last_request = {request_id_, praxis::RequestOutcome::timed_out, 0, now};
      ++rpc_timeouts_;
    } else {
      if (now - pending_since_ < k_rpc_latency) return;
      status_.last_request = {request_id_, praxis::RequestOutcome::ok, 0, now};
      status_.reported_mode = pending_;
    }
    status_.requests_in_flight = 0;
  }

  // What the guard promises for every command that leaves the process (motion::MotorCommandsCollector).
  void spy(const Command& c, TimePoint now) {
    ++commands_;
    if (!c.all_finite()) ++violations_.non_finite;
    const double dt = commands_ > 1 ? praxis::to_seconds(now - last_time_) : 0.0;
    bool out = false, jumped = false;
    for (std::size_t j = 0; j < N; ++j) {
      if (c.mode[j] == praxis::JointMode::none) continue;
      const auto i = static_cast<Eigen::Index>(j);
      const auto& spec = Model::joints[j];
      out = out || !(c.q[i] >= spec.lower && c.q[i] <= spec.upper) || !(std::abs(c.dq[i]) <= spec.velocity) ||
            !(std::abs(c.tau_ff[i]) <= spec.effort) || !(c.kp[i] >= 0.0 && c.kp[i] <= guard_.max_kp) ||
            !(c.kd[i] >= 0.0 && c.kd[i] <= guard_.max_kd);
      const bool stiff = c.kp[i] > 0.0 && c.mode[j] == praxis::JointMode::position;
      const bool was_stiff = commands_ > 1 && last_.kp[i] > 0.0 && last_.mode[j] == praxis::JointMode::position;
      if (stiff && was_stiff && std::abs(c.q[i] - last_.q[i]) > guard_.max_target_rate * dt + 1e-9) jumped = true;
    }
    if (out) ++violations_.out_of_limits;
    if (jumped) ++violations_.rate;
    last_ = c;
    last_time_ = now;
  }

  praxis::mock::MockRobot<Model> physics_;
  State fresh_{}, decoded_{}, frozen_{};
  LowState wire_{};
  std::vector<State> history_;
  std::uint64_t newest_ = 0;
  std::uint64_t tick_ = 0;
  TimePoint now_{};

  Fault fault_ = Fault::none;
  std::uint64_t lag_ = 0;
  int nan_field_ = 0;
  std::size_t joint_ = 0;

  praxis::RobotStatus status_{};
  std::uint32_t request_id_ = 0;
  praxis::RobotMode pending_ = praxis::RobotMode::unknown;
  TimePoint pending_since_{};
  bool pending_times_out_ = false;
  std::uint64_t rpc_timeouts_ = 0;

  praxis::motion::CollectorOptions guard_{};
  GuardViolations violations_{};
  std::uint64_t commands_ = 0;
  Command last_{};
  TimePoint last_time_{};
};

static_assert(praxis::Backend<SoakRobot> && praxis::HasModes<SoakRobot> && praxis::ReportsStatus<SoakRobot>);

// USER_CTRL: holds the stand pose but swings joint 0 past its limits, faster than the guard's
// target rate, so the guard clamps and rate-limits in CTRL throughout the soak.
struct SwingController {
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double phase = 0.0;
  void load_params(const std::filesystem::path&) {}
  void reset(const State&, const praxis::Gamepad&) { phase = 0.0; }
  void get_input(const State&, const praxis::Gamepad&) {}
  void calculate() {
    phase += 2.0 * std::numbers::pi * 0.6 * dt;
    jpos_des = init_pos;
    jpos_des[0] += 4.0 * std::sin(phase);
  }
  std::array<float, 1> log() const { return {static_cast<float>(phase)}; }
};

using Controller = praxis::control::RobotController<SoakRobot, SwingController>;

struct KindStats {
  std::uint64_t injected = 0;
  std::uint64_t detected = 0;
  std::uint64_t expected_damping = 0;  // episodes whose documented outcome is DAMPING
  std::uint64_t damped = 0;            // ... that reached it within the bound
  std::uint64_t caused = 0;            // ... of those, from STAND or CTRL (not already damping)
  std::uint64_t kept_state = 0;        // episodes whose documented outcome is "no change" that kept it
  std::uint64_t max_cycles = 0;        // to damping, from the fault's first cycle
  std::uint64_t bound = 0;
  std::uint64_t late_or_missed = 0;
  std::uint64_t not_recovered = 0;     // the fault's signal still up after the fault ended
  std::array<std::uint64_t, 3> from_state{};
};

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::stoull(v);
}

}  // namespace

TEST_CASE("soak: random faults in every state end in damping, with no allocation and every command guarded",
          "[soak][faults][realtime]") {
  const std::uint64_t total = env_or("PRAXIS_SOAK_CYCLES", 1'000'000);
  const std::uint64_t seed = env_or("PRAXIS_SOAK_SEED", std::random_device{}());
  std::printf("soak: %llu cycles, seed %llu (PRAXIS_SOAK_CYCLES, PRAXIS_SOAK_SEED)\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(seed));
  INFO("seed " << seed << " (rerun with PRAXIS_SOAK_SEED=" << seed << ")");
  REQUIRE(total >= 20'000);  // fewer cycles cannot hit every kind in every state
  std::mt19937_64 rng(seed);

  SoakRobot robot;
  praxis::control::ControllerOptions options;
  options.print = false;
  Controller controller(robot, options);
  robot.set_guard(controller.runtime_options().collector);
  const praxis::Duration period = controller.period();
  const double damping_kd = controller.runtime_options().damping_kd;
  const auto stale_cycles = static_cast<std::uint64_t>(controller.runtime_options().safety.stale_timeout / period);

  // Documented bounds, in cycles from the fault's first cycle: a silent, delayed, frozen or
  // CRC-rejected stream is stale once older than stale_timeout (one more state period and one
  // cycle of slack for where in the period it began); NaN, an offline joint and a tilt in CTRL
  // act on the first state that shows them; the operator's stop in an RPC episode acts in the
  // cycle it is seen, whatever the mode service does.
  std::array<std::uint64_t, k_fault_kinds> bound{};
  for (const Fault f : {Fault::drop, Fault::delay, Fault::frozen, Fault::bad_crc}) bound[index_of(f)] = stale_cycles + 2;
  for (const Fault f : {Fault::nan, Fault::offline, Fault::tilt}) bound[index_of(f)] = 2;
  bound[index_of(Fault::rpc_timeout)] = 5;  // stop pressed on the fault's 3rd cycle

  std::array<KindStats, k_fault_kinds> stats{};
  for (std::size_t k = 0; k < k_fault_kinds; ++k) stats[k].bound = bound[k];
  std::uint64_t damping_not_sent = 0, left_damping_without_r2 = 0, lost_cycles = 0, bring_failures = 0;
  std::uint64_t guarded_cycles = 0, episodes = 0;

  TimePoint now{};
  // One control cycle and the invariants that hold in every cycle.
  auto cycle = [&] {
    const auto before = controller.state();
    const auto commands = robot.commands();
    controller.step(now += period);
    if (robot.commands() != commands + 1) ++lost_cycles;
    const auto after = controller.state();
    const auto& sent = robot.last_command();
    if (after == ControlState::damping && (sent.kp.maxCoeff() != 0.0 || sent.kd.minCoeff() != damping_kd)) {
      ++damping_not_sent;
    }
    if (before == ControlState::damping && after != ControlState::damping &&
        !controller.graph().get<praxis::control::GamepadPort>().R2.on_press) {
      ++left_damping_without_r2;
    }
    if (controller.report().clamped_joints > 0 || controller.report().rate_limited_joints > 0) ++guarded_cycles;
  };
  auto press = [&](GamepadButton b, bool down) { robot.pad.set(b, down); };
  auto cycles_done = [&] { return controller.cycles(); };

  // The operator: L2 + B to damping, R2 held until pd_ratio reaches 1, A into CTRL.
  auto bring_to = [&](ControlState target) {
    if (controller.state() != ControlState::damping) {
      press(GamepadButton::L2, true);
      press(GamepadButton::B, true);
      for (int i = 0; i < 3; ++i) cycle();
      press(GamepadButton::L2, false);
      press(GamepadButton::B, false);
      cycle();
    }
    if (target != ControlState::damping) {
      press(GamepadButton::R2, true);
      for (int i = 0; i < 400 && !(controller.state() == ControlState::stand && controller.pd_ratio() >= 1.0); ++i) {
        cycle();
      }
      press(GamepadButton::R2, false);
      cycle();
    }
    if (target == ControlState::ctrl) {
      press(GamepadButton::A, true);
      cycle();
      cycle();
      press(GamepadButton::A, false);
      cycle();
    }
    if (controller.state() != target) ++bring_failures;
  };

  auto detected = [&](Fault f, std::uint64_t rejections_before) {
    const auto& s = controller.safety();
    switch (f) {
      case Fault::drop:
      case Fault::delay:
      case Fault::frozen: return s.stale;
      case Fault::bad_crc: return s.stale && robot.crc_rejections() > rejections_before;
      case Fault::nan: return s.invalid;
      case Fault::offline: return s.joint_fault;
      case Fault::tilt: return s.tilted;
      case Fault::rpc_timeout: return controller.status().last_request.outcome == praxis::RequestOutcome::timed_out;
      case Fault::none: break;
    }
    return false;
  };

  std::array<std::size_t, k_fault_kinds> order{};
  for (std::size_t k = 0; k < k_fault_kinds; ++k) order[k] = k;
  auto pick = [&](std::uint64_t lo, std::uint64_t hi) { return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng); };

  auto episode = [&](Fault f) {
    auto& st = stats[index_of(f)];
    // Each kind starts from each state in turn (tilts from CTRL every other time: only there must
    // they damp). An RPC episode needs a mode change to time out: it starts standing and the
    // operator stops.
    constexpr std::array<ControlState, 4> k_tilt_targets{ControlState::ctrl, ControlState::damping, ControlState::ctrl,
                                                         ControlState::stand};
    const auto n = st.injected;
    const ControlState target = f == Fault::tilt          ? k_tilt_targets[n % 4]
                                : f == Fault::rpc_timeout ? (n % 2 == 0 ? ControlState::stand : ControlState::ctrl)
                                                          : static_cast<ControlState>(n % 3);
    bring_to(target);
    for (auto n = pick(5, 100); n > 0; --n) cycle();

    const auto pre = controller.state();
    const std::uint64_t duration = f == Fault::nan || f == Fault::offline || f == Fault::tilt ? pick(3, 150) : pick(80, 250);
    const auto rejections = robot.crc_rejections();
    const auto first = cycles_done();
    bool seen = false, damped = false, kept = true;
    std::uint64_t to_damping = 0;
    ++st.injected;
    ++st.from_state[static_cast<std::size_t>(pre)];
    robot.start(f, rng);
    for (std::uint64_t d = 0; d < duration; ++d) {
      if (f == Fault::rpc_timeout && d == 2) {
        press(GamepadButton::L2, true);
        press(GamepadButton::B, true);
      }
      if (f == Fault::rpc_timeout && d == 6) {
        press(GamepadButton::L2, false);
        press(GamepadButton::B, false);
      }
      cycle();
      seen = seen || detected(f, rejections);
      if (!damped && controller.state() == ControlState::damping) {
        damped = true;
        to_damping = cycles_done() - first;
      }
      kept = kept && controller.state() == pre;
    }
    robot.stop();
    // Afterwards: the signal clears, and a damped robot stays damped until the operator acts.
    for (int i = 0; i < 20; ++i) {
      cycle();
      seen = seen || detected(f, rejections);
      if (damped && controller.state() != ControlState::damping) damped = false;
    }
    const auto& s = controller.safety();
    if (s.stale || s.invalid || s.joint_fault || s.tilted) ++st.not_recovered;
    if (seen) ++st.detected;

    const bool expect_damping = f != Fault::tilt || pre == ControlState::ctrl;
    if (expect_damping) {
      ++st.expected_damping;
      if (damped && to_damping <= st.bound) {
        ++st.damped;
        if (pre != ControlState::damping) ++st.caused;
      } else {
        ++st.late_or_missed;
      }
      if (damped) st.max_cycles = std::max(st.max_cycles, to_damping);
    } else if (kept) {
      ++st.kept_state;  // a tilt in STAND or DAMPING: the documented rule acts only in CTRL
    } else {
      ++st.late_or_missed;
    }
    ++episodes;
  };

  auto block = [&] {
    std::shuffle(order.begin(), order.end(), rng);  // every kind once per block, in random order
    for (const auto k : order) episode(fault_at(k));
  };

  // Warm-up: the reporter thread starts and the first of everything happens.
  block();
#ifdef PRAXIS_COUNT_ALLOCATIONS
  const auto allocations_before = praxis::test::thread_allocation_count();
#endif
  const auto wall_begin = std::chrono::steady_clock::now();
  while (cycles_done() < total) block();
  const auto wall = std::chrono::steady_clock::now() - wall_begin;
#ifdef PRAXIS_COUNT_ALLOCATIONS
  const auto allocations = praxis::test::thread_allocation_count() - allocations_before;
#endif

  std::printf("soak: %llu cycles (%.1f s simulated) in %.2f s wall, %llu episodes, seed %llu\n",
              static_cast<unsigned long long>(cycles_done()), praxis::to_seconds(now - TimePoint{}),
              std::chrono::duration<double>(wall).count(), static_cast<unsigned long long>(episodes),
              static_cast<unsigned long long>(seed));
  std::printf("%-12s %9s %9s %9s %9s %9s %9s %6s %6s  %s\n", "fault", "injected", "detected", "->damping", "damped",
              "caused", "kept", "max", "bound", "from damping/stand/ctrl");
  for (std::size_t k = 0; k < k_fault_kinds; ++k) {
    const auto& st = stats[k];
    std::printf("%-12s %9llu %9llu %9llu %9llu %9llu %9llu %6llu %6llu  %llu/%llu/%llu\n", k_fault_names[k].data(),
                static_cast<unsigned long long>(st.injected), static_cast<unsigned long long>(st.detected),
                static_cast<unsigned long long>(st.expected_damping), static_cast<unsigned long long>(st.damped),
                static_cast<unsigned long long>(st.caused),
                static_cast<unsigned long long>(st.kept_state), static_cast<unsigned long long>(st.max_cycles),
                static_cast<unsigned long long>(st.bound), static_cast<unsigned long long>(st.from_state[0]),
                static_cast<unsigned long long>(st.from_state[1]), static_cast<unsigned long long>(st.from_state[2]));
  }
  const auto& v = robot.violations();
  std::printf("commands %llu; guard violations: non-finite %llu, out of limits %llu, rate %llu; cycles the guard "
              "clamped %llu; rpc timeouts %llu; crc rejections %llu\n",
              static_cast<unsigned long long>(robot.commands()), static_cast<unsigned long long>(v.non_finite),
              static_cast<unsigned long long>(v.out_of_limits), static_cast<unsigned long long>(v.rate),
              static_cast<unsigned long long>(guarded_cycles), static_cast<unsigned long long>(robot.rpc_timeouts()),
              static_cast<unsigned long long>(robot.crc_rejections()));
  std::fflush(stdout);

  // Every command that reached the backend passed the guard, and the guard had work to do.
  CHECK(v.non_finite == 0);
  CHECK(v.out_of_limits == 0);
  CHECK(v.rate == 0);
  CHECK(guarded_cycles > 0);
  CHECK(robot.commands() == controller.cycles());
  CHECK(lost_cycles == 0);
  // DAMPING means damping went out, and only R2 leaves it.
  CHECK(damping_not_sent == 0);
  CHECK(left_damping_without_r2 == 0);
  CHECK(bring_failures == 0);
#ifdef PRAXIS_COUNT_ALLOCATIONS
  CHECK(allocations == 0);
#endif
  // Not vacuous: every kind injected from every state, detected every time, and damped every time
  // the documentation says it damps (tilts outside CTRL keep their state instead), many of them
  // from STAND or CTRL. An RPC timeout is the exception that proves the rule: damping there is the
  // operator's stop, which must not wait for the mode service (the request for it times out).
  const std::uint64_t k_min = 3;
  for (std::size_t k = 0; k < k_fault_kinds; ++k) {
    const auto& st = stats[k];
    INFO("fault " << k_fault_names[k]);
    CHECK(st.injected >= k_min);
    CHECK(st.detected == st.injected);
    CHECK(st.expected_damping >= k_min);
    CHECK(st.damped == st.expected_damping);
    CHECK(st.caused >= k_min);  // damped from STAND or CTRL, not merely left in damping
    CHECK(st.late_or_missed == 0);
    CHECK(st.max_cycles <= st.bound);
    CHECK(st.not_recovered == 0);
    const bool any_state = k_fault_names[k] != "rpc_timeout";
    if (any_state) {
      for (const auto n : st.from_state) CHECK(n >= 1);
    }
  }
  const auto& tilt = stats[index_of(Fault::tilt)];
  CHECK(tilt.kept_state >= 1);
  CHECK(robot.rpc_timeouts() >= stats[index_of(Fault::rpc_timeout)].injected);
}
