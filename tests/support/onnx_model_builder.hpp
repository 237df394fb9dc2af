#pragma once
// Builds small ONNX models in a test, through Debian's ONNX protobuf classes, so a test states the
// graph it runs next to what it expects of it. Models of the sizes policies have, with random
// weights compared against ONNX Runtime, come from tests/policy/make_models.py instead.
//
//   praxis::test::OnnxModelBuilder m;                 // opset 17, IR version 8
//   m.input("obs", {1, 3});
//   m.initializer("W", {2, 3}, {1, 2, 3, 4, 5, 6});
//   m.node("Gemm", {"obs", "W"}, {"y"}).attr("transB", std::int64_t{1});
//   m.output("y", {1, 2});
//   auto net = praxis::policy::Network::load_bytes(m.bytes(), "gemm.onnx");

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace praxis::test {

class OnnxModelBuilder {
 public:
  // A dimension of -1 is symbolic ("batch"), as exporters write a dynamic batch.
  using Shape = std::vector<std::int64_t>;

  class Node {
   public:
    explicit Node(onnx::NodeProto& node) : node_(&node) {}
    Node& attr(const std::string& name, float value) {
      auto* a = add(name, onnx::AttributeProto::FLOAT);
      a->set_f(value);
      return *this;
    }
    Node& attr(const std::string& name, std::int64_t value) {
      auto* a = add(name, onnx::AttributeProto::INT);
      a->set_i(value);
      return *this;
    }
    Node& attr(const std::string& name, const std::string& value) {
      auto* a = add(name, onnx::AttributeProto::STRING);
      a->set_s(value);
      return *this;
    }
    Node& attr(const std::string& name, const std::vector<std::int64_t>& values) {
      auto* a = add(name, onnx::AttributeProto::INTS);
      for (const auto v : values) a->add_ints(v);
      return *this;
    }
    Node& attr(const std::string& name, const std::vector<float>& values) {
      auto* a = add(name, onnx::AttributeProto::FLOATS);
      for (const auto v : values) a->add_floats(v);
      return *this;
    }
    Node& attr(const std::string& name, const std::vector<std::string>& values) {
      auto* a = add(name, onnx::AttributeProto::STRINGS);
      for (const auto& v : values) a->add_strings(v);
      return *this;
    }
    // A tensor attribute (Constant's value).
    Node& attr_tensor(const std::string& name, const Shape& shape, const std::vector<float>& values) {
      auto* a = add(name, onnx::AttributeProto::TENSOR);
      fill_tensor(*a->mutable_t(), "", shape, values);
      return *this;
    }
    Node& attr_tensor(const std::string& name, const Shape& shape, const std::vector<std::int64_t>& values) {
      auto* a = add(name, onnx::AttributeProto::TENSOR);
      fill_tensor(*a->mutable_t(), "", shape, values);
      return *this;
    }

   private:
    onnx::AttributeProto* add(const std::string& name, onnx::AttributeProto::AttributeType type) {
      auto* a = node_->add_attribute();
      a->set_name(name);
      a->set_type(type);
      return a;
    }
    onnx::NodeProto* node_;
  };

  explicit OnnxModelBuilder(std::int64_t opset = 17, std::int64_t ir_version = 8) {
    model_.set_ir_version(ir_version);
    model_.set_producer_name("praxis tests");
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  void input(const std::string& name, const Shape& shape) { value_info(*graph().add_input(), name, shape); }
  void output(const std::string& name, const Shape& shape) { value_info(*graph().add_output(), name, shape); }
  void initializer(const std::string& name, const Shape& shape, const std::vector<float>& values) {
    fill_tensor(*graph().add_initializer(), name, shape, values);
  }
  void initializer(const std::string& name, const Shape& shape, const std::vector<std::int64_t>& values) {
    fill_tensor(*graph().add_initializer(), name, shape, values);
  }
  Node node(const std::string& op, std::initializer_list<std::string> inputs, std::initializer_list<std::string> outputs,
            const std::string& name = "") {
    auto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(graph().node_size()) : name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return Node(*n);
  }

  [[nodiscard]] onnx::ModelProto& model() { return model_; }
  [[nodiscard]] std::string serialized() const { return model_.SerializeAsString(); }
  // For Network::load_bytes: the bytes live as long as this builder's last call to bytes().
  [[nodiscard]] std::span<const std::byte> bytes() {
    bytes_ = serialized();
    return std::as_bytes(std::span<const char>(bytes_.data(), bytes_.size()));
  }
  void save(const std::filesystem::path& file) {
    std::ofstream out(file, std::ios::binary);
    out << serialized();
  }

 private:
  onnx::GraphProto& graph() { return *model_.mutable_graph(); }
  static void value_info(onnx::ValueInfoProto& v, const std::string& name, const Shape& shape) {
    v.set_name(name);
    auto* t = v.mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    auto* s = t->mutable_shape();
    for (const auto d : shape) {
      if (d < 0) {
        s->add_dim()->set_dim_param("batch");
      } else {
        s->add_dim()->set_dim_value(d);
      }
    }
  }
  static void fill_tensor(onnx::TensorProto& t, const std::string& name, const Shape& shape,
                          const std::vector<float>& values) {
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    for (const auto d : shape) t.add_dims(d);
    for (const auto v : values) t.add_float_data(v);
  }
  static void fill_tensor(onnx::TensorProto& t, const std::string& name, const Shape& shape,
                          const std::vector<std::int64_t>& values) {
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::INT64);
    for (const auto d : shape) t.add_dims(d);
    for (const auto v : values) t.add_int64_data(v);
  }

  onnx::ModelProto model_;
  std::string bytes_;
};

}  // namespace praxis::test
