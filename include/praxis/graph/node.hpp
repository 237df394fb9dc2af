#pragma once
// Nodes: plain structs whose members are their state.
//
//   struct Integrator {
//     using inputs = praxis::ports<Velocity, praxis::previous<Position>>;
//     using outputs = praxis::ports<Position>;
//     void cycle(const double& velocity, const double& last_position, double& position);
//   };
//
// `cycle` receives const references to the inputs and then mutable references to the outputs, both
// in declaration order. `inputs` and `outputs` may be omitted when empty. Optional members:
// `static constexpr std::string_view name` (otherwise the type's name is used) and `void reset()`.
//
// Or, binding by port instead of by position (graph/named.hpp):
//
//   struct Integrator {
//     void cycle(praxis::in<Velocity, praxis::previous<Position>> in, praxis::out<Position> out) {
//       out.get<Position>() = in.get<praxis::previous<Position>>() + 0.002 * in.get<Velocity>();
//     }
//   };
//
// where the views' lists are the node's inputs and outputs.

#include <string_view>
#include <type_traits>
#include <utility>

#include "praxis/graph/detail/indexed.hpp"
#include "praxis/graph/detail/type_name.hpp"
#include "praxis/graph/named.hpp"
#include "praxis/graph/port.hpp"

namespace praxis {

namespace detail {
// Declared lists win; a node without them that takes in<>/out<> views has the views' lists.
template <class N>
struct node_inputs {
  using type = ports<>;
};
template <class N>
  requires(!requires { typename N::inputs; } && named_cycle_t<N>::named)
struct node_inputs<N> {
  using type = typename named_cycle_t<N>::inputs;
};
template <class N>
  requires requires { typename N::inputs; }
struct node_inputs<N> {
  using type = typename N::inputs;
};
template <class N>
struct node_outputs {
  using type = ports<>;
};
template <class N>
  requires(!requires { typename N::outputs; } && named_cycle_t<N>::named)
struct node_outputs<N> {
  using type = typename named_cycle_t<N>::outputs;
};
template <class N>
  requires requires { typename N::outputs; }
struct node_outputs<N> {
  using type = typename N::outputs;
};

template <class L>
struct is_port_list : std::false_type {};
template <class... Ps>
struct is_port_list<ports<Ps...>> : std::true_type {};

// A named cycle() whose views list exactly the node's inputs and outputs.
template <class N, class In, class Out>
inline constexpr bool named_cycle_matches =
    named_cycle_t<N>::named && std::is_same_v<typename named_cycle_t<N>::inputs, In> &&
    std::is_same_v<typename named_cycle_t<N>::outputs, Out>;

template <class N, class In, class Out>
struct cycle_callable : std::false_type {};
template <class N, class... In, class... Out>
struct cycle_callable<N, ports<In...>, ports<Out...>>
    : std::bool_constant<named_cycle_matches<N, ports<In...>, ports<Out...>> ||
                         requires(N& node, const port_value_t<In>&... in, port_value_t<Out>&... out) {
                           node.cycle(in..., out...);
                         }> {};
}  // namespace detail

template <class N>
using inputs_of = typename detail::node_inputs<N>::type;
template <class N>
using outputs_of = typename detail::node_outputs<N>::type;

template <class N>
constexpr std::string_view node_name() {
  if constexpr (requires { { N::name } -> std::convertible_to<std::string_view>; }) {
    return std::string_view{N::name};
  } else {
    return detail::short_type_name(detail::type_name_v<N>);
  }
}

namespace detail {
template <class L>
struct all_inputs_are_ports : std::false_type {};
template <class... Ps>
struct all_inputs_are_ports<ports<Ps...>> : std::bool_constant<(InputPort<Ps> && ...)> {};
template <class L>
struct all_outputs_are_ports : std::false_type {};
template <class... Ps>
struct all_outputs_are_ports<ports<Ps...>> : std::bool_constant<(Port<Ps> && ...)> {};
}  // namespace detail

template <class N>
concept Node = std::is_class_v<N> && detail::all_inputs_are_ports<inputs_of<N>>::value &&
               detail::all_outputs_are_ports<outputs_of<N>>::value &&
               detail::cycle_callable<N, inputs_of<N>, outputs_of<N>>::value;

}  // namespace praxis
