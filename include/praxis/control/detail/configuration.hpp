#pragma once
// Type-list plumbing for the runtime configurations: a configuration is a list of node types, the
// user's extra nodes appended; a default node is left out where a user's node produces its ports.

#include <string_view>
#include <type_traits>

#include "praxis/graph/pipeline.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/motion/motions.hpp"

namespace praxis::control::detail {

template <class... Ts>
struct type_list {};

template <class... Ls>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <class... As>
struct concat<type_list<As...>> {
  using type = type_list<As...>;
};
template <class... As, class... Bs, class... Rest>
struct concat<type_list<As...>, type_list<Bs...>, Rest...> {
  using type = typename concat<type_list<As..., Bs...>, Rest...>::type;
};
template <class... Ls>
using concat_t = typename concat<Ls...>::type;

template <class L>
struct pipeline_of;
template <class... Ns>
struct pipeline_of<type_list<Ns...>> {
  using type = Pipeline<Ns...>;
};

// Whether `Node` writes a port named like `Port`.
template <class Node, class Port>
struct outputs_port : std::false_type {};
template <class Node, class Port>
  requires requires { typename Node::outputs; }
struct outputs_port<Node, Port> {
  template <class... Ps>
  static constexpr bool any(ports<Ps...>*) {
    return ((std::string_view{Ps::name} == std::string_view{Port::name}) || ...);
  }
  static constexpr bool value = any(static_cast<typename Node::outputs*>(nullptr));
};

template <class Port, class... Nodes>
inline constexpr bool produced_by = (outputs_port<Nodes, Port>::value || ...);

// Unoffered<...> for the ports in Ps that none of Extra produces (nothing when none is left).
template <class Ports, class... Extra>
struct unoffered_for;
template <class... Extra>
struct unoffered_for<type_list<>, Extra...> {
  using kept = type_list<>;
};
template <class P, class... Ps, class... Extra>
struct unoffered_for<type_list<P, Ps...>, Extra...> {
  using rest = typename unoffered_for<type_list<Ps...>, Extra...>::kept;
  using kept = std::conditional_t<produced_by<P, Extra...>, rest, concat_t<type_list<P>, rest>>;
};
template <class L>
struct unoffered_node;
template <>
struct unoffered_node<type_list<>> {
  using type = type_list<>;
};
template <class... Ps>
struct unoffered_node<type_list<Ps...>> {
  using type = type_list<motion::Unoffered<Ps...>>;
};
template <class Ports, class... Extra>
using unoffered_t = typename unoffered_node<typename unoffered_for<Ports, Extra...>::kept>::type;

// The node `Default` unless one of Extra writes `Port`.
template <class Port, class Default, class... Extra>
using default_unless_produced = std::conditional_t<produced_by<Port, Extra...>, type_list<>, type_list<Default>>;

// Motion T's two ports.
template <motion::MotionType T, std::size_t N>
using motion_ports = type_list<motion::BodyCommandPort<T, N>, motion::SafeExitPort<T>>;

}  // namespace praxis::control::detail
