#pragma once
// UserControlMotion: the motion that runs a user's controller (USER_CTRL). RobotController's CTRL
// state is this motion; a behaviour-driven MotionController offers it when listed among its extra
// nodes (command::UserControl selects it), with the same safety rules.
//
// Like the Unitree deployment framework, the controller can be kept warm in STAND (computed, not
// sent): it is then reset on entry into either STAND or CTRL, so CTRL starts from a controller that
// has seen the robot stand. Otherwise (or when the controller says runs_in_stand = false) it is
// reset on entry into user_control.

#include <cstddef>
#include <string_view>
#include <variant>

#include "praxis/control/controller_adapter.hpp"
#include "praxis/control/gamepad_selector.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/ports.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::control {

template <RobotModel M, class Ctrl>
struct UserControlMotion {
  static constexpr std::size_t N = M::joint_count;
  static constexpr std::string_view name = "user_control";
  static_assert(check_user_controller<Ctrl, N>(), "see the USER_CTRL message above");
  using inputs = ports<motion::MotionSelectionPort, StatePort<N>, GamepadPort>;
  using outputs = ports<motion::BodyCommandPort<motion::MotionType::user_control, N>,
                        motion::SafeExitPort<motion::MotionType::user_control>>;

  ControllerAdapter<Ctrl, N> adapter;
  bool warm_in_stand = false;  // RobotController: run (not send) in STAND as the framework does

  void cycle(const motion::MotionSelection& sel, const RobotState<N>& state, const Gamepad& pad,
             JointCommand<N>& cmd, bool& safe) {
    safe = true;
    const bool selected = sel.current == motion::MotionType::user_control;
    const bool warm =
        warm_in_stand && sel.current == motion::MotionType::stand && runs_in_stand(adapter.controller());
    ran_ = selected || warm;
    if (!ran_) return;
    if (sel.changed) adapter.reset(state, pad);
    adapter.step(state, pad);
    if (!selected) return;
    for (std::size_t j = 0; j < N; ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      cmd.q[i] = adapter.jpos_des(j);
      cmd.kp[i] = adapter.kp(j);
      cmd.kd[i] = adapter.kd(j);
      cmd.dq[i] = adapter.dq_des(j);
      cmd.tau_ff[i] = adapter.tau_ff(j);
      cmd.mode[j] = adapter.mode(j);
    }
  }

  // The pose the controller starts from: where dispatching leads and what STAND holds.
  [[nodiscard]] std::array<double, N> start_pose() const {
    std::array<double, N> p{};
    for (std::size_t j = 0; j < N; ++j) p[j] = adapter.init_pos(j);
    return p;
  }
  // Whether the controller ran in the last cycle.
  [[nodiscard]] bool ran() const { return ran_; }

 private:
  bool ran_ = false;
};

// UserControlMotion steered by the behaviour, for a MotionController: command::UserControl's
// velocity reaches a USER_CTRL that follows a velocity command (`set_velocity_command(vx, vy, wz)`,
// such as a trained policy whose deploy file says "source": "behaviour"), every cycle before it
// runs. A controller without that member compiles and runs as under UserControlMotion.
template <RobotModel M, class Ctrl>
struct SteeredUserControlMotion : UserControlMotion<M, Ctrl> {
  static constexpr std::size_t N = M::joint_count;
  using inputs = ports<motion::MotionSelectionPort, StatePort<N>, GamepadPort, motion::MotionCommandPort>;

  void cycle(const motion::MotionSelection& sel, const RobotState<N>& state, const Gamepad& pad,
             const motion::MotionCommand& command, JointCommand<N>& cmd, bool& safe) {
    if constexpr (requires(Ctrl& c) { c.set_velocity_command(0.0, 0.0, 0.0); }) {
      if (const auto* u = std::get_if<motion::command::UserControl>(&command)) {
        this->adapter.controller().set_velocity_command(u->velocity.x(), u->velocity.y(), u->angular_velocity);
      }
    }
    UserControlMotion<M, Ctrl>::cycle(sel, state, pad, cmd, safe);
  }
};

}  // namespace praxis::control
