// praxis' own inference (praxis::policy::Network) against ONNX Runtime and numpy, on the models
// tests/policy/make_models.py writes (random weights, one model per operator and attribute case,
// the usual actor MLPs, LSTM and GRU policies stepped with their state carried) and the results
// tests/js/onnx_reference.mjs gets from ONNX Runtime (<name>.ort.json).
//   policy_onnx_compare <models folder> [--require-ort]
// Per model one line, "PASS <name> ..." or "FAIL: <name>: ...", with the largest error against
// each reference; exits 1 when any model fails, or lacks ONNX Runtime's results under --require-ort.
//
// The error of an output is max_i |a_i - b_i| / max_j |b_j| over the output's elements (b the
// reference, per run), and it must be at most 1e-5: each element may be off by 1e-5 of the output's
// scale, not of itself. Why the scale: float32 carries 6e-8 relative, but an element is made from
// intermediates as large as the output's largest ones (dot products of up to 512 terms summed in
// whichever order, exp and tanh from different libraries, cancellations), so a correct float32
// engine is off on every element by a few ulps *of those*: an output near zero has no correct
// digits to compare at 1e-5 of itself. ONNX Runtime itself, against numpy's float64, is off by up
// to 3.7e-4 of the element (sigmoid(-9)) and 4e-5 even with a floor of 1e-2 of the scale (an
// action near 0 in the 512-wide MLP), yet by at most 6e-7 of the scale over all these models: 1e-5
// keeps a margin of more than ten. A wrong semantics (gate order, an alpha, a broadcast, a slice
// index, a transposition) moves elements by a sizeable fraction of the scale, far above 1e-5.
// ONNX Runtime is also held to numpy by the same rule, so a wrong reference fails too.

#include <praxis/policy/network.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace compare_main {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double k_tolerance = 1e-5;

struct Tensor {
  std::vector<std::int64_t> shape;
  std::vector<float> data;
};

Tensor read_tensor(const json& j, std::string_view what) {
  Tensor t;
  t.shape = j.at("shape").get<std::vector<std::int64_t>>();
  // The JSON holds the doubles of float32 values: the cast gives back the same float.
  for (const auto& v : j.at("data")) t.data.push_back(static_cast<float>(v.get<double>()));
  std::size_t n = 1;
  for (const auto d : t.shape) n *= static_cast<std::size_t>(d);
  if (n != t.data.size()) {
    throw std::runtime_error(std::string(what) + ": shape holds " + std::to_string(n) +
                             " values, data has " + std::to_string(t.data.size()));
  }
  return t;
}

json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  return json::parse(in);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string number(double v, int digits = 9) {
  std::ostringstream os;
  os.precision(digits);
  os << v;
  return os.str();
}

// The largest error over the runs against one reference, and where it was.
struct Worst {
  double error = 0.0;
  std::string where;
  void compare(std::span<const float> got, const Tensor& want, const std::string& what,
               std::string_view got_name, std::string_view want_name) {
    double scale = 0.0;
    for (const float b : want.data) scale = std::max(scale, std::abs(static_cast<double>(b)));
    for (std::size_t i = 0; i < want.data.size(); ++i) {
      const double a = got[i];
      const double b = want.data[i];
      const double diff = std::abs(a - b);
      // NaN compares false: a NaN from the engine is an infinite error, never a pass.
      double e = 0.0;
      if (!(diff <= std::numeric_limits<double>::max())) {
        e = std::numeric_limits<double>::infinity();
      } else if (diff > 0.0) {
        e = scale > 0.0 ? diff / scale : std::numeric_limits<double>::infinity();
      }
      if (e > error || (error == 0.0 && where.empty())) {
        error = e;
        where = what + " element " + std::to_string(i) + ": " + std::string(got_name) + " " +
                number(a) + ", " + std::string(want_name) + " " + number(b) + ", scale " +
                number(scale, 4);
      }
    }
  }
};

struct Outcome {
  std::vector<std::string> problems;
  Worst numpy, ort, ort_numpy;
  bool has_ort = false;
  std::size_t runs = 0;
};

Outcome run_model(const fs::path& folder, const std::string& name, bool require_ort) {
  Outcome out;
  const json spec = read_json(folder / (name + ".json"));
  const fs::path ort_file = folder / (name + ".ort.json");
  json ort;
  if (fs::exists(ort_file)) {
    ort = read_json(ort_file);
    out.has_ort = true;
    if (ort.at("steps").size() != spec.at("steps").size()) {
      out.problems.push_back("ONNX Runtime's results have " + std::to_string(ort.at("steps").size()) +
                             " steps, the model's " + std::to_string(spec.at("steps").size()));
      return out;
    }
  }
  const bool ort_missing = require_ort && !out.has_ort;

  auto net = praxis::policy::Network::load(folder / (name + ".onnx"));

  // Every graph input is fed on the first run, and every graph output has numpy's values.
  std::set<std::string> fed;
  for (const auto& [input, _] : spec.at("inputs").items()) fed.insert(input);
  for (const auto& info : net.inputs()) {
    if (!fed.count(info.name)) out.problems.push_back("the engine's input '" + info.name + "' is not in the JSON");
  }
  for (const auto& info : net.outputs()) {
    if (!spec.at("outputs_numpy").contains(info.name)) {
      out.problems.push_back("the engine's output '" + info.name + "' has no numpy values");
    }
  }
  if (!out.problems.empty()) return out;

  for (const auto& pair : spec.at("carry")) {
    net.carry(net.output_index(pair.at(0).get<std::string>()), net.input_index(pair.at(1).get<std::string>()));
  }

  const std::size_t runs = 1 + spec.at("steps").size();
  for (std::size_t r = 0; r < runs; ++r) {
    const json& inputs = r == 0 ? spec.at("inputs") : spec.at("steps").at(r - 1).at("inputs");
    const json& numpy = r == 0 ? spec.at("outputs_numpy") : spec.at("steps").at(r - 1).at("outputs_numpy");
    const json* ort_outputs = nullptr;
    if (out.has_ort) ort_outputs = r == 0 ? &ort.at("outputs") : &ort.at("steps").at(r - 1).at("outputs");

    for (const auto& [input, value] : inputs.items()) {
      const std::size_t i = net.input_index(input);
      const Tensor t = read_tensor(value, "input '" + input + "'");
      if (t.shape != net.inputs()[i].shape) {
        out.problems.push_back("input '" + input + "': the engine has shape " + shape_text(net.inputs()[i].shape) +
                               ", the JSON " + shape_text(t.shape));
        return out;
      }
      std::ranges::copy(t.data, net.input(i).begin());
    }
    net.run();
    ++out.runs;

    for (const auto& [output, value] : numpy.items()) {
      const std::size_t o = net.output_index(output);
      const std::string what = "output '" + output + "' run " + std::to_string(r);
      const Tensor want = read_tensor(value, what + " (numpy)");
      if (want.shape != net.outputs()[o].shape) {
        out.problems.push_back(what + ": the engine has shape " + shape_text(net.outputs()[o].shape) +
                               ", numpy " + shape_text(want.shape));
        return out;
      }
      out.numpy.compare(net.output(o), want, what, "praxis", "numpy");
      if (ort_outputs) {
        if (!ort_outputs->contains(output)) {
          out.problems.push_back(what + ": not in ONNX Runtime's results");
          return out;
        }
        const Tensor got = read_tensor(ort_outputs->at(output), what + " (ONNX Runtime)");
        if (got.shape != want.shape) {
          out.problems.push_back(what + ": ONNX Runtime has shape " + shape_text(got.shape) + ", numpy " +
                                 shape_text(want.shape));
          return out;
        }
        out.ort.compare(net.output(o), got, what, "praxis", "ORT");
        out.ort_numpy.compare(got.data, want, what, "ORT", "numpy");
      }
    }
  }
  if (!(out.numpy.error <= k_tolerance)) out.problems.push_back("against numpy: " + out.numpy.where);
  if (out.has_ort && !(out.ort.error <= k_tolerance)) out.problems.push_back("against ONNX Runtime: " + out.ort.where);
  if (out.has_ort && !(out.ort_numpy.error <= k_tolerance)) {
    out.problems.push_back("the references disagree (ONNX Runtime against numpy): " + out.ort_numpy.where);
  }
  if (ort_missing) {
    out.problems.push_back("no " + ort_file.filename().string() +
                           " (ONNX Runtime's results: tests/js/onnx_reference.mjs writes it)");
  }
  return out;
}

std::string error_text(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", e);
  return buf;
}

}  // namespace compare_main

int main(int argc, char** argv) {
  using namespace compare_main;
  if (argc < 2 || argc > 3 || (argc == 3 && std::string_view(argv[2]) != "--require-ort")) {
    std::fprintf(stderr, "usage: policy_onnx_compare <models folder> [--require-ort]\n");
    return 2;
  }
  const fs::path folder = argv[1];
  const bool require_ort = argc == 3;

  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const auto file = entry.path().filename().string();
    if (entry.path().extension() == ".onnx") names.push_back(file.substr(0, file.size() - 5));
  }
  if (ec || names.empty()) {
    const std::string why = ec ? ": " + ec.message() : std::string();
    std::printf("FAIL: no .onnx models in %s%s\n", folder.c_str(), why.c_str());
    return 1;
  }
  std::ranges::sort(names);

  std::size_t passed = 0;
  std::size_t failed = 0;
  double worst_numpy = 0.0;
  double worst_ort = 0.0;
  for (const auto& name : names) {
    Outcome out;
    try {
      out = run_model(folder, name, require_ort);
    } catch (const std::exception& e) {
      out.problems.push_back(e.what());
    }
    worst_numpy = std::max(worst_numpy, out.numpy.error);
    worst_ort = std::max(worst_ort, out.ort.error);
    std::string line = name + "  runs " + std::to_string(out.runs) + "  numpy " + error_text(out.numpy.error) +
                       "  ORT " + (out.has_ort ? error_text(out.ort.error) : std::string("-")) +
                       "  ORT~numpy " + (out.has_ort ? error_text(out.ort_numpy.error) : std::string("-"));
    if (out.problems.empty()) {
      ++passed;
      std::printf("PASS %s\n", line.c_str());
    } else {
      ++failed;
      std::printf("FAIL: %s\n", line.c_str());
      for (const auto& p : out.problems) std::printf("      %s\n", p.c_str());
    }
  }
  std::printf("largest error (of the output's scale): numpy %s, ONNX Runtime %s, tolerance %s\n",
              error_text(worst_numpy).c_str(), error_text(worst_ort).c_str(), error_text(k_tolerance).c_str());
  std::printf("compare: %zu passed, %zu failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
