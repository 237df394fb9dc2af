#pragma once
// The engine's plan: what the loader (onnx_loader.cpp) prepares and run() (network.cpp) walks.
//
// Every float tensor the graph computes, every weight it reads and every scratch buffer lives in one
// arena allocated at load, addressed by offsets. An operator is a flat record (offsets, sizes and
// scalar attributes) plus, for the operators that need more, an index into a table of the same
// kind; run() is a switch over the records. Nothing in a record is resolved at run time: shapes,
// broadcast strides, slice strides and batch offsets are all computed by the loader.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "praxis/policy/network.hpp"

namespace praxis::policy::detail {

// An absent operand (optional input, absent output).
inline constexpr std::size_t k_none = static_cast<std::size_t>(-1);
// The rank of a broadcast or slice loop nest before collapsing; policies use rank <= 4.
inline constexpr int k_max_rank = 8;

enum class OpCode : std::uint8_t {
  product,  // Gemm and MatMul: table `products`
  add,      // binary elementwise with broadcasting: table `loops`
  sub,
  mul,
  div,
  neg,  // unary elementwise over n floats
  relu,
  elu,         // alpha
  leaky_relu,  // alpha
  selu,        // alpha, beta = gamma
  tanh,
  sigmoid,
  softsign,
  clip,    // alpha = min, beta = max, unless b / c name an arena scalar
  concat,  // table `concats`
  slice,   // table `loops` (operand a only, with a base offset)
  copy,    // n floats a -> y (a graph output that is a graph input under another name)
  lstm,    // table `rnns`
  gru,     // table `rnns`
};

struct Op {
  OpCode code = OpCode::copy;
  std::uint32_t table = 0;  // index into the table of this op's kind
  std::size_t y = k_none;   // output offset
  std::size_t a = k_none;   // input offsets
  std::size_t b = k_none;
  std::size_t c = k_none;
  std::size_t n = 0;  // output floats
  float alpha = 0.0F;
  float beta = 0.0F;
};

// y[m, n] = alpha * op(A)[m, k] * op(B)[k, n] + beta * C, C broadcast from [c_rows, c_cols], once
// per batch entry (MatMul's broadcast batch; Gemm has one).
struct ProductPlan {
  std::ptrdiff_t m = 0;
  std::ptrdiff_t k = 0;
  std::ptrdiff_t n = 0;
  bool trans_a = false;
  bool trans_b = false;
  float alpha = 1.0F;
  float beta = 1.0F;
  std::size_t c = k_none;
  std::ptrdiff_t c_rows = 1;  // 1 or m
  std::ptrdiff_t c_cols = 1;  // 1 or n
  struct Batch {
    std::size_t a = 0;  // element offsets from the op's a, b and y
    std::size_t b = 0;
    std::size_t y = 0;
  };
  std::vector<Batch> batches;
};

// A loop nest writing a contiguous output: dims outermost first; sa / sb are the operands' element
// strides per dim (0 where broadcast; negative for a slice that steps backwards). Dims of extent 1
// are dropped and contiguous neighbours merged at load, so a same-shape Add is one loop and a bias
// add two.
struct LoopNest {
  int rank = 1;
  std::array<std::ptrdiff_t, k_max_rank> dims{};
  std::array<std::ptrdiff_t, k_max_rank> sa{};
  std::array<std::ptrdiff_t, k_max_rank> sb{};
  std::ptrdiff_t base_a = 0;  // the first element read from a (a slice's starts)
  std::ptrdiff_t runs = 1;    // product of all dims but the innermost
};

struct ConcatPlan {
  std::ptrdiff_t outer = 1;  // product of the dims before the axis
  struct Part {
    std::size_t offset = 0;
    std::ptrdiff_t chunk = 0;  // floats per outer index: its extent on the axis times the inner size
  };
  std::vector<Part> parts;
};

// ONNX LSTM (gates i, o, f, c) and GRU (gates z, r, h), one forward direction, default activations.
// The fields marked LSTM or GRU are k_none (false) for the other.
struct RnnPlan {
  std::ptrdiff_t seq = 0;
  std::ptrdiff_t batch = 0;
  std::ptrdiff_t input = 0;
  std::ptrdiff_t hidden = 0;
  std::ptrdiff_t gates = 0;  // 4 (LSTM) or 3 (GRU)
  bool linear_before_reset = false;  // GRU
  std::size_t x = k_none;
  std::size_t w = k_none;     // [gates * H, I]
  std::size_t r = k_none;     // [gates * H, H]
  std::size_t bias = k_none;  // [2 * gates * H]: Wb then Rb
  std::size_t peep = k_none;  // LSTM [3H]: i, o, f
  std::size_t init_h = k_none;
  std::size_t init_c = k_none;  // LSTM
  std::size_t y = k_none;  // [seq, 1, batch, H]
  std::size_t y_h = k_none;
  std::size_t y_c = k_none;  // LSTM
  // scratch
  std::size_t gate_buf = k_none;  // [seq * batch, gates * H]
  std::size_t bias_sum = k_none;  // [gates * H]
  std::size_t h = k_none;         // [batch, H]
  std::size_t c = k_none;         // LSTM [batch, H]
  std::size_t recurrent = k_none;  // GRU [batch, 3H]: H R^T + Rb, or r * H
};

struct Carry {
  std::size_t from = 0;  // output offset
  std::size_t to = 0;    // input offset
  std::size_t n = 0;
  std::size_t input = 0;  // indices, for messages
  std::size_t output = 0;
};

struct Plan {
  std::string file;  // for messages
  std::vector<float> arena;
  std::vector<TensorInfo> inputs;
  std::vector<TensorInfo> outputs;
  std::vector<std::size_t> input_offsets;
  std::vector<std::size_t> output_offsets;
  std::vector<Op> ops;
  std::vector<ProductPlan> products;
  std::vector<LoopNest> loops;
  std::vector<ConcatPlan> concats;
  std::vector<RnnPlan> rnns;
  std::vector<Carry> carries;
  std::vector<std::pair<std::string, std::size_t>> op_counts;  // node op types, order of first use
};

// Runs one operator over the arena. The loader calls it too, to fold operators whose inputs are
// all constant.
void execute(const Plan& plan, const Op& op, float* arena) noexcept;

}  // namespace praxis::policy::detail
