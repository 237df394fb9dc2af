// What a backend offers beyond read() and write(), detected at compile time: the declared
// Capabilities (none when not declared), the concepts for posting requests, overriding them with a
// safe mode, modes and locomotion (declared AND a post()), status reports (exactly bool), the
// lifecycle (acquire and release both, returning LifecycleResult) and state wake-ups; and the
// defaults a backend that declares nothing gets: joint damping, the damping mode, a remote, and the
// basic joint modes. Also the safe states' names and LifecycleResult's defaults.
#include <catch2/catch.hpp>

#include <string_view>

#include "praxis/hardware/capabilities.hpp"

namespace capabilities_test {

using praxis::Capabilities;
using praxis::JointMode;
using praxis::RobotMode;
using praxis::SafeState;

namespace {

// A backend that declares nothing beyond read() and write().
struct Plain {};

// One that posts requests but declares no capabilities.
struct Poster {
  void post(const praxis::RobotRequests&) {}
};

// Modes and walking declared, with a post().
struct Walker {
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true};
  void post(const praxis::RobotRequests&) {}
  void post_safe_mode(RobotMode) noexcept {}
};

// Capabilities declared but no post(): nothing can ask for them.
struct DeclaresOnly {
  static constexpr Capabilities capabilities{.modes = true, .locomotion = true, .get_up = true};
};

// Modes without walking.
struct ModesOnly {
  static constexpr Capabilities capabilities{.modes = true};
  void post(const praxis::RobotRequests&) {}
};

// post_safe_mode without post().
struct OverrideOnly {
  void post_safe_mode(RobotMode) {}
};

struct Reports {
  bool read_status(praxis::RobotStatus&) { return true; }
};
struct ReportsInt {
  int read_status(praxis::RobotStatus&) { return 1; }  // not bool: not a status report
};
struct ReportsConstOnly {
  bool read_status(const praxis::RobotStatus&) const { return true; }  // takes any status: fine
};

struct Lifecycle {
  praxis::LifecycleResult acquire(praxis::Duration) { return {}; }
  praxis::LifecycleResult release(praxis::Duration) { return {}; }
};
struct AcquireOnly {
  praxis::LifecycleResult acquire(praxis::Duration) { return {}; }
};
struct LifecycleBool {
  bool acquire(praxis::Duration) { return true; }
  bool release(praxis::Duration) { return true; }
};

struct Wakes {
  void set_wakeup(praxis::Wakeup*) {}
};

// Everything declared, none of it the default.
struct Declares {
  static constexpr SafeState safe_state = SafeState::hand_back;
  static constexpr RobotMode safe_mode = RobotMode::prepare;
  static constexpr bool has_remote = false;
  static constexpr praxis::JointModeSet joint_modes{JointMode::position, JointMode::torque, JointMode::none};
};

constexpr bool same(const Capabilities& a, const Capabilities& b) {
  return a.modes == b.modes && a.locomotion == b.locomotion && a.get_up == b.get_up && a.head == b.head &&
         a.kick == b.kick && a.leds == b.leds;
}

}  // namespace

TEST_CASE("capabilities: a backend that declares none has none", "[hardware][capabilities]") {
  constexpr Capabilities none = praxis::capabilities_of<Plain>();
  STATIC_REQUIRE_FALSE(none.modes);
  STATIC_REQUIRE_FALSE(none.locomotion);
  STATIC_REQUIRE_FALSE(none.get_up);
  STATIC_REQUIRE_FALSE(none.head);
  STATIC_REQUIRE_FALSE(none.kick);
  STATIC_REQUIRE_FALSE(none.leds);
  STATIC_REQUIRE(same(praxis::capabilities_of<Poster>(), Capabilities{}));
}

TEST_CASE("capabilities: a backend's declared capabilities are what capabilities_of finds", "[hardware][capabilities]") {
  STATIC_REQUIRE(same(praxis::capabilities_of<Walker>(), Walker::capabilities));
  STATIC_REQUIRE(same(praxis::capabilities_of<DeclaresOnly>(), Capabilities{.modes = true, .locomotion = true, .get_up = true}));
  STATIC_REQUIRE(praxis::capabilities_of<ModesOnly>().modes);
  STATIC_REQUIRE_FALSE(praxis::capabilities_of<ModesOnly>().locomotion);
}

TEST_CASE("capabilities: posting requests and overriding them need the member functions", "[hardware][capabilities]") {
  STATIC_REQUIRE_FALSE(praxis::PostsRequests<Plain>);
  STATIC_REQUIRE(praxis::PostsRequests<Poster>);
  STATIC_REQUIRE(praxis::PostsRequests<Walker>);
  STATIC_REQUIRE_FALSE(praxis::PostsRequests<DeclaresOnly>);

  STATIC_REQUIRE(praxis::OverridesRequests<Walker>);
  STATIC_REQUIRE_FALSE(praxis::OverridesRequests<Poster>);        // posts, cannot be overridden
  STATIC_REQUIRE_FALSE(praxis::OverridesRequests<OverrideOnly>);  // an override of nothing it posts
}

TEST_CASE("capabilities: modes and locomotion need the declaration and a post", "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::HasModes<Walker>);
  STATIC_REQUIRE(praxis::HasLocomotion<Walker>);
  STATIC_REQUIRE(praxis::HasModes<ModesOnly>);
  STATIC_REQUIRE_FALSE(praxis::HasLocomotion<ModesOnly>);
  STATIC_REQUIRE_FALSE(praxis::HasModes<DeclaresOnly>);  // declared, but nothing to post with
  STATIC_REQUIRE_FALSE(praxis::HasLocomotion<DeclaresOnly>);
  STATIC_REQUIRE_FALSE(praxis::HasModes<Poster>);  // posts, declares no modes
  STATIC_REQUIRE_FALSE(praxis::HasLocomotion<Poster>);
  STATIC_REQUIRE_FALSE(praxis::HasModes<Plain>);
}

TEST_CASE("capabilities: a status report returns exactly bool", "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::ReportsStatus<Reports>);
  STATIC_REQUIRE(praxis::ReportsStatus<ReportsConstOnly>);
  STATIC_REQUIRE_FALSE(praxis::ReportsStatus<ReportsInt>);
  STATIC_REQUIRE_FALSE(praxis::ReportsStatus<Plain>);
}

TEST_CASE("capabilities: a lifecycle is acquire and release both returning a LifecycleResult",
          "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::HasLifecycle<Lifecycle>);
  STATIC_REQUIRE_FALSE(praxis::HasLifecycle<AcquireOnly>);
  STATIC_REQUIRE_FALSE(praxis::HasLifecycle<LifecycleBool>);
  STATIC_REQUIRE_FALSE(praxis::HasLifecycle<Plain>);

  const praxis::LifecycleResult r;
  CHECK(r.ok);
  CHECK(r.stage == praxis::LifecycleStage::in_control);
  CHECK(r.message.empty());
}

TEST_CASE("capabilities: a state wake-up needs set_wakeup", "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::WakesOnState<Wakes>);
  STATIC_REQUIRE_FALSE(praxis::WakesOnState<Plain>);
  STATIC_REQUIRE_FALSE(praxis::WakesOnState<Walker>);
}

TEST_CASE("capabilities: a backend that declares nothing gets joint damping the damping mode a remote and the basic modes",
          "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::safe_state_of<Plain>() == SafeState::joint_damping);
  STATIC_REQUIRE(praxis::safe_mode_of<Plain>() == RobotMode::damping);
  STATIC_REQUIRE(praxis::has_remote_of<Plain>());
  constexpr auto modes = praxis::joint_modes_of<Plain>();
  STATIC_REQUIRE(modes.bits == praxis::k_basic_joint_modes.bits);
  STATIC_REQUIRE(modes.contains(JointMode::position));
  STATIC_REQUIRE(modes.contains(JointMode::disabled));
  STATIC_REQUIRE_FALSE(modes.contains(JointMode::torque));
}

TEST_CASE("capabilities: what a backend declares overrides each default", "[hardware][capabilities]") {
  STATIC_REQUIRE(praxis::safe_state_of<Declares>() == SafeState::hand_back);
  STATIC_REQUIRE(praxis::safe_mode_of<Declares>() == RobotMode::prepare);
  STATIC_REQUIRE_FALSE(praxis::has_remote_of<Declares>());
  constexpr auto modes = praxis::joint_modes_of<Declares>();
  STATIC_REQUIRE(modes.contains(JointMode::torque));
  STATIC_REQUIRE(modes.contains(JointMode::none));
  STATIC_REQUIRE_FALSE(modes.contains(JointMode::disabled));  // not merged with the basic modes
}

TEST_CASE("capabilities: every safe state has its own name", "[hardware][capabilities]") {
  CHECK(praxis::to_string(SafeState::joint_damping) == "joint damping");
  CHECK(praxis::to_string(SafeState::hand_back) == "hand back");
  CHECK(praxis::to_string(SafeState::mode_request) == "mode request");
  CHECK(praxis::to_string(static_cast<SafeState>(7)) == "?");  // a value outside the enum
  STATIC_REQUIRE(praxis::to_string(SafeState::hand_back) == std::string_view("hand back"));
}

}  // namespace capabilities_test
