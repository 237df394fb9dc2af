// WithGamepad<B>: a backend whose robot reports no remote, given the user's gamepad. Every state
// read through it carries the newest GamepadState given to set_gamepad() (the default state before
// any), in place of whatever the backend put there, and keeps it on later reads; everything else is
// B's: read()'s result and the rest of the state, write(), the optional capabilities (present exactly
// when B has them, each forwarding its arguments and result), the declared capabilities, joint
// modes and safe state; has_remote becomes true. Across a setter thread and a reader thread a read
// never sees an older pad than one it saw before nor one half written. set_gamepad() and read() do
// not allocate. A hand-made fake backend records every call; the time points are constructed.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>

#include "praxis/control/with_gamepad.hpp"
#include "praxis/core/gamepad.hpp"
#include "praxis/core/wakeup.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"

#include "../../support/alloc_counter.hpp"

namespace with_gamepad_test {

using namespace std::chrono_literals;
using praxis::GamepadButton;
using praxis::GamepadState;
using praxis::TimePoint;

namespace {

struct TwoJoints {
  static constexpr std::string_view name = "two_joints";
  static constexpr std::size_t joint_count = 2;
  static constexpr std::array<praxis::JointSpec, 2> joints{{
      {"hip", -1.0, 1.0, 20, 10},
      {"knee", 0.0, 2.0, 30, 10},
  }};
  static constexpr std::array<double, 2> stand_pose{0.1, 0.8};
  static constexpr std::array<double, 2> rest_pose{0.0, 1.9};
  static constexpr std::array<double, 2> default_kp{40, 50};
  static constexpr std::array<double, 2> default_kd{1, 2};
};
constexpr std::size_t N = TwoJoints::joint_count;
using State = praxis::RobotState<N>;
using Command = praxis::JointCommand<N>;

// A gamepad state the backend itself writes into every state: it must never get through.
GamepadState backend_pad() {
  GamepadState g;
  g.buttons = 0xFFFF;
  g.lx = -1.0f;
  return g;
}

// Only read() and write(): none of the optional capabilities.
struct Minimal {
  using model = TwoJoints;
  bool fresh = true;
  bool read(State& s, TimePoint) {
    s.gamepad = backend_pad();
    return fresh;
  }
  void write(const Command&, TimePoint) {}
};

// Every optional capability, each call recorded.
struct Full {
  using model = TwoJoints;
  static constexpr praxis::Capabilities capabilities{true, true, false, true, false, true};
  static constexpr praxis::JointModeSet joint_modes{praxis::JointMode::position, praxis::JointMode::torque};
  static constexpr praxis::SafeState safe_state = praxis::SafeState::hand_back;
  static constexpr bool has_remote = false;

  bool fresh = true;
  double q0 = 0.25;
  int reads = 0;
  TimePoint read_at{};
  bool read(State& s, TimePoint now) {
    ++reads;
    read_at = now;
    s.q[0] = q0;
    s.gamepad = backend_pad();
    return fresh;
  }
  int writes = 0;
  Command written{};
  TimePoint written_at{};
  void write(const Command& c, TimePoint now) {
    ++writes;
    written = c;
    written_at = now;
  }
  praxis::RobotRequests posted{};
  int posts = 0;
  void post(const praxis::RobotRequests& r) {
    ++posts;
    posted = r;
  }
  bool status_fresh = true;
  bool read_status(praxis::RobotStatus& s) {
    s.sequence = 77;
    s.reported_mode = praxis::RobotMode::user;
    return status_fresh;
  }
  praxis::Duration acquire_timeout{}, release_timeout{};
  praxis::LifecycleResult acquire(praxis::Duration t) {
    acquire_timeout = t;
    return {false, praxis::LifecycleStage::failed, "UserCmd refused"};
  }
  praxis::LifecycleResult release(praxis::Duration t) {
    release_timeout = t;
    return {true, praxis::LifecycleStage::released, "PdStand"};
  }
  praxis::Wakeup* wakeup = nullptr;
  void set_wakeup(praxis::Wakeup* w) { wakeup = w; }
  [[nodiscard]] std::array<double, 2> stand_pose() const { return {0.3, 0.9}; }
  [[nodiscard]] double entry_hold(const State& s) const { return s.q[1] * 2.0; }
  [[nodiscard]] std::string_view control_loss() const { return "link lost at 12.5 s"; }
};

template <class T>
concept HasPost = requires(T& t, const praxis::RobotRequests& r) { t.post(r); };
template <class T>
concept HasStandPose = requires(const T& t) { t.stand_pose(); };
template <class T>
concept HasEntryHold = requires(const T& t, const State& s) { t.entry_hold(s); };
template <class T>
concept HasControlLoss = requires(const T& t) { t.control_loss(); };

GamepadState pad_with(std::uint16_t buttons, float lx) {
  GamepadState g;
  g.buttons = buttons;
  g.lx = lx;
  return g;
}

}  // namespace

TEST_CASE("with gamepad: it is a backend with a remote that keeps B's declarations", "[control][with_gamepad]") {
  using Pad = praxis::control::WithGamepad<Full>;
  STATIC_REQUIRE(praxis::Backend<Pad>);
  STATIC_REQUIRE(std::is_same_v<Pad::model, TwoJoints>);
  STATIC_REQUIRE(Pad::N == 2);
  STATIC_REQUIRE_FALSE(praxis::has_remote_of<Full>());
  STATIC_REQUIRE(praxis::has_remote_of<Pad>());
  STATIC_REQUIRE(praxis::safe_state_of<Pad>() == praxis::SafeState::hand_back);
  STATIC_REQUIRE(praxis::joint_modes_of<Pad>().bits == Full::joint_modes.bits);
  STATIC_REQUIRE(praxis::capabilities_of<Pad>().modes);
  STATIC_REQUIRE(praxis::capabilities_of<Pad>().locomotion);
  STATIC_REQUIRE_FALSE(praxis::capabilities_of<Pad>().get_up);
  STATIC_REQUIRE(praxis::capabilities_of<Pad>().head);
  STATIC_REQUIRE_FALSE(praxis::capabilities_of<Pad>().kick);
  STATIC_REQUIRE(praxis::capabilities_of<Pad>().leds);

  using Plain = praxis::control::WithGamepad<Minimal>;
  STATIC_REQUIRE(praxis::Backend<Plain>);
  STATIC_REQUIRE(praxis::has_remote_of<Plain>());
  STATIC_REQUIRE(praxis::safe_state_of<Plain>() == praxis::SafeState::joint_damping);
  STATIC_REQUIRE(praxis::joint_modes_of<Plain>().bits == praxis::k_basic_joint_modes.bits);
  STATIC_REQUIRE_FALSE(praxis::capabilities_of<Plain>().modes);
}

TEST_CASE("with gamepad: the optional capabilities exist exactly when the backend has them",
          "[control][with_gamepad]") {
  using Pad = praxis::control::WithGamepad<Full>;
  STATIC_REQUIRE(praxis::PostsRequests<Pad>);
  STATIC_REQUIRE(praxis::HasModes<Pad>);
  STATIC_REQUIRE(praxis::HasLocomotion<Pad>);
  STATIC_REQUIRE(praxis::ReportsStatus<Pad>);
  STATIC_REQUIRE(praxis::HasLifecycle<Pad>);
  STATIC_REQUIRE(praxis::WakesOnState<Pad>);
  STATIC_REQUIRE(HasStandPose<Pad>);
  STATIC_REQUIRE(HasEntryHold<Pad>);
  STATIC_REQUIRE(HasControlLoss<Pad>);

  using Plain = praxis::control::WithGamepad<Minimal>;
  STATIC_REQUIRE_FALSE(HasPost<Plain>);
  STATIC_REQUIRE_FALSE(praxis::PostsRequests<Plain>);
  STATIC_REQUIRE_FALSE(praxis::ReportsStatus<Plain>);
  STATIC_REQUIRE_FALSE(praxis::HasLifecycle<Plain>);
  STATIC_REQUIRE_FALSE(praxis::WakesOnState<Plain>);
  STATIC_REQUIRE_FALSE(HasStandPose<Plain>);
  STATIC_REQUIRE_FALSE(HasEntryHold<Plain>);
  STATIC_REQUIRE_FALSE(HasControlLoss<Plain>);
}

TEST_CASE("with gamepad: before any set_gamepad a state carries the released gamepad and not the backend's",
          "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  State s;
  const TimePoint now = TimePoint{} + 5s;
  REQUIRE(pad.read(s, now));
  CHECK(s.gamepad == GamepadState{});
  CHECK(s.q[0] == 0.25);  // the rest is the backend's
  CHECK(backend.read_at == now);
  CHECK(backend.reads == 1);
}

TEST_CASE("with gamepad: a read carries the newest pad set and keeps carrying it", "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  State s;
  pad.set_gamepad(pad_with(praxis::button_bit(GamepadButton::R2), 0.5f));
  REQUIRE(pad.read(s, TimePoint{}));
  CHECK(s.gamepad.pressed(GamepadButton::R2));
  CHECK(s.gamepad.lx == 0.5f);

  // Several sets between two reads: the newest one wins.
  pad.set_gamepad(pad_with(praxis::button_bit(GamepadButton::A), 0.1f));
  pad.set_gamepad(pad_with(praxis::button_bit(GamepadButton::B), -0.3f));
  REQUIRE(pad.read(s, TimePoint{} + 2ms));
  CHECK(s.gamepad == pad_with(praxis::button_bit(GamepadButton::B), -0.3f));

  // No new set: later states still carry the last pad (a held button stays held).
  for (int k = 0; k < 3; ++k) {
    State fresh;
    REQUIRE(pad.read(fresh, TimePoint{} + 4ms));
    CHECK(fresh.gamepad == pad_with(praxis::button_bit(GamepadButton::B), -0.3f));
  }
}

TEST_CASE("with gamepad: a read the backend reports as not new returns false and a pad set meanwhile comes later",
          "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  State s;
  backend.fresh = false;
  pad.set_gamepad(pad_with(praxis::button_bit(GamepadButton::X), 0.0f));
  CHECK_FALSE(pad.read(s, TimePoint{}));
  CHECK(backend.reads == 1);
  backend.fresh = true;
  REQUIRE(pad.read(s, TimePoint{} + 2ms));
  CHECK(s.gamepad == pad_with(praxis::button_bit(GamepadButton::X), 0.0f));
}

TEST_CASE("with gamepad: write and every optional call go to the backend with their arguments and results",
          "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  CHECK(&pad.backend() == &backend);

  Command c;
  c.q[0] = 0.4;
  c.kp[1] = 33.0;
  const TimePoint at = TimePoint{} + 123ms;
  pad.write(c, at);
  CHECK(backend.writes == 1);
  CHECK(backend.written.q[0] == 0.4);
  CHECK(backend.written.kp[1] == 33.0);
  CHECK(backend.written_at == at);

  praxis::RobotRequests r;
  r.any = true;
  r.mode = praxis::RobotMode::locomotion;
  r.get_up = 3;
  pad.post(r);
  CHECK(backend.posts == 1);
  CHECK(backend.posted.any);
  CHECK(backend.posted.mode == praxis::RobotMode::locomotion);
  CHECK(backend.posted.get_up == 3);

  praxis::RobotStatus st;
  CHECK(pad.read_status(st));
  CHECK(st.sequence == 77);
  CHECK(st.reported_mode == praxis::RobotMode::user);
  backend.status_fresh = false;
  CHECK_FALSE(pad.read_status(st));

  const auto acquired = pad.acquire(1500ms);
  CHECK(backend.acquire_timeout == 1500ms);
  CHECK_FALSE(acquired.ok);
  CHECK(acquired.stage == praxis::LifecycleStage::failed);
  CHECK(acquired.message == "UserCmd refused");
  const auto released = pad.release(2500ms);
  CHECK(backend.release_timeout == 2500ms);
  CHECK(released.ok);
  CHECK(released.stage == praxis::LifecycleStage::released);
  CHECK(released.message == "PdStand");

  praxis::Wakeup wakeup;
  pad.set_wakeup(&wakeup);
  CHECK(backend.wakeup == &wakeup);

  CHECK(pad.stand_pose() == std::array<double, 2>{0.3, 0.9});
  State s;
  s.q[1] = 1.25;
  CHECK(pad.entry_hold(s) == 2.5);
  CHECK(pad.control_loss() == "link lost at 12.5 s");
  // None of them reads a state or writes a command.
  CHECK(backend.reads == 0);
  CHECK(backend.writes == 1);
}

TEST_CASE("with gamepad: a minimal backend's read result comes through", "[control][with_gamepad]") {
  Minimal backend;
  praxis::control::WithGamepad pad(backend);
  State s;
  pad.set_gamepad(pad_with(1, 0.2f));
  CHECK(pad.read(s, TimePoint{}));
  CHECK(s.gamepad == pad_with(1, 0.2f));
  backend.fresh = false;
  CHECK_FALSE(pad.read(s, TimePoint{}));
}

TEST_CASE("with gamepad: set_gamepad and read do not allocate", "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  State s;
  pad.set_gamepad(pad_with(1, 0.0f));  // first use outside the measured scope
  (void)pad.read(s, TimePoint{});
  const praxis::test::AllocationScope scope;
  for (int k = 0; k < 100; ++k) {
    pad.set_gamepad(pad_with(static_cast<std::uint16_t>(k), 0.0f));
    (void)pad.read(s, TimePoint{} + k * 2ms);
  }
  CHECK(scope.allocations() == 0);
  CHECK(s.gamepad.buttons == 99);
}

TEST_CASE("with gamepad: across threads reads see whole pads in the order they were set",
          "[control][with_gamepad][threads]") {
  Full backend;
  praxis::control::WithGamepad pad(backend);
  constexpr std::uint16_t k_last = 20000;
  std::atomic<bool> done{false};
  // Each pad is stamped twice (buttons and lx): a copy mixing two sets shows as a disagreement.
  std::thread setter([&] {
    for (std::uint16_t k = 1; k <= k_last; ++k) pad.set_gamepad(pad_with(k, static_cast<float>(k)));
    done.store(true, std::memory_order_release);
  });
  std::uint16_t seen = 0;
  int reads = 0, torn = 0, backwards = 0;
  for (;;) {
    const bool finished = done.load(std::memory_order_acquire);
    State s;
    REQUIRE(pad.read(s, TimePoint{}));
    ++reads;
    if (static_cast<float>(s.gamepad.buttons) != s.gamepad.lx) ++torn;
    if (s.gamepad.buttons < seen) ++backwards;
    seen = s.gamepad.buttons;
    if (finished) break;  // this read began after the last set
  }
  setter.join();
  CHECK(torn == 0);
  CHECK(backwards == 0);
  CHECK(seen == k_last);  // the read after the last set carries the last pad
  CHECK(reads >= 1);
}


// ---- WithScriptedGamepad: the gamepad from a script, counted from the first read ----

TEST_CASE("with scripted gamepad: buttons and sticks play from the first read, in place of the backend's pad",
          "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithScriptedGamepad pad(backend, "R2:1-3,A:4,LY=0.5@2-5,RX=-0.25@4.5");
  static_assert(decltype(pad)::has_remote);
  const TimePoint t0 = TimePoint{} + 100s;  // control taken late: the script waits for it
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  State s;
  REQUIRE(pad.read(s, t0));
  CHECK(s.gamepad == GamepadState{});
  CHECK(backend.read_at == t0);
  REQUIRE(pad.read(s, at(1.5)));
  CHECK(s.gamepad.pressed(GamepadButton::R2));
  CHECK(s.gamepad.ly == 0.0f);
  REQUIRE(pad.read(s, at(2.5)));
  CHECK(s.gamepad.pressed(GamepadButton::R2));
  CHECK(s.gamepad.ly == 0.5f);
  REQUIRE(pad.read(s, at(4.05)));
  CHECK(s.gamepad.buttons == praxis::button_bit(GamepadButton::A));
  CHECK(s.gamepad.ly == 0.5f);
  CHECK(s.gamepad.rx == 0.0f);
  REQUIRE(pad.read(s, at(6)));
  CHECK(s.gamepad.buttons == 0);
  CHECK(s.gamepad.ly == 0.0f);
  CHECK(s.gamepad.rx == -0.25f);
  CHECK(s.q[0] == 0.25);  // the rest is the backend's
}

TEST_CASE("with scripted gamepad: stand_then_ctrl holds R2 from 0.1 to 0.4 of the run and taps A at half of it",
          "[control][with_gamepad]") {
  Full backend;
  praxis::control::WithScriptedGamepad pad(backend, praxis::control::stand_then_ctrl(10.0));
  const TimePoint t0 = TimePoint{} + 5s;
  const auto at = [&](double s) { return t0 + praxis::from_seconds(s); };
  State s;
  REQUIRE(pad.read(s, t0));
  CHECK(s.gamepad.buttons == 0);
  REQUIRE(pad.read(s, at(0.95)));
  CHECK(s.gamepad.buttons == 0);
  REQUIRE(pad.read(s, at(1.05)));
  CHECK(s.gamepad.buttons == praxis::button_bit(GamepadButton::R2));
  REQUIRE(pad.read(s, at(3.95)));
  CHECK(s.gamepad.buttons == praxis::button_bit(GamepadButton::R2));
  REQUIRE(pad.read(s, at(4.05)));
  CHECK(s.gamepad.buttons == 0);
  REQUIRE(pad.read(s, at(5.02)));
  CHECK(s.gamepad.buttons == praxis::button_bit(GamepadButton::A));
  REQUIRE(pad.read(s, at(5.2)));
  CHECK(s.gamepad.buttons == 0);
  CHECK(praxis::control::stand_then_ctrl(3.0) == "R2:0.30-1.20,A:1.50");
}

TEST_CASE("with scripted gamepad: a bad script is refused naming the option and the item, and reads do not allocate",
          "[control][with_gamepad]") {
  Full backend;
  CHECK_THROWS_WITH(praxis::control::WithScriptedGamepad(backend, "R2:1-3,LY=1.5@2", "operator script"),
                    "operator script: \"LY=1.5@2\": the value \"1.5\" is not a number from -1 to 1");
  praxis::control::WithScriptedGamepad pad(backend, "R2:0.01-0.1,LX=1@0.05");
  State s;
  (void)pad.read(s, TimePoint{});
  const praxis::test::AllocationScope scope;
  for (int k = 1; k <= 100; ++k) (void)pad.read(s, TimePoint{} + k * 2ms);
  CHECK(scope.allocations() == 0);
  CHECK(s.gamepad.lx == 1.0f);
  CHECK(s.gamepad.buttons == 0);
}

}  // namespace with_gamepad_test
