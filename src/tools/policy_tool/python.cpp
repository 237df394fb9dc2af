#include "python.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "robots.hpp"

#ifndef PRAXIS_POLICY_SCRIPT_FROM_BIN
#define PRAXIS_POLICY_SCRIPT_FROM_BIN "../share/praxis"
#endif

extern char** environ;

namespace praxis::policy_tool {

namespace {

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

// The last lines of a crash's stderr: a traceback's end says what went wrong.
std::string tail(const std::string& text, std::size_t lines) {
  std::size_t at = text.size();
  for (std::size_t n = 0; n < lines && at > 0; ++n) {
    const auto nl = text.rfind('\n', at - 1);
    if (nl == std::string::npos) return text;
    at = nl;
  }
  return text.substr(at + 1);
}

}  // namespace

ProcessResult run_process(const std::filesystem::path& exe, const std::vector<std::string>& args) {
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO);
  std::vector<std::string> all{exe.string()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw UsageError(exe.string() + ": cannot be run (" + std::strerror(spawned) +
                     "): praxis-policy needs Debian's python3 with python3-yaml (and python3-torch for "
                     "TorchScript policies): scripts/install-deps.sh, or --python");
  }
  out.close_write();
  err.close_write();

  ProcessResult result;
  std::array<pollfd, 2> fds{pollfd{out.read, POLLIN, 0}, pollfd{err.read, POLLIN, 0}};
  std::array<std::string*, 2> into{&result.out, &result.err};
  std::array<char, 4096> buffer{};
  int open = 2;
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (n > 0) {
        into[i]->append(buffer.data(), static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::filesystem::path PythonHalf::installed_script() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw UsageError("cannot find praxis-policy's own path (/proc/self/exe: " + ec.message() + ")");
  const auto script = (exe.parent_path() / PRAXIS_POLICY_SCRIPT_FROM_BIN / "praxis_policy.py").lexically_normal();
  if (!std::filesystem::exists(script, ec)) {
    throw UsageError(script.string() + ": not found; praxis-policy reads YAML and TorchScript through this script, "
                                       "installed with it (share/praxis/)");
  }
  return script;
}

std::string PythonHalf::run(const std::vector<std::string>& args) const {
  std::vector<std::string> all{script_.string()};
  all.insert(all.end(), args.begin(), args.end());
  const auto r = run_process(python_, all);
  if (r.status == 0) return r.out;
  if (r.status == 2 && !r.err.empty()) throw policy::PolicyError(trimmed(r.err));
  throw policy::PolicyError(script_.filename().string() + " (run by " + python_.string() + ") failed with status " +
                            std::to_string(r.status) + ": " + trimmed(tail(r.err, 3)));
}

SourceDoc PythonHalf::yaml(const std::filesystem::path& file) const {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw UsageError(file.string() + ": no such file");
  const std::string text = run({"yaml", file.string()});
  try {
    return SourceDoc(file, Json::parse(text));
  } catch (const Json::exception& e) {
    throw policy::PolicyError(file.string() + ": the YAML reader gave no JSON (" + e.what() + ")");
  }
}

Json PythonHalf::torch_to_onnx(const std::filesystem::path& policy, std::size_t obs, std::size_t actions,
                               const std::filesystem::path& onnx_out, const std::filesystem::path& report,
                               const std::string& obs_source) const {
  (void)run({"torch", "--policy", policy.string(), "--obs", std::to_string(obs), "--actions", std::to_string(actions),
             "--out", onnx_out.string(), "--report", report.string(), "--obs-source", obs_source});
  return read_report(report, policy);
}

Json PythonHalf::onnx_samples(const std::filesystem::path& model, const std::filesystem::path& report,
                              const std::vector<policy::RecurrentPair>& carry) const {
  std::vector<std::string> args{"onnx-samples", "--model", model.string(), "--report", report.string()};
  for (const auto& pair : carry) {
    args.push_back("--carry");
    args.push_back(pair.output + ":" + pair.input);
  }
  (void)run(args);
  return read_report(report, model);
}

Json PythonHalf::read_report(const std::filesystem::path& report, const std::filesystem::path& about) {
  std::ifstream in(report, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::error_code ignored;
  std::filesystem::remove(report, ignored);
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw policy::PolicyError(about.string() + ": the script's report is not JSON (" + e.what() + ")");
  }
}

}  // namespace praxis::policy_tool
