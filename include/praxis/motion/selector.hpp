#pragma once
// MotionSelector: picks the current motion from the command, the current motion and whether it may
// be left (previous<MotionSafeExits>). The rules, first match wins:
//
//   1. Damping requested                    -> damping, immediately
//   2. falling                              -> fall_protection, immediately (a damped robot stays damped)
//   3. requested == current                 -> keep
//   4. dispatching:
//        target changed                     -> keep dispatching, toward the new target
//        done (safe) and target reached     -> the target
//        not done                           -> keep
//   5. stand <-> walk                       -> switch directly
//   6. current not safe to exit             -> keep
//   7. both joint-level motions             -> dispatching toward the request
//   8. otherwise                            -> the request, directly
//
// "Joint-level" motions command joint positions (on a joint-controlled robot, all of them); on a
// robot whose own controller stands and walks, those are mode requests and switch directly.
// Stand-up attempts are counted: +1 whenever stand_up (or dispatching toward it) is entered, reset
// once stand or walk is reached.

#include <array>
#include <cstddef>
#include <string_view>

#include "praxis/graph/port.hpp"
#include "praxis/motion/motion_type.hpp"
#include "praxis/motion/ports.hpp"

namespace praxis::motion {

struct SelectorOptions {
  std::array<bool, k_motion_types> joint_level = [] {
    std::array<bool, k_motion_types> a{};
    a.fill(true);
    return a;
  }();
};

// The pure rule, exposed for table-driven tests.
[[nodiscard]] constexpr MotionSelection select_motion(const MotionSelection& last, MotionType requested,
                                                      const MotionSafeExits& safe, bool falling,
                                                      const SelectorOptions& options = {}) {
  MotionSelection next = last;
  next.previous = last.current;
  const MotionType cur = last.current;
  auto go = [&](MotionType t) { next.current = t; };
  auto dispatch = [&](MotionType target) {
    next.current = MotionType::dispatching;
    next.dispatching_to = target;
  };
  const auto joint_level = [&](MotionType t) { return options.joint_level[static_cast<std::size_t>(t)]; };

  if (requested == MotionType::damping) {
    go(MotionType::damping);
  } else if (falling) {
    if (cur != MotionType::damping) go(MotionType::fall_protection);
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
  const bool toward_stand_up = next.current == MotionType::stand_up ||
                               (next.current == MotionType::dispatching && next.dispatching_to == MotionType::stand_up);
  const bool was_toward_stand_up = last.current == MotionType::stand_up ||
                                   (last.current == MotionType::dispatching && last.dispatching_to == MotionType::stand_up);
  if (toward_stand_up && !was_toward_stand_up) ++next.stand_up_attempts;
  if (next.current == MotionType::stand || next.current == MotionType::walk) next.stand_up_attempts = 0;
  return next;
}

struct MotionSelector {
  static constexpr std::string_view name = "motion_selector";
  using inputs = ports<MotionCommandPort, previous<MotionSafeExitsPort>, FallStatePort>;
  using outputs = ports<MotionSelectionPort>;
  SelectorOptions options;
  MotionSelection last;

  void cycle(const MotionCommand& command, const MotionSafeExits& safe, const FallState& fall,
             MotionSelection& out) {
    out = select_motion(last, requested_type(command), safe, fall.falling, options);
    last = out;
  }
  void reset() { last = {}; }
};

// Gathers every motion's safe-exit flag (each motion writes its own port).
struct SafeExitCollector {
  static constexpr std::string_view name = "safe_exits";
  using inputs = ports<SafeExitPort<MotionType::damping>, SafeExitPort<MotionType::prepare>,
                       SafeExitPort<MotionType::stand>, SafeExitPort<MotionType::stand_up>,
                       SafeExitPort<MotionType::walk>, SafeExitPort<MotionType::visual_kick>,
                       SafeExitPort<MotionType::script>, SafeExitPort<MotionType::dispatching>,
                       SafeExitPort<MotionType::fall_protection>>;
  using outputs = ports<MotionSafeExitsPort>;
  void cycle(const bool& damping, const bool& prepare, const bool& stand, const bool& stand_up, const bool& walk,
             const bool& visual_kick, const bool& script, const bool& dispatching, const bool& fall_protection,
             MotionSafeExits& out) const {
    out.set(MotionType::damping, damping);
    out.set(MotionType::prepare, prepare);
    out.set(MotionType::stand, stand);
    out.set(MotionType::stand_up, stand_up);
    out.set(MotionType::walk, walk);
    out.set(MotionType::visual_kick, visual_kick);
    out.set(MotionType::script, script);
    out.set(MotionType::dispatching, dispatching);
    out.set(MotionType::fall_protection, fall_protection);
  }
};

}  // namespace praxis::motion
