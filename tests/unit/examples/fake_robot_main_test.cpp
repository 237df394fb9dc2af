// The fake robots' shared start-up (examples/common/fake_robot_main.hpp): the shared options and
// their defaults, what a bad command line, an error in the run and a stop signal each lead to (exit
// code, message, report), and where the report goes.

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "../../../examples/common/fake_robot_main.hpp"

namespace {
namespace fake_robot_main_test {

struct Settings : fake_common::Settings {
  int extra = 0;
};

const fake_common::Fake k_fake{.program = "praxis-fake-test",
                               .description = "praxis-fake-test: a fake robot for this test",
                               .robots = {"alpha", "beta"},
                               .robot = "beta",
                               .domain = 42,
                               .domain_help = "DDS domain id (this test: 42)"};

// The run's signal handlers are the process's: Catch2's own are put back after each case.
class KeepSignalHandlers {
 public:
  KeepSignalHandlers() : int_(std::signal(SIGINT, SIG_DFL)), term_(std::signal(SIGTERM, SIG_DFL)) {
    std::signal(SIGINT, int_);
    std::signal(SIGTERM, term_);
  }
  ~KeepSignalHandlers() {
    std::signal(SIGINT, int_);
    std::signal(SIGTERM, term_);
  }
  KeepSignalHandlers(const KeepSignalHandlers&) = delete;
  KeepSignalHandlers& operator=(const KeepSignalHandlers&) = delete;

 private:
  void (*int_)(int);
  void (*term_)(int);
};

// One call of fake_robot_main with `args` after the program name; what it printed and returned.
struct Outcome {
  int code = -1;
  std::string out, err;
  int runs = 0;
};

template <class Run>
Outcome start(Settings& s, std::initializer_list<const char*> args, Run run) {
  const KeepSignalHandlers keep;
  std::vector<const char*> argv{"praxis-fake-test"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::ostringstream out, err;
  Outcome o;
  const auto add_options = [&s](CLI::App& app) { app.add_option("--extra", s.extra, "this fake's own option"); };
  o.code = fake_common::fake_robot_main(static_cast<int>(argv.size()), argv.data(), k_fake, s, add_options,
                                        [&] {
                                          ++o.runs;
                                          return run();
                                        },
                                        out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

fake_common::Report small_report() { return {nlohmann::json{{"robot", "beta"}, {"count", 3}}, "3 things counted"}; }

// A report file in the temporary directory, removed with the test.
class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("praxis_fake_robot_main_test_" + std::to_string(::getpid()) + "_" + name + ".json")) {
    std::filesystem::remove(path_);
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }
  [[nodiscard]] nlohmann::json json() const {
    std::ifstream in(path_);
    return nlohmann::json::parse(in);
  }

 private:
  std::filesystem::path path_;
};

TEST_CASE("the shared options start at the fake's defaults") {
  Settings s;
  s.robot = "set before";  // the fake's default wins over whatever the settings held
  const auto o = start(s, {}, small_report);
  CHECK(o.code == 0);
  CHECK(o.runs == 1);
  CHECK(s.robot == "beta");
  CHECK(s.domain == 42);
  CHECK(s.interface == "lo");
  CHECK(s.duration == 0.0);
  CHECK(s.report.empty());
  CHECK(s.extra == 0);
}

TEST_CASE("the command line sets the shared options and the fake's own") {
  Settings s;
  const auto o = start(s, {"-r", "alpha", "-d", "7", "-i", "eth1", "--duration", "2.5", "--extra", "9"}, small_report);
  CHECK(o.code == 0);
  CHECK(s.robot == "alpha");
  CHECK(s.domain == 7);
  CHECK(s.interface == "eth1");
  CHECK(s.duration == 2.5);
  CHECK(s.extra == 9);
}

TEST_CASE("a robot the fake does not impersonate is refused before the run with CLI11's validation code") {
  Settings s;
  const auto o = start(s, {"--robot", "gamma"}, small_report);
  CHECK(o.code == static_cast<int>(CLI::ExitCodes::ValidationError));
  CHECK(o.runs == 0);
  CHECK_THAT(o.err, Catch::Contains("--robot") && Catch::Contains("gamma"));
  CHECK(o.out.empty());  // no report for a run that never happened
}

TEST_CASE("an unknown option is refused before the run with CLI11's code for extra arguments") {
  Settings s;
  const auto o = start(s, {"--gamepad", "A:1"}, small_report);  // another fake's option, not this one's
  CHECK(o.code == static_cast<int>(CLI::ExitCodes::ExtrasError));
  CHECK(o.runs == 0);
  CHECK_THAT(o.err, Catch::Contains("--gamepad"));
}

TEST_CASE("a value of the wrong type is refused before the run with CLI11's conversion code") {
  Settings s;
  const auto o = start(s, {"--domain", "one"}, small_report);
  CHECK(o.code == static_cast<int>(CLI::ExitCodes::ConversionError));
  CHECK(o.runs == 0);
}

TEST_CASE("--help lists the shared options and the fake's own and exits 0 without running") {
  Settings s;
  const auto o = start(s, {"--help"}, small_report);
  CHECK(o.code == 0);
  CHECK(o.runs == 0);
  for (const char* text : {"praxis-fake-test: a fake robot for this test", "--robot", "--domain",
                           "DDS domain id (this test: 42)", "--interface", "--duration", "--report", "--extra"}) {
    CHECK_THAT(o.out, Catch::Contains(text));
  }
}

TEST_CASE("an error in the run is printed after the program's name and exits 2 without a report") {
  Settings s;
  const TempFile file("error");
  const auto o = start(s, {"--report", file.path().c_str()},
                       []() -> fake_common::Report { throw std::invalid_argument("--tilt: expected T:ROLL:PITCH"); });
  CHECK(o.code == 2);
  CHECK(o.err == "praxis-fake-test: --tilt: expected T:ROLL:PITCH\n");
  CHECK(o.out.empty());
  CHECK_FALSE(std::filesystem::exists(file.path()));
}

// A run that stops only when asked to, after raising `signal` at itself.
fake_common::Report run_until_stopped(int signal, bool& stopped_by_signal) {
  CHECK_FALSE(fake_common::stop_requested());  // every run starts without a stop
  std::raise(signal);
  for (int k = 0; k < 1000 && !fake_common::stop_requested(); ++k) {
  }
  stopped_by_signal = fake_common::stop_requested();
  return small_report();
}

TEST_CASE("SIGTERM and SIGINT end the run and the report is still written") {
  for (const int signal : {SIGTERM, SIGINT, SIGTERM}) {  // the third: a stop does not outlive its run
    INFO("signal " << signal);
    Settings s;
    const TempFile file("signal");
    bool stopped = false;
    const auto o = start(s, {"--report", file.path().c_str()}, [&] { return run_until_stopped(signal, stopped); });
    CHECK(stopped);
    CHECK(o.code == 0);
    REQUIRE(std::filesystem::exists(file.path()));
    CHECK(file.json() == small_report().json);
  }
}

TEST_CASE("with --report and a summary the summary is printed instead of the JSON") {
  Settings s;
  const TempFile file("summary");
  const auto o = start(s, {"--report", file.path().c_str()}, small_report);
  CHECK(o.code == 0);
  CHECK(o.out == "praxis-fake-test: 3 things counted; report in " + file.path() + "\n");
  CHECK(file.json() == small_report().json);
}

TEST_CASE("without a summary the JSON is printed whether or not it went to a file too") {
  const auto no_summary = [] { return fake_common::Report{small_report().json, ""}; };
  Settings s;
  SECTION("no --report: printed only") {
    const auto o = start(s, {}, no_summary);
    CHECK(o.code == 0);
    CHECK(nlohmann::json::parse(o.out) == small_report().json);
  }
  SECTION("--report: printed and written") {
    const TempFile file("no_summary");
    const auto o = start(s, {"--report", file.path().c_str()}, no_summary);
    CHECK(o.code == 0);
    CHECK(nlohmann::json::parse(o.out) == small_report().json);
    CHECK(file.json() == small_report().json);
  }
  SECTION("a summary without --report: the JSON, not the summary") {
    const auto o = start(s, {}, small_report);
    CHECK(nlohmann::json::parse(o.out) == small_report().json);
  }
}

TEST_CASE("a report file that cannot be written is an error naming --report and the file") {
  Settings s;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("praxis_no_such_folder_" + std::to_string(::getpid())) / "r.json")
          .string();
  const auto o = start(s, {"--report", path.c_str()}, small_report);
  CHECK(o.code == 2);
  CHECK_THAT(o.err, Catch::StartsWith("praxis-fake-test: --report: cannot write") && Catch::Contains(path));
}

}  // namespace fake_robot_main_test
}  // namespace
