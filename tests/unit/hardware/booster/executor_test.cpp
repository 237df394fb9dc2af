// Booster call executor: single flight, deadlines counted from scheduling, coalescing of periodic
// calls, inline (simulated clock) and threaded operation.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "praxis/hardware/booster/executor.hpp"

namespace booster_executor_test {

namespace b = praxis::booster;
using namespace std::chrono_literals;
using praxis::Clock;
using praxis::Duration;
using praxis::TimePoint;

namespace {

b::PlannedAction call(b::Action a, double value = 0.0) {
  b::PlannedAction p;
  p.action = a;
  p.forward = p.yaw = value;
  p.mode = b::Mode::soccer;
  p.kick.x = value;
  return p;
}

// Everything the executor reported, for checks; safe to fill from the executor's thread.
struct Completions {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<b::Completed> done;
  std::vector<std::string> messages;

  auto callback() {
    return [this](const b::Completed& c, const b::PlannedAction&, const b::CallResult& r) {
      {
        const std::lock_guard lock(mutex);
        done.push_back(c);
        messages.push_back(r.message);
      }
      changed.notify_all();
    };
  }
  bool wait_for(std::size_t n, Duration limit = 5s) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, limit, [&] { return done.size() >= n; });
  }
  std::vector<b::Completed> snapshot() {
    const std::lock_guard lock(mutex);
    return done;
  }
};

struct Performed {
  b::Action action;
  double value;
  Duration timeout;
};

}  // namespace

TEST_CASE("booster executor: inline mode performs waiting calls in order on the caller's thread, deterministically") {
  std::vector<Performed> performed;
  const auto perform = [&performed](const b::PlannedAction& a, Duration timeout) {
    performed.push_back({a.action, a.forward, timeout});
    if (a.action == b::Action::get_up) return b::CallResult{b::Completed::error, b::status::k_conflict, "not in Prepare"};
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 8}, seen.callback());
  const TimePoint t0 = TimePoint{} + 50s;
  CHECK(exec.submit(call(b::Action::change_mode), t0) == 1);
  CHECK(exec.submit(call(b::Action::get_up), t0) == 2);
  CHECK(exec.submit(call(b::Action::move_robot, 0.3), t0 + 10ms) == 3);
  CHECK(performed.empty());  // nothing runs before run_pending
  CHECK(log.total_in_flight() == 3);

  CHECK(exec.run_pending(t0 + 30ms) == 3);
  REQUIRE(performed.size() == 3);
  CHECK(performed[0].action == b::Action::change_mode);
  CHECK(performed[1].action == b::Action::get_up);
  CHECK(performed[2].action == b::Action::move_robot);
  CHECK(performed[2].value == 0.3);
  CHECK(performed[0].timeout == 70ms);  // what is left of the deadline
  CHECK(performed[2].timeout == 80ms);
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 3);
  CHECK(done[0].status == b::Completed::ok);
  CHECK(done[0].elapsed_ms == Approx(30.0));
  CHECK(done[1].status == b::Completed::error);
  CHECK(done[1].code == 409);
  CHECK(seen.messages[1] == "not in Prepare");
  CHECK(done[2].elapsed_ms == Approx(20.0));
  CHECK(log.total_in_flight() == 0);
  CHECK(exec.run_pending(t0 + 40ms) == 0);
}

TEST_CASE("booster executor: a call still waiting at its deadline times out without being performed") {
  std::vector<b::Action> performed;
  const auto perform = [&performed](const b::PlannedAction& a, Duration) {
    performed.push_back(a.action);
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 8}, seen.callback());
  const TimePoint t0 = TimePoint{} + 50s;
  exec.submit(call(b::Action::change_mode), t0);
  exec.submit(call(b::Action::visual_kick), t0 + 50ms);
  exec.run_pending(t0 + 100ms);  // the first one's deadline is exactly now
  CHECK(performed == std::vector<b::Action>{b::Action::visual_kick});
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 2);
  CHECK(done[0].action == b::Action::change_mode);
  CHECK(done[0].status == b::Completed::timeout);
  CHECK(done[0].code == b::status::k_timeout);
  CHECK(done[0].elapsed_ms == Approx(100.0));
  CHECK(done[1].status == b::Completed::ok);
  CHECK(log.in_flight(b::Action::change_mode) == 0);
}

TEST_CASE("booster executor: waiting periodic calls are replaced by newer ones, one-shot calls never") {
  std::vector<Performed> performed;
  const auto perform = [&performed](const b::PlannedAction& a, Duration timeout) {
    performed.push_back({a.action, a.action == b::Action::kick_publish ? a.kick.x : a.forward, timeout});
    return b::CallResult{};
  };
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 8}, seen.callback());
  const TimePoint t0 = TimePoint{} + 50s;
  exec.submit(call(b::Action::move_robot, 0.1), t0);              // 1, replaced by 3, then 3 by 6
  exec.submit(call(b::Action::rotate_head, 0.2), t0);             // 2
  exec.submit(call(b::Action::move_robot, 0.3), t0 + 10ms);       // 3
  exec.submit(call(b::Action::change_mode), t0 + 10ms);           // 4
  exec.submit(call(b::Action::change_mode), t0 + 20ms);           // 5: never replaced
  exec.submit(call(b::Action::move_robot, 0.5), t0 + 20ms);       // 6
  exec.submit(call(b::Action::kick_publish, 1.0), t0 + 20ms);     // 7
  exec.submit(call(b::Action::kick_publish, 2.0), t0 + 30ms);     // 8 replaces 7
  CHECK(exec.waiting() == 5);
  {
    const auto dropped = seen.snapshot();
    REQUIRE(dropped.size() == 3);
    CHECK(dropped[0].sequence == 1);
    CHECK(dropped[1].sequence == 3);
    CHECK(dropped[2].sequence == 7);
    for (const auto& d : dropped) CHECK(d.status == b::Completed::dropped);
    CHECK(log.in_flight(b::Action::move_robot) == 1);
  }
  exec.run_pending(t0 + 40ms);
  REQUIRE(performed.size() == 5);
  // The newest move takes the oldest one's place in the queue.
  CHECK(performed[0].action == b::Action::move_robot);
  CHECK(performed[0].value == 0.5);
  CHECK(performed[0].timeout == 80ms);  // its own deadline, not the replaced call's
  CHECK(performed[1].action == b::Action::rotate_head);
  CHECK(performed[2].action == b::Action::change_mode);
  CHECK(performed[3].action == b::Action::change_mode);
  CHECK(performed[4].action == b::Action::kick_publish);
  CHECK(performed[4].value == 2.0);
  CHECK(seen.messages[0] == "replaced by a newer call");
  CHECK_THAT(lines.at(3), Catch::Contains(R"("sequence":1,"action":"move_robot","status":"dropped")"));
  CHECK(log.total_in_flight() == 0);
}

TEST_CASE("booster executor: a full queue refuses one-shot calls and says so; stop drops what waits") {
  const auto perform = [](const b::PlannedAction&, Duration) { return b::CallResult{}; };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 2}, seen.callback());
  const TimePoint t0 = TimePoint{} + 50s;
  CHECK(exec.submit(call(b::Action::change_mode), t0) == 1);
  CHECK(exec.submit(call(b::Action::set_leds), t0) == 2);
  CHECK(exec.submit(call(b::Action::get_up), t0) == 0);
  auto done = seen.snapshot();
  REQUIRE(done.size() == 1);
  CHECK(done[0].sequence == 3);
  CHECK(done[0].status == b::Completed::dropped);
  exec.stop();
  done = seen.snapshot();
  REQUIRE(done.size() == 3);
  CHECK(done[1].status == b::Completed::dropped);
  CHECK(done[2].status == b::Completed::dropped);
  CHECK(seen.messages[2] == "executor stopped");
  CHECK(exec.submit(call(b::Action::change_mode), t0) == 0);
  CHECK(log.total_in_flight() == 0);
}

TEST_CASE("booster executor: threaded, a call blocking past its timeout is reported as a timeout and later calls still run") {
  std::atomic<int> performing{0};
  std::atomic<int> most_at_once{0};
  std::atomic<int> performed{0};
  const auto perform = [&](const b::PlannedAction& a, Duration) {
    const int now_in = ++performing;
    if (now_in > most_at_once) most_at_once = now_in;
    // The first change_mode never answers in time (as a robot that went silent).
    if (a.action == b::Action::change_mode && a.mode == b::Mode::prepare) std::this_thread::sleep_for(250ms);
    ++performed;
    --performing;
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::threaded, 60ms, 8}, seen.callback());
  auto stuck = call(b::Action::change_mode);
  stuck.mode = b::Mode::prepare;
  exec.submit(stuck, Clock::now());
  std::this_thread::sleep_for(20ms);
  exec.submit(call(b::Action::get_up), Clock::now());  // waits behind the stuck call past its deadline
  REQUIRE(seen.wait_for(2));
  exec.submit(call(b::Action::change_mode), Clock::now());
  exec.submit(call(b::Action::move_robot, 0.2), Clock::now());
  REQUIRE(seen.wait_for(4));
  const auto done = seen.snapshot();
  CHECK(done[0].action == b::Action::change_mode);
  CHECK(done[0].status == b::Completed::timeout);
  CHECK(done[0].elapsed_ms >= 250.0);
  CHECK(seen.messages[0] == "answered after its deadline");
  CHECK(done[1].action == b::Action::get_up);
  CHECK(done[1].status == b::Completed::timeout);
  CHECK(seen.messages[1] == "timed out before it was sent");
  CHECK(done[2].status == b::Completed::ok);
  CHECK(done[3].status == b::Completed::ok);
  CHECK(performed == 3);  // the stuck call, then the two later ones; get_up never went out
  CHECK(most_at_once == 1);
  CHECK(log.total_in_flight() == 0);
}

TEST_CASE("booster executor: threaded, calls from another thread run one at a time and all complete") {
  std::atomic<int> performing{0};
  std::atomic<int> most_at_once{0};
  const auto perform = [&](const b::PlannedAction&, Duration timeout) {
    const int now_in = ++performing;
    if (now_in > most_at_once) most_at_once = now_in;
    std::this_thread::sleep_for(std::min<Duration>(timeout / 4, 1ms));
    --performing;
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  constexpr int k_calls = 40;
  {
    b::CallExecutor exec(perform, log, {b::ExecutorMode::threaded, 2s, 64}, seen.callback());
    std::thread planner([&exec] {
      for (int i = 0; i < k_calls; ++i) {
        exec.submit(call(i % 2 == 0 ? b::Action::change_mode : b::Action::set_leds), Clock::now());
        std::this_thread::sleep_for(200us);
      }
    });
    planner.join();
    REQUIRE(seen.wait_for(k_calls));
  }  // the destructor stops and joins
  const auto done = seen.snapshot();
  REQUIRE(done.size() == static_cast<std::size_t>(k_calls));
  for (std::size_t i = 0; i < done.size(); ++i) {
    CHECK(done[i].sequence == i + 1);  // one worker: completion order is submission order
    CHECK(done[i].status == b::Completed::ok);
  }
  CHECK(most_at_once == 1);
  CHECK(log.total_in_flight() == 0);
}

}  // namespace booster_executor_test
