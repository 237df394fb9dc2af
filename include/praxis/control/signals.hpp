#pragma once
// StopOnSignals: Ctrl-C (SIGINT) and SIGTERM end a run the way request_stop() does, so the robot gets
// its safe state (joint damping, the hold and hand-back, or the safe mode request: see
// docs/safety.md) instead of whatever the last command was when the process died.
//
//   praxis::control::RobotController<Robot, MyController> controller(robot);
//   praxis::control::StopOnSignals stop_on_signals(controller);   // for as long as this object lives
//   const auto outcome = controller.run();               // returns after Ctrl-C, safe state sent
//   return outcome.exit_code();
//
// The handler only stores two atomics per registered runtime (async-signal-safe); the run sees the
// stop within a control period. A second signal while the first is being handled gets the signal's
// default action (the process ends at once, without the safe state): the way out of a hand-back
// that waits on a robot that does not answer. The previous handlers come back with the last
// StopOnSignals destroyed. At most k_max_targets runtimes at once.

#include <array>
#include <atomic>
#include <csignal>
#include <cstddef>
#include <stdexcept>

namespace praxis::control {

namespace detail {

struct SignalTarget {
  void* object = nullptr;
  void (*stop)(void*, int) noexcept = nullptr;
};

inline constexpr std::size_t k_max_signal_targets = 8;

struct SignalRegistry {
  std::array<std::atomic<SignalTarget*>, k_max_signal_targets> targets{};
  std::atomic<int> received{0};     // signals received since the first StopOnSignals
  std::atomic<int> installed{0};    // live StopOnSignals objects
  struct sigaction previous_int {};
  struct sigaction previous_term {};
};

inline SignalRegistry& signal_registry() {
  static SignalRegistry registry;
  return registry;
}

extern "C" inline void praxis_stop_signal_handler(int sig) {
  auto& r = signal_registry();
  if (r.received.fetch_add(1, std::memory_order_acq_rel) > 0) {
    // The second signal: the user insists. Default action, now.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  for (auto& slot : r.targets) {
    if (SignalTarget* t = slot.load(std::memory_order_acquire); t != nullptr) t->stop(t->object, sig);
  }
}

}  // namespace detail

class StopOnSignals {
 public:
  // `runtime`: anything with request_stop_from_signal(int) noexcept (every praxis configuration).
  template <class Runtime>
  explicit StopOnSignals(Runtime& runtime) {
    target_.object = &runtime;
    target_.stop = [](void* o, int sig) noexcept { static_cast<Runtime*>(o)->request_stop_from_signal(sig); };
    auto& r = detail::signal_registry();
    bool placed = false;
    for (auto& slot : r.targets) {
      detail::SignalTarget* empty = nullptr;
      if (slot.compare_exchange_strong(empty, &target_, std::memory_order_acq_rel)) {
        placed = true;
        break;
      }
    }
    if (!placed) {
      throw std::length_error("praxis::control::StopOnSignals: more than 8 runtimes registered at once");
    }
    if (r.installed.fetch_add(1, std::memory_order_acq_rel) == 0) {
      r.received.store(0, std::memory_order_release);
      struct sigaction action {};
      action.sa_handler = &detail::praxis_stop_signal_handler;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESTART;
      sigaction(SIGINT, &action, &r.previous_int);
      sigaction(SIGTERM, &action, &r.previous_term);
    }
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
  ~StopOnSignals() {
    auto& r = detail::signal_registry();
    for (auto& slot : r.targets) {
      detail::SignalTarget* mine = &target_;
      if (slot.compare_exchange_strong(mine, nullptr, std::memory_order_acq_rel)) break;
    }
    if (r.installed.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      sigaction(SIGINT, &r.previous_int, nullptr);
      sigaction(SIGTERM, &r.previous_term, nullptr);
    }
  }

  // How many SIGINT / SIGTERM arrived while a StopOnSignals was installed.
  [[nodiscard]] static int received() { return detail::signal_registry().received.load(std::memory_order_acquire); }

 private:
  detail::SignalTarget target_;
};

}  // namespace praxis::control
