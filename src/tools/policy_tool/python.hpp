#pragma once
// praxis-policy's Python half (praxis_policy.py, Debian's python3): YAML with Isaac Lab's Python tags,
// and TorchScript to ONNX through python3-torch. The script is installed to share/praxis/ and found
// relative to the executable (bin/../share/praxis/), the same in the build tree.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "praxis/policy/deploy.hpp"
#include "source_doc.hpp"

namespace praxis::policy_tool {

struct ProcessResult {
  int status = 0;  // the exit code, or 128 + the signal that ended it
  std::string out;
  std::string err;
};

// Runs `exe` with `args` (no shell), collecting its stdout and stderr. Throws UsageError when it
// cannot be started.
[[nodiscard]] ProcessResult run_process(const std::filesystem::path& exe, const std::vector<std::string>& args);

class PythonHalf {
 public:
  PythonHalf(std::filesystem::path python, std::filesystem::path script)
      : python_(std::move(python)), script_(std::move(script)) {}

  // bin/../share/praxis/praxis_policy.py next to the running executable; UsageError when absent.
  [[nodiscard]] static std::filesystem::path installed_script();

  // The YAML file as JSON (keys in the file's order). Throws PolicyError naming the file.
  [[nodiscard]] SourceDoc yaml(const std::filesystem::path& file) const;

  // TorchScript -> ONNX, checked against the module; returns the script's report (kind, inputs,
  // outputs, recurrent pairs, the largest difference, samples). Throws PolicyError.
  [[nodiscard]] Json torch_to_onnx(const std::filesystem::path& policy, std::size_t obs, std::size_t actions,
                                   const std::filesystem::path& onnx_out, const std::filesystem::path& report,
                                   const std::string& obs_source) const;

  // Random inputs for an ONNX model and its outputs evaluated by the script (numpy), the recurrent
  // pairs carried from zero: {"samples": [{"inputs": {...}, "outputs": {...}}, ...]}, or
  // {"samples": [], "not_evaluated": why} for an operator the script does not evaluate.
  [[nodiscard]] Json onnx_samples(const std::filesystem::path& model, const std::filesystem::path& report,
                                  const std::vector<policy::RecurrentPair>& carry) const;

 private:
  [[nodiscard]] std::string run(const std::vector<std::string>& args) const;
  [[nodiscard]] static Json read_report(const std::filesystem::path& report, const std::filesystem::path& about);
  std::filesystem::path python_;
  std::filesystem::path script_;
};

}  // namespace praxis::policy_tool
