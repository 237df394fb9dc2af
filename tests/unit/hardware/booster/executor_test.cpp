// Booster call executor: single flight, periodic calls' deadlines counted from scheduling and their
// coalescing, one-shot calls that wait their turn and are retried by the rule, the end request
// (Damping) that pre-empts, never expires in the queue and is retried until confirmed or its
// deadline, the counts of calls sent and answered, inline (simulated clock) and threaded operation.
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
  CHECK(performed[0].timeout == 100ms);  // a one-shot call: the whole timeout, from when it is sent
  CHECK(performed[2].timeout == 80ms);   // a periodic one: what is left of its deadline
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

TEST_CASE("booster executor: a periodic call still waiting at its deadline times out without being performed: a "
          "one-shot call waits its turn") {
  std::vector<b::Action> performed;
  const auto perform = [&performed](const b::PlannedAction& a, Duration) {
    performed.push_back(a.action);
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 8}, seen.callback());
  const TimePoint t0 = TimePoint{} + 50s;
  exec.submit(call(b::Action::move_robot), t0);
  exec.submit(call(b::Action::get_up), t0);
  exec.submit(call(b::Action::visual_kick), t0 + 50ms);
  exec.run_pending(t0 + 100ms);  // the move's deadline is exactly now; the one-shot calls have none
  CHECK(performed == std::vector<b::Action>{b::Action::get_up, b::Action::visual_kick});
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 3);
  CHECK(done[0].action == b::Action::move_robot);
  CHECK(done[0].status == b::Completed::timeout);
  CHECK(done[0].code == b::status::k_timeout);
  CHECK(done[0].elapsed_ms == Approx(100.0));
  CHECK_FALSE(done[0].sent);
  CHECK(done[1].status == b::Completed::ok);
  CHECK(done[2].status == b::Completed::ok);
  CHECK(log.in_flight(b::Action::move_robot) == 0);
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

TEST_CASE("booster executor: a full queue refuses one-shot calls and says so: stop drops what waits") {
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

TEST_CASE("booster executor: threaded, a periodic call blocking past its timeout is reported as a timeout and later "
          "calls still run") {
  std::atomic<int> performing{0};
  std::atomic<int> most_at_once{0};
  std::atomic<int> performed{0};
  const auto perform = [&](const b::PlannedAction& a, Duration) {
    const int now_in = ++performing;
    if (now_in > most_at_once) most_at_once = now_in;
    // The first move never answers in time (as a robot that went silent).
    if (a.action == b::Action::move_robot && a.forward == 0.1) std::this_thread::sleep_for(250ms);
    ++performed;
    --performing;
    return b::CallResult{};
  };
  b::ActionLog log;
  Completions seen;
  b::CallExecutor exec(perform, log, {b::ExecutorMode::threaded, 60ms, 8}, seen.callback());
  exec.submit(call(b::Action::move_robot, 0.1), Clock::now());
  std::this_thread::sleep_for(20ms);
  exec.submit(call(b::Action::rotate_head), Clock::now());  // waits behind the stuck call past its deadline
  REQUIRE(seen.wait_for(2));
  exec.submit(call(b::Action::change_mode), Clock::now());
  exec.submit(call(b::Action::move_robot, 0.2), Clock::now());
  REQUIRE(seen.wait_for(4));
  const auto done = seen.snapshot();
  CHECK(done[0].action == b::Action::move_robot);
  CHECK(done[0].status == b::Completed::timeout);
  CHECK(done[0].elapsed_ms >= 250.0);
  CHECK(seen.messages[0] == "answered after its deadline");
  CHECK(done[1].action == b::Action::rotate_head);
  CHECK(done[1].status == b::Completed::timeout);
  CHECK(seen.messages[1] == "timed out before it was sent");
  CHECK(done[2].status == b::Completed::ok);
  CHECK(done[3].status == b::Completed::ok);
  CHECK(performed == 3);  // the stuck call, then the two later ones; the head call never went out
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

namespace {

b::PlannedAction damping() {
  b::PlannedAction p;
  p.action = b::Action::change_mode;
  p.mode = b::Mode::damping;
  return p;
}

// A perform that answers from a script per action (the last entry repeats), recording every attempt.
struct Scripted {
  std::vector<std::pair<b::Action, TimePoint>> attempts;
  std::vector<b::CallResult> change_mode_results, get_up_results;
  const TimePoint* now = nullptr;
  std::size_t change_modes = 0, get_ups = 0;
  auto perform() {
    return [this](const b::PlannedAction& a, Duration) {
      attempts.emplace_back(a.action, *now);
      if (a.action == b::Action::change_mode && !change_mode_results.empty()) {
        return change_mode_results[std::min(change_modes++, change_mode_results.size() - 1)];
      }
      if (a.action == b::Action::get_up && !get_up_results.empty()) {
        return get_up_results[std::min(get_ups++, get_up_results.size() - 1)];
      }
      return b::CallResult{};
    };
  }
};

b::CallResult refused(std::int32_t code) {
  return {b::Completed::error, code, "refused with " + std::to_string(code), true, b::retryable_status(code)};
}
b::CallResult unanswered() { return {b::Completed::timeout, b::status::k_timeout, "no answer", false, true}; }

}  // namespace

TEST_CASE("booster executor: the Damping request drops every call waiting before it, goes first, and calls after it "
          "queue behind it") {
  TimePoint now = TimePoint{} + 50s;
  Scripted robot;
  robot.now = &now;
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  Completions seen;
  b::CallExecutor exec(robot.perform(), log, {b::ExecutorMode::inline_calls, 100ms, 8}, seen.callback());
  exec.submit(call(b::Action::move_robot, 0.3), now);  // 1
  exec.submit(call(b::Action::rotate_head), now);      // 2
  auto stop_kick = call(b::Action::visual_kick);
  stop_kick.enabled = false;
  exec.submit(stop_kick, now);                     // 3
  exec.submit(call(b::Action::get_up), now);       // 4
  CHECK(exec.submit(damping(), now + 1ms) == 5);   // drops 1..4
  exec.submit(call(b::Action::set_leds), now + 2ms);  // 6: behind it
  {
    const auto done = seen.snapshot();
    REQUIRE(done.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(done[k].sequence == k + 1);
      CHECK(done[k].status == b::Completed::dropped);
      CHECK_FALSE(done[k].sent);
      CHECK(seen.messages[k] == "superseded by the Damping request");
    }
  }
  exec.run_pending(now += 10ms);
  REQUIRE(robot.attempts.size() == 2);
  CHECK(robot.attempts[0].first == b::Action::change_mode);
  CHECK(robot.attempts[1].first == b::Action::set_leds);
  CHECK(log.counts(b::Action::move_robot).dropped == 1);
  CHECK(log.counts(b::Action::change_mode).ok == 1);
  CHECK(log.total_in_flight() == 0);
}

TEST_CASE("booster executor: the Damping request never expires in the queue, and is retried until it succeeds") {
  TimePoint now = TimePoint{} + 50s;
  Scripted robot;
  robot.now = &now;
  robot.change_mode_results = {unanswered(), refused(502), b::CallResult{}};
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  Completions seen;
  b::ExecutorOptions options{b::ExecutorMode::inline_calls, 100ms, 8};
  options.end = {2s, 400ms, 50ms};
  b::CallExecutor exec(robot.perform(), log, options, seen.callback());
  const TimePoint t0 = now;
  exec.submit(damping(), t0);
  now += 1500ms;  // long past a periodic call's deadline: the worker was starved
  exec.run_pending(now);
  CHECK(robot.attempts.size() == 1);
  CHECK(seen.snapshot().empty());  // waiting for its backoff
  now += 40ms;
  exec.run_pending(now);
  CHECK(robot.attempts.size() == 1);
  now += 10ms;
  exec.run_pending(now);
  CHECK(robot.attempts.size() == 2);
  now += 50ms;
  exec.run_pending(now);
  REQUIRE(robot.attempts.size() == 3);
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 1);
  CHECK(done[0].status == b::Completed::ok);
  CHECK(done[0].attempts == 3);
  CHECK(done[0].answered);
  std::size_t retries = 0;
  for (const auto& l : lines) retries += l.find("\"event\":\"booster rpc retry\"") != std::string::npos;
  CHECK(retries == 2);
  CHECK_THAT(lines.at(1), Catch::Contains(R"("attempt":2,"after_code":100,"after":"no answer","backoff_ms":50)"));
  CHECK(log.counts(b::Action::change_mode).retries == 2);
}

TEST_CASE("booster executor: a Damping request the robot never confirms is given up at its deadline, not before, "
          "and no attempt starts after it") {
  TimePoint now = TimePoint{} + 50s;
  Scripted robot;
  robot.now = &now;
  robot.change_mode_results = {refused(409)};  // even a final refusal: Damping is retried until the deadline
  b::ActionLog log;
  Completions seen;
  b::ExecutorOptions options{b::ExecutorMode::inline_calls, 100ms, 8};
  options.end = {2s, 400ms, 100ms};
  b::CallExecutor exec(robot.perform(), log, options, seen.callback());
  const TimePoint t0 = now;
  exec.submit(damping(), t0);
  while (now < t0 + 3s) exec.run_pending(now += 10ms);
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 1);
  CHECK(done[0].status == b::Completed::error);
  CHECK(done[0].code == 409);
  CHECK(done[0].attempts >= 15);  // about every 110 ms for 2 s
  CHECK(done[0].attempts <= 20);
  REQUIRE(!robot.attempts.empty());
  CHECK(robot.attempts.back().second < t0 + 2s);
  CHECK(done[0].elapsed_ms < 2000.0);
}

TEST_CASE("booster executor: a failed one-shot call is retried by the rule (transient codes and no answer, backoff "
          "doubling, bounded): the call behind it waits: a final refusal is not retried") {
  TimePoint now = TimePoint{} + 50s;
  Scripted robot;
  robot.now = &now;
  robot.change_mode_results = {refused(502), b::CallResult{}};
  robot.get_up_results = {refused(409)};
  std::vector<std::string> lines;
  b::ActionLog log([&lines](const std::string& l) { lines.push_back(l); });
  Completions seen;
  b::ExecutorOptions options{b::ExecutorMode::inline_calls, 100ms, 8};
  options.retry = {3, 100ms};
  b::CallExecutor exec(robot.perform(), log, options, seen.callback());
  const TimePoint t0 = now;
  auto prepare = call(b::Action::change_mode);
  prepare.mode = b::Mode::prepare;
  exec.submit(prepare, t0);
  exec.submit(call(b::Action::get_up), t0);
  while (now < t0 + 1s) exec.run_pending(now += 10ms);
  REQUIRE(robot.attempts.size() == 3);
  CHECK(robot.attempts[0].first == b::Action::change_mode);
  CHECK(robot.attempts[1].first == b::Action::change_mode);  // after 100 ms, before the get_up
  CHECK(robot.attempts[1].second == t0 + 110ms);
  CHECK(robot.attempts[2].first == b::Action::get_up);
  const auto done = seen.snapshot();
  REQUIRE(done.size() == 2);
  CHECK(done[0].status == b::Completed::ok);
  CHECK(done[0].attempts == 2);
  CHECK(done[1].status == b::Completed::error);  // 409: the robot's decision, reported once
  CHECK(done[1].code == 409);
  CHECK(done[1].attempts == 1);

  // Bounded: a robot that keeps answering 502 gets max_attempts, with 100 then 200 ms between them.
  Scripted stubborn;
  stubborn.now = &now;
  stubborn.change_mode_results = {refused(502)};
  Completions seen2;
  b::ActionLog log2;
  b::CallExecutor exec2(stubborn.perform(), log2, options, seen2.callback());
  const TimePoint t1 = now;
  exec2.submit(prepare, t1);
  while (now < t1 + 2s) exec2.run_pending(now += 10ms);
  REQUIRE(stubborn.attempts.size() == 3);
  CHECK(stubborn.attempts[1].second - stubborn.attempts[0].second == Duration(100ms));
  CHECK(stubborn.attempts[2].second - stubborn.attempts[1].second == Duration(200ms));
  const auto done2 = seen2.snapshot();
  REQUIRE(done2.size() == 1);
  CHECK(done2[0].status == b::Completed::error);
  CHECK(done2[0].code == 502);
  CHECK(done2[0].attempts == 3);
  CHECK(log2.counts(b::Action::change_mode).retries == 2);
  CHECK(log2.counts(b::Action::change_mode).refused == 1);
}

TEST_CASE("booster executor: the counts say how many calls were sent and answered, not how many were scheduled") {
  TimePoint now = TimePoint{} + 50s;
  b::ActionLog log;
  // A robot that needs 30 ms per answer, and a planner that schedules a move every 10 ms.
  const auto perform = [&now](const b::PlannedAction&, Duration) {
    now += 30ms;
    return b::CallResult{};
  };
  b::CallExecutor exec(perform, log, {b::ExecutorMode::inline_calls, 100ms, 8});
  const TimePoint t0 = now;
  for (TimePoint planned = t0; planned < t0 + 1s; planned += 10ms) {
    if (now < planned) now = planned;
    exec.submit(call(b::Action::move_robot, 0.3), planned);
    if (planned.time_since_epoch() % 30ms == Duration::zero()) exec.run_pending(now);
  }
  exec.stop();
  const auto n = log.counts(b::Action::move_robot);
  CHECK(n.scheduled == 100);
  CHECK(n.ok < 40);
  CHECK(n.ok == n.sent);
  CHECK(n.answered == n.ok);
  CHECK(n.dropped + n.timed_out + n.ok == n.scheduled);
}

}  // namespace booster_executor_test
