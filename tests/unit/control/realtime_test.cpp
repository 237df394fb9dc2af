// RuntimeOptions::realtime: each request granted or refused with the reason a user can act on, on
// this machine whatever its permissions; and the control thread's page faults after start-up,
// counted by the runtime.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../../support/timetable.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/control/realtime.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"

using namespace std::chrono_literals;

namespace {

// Runs `f` on a fresh thread (scheduling changes stay there) and returns what it returned.
template <class F>
auto on_thread(F f) {
  decltype(f()) out;
  std::thread t([&] { out = f(); });
  t.join();
  return out;
}

const praxis::control::RealtimeItem* find(const std::vector<praxis::control::RealtimeItem>& items, const std::string& what) {
  for (const auto& i : items) {
    if (i.what.find(what) != std::string::npos) return &i;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("realtime: SCHED_FIFO is granted, or refused naming the limit that would allow it", "[control][realtime]") {
  praxis::control::RealtimeOptions o;
  o.control.fifo_priority = 10;
  const auto [items, policy] = on_thread([&] {
    auto got = praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::control);
    return std::pair{got, sched_getscheduler(0)};
  });
  const auto* fifo = find(items, "control thread SCHED_FIFO 10");
  REQUIRE(fifo != nullptr);
  if (fifo->granted) {
    CHECK(policy == SCHED_FIFO);
  } else {
    CHECK(policy != SCHED_FIFO);
    CHECK_THAT(fifo->why, Catch::Contains("CAP_SYS_NICE") && Catch::Contains("RLIMIT_RTPRIO") &&
                              Catch::Contains("ulimit -r 10"));
  }
  o.control.fifo_priority = 150;  // outside 1..99: refused whatever the permissions
  const auto bad = on_thread([&] { return praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::control); });
  REQUIRE(bad.size() == 1);
  CHECK_FALSE(bad[0].granted);
  CHECK_THAT(bad[0].why, Catch::Contains("EINVAL") && Catch::Contains("1..99"));
}

TEST_CASE("realtime: a CPU set is applied to the thread, and a CPU that does not exist is named", "[control][realtime]") {
  praxis::control::RealtimeOptions o;
  o.send.cpus = {0};
  const auto [items, cpu] = on_thread([&] {
    auto got = praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::send);
    std::this_thread::yield();
    return std::pair{got, sched_getcpu()};
  });
  REQUIRE(items.size() == 1);
  CHECK(items[0].what == "send thread on CPU 0");
  REQUIRE(items[0].granted);
  CHECK(cpu == 0);
  o.send.cpus = {100000};
  const auto missing = on_thread([&] { return praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::send); });
  REQUIRE(missing.size() == 1);
  CHECK_FALSE(missing[0].granted);
  CHECK_THAT(missing[0].why, Catch::Contains("CPU number outside"));
}

TEST_CASE("realtime: stack and heap prefaulting, timer slack, and the summary's words", "[control][realtime]") {
  praxis::control::RealtimeOptions o;
  o.prefault_stack = 256 * 1024;
  o.timer_slack = 1us;
  const auto items = on_thread([&] { return praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::receive); });
  const auto* stack = find(items, "receive thread stack prefaulted 256 KiB");
  REQUIRE(stack != nullptr);
  CHECK(stack->granted);
  const auto* slack = find(items, "receive thread timer slack 1000 ns");
  REQUIRE(slack != nullptr);
  CHECK(slack->granted);
  // A stack deeper than the thread has is touched as far as it goes, and said so.
  o.prefault_stack = std::size_t{1} << 30;
  const auto deep = on_thread([&] { return praxis::control::apply_thread_realtime(o, praxis::control::ThreadRole::receive); });
  const auto* clamped = find(deep, "stack prefaulted");
  REQUIRE(clamped != nullptr);
  CHECK_FALSE(clamped->granted);
  CHECK_THAT(clamped->why, Catch::Contains("the thread's stack is"));

  praxis::control::RealtimeReport report;
  report.items = {{"a", true, {}}, {"b", false, "EPERM: why"}};
  CHECK(report.summary() == "real time: granted: a. refused: b (EPERM: why); running without it.");
  CHECK_FALSE(report.all_granted());
  CHECK(praxis::control::RealtimeReport{}.summary() == "real time: nothing asked (RuntimeOptions::realtime)");
}

TEST_CASE("realtime in a run: every thread's requests reported, and the control thread takes no page fault after its "
          "warm-up", "[control][realtime][threads]") {
  using Model = praxis::unitree::G1;
  using Robot = praxis::mock::ModalRobot<Model>;  // stands and walks by itself: the mock with modes
  Robot robot({}, praxis::Clock::now());
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  options.safety.stale_timeout = 500ms;
  options.realtime.prefault_stack = 256 * 1024;
  options.realtime.prefault_heap = 16 * 1024 * 1024;
  options.realtime.lock_memory = true;  // granted or not: the run goes on
  praxis::control::MotionController<Robot, praxis::test::Timetable> controller(robot, library, options);
  controller.behaviour().steps = {{0.0, praxis::motion::command::Stand{}}};
  const auto outcome = controller.run_for(1500ms);
  robot.stop_worker();
  INFO(outcome.summary());
  INFO(controller.realtime_report().summary());
  CHECK(outcome.ok());
  const auto& items = controller.realtime_report().items;
  CHECK(find(items, "memory locked") != nullptr);
  CHECK(find(items, "16 MiB of heap prefaulted") != nullptr);
  for (const char* who : {"receive thread stack", "control thread stack", "send thread stack"}) {
    INFO(who);
    CHECK(find(items, who) != nullptr);
  }
  REQUIRE(controller.control_minor_faults().has_value());
  // Stand, then holding it: the same code and memory every cycle after the first ones.
  CHECK(*controller.control_minor_faults() == 0);
}

TEST_CASE("realtime: the CPU wake-up latency request writes the value and holds the device open, or says why not",
          "[control][realtime]") {
  const auto dir = std::filesystem::temp_directory_path() / ("praxis_cpu_latency_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto device = dir / "cpu_dma_latency";
  std::ofstream(device).close();  // a stand-in for the kernel's file: it keeps what was written
  praxis::control::RealtimeItem item;
  {
    auto hold = praxis::control::hold_cpu_latency(std::chrono::microseconds(7), item, device.string());
    INFO(item.why);
    CHECK(item.granted);
    CHECK(hold.held());
    CHECK_THAT(item.what, Catch::Contains("CPU wake-up latency 7 us"));
    std::ifstream in(device, std::ios::binary);
    std::int32_t value = -1;
    in.read(reinterpret_cast<char*>(&value), sizeof value);
    CHECK(in.gcount() == 4);
    CHECK(value == 7);  // binary, as the kernel's PM QoS reads it
    auto moved = std::move(hold);
    CHECK(moved.held());
    CHECK_FALSE(hold.held());  // NOLINT(bugprone-use-after-move): the move leaves nothing to close
  }
  auto missing = praxis::control::hold_cpu_latency(std::chrono::microseconds(0), item, (dir / "absent" / "x").string());
  CHECK_FALSE(missing.held());
  CHECK_FALSE(item.granted);
  CHECK_THAT(item.why, Catch::StartsWith("ENOENT") && Catch::Contains("PM QoS"));
  auto negative = praxis::control::hold_cpu_latency(std::chrono::microseconds(-1), item, device.string());
  CHECK_FALSE(negative.held());
  CHECK_THAT(item.why, Catch::StartsWith("EINVAL"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("lateness in a run: every timer cycle's wake-up counted, a cycle that overran shows as the next one's "
          "lateness, and the reporter's windows carry it", "[control][realtime][threads]") {
  using Model = praxis::unitree::G1;
  using Robot = praxis::mock::ModalRobot<Model>;
  Robot robot({}, praxis::Clock::now());
  praxis::script::ScriptLibrary<Model> library;
  praxis::control::MotionOptions options;
  options.print = false;
  options.period = 2ms;
  options.safety.stale_timeout = 500ms;
  options.stall_timeout = 2s;  // the slow cycle below is not a stall
  options.stats_every = 100;
  praxis::control::MotionController<Robot, praxis::test::Timetable> controller(robot, library, options);
  controller.behaviour().steps = {{0.0, praxis::motion::command::Stand{}}};
  // One cycle of 3 ms at 0.3 s: the deadline after it passed 1 ms before the loop could sleep.
  controller.behaviour().disturbance = praxis::test::Timetable::Disturbance::stall;
  controller.behaviour().disturb_at = 0.3;
  controller.behaviour().stall_for = 3ms;
  const auto outcome = controller.run_for(800ms);
  robot.stop_worker();
  INFO(outcome.summary());
  CHECK(outcome.ok());
  const auto late = controller.lateness();
  // One wake-up per cycle; skipped deadlines (overruns) run no cycle.
  CHECK(late.samples == controller.cycles());
  CHECK(late.samples > 100);
  CHECK(late.p50 <= late.p99);
  CHECK(late.p99 <= late.p999);
  CHECK(late.p999 <= late.max);
  CHECK(late.max >= 900us);
  CHECK(controller.lateness_histogram().samples() == late.samples);
  controller.flush();
  const auto window = controller.compute_stats();  // the last full window of 100 cycles
  CHECK(window.samples == 100);
  CHECK(window.late_max_us > 0.0);
  CHECK(window.late_p99_us <= window.late_max_us);
  CHECK(window.late_max_us * 1e3 <= static_cast<double>(std::chrono::nanoseconds(late.max).count()) + 1.0);
}
