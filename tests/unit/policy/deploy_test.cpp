// policy/deploy.hpp: the deploy file read whole (every key, its defaults, the policy path resolved
// against the file's folder) and each kind of mistake refused with the file, the key as a JSON
// pointer and what was expected.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../support/scratch_dir.hpp"
#include "praxis/policy/deploy.hpp"

namespace deploy_test {

using praxis::policy::CommandSource;
using praxis::policy::DeployConfig;
using praxis::policy::HistoryOrder;
using praxis::policy::ObsTerm;
using praxis::policy::PolicyError;
using praxis::policy::StickMapping;
using praxis::policy::TargetRate;
using Json = nlohmann::json;

const std::filesystem::path k_file = "policies/walk/deploy.json";

// A complete deploy file for a 4-joint policy.
Json full() {
  return Json::parse(R"({
    "policy": "walk.onnx",
    "input": "obs", "output": "actions",
    "recurrent": [{"input": "h_in", "output": "h_out"}, {"input": "c_in", "output": "c_out"}],
    "loop_hz": 500, "policy_hz": 50,
    "joint_names": ["left_knee", "left_hip_pitch", "right_knee", "right_hip_pitch"],
    "default_pose": [0.3, -0.1, 0.3, -0.1],
    "kp": 100, "kd": [2, 2.5, 2, 2.5],
    "action": {"scale": 0.25, "clip": 100.0},
    "observation": {
      "terms": [{"name": "base_ang_vel", "scale": 0.25}, {"name": "projected_gravity"},
                {"name": "velocity_command", "scale": [2.0, 2.0, 0.25]},
                {"name": "joint_pos_rel"}, {"name": "joint_vel_rel", "scale": 0.05},
                {"name": "last_action"}, {"name": "phase", "period": 0.8}],
      "clip": 100.0, "history_length": 3, "history_order": "frame_major"
    },
    "command": {"source": "gamepad", "max": [1.0, 0.5, 1.2]},
    "blend_in": 1.0
  })");
}

// The smallest file: every optional key left out.
Json minimal() {
  return Json::parse(R"({
    "loop_hz": 200, "policy_hz": 200,
    "joint_names": ["a", "b"], "default_pose": [0, 0], "kp": 10, "kd": 1,
    "action": {"scale": [0.5, 0.25]},
    "observation": {"terms": [{"name": "joint_pos_rel"}, {"name": "last_action"}]},
    "blend_in": 0
  })");
}

DeployConfig parse(const Json& j) { return praxis::policy::parse_deploy(j.dump(), k_file); }

// The message a refused file gives.
std::string refusal(const Json& j) {
  try {
    (void)parse(j);
  } catch (const PolicyError& e) {
    return e.what();
  }
  FAIL("the deploy file was accepted: " << j.dump());
  return {};
}

struct Mistake {
  std::string what;
  std::function<void(Json&)> edit;
  std::vector<std::string> message;  // fragments the message must hold (the file name is checked always)
};

TEST_CASE("deploy: a complete file is read whole", "[policy][deploy]") {
  const auto c = parse(full());
  CHECK(c.file == k_file);
  CHECK(c.policy == std::filesystem::path("policies/walk/walk.onnx"));  // next to the deploy file
  CHECK(c.input == "obs");
  CHECK(c.output == "actions");
  REQUIRE(c.recurrent.size() == 2);
  CHECK(c.recurrent[1].input == "c_in");
  CHECK(c.recurrent[1].output == "c_out");
  CHECK(c.loop_hz == 500.0);
  CHECK(c.policy_hz == 50.0);
  CHECK(c.decimation == 10);
  CHECK(c.joint_names == std::vector<std::string>{"left_knee", "left_hip_pitch", "right_knee", "right_hip_pitch"});
  CHECK(c.default_pose == std::vector<double>{0.3, -0.1, 0.3, -0.1});
  CHECK(c.kp == std::vector<double>{100, 100, 100, 100});  // one number for every joint
  CHECK(c.kd == std::vector<double>{2, 2.5, 2, 2.5});
  CHECK(c.action_scale == std::vector<double>{0.25, 0.25, 0.25, 0.25});
  REQUIRE(c.action_clip.has_value());
  CHECK(*c.action_clip == 100.0);

  REQUIRE(c.terms.size() == 7);
  const std::vector<ObsTerm> kinds{ObsTerm::base_ang_vel, ObsTerm::projected_gravity, ObsTerm::velocity_command,
                                   ObsTerm::joint_pos_rel, ObsTerm::joint_vel_rel, ObsTerm::last_action,
                                   ObsTerm::phase};
  for (std::size_t i = 0; i < kinds.size(); ++i) CHECK(c.terms[i].term == kinds[i]);
  CHECK(c.terms[0].scale == std::vector<double>{0.25, 0.25, 0.25});
  CHECK(c.terms[1].scale == std::vector<double>{1, 1, 1});  // no scale: 1
  CHECK(c.terms[2].scale == std::vector<double>{2.0, 2.0, 0.25});
  CHECK(c.terms[4].scale == std::vector<double>(4, 0.05));
  CHECK(c.terms[6].scale == std::vector<double>{1, 1});
  CHECK(c.terms[6].period == 0.8);
  REQUIRE(c.observation_clip.has_value());
  CHECK(*c.observation_clip == 100.0);
  CHECK(c.history_length == 3);
  CHECK(c.history_order == HistoryOrder::frame_major);
  CHECK(c.frame_size() == 3 + 3 + 3 + 4 + 4 + 4 + 2);
  CHECK(c.observation_size() == 3 * 23);

  CHECK(c.command_source == CommandSource::gamepad);
  CHECK(c.command_max == std::array<double, 3>{1.0, 0.5, 1.2});
  CHECK(c.command_min == std::array<double, 3>{-1.0, -0.5, -1.2});  // -max unless the file says
  CHECK(c.sticks == StickMapping::scaled);
  CHECK(c.blend_in == 1.0);
  CHECK(c.robot.empty());
  CHECK(c.hold.joint_names.empty());
  for (const auto& t : c.terms) {
    CHECK(t.history_length == 3);  // the observation's
    CHECK_FALSE(t.clip.has_value());
  }
}

TEST_CASE("deploy: what an imported policy adds is read whole (robot, hold, a term's clip and history, command range)",
          "[policy][deploy]") {
  auto j = full();
  j["robot"] = "g1";
  j["hold"] = {{"joint_names", {"waist_yaw", "left_elbow"}}, {"pose", {0.0, 0.3}}, {"kp", 300}, {"kd", {3, 2}}};
  j["observation"]["history_order"] = "term_major";
  j["observation"]["terms"][0]["history_length"] = 5;
  j["observation"]["terms"][0]["clip"] = {-10.0, 8.0};
  j["command"]["min"] = {-0.5, -0.5, -0.2};
  j["command"]["sticks"] = "clamped";
  j["target_rate"] = "as_computed";
  const auto c = parse(j);
  CHECK(c.robot == "g1");
  CHECK(c.hold.joint_names == std::vector<std::string>{"waist_yaw", "left_elbow"});
  CHECK(c.hold.pose == std::vector<double>{0.0, 0.3});
  CHECK(c.hold.kp == std::vector<double>{300, 300});
  CHECK(c.hold.kd == std::vector<double>{3, 2});
  CHECK(c.terms[0].history_length == 5);
  CHECK(c.terms[1].history_length == 3);
  REQUIRE(c.terms[0].clip.has_value());
  CHECK(*c.terms[0].clip == std::array<double, 2>{-10.0, 8.0});
  CHECK(c.observation_size() == 3 * 5 + 20 * 3);
  CHECK(c.command_min == std::array<double, 3>{-0.5, -0.5, -0.2});
  CHECK(c.sticks == StickMapping::clamped);
  CHECK(c.target_rate == TargetRate::as_computed);
}

TEST_CASE("deploy: the optional keys have their defaults", "[policy][deploy]") {
  const auto c = parse(minimal());
  CHECK(c.policy.empty());  // the caller names the network
  CHECK(c.input.empty());
  CHECK(c.output.empty());
  CHECK(c.recurrent.empty());
  CHECK(c.decimation == 1);
  CHECK_FALSE(c.action_clip.has_value());
  CHECK_FALSE(c.observation_clip.has_value());
  CHECK(c.history_length == 1);
  CHECK(c.history_order == HistoryOrder::term_major);
  CHECK(c.action_scale == std::vector<double>{0.5, 0.25});
  CHECK(c.blend_in == 0.0);
  CHECK(c.target_rate == TargetRate::limited);  // a hand-written file keeps the guard's rate limit

  SECTION("an absolute policy path is kept as it is") {
    auto j = minimal();
    j["policy"] = "/opt/policies/p.onnx";
    CHECK(parse(j).policy == std::filesystem::path("/opt/policies/p.onnx"));
  }
  SECTION("a behaviour command needs no max and is then unlimited") {
    auto j = minimal();
    j["command"] = Json{{"source", "behaviour"}};
    const auto b = parse(j);
    CHECK(b.command_source == CommandSource::behaviour);
    CHECK(std::isinf(b.command_max[0]));
  }
}

TEST_CASE("deploy: load_deploy reads the file and names it when it is missing or not JSON", "[policy][deploy]") {
  const praxis::test::ScratchDir dir("deploy");
  const auto file = dir.write("walk/deploy.json", full().dump(2));
  const auto c = praxis::policy::load_deploy(file);
  CHECK(c.file == file);
  CHECK(c.policy == dir / "walk/walk.onnx");
  CHECK(c.decimation == 10);

  CHECK_THROWS_WITH(praxis::policy::load_deploy(dir / "missing.json"),
                    Catch::Contains("missing.json") && Catch::Contains("not found"));
  CHECK_THROWS_WITH(praxis::policy::load_deploy(dir.path()), Catch::Contains("is a folder"));
  const auto broken = dir.write("broken.json", "{\n  \"loop_hz\": 500,\n  \"policy_hz\": \n}\n");
  CHECK_THROWS_WITH(praxis::policy::load_deploy(broken),
                    Catch::Contains("broken.json:4") && Catch::Contains("not valid JSON"));
  const auto list = dir.write("list.json", "[1, 2]");
  CHECK_THROWS_WITH(praxis::policy::load_deploy(list),
                    Catch::Contains("list.json") && Catch::Contains("expected a JSON object"));
}

TEST_CASE("deploy: each mistake is refused naming the file and the key and what was expected", "[policy][deploy]") {
  const std::vector<Mistake> mistakes{
      {"missing key", [](Json& j) { j.erase("loop_hz"); }, {"\"/loop_hz\"", "expected a number > 0", "no such key"}},
      {"wrong type", [](Json& j) { j["loop_hz"] = "500"; }, {"\"/loop_hz\"", "a number > 0", "found a string (\"500\")"}},
      {"zero rate", [](Json& j) { j["policy_hz"] = 0; }, {"\"/policy_hz\"", "a number > 0", "found 0"}},
      {"negative rate", [](Json& j) { j["loop_hz"] = -500; }, {"\"/loop_hz\"", "a number > 0", "-500"}},
      {"non-integer decimation", [](Json& j) { j["policy_hz"] = 60; },
       {"\"/policy_hz\"", "divides loop_hz (500 Hz) a whole number of times", "60 Hz (500 / 60 = 8.3"}},
      {"policy faster than the loop", [](Json& j) { j["policy_hz"] = 1000; },
       {"\"/policy_hz\"", "faster than the loop"}},
      {"unknown term", [](Json& j) { j["observation"]["terms"][1]["name"] = "base_lin_vel"; },
       {"\"/observation/terms/1/name\"", "base_ang_vel, projected_gravity, velocity_command, joint_pos_rel",
        "\"base_lin_vel\""}},
      {"wrong scale length", [](Json& j) { j["observation"]["terms"][2]["scale"] = {2.0, 2.0}; },
       {"\"/observation/terms/2/scale\"", "a number or an array of 3 numbers (velocity_command has 3 values)",
        "an array of 2"}},
      {"joint term scale of the wrong length", [](Json& j) { j["observation"]["terms"][4]["scale"] = {1, 1, 1}; },
       {"\"/observation/terms/4/scale\"", "an array of 4 numbers (joint_vel_rel has 4 values)"}},
      {"scale element not a number", [](Json& j) { j["observation"]["terms"][2]["scale"] = {2.0, "x", 1.0}; },
       {"\"/observation/terms/2/scale/1\"", "a number", "found a string (\"x\")"}},
      {"action scale length", [](Json& j) { j["action"]["scale"] = {1, 2, 3}; },
       {"\"/action/scale\"", "a number or an array of 4 numbers", "an array of 3"}},
      {"action clip not positive", [](Json& j) { j["action"]["clip"] = 0; }, {"\"/action/clip\"", "a number > 0"}},
      {"observation clip negative", [](Json& j) { j["observation"]["clip"] = -1; },
       {"\"/observation/clip\"", "a number > 0"}},
      {"negative gain", [](Json& j) { j["kd"][3] = -1; }, {"\"/kd/3\"", "a number >= 0", "-1"}},
      {"negative single gain", [](Json& j) { j["kp"] = -5; }, {"\"/kp\"", "numbers >= 0"}},
      {"default pose of the wrong length", [](Json& j) { j["default_pose"] = {0.1, 0.2}; },
       {"\"/default_pose\"", "an array of 4 numbers", "an array of 2"}},
      {"default pose as one number", [](Json& j) { j["default_pose"] = 0.1; },
       {"\"/default_pose\"", "an array of 4 numbers"}},
      {"duplicate joint", [](Json& j) { j["joint_names"][2] = "left_knee"; },
       {"\"/joint_names/2\"", "each joint named once", "\"left_knee\" again (also /joint_names/0)"}},
      {"no joints", [](Json& j) { j["joint_names"] = Json::array(); }, {"\"/joint_names\"", "a non-empty array"}},
      {"non-integer history", [](Json& j) { j["observation"]["history_length"] = 2.5; },
       {"\"/observation/history_length\"", "a whole number >= 1", "2.5"}},
      {"zero history", [](Json& j) { j["observation"]["history_length"] = 0; },
       {"\"/observation/history_length\"", "a whole number >= 1"}},
      {"unknown history order", [](Json& j) { j["observation"]["history_order"] = "newest_first"; },
       {"\"/observation/history_order\"", "\"term_major\" or \"frame_major\"", "\"newest_first\""}},
      {"misspelt optional key", [](Json& j) { j["observation"]["histroy_length"] = 2; },
       {"\"/observation/histroy_length\"", "one of the keys", "\"history_length\"", "an unknown key"}},
      {"unknown top-level key", [](Json& j) { j["blend"] = 1; }, {"\"/blend\"", "an unknown key"}},
      {"phase without a period", [](Json& j) { j["observation"]["terms"][6].erase("period"); },
       {"\"/observation/terms/6/period\"", "period in seconds", "no such key"}},
      {"phase with a zero period", [](Json& j) { j["observation"]["terms"][6]["period"] = 0; },
       {"\"/observation/terms/6/period\"", "a number > 0"}},
      {"a period on another term", [](Json& j) { j["observation"]["terms"][0]["period"] = 1; },
       {"\"/observation/terms/0/period\"", "an unknown key"}},
      {"no terms", [](Json& j) { j["observation"]["terms"] = Json::array(); },
       {"\"/observation/terms\"", "a non-empty array of terms"}},
      {"velocity command without a command source", [](Json& j) { j.erase("command"); },
       {"\"/command\"", "velocity_command term", "no such key"}},
      {"unknown command source", [](Json& j) { j["command"]["source"] = "joystick"; },
       {"\"/command/source\"", "\"gamepad\" or \"behaviour\"", "\"joystick\""}},
      {"gamepad without max", [](Json& j) { j["command"].erase("max"); }, {"\"/command/max\"", "no such key"}},
      {"max of the wrong length", [](Json& j) { j["command"]["max"] = {1, 1}; },
       {"\"/command/max\"", "an array of 3 numbers >= 0 (vx, vy, wz)"}},
      {"negative blend", [](Json& j) { j["blend_in"] = -0.5; }, {"\"/blend_in\"", "a number >= 0", "-0.5"}},
      {"missing blend", [](Json& j) { j.erase("blend_in"); }, {"\"/blend_in\"", "no such key"}},
      {"unknown target rate", [](Json& j) { j["target_rate"] = "stepped"; },
       {"\"/target_rate\"", "\"limited\"", "\"as_computed\"", "\"stepped\""}},
      {"recurrent pair without output", [](Json& j) { j["recurrent"][1].erase("output"); },
       {"\"/recurrent/1/output\"", "no such key"}},
      {"recurrent not an array", [](Json& j) { j["recurrent"] = "h"; }, {"\"/recurrent\"", "an array of"}},
      {"empty policy name", [](Json& j) { j["policy"] = ""; }, {"\"/policy\"", "ONNX file"}},
      {"observation not an object", [](Json& j) { j["observation"] = 3; }, {"\"/observation\"", "an object"}},
      {"a term's own history with frame_major", [](Json& j) { j["observation"]["terms"][1]["history_length"] = 5; },
       {"\"/observation/terms/1/history_length\"", "the observation's history_length (3)", "\"term_major\"", "found 5"}},
      {"a term's zero history",
       [](Json& j) {
         j["observation"]["history_order"] = "term_major";
         j["observation"]["terms"][1]["history_length"] = 0;
       },
       {"\"/observation/terms/1/history_length\"", "a whole number >= 1"}},
      {"a term's clip upside down", [](Json& j) { j["observation"]["terms"][1]["clip"] = {1.0, -1.0}; },
       {"\"/observation/terms/1/clip\"", "lo <= hi", "[1, -1]"}},
      {"a term's clip as one number", [](Json& j) { j["observation"]["terms"][1]["clip"] = 1.0; },
       {"\"/observation/terms/1/clip\"", "an array of 2 numbers"}},
      {"a command min above 0", [](Json& j) { j["command"]["min"] = {-1.0, 0.1, -1.0}; },
       {"\"/command/min/1\"", "a number <= 0", "a zero command must stay within [min, max]", "0.1"}},
      {"a min without a max",
       [](Json& j) {
         j["command"] = {{"source", "behaviour"}, {"min", {-1, -1, -1}}};
       },
       {"\"/command/min\"", "together with \"max\""}},
      {"unknown stick mapping", [](Json& j) { j["command"]["sticks"] = "linear"; },
       {"\"/command/sticks\"", "\"scaled\"", "\"clamped\"", "\"linear\""}},
      {"a held joint the policy drives",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw", "right_knee"}}, {"pose", 0}, {"kp", 1}, {"kd", 1}}; },
       {"\"/hold/joint_names/1\"", "a joint the policy does not drive", "also /joint_names/2"}},
      {"a held joint named twice",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw", "waist_yaw"}}, {"pose", 0}, {"kp", 1}, {"kd", 1}}; },
       {"\"/hold/joint_names/1\"", "each joint named once", "also /hold/joint_names/0"}},
      {"a hold without gains",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw"}}, {"pose", 0}, {"kd", 1}}; },
       {"\"/hold/kp\"", "no such key"}},
      {"a hold pose of the wrong length",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw"}}, {"pose", {0, 0}}, {"kp", 1}, {"kd", 1}}; },
       {"\"/hold/pose\"", "a number or an array of 1 numbers", "an array of 2"}},
      {"a negative held gain",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw"}}, {"pose", 0}, {"kp", -3}, {"kd", 1}}; },
       {"\"/hold/kp\"", "numbers >= 0"}},
      {"an unknown key in hold",
       [](Json& j) { j["hold"] = {{"joint_names", {"waist_yaw"}}, {"pose", 0}, {"kp", 1}, {"kd", 1}, {"ki", 0}}; },
       {"\"/hold/ki\"", "an unknown key"}},
      {"an empty robot name", [](Json& j) { j["robot"] = ""; }, {"\"/robot\"", "the robot model's name"}},
  };
  for (const auto& m : mistakes) {
    INFO(m.what);
    auto j = full();
    m.edit(j);
    const auto message = refusal(j);
    INFO(message);
    CHECK_THAT(message, Catch::StartsWith(k_file.string() + ": key "));
    for (const auto& fragment : m.message) CHECK_THAT(message, Catch::Contains(fragment));
  }
}

}  // namespace deploy_test
