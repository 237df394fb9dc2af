#pragma once
// Test support for the simulation tests: a folder of model files the test writes itself (MJCF and
// small binary STL meshes), removed with the folder at the end of the test.

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace sim_test_files {

class ModelFolder {
 public:
  explicit ModelFolder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("praxis_sim_test_" + std::to_string(::getpid()) + "_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ModelFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ModelFolder(const ModelFolder&) = delete;
  ModelFolder& operator=(const ModelFolder&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  // A binary STL tetrahedron with its corners at the origin and at `size` along each axis.
  std::filesystem::path write_stl(const std::string& relative, float size = 0.1f) const {
    const float o[3] = {0, 0, 0}, x[3] = {size, 0, 0}, y[3] = {0, size, 0}, z[3] = {0, 0, size};
    const float* faces[4][3] = {{o, y, x}, {o, x, z}, {o, z, y}, {x, y, z}};
    std::string data(80, ' ');
    const auto put = [&](const void* p, std::size_t n) { data.append(static_cast<const char*>(p), n); };
    const std::uint32_t count = 4;
    put(&count, 4);
    for (const auto& f : faces) {
      const float normal[3] = {0, 0, 0};  // MuJoCo computes its own
      put(normal, 12);
      for (const float* v : f) put(v, 12);
      const std::uint16_t attributes = 0;
      put(&attributes, 2);
    }
    return write(relative, data);
  }

 private:
  std::filesystem::path path_;
};

inline std::string read(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The 1-based line of the first occurrence of `what` in `text` (0 if absent).
inline int line_of(const std::string& text, const std::string& what) {
  const auto at = text.find(what);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

}  // namespace sim_test_files
