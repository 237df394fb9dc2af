// Unit tests for include/praxis/hardware/tienkung/velocity_stops.hpp: when a Tienkung joint that left
// velocity mode counts as stopped. The motor keeps turning until it receives speed 0 (fact sheet
// /work/shared/vendors/aurora-and-tienkung.md, B.3: cmd_vel "keeps turning until spd 0 received"), so
// speed 0 goes out on every write until statuses received after a speed 0 that left while the motor
// read online show it still for confirm_time. Simulated times only; the rule is the backend's default
// (0.05 rad/s, 20 ms, statuses older than 50 ms are no evidence).

#include <catch2/catch.hpp>

#include <chrono>
#include <cstddef>

#include "praxis/hardware/tienkung/velocity_stops.hpp"

namespace tienkung_velocity_stops_test {

using namespace std::chrono_literals;
namespace tk = praxis::tienkung;

const praxis::TimePoint t0 = praxis::TimePoint{} + 100s;

// One write for joint 0 out of velocity mode: whether it sends, and the speed it sends.
struct Write {
  bool sends;
  float speed;
};
Write leave(tk::VelocityStops<4>& stops, praxis::TimePoint at) {
  float speed = -1.0f;
  const bool sends = stops.next(0, false, 0.7f, at, speed);
  return {sends, speed};
}

// Joint 0 in velocity mode at t0.
void walk(tk::VelocityStops<4>& stops) {
  float speed = 0.0f;
  REQUIRE(stops.next(0, true, 0.5f, t0, speed));
  CHECK(speed == 0.5f);
}

TEST_CASE("tienkung velocity stops: a joint never in velocity mode gets nothing - one in it gets its speed",
          "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  float speed = 9.0f;
  CHECK_FALSE(stops.next(1, false, 0.3f, t0, speed));
  CHECK(speed == 9.0f);  // untouched
  CHECK(stops.phase(1) == tk::SpeedPhase::idle);
  CHECK(stops.not_stopped() == 0);

  CHECK(stops.next(1, true, -0.3f, t0, speed));
  CHECK(speed == -0.3f);
  CHECK(stops.next(2, true, 0.0f, t0, speed));  // a target of 0 is a velocity command like another
  CHECK(speed == 0.0f);
  CHECK(stops.phase(1) == tk::SpeedPhase::velocity);
  CHECK(stops.not_stopped() == 2);
  CHECK(stops.stopping() == 0);
  CHECK(stops.zeros_sent() == 0);
  CHECK(stops.rule().stopped_speed == 0.05f);
  CHECK(stops.rule().confirm_time == 20ms);
}

TEST_CASE("tienkung velocity stops: speed 0 every write until still statuses after a delivered zero span "
          "confirm_time", "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  walk(stops);
  stops.observe(0, 0.5f, 0, t0 + 1ms);  // turning, online
  auto w = leave(stops, t0 + 2ms);      // this zero leaves while the motor reads online: delivered
  CHECK(w.sends);
  CHECK(w.speed == 0.0f);
  CHECK(stops.phase(0) == tk::SpeedPhase::stopping);
  CHECK(stops.stopping() == 1);

  stops.observe(0, 0.0f, 0, t0 + 3ms);  // the first still reading after it
  CHECK(leave(stops, t0 + 4ms).sends);
  stops.observe(0, 0.04f, 0, t0 + 22ms);  // below stopped_speed: still; 19 ms
  CHECK(leave(stops, t0 + 22500us).sends);
  stops.observe(0, -0.01f, 0, t0 + 23ms);  // 20 ms of stillness: stopped
  w = leave(stops, t0 + 24ms);
  CHECK_FALSE(w.sends);
  CHECK(stops.phase(0) == tk::SpeedPhase::idle);
  CHECK(stops.stops_confirmed() == 1);
  CHECK(stops.zeros_sent() == 3);
  CHECK(stops.not_stopped() == 0);
  CHECK_FALSE(leave(stops, t0 + 30ms).sends);  // and nothing more
  CHECK(stops.zeros_sent() == 3);
}

TEST_CASE("tienkung velocity stops: a reading that moves restarts the window", "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  walk(stops);
  stops.observe(0, 0.5f, 0, t0 + 1ms);
  REQUIRE(leave(stops, t0 + 2ms).sends);
  stops.observe(0, 0.0f, 0, t0 + 3ms);
  REQUIRE(leave(stops, t0 + 3500us).sends);
  stops.observe(0, 0.2f, 0, t0 + 10ms);  // picked up speed again
  REQUIRE(leave(stops, t0 + 10500us).sends);
  stops.observe(0, 0.0f, 0, t0 + 12ms);
  REQUIRE(leave(stops, t0 + 12500us).sends);
  stops.observe(0, 0.0f, 0, t0 + 23ms);  // 20 ms after the first still reading, 11 ms after the last move
  CHECK(leave(stops, t0 + 23500us).sends);
  stops.observe(0, 0.0f, 0, t0 + 32ms);  // 20 ms since the window restarted at 12 ms
  CHECK_FALSE(leave(stops, t0 + 32500us).sends);
  CHECK(stops.stops_confirmed() == 1);
}

TEST_CASE("tienkung velocity stops: an offline or faulted motor disarms the zero - readings before re-arming do not "
          "count", "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  walk(stops);
  stops.observe(0, 0.0f, 33072, t0 + 1ms);  // B.5: 33072 seen on head and waist motors; any error is offline here
  auto w = leave(stops, t0 + 2ms);
  CHECK(w.sends);  // sent all the same: it may arrive
  CHECK(w.speed == 0.0f);
  stops.observe(0, 0.0f, 0, t0 + 3ms);  // back online, still: but no zero left while it read online yet
  REQUIRE(leave(stops, t0 + 4ms).sends);  // this one did
  stops.observe(0, 0.0f, 0, t0 + 5ms);
  REQUIRE(leave(stops, t0 + 5500us).sends);
  stops.observe(0, 0.0f, 0, t0 + 23ms);  // 20 ms after the 3 ms reading, 18 ms after the first that counts
  CHECK(leave(stops, t0 + 23500us).sends);
  stops.observe(0, 0.0f, 0, t0 + 25ms);
  CHECK_FALSE(leave(stops, t0 + 25500us).sends);

  // A fault in the middle of the window starts it all over.
  float speed = 0;
  REQUIRE(stops.next(0, true, 0.5f, t0 + 30ms, speed));
  stops.observe(0, 0.0f, 0, t0 + 31ms);
  REQUIRE(leave(stops, t0 + 32ms).sends);  // armed
  stops.observe(0, 0.0f, 0, t0 + 33ms);
  REQUIRE(leave(stops, t0 + 34ms).sends);
  stops.observe(0, 0.0f, 7, t0 + 40ms);  // an error code
  REQUIRE(leave(stops, t0 + 41ms).sends);
  stops.observe(0, 0.0f, 0, t0 + 53ms);  // 20 ms after 33 ms: would confirm had the fault not disarmed
  CHECK(leave(stops, t0 + 54ms).sends);
  CHECK(stops.phase(0) == tk::SpeedPhase::stopping);
  CHECK(stops.stops_confirmed() == 1);
}

TEST_CASE("tienkung velocity stops: a silent limb is no evidence - and no status at all never confirms",
          "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  walk(stops);
  for (int k = 0; k < 50; ++k) CHECK(leave(stops, t0 + std::chrono::milliseconds(k)).sends);
  CHECK(stops.zeros_sent() == 50);
  CHECK(stops.phase(0) == tk::SpeedPhase::stopping);

  // Still readings, then the limb falls silent for longer than status_timeout (50 ms): disarmed.
  stops.observe(0, 0.0f, 0, t0 + 100ms);
  REQUIRE(leave(stops, t0 + 101ms).sends);  // armed at 101 ms
  stops.observe(0, 0.0f, 0, t0 + 102ms);
  REQUIRE(leave(stops, t0 + 103ms).sends);
  CHECK(leave(stops, t0 + 160ms).sends);   // the 102 ms reading is 58 ms old: disarmed
  stops.observe(0, 0.0f, 0, t0 + 161ms);  // 59 ms after 102 ms, but before the zero that re-arms
  CHECK(leave(stops, t0 + 162ms).sends);  // re-armed
  stops.observe(0, 0.0f, 0, t0 + 163ms);
  CHECK(leave(stops, t0 + 164ms).sends);
  stops.observe(0, 0.0f, 0, t0 + 182ms);
  CHECK(leave(stops, t0 + 182500us).sends);  // 19 ms after 163 ms
  stops.observe(0, 0.0f, 0, t0 + 183ms);
  CHECK_FALSE(leave(stops, t0 + 184ms).sends);
}

TEST_CASE("tienkung velocity stops: back to velocity mode cancels the stop - joints are independent",
          "[tienkung][velocity_stops]") {
  tk::VelocityStops<4> stops;
  walk(stops);
  float speed = 0;
  REQUIRE(stops.next(1, true, 0.2f, t0, speed));
  stops.observe(0, 0.0f, 0, t0 + 1ms);
  stops.observe(1, 0.0f, 0, t0 + 1ms);
  REQUIRE(leave(stops, t0 + 2ms).sends);  // joint 0 armed
  stops.observe(0, 0.0f, 0, t0 + 3ms);
  REQUIRE(leave(stops, t0 + 4ms).sends);
  CHECK(stops.phase(1) == tk::SpeedPhase::velocity);  // joint 1 untouched by joint 0's stop
  CHECK(stops.not_stopped() == 2);
  CHECK(stops.stopping() == 1);

  // Commanded again: its speed, and the old evidence forgotten.
  REQUIRE(stops.next(0, true, -0.4f, t0 + 5ms, speed));
  CHECK(speed == -0.4f);
  CHECK(stops.phase(0) == tk::SpeedPhase::velocity);
  stops.observe(0, 0.0f, 0, t0 + 30ms);  // 27 ms after the old first still reading
  CHECK(leave(stops, t0 + 31ms).sends);  // a fresh zero, armed now: not confirmed on the old window
  CHECK(stops.stops_confirmed() == 0);

  // A status for a joint the table does not hold is ignored.
  stops.observe(4, 0.0f, 0, t0 + 32ms);
  stops.observe(99, 0.0f, 0, t0 + 32ms);
  CHECK(stops.not_stopped() == 2);
}

}  // namespace tienkung_velocity_stops_test
