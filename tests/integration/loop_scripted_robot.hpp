#pragma once
// LoopScriptedRobot: a mock robot whose scene script (gamepad, faults) is laid out when run()'s loop
// starts, not when the test set it up. Under load, constructing the controller and starting its
// threads can take longer than the script's first steps (a button hold could be over before the
// first cycle). Arm it from RuntimeOptions::on_thread_start(ThreadRole::control); the next read()
// applies the script with its own `now` as the origin, on the thread that reads, so the mock is only
// scripted by the thread that also advances it. It can also wake a state-triggered loop (a feeder
// thread notifies once per state period while the runtime holds a Wakeup).

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/wakeup.hpp"

namespace praxis::test {

template <class Robot>
class LoopScriptedRobot {
 public:
  using model = typename Robot::model;
  static constexpr std::size_t N = model::joint_count;
  static constexpr JointModeSet joint_modes = Robot::joint_modes;
  using Script = std::function<void(Robot&, TimePoint origin)>;

  LoopScriptedRobot(Robot& robot, Script script, Duration wake_period = std::chrono::milliseconds(2))
      : robot_(robot), script_(std::move(script)), wake_period_(wake_period) {}
  LoopScriptedRobot(const LoopScriptedRobot&) = delete;
  LoopScriptedRobot& operator=(const LoopScriptedRobot&) = delete;
  ~LoopScriptedRobot() { set_wakeup(nullptr); }

  // From the control thread's start hook: the next read() lays out the script.
  void arm() { armed_.store(true, std::memory_order_release); }
  // How many times the script was laid out (read it after run() returned).
  [[nodiscard]] int scripted() const { return scripted_.load(std::memory_order_acquire); }

  bool read(RobotState<N>& out, TimePoint now) {
    if (armed_.exchange(false, std::memory_order_acq_rel)) {
      if (script_) script_(robot_, now);
      scripted_.fetch_add(1, std::memory_order_acq_rel);
    }
    return robot_.read(out, now);
  }
  void write(const JointCommand<N>& command, TimePoint now) { robot_.write(command, now); }

  void set_wakeup(Wakeup* wakeup) {
    if (feeder_.joinable()) {
      feeding_.store(false, std::memory_order_release);
      feeder_.join();
    }
    if (wakeup == nullptr) return;
    feeding_.store(true, std::memory_order_release);
    feeder_ = std::thread([this, wakeup] {
      auto next = Clock::now();
      while (feeding_.load(std::memory_order_acquire)) {
        wakeup->notify();
        next += wake_period_;
        std::this_thread::sleep_until(next);
      }
    });
  }

 private:
  Robot& robot_;
  Script script_;
  Duration wake_period_;
  std::atomic<bool> armed_{false};
  std::atomic<int> scripted_{0};
  std::atomic<bool> feeding_{false};
  std::thread feeder_;
};

}  // namespace praxis::test
