#include "source_doc.hpp"

#include <algorithm>
#include <cmath>

#include "praxis/io/detail/json_text.hpp"

namespace praxis::policy_tool {

namespace {

std::string quoted_list(std::initializer_list<std::string_view> names) {
  std::string out;
  for (const auto n : names) out += (out.empty() ? "\"" : ", \"") + std::string(n) + "\"";
  return out;
}

}  // namespace

void SourceDoc::fail(const std::string& key, std::string_view expected, std::string_view found) const {
  throw policy::PolicyError(name() + ": key \"" + key + "\": expected " + std::string(expected) + ", found " +
                            std::string(found));
}

void SourceDoc::refuse(const std::string& key, std::string_view message) const {
  throw policy::PolicyError(name() + ": key \"" + key + "\": " + std::string(message));
}

std::string SourceDoc::found(const Json& value) {
  if (value.is_object() && value.contains("__python_slice__")) return "a Python slice";
  return io::detail::describe_json(nlohmann::json(value));
}

const Json* SourceDoc::find(const Json& object, std::string_view key) const {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

const Json& SourceDoc::require(const Json& object, const std::string& at, std::string_view key,
                               std::string_view expected) const {
  const Json* v = find(object, key);
  if (v == nullptr) fail(at + "/" + std::string(key), expected, "no such key");
  return *v;
}

const Json& SourceDoc::object(const Json& value, const std::string& key) const {
  if (!value.is_object() || value.contains("__python_slice__")) fail(key, "a mapping", found(value));
  return value;
}

void SourceDoc::only_keys(const Json& object, const std::string& at,
                          std::initializer_list<std::string_view> allowed) const {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
      fail(at + "/" + it.key(), "one of the keys praxis maps (" + quoted_list(allowed) + ")",
           "a key praxis does not map");
    }
  }
}

double SourceDoc::number(const Json& value, const std::string& key, std::string_view expected) const {
  if (!value.is_number()) fail(key, expected, found(value));
  const double d = value.get<double>();
  if (!std::isfinite(d)) fail(key, expected, "a non-finite number");
  return d;
}

double SourceDoc::positive(const Json& value, const std::string& key) const {
  const double d = number(value, key, "a number > 0");
  if (!(d > 0.0)) fail(key, "a number > 0", found(value));
  return d;
}

std::string SourceDoc::text(const Json& value, const std::string& key, std::string_view expected) const {
  if (!value.is_string()) fail(key, expected, found(value));
  return value.get<std::string>();
}

std::size_t SourceDoc::whole(const Json& value, const std::string& key, std::string_view expected) const {
  const double d = number(value, key, expected);
  if (d < 0.0 || std::floor(d) != d || d > 1e9) fail(key, expected, found(value));
  return static_cast<std::size_t>(d);
}

std::vector<double> SourceDoc::numbers(const Json& value, const std::string& key, std::size_t count,
                                       std::string_view what, bool non_negative) const {
  const std::string each = non_negative ? "numbers >= 0" : "numbers";
  std::string expected = count == 0 ? "a list of " + each : "a list of " + std::to_string(count) + " " + each;
  if (!what.empty()) expected += " (" + std::string(what) + ")";
  if (!value.is_array() || value.empty() || (count != 0 && value.size() != count)) fail(key, expected, found(value));
  std::vector<double> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string at = key + "/" + std::to_string(i);
    const double d = number(value[i], at, non_negative ? "a number >= 0" : "a number");
    if (non_negative && d < 0.0) fail(at, "a number >= 0", found(value[i]));
    out.push_back(d);
  }
  return out;
}

std::vector<std::size_t> SourceDoc::indices(const Json& value, const std::string& key, std::string_view what) const {
  const std::string expected = "a list of indices (whole numbers >= 0: " + std::string(what) + ")";
  if (!value.is_array() || value.empty()) fail(key, expected, found(value));
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    out.push_back(whole(value[i], key + "/" + std::to_string(i), "an index (a whole number >= 0)"));
  }
  return out;
}

}  // namespace praxis::policy_tool
