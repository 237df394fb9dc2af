#pragma once
// The output folder, written whole or not at all: everything goes into a hidden folder next to
// --out (same file system, so the final rename is atomic), which replaces --out only after every
// check passed. A refused import removes it and leaves --out as it was.

#include <filesystem>
#include <string>

namespace praxis::policy_tool {

class Staging {
 public:
  // Refuses (UsageError) an existing `out` unless `force`, and a missing parent folder; creates
  // "<parent>/.<name>.praxis-policy-XXXXXX".
  Staging(std::filesystem::path out, bool force);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] const std::filesystem::path& out() const { return out_; }

  // Moves the folder into place as `out` (an existing one, with --force, is replaced whole).
  void commit();

  // A message about the staged files, naming `out` instead of the hidden folder.
  [[nodiscard]] std::string as_out(std::string message) const;

 private:
  std::filesystem::path out_;
  std::filesystem::path dir_;
  bool force_ = false;
  bool committed_ = false;
};

}  // namespace praxis::policy_tool
