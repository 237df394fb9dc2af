// The gamepad: one bit per button (the Unitree remote's order), the raw state's finite(), pressed()
// and set() (one bit at a time), a Button's edges (on_press / on_release true for exactly one
// update), Gamepad::update mapping every bit onto its named button (and operator[] onto the same
// one), and the sticks: out-of-range readings clamped to [-1, 1] (the trigger to [0, 1]), a reading
// that is not a number (NaN, infinity) read as released.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <limits>

#include "praxis/core/gamepad.hpp"

namespace gamepad_test {

using praxis::Gamepad;
using praxis::GamepadButton;
using praxis::GamepadState;

namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();
constexpr float k_max = std::numeric_limits<float>::max();

struct Named {
  GamepadButton button;
  unsigned bit;  // the Unitree wireless remote's bit
  praxis::Button Gamepad::*member;
  const char* name;
};
// The remote's layout, written out independently of the header's enum values.
constexpr std::array<Named, 16> k_buttons{{
    {GamepadButton::R1, 0, &Gamepad::R1, "R1"},
    {GamepadButton::L1, 1, &Gamepad::L1, "L1"},
    {GamepadButton::start, 2, &Gamepad::start, "start"},
    {GamepadButton::select, 3, &Gamepad::select, "select"},
    {GamepadButton::R2, 4, &Gamepad::R2, "R2"},
    {GamepadButton::L2, 5, &Gamepad::L2, "L2"},
    {GamepadButton::F1, 6, &Gamepad::F1, "F1"},
    {GamepadButton::F2, 7, &Gamepad::F2, "F2"},
    {GamepadButton::A, 8, &Gamepad::A, "A"},
    {GamepadButton::B, 9, &Gamepad::B, "B"},
    {GamepadButton::X, 10, &Gamepad::X, "X"},
    {GamepadButton::Y, 11, &Gamepad::Y, "Y"},
    {GamepadButton::up, 12, &Gamepad::up, "up"},
    {GamepadButton::right, 13, &Gamepad::right, "right"},
    {GamepadButton::down, 14, &Gamepad::down, "down"},
    {GamepadButton::left, 15, &Gamepad::left, "left"},
}};

GamepadState buttons_down(std::uint16_t bits) {
  GamepadState s;
  s.buttons = bits;
  return s;
}

}  // namespace

TEST_CASE("gamepad: each button is its own bit in the remote's order", "[core][gamepad]") {
  unsigned all = 0;
  for (const auto& b : k_buttons) {
    INFO(b.name);
    CHECK(praxis::button_bit(b.button) == (1u << b.bit));
    CHECK((all & praxis::button_bit(b.button)) == 0u);
    all |= praxis::button_bit(b.button);
  }
  CHECK(all == 0xFFFFu);
  STATIC_REQUIRE(praxis::button_bit(GamepadButton::left) == 0x8000);
}

TEST_CASE("gamepad: an axis reading is finite unless it is NaN or an infinity", "[core][gamepad]") {
  CHECK(praxis::finite_axis(0.0f));
  CHECK(praxis::finite_axis(-0.0f));
  CHECK(praxis::finite_axis(1.0f));
  CHECK(praxis::finite_axis(-1.0f));
  CHECK(praxis::finite_axis(k_max));
  CHECK(praxis::finite_axis(-k_max));
  CHECK(praxis::finite_axis(std::numeric_limits<float>::denorm_min()));
  CHECK_FALSE(praxis::finite_axis(k_nan));
  CHECK_FALSE(praxis::finite_axis(-k_nan));
  CHECK_FALSE(praxis::finite_axis(k_inf));
  CHECK_FALSE(praxis::finite_axis(-k_inf));
  STATIC_REQUIRE_FALSE(praxis::finite_axis(std::numeric_limits<float>::infinity()));
}

TEST_CASE("gamepad: a raw state is finite only when all five axes are", "[core][gamepad]") {
  CHECK(GamepadState{}.finite());
  using Axis = float GamepadState::*;
  constexpr std::array<Axis, 5> axes{&GamepadState::lx, &GamepadState::ly, &GamepadState::rx, &GamepadState::ry,
                                     &GamepadState::l2};
  for (std::size_t a = 0; a < axes.size(); ++a) {
    for (const float bad : {k_nan, k_inf, -k_inf}) {
      GamepadState s;
      s.*axes[a] = bad;
      INFO("axis " << a << " = " << bad);
      CHECK_FALSE(s.finite());
    }
    GamepadState far;
    far.*axes[a] = 12.0f;  // out of range is still a number
    CHECK(far.finite());
  }
}

TEST_CASE("gamepad: set and pressed change and read one button bit", "[core][gamepad]") {
  GamepadState s;
  for (const auto& b : k_buttons) CHECK_FALSE(s.pressed(b.button));
  s.set(GamepadButton::A, true);
  CHECK(s.buttons == (1u << 8));
  CHECK(s.pressed(GamepadButton::A));
  CHECK_FALSE(s.pressed(GamepadButton::B));
  s.set(GamepadButton::left, true);
  s.set(GamepadButton::R1, true);
  CHECK(s.buttons == ((1u << 15) | (1u << 8) | 1u));
  s.set(GamepadButton::A, true);  // setting again changes nothing
  CHECK(s.buttons == ((1u << 15) | (1u << 8) | 1u));
  s.set(GamepadButton::A, false);
  CHECK(s.buttons == ((1u << 15) | 1u));
  CHECK_FALSE(s.pressed(GamepadButton::A));
  CHECK(s.pressed(GamepadButton::left));
  s.set(GamepadButton::B, false);  // releasing a released button changes nothing
  CHECK(s.buttons == ((1u << 15) | 1u));

  // Every button, alone.
  for (const auto& b : k_buttons) {
    GamepadState one;
    one.set(b.button, true);
    INFO(b.name);
    for (const auto& other : k_buttons) CHECK(one.pressed(other.button) == (other.bit == b.bit));
  }
}

TEST_CASE("gamepad: raw states are equal when the buttons and every axis are", "[core][gamepad]") {
  GamepadState a, b;
  CHECK(a == b);
  b.ry = 0.5f;
  CHECK_FALSE(a == b);
  b = a;
  b.set(GamepadButton::Y, true);
  CHECK(a != b);
}

TEST_CASE("gamepad: a button's edges are true for exactly one update", "[core][gamepad]") {
  praxis::Button b;
  CHECK_FALSE(b.pressed);
  CHECK_FALSE(b.on_press);
  CHECK_FALSE(b.on_release);

  b.update(false);  // still up: no edge
  CHECK_FALSE(b.on_press);
  CHECK_FALSE(b.on_release);

  b.update(true);
  CHECK(b.pressed);
  CHECK(b.on_press);
  CHECK_FALSE(b.on_release);

  b.update(true);  // held
  CHECK(b.pressed);
  CHECK_FALSE(b.on_press);
  CHECK_FALSE(b.on_release);

  b.update(false);
  CHECK_FALSE(b.pressed);
  CHECK_FALSE(b.on_press);
  CHECK(b.on_release);

  b.update(false);
  CHECK_FALSE(b.on_release);

  // A press, a release and a press again on consecutive updates: an edge each time.
  b.update(true);
  CHECK(b.on_press);
  b.update(false);
  CHECK(b.on_release);
  b.update(true);
  CHECK(b.on_press);
  CHECK_FALSE(b.on_release);
}

TEST_CASE("gamepad: update maps every bit onto its named button and operator[] onto the same one",
          "[core][gamepad]") {
  for (const auto& b : k_buttons) {
    Gamepad pad;
    pad.update(buttons_down(static_cast<std::uint16_t>(1u << b.bit)));
    INFO(b.name);
    CHECK((pad.*b.member).pressed);
    CHECK((pad.*b.member).on_press);
    CHECK(&pad[b.button] == &(pad.*b.member));
    for (const auto& other : k_buttons) {
      if (other.bit != b.bit) CHECK_FALSE((pad.*other.member).pressed);
    }
  }
  // All at once, then all released.
  Gamepad pad;
  pad.update(buttons_down(0xFFFF));
  for (const auto& b : k_buttons) CHECK(pad[b.button].on_press);
  pad.update(buttons_down(0));
  for (const auto& b : k_buttons) {
    CHECK(pad[b.button].on_release);
    CHECK_FALSE(pad[b.button].pressed);
  }
}

TEST_CASE("gamepad: edges refer to the previous update of the same pad", "[core][gamepad]") {
  Gamepad pad;
  GamepadState s;
  s.set(GamepadButton::R2, true);
  pad.update(s);
  CHECK(pad.R2.on_press);
  s.set(GamepadButton::A, true);  // R2 held, A newly pressed
  pad.update(s);
  CHECK_FALSE(pad.R2.on_press);
  CHECK(pad.R2.pressed);
  CHECK(pad.A.on_press);
  s.set(GamepadButton::R2, false);
  pad.update(s);
  CHECK(pad.R2.on_release);
  CHECK_FALSE(pad.A.on_press);
  CHECK(pad.A.pressed);
  CHECK_FALSE(pad.A.on_release);
}

TEST_CASE("gamepad: sticks pass in range readings and clamp the rest to -1 and 1", "[core][gamepad]") {
  Gamepad pad;
  GamepadState s;
  s.lx = 0.25f;
  s.ly = -0.5f;
  s.rx = 1.0f;
  s.ry = -1.0f;
  s.l2 = 0.75f;
  pad.update(s);
  CHECK(pad.lx == 0.25f);
  CHECK(pad.ly == -0.5f);
  CHECK(pad.rx == 1.0f);
  CHECK(pad.ry == -1.0f);
  CHECK(pad.l2 == 0.75f);

  s.lx = 5.0f;
  s.ly = -5.0f;
  s.rx = -1.0001f;
  s.ry = k_max;
  s.l2 = 3.0f;
  pad.update(s);
  CHECK(pad.lx == 1.0f);
  CHECK(pad.ly == -1.0f);
  CHECK(pad.rx == -1.0f);
  CHECK(pad.ry == 1.0f);
  CHECK(pad.l2 == 1.0f);
}

TEST_CASE("gamepad: the trigger reads from 0 to 1 and a negative reading is released", "[core][gamepad]") {
  Gamepad pad;
  GamepadState s;
  s.l2 = -0.5f;
  pad.update(s);
  CHECK(pad.l2 == 0.0f);
  s.l2 = -k_max;
  pad.update(s);
  CHECK(pad.l2 == 0.0f);
  s.l2 = 0.0f;
  pad.update(s);
  CHECK(pad.l2 == 0.0f);
}

TEST_CASE("gamepad: a stick or trigger reading that is not a number reads as released", "[core][gamepad]") {
  for (const float bad : {k_nan, k_inf, -k_inf}) {
    Gamepad pad;
    GamepadState good;
    good.lx = good.ly = good.rx = good.ry = good.l2 = 0.5f;
    pad.update(good);
    GamepadState s;
    s.lx = s.ly = s.rx = s.ry = s.l2 = bad;
    s.set(GamepadButton::B, true);
    pad.update(s);
    INFO("reading " << bad);
    // Released (0), not the last reading and not a clamped infinity.
    CHECK(pad.lx == 0.0f);
    CHECK(pad.ly == 0.0f);
    CHECK(pad.rx == 0.0f);
    CHECK(pad.ry == 0.0f);
    CHECK(pad.l2 == 0.0f);
    CHECK(pad.B.on_press);  // the buttons of the same frame still count
  }
  // One bad axis does not affect the others.
  Gamepad pad;
  GamepadState s;
  s.lx = k_nan;
  s.ly = 0.3f;
  pad.update(s);
  CHECK(pad.lx == 0.0f);
  CHECK(pad.ly == 0.3f);
}

TEST_CASE("gamepad: the view works in constant expressions", "[core][gamepad]") {
  static constexpr Gamepad pad = [] {
    Gamepad p;
    GamepadState s;
    s.set(GamepadButton::X, true);
    s.ly = 2.0f;
    p.update(s);
    return p;
  }();
  STATIC_REQUIRE(pad.X.on_press);
  STATIC_REQUIRE(pad[GamepadButton::X].pressed);
  STATIC_REQUIRE(pad.ly == 1.0f);
}

}  // namespace gamepad_test
