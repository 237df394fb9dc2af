#pragma once
// Compile-time type names, taken from the compiler's own function signature string. Used for node
// names in introspection and for telling two port types apart. Names, not addresses: g++ does not
// accept comparing the addresses of two different objects as a constant expression under
// -fsanitize=address, so a graph has to compile without any address-based identity.

#include <string_view>

namespace praxis::detail {

template <class T>
constexpr std::string_view raw_type_name() {
#if defined(__clang__) || defined(__GNUC__)
  constexpr std::string_view sig = __PRETTY_FUNCTION__;
  // g++: "... raw_type_name() [with T = X; std::string_view = ...]"; clang: "... [T = X]"
  constexpr std::string_view key = "T = ";
  constexpr auto begin = sig.find(key) + key.size();
  constexpr auto semi = sig.find(';', begin);
  constexpr auto end = semi == std::string_view::npos ? sig.rfind(']') : semi;
  return sig.substr(begin, end - begin);
#else
#error "praxis needs g++ or clang++ (type names come from __PRETTY_FUNCTION__)"
#endif
}

// Without namespace qualification for plain types ("praxis::demo::Imu" -> "Imu"); templates keep
// their full spelling because stripping inside the argument list would lose information.
constexpr std::string_view short_type_name(std::string_view full) {
  const auto template_open = full.find('<');
  const auto head = full.substr(0, template_open);
  const auto last_scope = head.rfind("::");
  if (last_scope == std::string_view::npos) return full;
  return full.substr(last_scope + 2);
}

template <class T>
inline constexpr std::string_view type_name_v = raw_type_name<T>();

}  // namespace praxis::detail
