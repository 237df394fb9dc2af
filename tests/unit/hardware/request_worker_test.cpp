// RequestWorker: the I/O thread of a backend whose robot has a controller of its own. Driven by
// serve_once(): the vendor part is served the newest posted requests (the same ones again while
// nothing new is posted) with the caller's time and the status it keeps; each serve publishes that
// status with a sequence one higher, and read_status() hands out only the newest, once. A safe mode
// posted from any thread replaces whatever is posted (nothing else asked) until the next start().
// On its thread: serves repeatedly, one serve at a time, stops on stop() and on destruction, a
// second start() is harmless, and a serve that overran is not followed by a burst of serves
// catching up. Across threads only orders and counts are asserted, with generous time-outs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "praxis/hardware/request_worker.hpp"

namespace request_worker_test {

using namespace std::chrono_literals;
using praxis::Clock;
using praxis::RobotMode;
using praxis::RobotRequests;
using praxis::RobotStatus;
using praxis::TimePoint;

namespace {

// A vendor part that records every serve and reports what it was asked in the status it keeps.
class Recorder {
 public:
  struct Call {
    RobotRequests wanted;
    TimePoint now;
    TimePoint ended;
  };

  void serve(const RobotRequests& wanted, RobotStatus& status, TimePoint now) {
    if (inside_.exchange(true)) overlapped_.store(true);
    const auto n = calls_.load() + 1;
    if (n == slow_call_.load()) std::this_thread::sleep_for(slow_for_);
    else if (pause_ > praxis::Duration::zero()) std::this_thread::sleep_for(pause_);
    status.assumed_mode = wanted.mode;
    status.get_ups_completed = wanted.get_up;
    ++status.requests_in_flight;  // the worker hands the same status back each time
    {
      const std::lock_guard lock(mutex_);
      log_.push_back({wanted, now, Clock::now()});
    }
    calls_.store(n);
    inside_.store(false);
  }

  [[nodiscard]] std::size_t calls() const { return calls_.load(); }
  [[nodiscard]] std::vector<Call> log() const {
    const std::lock_guard lock(mutex_);
    return log_;
  }
  [[nodiscard]] bool overlapped() const { return overlapped_.load(); }

  // The n-th call (1-based) sleeps for `d` (a slow RPC); every other one for `pause`.
  void make_slow(std::size_t n, praxis::Duration d) {
    slow_for_ = d;
    slow_call_.store(n);
  }
  praxis::Duration pause_{};

 private:
  mutable std::mutex mutex_;
  std::vector<Call> log_;
  std::atomic<std::size_t> calls_{0};
  std::atomic<bool> inside_{false}, overlapped_{false};
  std::atomic<std::size_t> slow_call_{0};
  praxis::Duration slow_for_{};
};

using Worker = praxis::RequestWorker<Recorder>;

RobotRequests walking(double vx, std::uint32_t get_up) {
  RobotRequests r;
  r.any = true;
  r.mode = RobotMode::locomotion;
  r.locomotion = {true, vx, 0.1, -0.2};
  r.head = {true, 0.3, 0.1};
  r.get_up = get_up;
  r.leds = {true, 10, 20, 30};
  return r;
}

// True once f() is, within `timeout` (generous: a loaded machine, sanitizers).
template <class F>
bool eventually(F&& f, praxis::Duration timeout = 20s) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return f();
}

// Whether r is the safe-mode request for `mode`: asked for, that mode, nothing else.
bool safe_request(const RobotRequests& r, RobotMode mode) {
  const RobotRequests none{};
  return r.any && r.mode == mode && !r.locomotion.active && r.locomotion.vx == 0.0 && r.locomotion.vy == 0.0 &&
         r.locomotion.wz == 0.0 && !r.head.active && r.get_up == none.get_up && r.leds == none.leds;
}

}  // namespace

TEST_CASE("request worker: before any post the vendor is served the empty request", "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 10ms);
  CHECK(worker.period() == 10ms);
  RobotStatus status;
  CHECK_FALSE(worker.read_status(status));  // nothing served yet

  const TimePoint t = TimePoint{} + 5s;
  worker.serve_once(t);
  REQUIRE(vendor.calls() == 1);
  const auto call = vendor.log().at(0);
  CHECK_FALSE(call.wanted.any);  // the behaviour sent nothing yet: the vendor sends nothing
  CHECK(call.wanted.mode == RobotMode::unknown);
  CHECK(call.now == t);  // the caller's time, not the clock's
  REQUIRE(worker.read_status(status));
  CHECK(status.sequence == 1);
  CHECK(status.requests_in_flight == 1);
}

TEST_CASE("request worker: the vendor is served the newest post and the same one again until the next",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 10ms);
  const TimePoint t = TimePoint{} + 1s;
  worker.post(walking(0.1, 1));
  worker.post(walking(0.2, 2));  // only the newest counts
  worker.serve_once(t);
  worker.serve_once(t + 10ms);  // nothing new posted: the same requests (they are level-triggered)
  worker.post(walking(0.3, 3));
  worker.serve_once(t + 20ms);
  const auto log = vendor.log();
  REQUIRE(log.size() == 3);
  CHECK(log[0].wanted.locomotion.vx == 0.2);
  CHECK(log[0].wanted.get_up == 2);
  CHECK(log[0].wanted.leds == praxis::LedRequest{true, 10, 20, 30});
  CHECK(log[1].wanted.locomotion.vx == 0.2);
  CHECK(log[1].wanted.get_up == 2);
  CHECK(log[1].now == t + 10ms);
  CHECK(log[2].wanted.locomotion.vx == 0.3);
  CHECK(log[2].wanted.get_up == 3);
  CHECK(log[2].wanted.mode == RobotMode::locomotion);
}

TEST_CASE("request worker: each serve publishes the vendor's status one sequence higher and read_status gives the newest once",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 10ms);
  RobotStatus status;
  worker.post(walking(0.0, 7));
  worker.serve_once(TimePoint{});
  REQUIRE(worker.read_status(status));
  CHECK(status.sequence == 1);
  CHECK(status.get_ups_completed == 7);
  CHECK(status.assumed_mode == RobotMode::locomotion);
  CHECK_FALSE(worker.read_status(status));  // nothing new
  CHECK(status.sequence == 1);              // and `out` untouched

  worker.serve_once(TimePoint{});
  worker.post(walking(0.0, 8));
  worker.serve_once(TimePoint{});
  worker.serve_once(TimePoint{});
  REQUIRE(worker.read_status(status));
  CHECK(status.sequence == 4);           // the newest of the three, none queued
  CHECK(status.requests_in_flight == 4);  // one status kept by the vendor across serves
  CHECK(status.get_ups_completed == 8);
  CHECK_FALSE(worker.read_status(status));
}

TEST_CASE("request worker: a safe mode replaces whatever is posted and asks for nothing else",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 10ms);
  worker.post(walking(0.4, 5));
  worker.serve_once(TimePoint{});
  worker.post_safe_mode(RobotMode::damping);
  worker.serve_once(TimePoint{});
  worker.post(walking(0.5, 6));  // the control thread keeps posting: ignored
  worker.serve_once(TimePoint{});
  worker.post_safe_mode(RobotMode::prepare);  // a later safe mode replaces the earlier
  worker.serve_once(TimePoint{});
  worker.serve_once(TimePoint{});

  const auto log = vendor.log();
  REQUIRE(log.size() == 5);
  CHECK(log[0].wanted.locomotion.vx == 0.4);
  CHECK(safe_request(log[1].wanted, RobotMode::damping));
  CHECK(safe_request(log[2].wanted, RobotMode::damping));
  CHECK(safe_request(log[3].wanted, RobotMode::prepare));
  CHECK(safe_request(log[4].wanted, RobotMode::prepare));
  // Even the first mode of the enum (value 0) is a safe mode, not "none".
  worker.post_safe_mode(RobotMode::unknown);
  worker.serve_once(TimePoint{});
  CHECK(safe_request(vendor.log().back().wanted, RobotMode::unknown));
  STATIC_REQUIRE(noexcept(worker.post_safe_mode(RobotMode::damping)));
}

TEST_CASE("request worker: once the silenced flag is set (praxis-guard took the robot) nothing more is served, on "
          "its thread too", "[hardware][request_worker][guard]") {
  Recorder vendor;
  Worker worker(vendor, 5ms);
  std::atomic<std::uint8_t> silenced{0};
  worker.set_silenced_flag(&silenced);
  worker.post(walking(0.4, 1));
  worker.serve_once(TimePoint{});
  REQUIRE(vendor.calls() == 1);  // not set: served
  silenced.store(1);
  worker.post(walking(0.5, 2));
  worker.serve_once(TimePoint{});
  worker.post_safe_mode(RobotMode::damping);  // not even the safe mode: the guard asks it
  worker.serve_once(TimePoint{});
  CHECK(vendor.calls() == 1);
  RobotStatus status;
  CHECK(worker.read_status(status));  // the one serve's status, and no newer one
  CHECK_FALSE(worker.read_status(status));
  worker.start();
  std::this_thread::sleep_for(100ms);  // some 20 periods
  worker.stop();
  CHECK(vendor.calls() == 1);
  worker.set_silenced_flag(nullptr);  // no flag: served again
  worker.serve_once(TimePoint{});
  CHECK(vendor.calls() == 2);
  STATIC_REQUIRE(noexcept(worker.set_silenced_flag(nullptr)));
}

TEST_CASE("request worker: the thread serves repeatedly until stop and publishes every serve",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 2ms);
  worker.post(walking(0.1, 1));
  worker.start();
  worker.start();  // a second start while running is harmless (no second thread)
  REQUIRE(eventually([&] { return vendor.calls() >= 5; }));
  RobotStatus status;
  REQUIRE(eventually([&] { return worker.read_status(status) && status.sequence >= 5; }));
  CHECK(status.get_ups_completed == 1);
  worker.stop();
  const auto after_stop = vendor.calls();
  std::this_thread::sleep_for(30ms);
  CHECK(vendor.calls() == after_stop);
  CHECK_FALSE(vendor.overlapped());  // one serve at a time
  // Every serve was published: the last status read after the stop carries the count.
  worker.read_status(status);
  CHECK(status.sequence == after_stop);
  // The times handed to the vendor never go backwards.
  const auto log = vendor.log();
  CHECK(std::is_sorted(log.begin(), log.end(), [](const auto& a, const auto& b) { return a.now < b.now; }));
  worker.stop();  // stopping twice is harmless
}

TEST_CASE("request worker: a new post reaches the serving thread and a newer one is never followed by an older",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 1ms);
  worker.start();
  constexpr std::uint32_t k_last = 300;
  for (std::uint32_t i = 1; i <= k_last; ++i) {
    worker.post(walking(0.0, i));
    if (i % 30 == 0) std::this_thread::sleep_for(1ms);
  }
  REQUIRE(eventually([&] {
    const auto log = vendor.log();
    return !log.empty() && log.back().wanted.get_up == k_last;
  }));
  worker.stop();
  const auto log = vendor.log();
  for (std::size_t k = 1; k < log.size(); ++k) {
    INFO("serve " << k);
    CHECK(log[k].wanted.get_up >= log[k - 1].wanted.get_up);
  }
}

TEST_CASE("request worker: a safe mode posted from another thread holds until the next start",
          "[hardware][request_worker]") {
  Recorder vendor;
  Worker worker(vendor, 1ms);
  worker.post(walking(0.2, 1));
  worker.start();
  REQUIRE(eventually([&] { return vendor.calls() >= 2; }));
  std::thread send_thread([&] { worker.post_safe_mode(RobotMode::damping); });
  send_thread.join();
  const auto posted_at = vendor.calls();
  for (std::uint32_t i = 2; i < 50; ++i) worker.post(walking(0.2, i));
  REQUIRE(eventually([&] { return vendor.calls() >= posted_at + 10; }));
  worker.stop();

  // Once a serve saw the safe mode, every later one did, whatever was posted.
  const auto log = vendor.log();
  const auto first_safe = std::find_if(log.begin(), log.end(),
                                       [](const auto& c) { return safe_request(c.wanted, RobotMode::damping); });
  REQUIRE(first_safe != log.end());
  CHECK(std::all_of(first_safe, log.end(), [](const auto& c) { return safe_request(c.wanted, RobotMode::damping); }));
  CHECK(std::distance(log.begin(), first_safe) >= 2);  // the serves before it had the posted requests
  CHECK(log.front().wanted.locomotion.vx == 0.2);

  // start() again clears it: what is posted is served again.
  worker.start();
  worker.post(walking(0.9, 77));
  REQUIRE(eventually([&] { return vendor.log().back().wanted.get_up == 77; }));
  worker.stop();
  CHECK(vendor.log().back().wanted.locomotion.vx == 0.9);
}

TEST_CASE("request worker: destroying a running worker stops its thread", "[hardware][request_worker]") {
  Recorder vendor;
  {
    Worker worker(vendor, 1ms);
    worker.start();
    REQUIRE(eventually([&] { return vendor.calls() >= 3; }));
  }
  const auto after = vendor.calls();
  std::this_thread::sleep_for(30ms);
  CHECK(vendor.calls() == after);
}

TEST_CASE("request worker: a serve that overran is not followed by a burst of serves catching up",
          "[hardware][request_worker]") {
  // Period 20 ms; the second serve takes 400 ms. Catching up would serve about 20 times back to back
  // right after it. Without catch-up the k-th serve after the slow one starts no earlier than
  // (k - 1) periods after it ended, because a sleep never ends before its deadline: at most 6
  // serves can start within 100 ms of its end, however late the machine runs them.
  Recorder vendor;
  vendor.make_slow(2, 400ms);
  Worker worker(vendor, 20ms);
  worker.start();
  REQUIRE(eventually([&] { return vendor.calls() >= 12; }));
  worker.stop();
  const auto log = vendor.log();
  REQUIRE(log.size() >= 12);
  const TimePoint slow_end = log[1].ended;
  REQUIRE(log[1].ended - log[1].now >= 400ms);
  const auto soon = std::count_if(log.begin() + 2, log.end(),
                                  [&](const auto& c) { return c.now >= slow_end && c.now < slow_end + 100ms; });
  INFO(soon << " serves started within 100 ms of the slow one's end");
  CHECK(soon <= 6);
  CHECK_FALSE(vendor.overlapped());
}

}  // namespace request_worker_test
