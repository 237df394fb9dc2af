#pragma once
// The gamepad: raw state as a backend delivers it, and the edge-detecting view controllers use.
//
// Button bits follow the Unitree wireless remote (bit 0 = R1 ... bit 15 = left); other vendors'
// backends map their remotes onto the same bits. The view keeps the member names of the Unitree
// deployment framework's Gamepad (R2.on_press, lx, ...), so controllers written for it compile.

#include <cstdint>
#include <limits>

namespace praxis {

enum class GamepadButton : std::uint8_t {
  R1 = 0, L1 = 1, start = 2, select = 3, R2 = 4, L2 = 5, F1 = 6, F2 = 7,
  A = 8, B = 9, X = 10, Y = 11, up = 12, right = 13, down = 14, left = 15,
};

[[nodiscard]] constexpr std::uint16_t button_bit(GamepadButton b) {
  return static_cast<std::uint16_t>(1u << static_cast<unsigned>(b));
}

// The two sticks' axes (the trigger l2 is not a stick).
enum class GamepadAxis : std::uint8_t { lx, ly, rx, ry };

// What a backend reports: a button bit field and the analog axes, in [-1, 1] (l2 in [0, 1]); ly and
// ry are positive with the stick pushed forward.
// A stick or trigger reading that is a number: not NaN, not infinite.
[[nodiscard]] constexpr bool finite_axis(float v) {
  return v >= -std::numeric_limits<float>::max() && v <= std::numeric_limits<float>::max();
}

struct GamepadState {
  std::uint16_t buttons = 0;
  float lx = 0, ly = 0, rx = 0, ry = 0, l2 = 0;

  // Every axis a number (no NaN, no infinity). A backend keeps its last reading instead of one that
  // is not: the rest of the frame (joints, IMU) may still be good.
  [[nodiscard]] constexpr bool finite() const {
    return finite_axis(lx) && finite_axis(ly) && finite_axis(rx) && finite_axis(ry) && finite_axis(l2);
  }

  [[nodiscard]] constexpr float& axis(GamepadAxis a) { return this->*axis_member(a); }
  [[nodiscard]] constexpr float axis(GamepadAxis a) const { return this->*axis_member(a); }

  [[nodiscard]] constexpr bool pressed(GamepadButton b) const { return (buttons & button_bit(b)) != 0; }
  constexpr void set(GamepadButton b, bool down) {
    buttons = static_cast<std::uint16_t>(down ? (buttons | button_bit(b)) : (buttons & ~button_bit(b)));
  }
  friend constexpr bool operator==(const GamepadState&, const GamepadState&) = default;

 private:
  static constexpr float GamepadState::*axis_member(GamepadAxis a) {
    constexpr float GamepadState::*members[] = {&GamepadState::lx, &GamepadState::ly, &GamepadState::rx,
                                                 &GamepadState::ry};
    return members[static_cast<unsigned>(a)];
  }
};

// One button with edge detection: on_press / on_release are true for exactly one update.
struct Button {
  bool pressed = false;
  bool on_press = false;
  bool on_release = false;

  constexpr void update(bool down) {
    on_press = down && !pressed;
    on_release = !down && pressed;
    pressed = down;
  }
};

class Gamepad {
 public:
  Button R1, L1, start, select, R2, L2, F1, F2, A, B, X, Y, up, right, down, left;
  float lx = 0, ly = 0, rx = 0, ry = 0, l2 = 0;

  // Call once per control cycle with the latest raw state; edges refer to the previous call.
  constexpr void update(const GamepadState& s) {
    Button* const buttons[16] = {&R1, &L1, &start, &select, &R2, &L2, &F1, &F2,
                                 &A,  &B,  &X,     &Y,      &up, &right, &down, &left};
    for (unsigned bit = 0; bit < 16; ++bit) buttons[bit]->update((s.buttons >> bit) & 1u);
    // Controllers scale the sticks into velocities: a glitching remote must not command 5x the
    // top speed or a NaN. Out of range is clamped, a value that is not a number reads as released.
    lx = axis(s.lx, -1.0f);
    ly = axis(s.ly, -1.0f);
    rx = axis(s.rx, -1.0f);
    ry = axis(s.ry, -1.0f);
    l2 = axis(s.l2, 0.0f);
  }

  [[nodiscard]] constexpr const Button& operator[](GamepadButton b) const {
    const Button* const buttons[16] = {&R1, &L1, &start, &select, &R2, &L2, &F1, &F2,
                                       &A,  &B,  &X,     &Y,      &up, &right, &down, &left};
    return *buttons[static_cast<unsigned>(b)];
  }

 private:
  static constexpr float axis(float v, float lowest) {
    if (!finite_axis(v)) return 0.0f;
    return v < lowest ? lowest : (v > 1.0f ? 1.0f : v);
  }
};

}  // namespace praxis
