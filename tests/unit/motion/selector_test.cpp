// Every rule of the motion selector, table-driven: (from, safe to exit, request) -> result.

#include <catch2/catch.hpp>

#include "praxis/motion/selector.hpp"

using praxis::motion::MotionSafeExits;
using praxis::motion::MotionSelection;
using praxis::motion::MotionType;
using praxis::motion::select_motion;
using praxis::motion::SelectorOptions;

namespace {
using T = MotionType;
constexpr auto D = T::damping, P = T::prepare, S = T::stand, U = T::stand_up, W = T::walk, K = T::visual_kick,
               X = T::script, Disp = T::dispatching, F = T::fall_protection;

MotionSelection at(MotionType current, MotionType dispatching_to = MotionType::damping) {
  MotionSelection s;
  s.current = current;
  s.dispatching_to = dispatching_to;
  return s;
}
MotionSafeExits safety(MotionType t, bool safe) {
  MotionSafeExits e;
  e.set(t, safe);
  return e;
}
}  // namespace

TEST_CASE("selector rules", "[motion][selector]") {
  struct Row {
    const char* rule;
    MotionType from, dispatching_to;
    bool safe, falling;
    MotionType request;
    MotionType to, to_dispatching;
  };
  const Row rows[] = {
      {"damping is immediate, even from an unsafe motion", W, D, false, false, D, D, D},
      {"damping is immediate while dispatching", Disp, S, false, false, D, D, D},
      {"damping wins over falling", S, D, true, true, D, D, D},
      {"falling: fall protection immediately", W, D, false, true, S, F, D},
      {"falling while dispatching", Disp, S, false, true, S, F, D},
      {"damped and falling stays damped", D, D, true, true, S, D, D},
      {"same request keeps", X, D, false, false, X, X, D},
      {"dispatching, not done: keep", Disp, S, false, false, S, Disp, S},
      {"dispatching, done: the target", Disp, S, true, false, S, S, D},
      {"dispatching, target changed: retarget", Disp, S, false, false, X, Disp, X},
      {"stand -> walk directly", S, D, false, false, W, W, D},
      {"walk -> stand directly, even unsafe", W, D, false, false, S, S, D},
      {"unsafe motion is kept", X, D, false, false, S, X, D},
      {"unsafe stand-up is kept", U, D, false, false, W, U, D},
      {"safe joint-level motions dispatch", X, D, true, false, S, Disp, S},
      {"leaving damping dispatches", D, D, true, false, S, Disp, S},
      {"stand -> script dispatches", S, D, true, false, X, Disp, X},
      {"fall protection, recovered -> stand up dispatches", F, D, true, false, U, Disp, U},
      {"fall protection, still falling... not safe -> kept", F, D, false, false, U, F, D},
      {"prepare -> visual kick dispatches", P, D, true, false, K, Disp, K},
  };
  for (const auto& r : rows) {
    INFO(r.rule);
    auto from = at(r.from, r.dispatching_to);
    const auto safe = safety(r.from, r.safe);
    const auto next = select_motion(from, r.request, safe, r.falling);
    CHECK(next.current == r.to);
    if (r.to == Disp) CHECK(next.dispatching_to == r.to_dispatching);
    CHECK(next.previous == r.from);
    CHECK(next.changed == (r.to != r.from || (r.to == Disp && r.to_dispatching != r.dispatching_to)));
  }
}

TEST_CASE("motions that are not joint-level switch directly", "[motion][selector]") {
  SelectorOptions o;
  o.joint_level[static_cast<std::size_t>(T::stand)] = false;  // e.g. the robot stands by itself
  const auto next = select_motion(at(D), S, MotionSafeExits{}, false, o);
  CHECK(next.current == S);
}

TEST_CASE("stand-up attempts are counted and reset on a stable motion", "[motion][selector]") {
  MotionSafeExits all_safe;
  auto s = at(F);
  s = select_motion(s, U, all_safe, false);  // dispatching toward stand_up: attempt 1
  CHECK(s.current == Disp);
  CHECK(s.stand_up_attempts == 1);
  s = select_motion(s, U, all_safe, false);  // dispatching done -> stand_up: same attempt
  CHECK(s.current == U);
  CHECK(s.stand_up_attempts == 1);
  s = select_motion(s, U, all_safe, true);   // falls again
  CHECK(s.current == F);
  s = select_motion(s, U, all_safe, false);
  CHECK(s.stand_up_attempts == 2);
  s = select_motion(s, U, all_safe, false);
  s = select_motion(s, S, all_safe, false);  // dispatching toward stand
  s = select_motion(s, S, all_safe, false);  // stand reached
  CHECK(s.current == S);
  CHECK(s.stand_up_attempts == 0);
}
