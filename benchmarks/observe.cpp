// Observing a run (issue 25): what recording every port to MCAP and serving a connected live client
// cost the control cycle, and what recording costs the machine.
//
// 1. Cycle, interleaved in one process: RobotController<MockRobot<G1>> without an observer (the
//    baseline) against the same with a Recorder writing every port to an MCAP file and a live
//    server with a WebSocket client subscribed to every channel. Two measures per step():
//      command latency   from the start of step() to the command reaching the robot (write()):
//                        what the robot feels; the tap runs after it, so this is the goal's row
//                        (at most 2 % above the baseline at p50 and p99);
//      whole step        including the tap's copy of every port into its ring: the control
//                        thread's busy time, reported for what it is.
//    Heap allocations on the control thread are counted per cycle (0 is the rule).
// 2. Throughput: a real-time run at 1 kHz (three threads, as on a robot) recording every port of
//    the 29-joint G1 for a few seconds: bytes and messages per second, dropped cycles, and the
//    writer thread's CPU time as a share of one core.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "allocation_counter.hpp"
#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/observe/recorder.hpp"

namespace {

using namespace std::chrono_literals;
using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;

// The mock robot, with the time its last command arrived: the end of the command's latency.
struct TimedRobot : praxis::mock::MockRobot<Model> {
  using praxis::mock::MockRobot<Model>::MockRobot;
  std::chrono::steady_clock::time_point written{};
  void write(const praxis::JointCommand<N>& c, praxis::TimePoint now) {
    written = std::chrono::steady_clock::now();
    praxis::mock::MockRobot<Model>::write(c, now);
  }
};

struct Wave {
  double dt = 0.002, kp = 60.0, kd = 1.5;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  double t = 0;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) { t = 0; }
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {
    t += dt;
    for (std::size_t j = 0; j < N; ++j) jpos_des[j] = init_pos[j] + 0.05 * std::sin(3.0 * t + 0.1 * static_cast<double>(j));
  }
  std::array<float, 0> log() const { return {}; }
};

using Controller = praxis::control::RobotController<TimedRobot, Wave>;

void script(TimedRobot& robot, praxis::TimePoint t0) {
  robot.hold(praxis::GamepadButton::R2, t0 + 20ms, 1s);
  robot.tap(praxis::GamepadButton::A, t0 + 1200ms);
}

// A Foxglove WebSocket client that subscribes to every advertised channel and reads until told to
// stop: the live view's load, as a person with Foxglove open would put it on the robot.
class LiveClient {
 public:
  explicit LiveClient(std::uint16_t port) : thread_([this, port] { run(port); }) {
    while (!subscribed_.load() && !failed_.load()) std::this_thread::sleep_for(1ms);
  }
  ~LiveClient() {
    stop_.store(true);
    thread_.join();
  }
  [[nodiscard]] std::uint64_t messages() const { return messages_.load(); }
  [[nodiscard]] bool failed() const { return failed_.load(); }

 private:
  void run(std::uint16_t port) {
    namespace beast = boost::beast;
    namespace ws = beast::websocket;
    try {
      boost::asio::io_context io;
      boost::asio::ip::tcp::resolver resolver(io);
      ws::stream<boost::asio::ip::tcp::socket> socket(io);
      boost::asio::connect(socket.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
      socket.set_option(ws::stream_base::decorator([](ws::request_type& r) {
        r.set(beast::http::field::sec_websocket_protocol, "foxglove.websocket.v1");
      }));
      socket.handshake("127.0.0.1", "/");
      beast::flat_buffer buffer;
      nlohmann::json subscribe{{"op", "subscribe"}, {"subscriptions", nlohmann::json::array()}};
      std::uint32_t next = 1;
      while (!subscribed_.load()) {
        buffer.clear();
        socket.read(buffer);
        if (!socket.got_text()) continue;
        const auto message = nlohmann::json::parse(beast::buffers_to_string(buffer.data()));
        if (message.value("op", "") != "advertise") continue;
        for (const auto& c : message["channels"]) {
          subscribe["subscriptions"].push_back({{"id", next++}, {"channelId", c["id"]}});
        }
        socket.text(true);
        socket.write(boost::asio::buffer(subscribe.dump()));
        subscribed_.store(true);
      }
      // Blocking reads: the recorder's close() stops the server, which ends this connection.
      while (!stop_.load()) {
        buffer.clear();
        beast::error_code ec;
        socket.read(buffer, ec);
        if (ec) break;
        messages_.fetch_add(1);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "live client: %s\n", e.what());
      failed_.store(true);
    }
  }
  std::atomic<bool> subscribed_{false}, stop_{false}, failed_{false};
  std::atomic<std::uint64_t> messages_{0};
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "observe.json";
  const std::size_t k_cycles = praxis::bench::scaled<std::size_t>(30'000, 3'000);
  const auto folder = std::filesystem::temp_directory_path() / ("praxis_bench_observe_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);

  // ---- 1. the cycle, with and without ----
  praxis::control::ControllerOptions options;
  options.print = false;
  TimedRobot robot_a, robot_b;
  script(robot_a, {});
  script(robot_b, {});
  Controller plain(robot_a, options);
  Controller observed(robot_b, options);
  praxis::observe::RecorderOptions ro;
  ro.file = folder / "bench.mcap";
  ro.live = praxis::observe::LiveOptions{};
  ro.live->port = 0;
  ro.metadata = {{"robot", "g1"}, {"program", "bench_observe"}};
  if (const char* c = std::getenv("PRAXIS_BENCH_OBSERVE_CAPACITY")) ro.capacity = std::stoul(c);
  std::printf("snapshot of every port: %zu bytes, ring of %zu\n",
              sizeof(praxis::observe::Recorder<Controller>::Snapshot), ro.capacity);
  praxis::observe::Recorder<Controller> recorder(observed, ro);
  LiveClient client(recorder.live_port());

  using clock = std::chrono::steady_clock;
  std::vector<double> plain_latency, plain_step, observed_latency, observed_step;
  for (auto* v : {&plain_latency, &plain_step, &observed_latency, &observed_step}) v->reserve(k_cycles);
  std::uint64_t plain_allocs = 0, observed_allocs = 0;
  praxis::TimePoint ta{}, tb{};
  const auto step = [&](Controller& c, TimedRobot& r, praxis::TimePoint& t, std::vector<double>& latency,
                        std::vector<double>& whole, std::uint64_t& allocs, std::size_t k) {
    t += 2ms;
    const auto a0 = praxis::bench::allocation_count();
    const auto s = clock::now();
    c.step(t);
    const auto e = clock::now();
    if (k > 0) allocs += praxis::bench::allocation_count() - a0;
    latency.push_back(std::chrono::duration<double, std::nano>(r.written - s).count());
    whole.push_back(std::chrono::duration<double, std::nano>(e - s).count());
  };
  // Paced at 1 kHz, as on a robot: the writer and the server do their work between cycles, as they
  // would in a run, instead of competing with a loop that steps as fast as it can. Both variants
  // run at every tick, in alternating order.
  auto next = clock::now();
  for (std::size_t k = 0; k < k_cycles; ++k) {
    next += 1ms;
    std::this_thread::sleep_until(next);
    if (k % 2 == 0) {
      step(plain, robot_a, ta, plain_latency, plain_step, plain_allocs, k);
      step(observed, robot_b, tb, observed_latency, observed_step, observed_allocs, k);
    } else {
      step(observed, robot_b, tb, observed_latency, observed_step, observed_allocs, k);
      step(plain, robot_a, ta, plain_latency, plain_step, plain_allocs, k);
    }
  }
  const auto live_messages = client.messages();
  recorder.close();
  const auto cycle_stats = recorder.stats();
  if (plain.state() != praxis::control::ControlState::ctrl || observed.state() != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "benchmark did not reach CTRL: the comparison would be meaningless\n");
    return 1;
  }
  if (cycle_stats.cycles_dropped != 0 || cycle_stats.cycles_recorded != k_cycles || client.failed() || live_messages == 0) {
    std::fprintf(stderr, "the recording or the live client did not work: %llu recorded, %llu dropped, %llu live messages\n",
                 static_cast<unsigned long long>(cycle_stats.cycles_recorded),
                 static_cast<unsigned long long>(cycle_stats.cycles_dropped),
                 static_cast<unsigned long long>(live_messages));
    return 1;
  }

  // ---- 2. throughput at 1 kHz in real time ----
  const double seconds = praxis::bench::quick() ? 2.0 : 6.0;
  TimedRobot robot_rt(praxis::mock::MockOptions{}, praxis::Clock::now());
  script(robot_rt, praxis::Clock::now());
  praxis::control::ControllerOptions rt_options = options;
  praxis::observe::RecorderOptions rro;
  rro.file = folder / "throughput.mcap";
  rro.metadata = {{"robot", "g1"}, {"program", "bench_observe"}};
  Controller rt_controller(robot_rt, rt_options);
  rt_controller.user().dt = 0.001;
  praxis::observe::Recorder<Controller> rt_recorder(rt_controller, rro);
  const auto outcome = rt_controller.run_for(praxis::from_seconds(seconds));
  (void)outcome;
  rt_recorder.close();
  const auto rs = rt_recorder.stats();
  const double rate = static_cast<double>(rt_controller.cycles()) / seconds;
  const double bytes_per_s = static_cast<double>(rs.bytes) / seconds;
  const double cpu_share = rs.writer_cpu_seconds / seconds;

  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);

  const auto pl = praxis::bench::summarize(plain_latency);
  const auto ol = praxis::bench::summarize(observed_latency);
  const auto ps = praxis::bench::summarize(plain_step);
  const auto os = praxis::bench::summarize(observed_step);
  praxis::bench::print_table("observing a run: G1 (29 joints) on the mock, CTRL, ns, " + std::to_string(k_cycles) +
                                 " cycles each, both stepped at every tick of a 1 kHz clock",
                             {{"command latency, no observer (baseline)", pl},
                              {"command latency, recording + live client", ol},
                              {"whole step, no observer (baseline)", ps},
                              {"whole step with the tap, recording + live client", os}});
  std::printf("\n  ratio command latency with / without: p50 %.3f, p99 %.3f (goal: at most 1.02)\n", ol.p50 / pl.p50,
              ol.p99 / pl.p99);
  std::printf("  ratio whole step with / without: p50 %.3f, p99 %.3f (the tap's copy of %zu ports, after the command)\n",
              os.p50 / ps.p50, os.p99 / ps.p99, Controller::graph_type::port_count);
  std::printf("  allocations per cycle on the control thread: without %.3f, with %.3f\n",
              static_cast<double>(plain_allocs) / static_cast<double>(k_cycles),
              static_cast<double>(observed_allocs) / static_cast<double>(k_cycles));
  std::printf("  live client received %llu messages (%.1f per cycle: 50 Hz per channel of the cycles' 500 Hz time)\n",
              static_cast<unsigned long long>(live_messages),
              static_cast<double>(live_messages) / static_cast<double>(k_cycles));
  std::printf("\n  recording at %.0f Hz in real time for %.0f s, every port of the G1 (%zu channels):\n", rate, seconds,
              Controller::graph_type::port_count + 2);
  std::printf("    %.2f MB/s to the file (zstd), %.0f messages/s, %llu cycles dropped, writer thread %.1f %% of a core\n",
              bytes_per_s / 1e6, static_cast<double>(rs.messages) / seconds,
              static_cast<unsigned long long>(rs.cycles_dropped), 100.0 * cpu_share);

  praxis::bench::dump_samples("observe", "g1_latency_plain", plain_latency);
  praxis::bench::dump_samples("observe", "g1_latency_observed", observed_latency);
  const double k = static_cast<double>(k_cycles);
  const std::vector<praxis::bench::ReportRow> report{
      {"G1 command latency, no observer (baseline)", pl, "", plain_allocs / k},
      {"G1 command latency, recording every port + live client", ol, "G1 command latency, no observer (baseline)",
       observed_allocs / k, std::nullopt,
       praxis::bench::Goal{"", 1.02, std::nullopt, std::nullopt}},
      {"G1 whole step, no observer (baseline)", ps, "", plain_allocs / k},
      {"G1 whole step with the tap, recording + live client", os, "G1 whole step, no observer (baseline)",
       observed_allocs / k},
  };
  nlohmann::json j;
  j["benchmark"] = "observe";
  j["cycles"] = k_cycles;
  j["report"] = praxis::bench::report_json(report);
  j["throughput"] = {{"rate_hz", rate},
                     {"seconds", seconds},
                     {"bytes_per_second", bytes_per_s},
                     {"messages_per_second", static_cast<double>(rs.messages) / seconds},
                     {"cycles_dropped", rs.cycles_dropped},
                     {"writer_cpu_share", cpu_share}};
  j["live_messages"] = live_messages;
  praxis::bench::write_json(json_path, j);
  return 0;
}
