// Parameter files: every class of bad input is a clear error naming file and key; nothing is
// half-applied.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "../../../examples/custom_controller/sinusoid_controller.hpp"
#include "praxis/hardware/aurora/models.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/io/params.hpp"
#include "praxis/io/run_folder.hpp"
#include "../../support/scratch_dir.hpp"

namespace params_test {

namespace fs = std::filesystem;

namespace {

struct TempDir {
  praxis::test::ScratchDir scratch{"params"};
  const fs::path& path = scratch.path();
  fs::path write(const std::string& text, const std::string& name = "params.json") const {
    return scratch.write(name, text);
  }
};

const char* k_good = R"({
  "dt": 0.01, "kp": 40.0, "kd": 1.0,
  "init_pos": [0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8, 0.0, 0.9, -1.8],
  "amplitude": 0.1, "frequency": 0.5
})";

// text with the first occurrence of `from` replaced by `to` (built by concatenation: g++ 12 warns
// falsely about std::string::replace at -O3).
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

std::string error_of(const fs::path& folder) {
  example::SinusoidController<praxis::unitree::Go2> c;
  try {
    c.load_params(folder);
  } catch (const praxis::io::ParamError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a good parameter file loads every value", "[io][params]") {
  TempDir dir;
  dir.write(k_good);
  example::SinusoidController<praxis::unitree::Go2> c;
  c.load_params(dir.path);
  CHECK(c.dt == 0.01);
  CHECK(c.kp[0] == 40.0);
  CHECK(c.kp[11] == 40.0);
  CHECK(c.init_pos[2] == -1.8);
  CHECK(c.amplitude == 0.1);
}

TEST_CASE("the example controller's optional keys: model gains, arms only, no init_pos", "[io][params]") {
  TempDir dir;
  dir.write(R"({ "dt": 0.002, "kp": "model", "kd": "model", "amplitude": 0.1, "frequency": 0.5,
                 "move": "arms", "center": "entry" })");
  example::SinusoidController<praxis::aurora::GR2> c;
  c.load_params(dir.path);
  CHECK(c.kp == praxis::aurora::GR2::default_kp);
  CHECK(c.kd == praxis::aurora::GR2::default_kd);
  CHECK(c.init_pos == praxis::aurora::GR2::stand_pose);
  CHECK(c.center_on_entry);
  // The legs, waist and head hold; the fourteen arm joints move.
  CHECK(std::count(c.moving.begin(), c.moving.end(), true) == 14);
  CHECK(!c.moving[3]);   // left knee
  CHECK(c.moving[15]);   // left shoulder pitch
}

TEST_CASE("a missing folder or file is named", "[io][params]") {
  TempDir dir;
  CHECK_THAT(error_of(dir.path / "nope"), Catch::Contains("nope: parameter folder not found"));
  CHECK_THAT(error_of(dir.path), Catch::Contains("params.json: parameter file not found"));
}

TEST_CASE("invalid JSON is reported with its line", "[io][params]") {
  TempDir dir;
  dir.write("{\n  \"dt\": 0.01,\n  \"kp\": ,\n}");
  const auto e = error_of(dir.path);
  CHECK_THAT(e, Catch::Contains("params.json:3: not valid JSON"));
}

TEST_CASE("a number beyond a double's range is invalid JSON naming the file", "[io][params]") {
  // Found by the params fuzz target: nlohmann_json reports it as out_of_range, not parse_error.
  TempDir dir;
  dir.write("{\"dt\": 1e999}");
  CHECK_THAT(error_of(dir.path), Catch::Contains("params.json: not valid JSON (a number does not fit in a double"));
  CHECK_THROWS_WITH(praxis::io::ParamFile::parse("[1e400]", "from_text.json"),
                    Catch::StartsWith("from_text.json: not valid JSON (a number does not fit in a double"));
  CHECK(praxis::io::ParamFile::parse("{\"dt\": 0.5}", "from_text.json").number("dt") == 0.5);
}

TEST_CASE("missing key, wrong type and wrong length name the key", "[io][params]") {
  TempDir dir;
  std::string text = k_good;

  dir.write(replaced(text, "\"kd\": 1.0,", ""));
  CHECK_THAT(error_of(dir.path), Catch::Contains("key \"kd\": expected a number, found no such key"));

  dir.write(replaced(text, "40.0", "\"forty\""));
  CHECK_THAT(error_of(dir.path), Catch::Contains("key \"kp\": expected a number, 12 numbers or \"model\", found \"forty\""));

  dir.write(replaced(text, "40.0", "[1, 2]"));
  CHECK_THAT(error_of(dir.path), Catch::Contains("key \"kp\": expected an array of 12 numbers, found an array of 2"));

  dir.write(replaced(text, "\"amplitude\"", "\"move\": \"legs\", \"amplitude\""));
  CHECK_THAT(error_of(dir.path), Catch::Contains("key \"move\": expected \"all\" or \"arms\", found \"legs\""));

  dir.write(replaced(text, ", -1.8]", "]"));
  CHECK_THAT(error_of(dir.path),
             Catch::Contains("key \"init_pos\": expected an array of 12 numbers, found an array of 11"));

  dir.write(replaced(text, "[0.0,", "[null,"));
  CHECK_THAT(error_of(dir.path),
             Catch::Contains("key \"init_pos\": expected an array of 12 numbers, found element 0 is null"));

  dir.write("[1, 2]");
  CHECK_THAT(error_of(dir.path), Catch::Contains("expected a JSON object"));
}

TEST_CASE("a rejected file leaves the controller as it was", "[io][params]") {
  TempDir dir;
  std::string text = k_good;
  dir.write(replaced(text, "\"amplitude\": 0.1", "\"amplitude\": 0.9"));  // out of range
  example::SinusoidController<praxis::unitree::Go2> c;
  const auto before = c.init_pos;
  const double dt = c.dt;
  CHECK_THROWS_WITH(c.load_params(dir.path), Catch::Contains("key \"amplitude\""));
  CHECK(c.init_pos == before);
  CHECK(c.dt == dt);
}

TEST_CASE("run folders are time-stamped, unique and get cfg.txt", "[io][run_folder]") {
  TempDir dir;
  const auto a = praxis::io::create_run_folder(dir.path / "logs");
  const auto b = praxis::io::create_run_folder(dir.path / "logs");
  CHECK(a != b);
  CHECK(fs::is_directory(a));
  CHECK(a.filename().string().size() >= 19);  // YYYY_MM_DD_HH_MM_SS
  CHECK(a.filename().string()[4] == '_');
  praxis::io::write_config(a, {{"param_folder", "/x/params"}, {"robot", "g1"}});
  std::ifstream in(a / "cfg.txt");
  std::string line;
  std::getline(in, line);
  CHECK(line == "param_folder: /x/params");
}

}  // namespace params_test
