#pragma once
// A CSV recording of a reflected type: a header line from field_names<T>() and one row per record.
// It formats text and writes a file, so it allocates and does I/O: use it off the cycle (a logger
// thread draining a mailbox, a test, a tool), never inside a node's cycle. To record from the cycle,
// copy the values with for_each_field_value() into a preallocated buffer and write it here later.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "praxis/io/reflect_fields.hpp"

namespace praxis::io {

template <class T>
class CsvRecorder {
 public:
  // Creates (or truncates) `file` and writes the header. Throws std::runtime_error naming the file
  // if it cannot be written.
  explicit CsvRecorder(std::filesystem::path file) : path_(std::move(file)), out_(path_) {
    if (!out_) throw std::runtime_error(path_.string() + ": cannot be opened for writing");
    const char* separator = "";
    for (const auto& name : field_names<T>()) {
      out_ << separator << name;
      separator = ",";
    }
    out_ << '\n';
    check();
  }

  // Appends one row. Numbers are written in the shortest form that reads back to the same double;
  // NaN (an empty std::optional) is an empty cell.
  void record(const T& value) {
    line_.clear();
    bool first = true;
    for_each_field_value(value, [this, &first](double v) {
      if (!first) line_ += ',';
      first = false;
      if (std::isnan(v)) return;
      char buffer[32];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
      line_.append(buffer, result.ptr);
    });
    line_ += '\n';
    out_ << line_;
    check();
    ++rows_;
  }

  void flush() {
    out_.flush();
    check();
  }

  [[nodiscard]] std::size_t rows() const { return rows_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  void check() {
    if (!out_) throw std::runtime_error(path_.string() + ": write failed");
  }

  std::filesystem::path path_;
  std::ofstream out_;
  std::string line_;
  std::size_t rows_ = 0;
};

}  // namespace praxis::io
