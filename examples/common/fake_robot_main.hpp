#pragma once
// The start-up every fake robot shares (praxis-fake-robot, -booster, -aurora, -tienkung and
// praxis-sim), so each main() keeps only its own options and its run:
//
//  - the options they all take: -r,--robot (one of the fake's models), -d,--domain, -i,--interface
//    (default lo), --duration (seconds, 0: until SIGINT/SIGTERM) and --report (a JSON file);
//  - the stop: SIGINT or SIGTERM, or the process that started this one gone (parent_watch.hpp),
//    makes stop_requested() true; the run ends its loop and returns its report;
//  - the report: with --report written to the file; printed as one line of JSON, unless the fake
//    gives a summary, which is printed instead when the report went to a file;
//  - the exit codes: CLI11's for a command line it rejects (0 for --help), 2 for an error before or
//    while running (printed as "<program>: <what>"), 0 after a run.

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parent_watch.hpp"

namespace fake_common {

// Set from the signal handler. A namespace-scope variable, not a function-local static: the
// handler may be the first to touch it.
inline std::atomic<bool> g_stop_signalled{false};

// Constructed at start-up by fake_robot_main(): it remembers the parent this process had then.
inline const ParentWatch& parent_watch() {
  static const ParentWatch watch;
  return watch;
}

// True once SIGINT or SIGTERM arrived or the parent is gone: the fake's loop ends, its report is
// written.
inline bool stop_requested() { return g_stop_signalled.load() || parent_watch().parent_gone(); }

// The options every fake takes; a fake's own settings derive from it.
struct Settings {
  std::string robot;
  std::uint32_t domain = 0;
  std::string interface = "lo";
  double duration = 0.0;  // s; 0: until SIGINT/SIGTERM
  std::string report;     // the JSON report's file; empty: printed only
};

// What differs between the fakes in the shared options.
struct Fake {
  std::string program;              // names the messages: "praxis-fake-booster"
  std::string description;          // --help's first line
  std::vector<std::string> robots;  // --robot's choices
  std::string robot;                // --robot's default
  std::uint32_t domain = 0;         // --domain's default
  std::string domain_help = "DDS domain id";
  std::string report_help = "write what happened as JSON to this file at exit";
};

struct Report {
  nlohmann::json json;
  // With --report, printed instead of the JSON as "<program>: <summary>; report in <file>". Empty:
  // the JSON is printed whether or not it went to a file too.
  std::string summary;
};

inline void write_report(const Fake& fake, const Report& report, const std::string& file, std::ostream& out) {
  if (!file.empty()) {
    std::ofstream stream(file);
    stream << report.json.dump(2) << '\n';
    if (!stream) throw std::runtime_error("--report: cannot write \"" + file + "\"");
  }
  if (file.empty() || report.summary.empty()) {
    out << report.json.dump() << '\n';
  } else {
    out << fake.program << ": " << report.summary << "; report in " << file << '\n';
  }
  out.flush();
}

namespace detail {
inline void on_stop_signal(int) { g_stop_signalled = true; }
}  // namespace detail

// Parses the command line into `settings` (the shared options, then add_options(app) for the fake's
// own; the fake may change a shared option's description there), then calls run() -> Report and
// writes the report. Returns the process's exit code.
template <class AddOptions, class Run>
int fake_robot_main(int argc, const char* const* argv, const Fake& fake, Settings& settings, AddOptions add_options,
                    Run run, std::ostream& out = std::cout, std::ostream& err = std::cerr) {
  settings.robot = fake.robot;
  settings.domain = fake.domain;
  CLI::App app{fake.description};
  app.add_option("-r,--robot", settings.robot, "robot model")->check(CLI::IsMember(fake.robots));
  app.add_option("-d,--domain", settings.domain, fake.domain_help);
  app.add_option("-i,--interface", settings.interface, "network interface");
  app.add_option("--duration", settings.duration, "seconds to run (0: until SIGINT/SIGTERM)");
  app.add_option("--report", settings.report, fake.report_help);
  add_options(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }
  (void)parent_watch();
  g_stop_signalled = false;
  std::signal(SIGINT, detail::on_stop_signal);
  std::signal(SIGTERM, detail::on_stop_signal);
  try {
    write_report(fake, run(), settings.report, out);
    return 0;
  } catch (const std::exception& e) {
    err << fake.program << ": " << e.what() << '\n';
    return 2;
  }
}

}  // namespace fake_common
