#include "praxis/script/loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace praxis::script {

std::string to_string(const ScriptProblem& problem) {
  std::string out = problem.origin;
  if (problem.frame) {
    out += ": frame " + std::to_string(*problem.frame);
    if (problem.target) out += ", target " + std::to_string(*problem.target);
  }
  return out + ": " + problem.message;
}

namespace {
std::string describe_all(const std::vector<ScriptProblem>& problems) {
  std::string out;
  for (const auto& p : problems) {
    if (!out.empty()) out += '\n';
    out += to_string(p);
  }
  return out;
}
}  // namespace

ScriptError::ScriptError(std::vector<ScriptProblem> problems)
    : std::runtime_error(describe_all(problems)), problems_(std::move(problems)) {}

namespace detail {

namespace {

std::string kind(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Collects the problems of one file; each check records what it found and carries on, so one run
// reports everything that is wrong.
class Checker {
 public:
  Checker(const std::string& origin, std::span<const JointSpec> joints, std::string_view model)
      : origin_(origin), joints_(joints), model_(model) {}

  void file_problem(std::string message) {
    problems_.push_back({origin_, std::nullopt, std::nullopt, std::move(message)});
  }
  void problem(std::size_t frame, std::optional<std::size_t> target, std::string message) {
    problems_.push_back({origin_, frame, target, std::move(message)});
  }

  // A finite number, or a problem (and nothing) when the field is missing or not one.
  std::optional<double> number_field(const nlohmann::json& obj, const char* field, std::size_t frame,
                                     std::optional<std::size_t> target) {
    const auto it = obj.find(field);
    if (it == obj.end()) {
      problem(frame, target, std::string("missing field \"") + field + "\"");
      return std::nullopt;
    }
    if (!it->is_number()) {
      problem(frame, target, std::string("field \"") + field + "\" must be a number, found " + kind(*it));
      return std::nullopt;
    }
    const double v = it->get<double>();
    if (!std::isfinite(v)) {
      problem(frame, target, std::string("field \"") + field + "\" must be finite");
      return std::nullopt;
    }
    return v;
  }

  std::vector<RawFrame> frames(const nlohmann::json& doc) {
    if (!doc.is_array()) {
      file_problem("expected a list of frames, found " + kind(doc));
      return {};
    }
    if (doc.empty()) {
      file_problem("the script has no frames");
      return {};
    }
    std::vector<RawFrame> out;
    out.reserve(doc.size());
    for (std::size_t f = 0; f < doc.size(); ++f) out.push_back(frame(doc[f], f));
    return out;
  }

  std::vector<ScriptProblem> take_problems() { return std::move(problems_); }

 private:
  RawFrame frame(const nlohmann::json& jf, std::size_t f) {
    RawFrame frame;
    if (!jf.is_object()) {
      problem(f, std::nullopt, "expected an object, found " + kind(jf));
      return frame;
    }
    for (const auto& [key, value] : jf.items()) {
      if (key != "duration" && key != "targets") {
        problem(f, std::nullopt, "unknown field \"" + key + "\" (expected \"duration\" and \"targets\")");
      }
    }
    if (const auto d = number_field(jf, "duration", f, std::nullopt)) {
      if (*d < 0) {
        problem(f, std::nullopt, "field \"duration\" must be >= 0 ms, found " + number(*d));
      } else {
        frame.duration_ms = *d;
      }
    }
    const auto targets = jf.find("targets");
    if (targets == jf.end()) {
      problem(f, std::nullopt, "missing field \"targets\"");
      return frame;
    }
    if (!targets->is_array()) {
      problem(f, std::nullopt, "field \"targets\" must be a list, found " + kind(*targets));
      return frame;
    }
    std::vector<bool> seen(joints_.size(), false);
    for (std::size_t t = 0; t < targets->size(); ++t) {
      if (auto target = this->target((*targets)[t], f, t, seen)) frame.targets.push_back(*target);
    }
    return frame;
  }

  std::optional<RawTarget> target(const nlohmann::json& jt, std::size_t f, std::size_t t,
                                   std::vector<bool>& seen) {
    if (!jt.is_object()) {
      problem(f, t, "expected an object, found " + kind(jt));
      return std::nullopt;
    }
    const auto before = problems_.size();
    for (const auto& [key, value] : jt.items()) {
      if (key != "id" && key != "position" && key != "gain" && key != "torque") {
        problem(f, t, "unknown field \"" + key + "\" (expected id, position, gain, torque)");
      }
    }
    const auto joint = joint_of(jt, f, t, seen);
    const auto position = number_field(jt, "position", f, t);
    const auto gain = number_field(jt, "gain", f, t);
    if (gain && *gain < 0) problem(f, t, "field \"gain\" must be >= 0, found " + number(*gain));
    const auto torque = number_field(jt, "torque", f, t);
    if (torque && (*torque < 0 || *torque > 100)) {
      problem(f, t, "field \"torque\" must be between 0 and 100, found " + number(*torque));
    }
    if (joint && position) {
      const auto& spec = joints_[*joint];
      if (*position < spec.lower || *position > spec.upper) {
        problem(f, t, "joint \"" + std::string(spec.name) + "\" position " + number(*position) +
                          " is outside its limits [" + number(spec.lower) + ", " +
                          number(spec.upper) + "] rad");
      }
    }
    if (problems_.size() != before) return std::nullopt;
    return RawTarget{*joint, *position, *gain, *torque};
  }

  std::optional<std::size_t> joint_of(const nlohmann::json& jt, std::size_t f, std::size_t t,
                                      std::vector<bool>& seen) {
    const auto id = jt.find("id");
    if (id == jt.end()) {
      problem(f, t, "missing field \"id\"");
      return std::nullopt;
    }
    if (!id->is_string()) {
      problem(f, t, "field \"id\" must be a joint name, found " + kind(*id));
      return std::nullopt;
    }
    const auto name = id->get<std::string>();
    const auto it = std::find_if(joints_.begin(), joints_.end(),
                                 [&](const JointSpec& j) { return j.name == name; });
    if (it == joints_.end()) {
      std::string names;
      for (const auto& j : joints_) names += (names.empty() ? "" : ", ") + std::string(j.name);
      problem(f, t, "unknown joint \"" + name + "\" (" + std::string(model_) + " joints: " + names + ")");
      return std::nullopt;
    }
    const auto joint = static_cast<std::size_t>(it - joints_.begin());
    if (seen[joint]) {
      problem(f, t, "joint \"" + name + "\" is targeted twice in one frame");
      return std::nullopt;
    }
    seen[joint] = true;
    return joint;
  }

  const std::string& origin_;
  std::span<const JointSpec> joints_;
  std::string_view model_;
  std::vector<ScriptProblem> problems_;
};

}  // namespace

ParsedScript parse_script_text(std::string_view text, const std::string& origin,
                               std::span<const JointSpec> joints, std::string_view model_name) {
  Checker checker(origin, joints, model_name);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Nothing after a syntax error can be trusted, so it is the only problem reported.
    const auto upto = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    return {{}, {{origin + ":" + std::to_string(line), std::nullopt, std::nullopt,
                  std::string("not valid JSON (") + e.what() + ")"}}};
  } catch (const nlohmann::json::out_of_range& e) {
    // The parser's other failure: a number beyond a double's range (1e999), which it reports by value.
    return {{}, {{origin, std::nullopt, std::nullopt,
                  std::string("not valid JSON (a number does not fit in a double: ") + e.what() + ")"}}};
  }
  ParsedScript parsed;
  parsed.frames = checker.frames(doc);
  parsed.problems = checker.take_problems();
  return parsed;
}

ParsedScript parse_script_file(const std::filesystem::path& file, std::span<const JointSpec> joints,
                               std::string_view model_name) {
  std::ifstream in(file);
  if (!in) {
    return {{}, {{file.string(), std::nullopt, std::nullopt, "script file not found or not readable"}}};
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_script_text(buffer.str(), file.string(), joints, model_name);
}

}  // namespace detail
}  // namespace praxis::script
