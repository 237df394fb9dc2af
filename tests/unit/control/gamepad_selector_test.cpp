// GamepadSelector: the Unitree framework's DAMPING / STAND / CTRL machine as a motion selector. R2's
// press enters STAND from DAMPING or CTRL and R2 held raises pd_ratio (R1 lowers it) in STAND; A's
// press enters CTRL from STAND only once pd_ratio is above 0.95; L2 and B held together stop; the
// shared safety rules then override the gamepad of the same cycle (no, stale or invalid state and a
// lost link anywhere; a replaced non-finite command and a joint fault outside DAMPING; a tilt only in
// CTRL), with the rule's cause. The selection carries the motion, the previous one, pd_ratio as
// gain_ratio, changed and its cause only on a change. reset() returns to the configured start. Also
// the name mappings (motion_of, control_state) and GamepadReader's edge detection. Driven cycle by
// cycle with constructed gamepad states, no threads, no time.
#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>

#include "praxis/control/gamepad_selector.hpp"
#include "praxis/core/gamepad.hpp"

namespace gamepad_selector_test {

using praxis::control::ControlState;
using praxis::GamepadButton;
using praxis::control::GamepadSelector;
using praxis::motion::MotionType;
using praxis::motion::SelectionCause;

namespace {

// A healthy robot: a fresh, valid state (SafetyStatus{} means "nothing received yet").
praxis::motion::SafetyStatus healthy() {
  praxis::motion::SafetyStatus s;
  s.no_state = false;
  return s;
}

// Drives a selector with held buttons, one call per cycle; the gamepad sees press edges itself.
struct Driver {
  GamepadSelector selector;
  praxis::Gamepad pad;
  praxis::motion::SafetyStatus safety = healthy();
  praxis::motion::CollectorReport report{};
  praxis::motion::MotionSelection out{};

  const praxis::motion::MotionSelection& cycle(std::initializer_list<GamepadButton> held = {}) {
    praxis::GamepadState raw;
    for (const auto b : held) raw.set(b, true);
    pad.update(raw);
    selector.cycle(pad, safety, report, out);
    return out;
  }
};

constexpr double k_delta = 0.005;

}  // namespace

TEST_CASE("gamepad selector: the framework's states map to motions and back", "[control][gamepad_selector]") {
  using praxis::control::control_state;
  using praxis::control::motion_of;
  STATIC_REQUIRE(motion_of(ControlState::damping) == MotionType::damping);
  STATIC_REQUIRE(motion_of(ControlState::stand) == MotionType::stand);
  STATIC_REQUIRE(motion_of(ControlState::ctrl) == MotionType::user_control);
  for (const auto s : {ControlState::damping, ControlState::stand, ControlState::ctrl}) {
    CHECK(control_state(motion_of(s)) == s);
  }
  // Every other motion reads as DAMPING.
  for (const auto m : {MotionType::prepare, MotionType::stand_up, MotionType::walk, MotionType::visual_kick,
                       MotionType::script, MotionType::dispatching, MotionType::fall_protection}) {
    CHECK(control_state(m) == ControlState::damping);
  }
}

TEST_CASE("gamepad selector: the reader turns the state's raw remote into edges", "[control][gamepad_selector]") {
  praxis::control::GamepadReader<2> reader;
  praxis::RobotState<2> state;
  praxis::Gamepad pad;
  state.gamepad.set(GamepadButton::A, true);
  state.gamepad.lx = 0.5f;
  reader.cycle(state, pad);
  CHECK(pad.A.pressed);
  CHECK(pad.A.on_press);
  CHECK_FALSE(pad.B.pressed);
  CHECK(pad.lx == 0.5f);
  reader.cycle(state, pad);  // still held: no new press
  CHECK(pad.A.pressed);
  CHECK_FALSE(pad.A.on_press);
  state.gamepad.set(GamepadButton::A, false);
  reader.cycle(state, pad);
  CHECK(pad.A.on_release);
  CHECK_FALSE(pad.A.pressed);
}

TEST_CASE("gamepad selector: without buttons a healthy robot stays in DAMPING and nothing changes",
          "[control][gamepad_selector]") {
  Driver d;
  for (int k = 0; k < 3; ++k) {
    const auto& s = d.cycle();
    CHECK(s.current == MotionType::damping);
    CHECK(s.previous == MotionType::damping);
    CHECK_FALSE(s.changed);
    CHECK(s.cause == SelectionCause::none);
    CHECK(s.commanded);  // the gamepad is the behaviour, from the first cycle
    CHECK(s.gain_ratio == 0.1);  // the framework's starting pd_ratio, untouched in DAMPING
  }
}

TEST_CASE("gamepad selector: R2 enters STAND and raises pd_ratio from its first cycle while held",
          "[control][gamepad_selector]") {
  Driver d;
  auto s = d.cycle({GamepadButton::R2});
  CHECK(s.current == MotionType::stand);
  CHECK(s.previous == MotionType::damping);
  CHECK(s.changed);
  CHECK(s.cause == SelectionCause::requested);
  CHECK(s.gain_ratio == Approx(0.1 + k_delta));
  s = d.cycle({GamepadButton::R2});
  CHECK(s.current == MotionType::stand);
  CHECK(s.previous == MotionType::stand);
  CHECK_FALSE(s.changed);
  CHECK(s.cause == SelectionCause::none);
  CHECK(s.gain_ratio == Approx(0.1 + 2 * k_delta));
  // Released: pd_ratio stays where it is.
  s = d.cycle();
  CHECK(s.current == MotionType::stand);
  CHECK(s.gain_ratio == Approx(0.1 + 2 * k_delta));
  // R1 lowers it.
  s = d.cycle({GamepadButton::R1});
  CHECK(s.gain_ratio == Approx(0.1 + k_delta));
}

TEST_CASE("gamepad selector: pd_ratio stays within 0 and 1", "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  for (int k = 0; k < 400; ++k) d.cycle({GamepadButton::R2});  // 0.1 + 400 * 0.005 would be 2.1
  CHECK(d.out.gain_ratio == 1.0);
  for (int k = 0; k < 400; ++k) d.cycle({GamepadButton::R1});
  CHECK(d.out.gain_ratio == 0.0);
  CHECK(d.out.current == MotionType::stand);  // a ratio of 0 does not leave STAND
}

TEST_CASE("gamepad selector: R2 and R1 do not move pd_ratio outside STAND", "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R1});
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.gain_ratio == 0.1);
  // Held R2 from before: no new press, so no STAND and no ramp.
  Driver held;
  held.pad.update([] {
    praxis::GamepadState g;
    g.set(GamepadButton::R2, true);
    return g;
  }());
  held.cycle({GamepadButton::R2});
  CHECK(held.out.current == MotionType::damping);
  CHECK(held.out.gain_ratio == 0.1);
}

TEST_CASE("gamepad selector: A enters CTRL only from STAND and only with pd_ratio above 0.95",
          "[control][gamepad_selector]") {
  SECTION("in DAMPING A does nothing") {
    Driver d;
    d.selector.machine.pd_ratio = 1.0;
    d.cycle({GamepadButton::A});
    CHECK(d.out.current == MotionType::damping);
    CHECK_FALSE(d.out.changed);
  }
  SECTION("at exactly 0.95 A is refused, just above it A is taken") {
    Driver d;
    d.cycle({GamepadButton::R2});
    d.cycle();
    d.selector.machine.pd_ratio = 0.95;
    d.cycle({GamepadButton::A});
    CHECK(d.out.current == MotionType::stand);
    d.cycle();
    d.selector.machine.pd_ratio = 0.951;
    d.cycle({GamepadButton::A});
    CHECK(d.out.current == MotionType::user_control);
    CHECK(d.out.previous == MotionType::stand);
    CHECK(d.out.changed);
    CHECK(d.out.cause == SelectionCause::requested);
    CHECK(d.out.gain_ratio == 0.951);
  }
  SECTION("A held through the ramp counts only on its press") {
    Driver d;
    d.cycle({GamepadButton::R2});
    d.cycle();
    d.selector.machine.pd_ratio = 0.5;
    d.cycle({GamepadButton::A});  // pressed too early
    d.selector.machine.pd_ratio = 1.0;
    for (int k = 0; k < 3; ++k) d.cycle({GamepadButton::A});  // still held: no new press
    CHECK(d.out.current == MotionType::stand);
    d.cycle();
    d.cycle({GamepadButton::A});
    CHECK(d.out.current == MotionType::user_control);
  }
  SECTION("reached by ramping with R2 from the start") {
    Driver d;
    d.cycle();
    REQUIRE(d.out.gain_ratio == 0.1);
    int cycles = 0;
    while (d.out.gain_ratio <= 0.95 && cycles < 1000) {
      d.cycle({GamepadButton::R2});
      ++cycles;
    }
    // 0.1 + k * 0.005 > 0.95 from k = 171 on (170 lands on 0.95 itself, give or take rounding).
    CHECK(cycles >= 170);
    CHECK(cycles <= 172);
    d.cycle({GamepadButton::A});
    CHECK(d.out.current == MotionType::user_control);
  }
}

TEST_CASE("gamepad selector: R2 in CTRL goes back to STAND keeping pd_ratio", "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  d.cycle();
  d.selector.machine.pd_ratio = 0.97;
  d.cycle({GamepadButton::A});
  REQUIRE(d.out.current == MotionType::user_control);
  d.cycle();
  d.cycle({GamepadButton::R2});
  CHECK(d.out.current == MotionType::stand);
  CHECK(d.out.previous == MotionType::user_control);
  CHECK(d.out.cause == SelectionCause::requested);
  // kept, then raised once by the held R2 in STAND
  CHECK(d.out.gain_ratio == Approx(0.97 + k_delta));
}

TEST_CASE("gamepad selector: L2 and B held together stop from anywhere and reset pd_ratio",
          "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  d.cycle({GamepadButton::L2});  // one of them alone does nothing
  CHECK(d.out.current == MotionType::stand);
  d.cycle({GamepadButton::B});
  CHECK(d.out.current == MotionType::stand);
  d.cycle({GamepadButton::L2, GamepadButton::B});
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.previous == MotionType::stand);
  CHECK(d.out.changed);
  CHECK(d.out.cause == SelectionCause::requested);
  CHECK(d.out.gain_ratio == 0.0);

  // From CTRL too.
  Driver c;
  c.cycle({GamepadButton::R2});
  c.cycle();
  c.selector.machine.pd_ratio = 1.0;
  c.cycle({GamepadButton::A});
  REQUIRE(c.out.current == MotionType::user_control);
  c.cycle({GamepadButton::L2, GamepadButton::B});
  CHECK(c.out.current == MotionType::damping);
  CHECK(c.out.previous == MotionType::user_control);
}

TEST_CASE("gamepad selector: L2 and B win over an R2 press in the same cycle", "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2, GamepadButton::L2, GamepadButton::B});
  CHECK(d.out.current == MotionType::damping);
  CHECK_FALSE(d.out.changed);
  CHECK(d.out.gain_ratio == 0.0);
  // While L2 and B stay held, a new R2 press is stopped again.
  d.cycle({GamepadButton::L2, GamepadButton::B});
  d.cycle({GamepadButton::R2, GamepadButton::L2, GamepadButton::B});
  CHECK(d.out.current == MotionType::damping);
  // Released, R2 works again, from pd_ratio 0.
  d.cycle();
  d.cycle({GamepadButton::R2});
  CHECK(d.out.current == MotionType::stand);
  CHECK(d.out.gain_ratio == Approx(k_delta));
}

TEST_CASE("gamepad selector: a lost or bad state forces DAMPING with its cause from STAND",
          "[control][gamepad_selector]") {
  struct Case {
    const char* what;
    void (*spoil)(praxis::motion::SafetyStatus&);
    SelectionCause cause;
  };
  const Case cases[] = {
      {"no state", [](praxis::motion::SafetyStatus& s) { s.no_state = true; }, SelectionCause::no_state},
      {"stale", [](praxis::motion::SafetyStatus& s) { s.stale = true; }, SelectionCause::stale_state},
      {"invalid", [](praxis::motion::SafetyStatus& s) { s.invalid = true; }, SelectionCause::invalid_state},
      {"link lost", [](praxis::motion::SafetyStatus& s) { s.link_lost = true; }, SelectionCause::link_lost},
      {"joint fault", [](praxis::motion::SafetyStatus& s) { s.joint_fault = true; }, SelectionCause::joint_fault},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Driver d;
    d.cycle({GamepadButton::R2});
    d.cycle({GamepadButton::R2});  // R2 still held: the ramp is stopped too
    c.spoil(d.safety);
    d.cycle({GamepadButton::R2});
    CHECK(d.out.current == MotionType::damping);
    CHECK(d.out.previous == MotionType::stand);
    CHECK(d.out.changed);
    CHECK(d.out.cause == c.cause);
    CHECK(d.out.gain_ratio == 0.0);
    // The next cycle: no change, no cause, still damped while the condition lasts.
    d.cycle();
    CHECK(d.out.current == MotionType::damping);
    CHECK_FALSE(d.out.changed);
    CHECK(d.out.cause == SelectionCause::none);
  }
}

TEST_CASE("gamepad selector: without a state R2 cannot leave DAMPING", "[control][gamepad_selector]") {
  Driver d;
  d.safety.no_state = true;
  d.cycle({GamepadButton::R2});
  CHECK(d.out.current == MotionType::damping);
  CHECK_FALSE(d.out.changed);
  CHECK(d.out.cause == SelectionCause::none);
  d.safety.stale = true;
  d.safety.no_state = false;
  d.cycle();
  d.cycle({GamepadButton::R2});
  CHECK(d.out.current == MotionType::damping);
  // Once the state is good the next press stands.
  d.safety = healthy();
  d.cycle();
  d.cycle({GamepadButton::R2});
  CHECK(d.out.current == MotionType::stand);
}

TEST_CASE("gamepad selector: a tilt stops CTRL but not STAND", "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  d.safety.tilted = true;
  d.cycle();
  CHECK(d.out.current == MotionType::stand);  // standing up from a tilt is what STAND is for
  d.safety.tilted = false;
  d.selector.machine.pd_ratio = 1.0;
  d.cycle({GamepadButton::A});
  REQUIRE(d.out.current == MotionType::user_control);
  d.safety.tilted = true;
  d.cycle();
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.previous == MotionType::user_control);
  CHECK(d.out.cause == SelectionCause::tilt);
  CHECK(d.out.gain_ratio == 0.0);
}

TEST_CASE("gamepad selector: an A press into CTRL while tilted is stopped in the same cycle",
          "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  d.cycle();
  d.selector.machine.pd_ratio = 1.0;
  d.safety.tilted = true;
  d.cycle({GamepadButton::A});
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.previous == MotionType::stand);
  CHECK(d.out.cause == SelectionCause::tilt);
}

TEST_CASE("gamepad selector: a command the guard replaced stops STAND and CTRL but is no cause in DAMPING",
          "[control][gamepad_selector]") {
  Driver d;
  d.report.fallback_to_damping = true;
  d.cycle();
  CHECK(d.out.current == MotionType::damping);
  CHECK_FALSE(d.out.changed);
  d.report.fallback_to_damping = false;
  d.cycle({GamepadButton::R2});
  REQUIRE(d.out.current == MotionType::stand);
  d.report.fallback_to_damping = true;
  d.cycle();
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.cause == SelectionCause::command_guard);
  // Other guard events (clamps, unsupported modes) are not a reason to stop.
  Driver c;
  c.report.clamped_joints = 12;
  c.report.unsupported_modes = 1;
  c.report.rate_limited_joints = 3;
  c.cycle({GamepadButton::R2});
  CHECK(c.out.current == MotionType::stand);
}

TEST_CASE("gamepad selector: reset returns to the configured start and forgets the last selection",
          "[control][gamepad_selector]") {
  Driver d;
  d.cycle({GamepadButton::R2});
  d.cycle({GamepadButton::R2});
  REQUIRE(d.out.current == MotionType::stand);
  d.selector.reset();
  CHECK(d.selector.machine.state == ControlState::damping);
  CHECK(d.selector.machine.pd_ratio == 0.1);
  d.cycle();
  CHECK(d.out.current == MotionType::damping);
  CHECK(d.out.previous == MotionType::damping);  // the last selection was forgotten, not STAND
  CHECK_FALSE(d.out.changed);

  // A configured start: STAND at pd_ratio 0.5. The first cycle after reset reports the change from
  // the forgotten selection (DAMPING).
  GamepadSelector custom;
  custom.initial.state = ControlState::stand;
  custom.initial.pd_ratio = 0.5;
  custom.reset();
  CHECK(custom.machine.state == ControlState::stand);
  praxis::Gamepad pad;
  praxis::motion::MotionSelection out;
  custom.cycle(pad, healthy(), {}, out);
  CHECK(out.current == MotionType::stand);
  CHECK(out.previous == MotionType::damping);
  CHECK(out.changed);
  CHECK(out.gain_ratio == 0.5);
}

}  // namespace gamepad_selector_test
