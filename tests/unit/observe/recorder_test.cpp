// observe/recorder.hpp: a stepped mock G1 run recorded to a real MCAP file and read back with
// praxis' reader: one channel per port plus the event channels, one message per cycle per port,
// the bytes decoding to what the controller held in that cycle; transitions by name; the run's
// facts in the file; a failing disk stops the recording and not the run; no allocation on the
// control thread.

#include <array>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <catch2/catch.hpp>

#include <boost/hana/define_struct.hpp>

#include "../../support/alloc_counter.hpp"
#include "../../support/hold.hpp"
#include "../../support/scratch_dir.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/observe/recorder.hpp"

namespace {
namespace observe_recorder_test {

using namespace std::chrono_literals;
using G1 = praxis::unitree::G1;
constexpr std::size_t N = G1::joint_count;
using Mock = praxis::mock::MockRobot<G1>;
using Controller = praxis::control::RobotController<Mock, praxis::test::Hold<G1>>;
using Recorder = praxis::observe::Recorder<Controller>;
namespace po = praxis::observe;

const po::McapChannel* channel_by_topic(const po::McapReader& r, std::string_view topic) {
  for (const auto& [id, c] : r.channels()) {
    if (c.topic == topic) return &c;
  }
  return nullptr;
}

std::vector<const po::McapMessage*> messages_on(const po::McapReader& r, std::uint16_t channel) {
  std::vector<const po::McapMessage*> out;
  for (const auto& m : r.messages()) {
    if (m.channel == channel) out.push_back(&m);
  }
  return out;
}

// The mock story: lying, R2 held (stand), A (user control), a tilt (damping).
void script(Mock& robot) {
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 100ms, 700ms);
  robot.tap(praxis::GamepadButton::A, praxis::TimePoint{} + 900ms);
  robot.tilt(2.0, 0.3, praxis::TimePoint{} + 1500ms);
}

TEST_CASE("recorder writes every port of every cycle and the bytes decode to what the cycle held") {
  praxis::test::ScratchDir dir("recorder");
  const auto file = dir.path() / "run.mcap";
  Mock robot;
  script(robot);
  Controller controller(robot, {});
  std::vector<praxis::JointCommand<N>> sent;
  std::vector<praxis::RobotState<N>> seen;
  {
    po::RecorderOptions options;
    options.file = file;
    options.metadata = {{"robot", "g1"}, {"backend", "mock"}};
    Recorder recorder(controller, options);
    praxis::TimePoint t{};
    for (int k = 0; k < 1000; ++k) {
      controller.step(t += controller.period());
      sent.push_back(controller.actuated());
      seen.push_back(controller.last_state());
      if (k % 200 == 199) std::this_thread::sleep_for(20ms);  // simulated time outruns the ring
    }
    (void)controller.finish();
    recorder.close();
    const auto stats = recorder.stats();
    CHECK(stats.cycles_recorded == 1000);
    CHECK(stats.cycles_dropped == 0);
    CHECK(stats.bytes == std::filesystem::file_size(file));
  }
  const po::McapReader reader(file);
  REQUIRE(reader.complete());
  const std::size_t ports = Controller::graph_type::port_count;
  CHECK(reader.channels().size() == ports + 2);
  // Every port channel holds one message per cycle, in cycle order.
  for (const auto& [id, c] : reader.channels()) {
    if (c.topic.rfind("/praxis/events/", 0) == 0) continue;
    INFO(c.topic);
    const auto msgs = messages_on(reader, id);
    REQUIRE(msgs.size() == 1000);
    for (std::size_t k = 0; k < msgs.size(); ++k) CHECK(msgs[k]->sequence == k);
    CHECK(reader.schemas().at(c.schema_id).encoding == "ros2msg");
    CHECK(c.message_encoding == "cdr");
  }
  const auto* actuated = channel_by_topic(reader, "/praxis/actuated_command");
  const auto* state = channel_by_topic(reader, "/praxis/robot_state");
  REQUIRE(actuated != nullptr);
  REQUIRE(state != nullptr);
  const auto commands = messages_on(reader, actuated->id);
  const auto states = messages_on(reader, state->id);
  for (std::size_t k = 0; k < 1000; ++k) {
    praxis::JointCommand<N> c;
    REQUIRE(po::decode_cdr(std::span<const std::byte>(commands[k]->data), c));
    CHECK(std::memcmp(c.q.data(), sent[k].q.data(), sizeof(double) * N) == 0);
    CHECK(std::memcmp(c.kp.data(), sent[k].kp.data(), sizeof(double) * N) == 0);
    CHECK(std::memcmp(c.kd.data(), sent[k].kd.data(), sizeof(double) * N) == 0);
    CHECK(c.mode == sent[k].mode);
    praxis::RobotState<N> s;
    REQUIRE(po::decode_cdr(std::span<const std::byte>(states[k]->data), s));
    CHECK(std::memcmp(s.q.data(), seen[k].q.data(), sizeof(double) * N) == 0);
    CHECK(s.sequence == seen[k].sequence);
    CHECK(commands[k]->log_time == states[k]->log_time);
  }
  // Log times are the cycles' times: one period apart.
  const auto period_ns = static_cast<std::uint64_t>(std::chrono::nanoseconds(controller.period()).count());
  CHECK(states[1]->log_time - states[0]->log_time == period_ns);
  CHECK(states[999]->log_time == 1000 * period_ns);

  // Transitions by name, in the order the reporter saw them.
  const auto* transitions = channel_by_topic(reader, po::k_transitions_topic);
  REQUIRE(transitions != nullptr);
  const auto recorded = messages_on(reader, transitions->id);
  const auto reported = controller.transitions();
  REQUIRE(recorded.size() == reported.size());
  REQUIRE(recorded.size() >= 3);
  for (std::size_t k = 0; k < recorded.size(); ++k) {
    po::TransitionMessage m;
    REQUIRE(po::decode_cdr(std::span<const std::byte>(recorded[k]->data), m));
    CHECK(m.cycle == reported[k].cycle);
    CHECK(m.from == praxis::motion::to_string(reported[k].from));
    CHECK(m.to == praxis::motion::to_string(reported[k].to));
    CHECK(m.cause == praxis::motion::to_string(reported[k].cause));
  }
  // The run's facts.
  bool found = false;
  for (const auto& m : reader.metadata()) {
    if (m.name != po::k_run_metadata) continue;
    found = true;
    CHECK(m.values.at("robot") == "g1");
    CHECK(m.values.at("joints") == std::to_string(N));
    CHECK(m.values.at("ports") == std::to_string(ports));
  }
  CHECK(found);
}

TEST_CASE("recorder refuses a file it cannot create naming it") {
  Mock robot;
  Controller controller(robot, {});
  po::RecorderOptions options;
  options.file = "/nonexistent-folder/run.mcap";
  try {
    Recorder recorder(controller, options);
    FAIL("no error");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("/nonexistent-folder/run.mcap"));
  }
  CHECK(controller.observer() == nullptr);  // nothing half-attached
}

// The file may not grow past `bytes` while it lives (RLIMIT_FSIZE, its signal ignored: writes past
// the limit fail with EFBIG, as they would on a full disk). CTest runs each test case in a process of
// its own, so no other test is affected.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previous_signal_ = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_signal_);
  }

 private:
  rlimit previous_{};
  void (*previous_signal_)(int) = nullptr;
};

TEST_CASE("recorder refuses a file it cannot write at all naming it") {
  Mock robot;
  Controller controller(robot, {});
  po::RecorderOptions options;
  options.file = "/dev/full";
  CHECK_THROWS_WITH(Recorder(controller, options), Catch::Contains("/dev/full"));
  CHECK(controller.observer() == nullptr);
}

TEST_CASE("recorder on a disk that fills up stops recording and the run goes on") {
  praxis::test::ScratchDir dir("recorder-full");
  Mock robot;
  script(robot);
  Controller controller(robot, {});
  po::RecorderOptions options;
  options.file = dir.path() / "run.mcap";
  options.mcap.chunk_bytes = 16 * 1024;  // chunks go to the disk often
  const FileSizeLimit limit(200 * 1024);
  Recorder recorder(controller, options);
  praxis::TimePoint t{};
  for (int k = 0; k < 400; ++k) {
    controller.step(t += controller.period());
    if (k % 100 == 99) std::this_thread::sleep_for(20ms);
  }
  CHECK(controller.cycles() == 400);
  CHECK(controller.state() != praxis::control::ControlState::damping);  // standing by now: the run went on
  try {
    recorder.close();
    FAIL("no error");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("run.mcap") && Catch::Contains("recording stopped"));
  }
  CHECK(recorder.failed());
  CHECK(recorder.stats().cycles_recorded == 400);  // encoded and served live all along
}

TEST_CASE("recorder serves live without a file and keeps the server's counts after close") {
  Mock robot;
  Controller controller(robot, {});
  po::RecorderOptions options;
  options.live = po::LiveOptions{};
  options.live->port = 0;
  Recorder recorder(controller, options);
  CHECK(recorder.live_port() != 0);
  CHECK(recorder.channels().size() == Controller::graph_type::port_count + 2);
  praxis::TimePoint t{};
  for (int k = 0; k < 50; ++k) controller.step(t += controller.period());
  recorder.drain();
  recorder.close();
  const auto stats = recorder.stats();
  CHECK(stats.cycles_recorded == 50);
  CHECK(stats.messages == 0);  // no file
  REQUIRE(stats.live.has_value());
  CHECK(stats.live->accepted == 0);
  CHECK(recorder.live_port() == 0);  // stopped
}

TEST_CASE("recorder records a behaviour-driven MotionController and shows its command by projection") {
  using Modal = praxis::mock::ModalRobot<G1>;
  using Motions = praxis::control::MotionController<Modal, praxis::control::CommandInput>;
  praxis::test::ScratchDir dir("recorder-motion");
  const auto file = dir.path() / "run.mcap";
  Modal robot;
  praxis::script::ScriptLibrary<G1> library;
  praxis::control::MotionOptions mo;
  mo.print = false;
  Motions controller(robot, library, mo);
  {
    po::RecorderOptions options;
    options.file = file;
    po::Recorder<Motions> recorder(controller, options);
    CHECK(recorder.unrecorded_ports().empty());
    praxis::TimePoint t{};
    for (int k = 0; k < 300; ++k) {
      if (k == 100) controller.behaviour().command = praxis::motion::command::Prepare{};
      controller.step(t += controller.period());
    }
    recorder.close();
  }
  const po::McapReader reader(file);
  const auto* command = channel_by_topic(reader, "/motion_command");
  REQUIRE(command != nullptr);
  CHECK(reader.schemas().at(command->schema_id).name == "praxis_msgs/msg/MotionCommandView");
  const auto msgs = messages_on(reader, command->id);
  REQUIRE(msgs.size() == 300);
  const auto alternative = [&](std::size_t k) { return static_cast<std::uint8_t>(msgs[k]->data[4]); };
  CHECK(alternative(99) == praxis::motion::MotionCommand{praxis::motion::command::Unset{}}.index());
  CHECK(alternative(100) == praxis::motion::MotionCommand{praxis::motion::command::Prepare{}}.index());
  CHECK(channel_by_topic(reader, "/praxis/robot_requests") != nullptr);
}

TEST_CASE("recorder costs the control thread no allocation") {
  praxis::test::ScratchDir dir("recorder-alloc");
  Mock robot;
  script(robot);
  Controller controller(robot, {});
  po::RecorderOptions options;
  options.file = dir.path() / "run.mcap";
  // Room for every cycle: the steps come as fast as the machine allows, and under ASan on a loaded
  // CI machine the writer thread fell 156 cycles behind a ring of 2048 (a drop, counted, is what the
  // ring is for; this test is about allocations).
  options.capacity = 4096;
  Recorder recorder(controller, options);
  praxis::TimePoint t{};
  for (int k = 0; k < 20; ++k) controller.step(t += controller.period());  // start-up allocates
  const auto before = praxis::test::thread_allocation_count();
  for (int k = 0; k < 3000; ++k) {
    controller.step(t += controller.period());
    if (k % 500 == 499) std::this_thread::sleep_for(20ms);
  }
  CHECK(praxis::test::thread_allocation_count() - before == 0);
  recorder.close();
  CHECK(recorder.stats().cycles_recorded == 3020);
}

// A user's port, recorded as CSV (these were the tests of control::PortRecorder, which this
// replaced): an estimator whose value differs every cycle, so a row from the wrong cycle shows.
struct KneeEstimate {
  BOOST_HANA_DEFINE_STRUCT(KneeEstimate, (double, mean), (std::array<double, 2>, front), (bool, bent));
};
struct KneeEstimatePort : praxis::port<"test/knee_estimate", KneeEstimate> {};
struct KneeEstimator {
  using inputs = praxis::ports<praxis::StatePort<N>>;
  using outputs = praxis::ports<KneeEstimatePort>;
  int runs = 0;
  void cycle(const praxis::RobotState<N>& s, KneeEstimate& out) {
    const double drift = 0.001 * runs++;
    out.front = {s.q[2] + drift, s.q[5] + drift};
    out.mean = 0.5 * (out.front[0] + out.front[1]);
    out.bent = out.mean > 1.0;
  }
};
using EstimatingController = praxis::control::RobotController<Mock, praxis::test::Hold<G1>, KneeEstimator>;
using EstimatingRecorder = praxis::observe::Recorder<EstimatingController>;

std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST_CASE("recorder writes a user's port as CSV every k-th cycle with its field names as the header") {
  praxis::test::ScratchDir dir("recorder-csv");
  const auto file = dir.path() / "knees.csv";
  Mock robot;
  EstimatingController controller(robot, {});
  po::RecorderOptions options;  // CSV alone: no MCAP file, no live view
  options.csv = {{"test/knee_estimate", file, 2}};
  EstimatingRecorder recorder(controller, options);
  const praxis::TimePoint t0 = praxis::Clock::now();
  std::vector<double> means;
  for (int k = 0; k < 200; ++k) {
    controller.step(t0 + k * 2ms);
    if (k % 2 == 0) means.push_back(controller.graph().get<KneeEstimatePort>().mean);
  }
  recorder.drain();
  recorder.close();
  CHECK(recorder.stats().cycles_dropped == 0);
  CHECK(recorder.stats().csv_rows == 100);

  const auto rows = read_csv(file);
  REQUIRE(rows.size() == 101);
  CHECK(rows[0] == std::vector<std::string>{"time", "cycle", "mean", "front[0]", "front[1]", "bent"});
  CHECK(std::stod(rows[1][0]) == 0.0);
  CHECK(std::stod(rows[2][0]) == Approx(0.004));  // every second cycle of 2 ms
  CHECK(rows[2][1] == "2");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == 6);
    CHECK(std::stod(rows[r][2]) == means[r - 1]);  // shortest round-trip text: exact
    CHECK(std::stod(rows[r][2]) == Approx(0.5 * (std::stod(rows[r][3]) + std::stod(rows[r][4]))));
  }
}

TEST_CASE("recorder writing CSV costs the control thread no allocation") {
  praxis::test::ScratchDir dir("recorder-csv-alloc");
  Mock robot;
  EstimatingController controller(robot, {});
  po::RecorderOptions options;
  options.csv = {{"test/knee_estimate", dir.path() / "knees.csv", 1},
                 {"praxis/actuated_command", dir.path() / "command.csv", 5}};
  options.capacity = 4096;
  EstimatingRecorder recorder(controller, options);
  const praxis::TimePoint t0 = praxis::Clock::now();
  controller.step(t0);  // start-up (reporter, lifecycle) allocates once
  const auto before = praxis::test::thread_allocation_count();
  for (int k = 1; k < 500; ++k) controller.step(t0 + k * 2ms);
  CHECK(praxis::test::thread_allocation_count() - before == 0);
  recorder.drain();
  recorder.close();
  CHECK(recorder.stats().csv_rows == 500 + 100);
  CHECK(read_csv(dir.path() / "command.csv").size() == 101);
}

TEST_CASE("recorder refuses a CSV it cannot write, a port the graph lacks and every 0, naming them") {
  Mock robot;
  EstimatingController controller(robot, {});
  const auto refused = [&](po::CsvPort c) {
    po::RecorderOptions options;
    options.csv = {std::move(c)};
    try {
      EstimatingRecorder recorder(controller, options);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(refused({"test/knee_estimate", "/nonexistent-dir/estimate.csv", 1}),
             Catch::Contains("/nonexistent-dir/estimate.csv"));
  CHECK_THAT(refused({"test/knee_estimates", "k.csv", 1}),
             Catch::Contains("\"test/knee_estimates\"") && Catch::Contains("no port of that name") &&
                 Catch::Contains("praxis/robot_state"));
  CHECK_THAT(refused({"test/knee_estimate", "k.csv", 0}), Catch::Contains("every must be at least 1"));
  // The robot's state holds a quaternion, which has no columns: the MCAP file records it.
  CHECK_THAT(refused({"praxis/robot_state", "s.csv", 1}), Catch::Contains("does not flatten into numbers"));
  CHECK(controller.observer() == nullptr);  // nothing half-attached
  controller.step(praxis::Clock::now());    // and the cycle runs as without a recorder
  CHECK(controller.cycles() == 1);
}

}  // namespace observe_recorder_test
}  // namespace
