// The controller's side of praxis-guard (control/guard.hpp), without a robot: where the program is
// looked for, a guard that cannot start or cannot get ready is an error naming the program and the
// option (and leaves nothing behind), the default silence, and a backend that names itself to the
// guard. The guard's whole story against fake robots is in tests/support/guard_test.sh.

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

#include "praxis/control/guard.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/go2.hpp"

namespace guard_test {

using namespace std::chrono_literals;
namespace c = praxis::control;

// The mock runs in this process: nothing to guard.
static_assert(!c::Guardable<praxis::mock::MockRobot<praxis::unitree::Go2>>);

struct NamesItself {
  static constexpr std::string_view guard_backend = "unitree";
  [[nodiscard]] std::string guard_options() const { return "{}"; }
};
static_assert(c::Guardable<NamesItself>);

TEST_CASE("praxis-guard: the program is the option's, else $PRAXIS_GUARD, else found beside or installed",
          "[control][guard]") {
  c::GuardOptions o;
  o.executable = "/opt/robot/bin/praxis-guard";
  CHECK(c::GuardProcess::executable(o) == "/opt/robot/bin/praxis-guard");
  o.executable.clear();
  ::setenv("PRAXIS_GUARD", "/somewhere/praxis-guard", 1);
  CHECK(c::GuardProcess::executable(o) == "/somewhere/praxis-guard");
  ::unsetenv("PRAXIS_GUARD");
  CHECK_THAT(c::GuardProcess::executable(o), Catch::EndsWith("praxis-guard"));
}

TEST_CASE("praxis-guard: one that cannot start, or ends before it is ready, is an error naming it and the option",
          "[control][guard]") {
  c::GuardProcess guard;
  c::GuardOptions o;
  o.start_timeout = 5s;
  SECTION("no such program") {
    o.executable = "/nonexistent/praxis-guard";
    const auto why = guard.start(o, "unitree", "go2", "{}", 12, 500ms, 3.0);
    CHECK_THAT(why, Catch::Contains("could not start /nonexistent/praxis-guard"));
    CHECK_THAT(why, Catch::Contains("guard.enabled = false"));
  }
  SECTION("a program that is not the guard (it ends at once)") {
    o.executable = "/bin/true";
    const auto why = guard.start(o, "unitree", "go2", "{}", 12, 500ms, 3.0);
    CHECK_THAT(why, Catch::Contains("/bin/true ended before it was ready (exit status 0)"));
  }
  SECTION("a program that never gets ready") {
    o.executable = "/bin/sleep";  // sleep --backend ... fails its arguments: ends with status 1
    o.start_timeout = 2s;
    const auto why = guard.start(o, "unitree", "go2", "{}", 12, 500ms, 3.0);
    CHECK_THAT(why, Catch::Contains("/bin/sleep ended before it was ready"));
  }
  SECTION("more joints than the shared memory holds") {
    CHECK_THAT(guard.start(o, "unitree", "go2", "{}", 65, 500ms, 3.0), Catch::Contains("at most 64 joints"));
  }
  CHECK_FALSE(guard.running());
  CHECK_FALSE(guard.taken());
  CHECK(guard.finish(100ms).empty());
}

#ifdef PRAXIS_GUARD_EXECUTABLE
TEST_CASE("praxis-guard: the real one, given a backend it does not know, fails its start and says why",
          "[control][guard]") {
  c::GuardProcess guard;
  c::GuardOptions o;
  o.executable = PRAXIS_GUARD_EXECUTABLE;
  const auto why = guard.start(o, "no-such-vendor", "go2", "{}", 12, 500ms, 3.0);
  CHECK_THAT(why, Catch::Contains("no backend \"no-such-vendor\""));
  CHECK_FALSE(guard.running());
}
#endif

TEST_CASE("praxis-guard: the default silence is 4 stall timeouts, at least 500 ms", "[control][guard]") {
  CHECK(c::GuardProcess::default_silence(50ms) == 500ms);
  CHECK(c::GuardProcess::default_silence(100ms) == 500ms);
  CHECK(c::GuardProcess::default_silence(300ms) == 1200ms);
}

}  // namespace guard_test
