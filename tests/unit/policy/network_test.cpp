// The inference engine, operator by operator: small models built here, results against values
// worked out by hand or by a plain loop next to them; every refusal names what it refuses; run()
// never allocates.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "praxis/policy/network.hpp"
#include "../../support/alloc_counter.hpp"
#include "../../support/onnx_model_builder.hpp"
#include "../../support/scratch_dir.hpp"

namespace network_test {

using praxis::policy::Network;
using praxis::policy::PolicyError;
using praxis::test::OnnxModelBuilder;
using Shape = std::vector<std::int64_t>;
using Floats = std::vector<float>;

constexpr std::int64_t k_int_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k_int_min = std::numeric_limits<std::int64_t>::min();

std::vector<std::int64_t> ints(std::initializer_list<std::int64_t> v) { return v; }

std::size_t count(const Shape& s) {
  std::size_t n = 1;
  for (const auto d : s) n *= static_cast<std::size_t>(d);
  return n;
}

// Reproducible values in [-1, 1).
Floats values(std::size_t n, std::uint32_t seed) {
  Floats v(n);
  std::uint32_t state = seed * 2654435761U + 12345U;
  for (auto& x : v) {
    state = state * 1664525U + 1013904223U;
    x = static_cast<float>(state >> 8) / static_cast<float>(1U << 23) - 1.0F;
  }
  return v;
}

Network load(OnnxModelBuilder& m, const char* name = "test.onnx") { return Network::load_bytes(m.bytes(), name); }

void set(Network& net, std::size_t i, const Floats& v) {
  auto in = net.input(i);
  REQUIRE(in.size() == v.size());
  std::copy(v.begin(), v.end(), in.begin());
}

Floats get(const Network& net, std::size_t i) {
  const auto out = net.output(i);
  return {out.begin(), out.end()};
}

void require_near(const Floats& actual, const Floats& expected, float tolerance = 1e-5F) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i] == Approx(expected[i]).epsilon(tolerance).margin(tolerance));
  }
}

// The message of the PolicyError the model's load throws ("" if it loads).
std::string refusal(OnnxModelBuilder& m, const char* name = "refused.onnx") {
  try {
    (void)load(m, name);
  } catch (const PolicyError& e) {
    return e.what();
  }
  return "";
}

// numpy broadcasting, element by element.
Floats broadcast_reference(const Shape& sa, const Floats& a, const Shape& sb, const Floats& b, const Shape& out,
                           const std::function<float(float, float)>& f) {
  Floats y(count(out));
  for (std::size_t flat = 0; flat < y.size(); ++flat) {
    std::vector<std::size_t> index(out.size());
    std::size_t rest = flat;
    for (std::size_t d = out.size(); d-- > 0;) {
      index[d] = rest % static_cast<std::size_t>(out[d]);
      rest /= static_cast<std::size_t>(out[d]);
    }
    const auto offset = [&](const Shape& s) {
      std::size_t o = 0;
      for (std::size_t j = 0; j < s.size(); ++j) {
        const std::size_t d = j + out.size() - s.size();
        o = o * static_cast<std::size_t>(s[j]) + (s[j] == 1 ? 0 : index[d]);
      }
      return o;
    };
    y[flat] = f(a[offset(sa)], b[offset(sb)]);
  }
  return y;
}

float sigmoid(float v) { return 1.0F / (1.0F + std::exp(-v)); }

struct LstmResult {
  Floats y;  // [seq, batch, H]
  Floats h;  // [batch, H]
  Floats c;
};

// ONNX LSTM, forward, gates i o f c, written out per element.
LstmResult lstm_reference(int seq, int batch, int in, int hidden, const Floats& x, const Floats& w, const Floats& r,
                          const Floats& b, const Floats& p, Floats h, Floats c) {
  LstmResult result;
  for (int t = 0; t < seq; ++t) {
    const Floats h_prev = h;
    for (int n = 0; n < batch; ++n) {
      for (int j = 0; j < hidden; ++j) {
        float gate[4];
        for (int g = 0; g < 4; ++g) {
          const int row = g * hidden + j;
          float sum = b.empty() ? 0.0F : b[static_cast<std::size_t>(row)] + b[static_cast<std::size_t>(4 * hidden + row)];
          for (int k = 0; k < in; ++k) {
            sum += x[static_cast<std::size_t>((t * batch + n) * in + k)] * w[static_cast<std::size_t>(row * in + k)];
          }
          for (int k = 0; k < hidden; ++k) {
            sum += h_prev[static_cast<std::size_t>(n * hidden + k)] * r[static_cast<std::size_t>(row * hidden + k)];
          }
          gate[g] = sum;
        }
        const auto s = static_cast<std::size_t>(n * hidden + j);
        const float c_prev = c[s];
        const float pi = p.empty() ? 0.0F : p[static_cast<std::size_t>(j)];
        const float po = p.empty() ? 0.0F : p[static_cast<std::size_t>(hidden + j)];
        const float pf = p.empty() ? 0.0F : p[static_cast<std::size_t>(2 * hidden + j)];
        const float i = sigmoid(gate[0] + pi * c_prev);
        const float f = sigmoid(gate[2] + pf * c_prev);
        c[s] = f * c_prev + i * std::tanh(gate[3]);
        const float o = sigmoid(gate[1] + po * c[s]);
        h[s] = o * std::tanh(c[s]);
      }
    }
    result.y.insert(result.y.end(), h.begin(), h.end());
  }
  result.h = h;
  result.c = c;
  return result;
}

// ONNX GRU, forward, gates z r h, written out per element; h~ with the reset applied after R
// (linear_before_reset) or before.
Floats gru_reference(int seq, int batch, int in, int hidden, const Floats& x, const Floats& w, const Floats& r,
                     const Floats& b, bool linear_before_reset, Floats h, Floats* y = nullptr) {
  const auto u = [](int i) { return static_cast<std::size_t>(i); };
  const auto at = [&](const Floats& v, int i) { return v[u(i)]; };
  for (int t = 0; t < seq; ++t) {
    const Floats h_prev = h;
    for (int n = 0; n < batch; ++n) {
      const auto input = [&](int row) {  // X W^T + Wb
        float sum = b.empty() ? 0.0F : at(b, row);
        for (int k = 0; k < in; ++k) sum += at(x, (t * batch + n) * in + k) * at(w, row * in + k);
        return sum;
      };
      const auto recurrent = [&](int row, const Floats& state) {  // state R^T + Rb
        float sum = b.empty() ? 0.0F : at(b, 3 * hidden + row);
        for (int k = 0; k < hidden; ++k) sum += at(state, n * hidden + k) * at(r, row * hidden + k);
        return sum;
      };
      Floats reset_h(u(batch * hidden), 0.0F);  // r * H, this row of the batch
      Floats reset(u(hidden));
      for (int j = 0; j < hidden; ++j) {
        reset[u(j)] = sigmoid(input(hidden + j) + recurrent(hidden + j, h_prev));
        reset_h[u(n * hidden + j)] = reset[u(j)] * at(h_prev, n * hidden + j);
      }
      for (int j = 0; j < hidden; ++j) {
        const float z = sigmoid(input(j) + recurrent(j, h_prev));
        const float candidate = linear_before_reset
                                    ? std::tanh(input(2 * hidden + j) + reset[u(j)] * recurrent(2 * hidden + j, h_prev))
                                    : std::tanh(input(2 * hidden + j) + recurrent(2 * hidden + j, reset_h));
        h[u(n * hidden + j)] = (1.0F - z) * candidate + z * at(h_prev, n * hidden + j);
      }
    }
    if (y != nullptr) y->insert(y->end(), h.begin(), h.end());
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Gemm and MatMul

TEST_CASE("Gemm with transB and a bias row computes x W^T + b") {
  OnnxModelBuilder m;
  m.input("obs", {-1, 3});
  m.initializer("W", {2, 3}, Floats{1, 2, 3, 4, 5, 6});
  m.initializer("b", {2}, Floats{0.5F, -1.0F});
  m.node("Gemm", {"obs", "W", "b"}, {"y"}).attr("transB", std::int64_t{1});
  m.output("y", {-1, 2});
  auto net = load(m);
  REQUIRE(net.inputs().size() == 1);
  CHECK(net.inputs()[0].shape == Shape{1, 3});
  CHECK(net.outputs()[0].shape == Shape{1, 2});
  set(net, 0, {1, 2, 3});
  net.run();
  CHECK(get(net, 0) == Floats{14.5F, 31.0F});
  set(net, 0, {-1, 0, 2});
  net.run();
  CHECK(get(net, 0) == Floats{5.5F, 7.0F});
}

TEST_CASE("Gemm honours transA transB alpha beta and every broadcast of C") {
  const std::int64_t m_rows = 3;
  const std::int64_t k = 4;
  const std::int64_t n = 2;
  const std::vector<std::optional<Shape>> c_shapes{std::nullopt, Shape{}, Shape{n}, Shape{1, n}, Shape{m_rows, 1},
                                                    Shape{m_rows, n}};
  for (const int trans_a : {0, 1}) {
    for (const int trans_b : {0, 1}) {
      for (const auto& c_shape : c_shapes) {
        for (const float alpha : {1.0F, 0.5F}) {
          const float beta = 2.0F;
          CAPTURE(trans_a, trans_b, c_shape.has_value(), c_shape ? c_shape->size() : 9, alpha);
          const Shape a_shape = trans_a ? Shape{k, m_rows} : Shape{m_rows, k};
          const Shape b_shape = trans_b ? Shape{n, k} : Shape{k, n};
          const Floats a = values(count(a_shape), 1);
          const Floats b = values(count(b_shape), 2);
          const Floats c = c_shape ? values(count(*c_shape), 3) : Floats{};
          OnnxModelBuilder model;
          model.input("A", a_shape);
          model.initializer("B", b_shape, b);
          if (c_shape) model.initializer("C", *c_shape, c);
          auto node = c_shape ? model.node("Gemm", {"A", "B", "C"}, {"Y"}) : model.node("Gemm", {"A", "B"}, {"Y"});
          node.attr("transA", std::int64_t{trans_a}).attr("transB", std::int64_t{trans_b}).attr("alpha", alpha).attr("beta", beta);
          model.output("Y", {m_rows, n});
          auto net = load(model);
          set(net, 0, a);
          net.run();
          Floats expected(static_cast<std::size_t>(m_rows * n));
          for (std::int64_t i = 0; i < m_rows; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
              float sum = 0.0F;
              for (std::int64_t q = 0; q < k; ++q) {
                const float av = trans_a ? a[static_cast<std::size_t>(q * m_rows + i)] : a[static_cast<std::size_t>(i * k + q)];
                const float bv = trans_b ? b[static_cast<std::size_t>(j * k + q)] : b[static_cast<std::size_t>(q * n + j)];
                sum += av * bv;
              }
              float cv = 0.0F;
              if (c_shape) {
                const Shape& s = *c_shape;
                const std::int64_t rows = s.size() == 2 ? s[0] : 1;
                const std::int64_t cols = s.empty() ? 1 : s.back();
                cv = c[static_cast<std::size_t>((rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j))];
              }
              expected[static_cast<std::size_t>(i * n + j)] = alpha * sum + beta * cv;
            }
          }
          require_near(get(net, 0), expected);
        }
      }
    }
  }
}

Floats matmul_reference(const Floats& a, const Floats& b, std::int64_t batches, std::int64_t m, std::int64_t k,
                        std::int64_t n, bool b_batched) {
  Floats y(static_cast<std::size_t>(batches * m * n));
  for (std::int64_t p = 0; p < batches; ++p) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        float sum = 0.0F;
        for (std::int64_t q = 0; q < k; ++q) {
          sum += a[static_cast<std::size_t>((p * m + i) * k + q)] *
                 b[static_cast<std::size_t>(((b_batched ? p : 0) * k + q) * n + j)];
        }
        y[static_cast<std::size_t>((p * m + i) * n + j)] = sum;
      }
    }
  }
  return y;
}

TEST_CASE("MatMul multiplies 2-D and N-D operands by a 2-D right operand") {
  const Floats b = values(4 * 5, 7);
  for (const Shape& a_shape : {Shape{3, 4}, Shape{2, 3, 4}, Shape{2, 2, 1, 4}}) {
    CAPTURE(a_shape.size());
    OnnxModelBuilder m;
    m.input("A", a_shape);
    m.initializer("B", {4, 5}, b);
    m.node("MatMul", {"A", "B"}, {"Y"});
    Shape out = a_shape;
    out.back() = 5;
    m.output("Y", out);
    auto net = load(m);
    CHECK(net.outputs()[0].shape == out);
    const Floats a = values(count(a_shape), 8);
    set(net, 0, a);
    net.run();
    const auto rows = static_cast<std::int64_t>(count(a_shape) / 4);
    require_near(get(net, 0), matmul_reference(a, b, 1, rows, 4, 5, false));
  }
}

TEST_CASE("MatMul broadcasts batch dimensions and promotes vectors") {
  SECTION("N-D times N-D with a broadcast batch") {
    OnnxModelBuilder m;
    m.input("A", {2, 1, 3, 4});
    m.input("B", {3, 4, 2});
    m.node("MatMul", {"A", "B"}, {"Y"});
    m.output("Y", {2, 3, 3, 2});
    auto net = load(m);
    const Floats a = values(24, 1);
    const Floats b = values(24, 2);
    set(net, 0, a);
    set(net, 1, b);
    net.run();
    Floats expected;
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j) {
        const Floats ai(a.begin() + i * 12, a.begin() + (i + 1) * 12);
        const Floats bj(b.begin() + j * 8, b.begin() + (j + 1) * 8);
        const Floats y = matmul_reference(ai, bj, 1, 3, 4, 2, false);
        expected.insert(expected.end(), y.begin(), y.end());
      }
    }
    require_near(get(net, 0), expected);
  }
  SECTION("vector times matrix and matrix times vector") {
    OnnxModelBuilder m;
    m.input("v", {3});
    m.initializer("M", {3, 2}, Floats{1, 2, 3, 4, 5, 6});
    m.initializer("u", {2}, Floats{1, -1});
    m.node("MatMul", {"v", "M"}, {"vM"});
    m.node("MatMul", {"M", "u"}, {"Mu"});
    m.output("vM", {2});
    m.output("Mu", {3});
    auto net = load(m);
    set(net, 0, {1, 0, -2});
    net.run();
    CHECK(get(net, 0) == Floats{-9, -10});
    CHECK(get(net, 1) == Floats{-1, -1, -1});  // all constant: computed at load
  }
}

// ---------------------------------------------------------------------------------------------
// Elementwise

TEST_CASE("Add Sub Mul Div broadcast like numpy") {
  const std::vector<std::pair<Shape, Shape>> shapes{
      {{2, 3}, {2, 3}}, {{2, 3}, {3}},       {{3}, {2, 3}},          {{2, 1, 4}, {3, 1}},
      {{2, 3}, {}},     {{1}, {2, 3}},       {{4, 1}, {1, 5}},       {{2, 3, 4}, {2, 1, 4}},
      {{1, 3, 1}, {2, 1, 5}}};
  const std::vector<std::pair<const char*, std::function<float(float, float)>>> ops{
      {"Add", std::plus<float>{}}, {"Sub", std::minus<float>{}}, {"Mul", std::multiplies<float>{}},
      {"Div", std::divides<float>{}}};
  for (const auto& [sa, sb] : shapes) {
    for (const auto& [op, f] : ops) {
      CAPTURE(op, sa, sb);
      Shape out(std::max(sa.size(), sb.size()), 1);
      for (std::size_t i = 0; i < out.size(); ++i) {
        const std::size_t ia = i + sa.size() - out.size();
        const std::size_t ib = i + sb.size() - out.size();
        if (i + sa.size() >= out.size()) out[i] = std::max(out[i], sa[ia]);
        if (i + sb.size() >= out.size()) out[i] = std::max(out[i], sb[ib]);
      }
      OnnxModelBuilder m;
      m.input("a", sa);
      m.input("b", sb);
      m.node(op, {"a", "b"}, {"y"});
      m.output("y", out);
      auto net = load(m);
      const Floats a = values(count(sa), 3);
      Floats b = values(count(sb), 4);
      for (auto& v : b) v += v < 0 ? -0.5F : 0.5F;  // away from 0 for Div
      set(net, 0, a);
      set(net, 1, b);
      net.run();
      CHECK(get(net, 0) == broadcast_reference(sa, a, sb, b, out, f));
    }
  }
}

TEST_CASE("Add of a bias initializer and a computed tensor") {
  OnnxModelBuilder m;
  m.input("x", {2, 3});
  m.initializer("bias", {3}, Floats{10, 20, 30});
  m.node("Add", {"bias", "x"}, {"y"});
  m.output("y", {2, 3});
  auto net = load(m);
  set(net, 0, {1, 2, 3, 4, 5, 6});
  net.run();
  CHECK(get(net, 0) == Floats{11, 22, 33, 14, 25, 36});
}

TEST_CASE("Unary activations match their formulas") {
  Floats x;
  for (int i = -40; i <= 40; ++i) x.push_back(static_cast<float>(i) * 0.25F);
  const auto n = static_cast<std::int64_t>(x.size());
  struct Case {
    const char* op;
    std::optional<std::pair<const char*, float>> attr;
    std::function<float(float)> f;
  };
  const float selu_alpha = 1.67326319217681884765625F;
  const float selu_gamma = 1.05070102214813232421875F;
  const std::vector<Case> cases{
      {"Neg", std::nullopt, [](float v) { return -v; }},
      {"Relu", std::nullopt, [](float v) { return v > 0 ? v : 0.0F; }},
      {"Elu", std::nullopt, [](float v) { return v >= 0 ? v : std::exp(v) - 1.0F; }},
      {"Elu", std::pair{"alpha", 0.3F}, [](float v) { return v >= 0 ? v : 0.3F * (std::exp(v) - 1.0F); }},
      {"LeakyRelu", std::nullopt, [](float v) { return v >= 0 ? v : 0.01F * v; }},
      {"LeakyRelu", std::pair{"alpha", 0.2F}, [](float v) { return v >= 0 ? v : 0.2F * v; }},
      {"Selu", std::nullopt,
       [&](float v) { return v > 0 ? selu_gamma * v : selu_gamma * selu_alpha * (std::exp(v) - 1.0F); }},
      {"Tanh", std::nullopt, [](float v) { return std::tanh(v); }},
      {"Sigmoid", std::nullopt, [](float v) { return 1.0F / (1.0F + std::exp(-v)); }},
      {"Softsign", std::nullopt, [](float v) { return v / (1.0F + std::fabs(v)); }},
  };
  for (const auto& c : cases) {
    CAPTURE(c.op, c.attr.has_value());
    OnnxModelBuilder m;
    m.input("x", {1, n});
    auto node = m.node(c.op, {"x"}, {"y"});
    if (c.attr) node.attr(c.attr->first, c.attr->second);
    m.output("y", {1, n});
    auto net = load(m);
    set(net, 0, x);
    net.run();
    Floats expected;
    for (const float v : x) expected.push_back(c.f(v));
    require_near(get(net, 0), expected, 1e-6F);
  }
}

TEST_CASE("Activations let NaN through") {
  for (const char* op : {"Relu", "Elu", "LeakyRelu", "Tanh", "Sigmoid", "Clip"}) {
    CAPTURE(op);
    OnnxModelBuilder m;
    m.input("x", {2});
    m.node(op, {"x"}, {"y"});
    m.output("y", {2});
    auto net = load(m);
    set(net, 0, {std::numeric_limits<float>::quiet_NaN(), 1.0F});
    net.run();
    CHECK(std::isnan(get(net, 0)[0]));
  }
}

TEST_CASE("Clip with opset 6 attributes") {
  OnnxModelBuilder m(6);
  m.input("x", {6});
  m.node("Clip", {"x"}, {"y"}).attr("min", -0.5F).attr("max", 0.25F);
  m.node("Clip", {"x"}, {"unbounded"});
  m.output("y", {6});
  m.output("unbounded", {6});
  auto net = load(m);
  const float inf = std::numeric_limits<float>::infinity();
  set(net, 0, {-2.0F, -0.5F, 0.1F, 0.25F, 3.0F, inf});
  net.run();
  CHECK(get(net, 0) == Floats{-0.5F, -0.5F, 0.1F, 0.25F, 0.25F, 0.25F});
  // The spec's defaults are the float limits, so infinity is clipped to the largest float.
  CHECK(get(net, 1) == Floats{-2.0F, -0.5F, 0.1F, 0.25F, 3.0F, std::numeric_limits<float>::max()});
}

TEST_CASE("Clip with opset 13 inputs constant computed or absent") {
  OnnxModelBuilder m(13);
  m.input("x", {5});
  m.input("hi", {});
  m.initializer("lo", {}, Floats{-1.0F});
  m.node("Clip", {"x", "lo", "hi"}, {"both"});
  m.node("Clip", {"x", "", "hi"}, {"max_only"});
  m.node("Clip", {"x", "lo"}, {"min_only"});
  m.output("both", {5});
  m.output("max_only", {5});
  m.output("min_only", {5});
  auto net = load(m);
  set(net, 0, {-3, -1, 0, 1, 3});
  set(net, 1, {0.5F});
  net.run();
  CHECK(get(net, 0) == Floats{-1, -1, 0, 0.5F, 0.5F});
  CHECK(get(net, 1) == Floats{-3, -1, 0, 0.5F, 0.5F});
  CHECK(get(net, 2) == Floats{-1, -1, 0, 1, 3});
  set(net, 1, {2.0F});  // a computed bound is read every run
  net.run();
  CHECK(get(net, 0) == Floats{-1, -1, 0, 1, 2});
}

// ---------------------------------------------------------------------------------------------
// Data movement

TEST_CASE("Concat joins along positive and negative axes") {
  OnnxModelBuilder m;
  m.input("a", {2, 2});
  m.input("b", {2, 1});
  m.initializer("c", {1, 2}, Floats{9, 8});
  m.node("Concat", {"a", "b"}, {"cols"}).attr("axis", std::int64_t{-1});
  m.node("Concat", {"a", "c", "a"}, {"rows"}).attr("axis", std::int64_t{0});
  m.output("cols", {2, 3});
  m.output("rows", {5, 2});
  auto net = load(m);
  set(net, 0, {1, 2, 3, 4});
  set(net, 1, {5, 6});
  net.run();
  CHECK(get(net, 0) == Floats{1, 2, 5, 3, 4, 6});
  CHECK(get(net, 1) == Floats{1, 2, 3, 4, 9, 8, 1, 2, 3, 4});
}

// Slice of a [3, 4] input holding 0..11 (opset 13: bounds as inputs).
Floats slice13(const std::vector<std::int64_t>& starts, const std::vector<std::int64_t>& ends,
               const std::optional<std::vector<std::int64_t>>& axes, const std::optional<std::vector<std::int64_t>>& steps,
               const Shape& out) {
  OnnxModelBuilder m(13);
  m.input("x", {3, 4});
  const auto size = static_cast<std::int64_t>(starts.size());
  m.initializer("starts", {size}, starts);
  m.initializer("ends", {size}, ends);
  if (axes) m.initializer("axes", {size}, *axes);
  if (steps) m.initializer("steps", {size}, *steps);
  m.node("Slice", {"x", "starts", "ends", axes ? "axes" : "", steps ? "steps" : ""}, {"y"});
  m.output("y", out);
  auto net = load(m);
  CHECK(net.outputs()[0].shape == out);
  set(net, 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  net.run();
  return get(net, 0);
}

TEST_CASE("Slice handles negative steps and ends and clamps its bounds") {
  // [[0 1 2 3] [4 5 6 7] [8 9 10 11]]
  CHECK(slice13(ints({0, 1}), ints({k_int_max, -1}), ints({0, 1}), std::nullopt, {3, 2}) == Floats{1, 2, 5, 6, 9, 10});
  CHECK(slice13(ints({1}), ints({3}), std::nullopt, std::nullopt, {2, 4}) == Floats{4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(slice13(ints({-1}), ints({k_int_min}), ints({1}), ints({-1}), {3, 4}) ==
        Floats{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
  CHECK(slice13(ints({-1}), ints({-4}), ints({-1}), ints({-1}), {3, 3}) == Floats{3, 2, 1, 7, 6, 5, 11, 10, 9});
  CHECK(slice13(ints({2, 100}), ints({0, -100}), ints({0, 1}), ints({-2, -3}), {1, 2}) == Floats{11, 8});
  CHECK(slice13(ints({0, -3}), ints({5, 100}), ints({0, 1}), ints({2, 2}), {2, 2}) == Floats{1, 3, 9, 11});
  CHECK(slice13(ints({-100}), ints({1}), ints({-2}), std::nullopt, {1, 4}) == Floats{0, 1, 2, 3});
}

TEST_CASE("Slice before opset 10 takes attributes") {
  OnnxModelBuilder m(9);
  m.input("x", {3, 4});
  m.node("Slice", {"x"}, {"y"}).attr("starts", ints({1, -2})).attr("ends", ints({k_int_max, 4})).attr("axes", ints({0, 1}));
  m.output("y", {2, 2});
  auto net = load(m);
  set(net, 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  net.run();
  CHECK(get(net, 0) == Floats{6, 7, 10, 11});
}

TEST_CASE("Reshape infers -1 and keeps 0 and Flatten folds at its axis") {
  OnnxModelBuilder m;
  m.input("x", {2, 3, 4});
  m.initializer("keep_rest", {2}, ints({0, -1}));
  m.initializer("flat", {3}, ints({-1, 2, 2}));
  m.node("Reshape", {"x", "keep_rest"}, {"r1"});
  m.node("Relu", {"r1"}, {"relu"});  // reads the renamed buffer
  m.node("Reshape", {"relu", "flat"}, {"r2"});
  m.node("Flatten", {"x"}, {"f0"}).attr("axis", std::int64_t{0});
  m.node("Flatten", {"x"}, {"f2"}).attr("axis", std::int64_t{2});
  m.node("Flatten", {"x"}, {"fm1"}).attr("axis", std::int64_t{-1});
  m.node("Flatten", {"x"}, {"f3"}).attr("axis", std::int64_t{3});
  m.output("r1", {2, 12});
  m.output("r2", {6, 2, 2});
  m.output("f0", {1, 24});
  m.output("f2", {6, 4});
  m.output("fm1", {6, 4});
  m.output("f3", {24, 1});
  auto net = load(m);
  Floats x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 5.0F;
  set(net, 0, x);
  net.run();
  Floats relu = x;
  for (auto& v : relu) v = std::max(v, 0.0F);
  CHECK(net.outputs()[0].shape == Shape{2, 12});
  CHECK(get(net, 0) == x);
  CHECK(get(net, 1) == relu);
  for (std::size_t i = 2; i < 6; ++i) CHECK(get(net, i) == x);
  CHECK(net.outputs()[3].shape == Shape{6, 4});
}

TEST_CASE("Squeeze and Unsqueeze take axes as attributes before opset 13") {
  OnnxModelBuilder m(11);
  m.input("x", {1, 3, 1, 2});
  m.node("Squeeze", {"x"}, {"s"}).attr("axes", ints({0, -2}));
  m.node("Squeeze", {"x"}, {"all"});
  m.node("Unsqueeze", {"all"}, {"u"}).attr("axes", ints({-1, 0}));
  m.node("Neg", {"u"}, {"y"});
  m.output("s", {3, 2});
  m.output("all", {3, 2});
  m.output("y", {1, 3, 2, 1});
  auto net = load(m);
  set(net, 0, {1, 2, 3, 4, 5, 6});
  net.run();
  CHECK(get(net, 0) == Floats{1, 2, 3, 4, 5, 6});
  CHECK(get(net, 2) == Floats{-1, -2, -3, -4, -5, -6});
  CHECK(net.outputs()[2].shape == Shape{1, 3, 2, 1});
}

TEST_CASE("Squeeze and Unsqueeze take axes as inputs from opset 13") {
  OnnxModelBuilder m(13);
  m.input("x", {3, 1, 2});
  m.initializer("one", {1}, ints({1}));
  m.initializer("ends", {2}, ints({0, -1}));
  m.node("Squeeze", {"x", "one"}, {"s"});
  m.node("Unsqueeze", {"s", "ends"}, {"u"});
  m.node("Squeeze", {"u"}, {"all"});
  m.output("u", {1, 3, 2, 1});
  m.output("all", {3, 2});
  auto net = load(m);
  CHECK(net.outputs()[0].shape == Shape{1, 3, 2, 1});
  set(net, 0, {1, 2, 3, 4, 5, 6});
  net.run();
  CHECK(get(net, 0) == Floats{1, 2, 3, 4, 5, 6});
  CHECK(get(net, 1) == Floats{1, 2, 3, 4, 5, 6});
}

TEST_CASE("An output that is an input under another name gets its own copy") {
  OnnxModelBuilder m;
  m.input("x", {3});
  m.node("Identity", {"x"}, {"same"});
  m.output("same", {3});
  auto net = load(m);
  set(net, 0, {1, 2, 3});
  net.run();
  CHECK(get(net, 0) == Floats{1, 2, 3});
  CHECK(net.output(0).data() != net.input(0).data());
}

TEST_CASE("Constants fold at load") {
  OnnxModelBuilder m;
  m.input("x", {2, 2});
  m.node("Constant", {}, {"c"}).attr_tensor("value", {2, 2}, Floats{1, 2, 3, 4});
  m.node("Constant", {}, {"s"}).attr("value_float", 10.0F);
  m.node("Constant", {}, {"shape"}).attr("value_ints", ints({4}));
  m.node("Mul", {"c", "s"}, {"cs"});          // constant: computed at load
  m.node("Reshape", {"cs", "shape"}, {"flat"});
  m.node("Add", {"x", "cs"}, {"y"});
  m.output("flat", {4});
  m.output("y", {2, 2});
  auto net = load(m);
  CHECK(get(net, 0) == Floats{10, 20, 30, 40});  // before any run
  set(net, 0, {1, 1, 1, 1});
  net.run();
  CHECK(get(net, 1) == Floats{11, 21, 31, 41});
  CHECK(net.summary() == "Constant x3, Mul x1, Reshape x1, Add x1");
}

// ---------------------------------------------------------------------------------------------
// LSTM

TEST_CASE("LSTM over a sequence matches a reference loop") {
  const int seq = 4;
  const int batch = 2;
  const int in = 3;
  const int hidden = 5;
  const Floats w = values(static_cast<std::size_t>(4 * hidden * in), 11);
  const Floats r = values(static_cast<std::size_t>(4 * hidden * hidden), 12);
  const Floats b = values(static_cast<std::size_t>(8 * hidden), 13);
  const Floats p = values(static_cast<std::size_t>(3 * hidden), 14);
  const Floats x = values(static_cast<std::size_t>(seq * batch * in), 15);
  const Floats h0 = values(static_cast<std::size_t>(batch * hidden), 16);
  const Floats c0 = values(static_cast<std::size_t>(batch * hidden), 17);
  SECTION("with bias initial state and peepholes") {
    OnnxModelBuilder m;
    m.input("X", {seq, batch, in});
    m.input("h0", {1, batch, hidden});
    m.input("c0", {1, batch, hidden});
    m.initializer("W", {1, 4 * hidden, in}, w);
    m.initializer("R", {1, 4 * hidden, hidden}, r);
    m.initializer("B", {1, 8 * hidden}, b);
    m.initializer("P", {1, 3 * hidden}, p);
    m.node("LSTM", {"X", "W", "R", "B", "", "h0", "c0", "P"}, {"Y", "Y_h", "Y_c"})
        .attr("hidden_size", std::int64_t{hidden})
        .attr("direction", std::string("forward"))
        .attr("activations", std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"});
    m.output("Y", {seq, 1, batch, hidden});
    m.output("Y_h", {1, batch, hidden});
    m.output("Y_c", {1, batch, hidden});
    auto net = load(m);
    set(net, 0, x);
    set(net, 1, h0);
    set(net, 2, c0);
    net.run();
    const auto expected = lstm_reference(seq, batch, in, hidden, x, w, r, b, p, h0, c0);
    require_near(get(net, 0), expected.y);
    require_near(get(net, 1), expected.h);
    require_near(get(net, 2), expected.c);
    net.run();  // the same inputs, the same outputs: no state kept inside
    require_near(get(net, 1), expected.h);
  }
  SECTION("without optional inputs and only Y_h out") {
    OnnxModelBuilder m;
    m.input("X", {seq, batch, in});
    m.initializer("W", {1, 4 * hidden, in}, w);
    m.initializer("R", {1, 4 * hidden, hidden}, r);
    m.node("LSTM", {"X", "W", "R"}, {"", "Y_h"}).attr("hidden_size", std::int64_t{hidden});
    m.output("Y_h", {1, batch, hidden});
    auto net = load(m);
    set(net, 0, x);
    net.run();
    const Floats zeros(static_cast<std::size_t>(batch * hidden), 0.0F);
    require_near(get(net, 0), lstm_reference(seq, batch, in, hidden, x, w, r, {}, {}, zeros, zeros).h);
  }
}

TEST_CASE("LSTM state carried across run calls matches stepping the reference") {
  // rsl_rl's recurrent export: obs, h_in, c_in -> actions, h_out, c_out.
  const int in = 3;
  const int hidden = 4;
  const int actions = 2;
  const Floats w = values(static_cast<std::size_t>(4 * hidden * in), 21);
  const Floats r = values(static_cast<std::size_t>(4 * hidden * hidden), 22);
  const Floats b = values(static_cast<std::size_t>(8 * hidden), 23);
  const Floats head = values(static_cast<std::size_t>(actions * hidden), 24);
  OnnxModelBuilder m(11);
  m.input("obs", {1, in});
  m.input("h_in", {1, 1, hidden});
  m.input("c_in", {1, 1, hidden});
  m.initializer("W", {1, 4 * hidden, in}, w);
  m.initializer("R", {1, 4 * hidden, hidden}, r);
  m.initializer("B", {1, 8 * hidden}, b);
  m.initializer("head", {actions, hidden}, head);
  m.node("Unsqueeze", {"obs"}, {"x"}).attr("axes", ints({0}));
  m.node("LSTM", {"x", "W", "R", "B", "", "h_in", "c_in"}, {"y", "h_out", "c_out"}).attr("hidden_size", std::int64_t{hidden});
  m.node("Squeeze", {"y"}, {"features"}).attr("axes", ints({0, 1}));
  m.node("Gemm", {"features", "head"}, {"actions"}).attr("transB", std::int64_t{1});
  m.output("actions", {1, actions});
  m.output("h_out", {1, 1, hidden});
  m.output("c_out", {1, 1, hidden});
  auto net = load(m, "recurrent.onnx");
  net.carry(net.output_index("h_out"), net.input_index("h_in"));
  net.carry(net.output_index("c_out"), net.input_index("c_in"));

  Floats h(static_cast<std::size_t>(hidden), 0.0F);
  Floats c(static_cast<std::size_t>(hidden), 0.0F);
  Floats first_actions;
  for (std::uint32_t step = 0; step < 6; ++step) {
    CAPTURE(step);
    const Floats obs = values(static_cast<std::size_t>(in), 100 + step);
    set(net, 0, obs);
    net.run();
    const auto expected = lstm_reference(1, 1, in, hidden, obs, w, r, b, {}, h, c);
    h = expected.h;
    c = expected.c;
    Floats act(static_cast<std::size_t>(actions), 0.0F);
    for (int a = 0; a < actions; ++a) {
      for (int j = 0; j < hidden; ++j) act[static_cast<std::size_t>(a)] += head[static_cast<std::size_t>(a * hidden + j)] * h[static_cast<std::size_t>(j)];
    }
    require_near(get(net, 0), act);
    require_near({net.input(1).begin(), net.input(1).end()}, h);  // carried into the inputs
    require_near({net.input(2).begin(), net.input(2).end()}, c);
    if (step == 0) first_actions = get(net, 0);
  }
  net.reset_state();
  for (const float v : net.input(1)) CHECK(v == 0.0F);
  for (const float v : net.input(2)) CHECK(v == 0.0F);
  set(net, 0, values(static_cast<std::size_t>(in), 100));
  net.run();
  CHECK(get(net, 0) == first_actions);
}

// ---------------------------------------------------------------------------------------------
// GRU

TEST_CASE("GRU over a sequence matches a reference loop") {
  const int seq = 4;
  const int batch = 2;
  const int in = 3;
  const int hidden = 5;
  const Floats w = values(static_cast<std::size_t>(3 * hidden * in), 31);
  const Floats r = values(static_cast<std::size_t>(3 * hidden * hidden), 32);
  const Floats b = values(static_cast<std::size_t>(6 * hidden), 33);
  const Floats x = values(static_cast<std::size_t>(seq * batch * in), 34);
  const Floats h0 = values(static_cast<std::size_t>(batch * hidden), 35);
  const Floats zeros(static_cast<std::size_t>(batch * hidden), 0.0F);
  for (const std::int64_t lbr : {0, 1}) {
    CAPTURE(lbr);
    SECTION("with bias and initial state, linear_before_reset " + std::to_string(lbr)) {
      OnnxModelBuilder m;
      m.input("X", {seq, batch, in});
      m.input("h0", {1, batch, hidden});
      m.initializer("W", {1, 3 * hidden, in}, w);
      m.initializer("R", {1, 3 * hidden, hidden}, r);
      m.initializer("B", {1, 6 * hidden}, b);
      m.node("GRU", {"X", "W", "R", "B", "", "h0"}, {"Y", "Y_h"})
          .attr("hidden_size", std::int64_t{hidden})
          .attr("linear_before_reset", lbr)
          .attr("direction", std::string("forward"))
          .attr("activations", std::vector<std::string>{"Sigmoid", "Tanh"});
      m.output("Y", {seq, 1, batch, hidden});
      m.output("Y_h", {1, batch, hidden});
      auto net = load(m);
      set(net, 0, x);
      set(net, 1, h0);
      net.run();
      Floats y;
      const Floats h = gru_reference(seq, batch, in, hidden, x, w, r, b, lbr != 0, h0, &y);
      require_near(get(net, 0), y);
      require_near(get(net, 1), h);
      net.run();  // the same inputs, the same outputs: no state kept inside
      require_near(get(net, 1), h);
    }
    SECTION("without optional inputs and only Y_h out, linear_before_reset " + std::to_string(lbr)) {
      OnnxModelBuilder m;
      m.input("X", {seq, batch, in});
      m.initializer("W", {1, 3 * hidden, in}, w);
      m.initializer("R", {1, 3 * hidden, hidden}, r);
      m.node("GRU", {"X", "W", "R"}, {"", "Y_h"})
          .attr("hidden_size", std::int64_t{hidden})
          .attr("linear_before_reset", lbr);
      m.output("Y_h", {1, batch, hidden});
      auto net = load(m);
      set(net, 0, x);
      net.run();
      require_near(get(net, 0), gru_reference(seq, batch, in, hidden, x, w, r, {}, lbr != 0, zeros));
    }
  }
  SECTION("the two ways of applying the reset differ") {  // so that the sections above tell them apart
    CHECK(gru_reference(seq, batch, in, hidden, x, w, r, b, false, h0) !=
          gru_reference(seq, batch, in, hidden, x, w, r, b, true, h0));
  }
}

// An int32 initializer, as exporters write sequence_lens.
void int32_initializer(OnnxModelBuilder& m, const std::string& name, const std::vector<std::int32_t>& v) {
  auto* t = m.model().mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT32);
  t->add_dims(static_cast<std::int64_t>(v.size()));
  for (const auto i : v) t->add_int32_data(i);
}

TEST_CASE("GRU runs a constant sequence_lens of every sequence's full length as if it were absent") {
  const int seq = 3;
  const int hidden = 2;
  OnnxModelBuilder m;
  m.input("X", {seq, 2, 2});
  m.initializer("W", {1, 3 * hidden, 2}, values(12, 41));
  m.initializer("R", {1, 3 * hidden, hidden}, values(12, 42));
  int32_initializer(m, "lens", {seq, seq});
  m.node("GRU", {"X", "W", "R", "", "lens"}, {"Y"}).attr("hidden_size", std::int64_t{hidden});
  m.output("Y", {seq, 1, 2, hidden});
  auto net = load(m);
  const Floats x = values(12, 43);
  set(net, 0, x);
  net.run();
  Floats y;
  (void)gru_reference(seq, 2, 2, hidden, x, values(12, 41), values(12, 42), {}, false, Floats(4, 0.0F), &y);
  require_near(get(net, 0), y);
}

TEST_CASE("GRU state carried across run calls matches stepping the reference") {
  // rsl_rl's recurrent export with a GRU: obs, h_in -> actions, h_out.
  const int in = 3;
  const int hidden = 4;
  const int actions = 2;
  const Floats w = values(static_cast<std::size_t>(3 * hidden * in), 51);
  const Floats r = values(static_cast<std::size_t>(3 * hidden * hidden), 52);
  const Floats b = values(static_cast<std::size_t>(6 * hidden), 53);
  const Floats head = values(static_cast<std::size_t>(actions * hidden), 54);
  OnnxModelBuilder m(11);
  m.input("obs", {1, in});
  m.input("h_in", {1, 1, hidden});
  m.initializer("W", {1, 3 * hidden, in}, w);
  m.initializer("R", {1, 3 * hidden, hidden}, r);
  m.initializer("B", {1, 6 * hidden}, b);
  m.initializer("head", {actions, hidden}, head);
  m.node("Unsqueeze", {"obs"}, {"x"}).attr("axes", ints({0}));
  m.node("GRU", {"x", "W", "R", "B", "", "h_in"}, {"y", "h_out"})
      .attr("hidden_size", std::int64_t{hidden})
      .attr("linear_before_reset", std::int64_t{1});
  m.node("Squeeze", {"y"}, {"features"}).attr("axes", ints({0, 1}));
  m.node("Gemm", {"features", "head"}, {"actions"}).attr("transB", std::int64_t{1});
  m.output("actions", {1, actions});
  m.output("h_out", {1, 1, hidden});
  auto net = load(m, "recurrent_gru.onnx");
  net.carry(net.output_index("h_out"), net.input_index("h_in"));
  CHECK(net.summary() == "Unsqueeze x1, GRU x1, Squeeze x1, Gemm x1");

  Floats h(static_cast<std::size_t>(hidden), 0.0F);
  Floats first_actions;
  for (std::uint32_t step = 0; step < 6; ++step) {
    CAPTURE(step);
    const Floats obs = values(static_cast<std::size_t>(in), 200 + step);
    set(net, 0, obs);
    net.run();
    h = gru_reference(1, 1, in, hidden, obs, w, r, b, true, h);
    Floats act(static_cast<std::size_t>(actions), 0.0F);
    for (std::size_t a = 0; a < act.size(); ++a) {
      for (std::size_t j = 0; j < h.size(); ++j) act[a] += head[a * h.size() + j] * h[j];
    }
    require_near(get(net, 0), act);
    require_near({net.input(1).begin(), net.input(1).end()}, h);  // carried into the input
    if (step == 0) first_actions = get(net, 0);
  }
  CHECK(get(net, 0) != first_actions);  // the state changed what the policy does
  net.reset_state();
  for (const float v : net.input(1)) CHECK(v == 0.0F);
  set(net, 0, values(static_cast<std::size_t>(in), 200));
  net.run();
  CHECK(get(net, 0) == first_actions);
}

// ---------------------------------------------------------------------------------------------
// Refusals

TEST_CASE("An unsupported operator is refused naming it its node and the file") {
  OnnxModelBuilder m;
  m.input("x", {1, 4});
  m.node("Relu", {"x"}, {"h"});
  m.node("Softmax", {"h"}, {"y"}, "head_softmax");
  m.output("y", {1, 4});
  const auto message = refusal(m, "policy_softmax.onnx");
  CHECK_THAT(message, Catch::Contains("policy_softmax.onnx") && Catch::Contains("Softmax") &&
                          Catch::Contains("head_softmax") && Catch::Contains("not supported"));
}

TEST_CASE("A non-float input is refused naming it") {
  OnnxModelBuilder m;
  m.input("steps", {1, 4});
  m.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  m.node("Identity", {"steps"}, {"y"});
  m.output("y", {1, 4});
  const auto message = refusal(m, "ints.onnx");
  CHECK_THAT(message, Catch::Contains("ints.onnx") && Catch::Contains("'steps'") && Catch::Contains("INT64") &&
                          Catch::Contains("float32"));
}

TEST_CASE("A non-finite weight is refused naming the initializer and index") {
  OnnxModelBuilder m;
  m.input("x", {1, 2});
  m.initializer("actor.0.weight", {2, 2}, Floats{1, 2, std::numeric_limits<float>::quiet_NaN(), 4});
  m.node("Gemm", {"x", "actor.0.weight"}, {"y"}).attr("transB", std::int64_t{1});
  m.output("y", {1, 2});
  const auto message = refusal(m, "nan.onnx");
  CHECK_THAT(message, Catch::Contains("nan.onnx") && Catch::Contains("'actor.0.weight'") &&
                          Catch::Contains("index 2") && Catch::Contains("finite"));

  OnnxModelBuilder constant;
  constant.input("x", {2});
  constant.node("Constant", {}, {"c"}, "bad_constant").attr_tensor("value", {2}, Floats{0, std::numeric_limits<float>::infinity()});
  constant.node("Add", {"x", "c"}, {"y"});
  constant.output("y", {2});
  CHECK_THAT(refusal(constant), Catch::Contains("bad_constant") && Catch::Contains("index 1") && Catch::Contains("inf"));
}

TEST_CASE("A symbolic dimension is refused except the batch dimension") {
  OnnxModelBuilder m;
  m.input("obs", {1, -1});
  m.node("Relu", {"obs"}, {"y"});
  m.output("y", {1, -1});
  CHECK_THAT(refusal(m, "dynamic.onnx"), Catch::Contains("dynamic.onnx") && Catch::Contains("'obs'") &&
                                             Catch::Contains("symbolic dimension 1") && Catch::Contains("batch"));

  OnnxModelBuilder batch;
  batch.input("obs", {-1, 3});
  batch.node("Relu", {"obs"}, {"y"});
  batch.output("y", {-1, 3});
  const auto net = load(batch);
  CHECK(net.inputs()[0].shape == Shape{1, 3});
  CHECK(net.outputs()[0].shape == Shape{1, 3});
}

TEST_CASE("A bidirectional LSTM is refused") {
  OnnxModelBuilder m;
  m.input("X", {1, 1, 2});
  m.initializer("W", {2, 8, 2}, values(32, 1));
  m.initializer("R", {2, 8, 2}, values(32, 2));
  m.node("LSTM", {"X", "W", "R"}, {"Y"}, "rnn").attr("hidden_size", std::int64_t{2}).attr("direction", std::string("bidirectional"));
  m.output("Y", {1, 2, 1, 2});
  CHECK_THAT(refusal(m, "bi.onnx"), Catch::Contains("bi.onnx") && Catch::Contains("'rnn'") && Catch::Contains("LSTM") &&
                                        Catch::Contains("bidirectional"));
}

TEST_CASE("Other unsupported attribute values are refused") {
  SECTION("LSTM sequence_lens") {
    OnnxModelBuilder m;
    m.input("X", {1, 1, 2});
    m.initializer("W", {1, 8, 2}, values(16, 1));
    m.initializer("R", {1, 8, 2}, values(16, 2));
    m.input("lens", {1});
    m.node("LSTM", {"X", "W", "R", "", "lens"}, {"Y"}).attr("hidden_size", std::int64_t{2});
    m.output("Y", {1, 1, 1, 2});
    CHECK_THAT(refusal(m), Catch::Contains("sequence_lens"));
  }
  SECTION("LSTM activations") {
    OnnxModelBuilder m;
    m.input("X", {1, 1, 2});
    m.initializer("W", {1, 8, 2}, values(16, 1));
    m.initializer("R", {1, 8, 2}, values(16, 2));
    m.node("LSTM", {"X", "W", "R"}, {"Y"})
        .attr("hidden_size", std::int64_t{2})
        .attr("activations", std::vector<std::string>{"Sigmoid", "Relu", "Tanh"});
    m.output("Y", {1, 1, 1, 2});
    CHECK_THAT(refusal(m), Catch::Contains("activations") && Catch::Contains("Relu"));
  }
  SECTION("Reshape to a size that does not fit") {
    OnnxModelBuilder m;
    m.input("x", {2, 3});
    m.initializer("shape", {2}, ints({4, -1}));
    m.node("Reshape", {"x", "shape"}, {"y"}, "bad_reshape");
    m.output("y", {4, -1});
    CHECK_THAT(refusal(m), Catch::Contains("bad_reshape") && Catch::Contains("[2, 3]"));
  }
  SECTION("Reshape with allowzero keeps a literal 0") {
    OnnxModelBuilder m(14);
    m.input("x", {2, 3});
    m.initializer("shape", {2}, ints({0, 6}));
    m.node("Reshape", {"x", "shape"}, {"y"}).attr("allowzero", std::int64_t{1});
    m.output("y", {0, 6});
    CHECK_THAT(refusal(m), Catch::Contains("Reshape"));
  }
  SECTION("a shape that is computed") {
    OnnxModelBuilder m;
    m.input("x", {2, 3});
    m.input("shape", {2});
    m.node("Reshape", {"x", "shape"}, {"y"}, "dyn");
    m.output("y", {-1, -1});
    CHECK_THAT(refusal(m), Catch::Contains("dyn") && Catch::Contains("int64 constant"));
  }
  SECTION("shapes that do not broadcast") {
    OnnxModelBuilder m;
    m.input("a", {2, 3});
    m.input("b", {2});
    m.node("Add", {"a", "b"}, {"y"}, "sum");
    m.output("y", {2, 3});
    CHECK_THAT(refusal(m), Catch::Contains("sum") && Catch::Contains("[2, 3]") && Catch::Contains("[2]"));
  }
}

TEST_CASE("GRU attributes and inputs it does not run are refused naming the file, the node and what") {
  // A valid GRU of hidden size 2 over [1, 1, 2]; each section changes one thing.
  const auto gru = [](OnnxModelBuilder& m, std::initializer_list<std::string> inputs = {"X", "W", "R"}) {
    m.input("X", {1, 1, 2});
    m.initializer("W", {1, 6, 2}, values(12, 1));
    m.initializer("R", {1, 6, 2}, values(12, 2));
    m.output("Y", {1, 1, 1, 2});
    return m.node("GRU", inputs, {"Y"}, "/memory/GRU");
  };
  const auto refused = [](OnnxModelBuilder& m, const std::string& what) {
    const auto message = refusal(m, "gru_policy.onnx");
    CAPTURE(message);
    CHECK_THAT(message, Catch::Contains("gru_policy.onnx: node '/memory/GRU' (GRU): ") && Catch::Contains(what));
  };
  SECTION("the valid one loads, in every opset that has GRU since the oldest praxis reads") {
    for (const std::int64_t opset : {6, 7, 11, 14, 17}) {
      CAPTURE(opset);
      OnnxModelBuilder m(opset);
      auto node = gru(m);
      node.attr("hidden_size", std::int64_t{2});
      if (opset < 7) node.attr("output_sequence", std::int64_t{1});  // GRU-3's; Y is there when named
      CHECK(refusal(m).empty());
    }
  }
  SECTION("bidirectional and reverse") {
    for (const char* direction : {"bidirectional", "reverse"}) {
      OnnxModelBuilder m;
      gru(m).attr("hidden_size", std::int64_t{2}).attr("direction", std::string(direction));
      refused(m, "direction '" + std::string(direction) + "' is not supported; expected 'forward'");
    }
  }
  SECTION("clip") {
    OnnxModelBuilder m;
    gru(m).attr("clip", 3.0F);
    refused(m, "attribute 'clip' is not supported");
  }
  SECTION("custom activations") {
    OnnxModelBuilder m;
    gru(m).attr("activations", std::vector<std::string>{"HardSigmoid", "Tanh"});
    refused(m, "activations [HardSigmoid, Tanh] are not supported; expected the defaults [Sigmoid, Tanh]");
  }
  SECTION("activation_alpha and activation_beta") {
    for (const char* name : {"activation_alpha", "activation_beta"}) {
      OnnxModelBuilder m;
      gru(m).attr(name, Floats{0.2F, 0.5F});
      refused(m, "attribute '" + std::string(name) + "' is not supported");
    }
  }
  SECTION("layout 1 (batch first)") {
    OnnxModelBuilder m;
    gru(m).attr("layout", std::int64_t{1});
    refused(m, "layout = 1 (batch first) is not supported; expected 0");
  }
  SECTION("linear_before_reset other than 0 or 1") {
    OnnxModelBuilder m;
    gru(m).attr("linear_before_reset", std::int64_t{2});
    refused(m, "linear_before_reset = 2 is not supported; expected 0 or 1");
  }
  SECTION("sequence_lens computed at run time") {
    OnnxModelBuilder m;
    m.input("lens", {1});
    gru(m, {"X", "W", "R", "", "lens"});
    refused(m, "input 'sequence_lens' ('lens') is not supported unless it is an int32 constant of every "
               "sequence's full length (1)");
  }
  SECTION("sequence_lens shorter than the sequence") {
    OnnxModelBuilder m;
    m.input("X", {3, 1, 2});
    m.initializer("W", {1, 6, 2}, values(12, 1));
    m.initializer("R", {1, 6, 2}, values(12, 2));
    int32_initializer(m, "lens", {2});
    m.node("GRU", {"X", "W", "R", "", "lens"}, {"", "Y_h"}, "/memory/GRU");
    m.output("Y_h", {1, 1, 2});
    refused(m, "gives sequence 0 the length 2; only the full length 3 is supported");
  }
  SECTION("W, B, initial_h or hidden_size of the wrong size") {
    {
      OnnxModelBuilder m;
      m.input("X", {1, 1, 3});
      m.initializer("W", {1, 6, 2}, values(12, 1));
      m.initializer("R", {1, 6, 2}, values(12, 2));
      m.node("GRU", {"X", "W", "R"}, {"Y"}, "/memory/GRU");
      m.output("Y", {1, 1, 1, 2});
      refused(m, "W [1, 6, 2] must be [1, 6, 3]");
    }
    {
      OnnxModelBuilder m;
      m.initializer("B", {1, 8}, values(8, 3));
      gru(m, {"X", "W", "R", "B"});
      refused(m, "B [1, 8] must be [1, 12]");
    }
    {
      OnnxModelBuilder m;
      m.input("h0", {1, 1, 3});
      gru(m, {"X", "W", "R", "", "", "h0"});
      refused(m, "initial_h [1, 1, 3] must be [1, 1, 2]");
    }
    {
      OnnxModelBuilder m;
      m.initializer("R4", {1, 8, 2}, values(16, 4));  // an LSTM's R
      gru(m, {"X", "W", "R4"});
      refused(m, "R [1, 8, 2] must be [1, 3 * hidden_size, hidden_size]");
    }
    {
      OnnxModelBuilder m;
      gru(m).attr("hidden_size", std::int64_t{4});
      refused(m, "hidden_size 4 does not match R [1, 6, 2]");
    }
  }
}

TEST_CASE("Malformed bytes are refused") {
  const std::string text = "this is not an ONNX model";
  const auto bytes = std::as_bytes(std::span<const char>(text.data(), text.size()));
  CHECK_THROWS_WITH(Network::load_bytes(bytes, "garbage.onnx"),
                    Catch::Contains("garbage.onnx") && Catch::Contains("not an ONNX model"));
  CHECK_THROWS_WITH(Network::load_bytes({}, "empty.onnx"), Catch::Contains("empty.onnx") && Catch::Contains("checker"));
}

TEST_CASE("A missing file is refused naming it") {
  praxis::test::ScratchDir dir("network");
  const auto missing = dir / "no_such_policy.onnx";
  CHECK_THROWS_WITH(Network::load(missing), Catch::Contains(missing.string()) && Catch::Contains("no such file"));
}

// ---------------------------------------------------------------------------------------------
// The Network object

TEST_CASE("load reads a file and the tensors are found by name") {
  praxis::test::ScratchDir dir("network");
  OnnxModelBuilder m;
  m.input("obs", {1, 2});
  m.initializer("W", {3, 2}, Floats{1, 0, 0, 1, 1, 1});
  m.node("Gemm", {"obs", "W"}, {"h"}).attr("transB", std::int64_t{1});
  m.node("Elu", {"h"}, {"actions"});
  m.output("actions", {1, 3});
  const auto file = dir / "policy.onnx";
  m.save(file);
  auto net = Network::load(file);
  CHECK(net.input_index("obs") == 0);
  CHECK(net.output_index("actions") == 0);
  CHECK_THROWS_WITH(net.input_index("observations"),
                    Catch::Contains(file.string()) && Catch::Contains("'observations'") && Catch::Contains("'obs' [1, 2]"));
  CHECK_THROWS_WITH(net.output_index("h"), Catch::Contains("'actions' [1, 3]"));
  CHECK_THROWS_AS(net.input(1), PolicyError);
  CHECK(net.summary() == "Gemm x1, Elu x1");
  CHECK(net.arena_floats() >= 2 + 6 + 3 + 3);
  set(net, 0, {2, -1});
  net.run();
  require_near(get(net, 0), {2.0F, std::exp(-1.0F) - 1.0F, 1.0F}, 1e-6F);

  Network moved = std::move(net);  // the buffers stay where they were
  moved.run();
  require_near(get(moved, 0), {2.0F, std::exp(-1.0F) - 1.0F, 1.0F}, 1e-6F);
}

TEST_CASE("carry refuses tensors of different shapes and carrying one input twice") {
  OnnxModelBuilder m;
  m.input("state", {1, 2});
  m.input("obs", {1, 3});
  m.node("Neg", {"state"}, {"next"});
  m.node("Neg", {"obs"}, {"y"});
  m.output("next", {1, 2});
  m.output("y", {1, 3});
  auto net = load(m, "carry.onnx");
  CHECK_THROWS_WITH(net.carry(1, 0), Catch::Contains("'y' [1, 3]") && Catch::Contains("'state' [1, 2]"));
  net.carry(0, 0);
  CHECK_THROWS_WITH(net.carry(0, 0), Catch::Contains("carried already"));
  set(net, 0, {1, 2});
  net.run();
  CHECK(get(net, 0) == Floats{-1, -2});
  CHECK(Floats(net.input(0).begin(), net.input(0).end()) == Floats{-1, -2});
  net.run();
  CHECK(get(net, 0) == Floats{1, 2});
}

TEST_CASE("run performs no heap allocation") {
  // Every kind of operator record at once, with products of more than one row.
  const int hidden = 8;
  OnnxModelBuilder m(13);
  m.input("obs", {2, 6});
  m.input("h_in", {1, 2, hidden});
  m.input("c_in", {1, 2, hidden});
  m.initializer("W1", {16, 6}, values(96, 1));
  m.initializer("b1", {16}, values(16, 2));
  m.initializer("M", {16, 4}, values(64, 3));
  m.initializer("lo", {}, Floats{-0.5F});
  m.initializer("hi", {}, Floats{0.5F});
  m.initializer("starts", {1}, ints({-1}));
  m.initializer("ends", {1}, ints({k_int_min}));
  m.initializer("axes", {1}, ints({1}));
  m.initializer("steps", {1}, ints({-2}));
  m.initializer("R", {1, 4 * hidden, hidden}, values(static_cast<std::size_t>(4 * hidden * hidden), 5));
  m.initializer("B", {1, 8 * hidden}, values(static_cast<std::size_t>(8 * hidden), 6));
  m.initializer("zero", {1}, ints({0}));
  m.node("Gemm", {"obs", "W1", "b1"}, {"h1"}).attr("transB", std::int64_t{1});
  m.node("Elu", {"h1"}, {"e1"});
  m.node("MatMul", {"e1", "M"}, {"h2"});
  m.node("Tanh", {"h2"}, {"t2"});
  m.node("Mul", {"t2", "lo"}, {"m2"});
  m.node("Clip", {"m2", "lo", "hi"}, {"c2"});
  m.node("Slice", {"obs", "starts", "ends", "axes", "steps"}, {"s"});
  m.node("Concat", {"c2", "s", "obs"}, {"features"}).attr("axis", std::int64_t{1});  // [2, 13]
  m.node("Sigmoid", {"features"}, {"g"});
  m.node("Unsqueeze", {"g", "zero"}, {"x"});
  m.initializer("Wx", {1, 4 * hidden, 13}, values(static_cast<std::size_t>(4 * hidden * 13), 7));
  m.node("LSTM", {"x", "Wx", "R", "B", "", "h_in", "c_in"}, {"y", "h_out", "c_out"}).attr("hidden_size", std::int64_t{hidden});
  m.output("y", {1, 1, 2, hidden});
  m.output("h_out", {1, 2, hidden});
  m.output("c_out", {1, 2, hidden});
  // Both GRU variants on the same features, batch 2 (the row-by-row path of linear_before_reset 0).
  m.initializer("Wg", {1, 3 * hidden, 13}, values(static_cast<std::size_t>(3 * hidden * 13), 10));
  m.initializer("Rg", {1, 3 * hidden, hidden}, values(static_cast<std::size_t>(3 * hidden * hidden), 11));
  m.initializer("Bg", {1, 6 * hidden}, values(static_cast<std::size_t>(6 * hidden), 12));
  m.node("GRU", {"x", "Wg", "Rg", "Bg", "", "h_in"}, {"gy0", "gh0"}).attr("hidden_size", std::int64_t{hidden});
  m.node("GRU", {"x", "Wg", "Rg", "", "", "h_in"}, {"", "gh1"})
      .attr("hidden_size", std::int64_t{hidden})
      .attr("linear_before_reset", std::int64_t{1});
  m.output("gy0", {1, 1, 2, hidden});
  m.output("gh0", {1, 2, hidden});
  m.output("gh1", {1, 2, hidden});
  m.initializer("G", {2, 3}, values(6, 8));
  m.node("Gemm", {"c2", "G"}, {"g2"}).attr("transA", std::int64_t{1});  // a strided left operand
  m.output("g2", {4, 3});
  auto net = load(m);
  net.carry(1, 1);
  net.carry(2, 2);
  set(net, 0, values(12, 9));
  net.run();
  std::uint64_t allocations = 0;
  {
    praxis::test::AllocationScope scope;
    for (int i = 0; i < 1000; ++i) net.run();
    allocations = scope.allocations();
  }
  CHECK(allocations == 0);
  for (const float v : net.output(1)) CHECK(std::isfinite(v));
  for (const float v : net.output(net.output_index("gh1"))) CHECK(std::isfinite(v));
}

}  // namespace network_test
