// A folder of its own for the files one test writes, removed with everything in it when the test
// ends. Named after the process and a counter, so two runs of the suite at the same time (or two
// test cases of one run) never read or overwrite each other's files, which fixed names under /tmp
// did.
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include <unistd.h>

namespace praxis::test {

class ScratchDir {
 public:
  // `tag` only makes a leftover folder (a test killed before its destructor ran) recognisable.
  explicit ScratchDir(const std::string& tag = "test")
      : path_(std::filesystem::temp_directory_path() /
              ("praxis_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(next_id()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;  // a destructor must not throw; a leftover folder is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  // Writes `text` to `name` in the folder (subfolders created) and returns the file's path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error("ScratchDir: could not write " + file.string());
    return file;
  }

 private:
  static int next_id() {
    static std::atomic<int> id{0};
    return id++;
  }
  std::filesystem::path path_;
};

}  // namespace praxis::test
