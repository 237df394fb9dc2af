// Runtime (control/runtime.hpp) on its own terms: what step(now) reads, runs, writes and posts and
// what the inspection accessors show after it; how every run starts (graph reset, empty mailboxes,
// also after step()-driven use) and ends (the safe state as the last frame, an exception from a node
// rethrown as it was thrown, a stop consumed by the run it ended); the timer loop's lateness and
// overrun counts; the reporter's compute-time windows and flush(); finish() for step()-driven use.
//
// Step-driven in simulated time wherever the contract allows, through MotionController with a probe
// behaviour of this file (it counts its cycles since the graph's last reset, and can stop the run,
// sleep or throw at a given cycle, so that nothing depends on how fast the machine is). Real threads
// only where the contract is about them, asserting counts and orders, never tight wall-clock bounds:
// this also runs on a loaded 2-core machine and under ASan and TSan. The stories through
// RobotController (stand, CTRL, stalls, hooks, the destructor) are in the integration suites
// (controller_threads_test, runtime_faults_test, safe_edges_test).

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "../../integration/loop_scripted_robot.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace runtime_test {

using namespace std::chrono_literals;

namespace m = praxis::motion;
using m::MotionType;
using G1 = praxis::unitree::G1;
constexpr std::size_t N = G1::joint_count;

// The graph nodes of this file are outside the anonymous namespace below: their names are read only
// in diagnostics, and clang would call them unused there.

// The behaviour: sends `command`, counts its cycles since the graph's last reset (1 for the first)
// and the resets, and calls `on_cycle` with that count (to stop the run, sleep or throw there).
struct Probe {
  static constexpr std::string_view name = "probe";
  using outputs = praxis::ports<m::MotionCommandPort>;
  m::MotionCommand command{};
  std::function<void(std::uint64_t)> on_cycle;
  std::uint64_t cycles = 0;
  int resets = 0;
  void cycle(m::MotionCommand& out) {
    ++cycles;
    if (on_cycle) on_cycle(cycles);
    out = command;
  }
  void reset() {
    ++resets;
    cycles = 0;
  }
};

// The walk motion's joint command on a robot that does not walk by itself: never selected here.
struct NoWalk {
  static constexpr std::string_view name = "no_walk";
  using outputs = praxis::ports<m::BodyCommandPort<MotionType::walk, N>, m::SafeExitPort<MotionType::walk>>;
  void cycle(praxis::JointCommand<N>&, bool& safe) const { safe = true; }
};

namespace {

using Mock = praxis::mock::MockRobot<G1>;
using Library = praxis::script::ScriptLibrary<G1>;

template <class Robot>
using Controller = std::conditional_t<praxis::HasLocomotion<Robot>, praxis::control::MotionController<Robot, Probe>,
                                      praxis::control::MotionController<Robot, Probe, NoWalk>>;

// A mock that counts its reads, and those that handed out a new state.
struct ReadSpy : Mock {
  using Mock::Mock;
  std::uint64_t reads = 0;
  std::uint64_t fresh = 0;
  bool read(praxis::RobotState<N>& out, praxis::TimePoint now) {
    ++reads;
    const bool got = Mock::read(out, now);
    if (got) ++fresh;
    return got;
  }
};

// A robot with modes of its own (simulated time) that keeps every request posted to it.
struct PostSpy : praxis::mock::ModalRobot<G1> {
  using praxis::mock::ModalRobot<G1>::ModalRobot;
  std::vector<praxis::RobotRequests> posts;
  void post(const praxis::RobotRequests& r) {
    posts.push_back(r);
    praxis::mock::ModalRobot<G1>::post(r);
  }
};

struct NodeFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

praxis::control::MotionOptions quiet() {
  praxis::control::MotionOptions o;
  o.print = false;
  return o;
}

bool same(const praxis::JointCommand<N>& a, const praxis::JointCommand<N>& b) {
  return a.mode == b.mode && a.q == b.q && a.dq == b.dq && a.kp == b.kp && a.kd == b.kd && a.tau_ff == b.tau_ff;
}

bool same(const praxis::RobotRequests& a, const praxis::RobotRequests& b) {
  return a.any == b.any && a.mode == b.mode && a.get_up == b.get_up && a.locomotion.active == b.locomotion.active &&
         a.locomotion.vx == b.locomotion.vx && a.locomotion.vy == b.locomotion.vy &&
         a.locomotion.wz == b.locomotion.wz && a.head.active == b.head.active && a.motion == b.motion &&
         a.kick.ball_position == b.kick.ball_position && a.kick.kick_power == b.kick.kick_power;
}

// Damping on every joint: position mode, no stiffness, the run's damping gain.
bool is_damping(const praxis::JointCommand<N>& c, double kd) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.mode[j] != praxis::JointMode::position || c.kp[j] != 0.0 || c.kd[j] != kd) return false;
  }
  return true;
}

bool stiff(const praxis::JointCommand<N>& c) { return c.kp.maxCoeff() > 0.0; }

bool at_pose(const praxis::JointCommand<N>& c, const praxis::JointVector<N>& q) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.q[j] != q[j]) return false;
  }
  return true;
}

bool at_pose(const praxis::JointCommand<N>& c, const std::array<double, N>& q) {
  for (std::size_t j = 0; j < N; ++j) {
    if (c.q[j] != q[j]) return false;
  }
  return true;
}

const std::string k_damping_sent = "joint damping on " + std::to_string(N) + " joints";

}  // namespace

// ---------------------------------------------------------------------------------------------
// step(now)

TEST_CASE("step(now) reads the newest state and writes the actuated command to the robot at now",
          "[control][runtime]") {
  ReadSpy robot;  // simulated time from the epoch: a state every 2 ms from 2 ms on
  Library library;
  auto options = quiet();
  options.damping_kd = 2.5;
  Controller<ReadSpy> c(robot, library, options);
  const praxis::TimePoint t0{};
  CHECK(c.cycles() == 0);

  // Before the robot's first state: the graph runs without one (damping) and its command goes out.
  c.step(t0 + 1ms);
  CHECK(c.cycles() == 1);
  CHECK(robot.reads == 1);
  CHECK(robot.fresh == 0);
  CHECK(c.safety().no_state);
  CHECK_FALSE(c.status().link.connected);  // no read_status(): connected means a state arrived
  CHECK(c.selection().current == MotionType::damping);
  REQUIRE(robot.commands_received() == 1);
  CHECK(robot.last_command().time == t0 + 1ms);
  CHECK(same(robot.last_command().command, c.actuated()));
  CHECK(is_damping(c.actuated(), 2.5));

  // Five states published by 10 ms: the step takes the newest, and the graph runs on it (damping
  // holds the joints where that state says they are).
  robot.set_joint_positions(G1::stand_pose);
  c.step(t0 + 10ms);
  CHECK(c.cycles() == 2);
  CHECK(robot.fresh == 1);
  CHECK(robot.states_published() == 5);
  CHECK(c.last_state().sequence == 5);
  CHECK(c.last_state().stamp == t0 + 10ms);
  CHECK(c.last_state().age == praxis::Duration::zero());
  CHECK(c.status().link.connected);
  CHECK_FALSE(c.safety().no_state);
  CHECK(at_pose(c.command(), G1::stand_pose));
  REQUIRE(robot.commands_received() == 2);
  CHECK(robot.last_command().time == t0 + 10ms);
  CHECK(same(robot.last_command().command, c.actuated()));
  CHECK(same(c.command(), c.actuated()));  // a joint-level robot: what the guard passed is what goes out

  // Nothing new by 11 ms: the last state stays, a millisecond older, and the cycle still runs and writes.
  c.step(t0 + 11ms);
  CHECK(c.cycles() == 3);
  CHECK(robot.reads == 3);
  CHECK(robot.fresh == 1);
  CHECK(c.last_state().sequence == 5);
  CHECK(c.last_state().age == 1ms);
  CHECK(robot.commands_received() == 3);
  CHECK(robot.last_command().time == t0 + 11ms);

  // Ten more states by 30 ms: only the newest is read, and the command follows it.
  robot.set_joint_positions(G1::rest_pose);
  c.step(t0 + 30ms);
  CHECK(c.cycles() == 4);
  CHECK(robot.fresh == 2);
  CHECK(c.last_state().sequence == 15);
  CHECK(c.last_state().stamp == t0 + 30ms);
  CHECK(at_pose(c.command(), G1::rest_pose));
  CHECK(robot.commands_received() == 4);
  CHECK(same(robot.last_command().command, c.actuated()));
  // A robot without requests: nothing to post, nothing asked.
  CHECK_FALSE(c.requests().any);
}

TEST_CASE("step(now) on a robot with modes writes only commands that cover a joint and posts only requests that "
          "are any",
          "[control][runtime]") {
  praxis::mock::ModalOptions o;
  o.threaded = false;  // the robot's worker runs in read(), in simulated time
  o.confirm_delay = 100ms;
  PostSpy robot(o);
  Library library;
  Controller<PostSpy> c(robot, library, quiet());

  int wrote = 0, wrote_nothing = 0, posted = 0, posted_nothing = 0;
  int bad_cycles = 0, bad_writes = 0, bad_posts = 0;
  praxis::TimePoint now = praxis::TimePoint{} + 1ms;  // the first step comes before the first state
  auto step_until = [&](praxis::TimePoint until) {
    for (; now < until; now += 2ms) {
      const auto cycles = c.cycles();
      const auto writes = robot.physics().commands_received();
      const auto posts = robot.posts.size();
      c.step(now);
      if (c.cycles() != cycles + 1) ++bad_cycles;
      if (c.actuated().covers_any()) {
        ++wrote;
        if (robot.physics().commands_received() != writes + 1 || robot.physics().last_command().time != now ||
            !same(robot.physics().last_command().command, c.actuated())) {
          ++bad_writes;
        }
      } else {
        ++wrote_nothing;
        if (robot.physics().commands_received() != writes) ++bad_writes;
      }
      if (c.requests().any) {
        ++posted;
        if (robot.posts.size() != posts + 1 || !same(robot.posts.back(), c.requests())) ++bad_posts;
      } else {
        ++posted_nothing;
        if (robot.posts.size() != posts) ++bad_posts;
      }
    }
  };

  // Nothing asked yet: damping holds the joints back, the robot is asked nothing.
  step_until(praxis::TimePoint{} + 100ms);
  CHECK(robot.posts.empty());
  CHECK(c.selection().current == MotionType::damping);
  // Prepare is the robot's own motion: no joint command, a mode request every cycle.
  c.behaviour().command = m::command::Prepare{};
  step_until(praxis::TimePoint{} + 400ms);
  CHECK(c.selection().current == MotionType::prepare);
  CHECK(c.requests().mode == praxis::RobotMode::prepare);

  CHECK(bad_cycles == 0);
  CHECK(bad_writes == 0);
  CHECK(bad_posts == 0);
  // Both kinds of cycle happened, so the counts above mean something.
  CHECK(wrote > 10);
  CHECK(wrote_nothing > 10);
  CHECK(posted > 10);
  CHECK(posted_nothing > 10);
  // The robot's status came back into the cycle: it took the request and reports the mode.
  CHECK(c.status().assumed_mode == praxis::RobotMode::prepare);
  CHECK(c.status().reported_mode == praxis::RobotMode::prepare);
  const auto calls = robot.calls();
  REQUIRE_FALSE(calls.empty());
  CHECK(calls.front().call == praxis::mock::RobotCall::change_mode);
  CHECK(calls.front().mode == praxis::RobotMode::prepare);
}

// ---------------------------------------------------------------------------------------------
// The reporter's windows and flush()

TEST_CASE("compute_stats() reports whole windows of stats_every cycles and flush() hands over all that was pushed",
          "[control][runtime]") {
  Mock robot;
  Library library;
  auto options = quiet();
  options.stats_every = 50;
  options.dispatch_duration = 40ms;
  Controller<Mock> c(robot, library, options);
  // Before the first step there is no reporter: nothing to flush, nothing reported.
  c.flush();
  CHECK(c.compute_stats().samples == 0);
  CHECK(c.transitions().empty());

  // The second window's cycles (51 to 100) each take at least 2 ms: its fastest cycle shows which
  // window was reported last. The other windows' fastest cycles take microseconds.
  constexpr double k_slow_us = 2000.0;
  c.behaviour().on_cycle = [](std::uint64_t n) {
    if (n > 50 && n <= 100) std::this_thread::sleep_for(2ms);
  };
  c.behaviour().command = m::command::Stand{};
  praxis::TimePoint now{};
  std::size_t changes = 0;
  std::uint64_t last_change = 0;
  auto step_to = [&](std::uint64_t cycles) {
    while (c.cycles() < cycles) {
      c.step(now += 2ms);
      if (c.selection().changed) {
        ++changes;
        last_change = c.cycles() - 1;
      }
    }
  };

  step_to(49);
  c.flush();
  CHECK(c.compute_stats().samples == 0);  // no window is complete yet
  step_to(50);
  c.flush();
  const auto first = c.compute_stats();
  CHECK(first.samples == 50);
  CHECK(first.min_us < k_slow_us);
  CHECK(first.min_us <= first.mean_us);
  CHECK(first.mean_us <= first.max_us);
  CHECK(first.min_us <= first.p99_us);
  CHECK(first.p99_us <= first.max_us);
  // step() has no deadline: its cycles are never late.
  CHECK(first.late_max_us == 0.0);
  CHECK(first.late_p99_us == 0.0);

  step_to(99);
  c.flush();
  CHECK(c.compute_stats().min_us < k_slow_us);  // still the first window: the second is not complete
  step_to(100);
  c.flush();
  const auto second = c.compute_stats();
  CHECK(second.samples == 50);
  CHECK(second.min_us >= k_slow_us);
  step_to(150);
  c.flush();
  CHECK(c.compute_stats().samples == 50);
  CHECK(c.compute_stats().min_us < k_slow_us);

  // A transition in the very step before flush() is in transitions() after it, with its cycle.
  REQUIRE(c.selection().current == MotionType::stand);
  c.behaviour().command = m::command::Damping{};
  step_to(151);
  REQUIRE(c.selection().changed);
  c.flush();
  const auto transitions = c.transitions();
  CHECK(changes >= 3);  // damping -> dispatching -> stand -> damping
  CHECK(transitions.size() == changes);
  REQUIRE_FALSE(transitions.empty());
  CHECK(transitions.back().cycle == last_change);
  CHECK(transitions.back().cycle == 150);
  CHECK(transitions.back().from == MotionType::stand);
  CHECK(transitions.back().to == MotionType::damping);
  CHECK(c.dropped_reports() == 0);
}

TEST_CASE("without stats_every a compute-time window is one second of cycles at the control period",
          "[control][runtime]") {
  Mock robot;
  Library library;
  auto options = quiet();
  options.period = 5ms;  // 200 cycles a second
  Controller<Mock> c(robot, library, options);
  praxis::TimePoint now{};
  for (int i = 0; i < 199; ++i) c.step(now += 5ms);
  c.flush();
  CHECK(c.compute_stats().samples == 0);
  c.step(now += 5ms);
  c.flush();
  CHECK(c.compute_stats().samples == 200);
}

// ---------------------------------------------------------------------------------------------
// finish(): the end of step()-driven control

TEST_CASE("finish() damps step()-driven control at the last step's time and consumes a stop and the stepped fault",
          "[control][runtime]") {
  Mock robot;
  Library library;
  auto options = quiet();
  options.damping_kd = 2.5;
  options.dispatch_duration = 40ms;
  Controller<Mock> c(robot, library, options);
  c.behaviour().command = m::command::Stand{};
  praxis::TimePoint now{};
  for (int i = 0; i < 200; ++i) c.step(now += 2ms);
  REQUIRE(c.selection().current == MotionType::stand);
  REQUIRE(stiff(robot.last_command().command));
  CHECK_FALSE(c.final_command().has_value());

  // step() leaves a stop to the loop that drives it: it goes on, stiff.
  c.request_stop();
  CHECK(c.stop_requested());
  c.step(now += 2ms);
  CHECK(c.stop_requested());
  CHECK(stiff(robot.last_command().command));

  const auto frames = robot.commands_received();
  const auto outcome = c.finish();
  REQUIRE(robot.commands_received() == frames + 1);
  const auto& last = robot.last_command();
  CHECK(last.time == now);
  CHECK(is_damping(last.command, 2.5));
  CHECK(at_pose(last.command, c.last_state().q));  // damped where the joints were measured
  REQUIRE(c.final_command().has_value());
  CHECK(same(*c.final_command(), last.command));
  INFO(outcome.summary());
  CHECK(outcome.ok());
  CHECK(outcome.safe_state_sent == k_damping_sent);
  CHECK_FALSE(c.stop_requested());

  // Nothing commanded since: a second finish() sends nothing.
  (void)c.finish();
  CHECK(robot.commands_received() == frames + 1);

  // Stepping may start again; the first fault of that stepping is finish()'s outcome, once.
  c.step(now += 2ms);
  CHECK(robot.commands_received() == frames + 2);
  robot.drop_states(now, now + 10s);
  for (int i = 0; i < 100; ++i) c.step(now += 2ms);  // silent for 200 ms: the state is stale after 100 ms
  CHECK(c.safety().stale);
  const auto lost = c.finish();
  INFO(lost.summary());
  CHECK(lost.end == praxis::control::RunEnd::control_lost);
  CHECK_THAT(lost.cause, Catch::StartsWith("stale state"));
  CHECK_FALSE(lost.ok());
  CHECK(c.finish().end == praxis::control::RunEnd::normal);
}

// ---------------------------------------------------------------------------------------------
// How runs start

TEST_CASE("a run after step()-driven use first damps the stepped command then starts its graph from damping",
          "[control][runtime][threads]") {
  // The stepped clock runs 1 s behind the real one, so that the run's states come after the stepped ones.
  const auto origin = praxis::Clock::now() - 1s;
  Mock robot({}, origin);
  Library library;
  auto options = quiet();
  options.damping_kd = 2.5;
  options.dispatch_duration = 40ms;
  options.safety.stale_timeout = 1s;  // a receive thread starved on a loaded machine is not this test's subject
  Controller<Mock> c(robot, library, options);
  c.behaviour().command = m::command::Stand{};
  praxis::TimePoint now = origin;
  for (int i = 0; i < 100; ++i) c.step(now += 2ms);
  REQUIRE(c.selection().current == MotionType::stand);
  REQUIRE(stiff(robot.last_command().command));
  const auto stepped_q = c.last_state().q;
  const auto stepped_frames = robot.commands_received();
  const auto stepped_cycles = c.cycles();
  CHECK(c.behaviour().resets == 0);  // step() never resets the graph

  // The mock catches up with the real clock here, not in the run's first read (slow under ASan).
  robot.advance_to(praxis::Clock::now());
  robot.advance_to(praxis::Clock::now());
  // Dispatching now lasts longer than the run: a run that starts from damping ends dispatching.
  c.node<m::DispatchingMotion<G1>>().duration = 10s;
  const auto outcome = c.run_for(500ms);
  INFO(outcome.summary());
  CHECK(outcome.ok());
  const auto log = robot.command_log();
  REQUIRE(log.size() > stepped_frames + 1);
  // The stepped command is damped first, at the stepped clock, where the stepped state had the joints.
  CHECK(log[stepped_frames].time == now);
  CHECK(is_damping(log[stepped_frames].command, 2.5));
  CHECK(at_pose(log[stepped_frames].command, stepped_q));
  // The graph was reset once: the selection started in damping and went toward stand again.
  CHECK(c.behaviour().resets == 1);
  CHECK(c.cycles() > stepped_cycles);
  CHECK(c.selection().current == MotionType::dispatching);
  CHECK(c.selection().dispatching_to == MotionType::stand);
  c.flush();
  const auto transitions = c.transitions();
  CHECK(std::any_of(transitions.begin(), transitions.end(), [&](const praxis::control::TransitionEvent& e) {
    return e.cycle >= stepped_cycles && e.from == MotionType::damping && e.to == MotionType::dispatching;
  }));
}

TEST_CASE("a run starts with empty mailboxes and no state: nothing of the last run reaches the next",
          "[control][runtime][threads]") {
  Mock robot({}, praxis::Clock::now());  // simulated time = the real clock
  Library library;
  auto options = quiet();
  options.damping_kd = 2.5;
  options.dispatch_duration = 40ms;
  options.safety.stale_timeout = 300ms;
  // The send thread would send even an old command as it is: a command left in the mailbox would
  // reach the robot in the next run.
  options.command_timeout = 5s;
  options.stall_timeout = 10s;
  Controller<Mock> c(robot, library, options);
  c.behaviour().command = m::command::Stand{};
  std::uint64_t stop_at = 100;
  c.behaviour().on_cycle = [&](std::uint64_t n) {
    if (n != stop_at) return;
    // Meanwhile the receive thread publishes states the control thread will not take any more; the
    // command of this cycle, published after the stop, is one the send thread will not take either.
    std::this_thread::sleep_for(5ms);
    c.request_stop();
  };

  const auto first = c.run_for(20s);
  INFO(first.summary());
  CHECK(c.cycles() == 100);  // stopped in its 100th cycle: no cycle after it
  REQUIRE(stiff(c.actuated()));  // what the first run's last cycle handed over
  const auto log1 = robot.command_log();
  REQUIRE(std::any_of(log1.begin(), log1.end(), [](const auto& e) { return stiff(e.command); }));

  // The robot goes silent, and the first run's last state grows older than the stale timeout.
  robot.drop_states(praxis::Clock::now(), praxis::TimePoint::max());
  std::this_thread::sleep_for(600ms);
  const auto frames = robot.commands_received();
  stop_at = 0;
  const auto second = c.run_for(300ms);
  INFO(second.summary());
  // The robot sent nothing in this run, so every cycle had no state and damped. A command kept
  // from the first run would reach the robot as a stiff frame; a state kept (in the mailbox or in
  // the cycle's input) would be this run's state.
  CHECK(second.ok());
  CHECK(second.end == praxis::control::RunEnd::normal);
  const auto log2 = robot.command_log();
  REQUIRE(log2.size() > frames);
  std::size_t not_damping = 0;
  for (std::size_t k = frames; k < log2.size(); ++k) not_damping += is_damping(log2[k].command, 2.5) ? 0 : 1;
  CHECK(not_damping == 0);
  CHECK(c.safety().no_state);
  CHECK(c.last_state().sequence == 0);
  CHECK(c.behaviour().resets == 2);
}

// ---------------------------------------------------------------------------------------------
// Stops

TEST_CASE("a stop requested before run() ends that run before its first cycle and is consumed by it",
          "[control][runtime][threads]") {
  Mock robot({}, praxis::Clock::now());
  Library library;
  Controller<Mock> c(robot, library, quiet());
  std::uint64_t stop_at = 0;
  c.behaviour().on_cycle = [&](std::uint64_t n) {
    if (n == stop_at) c.request_stop();
  };
  CHECK_FALSE(c.stop_requested());

  c.request_stop();  // e.g. Ctrl-C while the program was still starting
  CHECK(c.stop_requested());
  const auto first = c.run_for(20s);
  CHECK(first.ok());
  CHECK(first.signal == 0);
  CHECK_FALSE(c.stop_requested());
  CHECK(c.cycles() == 0);
  CHECK(c.behaviour().resets == 0);  // it ended before the graph was even reset
  CHECK(robot.states_published() == 0);  // nothing was read
  CHECK(robot.commands_received() == 0);

  // The same from a signal handler: the outcome names the signal.
  c.request_stop_from_signal(SIGTERM);
  CHECK(c.stop_requested());
  const auto signalled = c.run_for(20s);
  CHECK(signalled.signal == SIGTERM);
  CHECK_FALSE(c.stop_requested());
  CHECK(c.cycles() == 0);
  CHECK(robot.commands_received() == 0);

  // Both stops were consumed: the next run runs, here until the probe stops it in its 20th cycle.
  stop_at = 20;
  const auto third = c.run_for(20s);
  INFO(third.summary());
  CHECK(third.ok());
  CHECK(third.signal == 0);
  CHECK(c.cycles() == 20);
  CHECK(c.behaviour().resets == 1);
  CHECK(robot.commands_received() > 0);
  CHECK_FALSE(c.stop_requested());

  // A stop between runs is not lost either.
  c.request_stop();
  (void)c.run_for(20s);
  CHECK(c.cycles() == 20);
  CHECK(c.behaviour().resets == 1);
}

TEST_CASE("a stop requested after step()-driven use still damps what the stepping left stiff",
          "[control][runtime][threads]") {
  const auto origin = praxis::Clock::now() - 1s;
  Mock robot({}, origin);
  Library library;
  auto options = quiet();
  options.damping_kd = 2.5;
  Controller<Mock> c(robot, library, options);
  c.behaviour().command = m::command::Stand{};
  praxis::TimePoint now = origin;
  for (int i = 0; i < 100; ++i) c.step(now += 2ms);
  REQUIRE(stiff(robot.last_command().command));
  const auto stepped_frames = robot.commands_received();
  const auto stepped_q = c.last_state().q;

  c.request_stop();
  const auto outcome = c.run_for(20s);
  INFO(outcome.summary());
  CHECK(outcome.ok());
  // The run ended before its first cycle, but the stiff stand did not outlive it: one damping frame.
  REQUIRE(robot.commands_received() == stepped_frames + 1);
  CHECK(is_damping(robot.last_command().command, 2.5));
  CHECK(at_pose(robot.last_command().command, stepped_q));
  REQUIRE(c.final_command().has_value());
  CHECK(is_damping(*c.final_command(), 2.5));
}

// ---------------------------------------------------------------------------------------------
// The timer loop's counts

TEST_CASE("Trigger::timer counts one wake-up per cycle of the last run and skips the deadlines a long cycle missed",
          "[control][runtime][threads]") {
  Mock robot({}, praxis::Clock::now());
  Library library;
  auto options = quiet();
  options.period = 2ms;
  options.safety.stale_timeout = 500ms;
  options.stall_timeout = 2s;  // the long cycle below is not a stall to damp
  Controller<Mock> c(robot, library, options);
  bool stalled = false;
  c.behaviour().on_cycle = [&](std::uint64_t n) {
    if (n == 50) {
      std::this_thread::sleep_for(10ms);  // 5 periods
      stalled = true;
    }
  };
  const auto outcome = c.run_for(600ms);
  INFO(outcome.summary());
  INFO("cycles " << c.cycles() << ", overruns " << c.overruns());
  REQUIRE(stalled);
  // After the long cycle the loop found four deadlines or more already past: skipped and counted,
  // not run back to back.
  CHECK(c.overruns() >= 3);
  // 300 deadlines in 600 ms: each one either ran a cycle or was skipped.
  CHECK(c.cycles() + c.overruns() <= 300);
  // One wake-up per cycle run; a skipped deadline has none.
  const auto late = c.lateness();
  CHECK(late.samples == c.cycles());
  CHECK(c.lateness_histogram().samples() == c.cycles());
  CHECK(late.p50 <= late.max);

  // The next run's lateness is its own.
  c.behaviour().on_cycle = nullptr;
  const auto before = c.cycles();
  (void)c.run_for(200ms);
  REQUIRE(c.cycles() > before);
  CHECK(c.lateness().samples == c.cycles() - before);
}

TEST_CASE("Trigger::state has no deadlines: its run counts cycles and no lateness", "[control][runtime][threads]") {
  Mock mock({}, praxis::Clock::now());
  praxis::test::LoopScriptedRobot<Mock> robot(mock, nullptr);  // wakes the loop every 2 ms
  Library library;
  auto options = quiet();
  options.trigger = praxis::control::Trigger::state;
  options.safety.stale_timeout = 500ms;
  Controller<praxis::test::LoopScriptedRobot<Mock>> c(robot, library, options);
  const auto outcome = c.run_for(300ms);
  INFO(outcome.summary());
  CHECK(c.cycles() > 0);
  CHECK(c.lateness().samples == 0);
  CHECK(c.overruns() == 0);
}

// ---------------------------------------------------------------------------------------------
// How runs end

TEST_CASE("every run on a joint-owned robot ends with damping as its last frame and a node's exception reaches "
          "run()'s caller as thrown",
          "[control][runtime][threads]") {
  Mock robot({}, praxis::Clock::now());
  Library library;
  auto options = quiet();
  options.damping_kd = 3.0;
  options.dispatch_duration = 40ms;
  options.safety.stale_timeout = 500ms;
  Controller<Mock> c(robot, library, options);
  c.behaviour().command = m::command::Stand{};
  std::uint64_t stop_at = 150, throw_at = 0;
  c.behaviour().on_cycle = [&](std::uint64_t n) {
    if (n == stop_at) c.request_stop();
    if (n == throw_at) throw NodeFailure("the probe failed on purpose");
  };
  CHECK_FALSE(c.final_command().has_value());

  // A normal end, standing: the last frame is damping at the measured pose, and it is final_command().
  const auto outcome = c.run_for(20s);
  INFO(outcome.summary());
  CHECK(outcome.ok());
  CHECK(outcome.safe_state_sent == k_damping_sent);
  REQUIRE(c.selection().current == MotionType::stand);
  {
    const auto log = robot.command_log();
    REQUIRE(log.size() > 2);
    CHECK(stiff(log[log.size() - 2].command));  // standing until the end
    REQUIRE(c.final_command().has_value());
    CHECK(same(*c.final_command(), log.back().command));
    CHECK(is_damping(log.back().command, 3.0));
    CHECK(at_pose(log.back().command, c.last_state().q));
  }

  // A node throws in the 100th cycle of the next run: the run ends there, the robot is damped, and
  // the exception reaches the caller as the node threw it.
  stop_at = 0;
  throw_at = 100;
  const auto before = c.cycles();
  REQUIRE_THROWS_AS(c.run_for(20s), NodeFailure);
  CHECK(c.cycles() - before == 99);  // the 100th cycle did not complete
  CHECK_FALSE(c.stop_requested());  // the stop the fault requested was consumed by the run it ended
  CHECK(c.outcome().safe_state_sent == k_damping_sent);
  {
    const auto log = robot.command_log();
    REQUIRE(log.size() > 2);
    CHECK(stiff(log[log.size() - 2].command));
    REQUIRE(c.final_command().has_value());
    CHECK(same(*c.final_command(), log.back().command));
    CHECK(is_damping(log.back().command, 3.0));
    CHECK(at_pose(log.back().command, c.last_state().q));
  }

  // Nothing of the fault is left: the next run runs until it is stopped.
  throw_at = 0;
  stop_at = 20;
  const auto after = c.cycles();
  praxis::control::RunOutcome third;
  CHECK_NOTHROW(third = c.run_for(20s));
  CHECK(third.ok());
  CHECK(c.cycles() - after == 20);
}

}  // namespace runtime_test
