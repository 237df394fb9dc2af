#pragma once
// The reference loop's own network evaluator: an ONNX file read with Debian's ONNX protobuf classes
// and evaluated node by node in double precision, written for the reference loop
// (tests/policy/reference_loop.hpp) so that it shares no code with praxis::policy::Network — not the
// loader, not the plan, not the arithmetic. It runs what actor networks and the stand-in policies of
// the lock-step tests are made of:
//   Gemm, MatMul, Add, Sub, Mul, Div (numpy broadcasting), Relu, Elu, Tanh, Sigmoid, Identity,
//   Squeeze, Unsqueeze, Reshape, Flatten, Constant, and LSTM (forward, default activations, no
//   peepholes; B, initial_h and initial_c optional).
// Anything else is refused at load, naming the file and the node. It is slow (a map of tensors per
// run) and meant for tests and the reference program, never for a control cycle.

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace praxis_reference {

struct RefTensor {
  std::vector<std::int64_t> shape;
  std::vector<double> data;
};

class ReferenceNetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ReferenceNet {
 public:
  // Throws ReferenceNetError naming the file (and the node) when it cannot be read or evaluated.
  static ReferenceNet load(const std::filesystem::path& file);

  // The graph's inputs that are fed (initializers excluded) and its outputs, with their shapes (a
  // symbolic dimension counts as 1: batch 1).
  [[nodiscard]] const std::map<std::string, std::vector<std::int64_t>>& inputs() const { return inputs_; }
  [[nodiscard]] const std::vector<std::string>& outputs() const { return outputs_; }

  // Runs the graph on `feeds` (one tensor per input, its data in row-major order; shapes taken from
  // the graph) and returns every graph output.
  [[nodiscard]] std::map<std::string, RefTensor> run(const std::map<std::string, std::vector<double>>& feeds) const;

 private:
  struct Node {
    std::string op, name;
    std::vector<std::string> inputs, outputs;
    std::map<std::string, double> f;                     // float and int attributes
    std::map<std::string, std::vector<std::int64_t>> ints;  // int lists
    std::map<std::string, std::string> strings;
  };

  std::filesystem::path file_;
  std::map<std::string, RefTensor> constants_;
  std::map<std::string, std::vector<std::int64_t>> inputs_;
  std::vector<std::string> outputs_;
  std::vector<Node> nodes_;
};

}  // namespace praxis_reference
