// praxis::script::ScriptLibrary (script/library.hpp): scripts are kept in the order they were added,
// a script of an existing name replaces it in place (so a pointer already handed out plays the new
// one) and references stay valid as more are added; find() is an exact name match; resolve() turns
// names into a request with priority, duration and start copied, and refuses an empty, oversized or
// unknown sequence; load_folder() takes only the *.json regular files of the folder, in name order,
// named by their stems, with the gain mapping given, and a missing folder or any bad file is a
// ScriptError naming it that leaves the library as it was. On real files in a scratch folder.

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../../support/scratch_dir.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/script/library.hpp"
#include "praxis/script/loader.hpp"
#include "praxis/script/player.hpp"

namespace library_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Go2 = praxis::unitree::Go2;
using praxis::script::ExecuteScriptByName;
using praxis::script::Script;
using praxis::script::ScriptError;
using Library = praxis::script::ScriptLibrary<Go2>;

constexpr std::size_t N = Go2::joint_count;
constexpr std::size_t k_fr_hip = 0;

praxis::TimePoint at(double s) { return praxis::TimePoint{} + praxis::from_seconds(s); }

// A one-frame script moving FR_hip to `position` in `ms`, with `gain` at `torque` %.
std::string hip_json(double position, int ms = 500, double gain = 30, double torque = 100) {
  return R"([{"duration": )" + std::to_string(ms) + R"(, "targets": [{"id": "FR_hip", "position": )" +
         std::to_string(position) + R"(, "gain": )" + std::to_string(gain) + R"(, "torque": )" +
         std::to_string(torque) + "}]}]";
}

Script<N> hip_script(const std::string& name, double position, int ms = 500) {
  return praxis::script::parse_script<Go2>(hip_json(position, ms), name);
}

const char* k_bad_joint = R"([{"duration": 100, "targets": [{"id": "FR_knee", "position": 0, "gain": 1, "torque": 100}]}])";

std::vector<std::string> names_of(const Library& library) {
  std::vector<std::string> out;
  for (const auto name : library.names()) out.emplace_back(name);
  return out;
}

ExecuteScriptByName by_names(std::initializer_list<std::string_view> names) {
  ExecuteScriptByName r;
  for (const auto name : names) r.names[r.count++] = name;
  return r;
}

TEST_CASE("script library: scripts keep the order they were added and a same name replaces in place",
          "[script][library]") {
  Library library;
  CHECK(library.size() == 0);
  CHECK(library.names().empty());
  CHECK(library.find("wave") == nullptr);

  const auto& wave = library.add(hip_script("wave", 0.1));
  library.add(hip_script("sit", 0.2));
  library.add(hip_script("bow", 0.3));
  CHECK(library.size() == 3);
  CHECK(names_of(library) == std::vector<std::string>{"wave", "sit", "bow"});
  CHECK(library.find("wave") == &wave);
  CHECK(library.find("sit")->frames[0].position[k_fr_hip] == Approx(0.2));

  const auto& replaced = library.add(hip_script("wave", -0.4, 800));
  CHECK(&replaced == &wave);  // the same object, now holding the new script
  CHECK(library.size() == 3);
  CHECK(names_of(library) == std::vector<std::string>{"wave", "sit", "bow"});
  CHECK(wave.frames[0].position[k_fr_hip] == Approx(-0.4));
  CHECK(wave.total() == 800ms);
}

TEST_CASE("script library: a script's reference stays valid while many more are added", "[script][library]") {
  Library library;
  const Script<N>* first = &library.add(hip_script("first", 0.5));
  std::vector<const Script<N>*> added;
  for (int k = 0; k < 200; ++k) added.push_back(&library.add(hip_script("s" + std::to_string(k), 0.001 * k)));
  CHECK(library.size() == 201);
  CHECK(library.find("first") == first);
  CHECK(first->name == "first");  // read through the old pointer (ASan would catch a moved script)
  CHECK(first->frames[0].position[k_fr_hip] == Approx(0.5));
  for (int k = 0; k < 200; ++k) {
    CAPTURE(k);
    CHECK(library.find("s" + std::to_string(k)) == added[static_cast<std::size_t>(k)]);
  }
}

TEST_CASE("script library: find matches the whole name exactly", "[script][library]") {
  Library library;
  library.add(hip_script("wave", 0.1));
  library.add(hip_script("wave_left", 0.2));
  CHECK(library.find("wave")->frames[0].position[k_fr_hip] == Approx(0.1));
  CHECK(library.find("wave_left")->frames[0].position[k_fr_hip] == Approx(0.2));
  CHECK(library.find("Wave") == nullptr);
  CHECK(library.find("wav") == nullptr);
  CHECK(library.find("wave ") == nullptr);
  CHECK(library.find("") == nullptr);
}

TEST_CASE("script library: resolve copies the request and points at the library's scripts", "[script][library]") {
  Library library;
  library.add(hip_script("sit", 0.2));
  library.add(hip_script("wave", 0.6));
  auto by_name = by_names({"wave", "sit", "wave"});
  by_name.priority = 7;
  by_name.duration = 3s;
  by_name.start = at(2.5);
  by_name.names[3] = "not a script";  // beyond count: never looked up
  const auto r = library.resolve(by_name);
  REQUIRE(r.has_value());
  CHECK(r->priority == 7);
  REQUIRE(r->duration.has_value());
  CHECK(*r->duration == 3s);
  CHECK(r->start == at(2.5));
  CHECK(r->count == 3);
  CHECK(r->scripts[0] == library.find("wave"));
  CHECK(r->scripts[1] == library.find("sit"));
  CHECK(r->scripts[2] == library.find("wave"));
  CHECK(r->scripts[3] == nullptr);

  const auto plain = library.resolve(by_names({"sit"}));
  REQUIRE(plain.has_value());
  CHECK(plain->priority == 0);
  CHECK_FALSE(plain->duration.has_value());
  CHECK(plain->start == praxis::TimePoint{});
}

TEST_CASE("script library: resolve refuses no names too many names and any unknown name", "[script][library]") {
  Library library;
  library.add(hip_script("sit", 0.2));
  CHECK_FALSE(library.resolve(ExecuteScriptByName{}).has_value());  // count 0
  auto too_many = by_names({"sit", "sit", "sit", "sit"});
  CHECK(library.resolve(too_many).has_value());  // k_max_sequence names: fine
  too_many.count = praxis::script::k_max_sequence + 1;
  CHECK_FALSE(library.resolve(too_many).has_value());
  CHECK_FALSE(library.resolve(by_names({"stand"})).has_value());
  CHECK_FALSE(library.resolve(by_names({"sit", "sit", "stand"})).has_value());  // the last of three
  CHECK_FALSE(library.resolve(by_names({"Sit"})).has_value());
}

TEST_CASE("script library: a resolved request plays the library's script in a player", "[script][library]") {
  Library library;
  library.add(hip_script("up", 0.6, 1000));
  auto by_name = by_names({"up"});
  by_name.duration = 2s;  // twice as slow as written
  const auto r = library.resolve(by_name);
  REQUIRE(r.has_value());
  praxis::script::ScriptPlayer<N> player;
  praxis::JointVector<N> q = praxis::JointVector<N>::Zero();
  REQUIRE(player.execute(*r, q));
  praxis::script::JointTargets<N> out;
  player.evaluate(at(1.0), out);
  REQUIRE(out.owned.test(k_fr_hip));
  CHECK(out.q[k_fr_hip] == Approx(0.3));  // half way at 1 s of 2 s
  CHECK(out.kp[k_fr_hip] == Approx(30));
}

TEST_CASE("script library: load_folder takes the json files in name order named by their stems",
          "[script][library]") {
  const praxis::test::ScratchDir scratch("script_library");
  scratch.write("wave.json", hip_json(0.1));
  scratch.write("bow.json", hip_json(0.2));
  scratch.write("crouch.json", hip_json(0.3));
  scratch.write("notes.txt", hip_json(0.4));
  scratch.write("upper.JSON", hip_json(0.5));
  scratch.write("old.json.bak", hip_json(0.6));
  scratch.write("nested/deep.json", hip_json(0.7));  // a subfolder is not searched
  fs::create_directories(scratch.path() / "folder.json");  // a folder, however named, is no script
  scratch.write("bad_in_nested/x.json", k_bad_joint);  // nor is anything in it checked

  Library library;
  library.load_folder(scratch.path());
  CHECK(names_of(library) == std::vector<std::string>{"bow", "crouch", "wave"});
  CHECK(library.find("bow")->frames[0].position[k_fr_hip] == Approx(0.2));
  CHECK(library.find("wave")->frames[0].position[k_fr_hip] == Approx(0.1));

  // Loading again (or another folder) replaces the same names in place and appends new ones sorted.
  const praxis::test::ScratchDir more("script_library");
  more.write("zeta.json", hip_json(0.8));
  more.write("wave.json", hip_json(-0.1));
  more.write("alpha.json", hip_json(0.9));
  const auto* wave = library.find("wave");
  library.load_folder(more.path());
  CHECK(names_of(library) == std::vector<std::string>{"bow", "crouch", "wave", "alpha", "zeta"});
  CHECK(library.find("wave") == wave);
  CHECK(wave->frames[0].position[k_fr_hip] == Approx(-0.1));

  // An empty folder adds nothing.
  const praxis::test::ScratchDir empty("script_library");
  library.load_folder(empty.path());
  CHECK(library.size() == 5);
}

TEST_CASE("script library: load_folder maps gain and torque through the gain mapping", "[script][library]") {
  const praxis::test::ScratchDir scratch("script_library");
  scratch.write("soft.json", hip_json(0.2, 500, 30, 50));
  Library library;
  library.load_folder(scratch.path(), praxis::script::GainMapping{2.0, 0.1});
  const auto* soft = library.find("soft");
  REQUIRE(soft != nullptr);
  CHECK(soft->frames[0].kp[k_fr_hip] == Approx(30 * 2.0 * 50 / 100.0));
  CHECK(soft->frames[0].kd[k_fr_hip] == Approx(30 * 2.0 * 50 / 100.0 * 0.1));

  Library defaults;  // kp per gain 1, kd 0.05 s per kp
  defaults.load_folder(scratch.path());
  CHECK(defaults.find("soft")->frames[0].kp[k_fr_hip] == Approx(15));
  CHECK(defaults.find("soft")->frames[0].kd[k_fr_hip] == Approx(0.75));
}

TEST_CASE("script library: a missing folder or a bad file is an error naming it and nothing is loaded",
          "[script][library]") {
  const praxis::test::ScratchDir scratch("script_library");
  Library library;
  library.add(hip_script("keep", 0.4));
  const auto before = library.find("keep");

  const auto missing = scratch.path() / "no_such_folder";
  CHECK_THROWS_AS(library.load_folder(missing), ScriptError);
  CHECK_THROWS_WITH(library.load_folder(missing), missing.string() + ": script folder not found");
  const auto file = scratch.write("a_file.json", hip_json(0.1));
  CHECK_THROWS_WITH(library.load_folder(file), file.string() + ": script folder not found");

  // Good files before and after two bad ones: the first bad one in name order is named, and none of
  // the good ones is added.
  const praxis::test::ScratchDir mixed("script_library");
  mixed.write("a_good.json", hip_json(0.1));
  const auto bad_m = mixed.write("m_bad.json", k_bad_joint);
  const auto bad_n = mixed.write("n_bad.json", "[");
  mixed.write("z_good.json", hip_json(0.2));
  try {
    library.load_folder(mixed.path());
    FAIL("no ScriptError");
  } catch (const ScriptError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains(bad_m.string() + ": frame 0, target 0: unknown joint \"FR_knee\""));
    CHECK_THAT(what, !Catch::Contains(bad_n.string()));
    REQUIRE(e.problems().size() == 1);
    CHECK(e.problems()[0].origin == bad_m.string());
    CHECK(e.problems()[0].frame == std::optional<std::size_t>(0));
    CHECK(e.problems()[0].target == std::optional<std::size_t>(0));
  }
  CHECK(names_of(library) == std::vector<std::string>{"keep"});
  CHECK(library.find("keep") == before);
  CHECK(library.find("a_good") == nullptr);

  // A folder with a script of an existing name and a bad file: the existing script is not replaced.
  const praxis::test::ScratchDir clash("script_library");
  clash.write("keep.json", hip_json(-0.9));
  clash.write("x_bad.json", "{}");
  CHECK_THROWS_AS(library.load_folder(clash.path()), ScriptError);
  CHECK(library.find("keep")->frames[0].position[k_fr_hip] == Approx(0.4));
}

}  // namespace library_test
