// Controller cycle latency: RobotController<MockRobot<G1>, USER_CTRL>::step() versus the same work
// written by hand in one function (read, gamepad, safety, fall state, state machine, user
// controller, the three motion commands, the guard, write, compute-time report), interleaved in one
// process. Also the behaviour-driven motion pipeline (MotionController) for the same robot, next to
// it: once running the same USER_CTRL (command::UserControl), once playing scripts and standing.
// Prints p50 / p99 / p99.9 / max per cycle and the ratio, and writes JSON.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/lockfree/spsc_queue.hpp>

#include "allocation_counter.hpp"
#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/control/realtime.hpp"
#include "praxis/control/controller_adapter.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/control/user_control_motion.hpp"
#include "../examples/motion_pipeline/step_in_place.hpp"

namespace {

using namespace std::chrono_literals;
using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;
using Robot = praxis::mock::MockRobot<Model>;

struct Wave {
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double t = 0, q0 = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { t = 0; }
  void get_input(const praxis::RobotState<N>& s, const praxis::Gamepad&) { q0 = s.q[0]; }
  void calculate() {
    t += dt;
    for (std::size_t j = 0; j < N; ++j) jpos_des[j] = init_pos[j] + 0.05 * std::sin(3.0 * t + 0.1 * static_cast<double>(j));
  }
  std::array<float, 2> log() const { return {static_cast<float>(t), static_cast<float>(q0)}; }
};

// The baseline: everything RobotController::step does, in one function, no graph: read, gamepad,
// safety (missing / stale / invalid state, faulted joints, tilt in CTRL), fall state, the state
// machine, USER_CTRL (kept warm in STAND), the motion's command (DAMPING holds the measured
// positions; STAND the model's gains times pd_ratio at init_pos; CTRL the controller's targets),
// the guard (NaN fallback, limits, target rate limit), write, compute-time report.
struct HandWritten {
  explicit HandWritten(Robot& r) : robot(r) {}
  Robot& robot;
  praxis::RobotState<N> state{};
  bool have_state = false;
  praxis::Gamepad pad{};
  praxis::control::StateMachine sm{};
  praxis::control::ControllerAdapter<Wave, N> ctrl{};
  praxis::JointCommand<N> cmd{}, last{};
  praxis::TimePoint last_time{};
  bool have_last = false;
  bool last_fallback = false;
  double tilt = 0.0, angular_speed = 0.0;  // the fall detector's inputs (upright here: no protection)
  std::uint64_t clamped_total = 0;
  boost::lockfree::spsc_queue<std::uint32_t, boost::lockfree::capacity<8192>> compute;

  void step(praxis::TimePoint now) {
    if (robot.read(state, now)) have_state = true;
    const auto t0 = praxis::Clock::now();
    pad.update(state.gamepad);
    const auto age = have_state ? now - state.stamp : praxis::Duration::zero();
    const bool stale = have_state && age > 100ms;
    const bool invalid = have_state && !state.all_finite();
    const bool tilted = have_state && !invalid && state.projected_gravity.z() > 0.0;
    const bool joint_fault = have_state && state.first_faulted_joint() < N;
    tilt = std::acos(std::clamp(-state.projected_gravity.z(), -1.0, 1.0));
    angular_speed = state.imu.gyro.norm();
    const auto before = sm.state;
    if (pad.R2.on_press) sm.stand();
    if (pad.A.on_press) sm.ctrl();
    if (pad.L2.pressed && pad.B.pressed) sm.stop();
    if (!have_state || stale || invalid) {
      sm.stop();
    } else if (sm.state != praxis::control::ControlState::damping &&
               (last_fallback || joint_fault || (sm.state == praxis::control::ControlState::ctrl && tilted))) {
      sm.stop();
    }
    if (sm.state == praxis::control::ControlState::stand) {
      if (pad.R2.pressed) sm.standing(true);
      if (pad.R1.pressed) sm.standing(false);
    }
    const bool active = sm.state != praxis::control::ControlState::damping;
    if (active) {
      if (sm.state != before) ctrl.reset(state, pad);
      ctrl.step(state, pad);
    }
    const bool finite_q = state.q.allFinite();
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      double q = finite_q ? state.q[i] : 0.0, kp = 0.0, kd = 2.0, dq = 0.0, tau = 0.0;
      if (sm.state == praxis::control::ControlState::stand) {
        q = ctrl.init_pos(j);
        kp = Model::default_kp[j] * sm.pd_ratio;
        kd = Model::default_kd[j] * sm.pd_ratio;
      } else if (sm.state == praxis::control::ControlState::ctrl) {
        q = ctrl.jpos_des(j);
        kp = ctrl.kp(j);
        kd = ctrl.kd(j);
        dq = ctrl.dq_des(j);
        tau = ctrl.tau_ff(j);
      }
      cmd.q[i] = q;
      cmd.kp[i] = kp;
      cmd.kd[i] = kd;
      cmd.dq[i] = dq;
      cmd.tau_ff[i] = tau;
    }
    cmd.mode.fill(praxis::JointMode::position);
    last_fallback = !cmd.all_finite();
    if (last_fallback) {
      for (std::size_t j = 0; j < N; ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        cmd.q[i] = finite_q ? state.q[i] : 0.0;
        cmd.kp[i] = cmd.dq[i] = cmd.tau_ff[i] = 0.0;
        cmd.kd[i] = 2.0;
      }
    }
    const double dt = have_last ? std::max(0.0, praxis::to_seconds(now - last_time)) : 0.0;
    std::uint32_t clamped = 0;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      const auto& spec = Model::joints[j];
      double q = std::clamp(cmd.q[i], spec.lower, spec.upper);
      const double kp = std::clamp(cmd.kp[i], 0.0, 1000.0);
      const double kd = std::clamp(cmd.kd[i], 0.0, 100.0);
      const double tau = std::clamp(cmd.tau_ff[i], -spec.effort, spec.effort);
      const double dq = std::clamp(cmd.dq[i], -spec.velocity, spec.velocity);
      if (q != cmd.q[i] || kp != cmd.kp[i] || kd != cmd.kd[i] || tau != cmd.tau_ff[i] || dq != cmd.dq[i]) ++clamped;
      if (have_last && kp > 0.0 && last.kp[i] > 0.0) {  // a stiff target moves at most 10 rad/s
        q = std::clamp(q, last.q[i] - 10.0 * dt, last.q[i] + 10.0 * dt);
      }
      cmd.q[i] = q;
      cmd.kp[i] = kp;
      cmd.kd[i] = kd;
      cmd.tau_ff[i] = tau;
      cmd.dq[i] = dq;
    }
    last = cmd;
    last_time = now;
    have_last = true;
    clamped_total += clamped;
    const auto t1 = praxis::Clock::now();
    compute.push(static_cast<std::uint32_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    robot.write(cmd, now);
  }
};

void script(Robot& robot) {
  const praxis::TimePoint t0{};
  robot.hold(praxis::GamepadButton::R2, t0 + 20ms, 1s);
  robot.tap(praxis::GamepadButton::A, t0 + 1200ms);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "controller_cycle.json";
  const std::size_t k_cycles = praxis::bench::scaled<std::size_t>(120'000, 10'000);
  constexpr std::size_t k_batch = 1000;

  Robot robot_a, robot_b;
  script(robot_a);
  script(robot_b);
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<Robot, Wave> controller(robot_a, options);
  HandWritten hand(robot_b);
  // The baseline's compute-time ring is touched once, as praxis' reporter touches its rings at
  // start-up: untouched, its 8 pages are faulted in by the first pushes (the 6 faults earlier
  // runs counted against the pair were these, not the graph's).
  for (std::uint32_t x = 0; hand.compute.push(x); ++x) {
  }
  for (std::uint32_t x = 0; hand.compute.pop(x);) {
  }

  std::vector<double> graph_ns, hand_ns, graph_step_ns, hand_step_ns;
  // Sized and touched up front: a sample vector growing into fresh pages would be counted as the
  // cycle's page faults below.
  const auto prepare = [k_cycles](std::vector<double>& v) {
    v.assign(k_cycles, 0.0);
    v.clear();
  };
  prepare(graph_ns);
  prepare(hand_ns);
  praxis::TimePoint ta{}, tb{};
  std::size_t graph_allocs = 0, hand_allocs = 0, user_allocs = 0, motion_allocs = 0;
  // Page faults after each series' warm-up (the first batch, or the first 50 cycles): the runtime's
  // rule that a cycle touches no new memory, measured here as it is in a run.
  constexpr std::size_t k_fault_warmup = 50;
  using clock = std::chrono::steady_clock;
  // Interleaved batches; each cycle is timed on its own (step = read + graph + write on the mock).
  std::uint64_t graph_faults = 0, hand_faults = 0;
  for (std::size_t done = 0; done < k_cycles; done += k_batch) {
    const auto f0 = praxis::control::thread_minor_faults();
    for (std::size_t k = 0; k < k_batch; ++k) {
      ta += 2ms;
      const auto s = clock::now();
      const auto a0 = praxis::bench::allocation_count();
      controller.step(ta);
      // The first step() starts the controller's reporter thread (its queues and the thread: the
      // controller's start-up, a handful of allocations); the cycles after it are what is counted.
      if (done + k > 0) graph_allocs += praxis::bench::allocation_count() - a0;
      graph_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - s).count());
    }
    const auto f1 = praxis::control::thread_minor_faults();
    for (std::size_t k = 0; k < k_batch; ++k) {
      tb += 2ms;
      const auto s = clock::now();
      const auto a0 = praxis::bench::allocation_count();
      hand.step(tb);
      hand_allocs += praxis::bench::allocation_count() - a0;
      hand_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - s).count());
    }
    std::uint32_t sink = 0;
    while (hand.compute.pop(sink)) {
    }
    const auto f2 = praxis::control::thread_minor_faults();
    if (done > 0) {
      graph_faults += f1 - f0;
      hand_faults += f2 - f1;
    }
  }
  if (controller.state() != praxis::control::ControlState::ctrl || hand.sm.state != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "benchmark did not reach CTRL: the comparison would be meaningless\n");
    return 1;
  }
  const auto& ca = robot_a.last_command().command;
  const auto& cb = robot_b.last_command().command;
  if ((ca.q - cb.q).cwiseAbs().maxCoeff() > 1e-9) {
    std::fprintf(stderr, "graph and hand-written variants sent different commands\n");
    return 1;
  }

  // The behaviour-driven motion pipeline on its own mocks. First the same USER_CTRL, selected by
  // command::UserControl: the graph differs from RobotController's only in its selector and in
  // offering the other motions.
  namespace m = praxis::motion;
  praxis::script::ScriptLibrary<Model> library;
  library.load_folder(PRAXIS_SOURCE_DIR "/examples/scripts/g1");
  praxis::control::MotionOptions motion_options;
  motion_options.print = false;
  Robot robot_u;
  praxis::control::MotionController<Robot, praxis::control::CommandInput, example::StepInPlace<Model>,
                           praxis::control::UserControlMotion<Model, Wave>>
      user_motion(robot_u, library, motion_options);
  user_motion.behaviour().command = m::command::UserControl{};
  std::vector<double> user_motion_ns;
  prepare(user_motion_ns);
  praxis::TimePoint tu{};
  std::uint64_t user_faults0 = 0;
  for (std::size_t k = 0; k < k_cycles; ++k) {
    if (k == k_fault_warmup) user_faults0 = praxis::control::thread_minor_faults();
    tu += 2ms;
    const auto s = clock::now();
    const auto a0 = praxis::bench::allocation_count();
    user_motion.step(tu);
    if (k > 0) user_allocs += praxis::bench::allocation_count() - a0;
    user_motion_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - s).count());
  }
  if (user_motion.selection().current != m::MotionType::user_control) {
    std::fprintf(stderr, "the motion pipeline did not reach user_control: the comparison would be meaningless\n");
    return 1;
  }
  const auto user_faults = praxis::control::thread_minor_faults() - user_faults0;
  const auto ud = praxis::bench::summarize(user_motion_ns);

  // Then scripts: playing a keyframe script, then standing.
  Robot robot_m;
  praxis::control::MotionController<Robot, praxis::control::CommandInput, example::StepInPlace<Model>> motion(robot_m, library,
                                                                                            motion_options);
  std::vector<double> motion_ns;
  prepare(motion_ns);
  praxis::TimePoint tm{};
  m::command::Script wave;
  wave.request.names = {"wave"};
  wave.request.count = 1;
  std::uint64_t motion_faults0 = 0;
  for (std::size_t k = 0; k < k_cycles; ++k) {
    if (k == k_fault_warmup) motion_faults0 = praxis::control::thread_minor_faults();
    tm += 2ms;
    if (k % 3000 == 0) {  // every 6 s: stand, then a new wave
      wave.id = static_cast<std::uint32_t>(k);
      motion.behaviour().command = (k / 3000) % 2 == 0 ? m::MotionCommand{m::command::Stand{}} : m::MotionCommand{wave};
    }
    const auto s = clock::now();
    const auto a0 = praxis::bench::allocation_count();
    motion.step(tm);
    if (k > 0) motion_allocs += praxis::bench::allocation_count() - a0;
    motion_ns.push_back(std::chrono::duration<double, std::nano>(clock::now() - s).count());
  }
  const auto motion_faults = praxis::control::thread_minor_faults() - motion_faults0;
  const auto md = praxis::bench::summarize(motion_ns);

  const auto g = praxis::bench::summarize(graph_ns);
  const auto h = praxis::bench::summarize(hand_ns);
  praxis::bench::print_table("controller cycle, G1 (29 joints) on the mock, CTRL state, ns per step(), " +
                                 std::to_string(k_cycles) + " cycles each",
                             {{"RobotController (graph)", g},
                              {"hand-written step (baseline)", h},
                              {"MotionController (user control)", ud},
                              {"MotionController (scripts, stand)", md}});
  const double ratio = g.p50 / h.p50;
  std::printf("\n  ratio graph / hand-written: p50 %.3f, p99 %.3f\n", ratio, g.p99 / h.p99);
  std::printf("  ratio MotionController (user control) / RobotController: p50 %.3f\n", ud.p50 / g.p50);
  std::printf("  (both include the mock's physics: 4 implicit steps of 29 joints per 2 ms cycle)\n");
  std::printf("  minor page faults after warm-up: RobotController %llu, hand-written %llu, "
              "MotionController user control %llu, scripts and stand %llu\n",
              static_cast<unsigned long long>(graph_faults), static_cast<unsigned long long>(hand_faults),
              static_cast<unsigned long long>(user_faults), static_cast<unsigned long long>(motion_faults));
  const auto per_cycle = [&](std::size_t n) { return static_cast<double>(n) / static_cast<double>(k_cycles); };
  praxis::bench::dump_samples("controller_cycle", "g1_robot_controller", graph_ns);
  praxis::bench::dump_samples("controller_cycle", "g1_hand_written", hand_ns);
  praxis::bench::dump_samples("controller_cycle", "g1_motion_user_control", user_motion_ns);
  praxis::bench::dump_samples("controller_cycle", "g1_motion_scripts", motion_ns);
  const std::vector<praxis::bench::ReportRow> report{
      {"G1 hand-written step (baseline)", h, "", per_cycle(hand_allocs), static_cast<double>(hand_faults)},
      {"G1 RobotController step", g, "G1 hand-written step (baseline)", per_cycle(graph_allocs),
       static_cast<double>(graph_faults)},
      {"G1 MotionController, user control", ud, "G1 RobotController step", per_cycle(user_allocs),
       static_cast<double>(user_faults)},
      {"G1 MotionController, scripts and stand", md, "G1 RobotController step", per_cycle(motion_allocs),
       static_cast<double>(motion_faults)}};
  praxis::bench::write_json(json_path, {{"benchmark", "controller_cycle"},
                                        {"report", praxis::bench::report_json(report)},
                                        {"robot", "g1"},
                                        {"cycles", k_cycles},
                                        {"graph", praxis::bench::to_json(g)},
                                        {"hand_written", praxis::bench::to_json(h)},
                                        {"motion_pipeline", praxis::bench::to_json(md)},
                                        {"motion_pipeline_user_control", praxis::bench::to_json(ud)},
                                        {"ratio_p50", ratio},
                                        {"minor_faults_after_warmup",
                                         {{"robot_controller", graph_faults},
                                          {"hand_written", hand_faults},
                                          {"motion_user_control", user_faults},
                                          {"motion_scripts", motion_faults}}},
                                        {"ratio_p99", g.p99 / h.p99}});
  return 0;
}
