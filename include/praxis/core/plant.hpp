#pragma once
// The plant concept: a simulated robot that commands drive and states come out of, on a simulated
// clock. mock::MockRobot (hardware/mock/mock_robot.hpp) and sim::MujocoPlant (sim/mujoco_plant.hpp)
// are plants, so a fake robot's DDS bridge, a test or the runtime can drive either. It lives in core
// because hardware/ and sim/ both state it and neither may see the other.
//
// What a plant promises:
//   model                        a RobotModel: joint i of every command and state is model::joints[i].
//   write(command, now)          the command the motors follow from the plant's next physics step on,
//                                until the next write. It never advances time; `now` is the caller's
//                                bookkeeping, as for a real robot.
//   read(state, now) -> bool     advances the simulation to `now`, then copies the newest state into
//                                `state`; true when it is a state the caller has not read before.
//   advance_to(now)              advances to `now` without delivering a state.
//   time() -> TimePoint          the simulated time reached.
//   set_joint_positions(q)       places the joints at q, at rest: the scene before a run.
//
// Time advances only inside read() and advance_to() (and a plant's own step(), where it has one),
// by whole physics steps, never from a clock of its own, so a run is reproducible: MockRobot and
// MujocoPlant step up to `now` and never past it. A plant that paces a simulation its own way
// (praxis-sim's lock-step advances one control period per commanded tick) says so where it is
// defined. Threading: write() may be called from one thread and read() from another
// (RobotController::run does this); everything else belongs to the thread that reads, or to any
// thread before and after a run.
//
// read() and write() are a Backend's (hardware/backend.hpp): every plant is a backend too.

#include <array>
#include <concepts>
#include <cstddef>

#include "praxis/core/clock.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/robot_model.hpp"
#include "praxis/core/robot_state.hpp"

namespace praxis {

template <class P>
concept Plant = requires { typename P::model; } && RobotModel<typename P::model> &&
                requires(P& p, const P& cp, RobotState<P::model::joint_count>& state,
                         const JointCommand<P::model::joint_count>& command, TimePoint now,
                         const std::array<double, P::model::joint_count>& q) {
                  { p.read(state, now) } -> std::same_as<bool>;
                  p.write(command, now);
                  p.advance_to(now);
                  { cp.time() } -> std::convertible_to<TimePoint>;
                  p.set_joint_positions(q);
                };

// Names the first thing a would-be plant lacks, in a sentence, where generic code takes one: a
// failed `Plant` constraint alone lists every requirement and leaves the user to find the one that
// failed. The compiler prints the type next to the message ("in instantiation of check_plant<P>").
template <class P>
constexpr bool check_plant() {
  if constexpr (Plant<P>) {
    return true;
  } else if constexpr (!requires { typename P::model; }) {
    static_assert(Plant<P>,
                  "praxis::Plant: the plant needs `using model = <robot model>;` (e.g. unitree::Go2): the "
                  "model gives the joint count and order of its commands and states");
    return false;
  } else if constexpr (!RobotModel<typename P::model>) {
    static_assert(Plant<P>,
                  "praxis::Plant: the plant's `model` is not a praxis::RobotModel (name, joint_count, joints, "
                  "rest_pose, ...: core/robot_model.hpp)");
    return false;
  } else {
    constexpr std::size_t N = P::model::joint_count;
    static_assert(requires(P& p, RobotState<N>& state, TimePoint now) {
      { p.read(state, now) } -> std::same_as<bool>;
    }, "praxis::Plant needs `bool read(praxis::RobotState<N>& state, praxis::TimePoint now)`, N being the "
       "model's joint_count: it advances to `now` and returns true for a state not read before");
    static_assert(requires(P& p, const JointCommand<N>& command, TimePoint now) { p.write(command, now); },
                  "praxis::Plant needs `void write(const praxis::JointCommand<N>& command, praxis::TimePoint "
                  "now)`, N being the model's joint_count: a command for another number of joints, or of "
                  "another type, is not one");
    static_assert(requires(P& p, TimePoint now) { p.advance_to(now); },
                  "praxis::Plant needs `void advance_to(praxis::TimePoint now)`: the simulation advanced "
                  "without delivering a state");
    static_assert(requires(const P& p) { { p.time() } -> std::convertible_to<TimePoint>; },
                  "praxis::Plant needs `praxis::TimePoint time() const`: the simulated time reached");
    static_assert(requires(P& p, const std::array<double, N>& q) { p.set_joint_positions(q); },
                  "praxis::Plant needs `void set_joint_positions(const std::array<double, N>& q)`, N being "
                  "the model's joint_count: the joints placed at rest before a run");
    return false;
  }
}

}  // namespace praxis
