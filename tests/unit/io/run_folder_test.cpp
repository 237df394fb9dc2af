// praxis::io::create_run_folder and praxis::io::write_config (io/run_folder.hpp), on real folders in a
// scratch directory: the run folder is <base>/<YYYY_MM_DD_HH_MM_SS> of the local time, made with
// every missing parent; a taken name gets "_2", "_3", ... (never "_1"); the 999th run of one second
// is an error; a base that cannot be made and a folder that cannot be written are errors naming
// them; cfg.txt holds one "key: value" line per entry, in order, and replaces an older cfg.txt.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "../../support/scratch_dir.hpp"
#include "praxis/io/run_folder.hpp"

namespace run_folder_test {

namespace fs = std::filesystem;

// The local time stamp of `t`, formatted independently of the library (std::put_time, not strftime).
std::string stamp_of(std::chrono::system_clock::time_point t) {
  const std::time_t c = std::chrono::system_clock::to_time_t(t);
  std::tm local{};
  localtime_r(&c, &local);
  std::ostringstream out;
  out << (local.tm_year + 1900);
  for (const int part : {local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec}) {
    out << '_' << (part < 10 ? "0" : "") << part;
  }
  return out.str();
}

// "YYYY_MM_DD_HH_MM_SS": digits and underscores in that shape.
bool looks_like_stamp(const std::string& s) {
  if (s.size() != 19) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool underscore = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
    if (underscore ? s[i] != '_' : !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool empty_folder(const fs::path& folder) { return fs::is_directory(folder) && fs::is_empty(folder); }

TEST_CASE("run folder: a new folder named after the local time under a base made with its parents",
          "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  const auto base = scratch.path() / "logs" / "deep" / "er";
  const auto before = std::chrono::system_clock::now();
  const auto folder = praxis::io::create_run_folder(base);
  const auto after = std::chrono::system_clock::now();

  CHECK(folder.parent_path() == base);
  CHECK(empty_folder(folder));
  const std::string name = folder.filename().string();
  CHECK(looks_like_stamp(name));
  // The stamp is the local time of the call: between the stamps of just before and just after
  // (zero-padded fields compare in time order as text).
  CHECK(name >= stamp_of(before));
  CHECK(name <= stamp_of(after));
  // Nothing else was made beside it.
  CHECK(std::distance(fs::directory_iterator(base), fs::directory_iterator{}) == 1);
}

TEST_CASE("run folder: a taken name gets the next free suffix from _2 on", "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  const auto base = scratch.path() / "logs";
  fs::create_directories(base);
  // The stamps the call may see (this second and the next few, on a loaded machine) are all taken,
  // with "_2" as well, and "_4" is taken too: the first free one is "_3". "_1" is never used.
  bool checked = false;
  for (int attempt = 0; attempt < 20 && !checked; ++attempt) {
    const auto now = std::chrono::system_clock::now();
    std::vector<std::string> stamps;
    for (int s = 0; s < 3; ++s) stamps.push_back(stamp_of(now + std::chrono::seconds(s)));
    for (const auto& s : stamps) {
      fs::create_directories(base / s);
      fs::create_directories(base / (s + "_2"));
      fs::create_directories(base / (s + "_4"));
    }
    const auto folder = praxis::io::create_run_folder(base);
    const std::string name = folder.filename().string();
    CAPTURE(name);
    if (std::find(stamps.begin(), stamps.end(), name.substr(0, 19)) == stamps.end()) continue;  // too slow: again
    CHECK(name.size() == 21);
    CHECK(name.substr(19) == "_3");
    CHECK(empty_folder(folder));
    CHECK_FALSE(fs::exists(base / (name.substr(0, 19) + "_1")));
    // The next call in that second skips the taken "_4" and takes "_5".
    const auto next = praxis::io::create_run_folder(base);
    if (next.filename().string().substr(0, 19) == name.substr(0, 19)) {
      CHECK(next.filename().string() == name.substr(0, 19) + "_5");
    }
    checked = true;
  }
  CHECK(checked);
}

TEST_CASE("run folder: a base with every name of the second taken is an error naming it", "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  const auto base = scratch.path() / "busy";
  bool checked = false;
  for (int attempt = 0; attempt < 5 && !checked; ++attempt) {
    const auto now = std::chrono::system_clock::now();
    std::vector<std::string> stamps;
    for (int s = 0; s < 3; ++s) stamps.push_back(stamp_of(now + std::chrono::seconds(s)));
    for (const auto& s : stamps) {
      fs::create_directories(base / s);
      for (int k = 2; k < 1000; ++k) fs::create_directory(base / (s + "_" + std::to_string(k)));
    }
    try {
      const auto folder = praxis::io::create_run_folder(base);
      // Only when the clock passed all three stamps: the folder is then a fresh stamp, and again.
      CAPTURE(folder.string());
      CHECK(std::find(stamps.begin(), stamps.end(), folder.filename().string().substr(0, 19)) == stamps.end());
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "too many run folders for one second under '" + base.string() + "'");
      checked = true;
    }
  }
  CHECK(checked);
}

TEST_CASE("run folder: a base that cannot be made or written is an error naming the folder", "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  // A regular file where a parent folder should be.
  const auto blocker = scratch.write("blocker", "not a folder");
  const auto under_file = blocker / "logs";
  CHECK_THROWS_AS(praxis::io::create_run_folder(under_file), std::runtime_error);
  CHECK_THROWS_WITH(praxis::io::create_run_folder(under_file),
                    Catch::StartsWith("cannot create log folder '" + under_file.string() + "': "));
  CHECK(fs::is_regular_file(blocker));

  if (::geteuid() != 0) {  // root writes into any folder
    const auto locked = scratch.path() / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_WITH(praxis::io::create_run_folder(locked),
                      Catch::StartsWith("cannot create run folder '" + locked.string() + "/") &&
                          Catch::Contains("': "));
    fs::permissions(locked, fs::perms::owner_all);  // so the scratch folder can be removed
    CHECK(fs::is_empty(locked));
  }
}

TEST_CASE("run folder: cfg.txt has one key: value line per entry in order", "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  const auto folder = praxis::io::create_run_folder(scratch.path() / "logs");
  const std::vector<std::pair<std::string, std::string>> entries{
      {"robot", "go2"}, {"dt", "0.002"}, {"network", "eth0: 192.168.123.99"}, {"empty", ""}, {"robot", "again"}};
  praxis::io::write_config(folder, entries);
  CHECK(text_of(folder / "cfg.txt") ==
        "robot: go2\ndt: 0.002\nnetwork: eth0: 192.168.123.99\nempty: \nrobot: again\n");

  // A second write replaces the file instead of appending; no entries leave it empty.
  praxis::io::write_config(folder, {{"b", "2"}});
  CHECK(text_of(folder / "cfg.txt") == "b: 2\n");
  praxis::io::write_config(folder, {});
  CHECK(fs::exists(folder / "cfg.txt"));
  CHECK(text_of(folder / "cfg.txt").empty());
  // Only cfg.txt is written in the folder.
  CHECK(std::distance(fs::directory_iterator(folder), fs::directory_iterator{}) == 1);
}

TEST_CASE("run folder: a folder that does not exist is an error naming its cfg.txt", "[io][run_folder]") {
  praxis::test::ScratchDir scratch("run_folder");
  const auto missing = scratch.path() / "never_made";
  CHECK_THROWS_AS(praxis::io::write_config(missing, {{"a", "1"}}), std::runtime_error);
  CHECK_THROWS_WITH(praxis::io::write_config(missing, {{"a", "1"}}),
                    "cannot write '" + (missing / "cfg.txt").string() + "'");
  CHECK_FALSE(fs::exists(missing));
}

}  // namespace run_folder_test
