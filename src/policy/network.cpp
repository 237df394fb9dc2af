// The engine: run() walks the plan the loader (onnx_loader.cpp) built, over one arena.
//
// Products go through Eigen as matrix-vector products, one output row at a time: a policy runs a
// batch of one, where that is what a matrix product reduces to anyway, and Eigen's matrix-matrix
// kernel would take blocking buffers from the heap for larger operands, which the cycle must never
// do. Elementwise operators are plain loops the compiler vectorizes; broadcasting and slicing walk
// loop nests whose strides the loader computed.

#include "praxis/policy/network.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plan.hpp"

namespace praxis::policy {
namespace detail {
namespace {

using Index = Eigen::Index;
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;

// op(B) transposed, as an [n, k] expression: a transposed B is stored [n, k] already.
template <bool TransB>
auto b_rows(const float* b, Index k, Index n) {
  if constexpr (TransB) {
    return Eigen::Map<const RowMatrix>(b, n, k);
  } else {
    return Eigen::Map<const RowMatrix>(b, k, n).transpose();
  }
}

template <class Y, class B, class A>
void gemv(Y&& y, const B& b, const A& a, float alpha, bool accumulate) noexcept {
  if (accumulate) {
    y.noalias() += alpha * (b * a);
  } else {
    y.noalias() = alpha * (b * a);
  }
}

// y[m, n] (+)= alpha * op(A) op(B), row i of y being op(B)^T times row i of op(A).
template <bool TransA, bool TransB>
void product_rows(const float* a, const float* b, float* y, Index m, Index k, Index n, float alpha,
                  bool accumulate) noexcept {
  const auto bt = b_rows<TransB>(b, k, n);
  for (Index i = 0; i < m; ++i) {
    Eigen::Map<Vector> yi(y + i * n, n);
    if constexpr (TransA) {  // A stored [k, m]: row i of op(A) is column i of A
      const Eigen::Map<const Vector, 0, Eigen::InnerStride<>> ai(a + i, k, Eigen::InnerStride<>(m));
      gemv(yi, bt, ai, alpha, accumulate);
    } else {
      const Eigen::Map<const Vector> ai(a + i * k, k);
      gemv(yi, bt, ai, alpha, accumulate);
    }
  }
}

void run_product(const ProductPlan& p, const Op& op, float* arena) noexcept {
  for (const auto& batch : p.batches) {
    const float* a = arena + op.a + batch.a;
    const float* b = arena + op.b + batch.b;
    float* y = arena + op.y + batch.y;
    bool accumulate = false;
    if (p.c != k_none) {
      const float* c = arena + p.c;
      for (Index i = 0; i < p.m; ++i) {
        float* yi = y + i * p.n;
        const float* ci = c + (p.c_rows > 1 ? i * p.c_cols : 0);
        if (p.c_cols == p.n) {
          if (p.beta == 1.0F) {
            std::memcpy(yi, ci, static_cast<std::size_t>(p.n) * sizeof(float));
          } else {
            for (Index j = 0; j < p.n; ++j) yi[j] = p.beta * ci[j];
          }
        } else {
          std::fill(yi, yi + p.n, p.beta * ci[0]);
        }
      }
      accumulate = true;
    }
    switch ((p.trans_a ? 2 : 0) + (p.trans_b ? 1 : 0)) {
      case 0: product_rows<false, false>(a, b, y, p.m, p.k, p.n, p.alpha, accumulate); break;
      case 1: product_rows<false, true>(a, b, y, p.m, p.k, p.n, p.alpha, accumulate); break;
      case 2: product_rows<true, false>(a, b, y, p.m, p.k, p.n, p.alpha, accumulate); break;
      default: product_rows<true, true>(a, b, y, p.m, p.k, p.n, p.alpha, accumulate); break;
    }
  }
}

// Calls inner(offset_a, offset_b, y, length) for every innermost run of the nest, y advancing
// contiguously. Offsets rather than pointers: a backwards slice's walk passes below its start.
template <class Inner>
void walk(const LoopNest& nest, float* y, Inner&& inner) noexcept {
  const int outer = nest.rank - 1;
  const std::ptrdiff_t length = nest.dims[static_cast<std::size_t>(outer)];
  std::array<std::ptrdiff_t, k_max_rank> index{};
  std::ptrdiff_t ia = nest.base_a;
  std::ptrdiff_t ib = 0;
  for (std::ptrdiff_t run = 0; run < nest.runs; ++run) {
    inner(ia, ib, y, length);
    y += length;
    for (int d = outer - 1; d >= 0; --d) {
      const auto k = static_cast<std::size_t>(d);
      ia += nest.sa[k];
      ib += nest.sb[k];
      if (++index[k] < nest.dims[k]) break;
      ia -= nest.sa[k] * nest.dims[k];
      ib -= nest.sb[k] * nest.dims[k];
      index[k] = 0;
    }
  }
}

template <class F>
void binary(const LoopNest& nest, const float* a, const float* b, float* y, F f) noexcept {
  const auto last = static_cast<std::size_t>(nest.rank - 1);
  const std::ptrdiff_t sa = nest.sa[last];
  const std::ptrdiff_t sb = nest.sb[last];
  walk(nest, y, [&](std::ptrdiff_t ia, std::ptrdiff_t ib, float* out, std::ptrdiff_t length) {
    const float* pa = a + ia;
    const float* pb = b + ib;
    if (sa == 1 && sb == 1) {
      for (std::ptrdiff_t i = 0; i < length; ++i) out[i] = f(pa[i], pb[i]);
    } else if (sa == 1 && sb == 0) {
      const float v = *pb;
      for (std::ptrdiff_t i = 0; i < length; ++i) out[i] = f(pa[i], v);
    } else if (sa == 0 && sb == 1) {
      const float u = *pa;
      for (std::ptrdiff_t i = 0; i < length; ++i) out[i] = f(u, pb[i]);
    } else {
      for (std::ptrdiff_t i = 0; i < length; ++i) out[i] = f(pa[i * sa], pb[i * sb]);
    }
  });
}

void run_slice(const LoopNest& nest, const float* a, float* y) noexcept {
  const std::ptrdiff_t step = nest.sa[static_cast<std::size_t>(nest.rank - 1)];
  walk(nest, y, [&](std::ptrdiff_t ia, std::ptrdiff_t, float* out, std::ptrdiff_t length) {
    const float* pa = a + ia;
    if (step == 1) {
      std::memcpy(out, pa, static_cast<std::size_t>(length) * sizeof(float));
    } else {
      for (std::ptrdiff_t i = 0; i < length; ++i) out[i] = pa[i * step];
    }
  });
}

void run_concat(const ConcatPlan& p, const float* arena, float* y) noexcept {
  for (std::ptrdiff_t o = 0; o < p.outer; ++o) {
    for (const auto& part : p.parts) {
      std::memcpy(y, arena + part.offset + o * part.chunk, static_cast<std::size_t>(part.chunk) * sizeof(float));
      y += part.chunk;
    }
  }
}

inline float sigmoid(float v) noexcept { return 1.0F / (1.0F + std::exp(-v)); }

// The state from its initial value, or zeros when the node has none.
void initial_state(float* state, const float* initial, std::size_t n) noexcept {
  if (initial != nullptr) {
    std::memcpy(state, initial, n * sizeof(float));
  } else {
    std::fill(state, state + n, 0.0F);
  }
}

// What LSTM and GRU do before their steps: the gates of every step from the input at once,
// G = X W^T + Wb + Rb, and the hidden state from initial_h. Rb goes in over the first `fold` columns
// only: a GRU with linear_before_reset adds the h gate's Rb under the reset gate, step by step.
void start_rnn(const RnnPlan& p, Index fold, float* arena) noexcept {
  const Index width = p.gates * p.hidden;
  const Index rows = p.seq * p.batch;
  float* gates = arena + p.gate_buf;
  if (p.bias != k_none) {
    const float* bias = arena + p.bias;
    float* sum = arena + p.bias_sum;
    for (Index j = 0; j < width; ++j) sum[j] = bias[j] + (j < fold ? bias[width + j] : 0.0F);
    for (Index row = 0; row < rows; ++row) std::memcpy(gates + row * width, sum, static_cast<std::size_t>(width) * sizeof(float));
    product_rows<false, true>(arena + p.x, arena + p.w, gates, rows, p.input, width, 1.0F, true);
  } else {
    product_rows<false, true>(arena + p.x, arena + p.w, gates, rows, p.input, width, 1.0F, false);
  }
  const float* init_h = p.init_h != k_none ? arena + p.init_h : nullptr;
  initial_state(arena + p.h, init_h, static_cast<std::size_t>(p.batch * p.hidden));
}

// Y's step t, and Y_h after the last step.
void store_step(const RnnPlan& p, Index t, float* arena) noexcept {
  const auto state = static_cast<std::size_t>(p.batch * p.hidden);
  if (p.y != k_none) std::memcpy(arena + p.y + static_cast<std::size_t>(t) * state, arena + p.h, state * sizeof(float));
  if (t + 1 == p.seq && p.y_h != k_none) std::memcpy(arena + p.y_h, arena + p.h, state * sizeof(float));
}

void run_lstm(const RnnPlan& p, float* arena) noexcept {
  const Index hidden = p.hidden;
  const Index width = 4 * hidden;
  const auto state = static_cast<std::size_t>(p.batch * hidden);
  start_rnn(p, width, arena);
  float* h = arena + p.h;
  float* c = arena + p.c;
  initial_state(c, p.init_c != k_none ? arena + p.init_c : nullptr, state);
  const float* peep = p.peep != k_none ? arena + p.peep : nullptr;
  for (Index t = 0; t < p.seq; ++t) {
    float* g = arena + p.gate_buf + t * p.batch * width;
    product_rows<false, true>(h, arena + p.r, g, p.batch, hidden, width, 1.0F, true);  // + H R^T
    for (Index b = 0; b < p.batch; ++b) {
      const float* gb = g + b * width;
      float* hb = h + b * hidden;
      float* cb = c + b * hidden;
      for (Index j = 0; j < hidden; ++j) {
        const float c_prev = cb[j];
        float gi = gb[j];
        float go = gb[hidden + j];
        float gf = gb[2 * hidden + j];
        if (peep != nullptr) {
          gi += peep[j] * c_prev;
          gf += peep[2 * hidden + j] * c_prev;
        }
        const float i_gate = sigmoid(gi);
        const float f_gate = sigmoid(gf);
        const float cell = f_gate * c_prev + i_gate * std::tanh(gb[3 * hidden + j]);
        if (peep != nullptr) go += peep[hidden + j] * cell;
        cb[j] = cell;
        hb[j] = sigmoid(go) * std::tanh(cell);
      }
    }
    store_step(p, t, arena);
  }
  if (p.y_c != k_none) std::memcpy(arena + p.y_c, c, state * sizeof(float));
}

// H' = (1 - z) h~ + z H, with z = sigmoid(Gz + H Rz^T), r = sigmoid(Gr + H Rr^T) (their Rb folded in
// G) and h~ = tanh(Gh + (r H) Rh^T) or, with linear_before_reset, tanh(Gh + r (H Rh^T + Rbh)).
void run_gru(const RnnPlan& p, float* arena) noexcept {
  const Index hidden = p.hidden;
  const Index width = 3 * hidden;
  start_rnn(p, p.linear_before_reset ? 2 * hidden : width, arena);
  float* h = arena + p.h;
  float* rec = arena + p.recurrent;
  const float* r = arena + p.r;
  const float* rbh = p.bias != k_none ? arena + p.bias + width + 2 * hidden : nullptr;
  for (Index t = 0; t < p.seq; ++t) {
    float* g = arena + p.gate_buf + t * p.batch * width;
    if (p.linear_before_reset) {
      product_rows<false, true>(h, r, rec, p.batch, hidden, width, 1.0F, false);  // H R^T, all three gates
      for (Index b = 0; b < p.batch; ++b) {
        const float* gb = g + b * width;
        const float* rb = rec + b * width;
        float* hb = h + b * hidden;
        for (Index j = 0; j < hidden; ++j) {
          const float z = sigmoid(gb[j] + rb[j]);
          const float reset = sigmoid(gb[hidden + j] + rb[hidden + j]);
          const float linear = rb[2 * hidden + j] + (rbh != nullptr ? rbh[j] : 0.0F);
          const float candidate = std::tanh(gb[2 * hidden + j] + reset * linear);
          hb[j] = (1.0F - z) * candidate + z * hb[j];
        }
      }
    } else {
      // Row by row: the z and r columns are the first 2H of each row of G, the h columns the rest.
      for (Index b = 0; b < p.batch; ++b) {
        product_rows<false, true>(h + b * hidden, r, g + b * width, 1, hidden, 2 * hidden, 1.0F, true);
      }
      for (Index b = 0; b < p.batch; ++b) {
        for (Index j = 0; j < hidden; ++j) rec[b * hidden + j] = sigmoid(g[b * width + hidden + j]) * h[b * hidden + j];
        product_rows<false, true>(rec + b * hidden, r + 2 * hidden * hidden, g + b * width + 2 * hidden, 1, hidden,
                                  hidden, 1.0F, true);
      }
      for (Index b = 0; b < p.batch; ++b) {
        const float* gb = g + b * width;
        float* hb = h + b * hidden;
        for (Index j = 0; j < hidden; ++j) {
          const float z = sigmoid(gb[j]);
          hb[j] = (1.0F - z) * std::tanh(gb[2 * hidden + j]) + z * hb[j];
        }
      }
    }
    store_step(p, t, arena);
  }
}

}  // namespace

void execute(const Plan& plan, const Op& op, float* arena) noexcept {
  // Concat, LSTM and GRU records leave a and y unused (k_none): a pointer is formed from an offset only
  // where it is one, since arena + k_none is undefined even if never read (UBSan says so).
  float* y = op.y == k_none ? arena : arena + op.y;
  const float* a = op.a == k_none ? arena : arena + op.a;
  const std::size_t n = op.n;
  switch (op.code) {
    case OpCode::product: run_product(plan.products[op.table], op, arena); break;
    case OpCode::add: binary(plan.loops[op.table], a, arena + op.b, y, [](float u, float v) { return u + v; }); break;
    case OpCode::sub: binary(plan.loops[op.table], a, arena + op.b, y, [](float u, float v) { return u - v; }); break;
    case OpCode::mul: binary(plan.loops[op.table], a, arena + op.b, y, [](float u, float v) { return u * v; }); break;
    case OpCode::div: binary(plan.loops[op.table], a, arena + op.b, y, [](float u, float v) { return u / v; }); break;
    case OpCode::neg:
      for (std::size_t i = 0; i < n; ++i) y[i] = -a[i];
      break;
    case OpCode::relu:  // written so that NaN passes: a broken policy must stay visible downstream
      for (std::size_t i = 0; i < n; ++i) y[i] = a[i] < 0.0F ? 0.0F : a[i];
      break;
    case OpCode::elu: {
      const float alpha = op.alpha;
      for (std::size_t i = 0; i < n; ++i) {
        const float v = a[i];
        y[i] = v >= 0.0F ? v : alpha * (std::exp(v) - 1.0F);  // exp - 1 rather than expm1: as ORT
      }
      break;
    }
    case OpCode::leaky_relu: {
      const float alpha = op.alpha;
      for (std::size_t i = 0; i < n; ++i) y[i] = a[i] >= 0.0F ? a[i] : alpha * a[i];
      break;
    }
    case OpCode::selu: {
      const float alpha = op.alpha;
      const float gamma = op.beta;
      for (std::size_t i = 0; i < n; ++i) {
        const float v = a[i];
        y[i] = v > 0.0F ? gamma * v : gamma * (alpha * (std::exp(v) - 1.0F));
      }
      break;
    }
    case OpCode::tanh:
      for (std::size_t i = 0; i < n; ++i) y[i] = std::tanh(a[i]);
      break;
    case OpCode::sigmoid:
      for (std::size_t i = 0; i < n; ++i) y[i] = sigmoid(a[i]);
      break;
    case OpCode::softsign:
      for (std::size_t i = 0; i < n; ++i) y[i] = a[i] / (1.0F + std::fabs(a[i]));
      break;
    case OpCode::clip: {
      const float lo = op.b == k_none ? op.alpha : arena[op.b];
      const float hi = op.c == k_none ? op.beta : arena[op.c];
      for (std::size_t i = 0; i < n; ++i) {  // max then min, as ORT: min > max gives max; NaN passes
        const float v = a[i] < lo ? lo : a[i];
        y[i] = hi < v ? hi : v;
      }
      break;
    }
    case OpCode::concat: run_concat(plan.concats[op.table], arena, y); break;
    case OpCode::slice: run_slice(plan.loops[op.table], a, y); break;
    case OpCode::copy: std::memcpy(y, a, n * sizeof(float)); break;
    case OpCode::lstm: run_lstm(plan.rnns[op.table], arena); break;
    case OpCode::gru: run_gru(plan.rnns[op.table], arena); break;
  }
}

}  // namespace detail

Network::Network(std::unique_ptr<detail::Plan> plan) : plan_(std::move(plan)) {}
Network::Network(Network&&) noexcept = default;
Network& Network::operator=(Network&&) noexcept = default;
Network::~Network() = default;

const std::vector<TensorInfo>& Network::inputs() const { return plan_->inputs; }
const std::vector<TensorInfo>& Network::outputs() const { return plan_->outputs; }

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  return s + "]";
}

std::size_t index_of(const std::vector<TensorInfo>& tensors, std::string_view name, const std::string& file,
                     const char* kind) {
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].name == name) return i;
  }
  std::string have;
  for (const auto& t : tensors) have += (have.empty() ? "" : ", ") + ("'" + t.name + "' " + shape_text(t.shape));
  throw PolicyError(file + ": the model has no " + kind + " named '" + std::string(name) + "'; its " + kind +
                    "s are " + (have.empty() ? "none" : have));
}

void check_index(std::size_t i, std::size_t count, const std::string& file, const char* kind) {
  if (i >= count) {
    throw PolicyError(file + ": " + kind + " index " + std::to_string(i) + " is out of range; the model has " +
                      std::to_string(count) + " " + kind + (count == 1 ? "" : "s"));
  }
}

}  // namespace

std::size_t Network::input_index(std::string_view name) const {
  return index_of(plan_->inputs, name, plan_->file, "input");
}
std::size_t Network::output_index(std::string_view name) const {
  return index_of(plan_->outputs, name, plan_->file, "output");
}

std::span<float> Network::input(std::size_t i) {
  check_index(i, plan_->inputs.size(), plan_->file, "input");
  return {plan_->arena.data() + plan_->input_offsets[i], plan_->inputs[i].size()};
}

std::span<const float> Network::output(std::size_t i) const {
  check_index(i, plan_->outputs.size(), plan_->file, "output");
  return {plan_->arena.data() + plan_->output_offsets[i], plan_->outputs[i].size()};
}

void Network::carry(std::size_t out, std::size_t in) {
  auto& p = *plan_;
  check_index(out, p.outputs.size(), p.file, "output");
  check_index(in, p.inputs.size(), p.file, "input");
  const auto& o = p.outputs[out];
  const auto& i = p.inputs[in];
  if (o.shape != i.shape) {
    throw PolicyError(p.file + ": cannot carry output '" + o.name + "' " + shape_text(o.shape) + " into input '" +
                      i.name + "' " + shape_text(i.shape) + ": the shapes differ");
  }
  for (const auto& c : p.carries) {
    if (c.input == in) {
      throw PolicyError(p.file + ": input '" + i.name + "' is carried already, from output '" +
                        p.outputs[c.output].name + "'");
    }
  }
  p.carries.push_back({p.output_offsets[out], p.input_offsets[in], i.size(), in, out});
}

void Network::reset_state() noexcept {
  for (const auto& c : plan_->carries) std::fill_n(plan_->arena.data() + c.to, c.n, 0.0F);
}

void Network::run() noexcept {
  if (!plan_) return;
  const auto& plan = *plan_;
  float* arena = plan_->arena.data();
  for (const auto& op : plan.ops) detail::execute(plan, op, arena);
  // Outputs never share a buffer with an input (the loader copies such outputs), so plain copies.
  for (const auto& c : plan.carries) std::memcpy(arena + c.to, arena + c.from, c.n * sizeof(float));
}

std::string Network::summary() const {
  std::string s;
  for (const auto& [op, count] : plan_->op_counts) s += (s.empty() ? "" : ", ") + op + " x" + std::to_string(count);
  return s;
}

std::size_t Network::arena_floats() const { return plan_->arena.size(); }

}  // namespace praxis::policy
