#include "praxis/script/loader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace praxis::script::detail {

namespace {

std::string kind(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

std::string list(const std::vector<std::string_view>& names) {
  std::string out;
  for (const auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

double number_field(const nlohmann::json& obj, const char* field, const std::string& where) {
  const auto it = obj.find(field);
  if (it == obj.end()) throw ScriptError(where + ": missing field \"" + field + "\"");
  if (!it->is_number()) {
    throw ScriptError(where + ": field \"" + field + "\" must be a number, found " + kind(*it));
  }
  const double v = it->get<double>();
  if (!std::isfinite(v)) throw ScriptError(where + ": field \"" + field + "\" must be finite");
  return v;
}

std::vector<RawFrame> parse(const nlohmann::json& doc, const std::string& origin,
                            const std::vector<std::string_view>& joint_names, std::string_view model) {
  if (!doc.is_array()) throw ScriptError(origin + ": expected a list of frames, found " + kind(doc));
  if (doc.empty()) throw ScriptError(origin + ": the script has no frames");
  std::vector<RawFrame> frames;
  frames.reserve(doc.size());
  for (std::size_t f = 0; f < doc.size(); ++f) {
    const std::string at_frame = origin + ": frame " + std::to_string(f);
    const auto& jf = doc[f];
    if (!jf.is_object()) throw ScriptError(at_frame + ": expected an object, found " + kind(jf));
    for (const auto& [key, value] : jf.items()) {
      if (key != "duration" && key != "targets") {
        throw ScriptError(at_frame + ": unknown field \"" + key + "\" (expected \"duration\" and \"targets\")");
      }
    }
    RawFrame frame;
    frame.duration_ms = number_field(jf, "duration", at_frame);
    if (frame.duration_ms < 0) {
      throw ScriptError(at_frame + ": field \"duration\" must be >= 0 ms, found " + std::to_string(frame.duration_ms));
    }
    const auto targets = jf.find("targets");
    if (targets == jf.end()) throw ScriptError(at_frame + ": missing field \"targets\"");
    if (!targets->is_array()) throw ScriptError(at_frame + ": field \"targets\" must be a list, found " + kind(*targets));
    std::vector<bool> seen(joint_names.size(), false);
    for (std::size_t t = 0; t < targets->size(); ++t) {
      const std::string at_target = at_frame + ", target " + std::to_string(t);
      const auto& jt = (*targets)[t];
      if (!jt.is_object()) throw ScriptError(at_target + ": expected an object, found " + kind(jt));
      for (const auto& [key, value] : jt.items()) {
        if (key != "id" && key != "position" && key != "gain" && key != "torque") {
          throw ScriptError(at_target + ": unknown field \"" + key + "\" (expected id, position, gain, torque)");
        }
      }
      const auto id = jt.find("id");
      if (id == jt.end()) throw ScriptError(at_target + ": missing field \"id\"");
      if (!id->is_string()) throw ScriptError(at_target + ": field \"id\" must be a joint name, found " + kind(*id));
      const auto name = id->get<std::string>();
      std::size_t joint = joint_names.size();
      for (std::size_t j = 0; j < joint_names.size(); ++j) {
        if (joint_names[j] == name) joint = j;
      }
      if (joint == joint_names.size()) {
        throw ScriptError(at_target + ": unknown joint \"" + name + "\" (" + std::string(model) +
                          " joints: " + list(joint_names) + ")");
      }
      if (seen[joint]) throw ScriptError(at_target + ": joint \"" + name + "\" is targeted twice in one frame");
      seen[joint] = true;
      RawTarget target;
      target.joint = joint;
      target.position = number_field(jt, "position", at_target);
      target.gain = number_field(jt, "gain", at_target);
      if (target.gain < 0) throw ScriptError(at_target + ": field \"gain\" must be >= 0");
      target.torque = number_field(jt, "torque", at_target);
      if (target.torque < 0 || target.torque > 100) {
        throw ScriptError(at_target + ": field \"torque\" must be between 0 and 100, found " + std::to_string(target.torque));
      }
      frame.targets.push_back(target);
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

}  // namespace

std::vector<RawFrame> parse_script_text(std::string_view text, const std::string& origin,
                                        const std::vector<std::string_view>& joint_names,
                                        std::string_view model_name) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const auto upto = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    throw ScriptError(origin + ":" + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  }
  return parse(doc, origin, joint_names, model_name);
}

std::vector<RawFrame> parse_script_file(const std::filesystem::path& file,
                                        const std::vector<std::string_view>& joint_names,
                                        std::string_view model_name) {
  std::ifstream in(file);
  if (!in) throw ScriptError(file.string() + ": script file not found or not readable");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_script_text(buffer.str(), file.string(), joint_names, model_name);
}

}  // namespace praxis::script::detail
