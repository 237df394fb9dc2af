#pragma once
// The backend concept: what the runtime needs from a robot, real or simulated.
//
//   read(state, now)  -> bool   copy the newest state into `state`; true when it is a state the
//                               caller has not read before. Never blocks, never allocates.
//   write(command, now)         hand a command to the robot. Never blocks, never allocates.
//
// `now` is the caller's clock (simulated in tests); real backends use it only for bookkeeping.
// read() is called from one thread and write() from one (possibly other) thread. Everything else a
// backend may offer (modes, walking, status, taking control, waking the loop) is optional; see
// hardware/capabilities.hpp.

#include <concepts>
#include <cstddef>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/hardware/capabilities.hpp"

namespace praxis {

template <class B>
concept Backend = requires { typename B::model; } && RobotModel<typename B::model> &&
                  requires(B& b, RobotState<B::model::joint_count>& state,
                           const JointCommand<B::model::joint_count>& command, TimePoint now) {
                    { b.read(state, now) } -> std::same_as<bool>;
                    b.write(command, now);
                  };

template <Backend B>
inline constexpr std::size_t backend_joint_count = B::model::joint_count;

}  // namespace praxis
