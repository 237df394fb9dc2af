// The non-template half of the reflected JSON loader: every check of a JSON value's kind and every
// error message, so the header only needs nlohmann's forward declarations.

#include <charconv>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "praxis/io/detail/json_text.hpp"
#include "praxis/io/reflect_load.hpp"

namespace praxis::io::detail {

std::string describe_json(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::string: {
      auto text = v.get<std::string>();
      if (text.size() > 40) text = text.substr(0, 37) + "...";
      return "a string (\"" + text + "\")";
    }
    case nlohmann::json::value_t::array: return "an array of " + std::to_string(v.size());
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return v.dump();
    default: return "an unsupported value";
  }
}

void fail_text(const ReadContext& ctx, std::string_view expected, std::string_view found) {
  std::string where(ctx.file);
  if (ctx.path.empty()) {
    where += ": top level";
  } else {
    where += ": key \"" + ctx.path + "\"";
  }
  throw ParamError(where + ": expected " + std::string(expected) + ", found " + std::string(found));
}

void fail(const ReadContext& ctx, std::string_view expected, const nlohmann::json& found) {
  fail_text(ctx, expected, describe_json(found));
}

double read_number(const nlohmann::json& json, const ReadContext& ctx, std::string_view expected) {
  if (!json.is_number()) fail(ctx, expected, json);
  const double v = json.get<double>();
  if (!std::isfinite(v)) fail(ctx, expected, json);
  return v;
}

namespace {

std::string integer_range(std::string_view lo, std::string_view hi) {
  return "an integer from " + std::string(lo) + " to " + std::string(hi);
}

// A JSON number that is a whole number, as a double (2.0 counts, 2.5 does not).
bool whole(const nlohmann::json& json) {
  if (json.is_number_integer()) return true;
  if (!json.is_number_float()) return false;
  const double v = json.get<double>();
  return std::isfinite(v) && std::floor(v) == v;
}

}  // namespace

std::int64_t read_signed(const nlohmann::json& json, const ReadContext& ctx, std::int64_t min,
                         std::int64_t max) {
  const auto expected = integer_range(std::to_string(min), std::to_string(max));
  if (!whole(json)) fail(ctx, expected, json);
  if (json.is_number_unsigned()) {
    const auto v = json.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(max)) fail(ctx, expected, json);
    return static_cast<std::int64_t>(v);
  }
  if (json.is_number_float()) {
    // 2^63 is the first double beyond int64_t; compare before converting so the cast is defined.
    const double v = json.get<double>();
    if (v < -9223372036854775808.0 || v >= 9223372036854775808.0) fail(ctx, expected, json);
    const auto i = static_cast<std::int64_t>(v);
    if (i < min || i > max) fail(ctx, expected, json);
    return i;
  }
  const auto v = json.get<std::int64_t>();
  if (v < min || v > max) fail(ctx, expected, json);
  return v;
}

std::uint64_t read_unsigned(const nlohmann::json& json, const ReadContext& ctx, std::uint64_t max) {
  const auto expected = integer_range("0", std::to_string(max));
  if (!whole(json)) fail(ctx, expected, json);
  if (json.is_number_float()) {
    const double v = json.get<double>();
    // 2^64 is the first double beyond uint64_t.
    if (v < 0 || v >= 18446744073709551616.0) fail(ctx, expected, json);
    const auto u = static_cast<std::uint64_t>(v);
    if (u > max) fail(ctx, expected, json);
    return u;
  }
  if (json.is_number_unsigned()) {
    const auto v = json.get<std::uint64_t>();
    if (v > max) fail(ctx, expected, json);
    return v;
  }
  const auto v = json.get<std::int64_t>();
  if (v < 0 || static_cast<std::uint64_t>(v) > max) fail(ctx, expected, json);
  return static_cast<std::uint64_t>(v);
}

bool read_bool(const nlohmann::json& json, const ReadContext& ctx) {
  if (!json.is_boolean()) fail(ctx, "true or false", json);
  return json.get<bool>();
}

std::string read_string(const nlohmann::json& json, const ReadContext& ctx, std::string_view expected) {
  if (!json.is_string()) fail(ctx, expected, json);
  return json.get<std::string>();
}

bool is_null(const nlohmann::json& json) { return json.is_null(); }

void expect_array(const nlohmann::json& json, const ReadContext& ctx, std::size_t size,
                  std::string_view element_plural) {
  if (!json.is_array() || json.size() != size) {
    fail(ctx, "an array of " + std::to_string(size) + " " + std::string(element_plural), json);
  }
}

const nlohmann::json& array_element(const nlohmann::json& json, std::size_t index) { return json[index]; }

std::size_t expect_list(const nlohmann::json& json, const ReadContext& ctx, std::string_view element_plural) {
  if (!json.is_array()) fail(ctx, "an array of " + std::string(element_plural), json);
  return json.size();
}

bool is_object(const nlohmann::json& json) { return json.is_object(); }

std::vector<std::pair<std::size_t, const nlohmann::json*>> indexed_elements(const nlohmann::json& json,
                                                                            const ReadContext& ctx, std::size_t size,
                                                                            std::string_view element_plural) {
  std::vector<std::pair<std::size_t, const nlohmann::json*>> out;
  for (const auto& [key, value] : json.items()) {
    std::size_t i = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), i);
    if (key.empty() || ec != std::errc{} || end != key.data() + key.size() || i >= size) {
      fail_text(ctx,
                "a list of " + std::to_string(size) + " " + std::string(element_plural) + ", or an object of some of them by index 0.." +
                    std::to_string(size - 1),
                "the key \"" + key + "\"");
    }
    out.emplace_back(i, &value);
  }
  return out;
}

void expect_object(const nlohmann::json& json, const ReadContext& ctx,
                   std::span<const std::string_view> known) {
  auto known_list = [&] {
    std::string list;
    for (const auto key : known) {
      if (!list.empty()) list += ", ";
      list += key;
    }
    return list.empty() ? std::string("none") : list;
  };
  if (!json.is_object()) fail(ctx, "an object with the keys " + known_list(), json);
  for (const auto& [key, value] : json.items()) {
    if (std::find(known.begin(), known.end(), std::string_view(key)) != known.end()) continue;
    const std::string path = ctx.path.empty() ? key : ctx.path + "." + key;
    const std::string where = ctx.path.empty() ? std::string("the top level") : "\"" + ctx.path + "\"";
    throw ParamError(std::string(ctx.file) + ": key \"" + path + "\": unknown key (known keys at " + where +
                     ": " + known_list() + ")");
  }
}

const nlohmann::json* find_member(const nlohmann::json& json, std::string_view key) {
  const auto it = json.find(key);
  return it == json.end() ? nullptr : &*it;
}

void with_json_file(const std::filesystem::path& file, DocumentUser use, void* state) {
  const std::string name = file.string();
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw ParamError(name + ": parameter file not found");
  if (std::filesystem::is_directory(file, ec)) {
    throw ParamError(name + ": is a folder, expected a JSON parameter file");
  }
  std::ifstream in(file);
  if (!in) throw ParamError(name + ": cannot be opened for reading");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is one past the offending character; a line number is what an editor needs.
    const auto upto = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n');
    throw ParamError(name + ":" + std::to_string(line) + ": not valid JSON (" + e.what() + ")");
  } catch (const nlohmann::json::out_of_range& e) {
    // The parser's other failure: a number beyond a double's range (1e999), which it reports by value.
    throw ParamError(name + ": not valid JSON (a number does not fit in a double: " + e.what() + ")");
  }
  use(document, name, state);
}

void with_overrides(std::span<const std::string> settings, std::string_view origin, DocumentUser use, void* state) {
  nlohmann::json document = nlohmann::json::object();
  for (const std::string& setting : settings) {
    const auto eq = setting.find('=');
    // An element of a fixed-size list by index: a.b[1].c is a.b.1.c (the reader takes index keys).
    std::string key = setting.substr(0, eq);
    for (std::size_t open = key.find('['); open != std::string::npos; open = key.find('[', open)) {
      const auto close = key.find(']', open);
      if (close == std::string::npos) break;  // left as it is: an unknown key names it
      key = key.substr(0, open) + "." + key.substr(open + 1, close - open - 1) + key.substr(close + 1);
    }
    if (eq == std::string::npos || key.empty() || key.front() == '.' || key.back() == '.' ||
        key.find("..") != std::string::npos) {
      throw ParamError(std::string(origin) + ": \"" + setting + "\": expected KEY=VALUE, e.g. link_timeout=0.3 or " +
                       "wire.types.aurora_state=aurora_state");
    }
    const std::string text = setting.substr(eq + 1);
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      value = text;  // not JSON: the text itself (a topic or type name)
    }
    nlohmann::json* at = &document;
    std::size_t from = 0;
    while (true) {
      const auto dot = key.find('.', from);
      const std::string part = key.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
      if (dot == std::string::npos) {
        (*at)[part] = value;
        break;
      }
      nlohmann::json& next = (*at)[part];
      if (!next.is_object()) next = nlohmann::json::object();  // a later, deeper key replaces a value
      at = &next;
      from = dot + 1;
    }
  }
  use(document, origin, state);
}

}  // namespace praxis::io::detail
