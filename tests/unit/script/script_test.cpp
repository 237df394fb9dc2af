// The script engine: loading and validation, interpolation timing, scaling, sequences and
// priorities, checked against hand-computed values.

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "../../support/alloc_counter.hpp"
#include "../../support/scratch_dir.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/library.hpp"
#include "praxis/script/loader.hpp"
#include "praxis/script/player.hpp"

namespace script_test {

using namespace std::chrono_literals;
using Go2 = praxis::unitree::Go2;
using praxis::script::ExecuteScript;
using praxis::script::JointTargets;
using praxis::script::ScriptError;
using praxis::script::ScriptPlayer;

namespace {

praxis::TimePoint at(double s) { return praxis::TimePoint{} + praxis::from_seconds(s); }

// FR_hip to 0.5 in 1 s; then FR_hip to 0 and FR_thigh to 1.0 in 0.5 s.
const char* k_two_frames = R"([
  {"duration": 1000, "targets": [{"id": "FR_hip", "position": 0.5, "gain": 30, "torque": 100}]},
  {"duration": 500, "targets": [{"id": "FR_hip", "position": 0.0, "gain": 30, "torque": 100},
                                {"id": "FR_thigh", "position": 1.0, "gain": 20, "torque": 50}]}
])";

praxis::JointVector<12> start_pose() {
  praxis::JointVector<12> q;
  for (int j = 0; j < 12; ++j) q[j] = Go2::rest_pose[static_cast<std::size_t>(j)];
  return q;
}

ExecuteScript<12> request(const praxis::script::Script<12>& s, int priority = 0, double start = 0.0) {
  ExecuteScript<12> r;
  r.priority = priority;
  r.scripts[0] = &s;
  r.count = 1;
  r.start = at(start);
  return r;
}

std::string error_of(const std::string& text) {
  try {
    (void)praxis::script::parse_script<Go2>(text, "bad.json");
  } catch (const ScriptError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("positions follow the frames, from the current position, as computed by hand", "[script]") {
  const auto s = praxis::script::parse_script<Go2>(k_two_frames, "two");
  CHECK(s.total() == 1500ms);
  CHECK(s.joints.count() == 2);
  ScriptPlayer<12> player;
  const auto q0 = start_pose();
  REQUIRE(player.execute(request(s), q0));
  JointTargets<12> out;

  player.evaluate(at(0.5), out);
  CHECK(out.owned.test(0));
  CHECK(out.owned.test(1));
  CHECK(!out.owned.test(2));
  CHECK(out.q[0] == Approx(q0[0] + 0.5 * (0.5 - q0[0])));
  CHECK(out.q[1] == Approx(q0[1]));  // not in frame 0: holds where it was
  CHECK(out.kp[0] == Approx(30.0));
  CHECK(out.kd[0] == Approx(1.5));    // kd = 0.05 s * kp
  CHECK(out.kp[1] == Approx(10.0));   // gain 20 at torque 50 %, back-filled into frame 0

  player.evaluate(at(1.25), out);
  CHECK(out.q[0] == Approx(0.25));
  CHECK(out.q[1] == Approx(q0[1] + 0.5 * (1.0 - q0[1])));
  CHECK(!player.finished(at(1.25)));

  player.evaluate(at(2.0), out);  // after the end: hold the last frame
  CHECK(out.q[0] == Approx(0.0));
  CHECK(out.q[1] == Approx(1.0));
  CHECK(player.finished(at(2.0)));
  CHECK(out.owned.test(0));
}

TEST_CASE("a duration override scales every frame", "[script]") {
  const auto s = praxis::script::parse_script<Go2>(k_two_frames, "two");
  ScriptPlayer<12> player;
  auto r = request(s);
  r.duration = 3s;  // twice as slow
  const auto q0 = start_pose();
  REQUIRE(player.execute(r, q0));
  JointTargets<12> out;
  player.evaluate(at(1.0), out);
  CHECK(out.q[0] == Approx(q0[0] + 0.5 * (0.5 - q0[0])));
  player.evaluate(at(2.5), out);
  CHECK(out.q[0] == Approx(0.25));
  CHECK(!player.finished(at(2.9)));
  CHECK(player.finished(at(3.0)));
}

TEST_CASE("a request waits for its start time", "[script]") {
  const auto s = praxis::script::parse_script<Go2>(k_two_frames, "two");
  ScriptPlayer<12> player;
  REQUIRE(player.execute(request(s, 0, 1.0), start_pose()));
  JointTargets<12> out;
  player.evaluate(at(0.9), out);
  CHECK(out.owned.none());
  player.evaluate(at(1.5), out);
  CHECK(out.owned.test(0));
}

TEST_CASE("a sequence plays back to back, each script starting where the last ended", "[script]") {
  const auto a = praxis::script::parse_script<Go2>(
      R"([{"duration": 1000, "targets": [{"id": "FR_calf", "position": -2.0, "gain": 30, "torque": 100}]}])", "a");
  const auto b = praxis::script::parse_script<Go2>(
      R"([{"duration": 1000, "targets": [{"id": "FR_calf", "position": -1.0, "gain": 30, "torque": 100}]}])", "b");
  ScriptPlayer<12> player;
  ExecuteScript<12> r;
  r.scripts = {&a, &b};
  r.count = 2;
  REQUIRE(player.execute(r, start_pose()));
  JointTargets<12> out;
  player.evaluate(at(1.5), out);
  CHECK(out.q[2] == Approx(-1.5));
  player.evaluate(at(2.0), out);
  CHECK(out.q[2] == Approx(-1.0));
  CHECK(player.finished(at(2.0)));
  CHECK(!player.finished(at(1.99)));
}

TEST_CASE("priorities: higher takes its joints, lower keeps the rest, equal: newer wins", "[script]") {
  const auto legs = praxis::script::parse_script<Go2>(R"([{"duration": 100, "targets": [
      {"id": "FR_hip", "position": 0.1, "gain": 30, "torque": 100},
      {"id": "FR_thigh", "position": 1.1, "gain": 30, "torque": 100}]}])", "legs");
  const auto other = praxis::script::parse_script<Go2>(R"([{"duration": 100, "targets": [
      {"id": "FR_thigh", "position": 2.2, "gain": 30, "torque": 100},
      {"id": "FR_calf", "position": -2.2, "gain": 30, "torque": 100}]}])", "other");
  const auto q0 = start_pose();
  JointTargets<12> out;
  {
    ScriptPlayer<12> player;
    REQUIRE(player.execute(request(legs, 1), q0));
    REQUIRE(player.execute(request(other, 5), q0));
    player.evaluate(at(0.5), out);
    CHECK(out.q[0] == Approx(0.1));   // only "legs" uses FR_hip
    CHECK(out.q[1] == Approx(2.2));   // both: priority 5 wins
    CHECK(out.q[2] == Approx(-2.2));
  }
  {
    ScriptPlayer<12> player;
    REQUIRE(player.execute(request(other, 5), q0));
    REQUIRE(player.execute(request(legs, 1), q0));  // newer but lower: still loses FR_thigh
    player.evaluate(at(0.5), out);
    CHECK(out.q[1] == Approx(2.2));
    CHECK(out.q[0] == Approx(0.1));
  }
  {
    ScriptPlayer<12> player;
    REQUIRE(player.execute(request(other, 3), q0));
    REQUIRE(player.execute(request(legs, 3), q0));  // equal priority: the newer one wins
    player.evaluate(at(0.5), out);
    CHECK(out.q[1] == Approx(1.1));
    CHECK(out.q[2] == Approx(-2.2));
  }
}

TEST_CASE("torque 0 makes a joint limp", "[script]") {
  const auto s = praxis::script::parse_script<Go2>(
      R"([{"duration": 100, "targets": [{"id": "RL_calf", "position": -1.5, "gain": 30, "torque": 0}]}])", "limp");
  ScriptPlayer<12> player;
  REQUIRE(player.execute(request(s), start_pose()));
  JointTargets<12> out;
  player.evaluate(at(0.2), out);
  CHECK(out.kp[11] == 0.0);
  CHECK(out.kd[11] == 0.0);
}

TEST_CASE("playing scripts allocates nothing", "[script][realtime]") {
  const auto s = praxis::script::parse_script<Go2>(k_two_frames, "two");
  ScriptPlayer<12> player;
  JointTargets<12> out;
  const auto q0 = start_pose();
  praxis::test::AllocationScope scope;
  for (int k = 0; k < 100; ++k) {
    auto r = request(s, k % 3, 0.02 * k);
    r.duration = 15ms;  // done before the next one starts, so finished requests get reused
    REQUIRE(player.execute(r, q0));
    for (int i = 0; i < 20; ++i) player.evaluate(at(0.02 * k + 0.001 * i), out);
  }
  CHECK(scope.allocations() == 0);
  CHECK(out.owned.test(0));
}

TEST_CASE("a full player refuses new requests while all of them still run", "[script]") {
  const auto s = praxis::script::parse_script<Go2>(k_two_frames, "two");
  ScriptPlayer<12, 2> player;
  const auto q0 = start_pose();
  REQUIRE(player.execute(request(s, 0, 0.0), q0));
  REQUIRE(player.execute(request(s, 1, 0.0), q0));
  CHECK(!player.execute(request(s, 2, 0.0), q0));
  JointTargets<12> out;
  player.evaluate(at(2.0), out);  // both finished; the lower-priority one lost its joints
  CHECK(player.execute(request(s, 2, 2.0), q0));
}

TEST_CASE("every class of bad script is an error naming file, frame and target", "[script][errors]") {
  CHECK_THAT(error_of(R"({"duration": 1})"), Catch::Contains("bad.json: expected a list of frames, found an object"));
  CHECK_THAT(error_of("[]"), Catch::Contains("bad.json: the script has no frames"));
  CHECK_THAT(error_of("[{\"duration\": 1,\n \"targets\": [}]"), Catch::Contains("bad.json:2: not valid JSON"));
  CHECK_THAT(error_of(R"([{"targets": []}])"), Catch::Contains("bad.json: frame 0: missing field \"duration\""));
  CHECK_THAT(error_of(R"([{"duration": -5, "targets": []}])"),
             Catch::Contains("frame 0: field \"duration\" must be >= 0 ms, found -5"));
  CHECK_THAT(error_of(R"([{"duration": "1s", "targets": []}])"),
             Catch::Contains("frame 0: field \"duration\" must be a number, found a string"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [], "speed": 2}])"),
             Catch::Contains("frame 0: unknown field \"speed\""));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": []}, {"duration": 1}])"),
             Catch::Contains("frame 1: missing field \"targets\""));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_knee", "position": 0, "gain": 1, "torque": 100}]}])"),
             Catch::Contains("frame 0, target 0: unknown joint \"FR_knee\" (go2 joints: FR_hip, FR_thigh"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_hip", "gain": 1, "torque": 100}]}])"),
             Catch::Contains("frame 0, target 0: missing field \"position\""));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_hip", "position": 0, "gain": 1, "torque": 100},
                                                     {"id": "FR_calf", "position": "x", "gain": 1, "torque": 100}]}])"),
             Catch::Contains("frame 0, target 1: field \"position\" must be a number, found a string"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_hip", "position": 0, "gain": 1, "torque": 150}]}])"),
             Catch::Contains("target 0: field \"torque\" must be between 0 and 100"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_hip", "position": 0, "gain": -1, "torque": 1}]}])"),
             Catch::Contains("target 0: field \"gain\" must be >= 0"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": "FR_hip", "position": 0, "gain": 1, "torque": 1},
                                                     {"id": "FR_hip", "position": 0, "gain": 1, "torque": 1}]}])"),
             Catch::Contains("target 1: joint \"FR_hip\" is targeted twice in one frame"));
  CHECK_THAT(error_of(R"([{"duration": 1, "targets": [{"id": 3, "position": 0, "gain": 1, "torque": 1}]}])"),
             Catch::Contains("target 0: field \"id\" must be a joint name, found a number"));
}

TEST_CASE("positions outside the joint limits are rejected on load", "[script][errors]") {
  const praxis::test::ScratchDir scratch("script_limits");
  const auto& dir = scratch.path();
  scratch.write("far.json", R"([{"duration": 1, "targets": [{"id": "FR_calf", "position": 0.5, "gain": 1, "torque": 100}]}])");
  CHECK_THROWS_WITH(praxis::script::load_script<Go2>(dir / "far.json"),
                    Catch::Contains("far.json: frame 0, target 0: joint \"FR_calf\" position 0.5") &&
                        Catch::Contains("is outside its limits"));
  CHECK_THROWS_WITH(praxis::script::load_script<Go2>(dir / "missing.json"),
                    Catch::Contains("missing.json: script file not found"));
  praxis::script::ScriptLibrary<Go2> library;
  CHECK_THROWS_AS(library.load_folder(dir), ScriptError);
  CHECK(library.size() == 0);  // nothing half-loaded
}

TEST_CASE("the shipped scripts load for their robots and resolve by name", "[script]") {
  praxis::script::ScriptLibrary<Go2> go2;
  go2.load_folder(PRAXIS_SOURCE_DIR "/examples/scripts/go2");
  CHECK(go2.size() == 3);
  REQUIRE(go2.find("wave") != nullptr);
  praxis::script::ExecuteScriptByName by_name;
  by_name.names = {"sit", "wave"};
  by_name.count = 2;
  by_name.priority = 2;
  const auto r = go2.resolve(by_name);
  REQUIRE(r.has_value());
  CHECK(r->scripts[1] == go2.find("wave"));
  by_name.names[1] = "dance";
  CHECK(!go2.resolve(by_name).has_value());

  praxis::script::ScriptLibrary<praxis::unitree::G1> g1;
  g1.load_folder(PRAXIS_SOURCE_DIR "/examples/scripts/g1");
  CHECK(g1.size() == 3);
  CHECK(g1.find("crouch") != nullptr);
  CHECK(g1.find("stand")->joints.count() == 29);
}

}  // namespace script_test
