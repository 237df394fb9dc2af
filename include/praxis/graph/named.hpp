#pragma once
// Named inputs and outputs: a node's cycle() may take its ports as two views and read and write
// them by port rather than by position.
//
//   struct Mixer {
//     void cycle(praxis::in<Left, Right, praxis::previous<Gain>> in, praxis::out<Mixed> out) {
//       out.get<Mixed>() = in.get<praxis::previous<Gain>>() * (in.get<Left>() + in.get<Right>());
//     }
//   };
//
// The views' port lists are the node's `inputs` and `outputs`: a node in this form needs neither
// (one that declares them must declare the same lists, in the same order). A node with no inputs
// takes `cycle(praxis::out<...>)`, one with no outputs `cycle(praxis::in<...>)`. get<P>() of a port
// the list does not name is a compile error naming the port and the list; `previous<P>` is read as
// `get<praxis::previous<P>>()`, so a node reading both P and last cycle's P says which it means.
// Each view is a handful of pointers into the pipeline's storage, made per cycle; nothing is copied.

#include <array>
#include <cstddef>
#include <type_traits>

#include "praxis/graph/port.hpp"

namespace praxis {

namespace diagnostics {
template <class...>
inline constexpr bool named_always_false = false;

template <class Port, class PortList>
struct get_of_a_port_the_list_does_not_name {
  static_assert(named_always_false<Port, PortList>,
                "praxis graph: get<Port>() names a port that is not in this praxis::in<...> or "
                "praxis::out<...> (see get_of_a_port_the_list_does_not_name<Port, in<...>/out<...>>). "
                "Add the port to the list in the node's cycle() signature; last cycle's value of an "
                "input is read as get<praxis::previous<Port>>().");
};
}  // namespace diagnostics

namespace detail {
// The position of P in Ps (sizeof...(Ps) when absent).
template <class P, class... Ps>
constexpr std::size_t index_in() {
  constexpr std::array<bool, sizeof...(Ps) + 1> same{std::is_same_v<P, Ps>..., true};
  std::size_t i = 0;
  while (!same[i]) ++i;
  return i;
}
}  // namespace detail

template <class... Ps>
class in {
 public:
  using port_list = ports<Ps...>;
  explicit constexpr in(const port_value_t<Ps>&... values) : values_{static_cast<const void*>(&values)...} {}

  template <class P>
  [[nodiscard]] const port_value_t<P>& get() const {
    constexpr std::size_t i = detail::index_in<P, Ps...>();
    if constexpr (i == sizeof...(Ps)) {
      (void)sizeof(diagnostics::get_of_a_port_the_list_does_not_name<P, in>);
      static const port_value_t<P> unreachable{};  // the build has already failed above
      return unreachable;
    } else {
      return *static_cast<const port_value_t<P>*>(values_[i]);
    }
  }

 private:
  std::array<const void*, sizeof...(Ps)> values_;
};

template <class... Ps>
class out {
  static_assert((!detail::is_previous<Ps>::value && ...),
                "praxis graph: praxis::previous<> is only allowed among a node's inputs, not in "
                "praxis::out<...>");

 public:
  using port_list = ports<Ps...>;
  explicit constexpr out(port_value_t<Ps>&... values) : values_{static_cast<void*>(&values)...} {}

  template <class P>
  [[nodiscard]] port_value_t<P>& get() const {
    constexpr std::size_t i = detail::index_in<P, Ps...>();
    if constexpr (i == sizeof...(Ps)) {
      (void)sizeof(diagnostics::get_of_a_port_the_list_does_not_name<P, out>);
      static port_value_t<P> unreachable{};  // the build has already failed above
      return unreachable;
    } else {
      return *static_cast<port_value_t<P>*>(values_[i]);
    }
  }

 private:
  std::array<void*, sizeof...(Ps)> values_;
};

namespace detail {
template <class T>
struct is_in_view : std::false_type {};
template <class... Ps>
struct is_in_view<in<Ps...>> : std::true_type {};
template <class T>
struct is_out_view : std::false_type {};
template <class... Ps>
struct is_out_view<out<Ps...>> : std::true_type {};

// What a named cycle() takes, from the member function's type: its in<> and out<> (by value or by
// const reference), in that order, either of them left out when empty.
template <class... Args>
struct named_params {
  static constexpr bool named = false;
  static constexpr bool takes_in = false, takes_out = false;
  using inputs = void;  // never a port list: a positional node matches no named lists
  using outputs = void;
};
template <class... I, class... O>
struct named_params<in<I...>, out<O...>> {
  static constexpr bool named = true;
  static constexpr bool takes_in = true, takes_out = true;
  using inputs = ports<I...>;
  using outputs = ports<O...>;
};
template <class... I>
struct named_params<in<I...>> {
  static constexpr bool named = true;
  static constexpr bool takes_in = true, takes_out = false;
  using inputs = ports<I...>;
  using outputs = ports<>;
};
template <class... O>
struct named_params<out<O...>> {
  static constexpr bool named = true;
  static constexpr bool takes_in = false, takes_out = true;
  using inputs = ports<>;
  using outputs = ports<O...>;
};

template <class F>
struct member_params {
  using type = named_params<>;
};
#define PRAXIS_NAMED_MEMBER_PARAMS(QUALIFIERS)                                 \
  template <class R, class C, class... Args>                                   \
  struct member_params<R (C::*)(Args...) QUALIFIERS> {                         \
    using type = named_params<std::remove_cvref_t<Args>...>;                   \
  };
PRAXIS_NAMED_MEMBER_PARAMS()
PRAXIS_NAMED_MEMBER_PARAMS(const)
PRAXIS_NAMED_MEMBER_PARAMS(noexcept)
PRAXIS_NAMED_MEMBER_PARAMS(const noexcept)
PRAXIS_NAMED_MEMBER_PARAMS(&)
PRAXIS_NAMED_MEMBER_PARAMS(& noexcept)
#undef PRAXIS_NAMED_MEMBER_PARAMS

// A node's named cycle(), when it has exactly one cycle() and that one takes in<>/out<> views.
template <class N>
struct named_cycle_of {
  using type = named_params<>;
};
template <class N>
  requires requires { &N::cycle; }
struct named_cycle_of<N> {
  using type = typename member_params<decltype(&N::cycle)>::type;
};
template <class N>
using named_cycle_t = typename named_cycle_of<N>::type;
}  // namespace detail

}  // namespace praxis
