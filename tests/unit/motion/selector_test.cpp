// Every rule of the motion selector, table-driven: (from, safe to exit, request) -> result.

#include <catch2/catch.hpp>

#include "praxis/motion/selector.hpp"

namespace selector_test {

using praxis::motion::FallPhase;
using praxis::motion::FallState;
using praxis::motion::MotionSafeExits;
using praxis::motion::MotionSelection;
using praxis::motion::MotionType;
using praxis::motion::select_motion;
using praxis::motion::SafetyStatus;
using praxis::motion::SelectionCause;
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
constexpr FallState upright{};
constexpr FallState falling{FallPhase::falling, 1.3, 2.0};
constexpr FallState fallen{FallPhase::fallen, 1.5, 0.0};
constexpr SafetyStatus state_ok{false};  // a fresh, valid state
FallState phase(bool is_falling) { return is_falling ? falling : upright; }
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
      {"falling while standing up: keep standing up", U, D, false, true, U, U, D},
      {"falling while dispatching to stand-up: keep", Disp, U, false, true, U, Disp, U},
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
      {"user control -> stand dispatches", T::user_control, D, true, false, S, Disp, S},
      {"leaving damping for user control dispatches", D, D, true, false, T::user_control, Disp, T::user_control},
      {"fall protection, still falling... not safe -> kept", F, D, false, false, U, F, D},
      {"prepare -> visual kick dispatches", P, D, true, false, K, Disp, K},
  };
  for (const auto& r : rows) {
    INFO(r.rule);
    auto from = at(r.from, r.dispatching_to);
    const auto safe = safety(r.from, r.safe);
    const auto next = select_motion(from, r.request, safe, phase(r.falling), state_ok);
    CHECK(next.current == r.to);
    if (r.to == Disp) CHECK(next.dispatching_to == r.to_dispatching);
    CHECK(next.previous == r.from);
    CHECK(next.changed == (r.to != r.from || (r.to == Disp && r.to_dispatching != r.dispatching_to)));
  }
}

TEST_CASE("motions that are not joint-level switch directly", "[motion][selector]") {
  SelectorOptions o;
  o.joint_level[static_cast<std::size_t>(T::stand)] = false;  // e.g. the robot stands by itself
  const auto next = select_motion(at(D), S, MotionSafeExits{}, upright, state_ok, {}, o);
  CHECK(next.current == S);
}

TEST_CASE("stand-up attempts are counted and reset on a stable motion", "[motion][selector]") {
  MotionSafeExits all_safe;
  auto s = at(F);
  s = select_motion(s, U, all_safe, upright, state_ok);  // dispatching toward stand_up: attempt 1
  CHECK(s.current == Disp);
  CHECK(s.stand_up_attempts == 1);
  s = select_motion(s, U, all_safe, upright, state_ok);  // dispatching done -> stand_up: same attempt
  CHECK(s.current == U);
  CHECK(s.stand_up_attempts == 1);
  s = select_motion(s, U, all_safe, falling, state_ok);   // falls again
  CHECK(s.current == U);  // getting up looks like falling: stand-up keeps running
  s = select_motion(s, D, all_safe, upright, state_ok);  // given up: damped
  CHECK(s.stand_up_attempts == 1);
  s = select_motion(s, U, all_safe, upright, state_ok);  // tries again (dispatching toward it)
  CHECK(s.stand_up_attempts == 2);
  s = select_motion(s, U, all_safe, upright, state_ok);
  s = select_motion(s, S, all_safe, upright, state_ok);  // dispatching toward stand
  s = select_motion(s, S, all_safe, upright, state_ok);  // stand reached
  CHECK(s.current == S);
  CHECK(s.stand_up_attempts == 0);
}

TEST_CASE("a robot lying on the floor may get up, nothing else", "[motion][selector][fall]") {
  SelectorOptions o;
  o.joint_level[static_cast<std::size_t>(U)] = false;  // scripts and robot modes start where the robot is
  o.joint_level[static_cast<std::size_t>(P)] = false;
  MotionSafeExits all_safe;
  struct Row {
    const char* rule;
    MotionType from, request, to;
  };
  const Row rows[] = {
      {"fallen: stand is refused, fall protection", S, S, F},
      {"fallen in fall protection: walk is refused", F, W, F},
      {"fallen in fall protection: stand-up is served", F, U, U},
      {"fallen in fall protection: prepare is served", F, P, P},
      {"fallen: damping is served", F, D, D},
      {"fallen and damped: stays damped", D, S, D},
      {"fallen while standing up: keep standing up", U, U, U},
  };
  for (const auto& r : rows) {
    INFO(r.rule);
    const auto next = select_motion(at(r.from), r.request, all_safe, fallen, state_ok, {}, o);
    CHECK(next.current == r.to);
    if (r.to == F && r.from != F) CHECK(next.cause == SelectionCause::falling);
  }
}

TEST_CASE("safety forces damping first, naming the cause", "[motion][selector][safety]") {
  MotionSafeExits all_safe;
  auto with = [](auto set) {
    SafetyStatus s{false};
    set(s);
    return s;
  };
  const auto stale = with([](SafetyStatus& s) { s.stale = true; });
  const auto invalid = with([](SafetyStatus& s) { s.invalid = true; });
  const auto tilted = with([](SafetyStatus& s) { s.tilted = true; });
  const auto fault = with([](SafetyStatus& s) { s.joint_fault = true; });
  const auto link = with([](SafetyStatus& s) { s.link_lost = true; });
  const SafetyStatus nothing{};  // no state yet
  struct Row {
    const char* rule;
    MotionType from;
    SafetyStatus safety;
    bool guard;
    MotionType to;
    SelectionCause cause;
  };
  const Row rows[] = {
      {"no state", S, nothing, false, D, SelectionCause::no_state},
      {"stale state", T::user_control, stale, false, D, SelectionCause::stale_state},
      {"invalid state", W, invalid, false, D, SelectionCause::invalid_state},
      {"tilt under the user's controller", T::user_control, tilted, false, D, SelectionCause::tilt},
      {"tilt while standing is no reason by itself", S, tilted, false, S, SelectionCause::none},
      {"a faulted joint", X, fault, false, D, SelectionCause::joint_fault},
      {"link lost", S, link, false, D, SelectionCause::link_lost},
      {"the collector replaced a non-finite command", S, state_ok, true, D, SelectionCause::command_guard},
  };
  for (const auto& r : rows) {
    INFO(r.rule);
    praxis::motion::CollectorReport report;
    report.fallback_to_damping = r.guard;
    const auto next = select_motion(at(r.from), r.from, all_safe, upright, r.safety, report);
    CHECK(next.current == r.to);
    CHECK(next.cause == r.cause);
  }
  // Even a command that asks for it is refused while the state is bad.
  CHECK(select_motion(at(D), S, all_safe, upright, stale).current == D);
}

TEST_CASE("a robot that went silent is not walked again when it comes back: the behaviour asks for something else "
          "first", "[motion][selector][safety]") {
  namespace cmd = praxis::motion::command;
  praxis::motion::MotionSelector selector;
  MotionSafeExits all_safe;
  praxis::motion::CollectorReport report{};
  SafetyStatus stale{false};
  stale.stale = true;
  MotionSelection out;
  // A few cycles of the same input (from damping, a joint-level motion is dispatched to first).
  const auto step = [&](const praxis::motion::MotionCommand& c, const SafetyStatus& s) {
    for (int k = 0; k < 3; ++k) selector.cycle(c, all_safe, upright, s, report, out);
    return out.current;
  };
  const praxis::motion::MotionCommand walk = cmd::WalkWithVelocity{};
  CHECK(step(cmd::Stand{}, state_ok) == S);
  CHECK(step(walk, state_ok) == W);
  // The robot goes silent mid-walk: damping, and the walk is latched.
  selector.cycle(walk, all_safe, upright, stale, report, out);
  CHECK(out.current == D);
  CHECK(out.cause == SelectionCause::stale_state);
  REQUIRE(selector.lost_latch().has_value());
  CHECK(*selector.lost_latch() == W);
  // It comes back (restarted, in Damping): the behaviour still says walk, praxis asks nothing of it.
  for (int k = 0; k < 20; ++k) CHECK(step(walk, state_ok) == D);
  // The behaviour asks for something else (its documented way back starts with Prepare): that runs,
  // and a walk after it runs too.
  CHECK(step(cmd::Prepare{}, state_ok) == P);
  CHECK_FALSE(selector.lost_latch().has_value());
  CHECK(step(walk, state_ok) == W);

  // A tilt or a fault is not a lost robot: no latch (the fall rules decide what follows).
  SafetyStatus tilted{false};
  tilted.tilted = true;
  praxis::motion::MotionSelector other;
  other.cycle(walk, all_safe, upright, tilted, report, out);
  CHECK_FALSE(other.lost_latch().has_value());
  // And reset() (a new run) forgets it.
  CHECK(step(walk, stale) == D);
  REQUIRE(selector.lost_latch().has_value());
  selector.reset();
  CHECK_FALSE(selector.lost_latch().has_value());
}

}  // namespace selector_test
