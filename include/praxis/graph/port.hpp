#pragma once
// Ports: named, typed slots of the cycle.
//
// A port is any type with a member `type` (the value carried) and a static `name`. The usual way to
// declare one is a named struct, so that compiler errors and DOT output print a readable name:
//
//   struct ImuPort : praxis::port<"imu", ImuReading> {};
//
// Identity is the name: two declarations with the same name are the same port, and must carry the
// same type (the pipeline rejects the graph otherwise).

#include <concepts>
#include <string_view>
#include <type_traits>

#include "praxis/graph/fixed_string.hpp"

namespace praxis {

template <fixed_string Name, class T>
struct port {
  using type = T;
  static constexpr std::string_view name = Name.view();
};

// Reading previous<P> gives P's value as it was at the end of the previous cycle (the port's default
// value in the first cycle). It adds no edge to the graph, which is how feedback flows without
// creating a dependency cycle.
template <class P>
struct previous {
  using port_type = P;
};

// The list type nodes use for their `inputs` and `outputs`.
template <class... Ps>
struct ports {
  static constexpr std::size_t size = sizeof...(Ps);
};

namespace detail {
template <class T>
struct is_previous : std::false_type {};
template <class P>
struct is_previous<previous<P>> : std::true_type {};

template <class T>
struct unwrap_previous {
  using type = T;
};
template <class P>
struct unwrap_previous<previous<P>> {
  using type = P;
};
}  // namespace detail

template <class P>
concept Port = !detail::is_previous<P>::value && requires {
  typename P::type;
  { P::name } -> std::convertible_to<std::string_view>;
} && std::is_default_constructible_v<typename P::type>;

// An input declaration: a port, or previous<port>.
template <class P>
concept InputPort = Port<typename detail::unwrap_previous<P>::type>;

template <class P>
using port_value_t = typename detail::unwrap_previous<P>::type::type;

namespace detail {
template <class P>
concept has_default_value = requires {
  { P::default_value() } -> std::convertible_to<typename P::type>;
};
}  // namespace detail

// A port may supply a default value (what the first cycle and previous<> readers see before it was
// ever written) with `static T default_value()`; otherwise the value is value-initialised.
template <Port P>
constexpr typename P::type port_default() {
  if constexpr (detail::has_default_value<P>) {
    return P::default_value();
  } else {
    return typename P::type{};
  }
}

}  // namespace praxis
