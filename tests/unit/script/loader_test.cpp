// Script checking reports every problem of a file in one run, each with its file, frame, target and
// what was expected; the throwing loaders carry the same list.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/loader.hpp"
#include "../../support/scratch_dir.hpp"

namespace loader_test {

using Go2 = praxis::unitree::Go2;
using praxis::script::ScriptError;
using praxis::script::ScriptProblem;

namespace {

// Three problems in three places: an unknown joint (frame 0, target 1), a negative duration
// (frame 1) and a torque above 100 % (frame 2, target 0). The frames between are valid.
const char* k_three_problems = R"([
  {"duration": 500, "targets": [{"id": "FR_hip", "position": 0.1, "gain": 20, "torque": 100},
                                {"id": "FR_knee", "position": 0.2, "gain": 20, "torque": 100}]},
  {"duration": -5, "targets": [{"id": "FR_hip", "position": 0.0, "gain": 20, "torque": 100}]},
  {"duration": 500, "targets": [{"id": "FL_hip", "position": 0.0, "gain": 20, "torque": 150}]},
  {"duration": 500, "targets": [{"id": "FL_hip", "position": 0.1, "gain": 20, "torque": 100}]}
])";

struct TempFile {
  praxis::test::ScratchDir scratch{"script_loader"};
  std::filesystem::path path;
  TempFile(const std::string& name, const char* text) : path(scratch.write(name, text)) {}
};

void check_the_three(const std::vector<ScriptProblem>& problems, const std::string& origin) {
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].origin == origin);
  CHECK(problems[0].frame == 0u);
  CHECK(problems[0].target == 1u);
  CHECK_THAT(problems[0].message, Catch::StartsWith("unknown joint \"FR_knee\" (go2 joints: FR_hip"));
  CHECK(problems[1].frame == 1u);
  CHECK_FALSE(problems[1].target.has_value());
  CHECK(problems[1].message == "field \"duration\" must be >= 0 ms, found -5");
  CHECK(problems[2].frame == 2u);
  CHECK(problems[2].target == 0u);
  CHECK(problems[2].message == "field \"torque\" must be between 0 and 100, found 150");
}

}  // namespace

TEST_CASE("check_script reports all three problems of a file, each where it is", "[script][errors]") {
  const TempFile file("praxis_three_problems.json", k_three_problems);
  check_the_three(praxis::script::check_script<Go2>(file.path), file.path.string());
}

TEST_CASE("load_script throws once with every problem of the file", "[script][errors]") {
  const TempFile file("praxis_three_problems.json", k_three_problems);
  try {
    (void)praxis::script::load_script<Go2>(file.path);
    FAIL("a script with three problems was loaded");
  } catch (const ScriptError& e) {
    check_the_three(e.problems(), file.path.string());
    const std::string what = e.what();
    const std::string at = file.path.string();
    CHECK_THAT(what, Catch::Contains(at + ": frame 0, target 1: unknown joint \"FR_knee\""));
    CHECK_THAT(what, Catch::Contains(at + ": frame 1: field \"duration\" must be >= 0 ms"));
    CHECK_THAT(what, Catch::Contains(at + ": frame 2, target 0: field \"torque\" must be between 0 and 100"));
  }
}

TEST_CASE("one target with several problems reports each of them", "[script][errors]") {
  try {
    (void)praxis::script::parse_script<Go2>(
        R"([{"duration": 1, "targets": [{"id": "FR_calf", "position": 0.5, "gain": -1, "extra": 0}]}])",
        "several");
    FAIL("the script was accepted");
  } catch (const ScriptError& e) {
    std::vector<std::string> lines;
    for (const auto& p : e.problems()) lines.push_back(praxis::script::to_string(p));
    CHECK_THAT(lines.at(0), Catch::Equals("several: frame 0, target 0: unknown field \"extra\" "
                                          "(expected id, position, gain, torque)"));
    CHECK_THAT(lines.at(1), Catch::Equals("several: frame 0, target 0: field \"gain\" must be >= 0, "
                                          "found -1"));
    CHECK_THAT(lines.at(2), Catch::Equals("several: frame 0, target 0: missing field \"torque\""));
    CHECK_THAT(lines.at(3), Catch::StartsWith("several: frame 0, target 0: joint \"FR_calf\" position "
                                              "0.5 is outside its limits ["));
    CHECK(lines.size() == 4);
  }
}

TEST_CASE("a valid file has no problems, a missing one exactly one", "[script][errors]") {
  const TempFile file("praxis_valid.json",
                      R"([{"duration": 100, "targets": [{"id": "FR_hip", "position": 0.1, "gain": 20, "torque": 100}]}])");
  CHECK(praxis::script::check_script<Go2>(file.path).empty());
  const auto missing = praxis::script::check_script<Go2>(file.path.string() + ".nope");
  REQUIRE(missing.size() == 1);
  CHECK_FALSE(missing[0].frame.has_value());
  CHECK(praxis::script::to_string(missing[0]) ==
        file.path.string() + ".nope: script file not found or not readable");
}

}  // namespace loader_test
