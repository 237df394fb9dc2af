#include "praxis/io/run_folder.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <stdexcept>

namespace praxis::io {

std::filesystem::path create_run_folder(const std::filesystem::path& base) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y_%m_%d_%H_%M_%S", &local);

  std::error_code ec;
  std::filesystem::create_directories(base, ec);
  if (ec) throw std::runtime_error("cannot create log folder '" + base.string() + "': " + ec.message());
  for (int k = 1; k < 1000; ++k) {
    auto folder = base / (k == 1 ? std::string(stamp) : std::string(stamp) + "_" + std::to_string(k));
    if (std::filesystem::create_directory(folder, ec)) return folder;
    if (ec) throw std::runtime_error("cannot create run folder '" + folder.string() + "': " + ec.message());
  }
  throw std::runtime_error("too many run folders for one second under '" + base.string() + "'");
}

void write_config(const std::filesystem::path& folder,
                  const std::vector<std::pair<std::string, std::string>>& entries) {
  std::ofstream out(folder / "cfg.txt");
  if (!out) throw std::runtime_error("cannot write '" + (folder / "cfg.txt").string() + "'");
  for (const auto& [key, value] : entries) out << key << ": " << value << '\n';
}

}  // namespace praxis::io
