#pragma once
// Any reflected struct as JSON text, in the shape reflect_load.hpp reads back: a value saved here and
// loaded with load_struct_into() is the value saved (durations as seconds, enums with EnumNames by
// name and others by number, an empty optional as null). For handing a configuration to another
// process (praxis-guard takes the backend's options this way); off the cycle, it allocates.
//
//   std::string text = praxis::io::to_json_text(options);

#include <cstdio>
#include <string>
#include <type_traits>

#include "praxis/io/reflect_kinds.hpp"

namespace praxis::io {

namespace detail {

inline void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

// A double that reads back to the same value (17 significant digits); JSON has no NaN or infinity.
inline void append_json_number(std::string& out, double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  out += text;
}

template <class T>
void append_json(std::string& out, const T& v) {
  if constexpr (Boolean<T>) {
    out += v ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<T>) {
    append_json_number(out, static_cast<double>(v));
  } else if constexpr (std::is_integral_v<T>) {
    out += std::to_string(v);
  } else if constexpr (NamedEnum<T>) {
    for (const auto& [value, name] : EnumNames<T>::values) {
      if (value == v) {
        append_json_string(out, name);
        return;
      }
    }
    out += "null";  // a value without a name cannot be read back; null says so where it is read
  } else if constexpr (Enum<T>) {
    out += std::to_string(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (String<T>) {
    append_json_string(out, v);
  } else if constexpr (Duration<T>) {
    append_json_number(out, static_cast<double>(v.count()) * static_cast<double>(T::period::num) /
                                static_cast<double>(T::period::den));
  } else if constexpr (TimePoint<T>) {
    append_json(out, v.time_since_epoch());
  } else if constexpr (Optional<T>) {
    if (v) {
      append_json(out, *v);
    } else {
      out += "null";
    }
  } else if constexpr (Sequence<T> || List<T>) {
    out += '[';
    for (decltype(v.size()) i = 0; i < v.size(); ++i) {
      if (i > 0) out += ',';
      append_json(out, v[i]);
    }
    out += ']';
  } else if constexpr (HanaStruct<T>) {
    out += '{';
    bool first = true;
    for_each_member(v, [&](std::string_view name, const auto& member) {
      if (!first) out += ',';
      first = false;
      append_json_string(out, name);
      out += ':';
      append_json(out, member);
    });
    out += '}';
  } else {
    (void)sizeof(UnsupportedField<T>);
  }
}

}  // namespace detail

template <class T>
[[nodiscard]] std::string to_json_text(const T& value) {
  static_assert(detail::Field<T>, "praxis::io::to_json_text: T must be a supported field type "
                                  "(usually a struct declared with BOOST_HANA_DEFINE_STRUCT)");
  std::string out;
  detail::append_json(out, value);
  return out;
}

}  // namespace praxis::io
