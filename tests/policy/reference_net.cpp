#include "reference_net.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>

#include <onnx/onnx_pb.h>

namespace praxis_reference {

namespace {

std::int64_t count(const std::vector<std::int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

template <class T>
std::vector<double> raw_values(const std::string& raw) {
  std::vector<double> out(raw.size() / sizeof(T));
  for (std::size_t i = 0; i < out.size(); ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
  return out;
}

RefTensor tensor_of(const onnx::TensorProto& t, const std::string& where) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL) throw ReferenceNetError(where + ": external data is not read");
  RefTensor out;
  out.shape.assign(t.dims().begin(), t.dims().end());
  const bool raw = t.has_raw_data();
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      out.data = raw ? raw_values<float>(t.raw_data()) : std::vector<double>(t.float_data().begin(), t.float_data().end());
      break;
    case onnx::TensorProto::DOUBLE:
      out.data = raw ? raw_values<double>(t.raw_data()) : std::vector<double>(t.double_data().begin(), t.double_data().end());
      break;
    case onnx::TensorProto::INT64:
      out.data = raw ? raw_values<std::int64_t>(t.raw_data())
                     : std::vector<double>(t.int64_data().begin(), t.int64_data().end());
      break;
    case onnx::TensorProto::INT32:
      out.data = raw ? raw_values<std::int32_t>(t.raw_data())
                     : std::vector<double>(t.int32_data().begin(), t.int32_data().end());
      break;
    default:
      throw ReferenceNetError(where + ": tensor '" + t.name() + "' has data type " + std::to_string(t.data_type()) +
                              " (float, double, int32 or int64 expected)");
  }
  if (static_cast<std::int64_t>(out.data.size()) != count(out.shape)) {
    throw ReferenceNetError(where + ": tensor '" + t.name() + "' holds " + std::to_string(out.data.size()) +
                            " values for its shape");
  }
  return out;
}

// numpy broadcasting of a binary operator.
RefTensor broadcast(const RefTensor& a, const RefTensor& b, const std::function<double(double, double)>& f) {
  const std::size_t rank = std::max(a.shape.size(), b.shape.size());
  std::vector<std::int64_t> sa(rank, 1), sb(rank, 1), so(rank, 1);
  std::copy(a.shape.begin(), a.shape.end(), sa.begin() + static_cast<std::ptrdiff_t>(rank - a.shape.size()));
  std::copy(b.shape.begin(), b.shape.end(), sb.begin() + static_cast<std::ptrdiff_t>(rank - b.shape.size()));
  for (std::size_t d = 0; d < rank; ++d) {
    if (sa[d] != sb[d] && sa[d] != 1 && sb[d] != 1) throw ReferenceNetError("shapes do not broadcast");
    so[d] = std::max(sa[d], sb[d]);
  }
  // Strides, 0 along a broadcast dimension.
  std::vector<std::int64_t> ta(rank, 0), tb(rank, 0);
  std::int64_t ka = 1, kb = 1;
  for (std::size_t d = rank; d-- > 0;) {
    ta[d] = sa[d] == 1 ? 0 : ka;
    tb[d] = sb[d] == 1 ? 0 : kb;
    ka *= sa[d];
    kb *= sb[d];
  }
  RefTensor out{so, std::vector<double>(static_cast<std::size_t>(count(so)))};
  std::vector<std::int64_t> index(rank, 0);
  for (std::size_t k = 0; k < out.data.size(); ++k) {
    std::int64_t ia = 0, ib = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      ia += index[d] * ta[d];
      ib += index[d] * tb[d];
    }
    out.data[k] = f(a.data[static_cast<std::size_t>(ia)], b.data[static_cast<std::size_t>(ib)]);
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < so[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

std::vector<std::int64_t> int_list(const RefTensor& t) {
  std::vector<std::int64_t> v;
  for (const double x : t.data) v.push_back(static_cast<std::int64_t>(x));
  return v;
}

const std::set<std::string> k_supported{"Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Relu", "Elu", "Tanh", "Sigmoid",
                                        "Identity", "Squeeze", "Unsqueeze", "Reshape", "Flatten", "Constant", "LSTM"};

}  // namespace

ReferenceNet ReferenceNet::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ReferenceNetError(file.string() + ": cannot open");
  onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) throw ReferenceNetError(file.string() + ": not an ONNX model");
  ReferenceNet net;
  net.file_ = file;
  const auto& g = model.graph();
  for (const auto& t : g.initializer()) net.constants_[t.name()] = tensor_of(t, file.string());
  for (const auto& v : g.input()) {
    if (net.constants_.count(v.name()) != 0) continue;
    std::vector<std::int64_t> shape;
    for (const auto& d : v.type().tensor_type().shape().dim()) shape.push_back(d.has_dim_value() ? d.dim_value() : 1);
    net.inputs_[v.name()] = shape;
  }
  for (const auto& v : g.output()) net.outputs_.push_back(v.name());
  for (const auto& n : g.node()) {
    const std::string where = file.string() + ": node '" + n.name() + "' (" + n.op_type() + ")";
    if (k_supported.count(n.op_type()) == 0 || !n.domain().empty()) {
      throw ReferenceNetError(where + ": not an operator the reference evaluates");
    }
    Node node{n.op_type(), n.name(), {n.input().begin(), n.input().end()}, {n.output().begin(), n.output().end()}, {}, {}, {}};
    for (const auto& a : n.attribute()) {
      switch (a.type()) {
        case onnx::AttributeProto::FLOAT: node.f[a.name()] = a.f(); break;
        case onnx::AttributeProto::INT: node.f[a.name()] = static_cast<double>(a.i()); break;
        case onnx::AttributeProto::INTS: node.ints[a.name()].assign(a.ints().begin(), a.ints().end()); break;
        case onnx::AttributeProto::STRING: node.strings[a.name()] = a.s(); break;
        case onnx::AttributeProto::TENSOR:
          if (node.op == "Constant" && a.name() == "value") {
            net.constants_[node.outputs.at(0)] = tensor_of(a.t(), where);
            break;
          }
          [[fallthrough]];
        default: throw ReferenceNetError(where + ": attribute '" + a.name() + "' is not one the reference reads");
      }
    }
    if (node.op == "Constant") {
      if (net.constants_.count(node.outputs.at(0)) == 0) throw ReferenceNetError(where + ": only a tensor 'value'");
      continue;
    }
    if (node.op == "LSTM") {
      const auto dir = node.strings.find("direction");
      if (dir != node.strings.end() && dir->second != "forward") throw ReferenceNetError(where + ": only forward");
      if (node.inputs.size() > 7 && !node.inputs[7].empty()) throw ReferenceNetError(where + ": no peepholes");
      if (node.inputs.size() > 4 && !node.inputs[4].empty()) throw ReferenceNetError(where + ": no sequence_lens");
      for (const char* a : {"clip", "layout", "input_forget"}) {
        if (node.f.count(a) != 0 && node.f.at(a) != 0.0) throw ReferenceNetError(where + ": attribute " + a);
      }
      if (node.f.count("hidden_size") == 0) throw ReferenceNetError(where + ": no hidden_size");
    }
    net.nodes_.push_back(std::move(node));
  }
  return net;
}

std::map<std::string, RefTensor> ReferenceNet::run(const std::map<std::string, std::vector<double>>& feeds) const {
  std::map<std::string, RefTensor> v = constants_;
  for (const auto& [name, shape] : inputs_) {
    const auto it = feeds.find(name);
    if (it == feeds.end()) throw ReferenceNetError(file_.string() + ": no value fed for input '" + name + "'");
    if (static_cast<std::int64_t>(it->second.size()) != count(shape)) {
      throw ReferenceNetError(file_.string() + ": input '" + name + "' takes " + std::to_string(count(shape)) +
                              " values, fed " + std::to_string(it->second.size()));
    }
    v[name] = RefTensor{shape, it->second};
  }
  for (const auto& n : nodes_) {
    const std::string where = file_.string() + ": node '" + n.name + "' (" + n.op + ")";
    const auto in = [&](std::size_t i) -> const RefTensor& {
      if (i >= n.inputs.size() || n.inputs[i].empty()) throw ReferenceNetError(where + ": input " + std::to_string(i) + " missing");
      const auto it = v.find(n.inputs[i]);
      if (it == v.end()) throw ReferenceNetError(where + ": '" + n.inputs[i] + "' is not computed before it");
      return it->second;
    };
    const auto has = [&](std::size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); };
    const auto attr = [&](const char* name, double fallback) {
      const auto it = n.f.find(name);
      return it == n.f.end() ? fallback : it->second;
    };
    const auto unary = [&](const std::function<double(double)>& f) {
      RefTensor out = in(0);
      for (auto& x : out.data) x = f(x);
      v[n.outputs[0]] = std::move(out);
    };
    if (n.op == "Gemm") {
      const RefTensor& a = in(0);
      const RefTensor& b = in(1);
      if (a.shape.size() != 2 || b.shape.size() != 2) throw ReferenceNetError(where + ": 2-D inputs expected");
      const bool ta = attr("transA", 0) != 0.0, tb = attr("transB", 0) != 0.0;
      const std::int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
      const std::int64_t nn = tb ? b.shape[0] : b.shape[1];
      if ((tb ? b.shape[1] : b.shape[0]) != k) throw ReferenceNetError(where + ": inner sizes differ");
      const double alpha = attr("alpha", 1.0), beta = attr("beta", 1.0);
      RefTensor y{{m, nn}, std::vector<double>(static_cast<std::size_t>(m * nn), 0.0)};
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < nn; ++j) {
          double s = 0.0;
          for (std::int64_t p = 0; p < k; ++p) {
            const double x = a.data[static_cast<std::size_t>(ta ? p * m + i : i * k + p)];
            const double w = b.data[static_cast<std::size_t>(tb ? j * k + p : p * nn + j)];
            s += x * w;
          }
          y.data[static_cast<std::size_t>(i * nn + j)] = alpha * s;
        }
      }
      if (has(2)) {
        RefTensor c = in(2);
        for (auto& x : c.data) x *= beta;
        y = broadcast(y, c, std::plus<>());
        y.shape = {m, nn};
      }
      v[n.outputs[0]] = std::move(y);
    } else if (n.op == "MatMul") {
      const RefTensor& a = in(0);
      const RefTensor& b = in(1);
      if (b.shape.size() != 2 || a.shape.empty()) throw ReferenceNetError(where + ": [..., K] x [K, N] expected");
      const std::int64_t k = b.shape[0], nn = b.shape[1];
      if (a.shape.back() != k) throw ReferenceNetError(where + ": inner sizes differ");
      const std::int64_t rows = count(a.shape) / k;
      RefTensor y{a.shape, std::vector<double>(static_cast<std::size_t>(rows * nn), 0.0)};
      y.shape.back() = nn;
      for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < nn; ++j) {
          double s = 0.0;
          for (std::int64_t p = 0; p < k; ++p) {
            s += a.data[static_cast<std::size_t>(i * k + p)] * b.data[static_cast<std::size_t>(p * nn + j)];
          }
          y.data[static_cast<std::size_t>(i * nn + j)] = s;
        }
      }
      v[n.outputs[0]] = std::move(y);
    } else if (n.op == "Add") {
      v[n.outputs[0]] = broadcast(in(0), in(1), std::plus<>());
    } else if (n.op == "Sub") {
      v[n.outputs[0]] = broadcast(in(0), in(1), std::minus<>());
    } else if (n.op == "Mul") {
      v[n.outputs[0]] = broadcast(in(0), in(1), std::multiplies<>());
    } else if (n.op == "Div") {
      v[n.outputs[0]] = broadcast(in(0), in(1), std::divides<>());
    } else if (n.op == "Relu") {
      unary([](double x) { return x > 0.0 ? x : 0.0; });
    } else if (n.op == "Elu") {
      const double alpha = attr("alpha", 1.0);
      unary([alpha](double x) { return x > 0.0 ? x : alpha * (std::exp(x) - 1.0); });
    } else if (n.op == "Tanh") {
      unary([](double x) { return std::tanh(x); });
    } else if (n.op == "Sigmoid") {
      unary(sigmoid);
    } else if (n.op == "Identity") {
      v[n.outputs[0]] = in(0);
    } else if (n.op == "Squeeze" || n.op == "Unsqueeze") {
      RefTensor out = in(0);
      std::vector<std::int64_t> axes = has(1) ? int_list(in(1)) : std::vector<std::int64_t>{};
      if (const auto it = n.ints.find("axes"); it != n.ints.end()) axes = it->second;
      if (n.op == "Squeeze") {
        const auto rank = static_cast<std::int64_t>(out.shape.size());
        std::vector<std::int64_t> shape;
        for (std::int64_t d = 0; d < rank; ++d) {
          const bool listed = std::any_of(axes.begin(), axes.end(), [&](std::int64_t a) { return (a < 0 ? a + rank : a) == d; });
          const bool drop = axes.empty() ? out.shape[static_cast<std::size_t>(d)] == 1 : listed;
          if (drop && out.shape[static_cast<std::size_t>(d)] != 1) throw ReferenceNetError(where + ": squeezes a dimension > 1");
          if (!drop) shape.push_back(out.shape[static_cast<std::size_t>(d)]);
        }
        out.shape = shape;
      } else {
        if (axes.empty()) throw ReferenceNetError(where + ": no axes");
        const auto rank = static_cast<std::int64_t>(out.shape.size() + axes.size());
        for (auto& a : axes) a = a < 0 ? a + rank : a;
        std::sort(axes.begin(), axes.end());
        for (const auto a : axes) out.shape.insert(out.shape.begin() + a, 1);
      }
      v[n.outputs[0]] = std::move(out);
    } else if (n.op == "Reshape") {
      RefTensor out = in(0);
      std::vector<std::int64_t> shape = int_list(in(1));
      std::int64_t known = 1;
      std::size_t infer = shape.size();
      for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 0) shape[d] = out.shape.at(d);
        if (shape[d] == -1) {
          infer = d;
        } else {
          known *= shape[d];
        }
      }
      if (infer < shape.size()) shape[infer] = count(out.shape) / known;
      if (count(shape) != count(out.shape)) throw ReferenceNetError(where + ": sizes differ");
      out.shape = shape;
      v[n.outputs[0]] = std::move(out);
    } else if (n.op == "Flatten") {
      RefTensor out = in(0);
      auto axis = static_cast<std::int64_t>(attr("axis", 1));
      if (axis < 0) axis += static_cast<std::int64_t>(out.shape.size());
      std::int64_t outer = 1;
      for (std::int64_t d = 0; d < axis; ++d) outer *= out.shape[static_cast<std::size_t>(d)];
      out.shape = {outer, count(out.shape) / outer};
      v[n.outputs[0]] = std::move(out);
    } else if (n.op == "LSTM") {
      // ONNX's gate order in W, R and B: input, output, forget, cell.
      const RefTensor& x = in(0);
      const RefTensor& w = in(1);
      const RefTensor& r = in(2);
      const auto h = static_cast<std::int64_t>(attr("hidden_size", 0));
      if (x.shape.size() != 3) throw ReferenceNetError(where + ": X [seq, batch, input] expected");
      const std::int64_t seq = x.shape[0], batch = x.shape[1], isz = x.shape[2];
      if (count(w.shape) != 4 * h * isz || count(r.shape) != 4 * h * h) throw ReferenceNetError(where + ": W or R size");
      std::vector<double> bias(static_cast<std::size_t>(8 * h), 0.0);
      if (has(3)) bias = in(3).data;
      std::vector<double> hs(static_cast<std::size_t>(batch * h), 0.0), cs = hs;
      if (has(5)) hs = in(5).data;
      if (has(6)) cs = in(6).data;
      RefTensor y{{seq, 1, batch, h}, std::vector<double>(static_cast<std::size_t>(seq * batch * h))};
      std::vector<double> gates(static_cast<std::size_t>(4 * h));
      for (std::int64_t t = 0; t < seq; ++t) {
        for (std::int64_t bi = 0; bi < batch; ++bi) {
          const double* xt = x.data.data() + (t * batch + bi) * isz;
          double* hb = hs.data() + bi * h;
          double* cb = cs.data() + bi * h;
          for (std::int64_t gi = 0; gi < 4 * h; ++gi) {
            double s = bias[static_cast<std::size_t>(gi)] + bias[static_cast<std::size_t>(4 * h + gi)];
            for (std::int64_t p = 0; p < isz; ++p) s += w.data[static_cast<std::size_t>(gi * isz + p)] * xt[p];
            for (std::int64_t p = 0; p < h; ++p) s += r.data[static_cast<std::size_t>(gi * h + p)] * hb[p];
            gates[static_cast<std::size_t>(gi)] = s;
          }
          for (std::int64_t j = 0; j < h; ++j) {
            const double ig = sigmoid(gates[static_cast<std::size_t>(j)]);
            const double og = sigmoid(gates[static_cast<std::size_t>(h + j)]);
            const double fg = sigmoid(gates[static_cast<std::size_t>(2 * h + j)]);
            const double cg = std::tanh(gates[static_cast<std::size_t>(3 * h + j)]);
            cb[j] = fg * cb[j] + ig * cg;
            hb[j] = og * std::tanh(cb[j]);
            y.data[static_cast<std::size_t>((t * batch + bi) * h + j)] = hb[j];
          }
        }
      }
      if (!n.outputs.empty() && !n.outputs[0].empty()) v[n.outputs[0]] = std::move(y);
      if (n.outputs.size() > 1 && !n.outputs[1].empty()) v[n.outputs[1]] = RefTensor{{1, batch, h}, hs};
      if (n.outputs.size() > 2 && !n.outputs[2].empty()) v[n.outputs[2]] = RefTensor{{1, batch, h}, cs};
    }
  }
  std::map<std::string, RefTensor> out;
  for (const auto& name : outputs_) {
    const auto it = v.find(name);
    if (it == v.end()) throw ReferenceNetError(file_.string() + ": output '" + name + "' is never computed");
    out[name] = it->second;
  }
  return out;
}

}  // namespace praxis_reference
