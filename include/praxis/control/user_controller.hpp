#pragma once
// USER_CTRL: the controller a robot team writes and tests with RobotController.
//
// Either spelling is accepted (see docs/controller.md):
//
//   praxis (snake_case)                              Unitree deployment framework
//   void load_params(const std::filesystem::path&)   void LoadParam(std::filesystem::path&)
//   void reset(const RobotState<N>&, const Gamepad&) void Reset(RobotInterface&, Gamepad&)
//   void get_input(const RobotState<N>&, const Gamepad&)
//                                                    void GetInput(RobotInterface&, Gamepad&)
//   void calculate()                                 void Calculate()
//   log() -> a fixed-size range of float             std::vector<float> GetLog()
//
// and, in both, the members dt, kp, kd (numbers) and init_pos, jpos_des (N joint values each, as
// std::array<float|double, N> or an Eigen fixed-size vector). N must equal the robot's joint count.

#include <array>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <span>
#include <type_traits>
#include <utility>

#include "praxis/control/seed_compat.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis {

namespace detail {
template <class T>
struct fixed_size : std::integral_constant<std::size_t, 0> {};
template <class T, std::size_t N>
struct fixed_size<std::array<T, N>> : std::integral_constant<std::size_t, N> {};
template <class S, int R, int O, int MR, int MC>
  requires(R > 0)
struct fixed_size<Eigen::Matrix<S, R, 1, O, MR, MC>> : std::integral_constant<std::size_t, R> {};

template <class C>
concept has_joint_members = requires(C& c) {
  c.init_pos;
  c.jpos_des;
} && fixed_size<std::remove_cvref_t<decltype(std::declval<C&>().init_pos)>>::value > 0;
}  // namespace detail

// The joint count a controller was written for, read from its init_pos member (0 if it has none).
template <class C>
constexpr std::size_t controller_joint_count() {
  if constexpr (detail::has_joint_members<C>) {
    return detail::fixed_size<std::remove_cvref_t<decltype(std::declval<C&>().init_pos)>>::value;
  } else {
    return 0;
  }
}

template <class C>
concept HasControllerMembers = requires(C& c) {
  { c.dt } -> std::convertible_to<double>;
  { c.kp } -> std::convertible_to<double>;
  { c.kd } -> std::convertible_to<double>;
} && detail::has_joint_members<C>;

template <class C, std::size_t N>
concept SnakeCaseController =
    HasControllerMembers<C> && requires(C& c, const std::filesystem::path& folder,
                                        const RobotState<N>& state, const Gamepad& pad) {
      c.load_params(folder);
      c.reset(state, pad);
      c.get_input(state, pad);
      c.calculate();
      c.log();
    };

template <class C, std::size_t N>
concept SeedController =
    HasControllerMembers<C> && requires(C& c, std::filesystem::path& folder,
                                        seed::RobotInterface<N>& robot, seed::Gamepad& pad) {
      c.LoadParam(folder);
      c.Reset(robot, pad);
      c.GetInput(robot, pad);
      c.Calculate();
      c.GetLog();
    };

template <class C, std::size_t N>
concept UserController = (SnakeCaseController<C, N> || SeedController<C, N>) &&
                         controller_joint_count<C>() == N;

// Names the first thing a would-be controller lacks. Called by RobotController, so a user who
// passes the wrong type reads one precise sentence instead of a failed constraint dump.
template <class C, std::size_t N>
constexpr bool check_user_controller() {
  if constexpr (UserController<C, N>) {
    return true;
  } else {
    static_assert(requires(C& c) { { c.dt } -> std::convertible_to<double>; },
                  "USER_CTRL needs a member `dt` (control period in seconds, a number)");
    static_assert(requires(C& c) { { c.kp } -> std::convertible_to<double>; },
                  "USER_CTRL needs a member `kp` (position gain, a number)");
    static_assert(requires(C& c) { { c.kd } -> std::convertible_to<double>; },
                  "USER_CTRL needs a member `kd` (damping gain, a number)");
    static_assert(requires(C& c) { c.init_pos; },
                  "USER_CTRL needs a member `init_pos` (the stand pose: std::array<float, N> or an "
                  "Eigen fixed-size vector)");
    static_assert(requires(C& c) { c.jpos_des; },
                  "USER_CTRL needs a member `jpos_des` (joint targets, same type as init_pos)");
    static_assert(controller_joint_count<C>() != 0,
                  "USER_CTRL: `init_pos` must be a fixed-size std::array or Eigen vector");
    static_assert(controller_joint_count<C>() == N || controller_joint_count<C>() == 0,
                  "USER_CTRL was written for a different number of joints than this robot has: "
                  "the size of `init_pos` must equal the robot model's joint_count");
    constexpr bool snake_any = requires(C& c) { c.calculate(); };
    constexpr bool seed_any = requires(C& c) { c.Calculate(); };
    static_assert(snake_any || seed_any,
                  "USER_CTRL needs `void calculate()` (or the framework's `void Calculate()`)");
    if constexpr (snake_any) {
      static_assert(requires(C& c, const std::filesystem::path& p) { c.load_params(p); },
                    "USER_CTRL needs `void load_params(const std::filesystem::path& folder)`");
      static_assert(requires(C& c, const RobotState<N>& s, const Gamepad& g) { c.reset(s, g); },
                    "USER_CTRL needs `void reset(const praxis::RobotState<N>&, const "
                    "praxis::Gamepad&)`");
      static_assert(
          requires(C& c, const RobotState<N>& s, const Gamepad& g) { c.get_input(s, g); },
          "USER_CTRL needs `void get_input(const praxis::RobotState<N>&, const "
          "praxis::Gamepad&)`");
      static_assert(requires(C& c) { c.log(); },
                    "USER_CTRL needs `log()` returning a fixed-size range of float (e.g. "
                    "std::array<float, K>)");
    } else {
      static_assert(requires(C& c, std::filesystem::path& p) { c.LoadParam(p); },
                    "USER_CTRL needs `void LoadParam(std::filesystem::path&)`");
      static_assert(requires(C& c, seed::RobotInterface<N>& r, seed::Gamepad& g) { c.Reset(r, g); },
                    "USER_CTRL needs `void Reset(RobotInterface&, Gamepad&)` with "
                    "RobotInterface = praxis::seed::RobotInterface<N>");
      static_assert(
          requires(C& c, seed::RobotInterface<N>& r, seed::Gamepad& g) { c.GetInput(r, g); },
          "USER_CTRL needs `void GetInput(RobotInterface&, Gamepad&)` with RobotInterface = "
          "praxis::seed::RobotInterface<N>");
      static_assert(requires(C& c) { c.GetLog(); }, "USER_CTRL needs `std::vector<float> GetLog()`");
    }
    return false;
  }
}

// Drives either spelling through one interface.
template <class C, std::size_t N>
class ControllerAdapter {
 public:
  static constexpr bool seed_style = !SnakeCaseController<C, N>;

  ControllerAdapter() = default;
  explicit ControllerAdapter(C controller) : ctrl_(std::move(controller)) {}

  void load_params(const std::filesystem::path& folder) {
    if constexpr (seed_style) {
      std::filesystem::path copy = folder;
      ctrl_.LoadParam(copy);
    } else {
      ctrl_.load_params(folder);
    }
  }

  void reset(const RobotState<N>& state, const Gamepad& pad) {
    if constexpr (seed_style) {
      robot_.GetState(state);
      pad_ = pad;
      ctrl_.Reset(robot_, pad_);
    } else {
      ctrl_.reset(state, pad);
    }
  }

  void step(const RobotState<N>& state, const Gamepad& pad) {
    if constexpr (seed_style) {
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
  [[nodiscard]] double kp() const { return static_cast<double>(ctrl_.kp); }
  [[nodiscard]] double kd() const { return static_cast<double>(ctrl_.kd); }
  [[nodiscard]] double init_pos(std::size_t j) const { return static_cast<double>(ctrl_.init_pos[at(j)]); }
  [[nodiscard]] double jpos_des(std::size_t j) const { return static_cast<double>(ctrl_.jpos_des[at(j)]); }

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
    if constexpr (seed_style) {
      return copy(ctrl_.GetLog());
    } else {
      return copy(ctrl_.log());
    }
  }

  [[nodiscard]] C& controller() { return ctrl_; }
  [[nodiscard]] const C& controller() const { return ctrl_; }

 private:
  // Eigen vectors index with Eigen::Index, std::array with std::size_t.
  static constexpr auto at(std::size_t j) {
    if constexpr (requires(C& c) { c.init_pos.rows(); }) {
      return static_cast<Eigen::Index>(j);
    } else {
      return j;
    }
  }

  C ctrl_{};
  seed::RobotInterface<N> robot_{};
  seed::Gamepad pad_{};
};

}  // namespace praxis
