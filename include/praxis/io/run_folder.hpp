#pragma once
// Run folders: logs/<YYYY_MM_DD_HH_MM_SS>/ with cfg.txt, as the Unitree deployment framework lays
// them out. A second run within the same second gets a "_2", "_3", ... suffix instead of mixing logs.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace praxis::io {

// Creates and returns `<base>/<local time stamp>[_k]`. Throws std::runtime_error naming the folder
// if it cannot be created.
std::filesystem::path create_run_folder(const std::filesystem::path& base);

// Writes `key: value` lines to `<folder>/cfg.txt`.
void write_config(const std::filesystem::path& folder,
                  const std::vector<std::pair<std::string, std::string>>& entries);

}  // namespace praxis::io
