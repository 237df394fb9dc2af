#pragma once
// praxis' own port types made reflectable (Boost.Hana), so that every port of a controller has a
// schema and a wire form (observe/cdr.hpp) without core/ and motion/ knowing about Hana: the
// adaptations live here, at the edge, as the parameter structs' do in their *_params.hpp.
//
// A type of yours takes part the same way: declare it with BOOST_HANA_DEFINE_STRUCT, or adapt it
// with BOOST_HANA_ADAPT_STRUCT (or, for a class template, PRAXIS_OBSERVE_ADAPT_TEMPLATE below).
// A port whose type is neither is not recorded, and the recorder lists it by name at start-up.

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

#include <boost/hana/adapt_struct.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/tuple.hpp>

#include "praxis/core/cycle.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/joint_command.hpp"
#include "praxis/core/locomotion.hpp"
#include "praxis/core/robot_requests.hpp"
#include "praxis/core/robot_state.hpp"
#include "praxis/core/robot_status.hpp"
#include "praxis/motion/motion_command.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"

// One member of a struct for PRAXIS_OBSERVE_ADAPT_TEMPLATE: its name and an accessor that keeps the
// member's constness (Hana's accessor contract).
#define PRAXIS_OBSERVE_MEMBER(member)                                                  \
  boost::hana::make_pair(BOOST_HANA_STRING(#member), [](auto&& s) -> decltype(auto) { \
    return (static_cast<decltype(s)&&>(s).member);                                     \
  })

namespace praxis::observe {

// What a port of a type that cannot be reflected member by member (a std::variant, a class with
// private state) shows instead: specialise with `using type = <a reflectable struct>;` and
// `static type project(const T&)`. A projected port is recorded and shown, never replayed from the
// record (what it projects from cannot be rebuilt from the projection).
template <class T>
struct Projection;

template <class T>
concept Projected = requires(const T& value) {
  typename Projection<T>::type;
  { Projection<T>::project(value) } -> std::same_as<typename Projection<T>::type>;
};

// The behaviour's command, as a record shows it: which alternative of the variant, and the motion it
// asks for. Its details (paths, scripts by name or by object) are the behaviour's, not the cycle's.
struct MotionCommandView {
  std::uint8_t alternative = 0;  // index into praxis::motion::MotionCommand
  motion::MotionType requested = motion::MotionType::damping;
};

template <>
struct Projection<motion::MotionCommand> {
  using type = MotionCommandView;
  static type project(const motion::MotionCommand& c) {
    return {static_cast<std::uint8_t>(c.index()), motion::requested_type(c)};
  }
};

// The gamepad with its edges, as the graph's nodes read it.
struct GamepadView {
  std::uint16_t pressed = 0;     // a bit per button, praxis::GamepadButton order
  std::uint16_t on_press = 0;    // buttons pressed in this cycle
  std::uint16_t on_release = 0;  // buttons released in this cycle
  float lx = 0, ly = 0, rx = 0, ry = 0, l2 = 0;
};

template <>
struct Projection<Gamepad> {
  using type = GamepadView;
  static type project(const Gamepad& g) {
    GamepadView v;
    const Button* const buttons[16] = {&g.R1, &g.L1, &g.start, &g.select, &g.R2, &g.L2, &g.F1, &g.F2,
                                       &g.A,  &g.B,  &g.X,     &g.Y,      &g.up, &g.right, &g.down, &g.left};
    for (unsigned b = 0; b < 16; ++b) {
      const auto bit = static_cast<std::uint16_t>(1u << b);
      if (buttons[b]->pressed) v.pressed = static_cast<std::uint16_t>(v.pressed | bit);
      if (buttons[b]->on_press) v.on_press = static_cast<std::uint16_t>(v.on_press | bit);
      if (buttons[b]->on_release) v.on_release = static_cast<std::uint16_t>(v.on_release | bit);
    }
    v.lx = g.lx;
    v.ly = g.ly;
    v.rx = g.rx;
    v.ry = g.ry;
    v.l2 = g.l2;
    return v;
  }
};

}  // namespace praxis::observe

// A class template's members, for every instance: PRAXIS_OBSERVE_ADAPT_TEMPLATE((std::size_t N),
// (praxis::RobotState<N>), q, dq, ...). At global scope, like BOOST_HANA_ADAPT_STRUCT.
#define PRAXIS_OBSERVE_UNPAREN(...) __VA_ARGS__
#define PRAXIS_OBSERVE_ADAPT_TEMPLATE(params, type, ...)                            \
  namespace boost::hana {                                                           \
  template <PRAXIS_OBSERVE_UNPAREN params>                                          \
  struct accessors_impl<PRAXIS_OBSERVE_UNPAREN type> {                              \
    static constexpr auto apply() { return boost::hana::make_tuple(__VA_ARGS__); } \
  };                                                                                \
  }

PRAXIS_OBSERVE_ADAPT_TEMPLATE((std::size_t N), (praxis::RobotState<N>), PRAXIS_OBSERVE_MEMBER(q), PRAXIS_OBSERVE_MEMBER(dq),
                              PRAXIS_OBSERVE_MEMBER(tau), PRAXIS_OBSERVE_MEMBER(imu),
                              PRAXIS_OBSERVE_MEMBER(projected_gravity), PRAXIS_OBSERVE_MEMBER(gamepad),
                              PRAXIS_OBSERVE_MEMBER(health), PRAXIS_OBSERVE_MEMBER(stamp), PRAXIS_OBSERVE_MEMBER(age),
                              PRAXIS_OBSERVE_MEMBER(sequence))
PRAXIS_OBSERVE_ADAPT_TEMPLATE((std::size_t N), (praxis::JointCommand<N>), PRAXIS_OBSERVE_MEMBER(q),
                              PRAXIS_OBSERVE_MEMBER(dq), PRAXIS_OBSERVE_MEMBER(kp), PRAXIS_OBSERVE_MEMBER(kd),
                              PRAXIS_OBSERVE_MEMBER(tau_ff), PRAXIS_OBSERVE_MEMBER(mode))

BOOST_HANA_ADAPT_STRUCT(praxis::ImuState, orientation, gyro, accelerometer, rpy);
BOOST_HANA_ADAPT_STRUCT(praxis::GamepadState, buttons, lx, ly, rx, ry, l2);
BOOST_HANA_ADAPT_STRUCT(praxis::JointHealth, faults, error_code, temperature);
BOOST_HANA_ADAPT_STRUCT(praxis::CycleInfo, now, cycle, have_state);
BOOST_HANA_ADAPT_STRUCT(praxis::RequestReport, id, outcome, code, finished);
BOOST_HANA_ADAPT_STRUCT(praxis::LinkHealth, connected, states_received, states_rejected, commands_sent, send_errors);
BOOST_HANA_ADAPT_STRUCT(praxis::RobotStatus, reported_mode, assumed_mode, mode_since, last_request, requests_in_flight,
                        get_ups_completed, posture, lifecycle, link, sequence);
BOOST_HANA_ADAPT_STRUCT(praxis::LocomotionRequest, active, vx, vy, wz);
BOOST_HANA_ADAPT_STRUCT(praxis::HeadRequest, active, yaw, pitch);
BOOST_HANA_ADAPT_STRUCT(praxis::Kick, ball_position, kick_direction, target_position, robot_theta_to_field, kick_power);
BOOST_HANA_ADAPT_STRUCT(praxis::LedRequest, set, r, g, b);
BOOST_HANA_ADAPT_STRUCT(praxis::RobotRequests, any, motion, mode, locomotion, head, kick, get_up, leds);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::MotionSelection, current, dispatching_to, previous, changed, cause, commanded,
                        gain_ratio, stand_up_attempts);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::MotionSafeExits, safe);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::FallState, phase, tilt, angular_speed);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::SafetyStatus, no_state, stale, invalid, tilted, joint_fault, faulted_joint,
                        link_lost, age);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::HeadCommand, active, yaw, pitch, kp, kd);
BOOST_HANA_ADAPT_STRUCT(praxis::motion::CollectorReport, fallback_to_damping, clamped_joints, rate_limited_joints,
                        unsupported_modes);
BOOST_HANA_ADAPT_STRUCT(praxis::observe::MotionCommandView, alternative, requested);
BOOST_HANA_ADAPT_STRUCT(praxis::observe::GamepadView, pressed, on_press, on_release, lx, ly, rx, ry, l2);
