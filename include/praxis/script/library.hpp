#pragma once
// ScriptLibrary<M>: every script of one robot, loaded and validated before the loop, found by
// name in the cycle without allocating.

#include <algorithm>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/core/robot_model.hpp"
#include "praxis/script/loader.hpp"
#include "praxis/script/player.hpp"

namespace praxis::script {

template <RobotModel M>
class ScriptLibrary {
 public:
  static constexpr std::size_t N = M::joint_count;

  // Loads every *.json in `folder` (sorted by name). Throws ScriptError naming the first bad file;
  // on error the library is left as it was.
  void load_folder(const std::filesystem::path& folder, const GainMapping& gains = {}) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
      throw ScriptError(folder.string() + ": script folder not found");
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(folder)) {
      if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<Script<N>> loaded;
    for (const auto& f : files) loaded.push_back(load_script<M>(f, gains));
    for (auto& s : loaded) add(std::move(s));
  }

  // Adds a script (replacing one of the same name); the reference stays valid for the library's life.
  const Script<N>& add(Script<N> script) {
    for (auto& s : scripts_) {
      if (s.name == script.name) {
        s = std::move(script);
        return s;
      }
    }
    scripts_.push_back(std::move(script));
    return scripts_.back();
  }

  [[nodiscard]] const Script<N>* find(std::string_view name) const {
    for (const auto& s : scripts_) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }

  // ExecuteScriptByName -> ExecuteScript; empty if a name is unknown.
  [[nodiscard]] std::optional<ExecuteScript<N>> resolve(const ExecuteScriptByName& by_name) const {
    ExecuteScript<N> r;
    r.priority = by_name.priority;
    r.duration = by_name.duration;
    r.start = by_name.start;
    r.count = by_name.count;
    if (by_name.count == 0 || by_name.count > k_max_sequence) return std::nullopt;
    for (std::size_t k = 0; k < by_name.count; ++k) {
      r.scripts[k] = find(by_name.names[k]);
      if (r.scripts[k] == nullptr) return std::nullopt;
    }
    return r;
  }

  [[nodiscard]] std::vector<std::string_view> names() const {
    std::vector<std::string_view> out;
    for (const auto& s : scripts_) out.push_back(s.name);
    return out;
  }
  [[nodiscard]] std::size_t size() const { return scripts_.size(); }

 private:
  std::deque<Script<N>> scripts_;  // a deque keeps references stable as scripts are added
};

}  // namespace praxis::script
