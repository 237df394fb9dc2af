#pragma once
// praxis-guard's watch and its last word, for any backend that names itself to it
// (control/guard.hpp has the whole story). One template: the backend the controller ran, built
// again here from the same options on this process' own DDS participant.

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "praxis/control/detail/guard_block.hpp"
#include "praxis/control/safe_state.hpp"
#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis::guard {

using control::detail::GuardBlock;
using control::detail::GuardPhase;

// How long a robot walking by itself is told to stand still before its safe mode is asked.
inline constexpr Duration k_stand_still = std::chrono::milliseconds(500);

struct Watch {
  GuardBlock* block = nullptr;
  int pidfd = -1;         // the controller's process
  int controller = 0;     // its pid, for messages
  std::string name;       // backend and model, for messages
};

inline void set_phase(GuardBlock& b, GuardPhase p) { b.phase.store(static_cast<std::uint32_t>(p), std::memory_order_release); }
inline GuardPhase phase_of(const GuardBlock& b) {
  return static_cast<GuardPhase>(b.phase.load(std::memory_order_acquire));
}
inline void say(GuardBlock& b, const std::string& text) {
  const auto n = std::min(text.size(), sizeof b.message - 1);
  std::memcpy(b.message, text.data(), n);
  b.message[n] = '\0';
}

// Whether the controller's process ended (its pidfd readable).
inline bool controller_gone(int pidfd) {
  pollfd p{pidfd, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

// Builds nothing itself: `backend` is the controller's backend, made from its options, not taken
// (adopt(): reading, writing only when told). Returns the process exit code.
template <class B>
int watch_and_guard(B& backend, Watch& w) {
  using Model = typename B::model;
  constexpr std::size_t N = Model::joint_count;
  constexpr SafeState kind = safe_state_of<B>();
  GuardBlock& block = *w.block;
  const Duration silence(block.silence_ns.load());

  const auto adopted = backend.adopt(std::chrono::seconds(10));
  if (!adopted.ok) {
    say(block, "could not watch the robot: " + adopted.message);
    set_phase(block, GuardPhase::failed);
    return 2;
  }
  auto expected = static_cast<std::uint32_t>(GuardPhase::starting);
  block.phase.compare_exchange_strong(expected, static_cast<std::uint32_t>(GuardPhase::watching));

  RobotState<N> state{};
  bool have_state = false;
  const char* why = nullptr;
  Duration silent_for{};
  while (true) {
    if (backend.read(state, Clock::now())) have_state = true;
    const auto p = phase_of(block);
    if (p == GuardPhase::handed_back) return 0;
    const bool gone = controller_gone(w.pidfd);
    const auto beat = TimePoint(Duration(block.heartbeat_ns.load(std::memory_order_acquire)));
    silent_for = Clock::now() - beat;
    if (gone) {
      why = "ended";
      break;
    }
    if (p == GuardPhase::watching && silent_for > silence) {
      why = "ran no cycle";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // Claim the robot first: a controller that wakes up sees it and sends nothing more. It may have
  // handed back in the meantime (a normal end that raced the silence): then there is nothing to do.
  block.silenced.store(1, std::memory_order_release);  // the controller's request workers stop first
  for (auto from : {GuardPhase::watching, GuardPhase::controller_safe}) {
    auto f = static_cast<std::uint32_t>(from);
    if (block.phase.compare_exchange_strong(f, static_cast<std::uint32_t>(GuardPhase::acting))) break;
  }
  if (phase_of(block) != GuardPhase::acting) {
    block.silenced.store(0, std::memory_order_release);  // handed back meanwhile: nothing was taken
    return 0;
  }
  const TimePoint acted = Clock::now();
  block.acted_after_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(silent_for).count());
  // A backend that learns where the robot is only now, taking over: by asking it (Booster's robot
  // modes: GetMode) or from the mode the controller assumed last (a Unitree walking by itself).
  std::string taking;
  if constexpr (requires { backend.guard_take(std::chrono::seconds(1), RobotMode::unknown); }) {
    const auto taken = backend.guard_take(std::chrono::seconds(3), static_cast<RobotMode>(block.assumed_mode.load()));
    if (!taken.ok) taking = "taking over: " + taken.message + "; ";
  }

  // What the run's end would have sent: the safe command on the joints the last command covered,
  // from the measured state (a velocity joint told speed 0 first, so that the backend stops it
  // before damping it), then the safe mode where requests were posted, then the hand-back.
  JointCommand<N> last;
  last.mode.fill(JointMode::none);
  for (std::size_t j = 0; j < N; ++j) last.mode[j] = static_cast<JointMode>(block.modes[j].load());
  std::string sent;
  if (last.covers_any() && have_state) {
    JointCommand<N> safe = last;
    control::make_safe<kind, Model>(safe, state.q, block.damping_kd);
    // First the safe command with every velocity joint told speed 0 (this backend has not seen them
    // turn: so it learns which to stop), then the safe command alone.
    JointCommand<N> stop = safe;
    std::size_t velocity_joints = 0;
    for (std::size_t j = 0; j < N; ++j) {
      if (last.mode[j] != JointMode::velocity) continue;
      ++velocity_joints;
      const auto i = static_cast<Eigen::Index>(j);
      stop.mode[j] = JointMode::velocity;
      stop.dq[i] = 0.0;
      stop.kd[i] = safe.kd[i];
      stop.tau_ff[i] = 0.0;
    }
    if (velocity_joints > 0) backend.write(stop, Clock::now());
    // A few periods of it: a best-effort topic may lose one frame.
    for (int k = 0; k < 50; ++k) {
      if (backend.read(state, Clock::now()) && kind == SafeState::joint_damping) damp_covered(safe, state.q, block.damping_kd);
      backend.write(safe, Clock::now());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (velocity_joints > 0) {
      sent = "speed 0 to " + std::to_string(velocity_joints) + (velocity_joints == 1 ? " joint" : " joints") +
             " in velocity mode, ";
    }
    sent += kind == SafeState::joint_damping ? "joint damping" : "a hold of the measured pose";
  }
  // The robot's state keeps being read while the guard acts, as the controller's receive thread
  // would: a backend that sees no state believes the link lost (and forgets what it knew).
  const auto keep_reading = [&](Duration d) {
    const auto until = Clock::now() + d;
    do {
      (void)backend.read(state, Clock::now());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    } while (Clock::now() < until);
  };
  if constexpr (PostsRequests<B>) {
    if (block.posted.load() != 0) {
      // A robot in its walking mode is told to stand still first (Booster: a zero Move), then the
      // safe mode: a walking robot's motors are not made soft under it mid-step. Only in its walking
      // mode: asking for locomotion elsewhere would be a mode change.
      RobotStatus status;
      if constexpr (ReportsStatus<B>) {
        // The mode a worker learnt when taking over comes with its first status.
        const auto until = Clock::now() + std::chrono::milliseconds(300);
        while (backend.read_status(status), status.assumed_mode == RobotMode::unknown && Clock::now() < until) {
          keep_reading(std::chrono::milliseconds(5));
        }
      }
      // Where the backend itself does not know yet, the controller's last word counts.
      const auto controller_assumed = static_cast<RobotMode>(block.assumed_mode.load());
      if (status.assumed_mode == RobotMode::locomotion ||
          (status.assumed_mode == RobotMode::unknown && controller_assumed == RobotMode::locomotion)) {
        RobotRequests still;
        still.any = true;
        still.mode = RobotMode::locomotion;
        still.motion = MotionType::stand;
        still.locomotion.active = true;
        backend.post(still);
        keep_reading(k_stand_still);
        sent = "standing still (zero velocity), then ";
      }
      RobotRequests r;
      r.any = true;
      r.mode = safe_mode_of<B>();
      r.motion = MotionType::damping;
      backend.post(r);
      if (!sent.empty() && sent.back() != ' ') sent += ", ";
      sent += std::string(to_string(safe_mode_of<B>())) + " mode requested";
    }
  }
  const double silent_ms = std::chrono::duration<double, std::milli>(silent_for).count();
  std::string release_text = "nothing to hand back";
  bool released_ok = true;
  if constexpr (HasLifecycle<B>) {
    const auto r = backend.release(std::chrono::seconds(10));
    release_text = r.message;
    released_ok = r.ok;
  }
  const double took_ms = std::chrono::duration<double, std::milli>(Clock::now() - acted).count();
  char head[256];
  std::snprintf(head, sizeof head,
                "the controller (pid %d) %s: from %.0f ms after its last cycle, %s; hand-back %s in %.0f ms: ",
                w.controller, why, silent_ms,
                sent.empty() ? "nothing to send (no joint command, no request)" : sent.c_str(),
                released_ok ? "done" : "not confirmed", took_ms);
  const std::string report = std::string(head) + taking + release_text;
  std::printf("praxis-guard (%s): %s\n", w.name.c_str(), report.c_str());
  std::fflush(stdout);
  say(block, report);
  set_phase(block, GuardPhase::done);
  return released_ok ? 0 : 1;
}

}  // namespace praxis::guard
