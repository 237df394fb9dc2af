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
// The framework spelling is what a class derived from unitree_framework::BasicUserController<N>
// has (control/unitree_framework.hpp). Both spellings have the members
//   dt                 control period in seconds, a number
//   init_pos, jpos_des N joint values each: std::array<float|double, N> or an Eigen fixed-size
//                      vector; N must equal the robot's joint count
//   kp, kd             a number for every joint, or one per joint (same types as init_pos)
// and may have, with the names of the framework's RobotInterface,
//   jvel_des           velocity targets (rad/s), N joint values; 0 when absent
//   tau_ff             feed-forward torques (Nm), N joint values; 0 when absent
// and, to command joints in another mode than position (the backend must accept it):
//   joint_mode         std::array<praxis::JointMode, N>, each joint's mode (position, velocity,
//                      torque); every joint in position when absent. A controller with it declares
//                      `static constexpr praxis::JointModeSet joint_modes{...}`, the modes it uses,
//                      so a robot that cannot send one of them is a compile error.
// and, to be left out of STAND (where RobotController otherwise runs it unsent, as the framework
// does), `static constexpr bool runs_in_stand = false;` — a trained policy, which is reset on
// CTRL's entry anyway and whose inferences in STAND would be wasted — or, for a controller that
// chooses at run time, `bool runs_in_stand() const`.

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <span>
#include <type_traits>
#include <utility>

#include "praxis/control/unitree_framework.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis::control {

namespace detail {
template <class T>
struct fixed_size : std::integral_constant<std::size_t, 0> {};
template <class T, std::size_t N>
struct fixed_size<std::array<T, N>> : std::integral_constant<std::size_t, N> {};
template <class S, int R, int O, int MR, int MC>
  requires(R > 0)
struct fixed_size<Eigen::Matrix<S, R, 1, O, MR, MC>> : std::integral_constant<std::size_t, R> {};

template <class T>
inline constexpr std::size_t fixed_size_v = fixed_size<std::remove_cvref_t<T>>::value;

template <class C>
concept has_joint_members = requires(C& c) {
  c.init_pos;
  c.jpos_des;
} && fixed_size_v<decltype(std::declval<C&>().init_pos)> > 0;

// N numbers, one per joint, in a fixed-size std::array or Eigen vector.
template <class T, std::size_t N>
concept joint_values = N > 0 && fixed_size_v<T> == N &&
                       requires(const std::remove_cvref_t<T>& v) {
                         { v[0] } -> std::convertible_to<double>;
                       };

// A gain: one number for every joint, or one per joint.
template <class T, std::size_t N>
concept gain_for = std::convertible_to<T, double> || joint_values<T, N>;

// Reads joint j of a per-joint member, or the member itself if it is one number. Eigen vectors
// index with Eigen::Index, std::array with std::size_t.
template <class T>
[[nodiscard]] constexpr double joint_value(const T& v, std::size_t j) {
  if constexpr (std::convertible_to<const T&, double>) {
    return static_cast<double>(v);
  } else if constexpr (requires { v.rows(); }) {
    return static_cast<double>(v[static_cast<Eigen::Index>(j)]);
  } else {
    return static_cast<double>(v[j]);
  }
}
}  // namespace detail

// The joint count a controller was written for, read from its init_pos member (0 if it has none).
template <class C>
constexpr std::size_t controller_joint_count() {
  if constexpr (detail::has_joint_members<C>) {
    return detail::fixed_size_v<decltype(std::declval<C&>().init_pos)>;
  } else {
    return 0;
  }
}

namespace detail {
// Each of these is true when the member is absent (another check names what is missing) or when
// the controller's joint count is unknown (init_pos has its own message).
template <class C>
constexpr bool jpos_des_fits() {
  if constexpr (requires(C& c) { c.jpos_des; } && controller_joint_count<C>() > 0) {
    return joint_values<decltype(std::declval<C&>().jpos_des), controller_joint_count<C>()>;
  } else {
    return true;
  }
}
template <class C>
constexpr bool kp_fits() {
  if constexpr (requires(C& c) { c.kp; } && controller_joint_count<C>() > 0) {
    return gain_for<decltype(std::declval<C&>().kp), controller_joint_count<C>()>;
  } else {
    return true;
  }
}
template <class C>
constexpr bool kd_fits() {
  if constexpr (requires(C& c) { c.kd; } && controller_joint_count<C>() > 0) {
    return gain_for<decltype(std::declval<C&>().kd), controller_joint_count<C>()>;
  } else {
    return true;
  }
}
template <class C>
constexpr bool jvel_des_fits() {
  if constexpr (requires(C& c) { c.jvel_des; } && controller_joint_count<C>() > 0) {
    return joint_values<decltype(std::declval<C&>().jvel_des), controller_joint_count<C>()>;
  } else {
    return true;
  }
}
template <class C>
constexpr bool joint_mode_fits() {
  if constexpr (requires(C& c) { c.joint_mode; } && controller_joint_count<C>() > 0) {
    return std::is_same_v<std::remove_cvref_t<decltype(std::declval<C&>().joint_mode)>,
                          std::array<JointMode, controller_joint_count<C>()>> &&
           requires { C::joint_modes; };
  } else {
    return true;
  }
}
template <class C>
constexpr bool tau_ff_fits() {
  if constexpr (requires(C& c) { c.tau_ff; } && controller_joint_count<C>() > 0) {
    return joint_values<decltype(std::declval<C&>().tau_ff), controller_joint_count<C>()>;
  } else {
    return true;
  }
}
}  // namespace detail

// Whether RobotController runs the controller (unsent) while STAND holds the pose: unless it says
// `static constexpr bool runs_in_stand = false;` or its `bool runs_in_stand() const` says no.
template <class C>
[[nodiscard]] constexpr bool runs_in_stand(const C& c) {
  if constexpr (requires { { c.runs_in_stand() } -> std::convertible_to<bool>; }) {
    return c.runs_in_stand();
  } else if constexpr (requires { C::runs_in_stand; }) {
    return static_cast<bool>(C::runs_in_stand);
  } else {
    return true;
  }
}

// Whether the command guard's max_target_rate slows CTRL's targets (motion/collector.hpp): unless
// the controller's `bool limits_target_rate() const` says no. A trained policy says no when its
// authors send each action as a step (it was trained on steps, and slowed targets are another
// plant to it); the joint limits, gain and torque bounds guard its commands all the same. Read
// when RobotController loads the parameters.
template <class C>
[[nodiscard]] constexpr bool limits_target_rate(const C& c) {
  if constexpr (requires { { c.limits_target_rate() } -> std::convertible_to<bool>; }) {
    return c.limits_target_rate();
  } else {
    return true;
  }
}

template <class C>
concept HasControllerMembers = requires(C& c) {
  { c.dt } -> std::convertible_to<double>;
  c.kp;
  c.kd;
} && detail::has_joint_members<C> && detail::jpos_des_fits<C>() && detail::kp_fits<C>() &&
    detail::kd_fits<C>() && detail::jvel_des_fits<C>() && detail::tau_ff_fits<C>() && detail::joint_mode_fits<C>();

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
concept UnitreeFrameworkController =
    HasControllerMembers<C> &&
    requires(C& c, std::filesystem::path& folder, unitree_framework::RobotInterface<N>& robot,
             unitree_framework::Gamepad& pad) {
      c.LoadParam(folder);
      c.Reset(robot, pad);
      c.GetInput(robot, pad);
      c.Calculate();
      c.GetLog();
    };

template <class C, std::size_t N>
concept UserController = (SnakeCaseController<C, N> || UnitreeFrameworkController<C, N>) &&
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
    static_assert(requires(C& c) { c.kp; },
                  "USER_CTRL needs a member `kp` (position gain: a number, or one per joint as "
                  "std::array<float|double, N> or an Eigen fixed-size vector)");
    static_assert(requires(C& c) { c.kd; },
                  "USER_CTRL needs a member `kd` (damping gain: a number, or one per joint as "
                  "std::array<float|double, N> or an Eigen fixed-size vector)");
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
    static_assert(detail::jpos_des_fits<C>(),
                  "USER_CTRL: `jpos_des` must hold one target per joint, as many as `init_pos`: "
                  "std::array<float|double, N> or an Eigen fixed-size vector of N");
    static_assert(detail::kp_fits<C>(),
                  "USER_CTRL: `kp` must be a number, or one gain per joint: std::array<float|double, "
                  "N> or an Eigen fixed-size vector of N, N being the size of `init_pos`");
    static_assert(detail::kd_fits<C>(),
                  "USER_CTRL: `kd` must be a number, or one gain per joint: std::array<float|double, "
                  "N> or an Eigen fixed-size vector of N, N being the size of `init_pos`");
    static_assert(detail::jvel_des_fits<C>(),
                  "USER_CTRL: the optional `jvel_des` (velocity targets) must be "
                  "std::array<float|double, N> or an Eigen fixed-size vector of N, N being the size "
                  "of `init_pos`");
    static_assert(detail::tau_ff_fits<C>(),
                  "USER_CTRL: the optional `tau_ff` (feed-forward torques) must be "
                  "std::array<float|double, N> or an Eigen fixed-size vector of N, N being the size "
                  "of `init_pos`");
    static_assert(detail::joint_mode_fits<C>(),
                  "USER_CTRL: the optional `joint_mode` must be std::array<praxis::JointMode, N>, N being "
                  "the size of `init_pos`, and a controller with it declares the modes it uses: "
                  "`static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, "
                  "praxis::JointMode::velocity}` (so a robot that cannot send one is a compile error)");
    constexpr bool snake_any = requires(C& c) { c.calculate(); };
    constexpr bool framework_any = requires(C& c) { c.Calculate(); };
    static_assert(snake_any || framework_any,
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
      static_assert(requires(C& c, unitree_framework::RobotInterface<N>& r,
                             unitree_framework::Gamepad& g) { c.Reset(r, g); },
                    "USER_CTRL needs `void Reset(RobotInterface&, Gamepad&)` with "
                    "RobotInterface = praxis::control::unitree_framework::RobotInterface<N>");
      static_assert(requires(C& c, unitree_framework::RobotInterface<N>& r,
                             unitree_framework::Gamepad& g) { c.GetInput(r, g); },
                    "USER_CTRL needs `void GetInput(RobotInterface&, Gamepad&)` with "
                    "RobotInterface = praxis::control::unitree_framework::RobotInterface<N>");
      static_assert(requires(C& c) { c.GetLog(); }, "USER_CTRL needs `std::vector<float> GetLog()`");
    }
    return false;
  }
}

}  // namespace praxis::control
