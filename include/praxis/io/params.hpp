#pragma once
// Parameter files (JSON), read before anything moves. Every error names the file, the key and what
// was expected, e.g.
//   params/params.json: key "init_pos": expected an array of 12 numbers, found an array of 11
// A ParamFile is loaded and checked as a whole before any value is handed out, so a bad file never
// leaves a controller half-configured.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace praxis::io {

class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ParamFile {
 public:
  // Reads and parses `file`; throws ParamError if it is missing, unreadable or not a JSON object.
  static ParamFile load(const std::filesystem::path& file);
  // The same from text already in memory; `origin` stands for the file in error messages and path().
  static ParamFile parse(std::string_view text, const std::filesystem::path& origin);
  // `<folder>/params.json`, the layout of the Unitree deployment framework's --param folder.
  static ParamFile load_folder(const std::filesystem::path& folder);

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] bool has(std::string_view key) const;
  // What a key holds, for keys that take one of several forms ("kp": 40, [..], or "model").
  [[nodiscard]] bool is_number(std::string_view key) const;
  [[nodiscard]] bool is_text(std::string_view key) const;

  [[nodiscard]] double number(std::string_view key) const;
  [[nodiscard]] bool boolean(std::string_view key) const;
  [[nodiscard]] std::string text(std::string_view key) const;
  [[nodiscard]] std::vector<double> numbers(std::string_view key, std::size_t expected_length) const;

  template <class T, std::size_t N>
  [[nodiscard]] std::array<T, N> array(std::string_view key) const {
    const auto values = numbers(key, N);
    std::array<T, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = static_cast<T>(values[i]);
    return out;
  }

  ParamFile(const ParamFile&);
  ParamFile(ParamFile&&) noexcept;
  ParamFile& operator=(const ParamFile&);
  ParamFile& operator=(ParamFile&&) noexcept;
  ~ParamFile();

 private:
  struct Json;
  ParamFile(std::filesystem::path path, std::unique_ptr<Json> json);
  [[noreturn]] void fail(std::string_view key, std::string_view expected, std::string_view found) const;

  std::filesystem::path path_;
  std::unique_ptr<Json> json_;
};

}  // namespace praxis::io
