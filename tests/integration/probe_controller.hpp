#pragma once
// A USER_CTRL that lets a threaded test act at a known point of the controller's life: the n-th
// calculate() after its k-th reset (RobotController resets it on entering STAND, where it runs warm,
// and again on entering CTRL: after reset #2 it is in CTRL). It holds its init_pos (the model's stand
// pose) with kp 60, so frames from CTRL are told from damping and holds by their gains. Shared by
// runtime_faults_test and safe_edges_test.

#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>

#include "praxis/core/clock.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::test {

inline constexpr double k_probe_kp = 60.0;

struct Probe {
  std::atomic<int> resets{0};
  // (resets so far, calculate() calls since the last reset); runs on the control thread.
  std::function<void(int, int)> on_calculate;
};

template <RobotModel Model>
struct ProbeController {
  static constexpr std::size_t N = Model::joint_count;
  double dt = 0.002, kp = k_probe_kp, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  Probe* probe = nullptr;
  int calls = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const RobotState<N>&, const Gamepad&) {
    calls = 0;
    probe->resets.fetch_add(1, std::memory_order_acq_rel);
  }
  void get_input(const RobotState<N>&, const Gamepad&) {}
  void calculate() {
    jpos_des = init_pos;
    ++calls;
    if (probe->on_calculate) probe->on_calculate(probe->resets.load(std::memory_order_acquire), calls);
  }
  std::array<float, 1> log() const { return {static_cast<float>(calls)}; }
};

template <RobotModel Model>
ProbeController<Model> probing(Probe& probe) {
  ProbeController<Model> c;
  c.probe = &probe;
  return c;
}

// The gamepad script that takes a mock from DAMPING through STAND to CTRL: R2 held 1.4 s, four
// times the pd_ratio ramp's 170 cycles at 2 ms (a loaded machine runs far fewer cycles than
// nominal), released before A, so a run stopped in CTRL leaves no button held for the next run's
// first cycle; A tapped twice (A does nothing in CTRL), each long enough to survive a starved cycle.
template <class Mock>
void stand_then_ctrl(Mock& mock, TimePoint origin) {
  using namespace std::chrono_literals;
  mock.hold(GamepadButton::R2, origin + 50ms, 1400ms);
  mock.tap(GamepadButton::A, origin + 1500ms, 200ms);
  mock.tap(GamepadButton::A, origin + 2100ms, 200ms);
}

}  // namespace praxis::test
