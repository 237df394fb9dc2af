#pragma once
// A port's storage inside a pipeline, and the per-port and per-node steps of a cycle. Free functions
// on purpose: their names carry only the slot or node they touch (see in_order.hpp).

#include <type_traits>
#include <utility>

#include "praxis/graph/node.hpp"
#include "praxis/graph/port.hpp"

namespace praxis::detail {

struct NoPrevious {};

// A port's value, and last cycle's value when some node reads previous<port>. The slot names its
// port type, so the steps below find the port's default without looking the port up by index.
template <class Port, bool HasPrevious>
struct PortSlot {
  using T = typename Port::type;
  T value;
  [[no_unique_address]] std::conditional_t<HasPrevious, T, NoPrevious> previous;
};

template <class Port, bool HasPrevious>
void reset_slot(PortSlot<Port, HasPrevious>& slot) {
  slot.value = port_default<Port>();
  if constexpr (HasPrevious) slot.previous = port_default<Port>();
}

// The copy that serves previous<> readers; it allocates only if copy-assigning the value does (see
// docs/graph.md, "previous<> and allocation").
template <class Port>
void keep_previous(PortSlot<Port, true>& slot) {
  slot.previous = slot.value;
}
template <class Port>
void keep_previous(PortSlot<Port, false>&) {}

// A node's argument for one of its ports. The analysis tells port types apart by their names;
// checking the exact type here catches the one case names miss: two distinct types that print alike.
template <class Expected, class Actual>
constexpr void check_same_value_type() {
  static_assert(std::is_same_v<Expected, Actual>,
                "praxis graph: two different value types with the same printed name (e.g. local "
                "classes of one name in two functions) are used for one port; give the types "
                "distinct names.");
}

template <bool Previous, class Expected, class Port, bool HasPrevious>
const Expected& input_value(const PortSlot<Port, HasPrevious>& slot) {
  check_same_value_type<Expected, typename Port::type>();
  if constexpr (Previous) {
    return slot.previous;
  } else {
    return slot.value;
  }
}

template <class Expected, class Port, bool HasPrevious>
Expected& output_value(PortSlot<Port, HasPrevious>& slot) {
  check_same_value_type<Expected, typename Port::type>();
  return slot.value;
}

// What run_at needs to call a node's cycle(): its input and output positions and ports, as one
// argument whose type names nothing but the node's own ports.
template <class InPositions, class OutPositions, class Inputs, class Outputs>
struct CycleSignature {};
template <class N>
using cycle_signature_t =
    CycleSignature<std::make_index_sequence<inputs_of<N>::size>,
                   std::make_index_sequence<outputs_of<N>::size>, inputs_of<N>, outputs_of<N>>;

template <class N>
void reset_node(N& node) {
  if constexpr (requires { node.reset(); }) node.reset();
}

}  // namespace praxis::detail
