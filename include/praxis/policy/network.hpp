#pragma once
// Network: a trained policy's ONNX graph, loaded once and run in the control cycle.
//
// ONNX Runtime is not in Debian, so inference is praxis' own. load() reads the file with Debian's
// ONNX library (libonnx: the protobuf model and its checker), checks it and turns it into a plan:
// every tensor's shape fixed at load (a symbolic batch dimension is 1), every buffer in one arena
// allocated then, the operators in execution order. run() walks the plan over the arena with Eigen:
// no allocation, no lock, no exception, no I/O.
//
//   auto net = praxis::policy::Network::load("policy.onnx");      // throws PolicyError
//   auto obs = net.input(0);                                       // std::span<float>, fill it
//   net.run();
//   std::span<const float> action = net.output(0);
//
// Operators: Gemm, MatMul, Add, Sub, Mul, Div, Neg, Relu, Elu, LeakyRelu, Selu, Tanh, Sigmoid,
// Softsign, Clip, Concat, Slice, Reshape, Flatten, Squeeze, Unsqueeze, Identity, Constant, LSTM and
// GRU (forward, default activations). Anything else is refused at load, naming the operator and node.
//
// Recurrent policies carry their state as graph inputs and outputs (rsl_rl's exporter: h_in in,
// h_out out, and c_in, c_out for an LSTM). Pairs declared with carry() are copied output -> input
// after each run() and zeroed by reset_state(), so a caller feeds only the observation.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace praxis::policy {

// Every load-time refusal: the message names the file, the node (name and operator) or tensor,
// and what was expected.
class PolicyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TensorInfo {
  std::string name;
  std::vector<std::int64_t> shape;  // as run: symbolic dimensions resolved
  [[nodiscard]] std::size_t size() const {
    std::size_t n = 1;
    for (const auto d : shape) n *= static_cast<std::size_t>(d);
    return n;
  }
};

namespace detail {
struct Plan;  // tensors, operators and arena (src/policy/network.cpp)
}  // namespace detail

class Network {
 public:
  // Reads, checks and plans the model: onnx::checker, float32 inputs and outputs, fixed shapes,
  // supported operators with supported attributes, finite weights. Throws PolicyError.
  [[nodiscard]] static Network load(const std::filesystem::path& file);
  // The same from bytes already in memory; `name` stands for the file in messages.
  [[nodiscard]] static Network load_bytes(std::span<const std::byte> bytes, std::string_view name);

  Network(Network&&) noexcept;
  Network& operator=(Network&&) noexcept;
  ~Network();

  // The graph's inputs and outputs, in the model's order (initializers are not inputs).
  [[nodiscard]] const std::vector<TensorInfo>& inputs() const;
  [[nodiscard]] const std::vector<TensorInfo>& outputs() const;
  // Index by name; throws PolicyError naming the missing tensor and the ones there are.
  [[nodiscard]] std::size_t input_index(std::string_view name) const;
  [[nodiscard]] std::size_t output_index(std::string_view name) const;

  // The buffers, row-major, valid for the Network's life.
  [[nodiscard]] std::span<float> input(std::size_t i);
  [[nodiscard]] std::span<const float> output(std::size_t i) const;

  // Recurrent state: after each run(), output `out` is copied into input `in` (same shape, checked).
  void carry(std::size_t out, std::size_t in);
  // Zeroes every carried input: the state a policy starts an episode with.
  void reset_state() noexcept;

  // One inference. No allocation, lock, exception or I/O.
  void run() noexcept;

  // For messages and docs: "Gemm x3, Elu x2, ..." in execution order of first use.
  [[nodiscard]] std::string summary() const;
  [[nodiscard]] std::size_t arena_floats() const;  // the buffers' total size, in floats

 private:
  explicit Network(std::unique_ptr<detail::Plan> plan);
  std::unique_ptr<detail::Plan> plan_;
};

}  // namespace praxis::policy
