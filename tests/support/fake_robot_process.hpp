#pragma once
// A fake robot (praxis-fake-booster, -aurora, -tienkung) as a child process for two-process tests:
// started with --robot, --domain, --interface lo and --report; stop() ends it with SIGTERM, checks
// it exited 0 and returns its JSON report. A test that fails first kills it (SIGKILL).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

extern char** environ;

namespace praxis::test {

class FakeRobotProcess {
 public:
  FakeRobotProcess(const std::string& exe, const std::string& robot, std::uint32_t domain,
                   std::vector<std::string> extra = {}) {
    static std::atomic<int> counter{0};
    report_ = std::filesystem::temp_directory_path() /
              (std::filesystem::path(exe).filename().string() + "_" + std::to_string(::getpid()) + "_" +
               std::to_string(domain) + "_" + std::to_string(counter++) + ".json");
    std::vector<std::string> args{exe,         "--robot", robot, "--domain", std::to_string(domain),
                                  "--interface", "lo",    "--report", report_.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid_, exe.c_str(), nullptr, nullptr, argv.data(), environ) == 0);
  }
  ~FakeRobotProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove(report_);
  }
  FakeRobotProcess(const FakeRobotProcess&) = delete;
  FakeRobotProcess& operator=(const FakeRobotProcess&) = delete;

  nlohmann::json stop() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::ifstream in(report_);
    return nlohmann::json::parse(in);
  }

 private:
  pid_t pid_ = 0;
  std::filesystem::path report_;
};

}  // namespace praxis::test
