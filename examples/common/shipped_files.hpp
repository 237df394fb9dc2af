#pragma once
// Where a program of praxis' finds the files and programs it ships with (the example parameters, policies,
// scripts, models): installed, next to the binary in ../share/praxis/<what> (cmake --install puts
// them there); in the build tree, the folder the build named. The installed one wins when it exists,
// so a binary that was installed never reads the tree it was built from.

#include <filesystem>
#include <string_view>
#include <system_error>

namespace praxis::examples {

inline std::filesystem::path shipped_files(std::string_view what, const std::filesystem::path& in_build_tree) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "praxis" / what;
    if (std::filesystem::is_directory(installed, ec)) return installed;
  }
  return in_build_tree;
}

// This program's own file, for the programs shipped next to it (praxis-sim, the fake robots): argv[0]
// is only a name when the program was found through PATH.
inline std::filesystem::path own_path(const char* argv0) {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path(argv0) : exe;
}

}  // namespace praxis::examples
