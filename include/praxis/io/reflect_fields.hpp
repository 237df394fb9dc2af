#pragma once
// A port's value (or any reflected struct) as a flat row of numbers with named columns, for logs and
// recordings. field_names<T>() gives the column names once, off the cycle; for_each_field_value()
// walks a value in the same order without allocating, so a recorder fed from the cycle can copy
// the numbers into a preallocated buffer.
//
// Flattening rules: nested structs join names with '.', arrays and Eigen vectors append "[i]",
// bools are 0/1, enums their underlying number, durations seconds, time points seconds since their
// clock's epoch, an empty std::optional NaN in each of its columns. std::string members are not
// numbers and are left out of both.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/io/reflect_kinds.hpp"

namespace praxis::io {

// Whether T flattens by the rules above (field_count<T>() and the rest compile for it): what a
// recorder checks before it offers a port as CSV.
template <class T>
constexpr bool flattenable() {
  if constexpr (detail::Number<T> || detail::Boolean<T> || detail::Enum<T> || detail::Duration<T> ||
                detail::TimePoint<T> || detail::String<T>) {
    return true;
  } else if constexpr (detail::Optional<T>) {
    return flattenable<typename T::value_type>();
  } else if constexpr (detail::Sequence<T>) {
    return flattenable<typename detail::sequence_traits<T>::element>();
  } else if constexpr (detail::HanaStruct<T>) {
    return boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
      return (true && ... && flattenable<detail::member_t<T, decltype(pair)>>());
    });
  } else {
    return false;
  }
}

// Number of columns of T (its flattened numeric leaves).
template <class T>
constexpr std::size_t field_count() {
  if constexpr (detail::Number<T> || detail::Boolean<T> || detail::Enum<T> || detail::Duration<T> ||
                detail::TimePoint<T>) {
    return 1;
  } else if constexpr (detail::String<T>) {
    return 0;
  } else if constexpr (detail::Optional<T>) {
    return field_count<typename T::value_type>();
  } else if constexpr (detail::Sequence<T>) {
    using traits = detail::sequence_traits<T>;
    return traits::size * field_count<typename traits::element>();
  } else if constexpr (detail::HanaStruct<T>) {
    return boost::hana::unpack(boost::hana::accessors<T>(), [](auto... pair) {
      return (std::size_t{0} + ... + field_count<detail::member_t<T, decltype(pair)>>());
    });
  } else {
    (void)sizeof(detail::UnsupportedField<T>);
    return 0;
  }
}

namespace detail {

template <class T>
void append_names(std::string& prefix, std::vector<std::string>& out) {
  if constexpr (String<T>) {
  } else if constexpr (Optional<T>) {
    append_names<typename T::value_type>(prefix, out);
  } else if constexpr (Sequence<T>) {
    const auto size = prefix.size();
    for (std::size_t i = 0; i < sequence_traits<T>::size; ++i) {
      prefix += '[';
      prefix += std::to_string(i);
      prefix += ']';
      append_names<typename sequence_traits<T>::element>(prefix, out);
      prefix.resize(size);
    }
  } else if constexpr (HanaStruct<T>) {
    boost::hana::for_each(boost::hana::accessors<T>(), [&](const auto& pair) {
      const auto size = prefix.size();
      if (!prefix.empty()) prefix += '.';
      prefix += member_name(pair);
      append_names<member_t<T, decltype(pair)>>(prefix, out);
      prefix.resize(size);
    });
  } else {
    (void)sizeof(UnsupportedField<T>);
    out.push_back(prefix);
  }
}

template <class T, class F>
constexpr void emit_nan(F& f) {
  for (std::size_t i = 0; i < field_count<T>(); ++i) f(std::numeric_limits<double>::quiet_NaN());
}

template <class T, class F>
constexpr void visit_values(const T& value, F& f) {
  if constexpr (Boolean<T>) {
    f(value ? 1.0 : 0.0);
  } else if constexpr (Number<T>) {
    f(static_cast<double>(value));
  } else if constexpr (Enum<T>) {
    f(static_cast<double>(static_cast<std::underlying_type_t<T>>(value)));
  } else if constexpr (Duration<T>) {
    f(to_seconds(value));
  } else if constexpr (TimePoint<T>) {
    f(to_seconds(value.time_since_epoch()));
  } else if constexpr (String<T>) {
  } else if constexpr (Optional<T>) {
    if (value) {
      visit_values(*value, f);
    } else {
      emit_nan<typename T::value_type>(f);
    }
  } else if constexpr (Sequence<T>) {
    for (std::size_t i = 0; i < sequence_traits<T>::size; ++i) {
      visit_values(value[static_cast<decltype(value.size())>(i)], f);
    }
  } else if constexpr (HanaStruct<T>) {
    for_each_member(value, [&](std::string_view, const auto& member) { visit_values(member, f); });
  } else {
    (void)sizeof(UnsupportedField<T>);
  }
}

}  // namespace detail

// Column names of T, in the order for_each_field_value visits the values, e.g. "imu.gyro[0]".
// A T that is not a struct (a port of type double or std::array) is named `root`.
// Allocates: call it once, off the cycle.
template <class T>
std::vector<std::string> field_names(std::string_view root = {}) {
  std::vector<std::string> out;
  out.reserve(field_count<T>());
  std::string prefix(root.empty() && !detail::HanaStruct<T> ? std::string_view("value") : root);
  detail::append_names<T>(prefix, out);
  return out;
}

// Calls f(double) once per column of T, in the order of field_names<T>(). Allocates nothing and
// throws nothing unless f does, so it may run in the cycle.
template <class T, class F>
constexpr void for_each_field_value(const T& value, F&& f) {
  detail::visit_values(value, f);
}

}  // namespace praxis::io
