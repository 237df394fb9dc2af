#include "praxis/policy/deploy.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "praxis/io/detail/json_text.hpp"

namespace praxis::policy {

namespace {

using Json = nlohmann::json;

std::string format_number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string quoted_list(std::initializer_list<std::string_view> names) {
  std::string out;
  for (const auto n : names) {
    if (!out.empty()) out += ", ";
    out += "\"";
    out += n;
    out += "\"";
  }
  return out;
}

// Walks the document, naming every value by its JSON pointer so a message points at it exactly.
class Reader {
 public:
  explicit Reader(const std::filesystem::path& file) : file_(file.string()) {}

  [[noreturn]] void fail(const std::string& key, std::string_view expected, std::string_view found) const {
    throw PolicyError(file_ + ": key \"" + key + "\": expected " + std::string(expected) + ", found " +
                      std::string(found));
  }

  // Refuses keys outside `allowed`: a misspelt optional key would otherwise be ignored silently.
  void only_keys(const Json& object, const std::string& at, std::initializer_list<std::string_view> allowed) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
        fail(at + "/" + it.key(), "one of the keys " + quoted_list(allowed), "an unknown key");
      }
    }
  }

  const Json* find(const Json& object, std::string_view key) const {
    const auto it = object.find(std::string(key));
    return it == object.end() ? nullptr : &*it;
  }
  const Json& require(const Json& object, const std::string& at, std::string_view key, std::string_view expected) const {
    const Json* v = find(object, key);
    if (v == nullptr) fail(at + "/" + std::string(key), expected, "no such key");
    return *v;
  }

  double number(const Json& v, const std::string& key, std::string_view expected) const {
    if (!v.is_number()) fail(key, expected, io::detail::describe_json(v));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(key, expected, "a non-finite number");
    return d;
  }
  double positive(const Json& v, const std::string& key) const {
    const double d = number(v, key, "a number > 0");
    if (!(d > 0.0)) fail(key, "a number > 0", io::detail::describe_json(v));
    return d;
  }
  double non_negative(const Json& v, const std::string& key) const {
    const double d = number(v, key, "a number >= 0");
    if (!(d >= 0.0)) fail(key, "a number >= 0", io::detail::describe_json(v));
    return d;
  }
  std::string text(const Json& v, const std::string& key, std::string_view expected = "a non-empty string") const {
    if (!v.is_string() || v.get<std::string>().empty()) fail(key, expected, io::detail::describe_json(v));
    return v.get<std::string>();
  }
  // One of two spellings, each standing for a value: `expected` says what they mean.
  template <class E>
  E either(const Json& v, const std::string& key, std::string_view expected, std::string_view first, E first_value,
           std::string_view second, E second_value) const {
    const std::string text_value = text(v, key, expected);
    if (text_value == first) return first_value;
    if (text_value == second) return second_value;
    fail(key, expected, "\"" + text_value + "\"");
  }
  const Json& object(const Json& v, const std::string& key) const {
    if (!v.is_object()) fail(key, "an object", io::detail::describe_json(v));
    return v;
  }

  // A number for every element, or one number per element: `n` values either way.
  std::vector<double> numbers(const Json& v, const std::string& key, std::size_t n, bool one_allowed,
                              bool non_negative_only, std::string_view what = {}) const {
    const std::string each = non_negative_only ? "numbers >= 0" : "numbers";
    std::string expected = one_allowed ? "a number or an array of " + std::to_string(n) + " " + each
                                       : "an array of " + std::to_string(n) + " " + each;
    if (!what.empty()) expected += " (" + std::string(what) + ")";
    if (one_allowed && v.is_number()) {
      const double d = number(v, key, expected);
      if (non_negative_only && d < 0.0) fail(key, expected, io::detail::describe_json(v));
      return std::vector<double>(n, d);
    }
    if (!v.is_array() || v.size() != n) fail(key, expected, io::detail::describe_json(v));
    std::vector<double> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string at = key + "/" + std::to_string(i);
      const double d = number(v[i], at, non_negative_only ? "a number >= 0" : "a number");
      if (non_negative_only && d < 0.0) fail(at, "a number >= 0", io::detail::describe_json(v[i]));
      out.push_back(d);
    }
    return out;
  }

 private:
  std::string file_;
};

// `object`'s "joint_names" (`at` is the object's pointer).
std::vector<std::string> read_joint_names(const Reader& r, const Json& object, const std::string& at_object = "") {
  const std::string key = at_object + "/joint_names";
  const Json& v = r.require(object, at_object, "joint_names", "an array of joint names");
  if (!v.is_array() || v.empty()) r.fail(key, "a non-empty array of joint names", io::detail::describe_json(v));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = key + "/" + std::to_string(i);
    std::string name = r.text(v[i], at, "a joint name (a non-empty string)");
    const auto seen = std::find(names.begin(), names.end(), name);
    if (seen != names.end()) {
      r.fail(at, "each joint named once",
             "\"" + name + "\" again (also " + key + "/" + std::to_string(seen - names.begin()) + ")");
    }
    names.push_back(std::move(name));
  }
  return names;
}

void read_rates(const Reader& r, const Json& root, DeployConfig& c) {
  c.loop_hz = r.positive(r.require(root, "", "loop_hz", "a number > 0"), "/loop_hz");
  c.policy_hz = r.positive(r.require(root, "", "policy_hz", "a number > 0"), "/policy_hz");
  const std::string expected = "a rate that divides loop_hz (" + format_number(c.loop_hz) + " Hz) a whole number of times";
  if (c.policy_hz > c.loop_hz) {
    r.fail("/policy_hz", expected, format_number(c.policy_hz) + " Hz, faster than the loop");
  }
  const double ratio = c.loop_hz / c.policy_hz;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) > 1e-9 * ratio) {
    r.fail("/policy_hz", expected,
           format_number(c.policy_hz) + " Hz (" + format_number(c.loop_hz) + " / " + format_number(c.policy_hz) + " = " +
               format_number(ratio) + ")");
  }
  c.decimation = static_cast<std::size_t>(whole);
}

void read_action(const Reader& r, const Json& root, DeployConfig& c) {
  const Json& action = r.object(r.require(root, "", "action", "an object with \"scale\""), "/action");
  r.only_keys(action, "/action", {"scale", "clip"});
  c.action_scale = r.numbers(r.require(action, "/action", "scale", "a number or one per joint"), "/action/scale",
                             c.joint_count(), true, false, "one per policy joint");
  if (const Json* clip = r.find(action, "clip")) c.action_clip = r.positive(*clip, "/action/clip");
}

ObsTerm term_by_name(const Reader& r, const Json& v, const std::string& at) {
  std::string names;
  for (const auto t : k_obs_terms) {
    if (!names.empty()) names += ", ";
    names += term_name(t);
  }
  const std::string expected = "a term name (one of " + names + ")";
  const std::string name = r.text(v, at, expected);
  for (const auto t : k_obs_terms) {
    if (term_name(t) == name) return t;
  }
  r.fail(at, expected, "\"" + name + "\"");
}

// A history length: a whole number of frames, at least one.
std::size_t read_history(const Reader& r, const Json& v, const std::string& key) {
  const double h = r.number(v, key, "a whole number >= 1");
  if (!(h >= 1.0) || h != std::floor(h) || h > 1e6) r.fail(key, "a whole number >= 1", io::detail::describe_json(v));
  return static_cast<std::size_t>(h);
}

void read_observation(const Reader& r, const Json& root, DeployConfig& c) {
  const Json& obs = r.object(r.require(root, "", "observation", "an object with \"terms\""), "/observation");
  r.only_keys(obs, "/observation", {"terms", "clip", "history_length", "history_order"});
  if (const Json* h = r.find(obs, "history_length")) c.history_length = read_history(r, *h, "/observation/history_length");
  if (const Json* order = r.find(obs, "history_order")) {
    c.history_order = r.either(*order, "/observation/history_order", "\"term_major\" or \"frame_major\"",
                               "term_major", HistoryOrder::term_major, "frame_major", HistoryOrder::frame_major);
  }
  const Json& terms = r.require(obs, "/observation", "terms", "an array of terms");
  if (!terms.is_array() || terms.empty()) {
    r.fail("/observation/terms", "a non-empty array of terms ({\"name\": ..., \"scale\": ...})", io::detail::describe_json(terms));
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const std::string at = "/observation/terms/" + std::to_string(i);
    const Json& t = r.object(terms[i], at);
    ObsTermConfig term;
    term.term = term_by_name(r, r.require(t, at, "name", "a term name"), at + "/name");
    const std::size_t size = term_size(term.term, c.joint_count());
    if (term.term == ObsTerm::phase) {
      r.only_keys(t, at, {"name", "scale", "period", "clip", "history_length"});
      term.period = r.positive(r.require(t, at, "period", "the phase's period in seconds, > 0"), at + "/period");
    } else {
      r.only_keys(t, at, {"name", "scale", "clip", "history_length"});
    }
    term.history_length = c.history_length;
    if (const Json* h = r.find(t, "history_length")) {
      term.history_length = read_history(r, *h, at + "/history_length");
      if (c.history_order == HistoryOrder::frame_major && term.history_length != c.history_length) {
        r.fail(at + "/history_length",
               "the observation's history_length (" + std::to_string(c.history_length) +
                   ") with history_order \"frame_major\", whose frames hold every term (a term of its own length "
                   "needs \"term_major\")",
               io::detail::describe_json(*h));
      }
    }
    if (const Json* clip = r.find(t, "clip")) {
      const auto v = r.numbers(*clip, at + "/clip", 2, false, false, "lo, hi: the raw values' bounds before the scale");
      if (!(v[0] <= v[1])) {
        r.fail(at + "/clip", "lo <= hi", "[" + format_number(v[0]) + ", " + format_number(v[1]) + "]");
      }
      term.clip = std::array<double, 2>{v[0], v[1]};
    }
    if (const Json* scale = r.find(t, "scale")) {
      term.scale = r.numbers(*scale, at + "/scale", size, true, false,
                             std::string(term_name(term.term)) + " has " + std::to_string(size) + " values");
    } else {
      term.scale.assign(size, 1.0);
    }
    c.terms.push_back(std::move(term));
  }
  if (const Json* clip = r.find(obs, "clip")) c.observation_clip = r.positive(*clip, "/observation/clip");
}

void read_command(const Reader& r, const Json& root, DeployConfig& c) {
  const bool needed = std::any_of(c.terms.begin(), c.terms.end(),
                                  [](const ObsTermConfig& t) { return t.term == ObsTerm::velocity_command; });
  const Json* command = r.find(root, "command");
  if (command == nullptr) {
    if (needed) {
      r.fail("/command", "{\"source\": \"gamepad\" | \"behaviour\", \"max\": [vx, vy, wz]} (the observation has a "
                         "velocity_command term)",
             "no such key");
    }
    return;
  }
  r.object(*command, "/command");
  r.only_keys(*command, "/command", {"source", "max", "min", "sticks"});
  const std::string expected = "\"gamepad\" or \"behaviour\"";
  c.command_source = r.either(r.require(*command, "/command", "source", expected), "/command/source", expected,
                              "gamepad", CommandSource::gamepad, "behaviour", CommandSource::behaviour);
  const Json* max = r.find(*command, "max");
  if (max == nullptr && c.command_source == CommandSource::gamepad) {
    r.fail("/command/max", "an array of 3 numbers >= 0 (vx, vy, wz at full stick)", "no such key");
  }
  if (max != nullptr) {
    const auto v = r.numbers(*max, "/command/max", 3, false, true, "vx, vy, wz");
    std::copy(v.begin(), v.end(), c.command_max.begin());
  } else {
    c.command_max.fill(std::numeric_limits<double>::infinity());  // behaviour without a limit
  }
  for (std::size_t i = 0; i < 3; ++i) c.command_min[i] = -c.command_max[i];
  if (const Json* min = r.find(*command, "min")) {
    if (max == nullptr) r.fail("/command/min", "\"min\" together with \"max\"", "\"min\" alone");
    // A zero command must stay reachable: with min above 0 the robot could never be told to stand.
    const auto v = r.numbers(*min, "/command/min", 3, false, false, "vx, vy, wz: numbers <= 0");
    for (std::size_t i = 0; i < 3; ++i) {
      if (!(v[i] <= 0.0)) {
        r.fail("/command/min/" + std::to_string(i), "a number <= 0 (a zero command must stay within [min, max])",
               format_number(v[i]));
      }
      c.command_min[i] = v[i];
    }
  }
  if (const Json* sticks = r.find(*command, "sticks")) {
    c.sticks = r.either(*sticks, "/command/sticks",
                        "\"scaled\" (velocity = stick * max) or \"clamped\" (velocity = the stick, within [min, max])",
                        "scaled", StickMapping::scaled, "clamped", StickMapping::clamped);
  }
}

void read_hold(const Reader& r, const Json& root, DeployConfig& c) {
  const Json* hold = r.find(root, "hold");
  if (hold == nullptr) return;
  r.object(*hold, "/hold");
  r.only_keys(*hold, "/hold", {"joint_names", "pose", "kp", "kd"});
  auto& h = c.hold;
  h.joint_names = read_joint_names(r, *hold, "/hold");
  for (std::size_t i = 0; i < h.joint_names.size(); ++i) {
    const auto driven = std::find(c.joint_names.begin(), c.joint_names.end(), h.joint_names[i]);
    if (driven != c.joint_names.end()) {
      r.fail("/hold/joint_names/" + std::to_string(i), "a joint the policy does not drive",
             "\"" + h.joint_names[i] + "\", also /joint_names/" + std::to_string(driven - c.joint_names.begin()));
    }
  }
  const std::size_t n = h.joint_names.size();
  h.pose = r.numbers(r.require(*hold, "/hold", "pose", "a number or one angle per held joint"), "/hold/pose", n, true,
                     false, "rad, one per held joint");
  h.kp = r.numbers(r.require(*hold, "/hold", "kp", "a number or one per held joint"), "/hold/kp", n, true, true,
                   "one per held joint");
  h.kd = r.numbers(r.require(*hold, "/hold", "kd", "a number or one per held joint"), "/hold/kd", n, true, true,
                   "one per held joint");
}

void read_recurrent(const Reader& r, const Json& root, DeployConfig& c) {
  const Json* rec = r.find(root, "recurrent");
  if (rec == nullptr) return;
  const std::string expected = "an array of {\"input\": ..., \"output\": ...}";
  if (!rec->is_array()) r.fail("/recurrent", expected, io::detail::describe_json(*rec));
  for (std::size_t i = 0; i < rec->size(); ++i) {
    const std::string at = "/recurrent/" + std::to_string(i);
    const Json& pair = r.object((*rec)[i], at);
    r.only_keys(pair, at, {"input", "output"});
    RecurrentPair p;
    p.input = r.text(r.require(pair, at, "input", "a model input's name"), at + "/input", "a model input's name");
    p.output = r.text(r.require(pair, at, "output", "a model output's name"), at + "/output", "a model output's name");
    c.recurrent.push_back(std::move(p));
  }
}

}  // namespace

DeployConfig parse_deploy(std::string_view text, const std::filesystem::path& file) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const auto upto = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    throw PolicyError(file.string() + ":" + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  } catch (const Json::out_of_range& e) {
    throw PolicyError(file.string() + ": not valid JSON (a number does not fit in a double: " + e.what() + ")");
  }
  const Reader r(file);
  if (!root.is_object()) {
    throw PolicyError(file.string() + ": expected a JSON object (a deploy file) at the top level, found " + io::detail::describe_json(root));
  }
  r.only_keys(root, "", {"policy", "input", "output", "recurrent", "loop_hz", "policy_hz", "robot", "joint_names",
                        "default_pose", "kp", "kd", "hold", "action", "observation", "command", "blend_in",
                        "target_rate"});

  DeployConfig c;
  c.file = file;
  if (const Json* policy = r.find(root, "policy")) {
    const std::filesystem::path p = r.text(*policy, "/policy", "the ONNX file's name (a non-empty string)");
    c.policy = p.is_absolute() ? p : file.parent_path() / p;
  }
  if (const Json* v = r.find(root, "input")) c.input = r.text(*v, "/input", "the observation input's name");
  if (const Json* v = r.find(root, "output")) c.output = r.text(*v, "/output", "the action output's name");
  if (const Json* v = r.find(root, "robot")) c.robot = r.text(*v, "/robot", "the robot model's name (a non-empty string)");
  read_recurrent(r, root, c);
  read_rates(r, root, c);

  c.joint_names = read_joint_names(r, root);
  const std::size_t n = c.joint_count();
  c.default_pose = r.numbers(r.require(root, "", "default_pose", "one angle per joint"), "/default_pose", n, false,
                             false, "rad, one per policy joint");
  c.kp = r.numbers(r.require(root, "", "kp", "a number or one per joint"), "/kp", n, true, true, "one per policy joint");
  c.kd = r.numbers(r.require(root, "", "kd", "a number or one per joint"), "/kd", n, true, true, "one per policy joint");
  read_hold(r, root, c);

  read_action(r, root, c);
  read_observation(r, root, c);
  read_command(r, root, c);
  c.blend_in = r.non_negative(r.require(root, "", "blend_in", "seconds >= 0"), "/blend_in");
  if (const Json* rate = r.find(root, "target_rate")) {
    c.target_rate = r.either(*rate, "/target_rate",
                             "\"limited\" (the command guard's max_target_rate slows the targets) or \"as_computed\" "
                             "(each inference's targets are sent as a step)",
                             "limited", TargetRate::limited, "as_computed", TargetRate::as_computed);
  }
  return c;
}

DeployConfig load_deploy(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throw PolicyError(file.string() + ": is a folder, expected a deploy file (JSON)");
  }
  if (!std::filesystem::exists(file, ec)) throw PolicyError(file.string() + ": deploy file not found");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw PolicyError(file.string() + ": cannot be opened for reading");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_deploy(text, file);
}

}  // namespace praxis::policy
