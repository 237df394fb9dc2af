#pragma once
// The field kinds the reflection helpers understand, shared by the JSON loader (reflect_load.hpp)
// and the logging helpers (reflect_fields.hpp). A struct takes part by declaring its members with
// BOOST_HANA_DEFINE_STRUCT or by being adapted with BOOST_HANA_ADAPT_STRUCT; Hana is used only
// here, at the edge of the library (parameters, recordings), never in the graph sort.
//
// Supported field types: arithmetic types, bool, std::string, enums, std::array<X, N>, fixed-size
// Eigen vectors (detected by their compile-time sizes, so this header does not include Eigen),
// std::chrono::duration (seconds), std::chrono::time_point (seconds since its clock's epoch),
// std::optional<X> and nested Hana structs, in any combination.

#include <array>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/hana/accessors.hpp>
#include <boost/hana/adapt_struct.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/unpack.hpp>

namespace praxis::io {

// Specialise for an enum to read it from JSON by name instead of by number, e.g.
//   template <> struct praxis::io::EnumNames<Mode> {
//     static constexpr std::array<std::pair<Mode, std::string_view>, 2> values{
//         {{Mode::position, "position"}, {Mode::torque, "torque"}}};
//   };
// Logs and recordings always carry the underlying number, so a column stays numeric.
template <class E>
struct EnumNames;

namespace detail {

template <class T>
concept HanaStruct = boost::hana::Struct<T>::value;

template <class T>
concept Boolean = std::is_same_v<T, bool>;

template <class T>
concept Number = std::is_arithmetic_v<T> && !Boolean<T>;

template <class T>
concept Enum = std::is_enum_v<T>;

template <class T>
concept NamedEnum = Enum<T> && requires { EnumNames<T>::values; };

// An enum with a fixed underlying type (every enum class, and enum E : int): it holds every value
// of that type. Only such an enum may be read as a number; a plain `enum E { a, b }` holds only the
// values of its enumerators' bit range, and storing another is undefined. (List-initialising from
// the underlying type compiles only for a fixed one.)
template <class T>
concept FixedEnum = Enum<T> && requires { T{std::underlying_type_t<T>{}}; };

template <class T>
concept String = std::is_same_v<T, std::string>;

// std::chrono::duration, recognised by its shape: <chrono> alone costs more compile time (about
// 1.5 s with g++ 12) than all of Hana used here.
template <class T>
concept Duration = requires(const T& d) {
  typename T::rep;
  T::period::num;
  T::period::den;
  { d.count() } -> std::same_as<typename T::rep>;
  T::max();
} && std::is_arithmetic_v<typename T::rep>;

template <Duration T>
constexpr double to_seconds(const T& d) {
  return static_cast<double>(d.count()) * static_cast<double>(T::period::num) /
         static_cast<double>(T::period::den);
}

// std::chrono::time_point, by its shape as well: seconds since its clock's epoch.
template <class T>
concept TimePoint = requires(const T& t) {
  typename T::clock;
  { t.time_since_epoch() } -> std::same_as<typename T::duration>;
} && Duration<typename T::duration>;

template <class T>
struct is_optional : std::false_type {};
template <class X>
struct is_optional<std::optional<X>> : std::true_type {};
template <class T>
concept Optional = is_optional<T>::value;

template <class T>
struct is_std_array : std::false_type {};
template <class X, std::size_t N>
struct is_std_array<std::array<X, N>> : std::true_type {};

// Eigen's fixed-size row or column vectors, recognised by their compile-time sizes.
template <class T>
concept FixedVector = requires {
  typename T::Scalar;
  T::RowsAtCompileTime;
  T::ColsAtCompileTime;
  T::SizeAtCompileTime;
} && (T::RowsAtCompileTime == 1 || T::ColsAtCompileTime == 1) && (T::SizeAtCompileTime > 0);

// std::array or a fixed-size Eigen vector: a JSON array of exactly `size` elements.
template <class T>
concept Sequence = is_std_array<T>::value || FixedVector<T>;

// std::vector: a JSON array of any length (settings, never a reflected port: ports are fixed-size).
template <class T>
struct is_std_vector : std::false_type {};
template <class X, class A>
struct is_std_vector<std::vector<X, A>> : std::true_type {};
template <class T>
concept List = is_std_vector<T>::value;

template <class T>
struct sequence_traits;
template <class X, std::size_t N>
struct sequence_traits<std::array<X, N>> {
  using element = X;
  static constexpr std::size_t size = N;
};
template <FixedVector T>
struct sequence_traits<T> {
  using element = typename T::Scalar;
  static constexpr std::size_t size = static_cast<std::size_t>(T::SizeAtCompileTime);
};

template <class T>
concept Field = Number<T> || Boolean<T> || Enum<T> || String<T> || Duration<T> || TimePoint<T> ||
                Optional<T> || Sequence<T> || List<T> || HanaStruct<T>;

// The type of the member an accessor pair of struct T reaches.
template <class T, class Pair>
using member_t =
    std::remove_cvref_t<decltype(boost::hana::second(std::declval<Pair>())(std::declval<T&>()))>;

template <class Pair>
constexpr std::string_view member_name(const Pair& pair) {
  return boost::hana::to<const char*>(boost::hana::first(pair));
}

template <class T>
struct UnsupportedField {
  static_assert(Field<T>,
                "praxis::io: this member type cannot be read from JSON or logged. Supported: "
                "arithmetic types, bool, std::string, enums, std::array<X, N>, fixed-size Eigen "
                "vectors, std::chrono::duration and time_point, std::optional<X> and nested structs declared with "
                "BOOST_HANA_DEFINE_STRUCT or BOOST_HANA_ADAPT_STRUCT.");
};

// Calls f(name, member) for every member of a Hana struct, in declaration order.
template <HanaStruct T, class F>
constexpr void for_each_member(T& value, F&& f) {
  boost::hana::for_each(boost::hana::accessors<std::remove_const_t<T>>(), [&](const auto& pair) {
    f(member_name(pair), boost::hana::second(pair)(value));
  });
}

}  // namespace detail
}  // namespace praxis::io
