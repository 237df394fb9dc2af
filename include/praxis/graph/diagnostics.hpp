#pragma once
// What the compiler says when a graph is wrong.
//
// static_assert messages must be string literals, so they cannot contain the names of the nodes and
// ports involved. Instead each error is a class template whose name reads as a sentence and whose
// template arguments are the culprits; instantiating it fires its static_assert, and both g++ and
// clang print "in instantiation of <sentence><Node, Port...>" right next to the message.

#include <type_traits>

namespace praxis::diagnostics {

template <class...>
inline constexpr bool always_false = false;

// A port, the node declaring it, and the value type it was declared with.
template <class Node, class Port, class ValueType>
struct declared_in {};

// The argument types a node's cycle() was expected to accept, in order.
template <class... Args>
struct expected_cycle_arguments {};

template <class... NodesInCycleOrder>
struct dependency_cycle_between {
  static_assert(always_false<NodesInCycleOrder...>,
                "praxis graph: the nodes listed in dependency_cycle_between<...> depend on each "
                "other in a cycle (each writes a port the next one reads, and the last writes a "
                "port the first reads). Break the cycle by reading one of those ports as "
                "praxis::previous<Port>.");
};

template <class Node, class Port>
struct input_without_producer {
  static_assert(always_false<Node, Port>,
                "praxis graph: a node reads a port that no node in the pipeline writes (see "
                "input_without_producer<Node, Port>). Add a node that lists the port in its "
                "outputs, or remove the input.");
};

template <class Port, class FirstProducer, class SecondProducer>
struct port_with_two_producers {
  static_assert(always_false<Port, FirstProducer, SecondProducer>,
                "praxis graph: two nodes write the same port (see port_with_two_producers<Port, "
                "Node, Node>). Every port has exactly one producer; rename one of the ports.");
};

template <class FirstDeclaration, class SecondDeclaration>
struct port_name_declared_with_two_types {
  static_assert(always_false<FirstDeclaration, SecondDeclaration>,
                "praxis graph: one port name is declared with two different value types (see "
                "port_name_declared_with_two_types<declared_in<Node, Port, Type>, ...>). A port "
                "is identified by its name, so all its declarations must carry the same type.");
};

template <class FirstDeclaration, class SecondDeclaration>
struct port_declared_with_two_default_values {
  static_assert(always_false<FirstDeclaration, SecondDeclaration>,
                "praxis graph: one port is declared by two port types that do not share one "
                "default_value() (see port_declared_with_two_default_values<declared_in<Node, "
                "Port, Type>, ...>), so the port's starting value would depend on the order the "
                "nodes are listed. Declare the port once, with its default_value(), and use that "
                "port type in every node that reads or writes it.");
};

template <class Node, class Port, class ValueType>
struct previous_of_a_port_whose_value_cannot_be_copied {
  static_assert(always_false<Node, Port, ValueType>,
                "praxis graph: a node reads praxis::previous<Port> of a port whose value type "
                "cannot be copy-assigned (see previous_of_a_port_whose_value_cannot_be_copied<Node, "
                "Port, Type>). previous<> keeps last cycle's value by copy-assigning it at the "
                "start of every cycle: give the port a copyable value type (one of fixed size, "
                "such as std::array, keeps that copy free of allocation), or keep the value in the "
                "node's own members instead.");
};

template <class Node>
struct node_listed_twice {
  static_assert(always_false<Node>,
                "praxis graph: the same node type appears twice in one pipeline (see "
                "node_listed_twice<Node>). Each node type may be listed once.");
};

template <class Node>
struct node_inputs_and_outputs_must_be_praxis_ports {
  static_assert(always_false<Node>,
                "praxis graph: a node's `inputs` and `outputs` must be praxis::ports<...> lists "
                "(see node_inputs_and_outputs_must_be_praxis_ports<Node>).");
};

template <class Node, class NotAPort>
struct node_declares_something_that_is_not_a_port {
  static_assert(always_false<Node, NotAPort>,
                "praxis graph: every entry of a node's `inputs` must be a port or "
                "praxis::previous<port>, and every entry of `outputs` a port. A port has a "
                "default-constructible member `type` and a static `name` (derive from "
                "praxis::port<\"name\", T>). previous<> is only allowed in inputs.");
};

template <class Node, class Expected>
struct node_cycle_cannot_be_called_with {
  static_assert(always_false<Node, Expected>,
                "praxis graph: a node's cycle() member cannot be called with (const input&..., "
                "output&...) in declaration order; the expected arguments are listed in "
                "node_cycle_cannot_be_called_with<Node, expected_cycle_arguments<...>>.");
};

template <class Node, class ViewsInputs, class DeclaredInputs, class ViewsOutputs, class DeclaredOutputs>
struct named_cycle_disagrees_with_declared_ports {
  static_assert(always_false<Node, ViewsInputs, DeclaredInputs, ViewsOutputs, DeclaredOutputs>,
                "praxis graph: a node's cycle(praxis::in<...>, praxis::out<...>) lists other ports than "
                "its `inputs` and `outputs` (see named_cycle_disagrees_with_declared_ports<Node, the "
                "views' inputs, the declared inputs, the views' outputs, the declared outputs>). "
                "Drop `inputs` and `outputs` (the views' lists are the node's), or make them the same "
                "lists in the same order.");
};

}  // namespace praxis::diagnostics
