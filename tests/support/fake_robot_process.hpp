#pragma once
// A fake robot (praxis-fake-booster, -aurora, -tienkung) as a child process for two-process tests:
// started with --robot, --domain, --interface lo and --report; stop() ends it with SIGTERM, checks
// it exited 0 and returns its JSON report (or wait_for_exit() lets it end by itself first). A test that fails first kills it (SIGKILL).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
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
    if (pid_ > 0 && !exited_) {  // a reaped id may already be another process's
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::filesystem::remove(report_);
  }
  FakeRobotProcess(const FakeRobotProcess&) = delete;
  FakeRobotProcess& operator=(const FakeRobotProcess&) = delete;

  // Waits up to `timeout` for the process to end by itself (its --duration); whether it did. stop()
  // then only collects the report.
  bool wait_for_exit(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!exited_) {
      exited_ = ::waitpid(pid_, &status_, WNOHANG) == pid_;
      if (exited_ || std::chrono::steady_clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exited_;
  }

  nlohmann::json stop() {
    if (!exited_) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, &status_, 0);
    }
    const int status = status_;
    pid_ = 0;
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    std::ifstream in(report_);
    return nlohmann::json::parse(in);
  }

 private:
  pid_t pid_ = 0;
  int status_ = 0;
  bool exited_ = false;
  std::filesystem::path report_;
};

}  // namespace praxis::test
