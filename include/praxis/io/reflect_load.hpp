#pragma once
// Parameters of any node from JSON, by field name. Declare the parameter struct with
// BOOST_HANA_DEFINE_STRUCT (or adapt it with BOOST_HANA_ADAPT_STRUCT) and call
//   auto params = praxis::io::load_struct<WalkParams>("params.json");
//
// Rules (docs/parameters.md):
// - A key that is absent keeps the member's current value (its default for load_struct), so a file
//   only needs the values that differ. A key the struct does not have is an error listing the
//   known keys: a misspelt parameter must not silently keep its default.
// - Every error is a ParamError naming the file, the key path and the expected type, e.g.
//     params.json: key "gains.kp[3]": expected a number, found a string ("fast")
// - Nothing is half-applied: the file is read into a copy, assigned only when all of it is valid.
//
// The JSON library stays behind src/io/reflect.cpp: this header only forward-declares its types.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "praxis/io/params.hpp"
#include "praxis/io/reflect_kinds.hpp"

namespace praxis::io {

namespace detail {

// Where the loader is: the file name and the key path ("walk.gains.kp[3]") for error messages.
struct ReadContext {
  std::string_view file;
  std::string path;
};

// The non-template half, in src/io/reflect.cpp. Each checks the JSON kind and throws a ParamError
// naming ctx.file, ctx.path, `expected` and what was found.
[[noreturn]] void fail(const ReadContext& ctx, std::string_view expected, const nlohmann::json& found);
[[noreturn]] void fail_text(const ReadContext& ctx, std::string_view expected, std::string_view found);
double read_number(const nlohmann::json& json, const ReadContext& ctx, std::string_view expected);
std::int64_t read_signed(const nlohmann::json& json, const ReadContext& ctx, std::int64_t min,
                         std::int64_t max);
std::uint64_t read_unsigned(const nlohmann::json& json, const ReadContext& ctx, std::uint64_t max);
bool read_bool(const nlohmann::json& json, const ReadContext& ctx);
std::string read_string(const nlohmann::json& json, const ReadContext& ctx, std::string_view expected);
bool is_null(const nlohmann::json& json);
// Checks that json is an array of exactly `size` elements.
void expect_array(const nlohmann::json& json, const ReadContext& ctx, std::size_t size,
                  std::string_view element_plural);
const nlohmann::json& array_element(const nlohmann::json& json, std::size_t index);
// Checks that json is an array (of any length); returns its length.
std::size_t expect_list(const nlohmann::json& json, const ReadContext& ctx, std::string_view element_plural);
bool is_object(const nlohmann::json& json);
// The members of an object whose keys are indices 0..size-1 (a ParamError names any other key).
std::vector<std::pair<std::size_t, const nlohmann::json*>> indexed_elements(const nlohmann::json& json,
                                                                            const ReadContext& ctx, std::size_t size,
                                                                            std::string_view element_plural);
// Checks that json is an object whose keys are all in `known`.
void expect_object(const nlohmann::json& json, const ReadContext& ctx,
                   std::span<const std::string_view> known);
const nlohmann::json* find_member(const nlohmann::json& json, std::string_view key);

// Reads and parses `file` (ParamError if it is missing, unreadable or not JSON) and hands the
// document to `use`, which must not keep it.
using DocumentUser = void (*)(const nlohmann::json& document, std::string_view file, void* state);
void with_json_file(const std::filesystem::path& file, DocumentUser use, void* state);

template <class T>
constexpr std::string_view plural() {
  if constexpr (Boolean<T>) return "booleans";
  else if constexpr (std::is_floating_point_v<T> || Duration<T> || TimePoint<T>) return "numbers";
  else if constexpr (std::is_integral_v<T> || (Enum<T> && !NamedEnum<T>)) return "integers";
  else if constexpr (String<T> || NamedEnum<T>) return "strings";
  else if constexpr (HanaStruct<T>) return "objects";
  else if constexpr (Sequence<T>) return "arrays";
  else return "values";
}

template <class E>
[[noreturn]] void fail_enum_name(const ReadContext& ctx, std::string_view found) {
  std::string expected = "one of";
  const char* separator = " ";
  for (const auto& [value, name] : EnumNames<E>::values) {
    expected += separator;
    expected += '"';
    expected += name;
    expected += '"';
    separator = ", ";
  }
  fail_text(ctx, expected, "\"" + std::string(found) + "\"");
}

template <class T>
void read_value(const nlohmann::json& json, T& out, ReadContext& ctx) {
  if constexpr (Boolean<T>) {
    out = read_bool(json, ctx);
  } else if constexpr (std::is_floating_point_v<T>) {
    const double v = read_number(json, ctx, "a number");
    if (std::abs(v) > static_cast<double>(std::numeric_limits<T>::max())) {
      fail(ctx, "a number within the range of float", json);
    }
    out = static_cast<T>(v);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    out = static_cast<T>(read_signed(json, ctx, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
  } else if constexpr (std::is_integral_v<T>) {
    out = static_cast<T>(read_unsigned(json, ctx, std::numeric_limits<T>::max()));
  } else if constexpr (NamedEnum<T>) {
    const std::string name = read_string(json, ctx, "the name of a value");
    for (const auto& [value, known] : EnumNames<T>::values) {
      if (known == name) {
        out = value;
        return;
      }
    }
    fail_enum_name<T>(ctx, name);
  } else if constexpr (Enum<T>) {
    static_assert(FixedEnum<T>,
                  "praxis::io: an enum read as a number needs a fixed underlying type (enum class E, or "
                  "enum E : int); a plain enum cannot hold every integer, so declare EnumNames<E> to read it "
                  "by name instead");
    std::underlying_type_t<T> raw{};
    read_value(json, raw, ctx);
    out = static_cast<T>(raw);
  } else if constexpr (String<T>) {
    out = read_string(json, ctx, "a string");
  } else if constexpr (Duration<T>) {
    using rep = typename T::rep;
    const double seconds = read_number(json, ctx, "a number of seconds");
    const double ticks =
        seconds * static_cast<double>(T::period::den) / static_cast<double>(T::period::num);
    if constexpr (std::is_floating_point_v<rep>) {
      // Finite seconds can still overflow the ticks (1e300 s in float milliseconds): converting an
      // out-of-range double to float is undefined, and an infinite duration is no setting.
      if (!std::isfinite(ticks) || std::abs(ticks) > static_cast<double>(std::numeric_limits<rep>::max())) {
        fail(ctx, "a number of seconds within the duration's range", json);
      }
      out = T(static_cast<rep>(ticks));
    } else {
      const double rounded = std::round(ticks);
      // max() as a double may round up (2^63 for int64_t): compare with >= so the cast is defined.
      if (rounded >= static_cast<double>(std::numeric_limits<rep>::max()) ||
          rounded < static_cast<double>(std::numeric_limits<rep>::min())) {
        fail(ctx, "a number of seconds within the duration's range", json);
      }
      out = T(static_cast<rep>(rounded));
    }
  } else if constexpr (TimePoint<T>) {
    typename T::duration since_epoch{};
    read_value(json, since_epoch, ctx);
    out = T(since_epoch);
  } else if constexpr (Optional<T>) {
    if (is_null(json)) {
      out.reset();
    } else {
      auto inner = out.value_or(typename T::value_type{});
      read_value(json, inner, ctx);
      out = std::move(inner);
    }
  } else if constexpr (Sequence<T>) {
    using traits = sequence_traits<T>;
    if (is_object(json)) {
      // Some elements by index ({"1": ...}, what `--set a.b[1].c=...` makes): the others keep theirs.
      const auto size = ctx.path.size();
      for (const auto& [i, value] : indexed_elements(json, ctx, traits::size, plural<typename traits::element>())) {
        ctx.path += '[';
        ctx.path += std::to_string(i);
        ctx.path += ']';
        read_value(*value, out[static_cast<decltype(out.size())>(i)], ctx);
        ctx.path.resize(size);
      }
      return;
    }
    expect_array(json, ctx, traits::size, plural<typename traits::element>());
    const auto size = ctx.path.size();
    for (std::size_t i = 0; i < traits::size; ++i) {
      ctx.path += '[';
      ctx.path += std::to_string(i);
      ctx.path += ']';
      read_value(array_element(json, i), out[static_cast<decltype(out.size())>(i)], ctx);
      ctx.path.resize(size);
    }
  } else if constexpr (List<T>) {
    using element = typename T::value_type;
    const std::size_t count = expect_list(json, ctx, plural<element>());
    T list(count);
    const auto size = ctx.path.size();
    for (std::size_t i = 0; i < count; ++i) {
      ctx.path += '[';
      ctx.path += std::to_string(i);
      ctx.path += ']';
      read_value(array_element(json, i), list[i], ctx);
      ctx.path.resize(size);
    }
    out = std::move(list);
  } else if constexpr (HanaStruct<T>) {
    static constexpr auto known = boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
      return std::array<std::string_view, sizeof...(pair)>{member_name(pair)...};
    });
    expect_object(json, ctx, known);
    for_each_member(out, [&](std::string_view name, auto& member) {
      const nlohmann::json* value = find_member(json, name);
      if (value == nullptr) return;  // absent: keeps the current value
      const auto size = ctx.path.size();
      if (!ctx.path.empty()) ctx.path += '.';
      ctx.path += name;
      read_value(*value, member, ctx);
      ctx.path.resize(size);
    });
  } else {
    (void)sizeof(UnsupportedField<T>);
  }
}

}  // namespace detail

namespace detail {
// "a.b.c=value" settings as one JSON document {"a": {"b": {"c": value}}}: the value is JSON when it
// parses as JSON (numbers, true/false, null, quoted strings, arrays), else the text as a string, so
// `wire.topics.velocity=gr2/velocity_cmd` needs no quotes. A setting without '=' or with an empty
// key is a ParamError naming `origin` and the setting.
void with_overrides(std::span<const std::string> settings, std::string_view origin, DocumentUser use, void* state);
}  // namespace detail

// Reads `json` (the value for T; `key_prefix` is its key path in `file`, used only in messages)
// into `out`. Keys absent from `json` keep out's current values. Throws ParamError; on error `out`
// is unchanged.
template <class T>
void load_struct_into(T& out, const nlohmann::json& json, std::string_view file,
                      std::string_view key_prefix = {}) {
  static_assert(detail::Field<T>, "praxis::io::load_struct_into: T must be a supported field type "
                                  "(usually a struct declared with BOOST_HANA_DEFINE_STRUCT)");
  T copy = out;
  detail::ReadContext ctx{file, std::string(key_prefix)};
  detail::read_value(json, copy, ctx);
  out = std::move(copy);
}

// Reads the JSON file into `out`, over its current values. Throws ParamError; on error `out` is
// unchanged.
template <class T>
void load_struct_into(T& out, const std::filesystem::path& file) {
  T copy = out;
  detail::with_json_file(
      file,
      [](const nlohmann::json& document, std::string_view name, void* state) {
        load_struct_into(*static_cast<T*>(state), document, name);
      },
      &copy);
  out = std::move(copy);
}

// Applies command-line style settings ("wire.types.aurora_state=aurora_state", "link_timeout=0.3")
// over out's current values, all or nothing, with the same rules and messages as a file; `origin`
// names their source in messages (e.g. "--set"). Later settings of the same key win.
template <class T>
void apply_settings(T& out, std::span<const std::string> settings, std::string_view origin) {
  T copy = out;
  detail::with_overrides(
      settings, origin,
      [](const nlohmann::json& document, std::string_view name, void* state) {
        load_struct_into(*static_cast<T*>(state), document, name);
      },
      &copy);
  out = std::move(copy);
}

// A default-constructed T with the values of the JSON file applied. Throws ParamError.
template <class T>
[[nodiscard]] T load_struct(const std::filesystem::path& file) {
  T out{};
  load_struct_into(out, file);
  return out;
}

}  // namespace praxis::io
