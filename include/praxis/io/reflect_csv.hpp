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
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "praxis/io/reflect_fields.hpp"

namespace praxis::io {

template <class T>
class CsvRecorder {
 public:
  // Creates (or truncates) `file` and writes the header: `leading` columns first (e.g. "time"), then
  // T's fields. Throws std::runtime_error naming the file if it cannot be written.
  explicit CsvRecorder(std::filesystem::path file, std::initializer_list<std::string_view> leading = {})
      : path_(std::move(file)), out_(path_), leading_(leading.size()) {
    if (!out_) throw std::runtime_error(path_.string() + ": cannot be opened for writing");
    const char* separator = "";
    for (const auto name : leading) {
      out_ << separator << name;
      separator = ",";
    }
    for (const auto& name : field_names<T>()) {
      out_ << separator << name;
      separator = ",";
    }
    out_ << '\n';
    check();
  }

  // Columns per row: the leading ones, then T's.
  [[nodiscard]] std::size_t columns() const { return leading_ + field_count<T>(); }

  // Appends one row (only for a recorder without leading columns). Numbers are written in the
  // shortest form that reads back to the same double; NaN (an empty std::optional) is an empty cell.
  void record(const T& value) {
    if (leading_ != 0) throw std::logic_error(path_.string() + ": this recording has leading columns; use record_row");
    line_.clear();
    bool first = true;
    for_each_field_value(value, [this, &first](double v) { append(v, first); });
    finish_line();
  }

  // Appends one row already flattened (a recorder fed from the cycle copies values into such rows):
  // exactly columns() numbers, the leading ones first.
  void record_row(std::span<const double> row) {
    if (row.size() != columns()) {
      throw std::invalid_argument(path_.string() + ": a row of " + std::to_string(row.size()) + " values, expected " +
                                  std::to_string(columns()));
    }
    line_.clear();
    bool first = true;
    for (const double v : row) append(v, first);
    finish_line();
  }

  void flush() {
    out_.flush();
    check();
  }

  [[nodiscard]] std::size_t rows() const { return rows_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  void append(double v, bool& first) {
    if (!first) line_ += ',';
    first = false;
    if (std::isnan(v)) return;
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    line_.append(buffer, result.ptr);
  }
  void finish_line() {
    line_ += '\n';
    out_ << line_;
    check();
    ++rows_;
  }
  void check() {
    if (!out_) throw std::runtime_error(path_.string() + ": write failed");
  }

  std::filesystem::path path_;
  std::ofstream out_;
  std::size_t leading_ = 0;
  std::string line_;
  std::size_t rows_ = 0;
};

}  // namespace praxis::io
