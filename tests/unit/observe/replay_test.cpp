// observe/replay.hpp: a recorded mock run replayed through the same configuration is bit-identical on
// every port; a one-gain change is reported at the first cycle the user's controller commands, on
// the user's port first; a recording with missing cycles or inputs is refused naming the file;
// ReplayBackend has its backend's traits.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "../../support/hold.hpp"
#include "../../support/scratch_dir.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/mock/modal_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/observe/replay.hpp"

namespace {
namespace observe_replay_test {

using namespace std::chrono_literals;
using G1 = praxis::unitree::G1;
constexpr std::size_t N = G1::joint_count;
using Mock = praxis::mock::MockRobot<G1>;
using Ctrl = praxis::test::Hold<G1>;
using Recorded = praxis::control::RobotController<Mock, Ctrl>;
using Replaying = praxis::control::RobotController<praxis::observe::ReplayBackend<Mock>, Ctrl>;
namespace po = praxis::observe;

praxis::control::ControllerOptions quiet() {
  praxis::control::ControllerOptions o;
  o.print = false;
  return o;
}

// The mock story, recorded: lying, R2 held (stand), A (the user's controller), a tilt (damping).
// Returns the cycle the user's controller was entered in.
std::uint64_t record_story(const std::filesystem::path& file, std::size_t capacity = 2048, bool pause = true) {
  Mock robot;
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 100ms, 700ms);
  robot.tap(praxis::GamepadButton::A, praxis::TimePoint{} + 900ms);
  robot.tilt(2.0, 0.3, praxis::TimePoint{} + 1500ms);
  Recorded controller(robot, quiet());
  po::RecorderOptions options;
  options.file = file;
  options.capacity = capacity;
  po::Recorder<Recorded> recorder(controller, options);
  praxis::TimePoint t{};
  for (int k = 0; k < 1000; ++k) {
    controller.step(t += controller.period());
    if (pause && k % 100 == 99) recorder.drain();
  }
  recorder.close();
  std::uint64_t entered = 0;
  controller.flush();
  for (const auto& e : controller.transitions()) {
    if (e.to == praxis::motion::MotionType::user_control && entered == 0) entered = e.cycle;
  }
  return entered;
}

TEST_CASE("replay of a recorded mock run is bit-identical on every port and re-recorded beside it") {
  praxis::test::ScratchDir dir("replay");
  const auto file = dir.path() / "run.mcap";
  const auto entered = record_story(file);
  REQUIRE(entered > 0);
  const po::McapReader recording(file);
  po::ReplayBackend<Mock> robot;
  Replaying controller(robot, quiet());
  po::ReplayOptions options;
  options.rerecord = dir.path() / "run.replay.mcap";
  const auto report = po::replay(controller, robot, recording, file, options);
  INFO(report.summary());
  CHECK(report.identical());
  CHECK(report.cycles == 1000);
  CHECK(report.compared == 1000 * Replaying::graph_type::port_count);
  CHECK(report.differing_cycles == 0);
  CHECK(robot.writes() > 0);
  // The new run, recorded beside the old one, holds the same messages byte for byte.
  const po::McapReader again(*report.rerecorded);
  REQUIRE(again.messages().size() == recording.messages().size());
  std::size_t same = 0;
  for (std::size_t k = 0; k < again.messages().size(); ++k) {
    const auto& a = again.messages()[k];
    const auto& b = recording.messages()[k];
    same += (a.data == b.data && a.log_time == b.log_time && a.sequence == b.sequence) ? 1 : 0;
  }
  CHECK(same == recording.messages().size());
}

TEST_CASE("replay with one gain changed reports the first cycle of user control on the user's port") {
  praxis::test::ScratchDir dir("replay-gain");
  const auto file = dir.path() / "run.mcap";
  const auto entered = record_story(file);
  const po::McapReader recording(file);
  po::ReplayBackend<Mock> robot;
  Replaying controller(robot, quiet());
  controller.user().kp = 61.0;  // recorded with 60
  const auto report = po::replay(controller, robot, recording, file);
  INFO(report.summary());
  REQUIRE_FALSE(report.identical());
  REQUIRE_FALSE(report.first.empty());
  // The first cycle the user's controller commanded the joints is where the commands part ways.
  CHECK(report.first.front().cycle == entered);
  // Upstream first: the user's own command, then what the guard and the sender made of it.
  CHECK(report.first.front().port.find("user_control") != std::string::npos);
  bool actuated = false;
  for (const auto& d : report.first) {
    if (d.port == "praxis/actuated_command") {
      actuated = true;
      CHECK(d.field.rfind("kp[", 0) == 0);  // the gain, not the target
    }
    CHECK(d.cycle == entered);
  }
  CHECK(actuated);
  CHECK(report.summary().find("first at cycle " + std::to_string(entered)) != std::string::npos);
}

TEST_CASE("replay refuses a recording with cycles missing naming the file") {
  praxis::test::ScratchDir dir("replay-gap");
  const auto file = dir.path() / "run.mcap";
  // A ring of 16 and no pauses: simulated time outruns the writer, which drops cycles.
  record_story(file, 16, false);
  const po::McapReader recording(file);
  po::ReplayBackend<Mock> robot;
  Replaying controller(robot, quiet());
  CHECK_THROWS_WITH(po::replay(controller, robot, recording, file),
                    Catch::Contains(file.string()) && Catch::Contains("dropped"));
}

TEST_CASE("replay refuses a recording with a cycle missing in the middle naming the cycle") {
  praxis::test::ScratchDir dir("replay-hole");
  const auto file = dir.path() / "run.mcap";
  record_story(file);
  // The same file without cycle 500 (and without the recorder's closing counts): a hole only the
  // sequence numbers show.
  const auto holed = dir.path() / "holed.mcap";
  {
    const po::McapReader whole(file);
    po::McapWriter writer(holed);
    std::map<std::uint16_t, std::uint16_t> schema, channel;
    for (const auto& [id, sc] : whole.schemas()) schema[id] = writer.add_schema(sc.name, sc.encoding, sc.data);
    for (const auto& [id, c] : whole.channels()) channel[id] = writer.add_channel(schema[c.schema_id], c.topic, c.message_encoding);
    for (const auto& m : whole.messages()) {
      if (m.sequence != 500) writer.write(channel[m.channel], m.sequence, m.log_time, m.publish_time, m.data);
    }
    writer.close();
  }
  const po::McapReader recording(holed);
  po::ReplayBackend<Mock> robot;
  Replaying controller(robot, quiet());
  CHECK_THROWS_WITH(po::replay(controller, robot, recording, holed),
                    Catch::Contains("holed.mcap") && Catch::Contains("cycles 500 to 500 are missing"));
}

TEST_CASE("replay of a file cut inside a cycle leaves that cycle out and replays the rest") {
  praxis::test::ScratchDir dir("replay-cut");
  const auto file = dir.path() / "run.mcap";
  record_story(file);
  // Cycles 0..600 whole, then cycle 601 without its robot state: as a killed recorder leaves a file
  // whose last whole chunk ended inside a cycle. Copied while the writer is open: no summary, no
  // footer, the file as the disk holds it.
  const auto cut = dir.path() / "cut.mcap";
  const auto whole_but_partial = dir.path() / "partial.mcap";
  for (const bool complete : {false, true}) {
    const po::McapReader source(file);
    const auto out = complete ? whole_but_partial : dir.path() / "writing.mcap";
    po::McapWriter writer(out);
    std::map<std::uint16_t, std::uint16_t> schema, channel;
    std::uint16_t state_channel = 0;
    for (const auto& [id, sc] : source.schemas()) schema[id] = writer.add_schema(sc.name, sc.encoding, sc.data);
    for (const auto& [id, c] : source.channels()) {
      channel[id] = writer.add_channel(schema[c.schema_id], c.topic, c.message_encoding);
      if (c.topic == "/praxis/robot_state") state_channel = id;
    }
    for (const auto& m : source.messages()) {
      if (m.sequence > 601 || (m.sequence == 601 && m.channel == state_channel)) continue;
      writer.write(channel[m.channel], m.sequence, m.log_time, m.publish_time, m.data);
    }
    writer.flush();
    if (!complete) std::filesystem::copy_file(out, cut);
    writer.close();
  }
  {
    const po::McapReader recording(cut);
    REQUIRE_FALSE(recording.complete());
    po::ReplayBackend<Mock> robot;
    Replaying controller(robot, quiet());
    const auto report = po::replay(controller, robot, recording, cut);
    INFO(report.summary());
    CHECK(report.identical());
    CHECK(report.cut_cycle);
    CHECK(report.cycles == 601);
  }
  {
    // The same cycle in a complete file is damage, not a cut: refused, naming the cycle and topic.
    const po::McapReader recording(whole_but_partial);
    REQUIRE(recording.complete());
    po::ReplayBackend<Mock> robot;
    Replaying controller(robot, quiet());
    CHECK_THROWS_WITH(po::replay(controller, robot, recording, whole_but_partial),
                      Catch::Contains("cycle 601 has no message on /praxis/robot_state"));
  }
}

TEST_CASE("replay refuses a recording without the cycle inputs") {
  praxis::test::ScratchDir dir("replay-inputs");
  const auto file = dir.path() / "other.mcap";
  {
    po::McapWriter writer(file);
    const auto schema = writer.add_schema("praxis_msgs/msg/X", "ros2msg", "float64 value\n");
    writer.add_channel(schema, "/something_else", "cdr");
    writer.close();
  }
  const po::McapReader recording(file);
  po::ReplayBackend<Mock> robot;
  Replaying controller(robot, quiet());
  CHECK_THROWS_WITH(po::replay(controller, robot, recording, file),
                    Catch::Contains("/praxis/robot_state") && Catch::Contains("other.mcap"));
}

TEST_CASE("replay backend has the traits of the backend it stands in for") {
  using Modal = praxis::mock::ModalRobot<G1>;
  using R = po::ReplayBackend<Modal>;
  STATIC_REQUIRE(praxis::Backend<R>);
  STATIC_REQUIRE(praxis::ReportsStatus<R> == praxis::ReportsStatus<Modal>);
  STATIC_REQUIRE(praxis::PostsRequests<R> == praxis::PostsRequests<Modal>);
  STATIC_REQUIRE(praxis::HasLifecycle<R> == praxis::HasLifecycle<Modal>);
  STATIC_REQUIRE(praxis::safe_state_of<R>() == praxis::safe_state_of<Modal>());
  STATIC_REQUIRE(praxis::capabilities_of<R>().modes == praxis::capabilities_of<Modal>().modes);
  STATIC_REQUIRE(praxis::ReportsStatus<po::ReplayBackend<Mock>> == praxis::ReportsStatus<Mock>);
  STATIC_REQUIRE(praxis::PostsRequests<po::ReplayBackend<Mock>> == praxis::PostsRequests<Mock>);
  STATIC_REQUIRE(praxis::joint_modes_of<po::ReplayBackend<Mock>>().bits == praxis::joint_modes_of<Mock>().bits);
  // It serves what it is given, and reports no state before it is given one.
  po::ReplayBackend<Mock> robot;
  praxis::RobotState<N> s;
  CHECK_FALSE(robot.read(s, {}));
  praxis::control::CycleInput<N> in;
  in.state.q[2] = 0.5;
  in.info.have_state = true;
  robot.serve(in);
  CHECK(robot.read(s, {}));
  CHECK(s.q[2] == 0.5);
}

}  // namespace observe_replay_test
}  // namespace
