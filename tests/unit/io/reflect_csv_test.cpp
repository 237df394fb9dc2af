// praxis::io::CsvRecorder (io/reflect_csv.hpp): the header is the leading columns and then the
// type's flattened field names, an existing file is truncated, record() and record_row() each
// append one row of exactly columns() cells, numbers are written in the shortest form that reads
// back to the same double and NaN as an empty cell, a misuse (record() with leading columns, a row
// of the wrong length) is an error naming the file that writes nothing, and a failed write is an
// error naming the file that does not count the row.

#include <catch2/catch.hpp>

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <boost/hana/define_struct.hpp>

#include "../../support/scratch_dir.hpp"
#include "praxis/io/reflect_csv.hpp"

namespace reflect_csv_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct Sample {
  BOOST_HANA_DEFINE_STRUCT(Sample,
    (double, x),
    (std::array<float, 2>, v),
    (std::string, note),  // not a number: no column
    (bool, ok),
    (std::optional<double>, estimate),
    (std::chrono::milliseconds, age));
};

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
constexpr double k_inf = std::numeric_limits<double>::infinity();

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (const char c : line) {
    if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

double parse(const std::string& cell) {
  double v = k_nan;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  CHECK(ec == std::errc{});
  CHECK(end == cell.data() + cell.size());
  return v;
}

TEST_CASE("reflect csv: the header is the leading columns then the fields and a string member has none",
          "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "sample.csv";
  {
    praxis::io::CsvRecorder<Sample> recorder(file, {"time", "cycle"});
    CHECK(recorder.columns() == 2 + 1 + 2 + 1 + 1 + 1);
    CHECK(recorder.rows() == 0);
    CHECK(recorder.path() == file);
  }
  CHECK(text_of(file) == "time,cycle,x,v[0],v[1],ok,estimate,age\n");
  {
    praxis::io::CsvRecorder<Sample> recorder(file);
    CHECK(recorder.columns() == 6);
  }
  CHECK(text_of(file) == "x,v[0],v[1],ok,estimate,age\n");
  // A port of a plain type is one column named "value"; an array is "value[i]".
  {
    praxis::io::CsvRecorder<double> recorder(dir / "double.csv", {"t"});
    CHECK(recorder.columns() == 2);
  }
  CHECK(text_of(dir / "double.csv") == "t,value\n");
  {
    praxis::io::CsvRecorder<std::array<int, 3>> recorder(dir / "array.csv");
    CHECK(recorder.columns() == 3);
  }
  CHECK(text_of(dir / "array.csv") == "value[0],value[1],value[2]\n");
}

TEST_CASE("reflect csv: an existing file is truncated to the new header", "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir.write("old.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9\n");
  {
    praxis::io::CsvRecorder<Sample> recorder(file);
    Sample s{};
    s.x = 1.0;
    recorder.record(s);
  }
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "x,v[0],v[1],ok,estimate,age");
  CHECK(lines[1] == "1,0,0,0,,0");
}

TEST_CASE("reflect csv: record writes one row per value in field order and counts it", "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "rows.csv";
  {
    praxis::io::CsvRecorder<Sample> recorder(file);
    Sample s{};
    s.note = "left out, with a comma that would break the row";
    s.x = -2.5;
    s.v = {0.5f, -8.0f};
    s.ok = true;
    s.estimate = 0.75;
    s.age = 1250ms;
    recorder.record(s);
    CHECK(recorder.rows() == 1);
    s.x = 3.0;
    s.ok = false;
    s.estimate.reset();  // every column of an empty optional is an empty cell
    s.age = -20ms;
    recorder.record(s);
    CHECK(recorder.rows() == 2);
  }
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "-2.5,0.5,-8,1,0.75,1.25");
  CHECK(lines[2] == "3,0.5,-8,0,,-0.02");
  CHECK(cells_of(lines[2]).size() == 6);
}

TEST_CASE("reflect csv: numbers are the shortest text that reads back to the same double",
          "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "numbers.csv";
  const std::vector<double> values{0.1,  1.0 / 3.0, -1e-7, 123456789.0, 1e300, 5e-324, -0.0,
                                   2.0,  0.30000000000000004, std::nextafter(1.0, 2.0)};
  {
    praxis::io::CsvRecorder<double> recorder(file);
    for (const double v : values) recorder.record(v);
    CHECK(recorder.rows() == values.size());
  }
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == values.size() + 1);
  for (std::size_t i = 0; i < values.size(); ++i) {
    CAPTURE(i, lines[i + 1]);
    const double back = parse(lines[i + 1]);
    CHECK(back == values[i]);
    CHECK(std::signbit(back) == std::signbit(values[i]));
    // Shortest: one significant digit fewer no longer reads back (checked on the digits given).
    char shorter[64];
    const auto r = std::to_chars(shorter, shorter + sizeof shorter, values[i], std::chars_format::general,
                                 std::numeric_limits<double>::max_digits10);
    CHECK(lines[i + 1].size() <= static_cast<std::size_t>(r.ptr - shorter));
  }
  // Hand-checked forms: no trailing zeros, no exponent for ordinary magnitudes.
  CHECK(lines[1] == "0.1");
  CHECK(lines[4] == "123456789");
  CHECK(lines[7] == "-0");
  CHECK(lines[8] == "2");
}

TEST_CASE("reflect csv: record_row writes exactly columns values with NaN as an empty cell",
          "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "flat.csv";
  {
    praxis::io::CsvRecorder<std::array<double, 2>> recorder(file, {"time"});
    REQUIRE(recorder.columns() == 3);
    const std::array<double, 3> row{0.002, k_nan, 4.0};
    recorder.record_row(row);
    const std::array<double, 3> all_nan{k_nan, k_nan, k_nan};
    recorder.record_row(all_nan);
    const std::array<double, 3> infinite{k_inf, -k_inf, 0.0};
    recorder.record_row(infinite);
    CHECK(recorder.rows() == 3);
  }
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "time,value[0],value[1]");
  CHECK(lines[1] == "0.002,,4");
  CHECK(lines[2] == ",,");  // three empty cells, still three columns
  CHECK(cells_of(lines[2]).size() == 3);
  CHECK(lines[3] == "inf,-inf,0");

  // Without leading columns, record_row takes the type's columns alone.
  praxis::io::CsvRecorder<Sample> plain(dir / "plain.csv");
  const std::array<double, 6> six{1, 2, 3, 4, 5, 6};
  plain.record_row(six);
  plain.flush();
  CHECK(lines_of(dir / "plain.csv").at(1) == "1,2,3,4,5,6");
}

TEST_CASE("reflect csv: a row of the wrong length and record with leading columns are errors that write nothing",
          "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "misuse.csv";
  praxis::io::CsvRecorder<Sample> recorder(file, {"time"});
  REQUIRE(recorder.columns() == 7);
  const std::vector<double> short_row(6, 1.0);
  const std::vector<double> long_row(8, 1.0);
  CHECK_THROWS_AS(recorder.record_row(short_row), std::invalid_argument);
  CHECK_THROWS_WITH(recorder.record_row(short_row), file.string() + ": a row of 6 values, expected 7");
  CHECK_THROWS_WITH(recorder.record_row(long_row), file.string() + ": a row of 8 values, expected 7");
  CHECK_THROWS_WITH(recorder.record_row(std::span<const double>{}), file.string() + ": a row of 0 values, expected 7");
  CHECK_THROWS_AS(recorder.record(Sample{}), std::logic_error);
  CHECK_THROWS_WITH(recorder.record(Sample{}),
                    file.string() + ": this recording has leading columns; use record_row");
  CHECK(recorder.rows() == 0);
  // A good row after the refused ones is the first row: nothing of them reached the line.
  const std::vector<double> good{0.5, 1, 2, 3, 1, 4, 5};
  recorder.record_row(good);
  recorder.flush();
  CHECK(recorder.rows() == 1);
  const auto lines = lines_of(file);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == "0.5,1,2,3,1,4,5");
}

TEST_CASE("reflect csv: flush makes the rows readable while the recorder is open", "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto file = dir / "live.csv";
  praxis::io::CsvRecorder<double> recorder(file, {"t"});
  for (int i = 0; i < 3; ++i) {
    const std::array<double, 2> row{0.5 * i, 10.0 * i};
    recorder.record_row(row);
  }
  recorder.flush();
  CHECK(text_of(file) == "t,value\n0,0\n0.5,10\n1,20\n");
}

TEST_CASE("reflect csv: a file that cannot be created or written is an error naming it", "[io][reflect_csv]") {
  praxis::test::ScratchDir dir("reflect_csv");
  const auto missing = dir / "no" / "such" / "folder.csv";
  CHECK_THROWS_AS(praxis::io::CsvRecorder<double>(missing), std::runtime_error);
  CHECK_THROWS_WITH(praxis::io::CsvRecorder<double>(missing), missing.string() + ": cannot be opened for writing");
  CHECK_FALSE(fs::exists(missing));
  CHECK_THROWS_WITH(praxis::io::CsvRecorder<double>(dir.path()), dir.path().string() + ": cannot be opened for writing");

  // /dev/full opens but fails every write that reaches it: the failure shows at the flush, and the
  // row that could not be written is not counted.
  const fs::path full = "/dev/full";
  if (!fs::exists(full)) return;
  praxis::io::CsvRecorder<double> recorder(full);
  CHECK_THROWS_WITH(recorder.flush(), "/dev/full: write failed");
  CHECK_THROWS_WITH(recorder.record(1.0), "/dev/full: write failed");
  CHECK(recorder.rows() == 0);
}

}  // namespace reflect_csv_test
