#pragma once
// MotionSelector: picks the current motion from the command, the current motion and whether it may
// be left (previous<MotionSafeExits>). The rules, first match wins:
//
//   safety (shared with RobotController's gamepad selector, see safety_override); once it stopped
//   the user's controller, a request for it is treated as damping until the behaviour asked for
//   something else (as RobotController needs a human before CTRL again):
//     no state, stale or invalid state, link lost   -> damping, immediately
//     the collector replaced a non-finite command   -> damping
//     a joint reports a fault                       -> damping
//     tilted while the user's controller runs       -> damping
//   1. damping requested (or nothing requested yet) -> damping, immediately
//   2. falling: stand-up (or dispatching to it)     -> keep: getting up looks like falling
//               damping                             -> keep: a damped robot stays damped
//               otherwise                           -> fall_protection, immediately
//   3. fallen (lying still) and the request is not prepare / stand-up / damping
//                                                   -> fall_protection (lie soft), unless damped
//   4. requested == current                         -> keep
//   5. dispatching:
//        target changed                             -> keep dispatching, toward the new target
//        done (safe) and target reached             -> the target
//        not done                                   -> keep
//   6. stand <-> walk                               -> switch directly
//   7. current not safe to exit                     -> keep
//   8. both joint-level motions                     -> dispatching toward the request
//   9. otherwise                                    -> the request, directly
//
// "Joint-level" motions command joint positions (on a joint-controlled robot, all of them); on a
// robot whose own controller stands and walks, those are mode requests and switch directly.
// Stand-up attempts are counted: +1 whenever stand_up (or dispatching toward it) is entered, reset
// once stand or walk is reached.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <variant>

#include "praxis/graph/named.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"
#include "praxis/motion/registry.hpp"

namespace praxis::motion {

struct SelectorOptions {
  std::array<bool, k_motion_types> joint_level = [] {
    std::array<bool, k_motion_types> a{};
    a.fill(true);
    return a;
  }();
};

// The safety rules every selector applies before its own: the cause that forces damping, if any.
[[nodiscard]] constexpr std::optional<SelectionCause> safety_override(MotionType current, const SafetyStatus& safety,
                                                                      const CollectorReport& last_report) {
  if (safety.no_state) return SelectionCause::no_state;
  if (safety.invalid) return SelectionCause::invalid_state;
  if (safety.stale) return SelectionCause::stale_state;
  if (safety.link_lost) return SelectionCause::link_lost;
  if (current == MotionType::damping) return std::nullopt;
  if (last_report.fallback_to_damping) return SelectionCause::command_guard;
  if (safety.joint_fault) return SelectionCause::joint_fault;
  if (current == MotionType::user_control && safety.tilted) return SelectionCause::tilt;
  return std::nullopt;
}

[[nodiscard]] constexpr bool toward(const MotionSelection& s, MotionType t) {
  return s.current == t || (s.current == MotionType::dispatching && s.dispatching_to == t);
}

// The pure rule, exposed for table-driven tests.
[[nodiscard]] constexpr MotionSelection select_motion(const MotionSelection& last, MotionType requested,
                                                      const MotionSafeExits& safe, const FallState& fall,
                                                      const SafetyStatus& safety = {false},
                                                      const CollectorReport& last_report = {},
                                                      const SelectorOptions& options = {}) {
  MotionSelection next = last;
  next.previous = last.current;
  const MotionType cur = last.current;
  auto cause = SelectionCause::requested;
  auto go = [&](MotionType t) { next.current = t; };
  auto dispatch = [&](MotionType target) {
    next.current = MotionType::dispatching;
    next.dispatching_to = target;
  };
  const auto joint_level = [&](MotionType t) { return options.joint_level[static_cast<std::size_t>(t)]; };
  const bool may_get_up = requested == MotionType::prepare || requested == MotionType::stand_up;

  if (const auto forced = safety_override(cur, safety, last_report)) {
    go(MotionType::damping);
    cause = *forced;
  } else if (requested == MotionType::damping) {
    go(MotionType::damping);
  } else if (fall.falling()) {
    if (!toward(last, MotionType::stand_up) && cur != MotionType::damping) {
      go(MotionType::fall_protection);
      cause = SelectionCause::falling;
    }
  } else if (fall.fallen() && !may_get_up) {
    if (cur != MotionType::damping) {
      go(MotionType::fall_protection);
      cause = SelectionCause::falling;
    }
  } else if (requested == cur) {
    // keep
  } else if (cur == MotionType::dispatching) {
    if (requested != last.dispatching_to) {
      dispatch(requested);
    } else if (safe[MotionType::dispatching]) {
      go(requested);
    }
  } else if ((cur == MotionType::stand && requested == MotionType::walk) ||
             (cur == MotionType::walk && requested == MotionType::stand)) {
    go(requested);
  } else if (!safe[cur]) {
    // keep
  } else if (joint_level(cur) && joint_level(requested)) {
    dispatch(requested);
  } else {
    go(requested);
  }

  next.changed = next.current != last.current ||
                 (next.current == MotionType::dispatching && next.dispatching_to != last.dispatching_to);
  next.cause = next.changed ? cause : SelectionCause::none;
  if (toward(next, MotionType::stand_up) && !toward(last, MotionType::stand_up)) ++next.stand_up_attempts;
  if (next.current == MotionType::stand || next.current == MotionType::walk) next.stand_up_attempts = 0;
  return next;
}

struct MotionSelector {
  static constexpr std::string_view name = "motion_selector";
  using inputs = ports<MotionCommandPort, previous<MotionSafeExitsPort>, FallStatePort, SafetyPort,
                       previous<CollectorReportPort>>;
  using outputs = ports<MotionSelectionPort>;
  SelectorOptions options;
  MotionSelection last;

  void cycle(const MotionCommand& command, const MotionSafeExits& safe, const FallState& fall,
             const SafetyStatus& safety, const CollectorReport& last_report, MotionSelection& out) {
    const bool commanded = last.commanded || !std::holds_alternative<command::Unset>(command);
    auto requested = requested_type(command);
    // Like RobotController's CTRL, the user's controller is not re-entered by itself once a safety
    // rule stopped it: the behaviour must ask for something else first.
    if (requested != MotionType::user_control) user_control_latched_ = false;
    // Nor is a robot walked (stood, kicked) again by itself once it went silent: a robot that comes
    // back after a stale state or a lost link may have restarted, lying in Damping, and the request
    // in force then would ask it for a mode its own mode graph does not allow from there. The
    // request waits for the behaviour to ask for something else first (Prepare, a get-up), the way
    // the robot's documented path goes.
    const MotionType asked = requested;
    if (lost_latch_ && *lost_latch_ != asked) lost_latch_.reset();
    if (user_control_latched_ || lost_latch_) requested = MotionType::damping;
    out = select_motion(last, requested, safe, fall, safety, last_report, options);
    out.commanded = commanded;
    if (toward(last, MotionType::user_control) && out.changed && out.cause != SelectionCause::requested) {
      user_control_latched_ = true;
    }
    if (out.changed && (out.cause == SelectionCause::stale_state || out.cause == SelectionCause::link_lost) &&
        asked != MotionType::damping) {
      lost_latch_ = asked;
    }
    last = out;
  }
  void reset() {
    last = {};
    user_control_latched_ = false;
    lost_latch_.reset();
  }
  // The user's controller was stopped by a safety rule and waits for a different request.
  [[nodiscard]] bool user_control_latched() const { return user_control_latched_; }
  // The request in force when the robot went silent, waiting for a different one (none: no latch).
  [[nodiscard]] std::optional<MotionType> lost_latch() const { return lost_latch_; }

 private:
  bool user_control_latched_ = false;
  std::optional<MotionType> lost_latch_;
};

// Gathers every motion's safe-exit flag (each motion writes its own port), one input per tag of the
// list, each stored under its own motion.
template <class List = Motions>
struct BasicSafeExitCollector;
template <class... Tags>
struct BasicSafeExitCollector<motion_list<Tags...>> {
  static constexpr std::string_view name = "safe_exits";
  void cycle(in<SafeExitPort<Tags::type>...> in, out<MotionSafeExitsPort> out) const {
    auto& exits = out.template get<MotionSafeExitsPort>();
    (exits.set(Tags::type, in.template get<SafeExitPort<Tags::type>>()), ...);
  }
};
using SafeExitCollector = BasicSafeExitCollector<>;

}  // namespace praxis::motion
