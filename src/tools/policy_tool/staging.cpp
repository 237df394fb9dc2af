#include "staging.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "robots.hpp"

namespace praxis::policy_tool {

namespace {

std::filesystem::path unique_next_to(const std::filesystem::path& out, const std::string& tag) {
  std::string pattern = (out.parent_path() / ("." + out.filename().string() + ".praxis-policy-" + tag + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw UsageError("--out " + out.string() + ": cannot create a folder next to it (" + std::strerror(errno) + ")");
  }
  return pattern;
}

}  // namespace

Staging::Staging(std::filesystem::path out, bool force) : out_(std::move(out)), force_(force) {
  out_ = std::filesystem::absolute(out_).lexically_normal();
  if (out_.filename().empty()) out_ = out_.parent_path();
  std::error_code ec;
  const auto parent = out_.parent_path();
  if (!std::filesystem::is_directory(parent, ec)) {
    throw UsageError("--out " + out_.string() + ": its folder " + parent.string() + " does not exist");
  }
  const auto status = std::filesystem::symlink_status(out_, ec);
  if (std::filesystem::exists(status)) {
    if (!force_) throw UsageError("--out " + out_.string() + ": exists; --force replaces it");
    if (!std::filesystem::is_directory(status)) {
      throw UsageError("--out " + out_.string() + ": exists and is not a folder; praxis-policy replaces only a folder");
    }
  }
  dir_ = unique_next_to(out_, "");
}

Staging::~Staging() {
  if (committed_) return;
  std::error_code ignored;  // a destructor must not throw; the folder is hidden and named after --out
  std::filesystem::remove_all(dir_, ignored);
}

void Staging::commit() {
  std::error_code ec;
  std::filesystem::path old;
  if (std::filesystem::exists(std::filesystem::symlink_status(out_, ec))) {
    if (!force_) throw UsageError("--out " + out_.string() + ": appeared while importing; --force replaces it");
    old = unique_next_to(out_, "old-");
    std::filesystem::remove(old, ec);
    std::filesystem::rename(out_, old, ec);
    if (ec) throw UsageError("--out " + out_.string() + ": cannot be moved aside (" + ec.message() + ")");
  }
  std::filesystem::rename(dir_, out_, ec);
  if (ec) {
    std::error_code restore;
    if (!old.empty()) std::filesystem::rename(old, out_, restore);
    throw UsageError("--out " + out_.string() + ": cannot be written (" + ec.message() + ")");
  }
  committed_ = true;
  if (!old.empty()) std::filesystem::remove_all(old, ec);
}

std::string Staging::as_out(std::string message) const {
  const std::string from = dir_.string();
  const std::string to = out_.string();
  for (auto at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size())) {
    message.replace(at, from.size(), to);
  }
  return message;
}

}  // namespace praxis::policy_tool
