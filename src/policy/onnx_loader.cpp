// The loader: an ONNX model in, a checked plan out (src/policy/plan.hpp).
//
// Debian's libonnx parses the protobuf and runs the ONNX checker (structure, operator schemas,
// attribute types). Then the graph is planned node by node, in the order ONNX guarantees is
// topological: every tensor gets its shape and its slice of the arena, every operator a record.
// Reshape, Flatten, Squeeze, Unsqueeze and Identity only rename a buffer, so they cost nothing at
// run time. An operator whose inputs are all constant runs once here and its outputs become
// constants. int64 tensors (shapes, axes, slice bounds) exist only as constants, read at load.

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>

#include "plan.hpp"
#include "praxis/policy/network.hpp"

namespace praxis::policy {
namespace {

// raw_data is little-endian by the ONNX spec; it is copied as is.
static_assert(std::endian::native == std::endian::little, "the ONNX loader assumes a little-endian host");

using detail::k_none;
using Shape = std::vector<std::int64_t>;

constexpr std::int64_t k_oldest_opset = 6;
constexpr std::size_t k_arena_alignment = 16;  // floats: 64 bytes, a cache line
constexpr const char* k_supported =
    "Gemm, MatMul, Add, Sub, Mul, Div, Neg, Relu, Elu, LeakyRelu, Selu, Tanh, Sigmoid, Softsign, Clip, "
    "Concat, Slice, Reshape, Flatten, Squeeze, Unsqueeze, Identity, Constant, LSTM, GRU";

std::string shape_text(const Shape& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  return s + "]";
}

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

std::string type_name(std::int32_t elem_type) {
  const auto name = onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(elem_type));
  return name.empty() ? "type " + std::to_string(elem_type) : name;
}

std::string float_text(float v) {
  if (std::isnan(v)) return "nan";
  return v > 0 ? "inf" : "-inf";
}

// numpy's multidirectional broadcast; nullopt when the shapes do not broadcast.
std::optional<Shape> broadcast(const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = std::max(da, db);
  }
  return out;
}

// An operand's element strides over `out`'s dims (right-aligned, 0 where it broadcasts).
std::vector<std::ptrdiff_t> broadcast_strides(const Shape& operand, const Shape& out) {
  std::vector<std::ptrdiff_t> strides(out.size(), 0);
  std::ptrdiff_t stride = 1;
  for (std::size_t j = operand.size(); j-- > 0;) {
    const std::size_t i = j + (out.size() - operand.size());
    strides[i] = operand[j] == 1 ? 0 : stride;
    stride *= operand[j];
  }
  return strides;
}

// Drops dims of extent 1 and merges each dim into its outer neighbour wherever every operand's
// strides are contiguous across the two.
detail::LoopNest make_nest(const Shape& out, const std::vector<std::ptrdiff_t>& sa,
                           const std::vector<std::ptrdiff_t>& sb) {
  struct Dim {
    std::ptrdiff_t extent;
    std::ptrdiff_t sa;
    std::ptrdiff_t sb;
  };
  std::vector<Dim> dims;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 1) continue;
    const Dim d{out[i], sa[i], sb[i]};
    if (!dims.empty() && dims.back().sa == d.sa * d.extent && dims.back().sb == d.sb * d.extent) {
      dims.back() = {dims.back().extent * d.extent, d.sa, d.sb};
    } else {
      dims.push_back(d);
    }
  }
  if (dims.empty()) dims.push_back({1, 0, 0});
  detail::LoopNest nest;
  nest.rank = static_cast<int>(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    nest.dims[i] = dims[i].extent;
    nest.sa[i] = dims[i].sa;
    nest.sb[i] = dims[i].sb;
    if (i + 1 < dims.size()) nest.runs *= dims[i].extent;
  }
  return nest;
}

// A tensor while planning. Floats live in the arena, except constants not read by any operator
// yet; int64 tensors are constants held here.
struct Value {
  enum class Kind { float32, int64, int32, other };
  Kind kind = Kind::float32;
  std::string type;  // element type, for messages
  Shape shape;
  bool constant = false;
  bool graph_input = false;      // its buffer is a graph input's (an input under another name)
  std::size_t offset = k_none;   // float32: its arena slice (k_none: a constant not placed yet)
  std::vector<float> floats;     // float32 constant not placed yet
  std::vector<std::int64_t> ints;  // int64 or int32 constant
};

class Planner {
 public:
  Planner(const onnx::ModelProto& model, std::string file) : model_(model), plan_(std::make_unique<detail::Plan>()) {
    plan_->file = std::move(file);
  }

  std::unique_ptr<detail::Plan> build() {
    read_opset();
    read_initializers();
    read_inputs();
    const auto& graph = model_.graph();
    for (int i = 0; i < graph.node_size(); ++i) {
      node_ = &graph.node(i);
      node_index_ = i;
      plan_node();
    }
    node_ = nullptr;
    read_outputs();
    count_ops();
    return std::move(plan_);
  }

 private:
  // ---- messages ----
  [[noreturn]] void fail(const std::string& what) const { throw PolicyError(plan_->file + ": " + what); }
  [[noreturn]] void fail_node(const std::string& what) const {
    const std::string name = node_->name().empty() ? "#" + std::to_string(node_index_) : "'" + node_->name() + "'";
    fail("node " + name + " (" + node_->op_type() + "): " + what);
  }

  // ---- model level ----
  void read_opset() {
    bool found = false;
    for (const auto& o : model_.opset_import()) {
      if (o.domain().empty() || o.domain() == "ai.onnx") {
        opset_ = o.version();
        found = true;
      }
    }
    if (!found) fail("the model imports no opset of the default domain (ai.onnx)");
    if (opset_ < k_oldest_opset) {
      fail("opset " + std::to_string(opset_) + " is older than the oldest supported, " +
           std::to_string(k_oldest_opset) + "; export the model again with a newer opset");
    }
  }

  Value tensor_value(const onnx::TensorProto& t, const std::string& what) const {
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
      fail(what + " keeps its data in an external file, which is not supported; save the model with its data inside");
    }
    Value v;
    v.constant = true;
    for (const auto d : t.dims()) {
      if (d < 0) fail(what + " has a negative dimension in " + shape_text({t.dims().begin(), t.dims().end()}));
      v.shape.push_back(d);
    }
    const auto n = static_cast<std::size_t>(element_count(v.shape));
    v.type = type_name(t.data_type());
    if (t.data_type() == onnx::TensorProto::FLOAT) {
      v.kind = Value::Kind::float32;
      if (t.has_raw_data()) {
        if (t.raw_data().size() != n * sizeof(float)) {
          fail(what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data; its shape " +
               shape_text(v.shape) + " needs " + std::to_string(n * sizeof(float)));
        }
        v.floats.resize(n);
        std::memcpy(v.floats.data(), t.raw_data().data(), n * sizeof(float));
      } else {
        if (static_cast<std::size_t>(t.float_data_size()) != n) {
          fail(what + " holds " + std::to_string(t.float_data_size()) + " floats; its shape " + shape_text(v.shape) +
               " needs " + std::to_string(n));
        }
        v.floats.assign(t.float_data().begin(), t.float_data().end());
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(v.floats[i])) {
          fail(what + " is not finite at index " + std::to_string(i) + " (" + float_text(v.floats[i]) +
               "); every weight must be finite");
        }
      }
    } else if (t.data_type() == onnx::TensorProto::INT64) {
      v.kind = Value::Kind::int64;
      v.ints = integers<std::int64_t>(t, t.int64_data(), n, what);
    } else if (t.data_type() == onnx::TensorProto::INT32) {  // sequence_lens
      v.kind = Value::Kind::int32;
      v.ints = integers<std::int32_t>(t, t.int32_data(), n, what);
    } else {
      v.kind = Value::Kind::other;  // refused where an operator reads it
    }
    return v;
  }

  // An integer tensor's n values, from raw_data or from its typed field.
  template <class T, class Field>
  std::vector<std::int64_t> integers(const onnx::TensorProto& t, const Field& field, std::size_t n,
                                     const std::string& what) const {
    if (t.has_raw_data()) {
      if (t.raw_data().size() != n * sizeof(T)) {
        fail(what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data; its shape " +
             shape_text({t.dims().begin(), t.dims().end()}) + " needs " + std::to_string(n * sizeof(T)));
      }
      std::vector<T> raw(n);
      std::memcpy(raw.data(), t.raw_data().data(), n * sizeof(T));
      return {raw.begin(), raw.end()};
    }
    if (static_cast<std::size_t>(field.size()) != n) {
      fail(what + " holds " + std::to_string(field.size()) + " integers; its shape " +
           shape_text({t.dims().begin(), t.dims().end()}) + " needs " + std::to_string(n));
    }
    return {field.begin(), field.end()};
  }

  void read_initializers() {
    for (const auto& t : model_.graph().initializer()) {
      values_[t.name()] = tensor_value(t, "initializer '" + t.name() + "'");
    }
  }

  void read_inputs() {
    for (const auto& in : model_.graph().input()) {
      if (values_.contains(in.name())) continue;  // older exporters list initializers as inputs too
      const std::string what = "input '" + in.name() + "'";
      if (!in.type().has_tensor_type()) fail(what + " is not a tensor; expected a float32 tensor");
      const auto& tensor = in.type().tensor_type();
      if (tensor.elem_type() != onnx::TensorProto::FLOAT) {
        fail(what + " has element type " + type_name(tensor.elem_type()) + "; expected float32 (FLOAT)");
      }
      if (!tensor.has_shape()) fail(what + " has no shape; a fixed shape is required");
      Shape shape;
      for (int d = 0; d < tensor.shape().dim_size(); ++d) {
        const auto& dim = tensor.shape().dim(d);
        if (dim.has_dim_value()) {
          if (dim.dim_value() <= 0) {
            fail(what + " has dimension " + std::to_string(d) + " = " + std::to_string(dim.dim_value()) +
                 "; expected a positive size");
          }
          shape.push_back(dim.dim_value());
        } else if (d == 0) {
          shape.push_back(1);  // a dynamic batch: a policy runs one observation at a time
        } else {
          const std::string symbol = dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : "";
          fail(what + " has a symbolic dimension " + std::to_string(d) + symbol +
               "; only the first (batch) dimension may be symbolic (it runs as 1), the others must be fixed");
        }
      }
      Value v;
      v.type = "FLOAT";
      v.shape = shape;
      v.graph_input = true;
      v.offset = allocate(static_cast<std::size_t>(element_count(shape)));
      plan_->inputs.push_back({in.name(), shape});
      plan_->input_offsets.push_back(v.offset);
      values_[in.name()] = std::move(v);
    }
  }

  void read_outputs() {
    if (model_.graph().output_size() == 0) fail("the graph has no outputs");
    for (const auto& out : model_.graph().output()) {
      const std::string what = "output '" + out.name() + "'";
      const auto it = values_.find(out.name());
      if (it == values_.end()) fail(what + " is not produced by any node");
      Value& v = it->second;
      if (v.kind != Value::Kind::float32) fail(what + " has element type " + v.type + "; expected float32 (FLOAT)");
      if (out.type().has_tensor_type()) {
        const auto& tensor = out.type().tensor_type();
        if (tensor.elem_type() != onnx::TensorProto::FLOAT) {
          fail(what + " is declared with element type " + type_name(tensor.elem_type()) +
               "; expected float32 (FLOAT)");
        }
        if (tensor.has_shape()) {
          const auto& declared = tensor.shape();
          bool same = declared.dim_size() == static_cast<int>(v.shape.size());
          for (int d = 0; same && d < declared.dim_size(); ++d) {
            if (declared.dim(d).has_dim_value()) same = declared.dim(d).dim_value() == v.shape[static_cast<std::size_t>(d)];
          }
          if (!same) {
            Shape s;
            for (const auto& dim : declared.dim()) s.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
            fail(what + " is declared with shape " + shape_text(s) + " (-1: symbolic) but computes to " +
                 shape_text(v.shape));
          }
        }
      }
      std::size_t offset = place(v);
      if (v.graph_input) {  // its own buffer, so that carrying outputs into inputs never reads a changed input
        const std::size_t n = static_cast<std::size_t>(element_count(v.shape));
        detail::Op op;
        op.code = detail::OpCode::copy;
        op.a = offset;
        op.y = allocate(n);
        op.n = n;
        plan_->ops.push_back(op);
        offset = op.y;
      }
      plan_->outputs.push_back({out.name(), v.shape});
      plan_->output_offsets.push_back(offset);
    }
  }

  void count_ops() {
    for (const auto& node : model_.graph().node()) {
      auto& counts = plan_->op_counts;
      const auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == node.op_type(); });
      if (it == counts.end()) {
        counts.emplace_back(node.op_type(), 1);
      } else {
        ++it->second;
      }
    }
  }

  // ---- arena ----
  std::size_t allocate(std::size_t n) {
    auto& arena = plan_->arena;
    const std::size_t offset = (arena.size() + k_arena_alignment - 1) / k_arena_alignment * k_arena_alignment;
    arena.resize(offset + n, 0.0F);
    return offset;
  }

  std::size_t place(Value& v) {
    if (v.offset == k_none) {
      v.offset = allocate(v.floats.size());
      std::copy(v.floats.begin(), v.floats.end(), plan_->arena.begin() + static_cast<std::ptrdiff_t>(v.offset));
      v.floats = {};
    }
    return v.offset;
  }

  // ---- a node's inputs, outputs and attributes ----
  [[nodiscard]] bool has_input(int i) const { return i < node_->input_size() && !node_->input(i).empty(); }

  Value& value(int i) {
    const auto& name = node_->input(i);
    const auto it = values_.find(name);
    if (it == values_.end()) fail_node("input '" + name + "' is not produced by any earlier node, initializer or input");
    return it->second;
  }

  struct Operand {
    std::size_t offset;
    Shape shape;
  };

  Operand float_input(int i) {
    Value& v = value(i);
    const auto& name = node_->input(i);
    if (v.kind != Value::Kind::float32) {
      fail_node("input '" + name + "' has element type " + v.type + "; expected float32 (FLOAT)");
    }
    if (element_count(v.shape) == 0) fail_node("input '" + name + "' is empty " + shape_text(v.shape));
    return {place(v), v.shape};
  }

  const std::vector<std::int64_t>& int_input(int i, const char* role) {
    Value& v = value(i);
    if (v.kind != Value::Kind::int64 || !v.constant) {
      fail_node(std::string("input '") + node_->input(i) + "' (" + role + ") must be an int64 constant (an initializer or a "
                "Constant node); it is " + (v.constant ? "a constant" : "computed") + " of element type " + v.type);
    }
    return v.ints;
  }

  [[nodiscard]] bool inputs_constant() const {
    for (const auto& name : node_->input()) {
      if (name.empty()) continue;
      const auto it = values_.find(name);
      if (it == values_.end() || !it->second.constant) return false;
    }
    return true;
  }

  // A fresh arena slice for output i (k_none when the node leaves it out).
  std::size_t new_output(int i, const Shape& shape) {
    if (i >= node_->output_size() || node_->output(i).empty()) return k_none;
    const std::int64_t n = element_count(shape);
    if (n == 0) fail_node("output '" + node_->output(i) + "' would be empty " + shape_text(shape) + ", which is not supported");
    Value v;
    v.type = "FLOAT";
    v.shape = shape;
    v.offset = allocate(static_cast<std::size_t>(n));
    values_[node_->output(i)] = std::move(v);
    return values_[node_->output(i)].offset;
  }

  // Output 0 is input 0 under another shape: the same buffer.
  void alias_output(const Shape& shape) {
    Value v = value(0);
    if (v.kind == Value::Kind::other) {
      fail_node("input '" + node_->input(0) + "' has element type " + v.type + "; expected float32 or int64");
    }
    v.shape = shape;
    values_[node_->output(0)] = std::move(v);
  }

  // Appends the op to the run list, or runs it now when its inputs are all constant.
  void emit(const detail::Op& op) {
    if (!inputs_constant()) {
      plan_->ops.push_back(op);
      return;
    }
    detail::execute(*plan_, op, plan_->arena.data());
    for (const auto& name : node_->output()) {
      if (!name.empty()) values_.at(name).constant = true;
    }
  }

  const onnx::AttributeProto* attr(const char* name) const {
    for (const auto& a : node_->attribute()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  void expect_type(const onnx::AttributeProto& a, onnx::AttributeProto::AttributeType type, const char* what) const {
    if (a.type() != type) fail_node("attribute '" + a.name() + "' must be " + what);
  }
  std::int64_t attr_int(const char* name, std::int64_t fallback) const {
    const auto* a = attr(name);
    if (a == nullptr) return fallback;
    expect_type(*a, onnx::AttributeProto::INT, "an int");
    return a->i();
  }
  float attr_float(const char* name, float fallback) const {
    const auto* a = attr(name);
    if (a == nullptr) return fallback;
    expect_type(*a, onnx::AttributeProto::FLOAT, "a float");
    return a->f();
  }
  std::string attr_string(const char* name, const std::string& fallback) const {
    const auto* a = attr(name);
    if (a == nullptr) return fallback;
    expect_type(*a, onnx::AttributeProto::STRING, "a string");
    return a->s();
  }
  std::optional<std::vector<std::int64_t>> attr_ints(const char* name) const {
    const auto* a = attr(name);
    if (a == nullptr) return std::nullopt;
    expect_type(*a, onnx::AttributeProto::INTS, "a list of ints");
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
  }

  // An axis in [-rank, rank), or [-rank, rank] where `inclusive`, to [0, rank].
  std::size_t axis(std::int64_t a, std::size_t rank, const char* what, bool inclusive = false) const {
    const auto r = static_cast<std::int64_t>(rank);
    if (a < -r || a > r || (a == r && !inclusive)) {
      fail_node(std::string(what) + " " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    }
    return static_cast<std::size_t>(a < 0 ? a + r : a);
  }

  // ---- operators ----
  void plan_node() {
    const auto& domain = node_->domain();
    if (!domain.empty() && domain != "ai.onnx") {
      fail_node("operator domain '" + domain + "' is not supported; only the default domain (ai.onnx) is, with " +
                k_supported);
    }
    const auto& op = node_->op_type();
    using detail::OpCode;
    if (op == "Gemm") return plan_gemm();
    if (op == "MatMul") return plan_matmul();
    if (op == "Add") return plan_binary(OpCode::add);
    if (op == "Sub") return plan_binary(OpCode::sub);
    if (op == "Mul") return plan_binary(OpCode::mul);
    if (op == "Div") return plan_binary(OpCode::div);
    if (op == "Neg") return plan_unary(OpCode::neg);
    if (op == "Relu") return plan_unary(OpCode::relu);
    if (op == "Elu") return plan_unary(OpCode::elu, attr_float("alpha", 1.0F));
    if (op == "LeakyRelu") return plan_unary(OpCode::leaky_relu, attr_float("alpha", 0.01F));
    if (op == "Selu") {
      return plan_unary(OpCode::selu, attr_float("alpha", 1.67326319217681884765625F),
                        attr_float("gamma", 1.05070102214813232421875F));
    }
    if (op == "Tanh") return plan_unary(OpCode::tanh);
    if (op == "Sigmoid") return plan_unary(OpCode::sigmoid);
    if (op == "Softsign") return plan_unary(OpCode::softsign);
    if (op == "Clip") return plan_clip();
    if (op == "Concat") return plan_concat();
    if (op == "Slice") return plan_slice();
    if (op == "Reshape") return plan_reshape();
    if (op == "Flatten") return plan_flatten();
    if (op == "Squeeze") return plan_squeeze();
    if (op == "Unsqueeze") return plan_unsqueeze();
    if (op == "Identity") return alias_output(value(0).shape);
    if (op == "Constant") return plan_constant();
    if (op == "LSTM") return plan_lstm();
    if (op == "GRU") return plan_gru();
    fail_node("operator '" + op + "' is not supported; supported operators: " + k_supported);
  }

  void plan_unary(detail::OpCode code, float alpha = 0.0F, float beta = 0.0F) {
    const auto x = float_input(0);
    detail::Op op;
    op.code = code;
    op.a = x.offset;
    op.n = static_cast<std::size_t>(element_count(x.shape));
    op.y = new_output(0, x.shape);
    op.alpha = alpha;
    op.beta = beta;
    emit(op);
  }

  void plan_binary(detail::OpCode code) {
    const auto a = float_input(0);
    auto b = float_input(1);
    if (opset_ < 7 && attr_int("broadcast", 0) != 0) {
      // Before opset 7, B's shape lies inside A's from `axis` (default: aligned to the end).
      const auto r = a.shape.size();
      const std::int64_t start = attr_int("axis", static_cast<std::int64_t>(r - std::min(r, b.shape.size())));
      if (start < 0 || static_cast<std::size_t>(start) + b.shape.size() > r) {
        fail_node("legacy broadcast of " + shape_text(b.shape) + " into " + shape_text(a.shape) + " at axis " +
                  std::to_string(start) + " does not fit");
      }
      Shape padded = b.shape;
      padded.resize(r - static_cast<std::size_t>(start), 1);
      b.shape = padded;
    }
    const auto out = broadcast(a.shape, b.shape);
    if (!out) fail_node("shapes " + shape_text(a.shape) + " and " + shape_text(b.shape) + " do not broadcast");
    if (out->size() > static_cast<std::size_t>(detail::k_max_rank)) {
      fail_node("rank " + std::to_string(out->size()) + " exceeds the supported " + std::to_string(detail::k_max_rank));
    }
    detail::Op op;
    op.code = code;
    op.a = a.offset;
    op.b = b.offset;
    op.n = static_cast<std::size_t>(element_count(*out));
    op.table = static_cast<std::uint32_t>(plan_->loops.size());
    plan_->loops.push_back(make_nest(*out, broadcast_strides(a.shape, *out), broadcast_strides(b.shape, *out)));
    op.y = new_output(0, *out);
    emit(op);
  }

  void plan_gemm() {
    const auto a = float_input(0);
    const auto b = float_input(1);
    if (a.shape.size() != 2 || b.shape.size() != 2) {
      fail_node("A " + shape_text(a.shape) + " and B " + shape_text(b.shape) + " must both be matrices");
    }
    detail::ProductPlan p;
    p.trans_a = attr_int("transA", 0) != 0;
    p.trans_b = attr_int("transB", 0) != 0;
    p.alpha = attr_float("alpha", 1.0F);
    p.beta = attr_float("beta", 1.0F);
    p.m = p.trans_a ? a.shape[1] : a.shape[0];
    p.k = p.trans_a ? a.shape[0] : a.shape[1];
    const std::int64_t kb = p.trans_b ? b.shape[1] : b.shape[0];
    p.n = p.trans_b ? b.shape[0] : b.shape[1];
    if (kb != p.k) {
      fail_node("A " + shape_text(a.shape) + (p.trans_a ? " (transposed)" : "") + " and B " + shape_text(b.shape) +
                (p.trans_b ? " (transposed)" : "") + " do not multiply: " + std::to_string(p.k) + " against " +
                std::to_string(kb));
    }
    if (has_input(2) && p.beta != 0.0F) {
      const auto c = float_input(2);
      const bool fits = c.shape.size() <= 2 && (c.shape.size() < 2 || c.shape[0] == 1 || c.shape[0] == p.m) &&
                        (c.shape.empty() || c.shape.back() == 1 || c.shape.back() == p.n);
      if (!fits) {
        fail_node("C " + shape_text(c.shape) + " does not broadcast to the product's " + shape_text({p.m, p.n}));
      }
      p.c = c.offset;
      p.c_rows = c.shape.size() == 2 ? c.shape[0] : 1;
      p.c_cols = c.shape.empty() ? 1 : c.shape.back();
    }
    p.batches.push_back({});
    const Shape out{p.m, p.n};
    emit_product(std::move(p), a.offset, b.offset, out);
  }

  void plan_matmul() {
    const auto a = float_input(0);
    const auto b = float_input(1);
    Shape sa = a.shape;
    Shape sb = b.shape;
    if (sa.empty() || sb.empty()) fail_node("MatMul needs operands of rank 1 or more");
    const bool a_vector = sa.size() == 1;
    const bool b_vector = sb.size() == 1;
    if (a_vector) sa.insert(sa.begin(), 1);
    if (b_vector) sb.push_back(1);
    detail::ProductPlan p;
    p.m = sa[sa.size() - 2];
    p.k = sa.back();
    p.n = sb.back();
    if (sb[sb.size() - 2] != p.k) {
      fail_node("A " + shape_text(a.shape) + " and B " + shape_text(b.shape) + " do not multiply: " +
                std::to_string(p.k) + " against " + std::to_string(sb[sb.size() - 2]));
    }
    const Shape batch_a(sa.begin(), sa.end() - 2);
    const Shape batch_b(sb.begin(), sb.end() - 2);
    const auto batch = broadcast(batch_a, batch_b);
    if (!batch) {
      fail_node("the batch dimensions of A " + shape_text(a.shape) + " and B " + shape_text(b.shape) + " do not broadcast");
    }
    Shape out = *batch;
    if (!a_vector) out.push_back(p.m);
    if (!b_vector) out.push_back(p.n);
    if (element_count(batch_b) == 1) {
      // One right operand: A's batch is just more rows.
      p.m *= element_count(batch_a);
      p.batches.push_back({});
    } else {
      const auto stride_a = broadcast_strides(batch_a, *batch);
      const auto stride_b = broadcast_strides(batch_b, *batch);
      const std::int64_t count = element_count(*batch);
      for (std::int64_t i = 0; i < count; ++i) {
        std::int64_t rest = i;
        std::ptrdiff_t ia = 0;
        std::ptrdiff_t ib = 0;
        for (std::size_t d = batch->size(); d-- > 0;) {
          const std::int64_t index = rest % (*batch)[d];
          rest /= (*batch)[d];
          ia += index * stride_a[d];
          ib += index * stride_b[d];
        }
        p.batches.push_back({static_cast<std::size_t>(ia * p.m * p.k), static_cast<std::size_t>(ib * p.k * p.n),
                             static_cast<std::size_t>(i * p.m * p.n)});
      }
    }
    emit_product(std::move(p), a.offset, b.offset, out);
  }

  void emit_product(detail::ProductPlan p, std::size_t a, std::size_t b, const Shape& out) {
    detail::Op op;
    op.code = detail::OpCode::product;
    op.a = a;
    op.b = b;
    op.n = static_cast<std::size_t>(element_count(out));
    op.table = static_cast<std::uint32_t>(plan_->products.size());
    plan_->products.push_back(std::move(p));
    op.y = new_output(0, out);
    emit(op);
  }

  float scalar_input(int i, const char* role, std::size_t& offset) {
    const auto v = float_input(i);
    if (element_count(v.shape) != 1) fail_node(std::string(role) + " must be a scalar; it is " + shape_text(v.shape));
    if (values_.at(node_->input(i)).constant) return plan_->arena[v.offset];
    offset = v.offset;  // computed: read at run time
    return 0.0F;
  }

  void plan_clip() {
    const auto x = float_input(0);
    detail::Op op;
    op.code = detail::OpCode::clip;
    op.a = x.offset;
    op.n = static_cast<std::size_t>(element_count(x.shape));
    // The spec's defaults, as ORT: an infinite input is clipped to the largest float.
    op.alpha = std::numeric_limits<float>::lowest();
    op.beta = std::numeric_limits<float>::max();
    if (opset_ < 11) {
      op.alpha = attr_float("min", op.alpha);
      op.beta = attr_float("max", op.beta);
    } else {
      if (has_input(1)) op.alpha = scalar_input(1, "min", op.b);
      if (has_input(2)) op.beta = scalar_input(2, "max", op.c);
    }
    op.y = new_output(0, x.shape);
    emit(op);
  }

  void plan_concat() {
    const auto* axis_attr = attr("axis");
    if (axis_attr == nullptr) fail_node("attribute 'axis' is required");
    const Shape first = value(0).shape;
    const std::size_t ax = axis(attr_int("axis", 0), first.size(), "axis");
    Shape out = first;
    out[ax] = 0;
    std::vector<Shape> shapes;
    bool ints = true;
    for (int i = 0; i < node_->input_size(); ++i) {
      const Value& v = value(i);
      ints = ints && v.kind == Value::Kind::int64;
      const Shape& s = v.shape;
      bool fits = s.size() == first.size();
      for (std::size_t d = 0; fits && d < s.size(); ++d) fits = d == ax || s[d] == first[d];
      if (!fits) {
        fail_node("input '" + node_->input(i) + "' " + shape_text(s) + " does not concatenate with " +
                  shape_text(first) + " on axis " + std::to_string(ax));
      }
      out[ax] += s[ax];
      shapes.push_back(s);
    }
    std::int64_t inner = 1;
    for (std::size_t d = ax + 1; d < first.size(); ++d) inner *= first[d];
    const std::int64_t outer = element_count(Shape(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(ax)));
    if (ints) {  // shapes for Reshape and the like, joined at load
      Value v;
      v.kind = Value::Kind::int64;
      v.type = "INT64";
      v.constant = true;
      v.shape = out;
      for (std::int64_t o = 0; o < outer; ++o) {
        for (int i = 0; i < node_->input_size(); ++i) {
          const auto& src = value(i).ints;
          const std::int64_t chunk = shapes[static_cast<std::size_t>(i)][ax] * inner;
          v.ints.insert(v.ints.end(), src.begin() + o * chunk, src.begin() + (o + 1) * chunk);
        }
      }
      values_[node_->output(0)] = std::move(v);
      return;
    }
    detail::ConcatPlan p;
    p.outer = outer;
    for (int i = 0; i < node_->input_size(); ++i) {
      const auto in = float_input(i);
      p.parts.push_back({in.offset, shapes[static_cast<std::size_t>(i)][ax] * inner});
    }
    detail::Op op;
    op.code = detail::OpCode::concat;
    op.n = static_cast<std::size_t>(element_count(out));
    op.table = static_cast<std::uint32_t>(plan_->concats.size());
    plan_->concats.push_back(std::move(p));
    op.y = new_output(0, out);
    emit(op);
  }

  void plan_slice() {
    const auto x = float_input(0);
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> ends;
    std::vector<std::int64_t> axes;
    std::vector<std::int64_t> steps;
    if (opset_ < 10) {
      const auto s = attr_ints("starts");
      const auto e = attr_ints("ends");
      if (!s || !e) fail_node("attributes 'starts' and 'ends' are required");
      starts = *s;
      ends = *e;
      if (const auto a = attr_ints("axes")) axes = *a;
    } else {
      starts = int_input(1, "starts");
      ends = int_input(2, "ends");
      if (has_input(3)) axes = int_input(3, "axes");
      if (has_input(4)) steps = int_input(4, "steps");
    }
    const std::size_t rank = x.shape.size();
    if (axes.empty()) {
      for (std::size_t d = 0; d < starts.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
      fail_node("starts, ends, axes and steps must have the same length (" + std::to_string(starts.size()) + ", " +
                std::to_string(ends.size()) + ", " + std::to_string(axes.size()) + ", " + std::to_string(steps.size()) + ")");
    }
    Shape out = x.shape;
    std::vector<std::int64_t> first(rank, 0);
    std::vector<std::int64_t> step(rank, 1);
    std::vector<bool> seen(rank, false);
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const std::size_t d = axis(axes[i], rank, "axis");
      if (seen[d]) fail_node("axis " + std::to_string(d) + " is sliced twice");
      seen[d] = true;
      const std::int64_t dim = x.shape[d];
      const std::int64_t s = steps[i];
      if (s == 0) fail_node("a step is 0");
      std::int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
      std::int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
      std::int64_t length = 0;
      if (s > 0) {
        start = std::clamp<std::int64_t>(start, 0, dim);
        end = std::clamp<std::int64_t>(end, 0, dim);
        length = end > start ? (end - start + s - 1) / s : 0;
      } else {
        start = std::clamp<std::int64_t>(start, 0, dim - 1);
        end = std::clamp<std::int64_t>(end, -1, dim - 1);
        length = start > end ? (start - end - s - 1) / -s : 0;
      }
      if (length == 0) fail_node("axis " + std::to_string(d) + " slices to nothing, and empty tensors are not supported");
      out[d] = length;
      first[d] = start;
      step[d] = s;
    }
    // Strides over the output's dims into x, and the first element.
    std::vector<std::ptrdiff_t> sa(rank);
    std::ptrdiff_t base = 0;
    std::ptrdiff_t stride = 1;
    for (std::size_t d = rank; d-- > 0;) {
      sa[d] = step[d] * stride;
      base += first[d] * stride;
      stride *= x.shape[d];
    }
    if (rank > static_cast<std::size_t>(detail::k_max_rank)) {
      fail_node("rank " + std::to_string(rank) + " exceeds the supported " + std::to_string(detail::k_max_rank));
    }
    auto nest = make_nest(out, sa, std::vector<std::ptrdiff_t>(rank, 0));
    nest.base_a = base;
    detail::Op op;
    op.code = detail::OpCode::slice;
    op.a = x.offset;
    op.n = static_cast<std::size_t>(element_count(out));
    op.table = static_cast<std::uint32_t>(plan_->loops.size());
    plan_->loops.push_back(nest);
    op.y = new_output(0, out);
    emit(op);
  }

  void plan_reshape() {
    const Shape in = value(0).shape;
    const auto& target = int_input(1, "shape");
    const bool allow_zero = attr_int("allowzero", 0) != 0;
    Shape out(target.begin(), target.end());
    std::optional<std::size_t> inferred;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (out[i] == 0 && !allow_zero) {
        if (i >= in.size()) {
          fail_node("shape " + shape_text(target) + " keeps (0) dimension " + std::to_string(i) + ", which " +
                    shape_text(in) + " does not have");
        }
        out[i] = in[i];
      } else if (out[i] == -1) {
        if (inferred) fail_node("shape " + shape_text(target) + " has more than one -1");
        inferred = i;
        continue;
      } else if (out[i] < 0) {
        fail_node("shape " + shape_text(target) + " has the dimension " + std::to_string(out[i]));
      }
      known *= out[i];
    }
    const std::int64_t total = element_count(in);
    if (inferred) {
      if (known == 0 || total % known != 0) {
        fail_node("cannot reshape " + shape_text(in) + " to " + shape_text(target));
      }
      out[*inferred] = total / known;
    }
    if (element_count(out) != total) fail_node("cannot reshape " + shape_text(in) + " to " + shape_text(target));
    alias_output(out);
  }

  void plan_flatten() {
    const Shape in = value(0).shape;
    const std::size_t ax = axis(attr_int("axis", 1), in.size(), "axis", true);
    const Shape head(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(ax));
    const Shape tail(in.begin() + static_cast<std::ptrdiff_t>(ax), in.end());
    alias_output({element_count(head), element_count(tail)});
  }

  std::optional<std::vector<std::int64_t>> axes_operand() {
    if (opset_ < 13) return attr_ints("axes");
    if (has_input(1)) return int_input(1, "axes");
    return std::nullopt;
  }

  void plan_squeeze() {
    const Shape in = value(0).shape;
    const auto axes = axes_operand();
    std::vector<bool> drop(in.size(), false);
    if (!axes) {
      for (std::size_t d = 0; d < in.size(); ++d) drop[d] = in[d] == 1;
    } else {
      for (const auto a : *axes) {
        const std::size_t d = axis(a, in.size(), "axis");
        if (in[d] != 1) fail_node("axis " + std::to_string(a) + " of " + shape_text(in) + " is not 1 and cannot be squeezed");
        drop[d] = true;
      }
    }
    Shape out;
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (!drop[d]) out.push_back(in[d]);
    }
    alias_output(out);
  }

  void plan_unsqueeze() {
    const Shape in = value(0).shape;
    const auto axes = axes_operand();
    if (!axes) fail_node("axes are required");
    const std::size_t rank = in.size() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (const auto a : *axes) {
      const std::size_t d = axis(a, rank, "axis");
      if (inserted[d]) fail_node("axis " + std::to_string(a) + " is given twice");
      inserted[d] = true;
    }
    Shape out;
    std::size_t next = 0;
    for (std::size_t d = 0; d < rank; ++d) out.push_back(inserted[d] ? 1 : in[next++]);
    alias_output(out);
  }

  void plan_constant() {
    const auto& out = node_->output(0);
    const std::string what = "Constant node '" + node_->name() + "' (output '" + out + "')";
    if (node_->attribute_size() != 1) fail_node("expected exactly one value attribute");
    const auto& a = node_->attribute(0);
    Value v;
    v.constant = true;
    if (a.name() == "value") {
      expect_type(a, onnx::AttributeProto::TENSOR, "a tensor");
      v = tensor_value(a.t(), what);
    } else if (a.name() == "value_float" || a.name() == "value_floats") {
      v.kind = Value::Kind::float32;
      v.type = "FLOAT";
      if (a.name() == "value_float") {
        v.floats = {a.f()};
      } else {
        v.floats.assign(a.floats().begin(), a.floats().end());
        v.shape = {static_cast<std::int64_t>(v.floats.size())};
      }
      for (std::size_t i = 0; i < v.floats.size(); ++i) {
        if (!std::isfinite(v.floats[i])) {
          fail(what + " is not finite at index " + std::to_string(i) + " (" + float_text(v.floats[i]) +
               "); every weight must be finite");
        }
      }
    } else if (a.name() == "value_int" || a.name() == "value_ints") {
      v.kind = Value::Kind::int64;
      v.type = "INT64";
      if (a.name() == "value_int") {
        v.ints = {a.i()};
      } else {
        v.ints.assign(a.ints().begin(), a.ints().end());
        v.shape = {static_cast<std::int64_t>(v.ints.size())};
      }
    } else {
      fail_node("attribute '" + a.name() + "' is not supported; expected value, value_float(s) or value_int(s)");
    }
    values_[out] = std::move(v);
  }

  // What LSTM and GRU share: the attributes neither runs otherwise (refused), X, W, R, B,
  // sequence_lens and initial_h, the outputs Y and Y_h and the scratch of the steps.
  detail::RnnPlan plan_rnn(std::int64_t gates, const std::vector<std::string>& activations) {
    const std::string direction = attr_string("direction", "forward");
    if (direction != "forward") fail_node("direction '" + direction + "' is not supported; expected 'forward'");
    if (attr("clip") != nullptr) fail_node("attribute 'clip' is not supported");
    if (attr_int("layout", 0) != 0) fail_node("layout = 1 (batch first) is not supported; expected 0");
    std::string defaults;
    for (const auto& s : activations) defaults += (defaults.empty() ? "" : ", ") + s;
    if (const auto* a = attr("activations")) {
      expect_type(*a, onnx::AttributeProto::STRINGS, "a list of strings");
      const std::vector<std::string> given(a->strings().begin(), a->strings().end());
      if (given != activations) {
        std::string list;
        for (const auto& s : given) list += (list.empty() ? "" : ", ") + s;
        fail_node("activations [" + list + "] are not supported; expected the defaults [" + defaults + "]");
      }
    }
    for (const char* name : {"activation_alpha", "activation_beta"}) {
      if (attr(name) != nullptr) {
        fail_node("attribute '" + std::string(name) + "' is not supported; the default activations [" + defaults +
                  "] take none");
      }
    }
    const auto x = float_input(0);
    const auto w = float_input(1);
    const auto r = float_input(2);
    if (x.shape.size() != 3) fail_node("X " + shape_text(x.shape) + " must be [seq_length, batch_size, input_size]");
    const std::string g = std::to_string(gates);
    if (r.shape.size() != 3 || r.shape[0] != 1 || r.shape[1] != gates * r.shape[2]) {
      fail_node("R " + shape_text(r.shape) + " must be [1, " + g + " * hidden_size, hidden_size]");
    }
    detail::RnnPlan p;
    p.gates = gates;
    p.seq = x.shape[0];
    p.batch = x.shape[1];
    p.input = x.shape[2];
    p.hidden = r.shape[2];
    const std::int64_t hidden = p.hidden;
    if (attr_int("hidden_size", hidden) != hidden) {
      fail_node("hidden_size " + std::to_string(attr_int("hidden_size", 0)) + " does not match R " + shape_text(r.shape));
    }
    expect_shape(w, {1, gates * hidden, p.input}, "W");
    p.x = x.offset;
    p.w = w.offset;
    p.r = r.offset;
    if (has_input(3)) {
      const auto b = float_input(3);
      expect_shape(b, {1, 2 * gates * hidden}, "B");
      p.bias = b.offset;
    }
    if (has_input(4)) full_sequence_lens(4, p.seq, p.batch);
    if (has_input(5)) {
      const auto h = float_input(5);
      expect_shape(h, {1, p.batch, hidden}, "initial_h");
      p.init_h = h.offset;
    }
    const auto rows = static_cast<std::size_t>(p.seq * p.batch);
    const auto width = static_cast<std::size_t>(gates * hidden);
    p.gate_buf = allocate(rows * width);
    p.bias_sum = allocate(width);
    p.h = allocate(static_cast<std::size_t>(p.batch * hidden));
    p.y = new_output(0, {p.seq, 1, p.batch, hidden});
    p.y_h = new_output(1, {1, p.batch, hidden});
    return p;
  }

  void expect_shape(const Operand& v, const Shape& shape, const char* name) const {
    if (v.shape != shape) fail_node(std::string(name) + " " + shape_text(v.shape) + " must be " + shape_text(shape));
  }

  // sequence_lens runs only as what leaving it out means: a constant of every sequence's full length.
  void full_sequence_lens(int i, std::int64_t seq, std::int64_t batch) {
    const Value& v = value(i);
    const std::string what = "input 'sequence_lens' ('" + node_->input(i) + "')";
    if (!v.constant || v.kind != Value::Kind::int32) {
      fail_node(what + " is not supported unless it is an int32 constant of every sequence's full length (" +
                std::to_string(seq) + "); it is " + (v.constant ? "a constant" : "computed") + " of element type " +
                v.type + ". Leave it empty to run every sequence its full length");
    }
    if (v.shape != Shape{batch}) fail_node(what + " " + shape_text(v.shape) + " must be " + shape_text({batch}));
    for (std::size_t b = 0; b < v.ints.size(); ++b) {
      if (v.ints[b] != seq) {
        fail_node(what + " gives sequence " + std::to_string(b) + " the length " + std::to_string(v.ints[b]) +
                  "; only the full length " + std::to_string(seq) + " is supported");
      }
    }
  }

  void plan_lstm() {
    if (attr_int("input_forget", 0) != 0) fail_node("input_forget = 1 is not supported; expected 0");
    auto p = plan_rnn(4, {"Sigmoid", "Tanh", "Tanh"});
    const std::int64_t hidden = p.hidden;
    if (has_input(6)) {
      const auto c = float_input(6);
      expect_shape(c, {1, p.batch, hidden}, "initial_c");
      p.init_c = c.offset;
    }
    if (has_input(7)) {
      const auto peep = float_input(7);
      expect_shape(peep, {1, 3 * hidden}, "P");
      p.peep = peep.offset;
    }
    p.c = allocate(static_cast<std::size_t>(p.batch * hidden));
    p.y_c = new_output(2, {1, p.batch, hidden});
    emit_rnn(detail::OpCode::lstm, p);
  }

  void plan_gru() {
    const auto linear_before_reset = attr_int("linear_before_reset", 0);
    if (linear_before_reset != 0 && linear_before_reset != 1) {
      fail_node("linear_before_reset = " + std::to_string(linear_before_reset) + " is not supported; expected 0 or 1");
    }
    auto p = plan_rnn(3, {"Sigmoid", "Tanh"});
    p.linear_before_reset = linear_before_reset != 0;
    p.recurrent = allocate(static_cast<std::size_t>(p.batch * 3 * p.hidden));
    emit_rnn(detail::OpCode::gru, p);
  }

  void emit_rnn(detail::OpCode code, const detail::RnnPlan& p) {
    detail::Op op;
    op.code = code;
    op.table = static_cast<std::uint32_t>(plan_->rnns.size());
    plan_->rnns.push_back(p);
    emit(op);
  }

  const onnx::ModelProto& model_;
  std::unique_ptr<detail::Plan> plan_;
  std::unordered_map<std::string, Value> values_;
  std::int64_t opset_ = 0;
  const onnx::NodeProto* node_ = nullptr;
  int node_index_ = 0;
};

}  // namespace

Network Network::load(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw PolicyError(name + ": cannot read the model: " +
                      (std::filesystem::exists(file, error) ? "not a regular file" : "no such file"));
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw PolicyError(name + ": cannot read the model: read error");
  return load_bytes(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), name);
}

Network Network::load_bytes(std::span<const std::byte> bytes, std::string_view name) {
  const std::string file(name);
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw PolicyError(file + ": the model is larger than protobuf's 2 GB limit");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw PolicyError(file + ": not an ONNX model (the bytes do not parse as an ONNX ModelProto)");
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    throw PolicyError(file + ": the ONNX checker refused the model: " + e.what());
  }
  return Network(Planner(model, file).build());
}

}  // namespace praxis::policy
