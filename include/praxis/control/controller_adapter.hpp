#pragma once
// ControllerAdapter<C, N>: drives a USER_CTRL (control/user_controller.hpp) of either spelling
// through one interface: its parameters, reset and step, its targets, gains and modes per joint
// (a gain given as one number is every joint's; an absent optional member reads as its neutral
// value), whether its gains are valid, and its log values. For the framework spelling it fills the
// RobotInterface before Reset and GetInput. UserControlMotion and RobotController hold one.

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <span>
#include <type_traits>
#include <utility>

#include "praxis/control/unitree_framework.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::control {

// Drives either spelling through one interface.
template <class C, std::size_t N>
class ControllerAdapter {
 public:
  static constexpr bool framework_style = !SnakeCaseController<C, N>;
  static constexpr bool per_joint_kp =
      !std::convertible_to<decltype(std::declval<C&>().kp), double>;
  static constexpr bool per_joint_kd =
      !std::convertible_to<decltype(std::declval<C&>().kd), double>;
  static constexpr bool has_jvel_des = requires(C& c) { c.jvel_des; };
  static constexpr bool has_tau_ff = requires(C& c) { c.tau_ff; };
  static constexpr bool has_joint_mode = requires(C& c) { c.joint_mode; };

  ControllerAdapter() = default;
  explicit ControllerAdapter(C controller) : ctrl_(std::move(controller)) {}

  void load_params(const std::filesystem::path& folder) {
    if constexpr (framework_style) {
      std::filesystem::path copy = folder;  // the framework takes a non-const path
      ctrl_.LoadParam(copy);
    } else {
      ctrl_.load_params(folder);
    }
  }

  void reset(const RobotState<N>& state, const Gamepad& pad) {
    if constexpr (framework_style) {
      robot_.GetState(state);
      pad_ = pad;
      ctrl_.Reset(robot_, pad_);
    } else {
      ctrl_.reset(state, pad);
    }
  }

  void step(const RobotState<N>& state, const Gamepad& pad) {
    if constexpr (framework_style) {
      robot_.GetState(state);
      pad_ = pad;
      ctrl_.GetInput(robot_, pad_);
      ctrl_.Calculate();
    } else {
      ctrl_.get_input(state, pad);
      ctrl_.calculate();
    }
  }

  [[nodiscard]] double dt() const { return static_cast<double>(ctrl_.dt); }

  // Joint j's gains: the controller's number, or its j-th entry when it gives one per joint.
  [[nodiscard]] double kp(std::size_t j) const { return detail::joint_value(ctrl_.kp, j); }
  [[nodiscard]] double kd(std::size_t j) const { return detail::joint_value(ctrl_.kd, j); }

  // One gain for all joints: the controller's number, or for per-joint gains the largest of them
  // (NaN if any is NaN). Kept for callers that still send one gain; prefer kp(j) / kd(j).
  [[nodiscard]] double kp() const { return largest(ctrl_.kp); }
  [[nodiscard]] double kd() const { return largest(ctrl_.kd); }

  // True when every joint's kp and kd is finite and not negative.
  [[nodiscard]] bool gains_valid() const {
    for (std::size_t j = 0; j < N; ++j) {
      const double p = kp(j);
      const double d = kd(j);
      if (!(std::isfinite(p) && p >= 0.0 && std::isfinite(d) && d >= 0.0)) return false;
    }
    return true;
  }

  [[nodiscard]] double init_pos(std::size_t j) const {
    return detail::joint_value(ctrl_.init_pos, j);
  }
  [[nodiscard]] double jpos_des(std::size_t j) const {
    return detail::joint_value(ctrl_.jpos_des, j);
  }

  // The optional targets: the controller's jvel_des / tau_ff, 0 for a controller without them.
  [[nodiscard]] double dq_des(std::size_t j) const {
    if constexpr (has_jvel_des) {
      return detail::joint_value(ctrl_.jvel_des, j);
    } else {
      (void)j;
      return 0.0;
    }
  }
  // Joint j's mode: the controller's joint_mode, position for a controller without it.
  [[nodiscard]] JointMode mode(std::size_t j) const {
    if constexpr (has_joint_mode) {
      return ctrl_.joint_mode[j];
    } else {
      (void)j;
      return JointMode::position;
    }
  }
  [[nodiscard]] double tau_ff(std::size_t j) const {
    if constexpr (has_tau_ff) {
      return detail::joint_value(ctrl_.tau_ff, j);
    } else {
      (void)j;
      return 0.0;
    }
  }

  // Copies the controller's log values into `out`, returning how many it had (possibly more than
  // fit). The framework's GetLog() returns a std::vector and therefore allocates; praxis' log()
  // spelling does not.
  std::size_t log_into(std::span<float> out) {
    auto copy = [&](const auto& values) {
      std::size_t n = 0;
      for (const auto v : values) {
        if (n < out.size()) out[n] = static_cast<float>(v);
        ++n;
      }
      return n;
    };
    if constexpr (framework_style) {
      return copy(ctrl_.GetLog());
    } else {
      return copy(ctrl_.log());
    }
  }

  [[nodiscard]] C& controller() { return ctrl_; }
  [[nodiscard]] const C& controller() const { return ctrl_; }

 private:
  template <class G>
  static double largest(const G& gain) {
    if constexpr (std::convertible_to<const G&, double>) {
      return static_cast<double>(gain);
    } else {
      double m = detail::joint_value(gain, 0);
      for (std::size_t j = 1; j < N && !std::isnan(m); ++j) {
        const double v = detail::joint_value(gain, j);
        if (std::isnan(v) || v > m) m = v;
      }
      return m;
    }
  }

  C ctrl_{};
  unitree_framework::RobotInterface<N> robot_{};
  unitree_framework::Gamepad pad_{};
};

}  // namespace praxis::control
