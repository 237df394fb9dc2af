#pragma once
// Pipeline: a list of nodes, sorted at compile time and run as straight-line code.
//
//   praxis::Pipeline<Sensor, Filter, Controller> pipeline;
//   pipeline.cycle();
//
// Every port's storage lives inside the pipeline object; cycle() performs no allocation, takes no
// lock and throws nothing of its own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "praxis/graph/detail/analysis.hpp"
#include "praxis/graph/detail/in_order.hpp"
#include "praxis/graph/detail/indexed.hpp"
#include "praxis/graph/detail/port_slot.hpp"
#include "praxis/graph/diagnostics.hpp"
#include "praxis/graph/node.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/graph/timing.hpp"

namespace praxis {

namespace detail {

template <class... Ps>
struct first_non_input_port {
  using type = void;
};
template <class P, class... Ps>
struct first_non_input_port<P, Ps...> {
  using type =
      std::conditional_t<InputPort<P>, typename first_non_input_port<Ps...>::type, P>;
};
template <class... Ps>
struct first_non_output_port {
  using type = void;
};
template <class P, class... Ps>
struct first_non_output_port<P, Ps...> {
  using type = std::conditional_t<Port<P>, typename first_non_output_port<Ps...>::type, P>;
};

// previous<P> is served by copy-assigning P's value once per cycle.
template <class P>
inline constexpr bool previous_copyable =
    !is_previous<P>::value || std::is_copy_assignable_v<port_value_t<P>>;
template <class... Ps>
struct first_uncopyable_previous {
  using type = void;
};
template <class P, class... Ps>
struct first_uncopyable_previous<P, Ps...> {
  using type = std::conditional_t<previous_copyable<P>,
                                  typename first_uncopyable_previous<Ps...>::type,
                                  typename unwrap_previous<P>::type>;
};

template <class N, class In, class Out>
struct node_checker;
template <class N, class... In, class... Out>
struct node_checker<N, ports<In...>, ports<Out...>> {
  static constexpr bool check() {
    if constexpr (!(InputPort<In> && ...)) {
      (void)sizeof(diagnostics::node_declares_something_that_is_not_a_port<
                   N, typename first_non_input_port<In...>::type>);
      return false;
    } else if constexpr (!(Port<Out> && ...)) {
      (void)sizeof(diagnostics::node_declares_something_that_is_not_a_port<
                   N, typename first_non_output_port<Out...>::type>);
      return false;
    } else if constexpr (named_cycle_t<N>::named && !named_cycle_matches<N, ports<In...>, ports<Out...>>) {
      (void)sizeof(diagnostics::named_cycle_disagrees_with_declared_ports<
                   N, typename named_cycle_t<N>::inputs, ports<In...>, typename named_cycle_t<N>::outputs,
                   ports<Out...>>);
      return false;
    } else if constexpr (!cycle_callable<N, ports<In...>, ports<Out...>>::value) {
      (void)sizeof(diagnostics::node_cycle_cannot_be_called_with<
                   N, diagnostics::expected_cycle_arguments<const port_value_t<In>&...,
                                                            port_value_t<Out>&...>>);
      return false;
    } else if constexpr (!(previous_copyable<In> && ...)) {
      using P = typename first_uncopyable_previous<In...>::type;
      (void)sizeof(
          diagnostics::previous_of_a_port_whose_value_cannot_be_copied<N, P, typename P::type>);
      return false;
    } else {
      return true;
    }
  }
};

template <class N>
constexpr bool check_node() {
  if constexpr (!is_port_list<inputs_of<N>>::value || !is_port_list<outputs_of<N>>::value) {
    (void)sizeof(diagnostics::node_inputs_and_outputs_must_be_praxis_ports<N>);
    return false;
  } else {
    return node_checker<N, inputs_of<N>, outputs_of<N>>::check();
  }
}

struct NoTimingStorage {};

}  // namespace detail

namespace detail {

// Everything the compiler knows about a list of nodes: the analysis, the C++ types behind each
// declaration and port, and whether the graph is valid (reporting the first error if not).
template <class... Nodes>
struct GraphModel {
  static constexpr std::size_t node_count = sizeof...(Nodes);
  static constexpr bool nodes_ok = all_of(std::array<bool, node_count>{check_node<Nodes>()...});

  // Type lookups by index go through class templates, which the compiler memoises: each index is
  // looked up once, however many times a pipeline names it.
  template <std::size_t I>
  using node_t = type_at<I, Nodes...>;

  static constexpr auto analysis = [] {
    if constexpr (nodes_ok) {
      return analyze<Nodes...>();
    } else {
      return Analysis<node_count, 0>{};
    }
  }();

  // The C++ port type of a declaration, recovered from (node, slot, direction).
  template <std::size_t D>
  using decl_port_t = typename unwrap_previous<typename list_at<
      analysis.decls[D].slot,
      std::conditional_t<analysis.decls[D].output, outputs_of<node_t<analysis.decls[D].node>>,
                         inputs_of<node_t<analysis.decls[D].node>>>>::type>::type;

  template <std::size_t P>
  using port_t = decl_port_t<analysis.port_repr[P]>;
};

// Fires the diagnostic for the first error found, if any. A free function (not a member of the
// model) so that the model is a complete type when it runs.
template <class Model, std::size_t... K>
constexpr bool report_graph_error(std::index_sequence<K...>) {
  constexpr auto& a = Model::analysis;
  using diagnostics::declared_in;
  if constexpr (a.error == GraphError::node_listed_twice) {
    (void)sizeof(diagnostics::node_listed_twice<typename Model::template node_t<a.error_a>>);
  } else if constexpr (a.error == GraphError::port_type_conflict) {
    using First = typename Model::template decl_port_t<a.error_a>;
    using Second = typename Model::template decl_port_t<a.error_b>;
    using FirstNode = typename Model::template node_t<a.decls[a.error_a].node>;
    using SecondNode = typename Model::template node_t<a.decls[a.error_b].node>;
    (void)sizeof(diagnostics::port_name_declared_with_two_types<
                 declared_in<FirstNode, First, typename First::type>,
                 declared_in<SecondNode, Second, typename Second::type>>);
  } else if constexpr (a.error == GraphError::port_default_conflict) {
    using First = typename Model::template decl_port_t<a.error_a>;
    using Second = typename Model::template decl_port_t<a.error_b>;
    using FirstNode = typename Model::template node_t<a.decls[a.error_a].node>;
    using SecondNode = typename Model::template node_t<a.decls[a.error_b].node>;
    (void)sizeof(diagnostics::port_declared_with_two_default_values<
                 declared_in<FirstNode, First, typename First::type>,
                 declared_in<SecondNode, Second, typename Second::type>>);
  } else if constexpr (a.error == GraphError::two_producers) {
    (void)sizeof(diagnostics::port_with_two_producers<
                 typename Model::template decl_port_t<a.error_b>,
                 typename Model::template node_t<a.error_a>,
                 typename Model::template node_t<a.decls[a.error_b].node>>);
  } else if constexpr (a.error == GraphError::no_producer) {
    (void)sizeof(diagnostics::input_without_producer<
                 typename Model::template node_t<a.decls[a.error_a].node>,
                 typename Model::template decl_port_t<a.error_a>>);
  } else if constexpr (a.error == GraphError::cycle) {
    (void)sizeof(
        diagnostics::dependency_cycle_between<typename Model::template node_t<a.cycle[K]>...>);
  }
  return a.error == GraphError::none;
}

template <class... Nodes>
inline constexpr bool graph_valid =
    GraphModel<Nodes...>::nodes_ok &&
    report_graph_error<GraphModel<Nodes...>>(
        std::make_index_sequence<GraphModel<Nodes...>::analysis.cycle_length>{});

}  // namespace detail

template <class Timing, class... Nodes>
class BasicPipeline {
  static_assert(sizeof...(Nodes) > 0, "praxis::Pipeline needs at least one node");
  using Model = detail::GraphModel<Nodes...>;
  static constexpr const auto& analysis = Model::analysis;
  template <std::size_t I>
  using node_t = typename Model::template node_t<I>;

 public:
  static constexpr std::size_t node_count = sizeof...(Nodes);
  static constexpr bool valid = detail::graph_valid<Nodes...>;
  static_assert(valid, "praxis::Pipeline: this list of nodes does not form a valid graph; the "
                       "first error above names the nodes and ports involved.");
  static constexpr std::size_t port_count = analysis.port_count;

 private:
  template <std::size_t P>
  using port_t = typename Model::template port_t<P>;
  template <std::size_t P>
  using slot_t = detail::PortSlot<port_t<P>, analysis.port_has_previous_reader[P]>;

  template <class Seq>
  struct storage_for;
  template <std::size_t... P>
  struct storage_for<std::index_sequence<P...>> {
    using type = detail::indexed_storage<std::index_sequence<P...>, slot_t<P>...>;
  };
  using PortStorage = typename storage_for<std::make_index_sequence<port_count>>::type;
  // Nodes are stored in execution order, so a cycle walks memory front to back like hand-written
  // code would.
  template <class Seq>
  struct node_storage_for;
  template <std::size_t... K>
  struct node_storage_for<std::index_sequence<K...>> {
    using type = detail::indexed_storage<std::index_sequence<K...>, node_t<analysis.order[K]>...>;
  };
  using NodeStorage = typename node_storage_for<std::make_index_sequence<node_count>>::type;
  using TimingStorage =
      std::conditional_t<Timing::enabled, std::array<NodeTimes, node_count>, detail::NoTimingStorage>;

 public:
  BasicPipeline() { reset_ports(); }
  explicit BasicPipeline(Nodes... nodes)
      : BasicPipeline(detail::indexed_refs<std::index_sequence_for<Nodes...>, Nodes...>{nodes...},
                      std::make_index_sequence<node_count>{}) {}

  // Runs every node once, in the sorted order.
  void cycle() {
    if constexpr (valid) {
      copy_previous(std::make_index_sequence<port_count>{});
      run_in_order(std::make_index_sequence<node_count>{});
    }
  }

  // Restores every port to its default value and calls reset() on the nodes that have one.
  void reset() {
    reset_ports();
    reset_nodes(std::make_index_sequence<node_count>{});
    if constexpr (Timing::enabled) timings_ = {};
  }

  template <class N>
  [[nodiscard]] N& node() {
    return detail::slot_get<analysis.position[node_index<N>()], N>(nodes_);
  }
  template <class N>
  [[nodiscard]] const N& node() const {
    return detail::slot_get<analysis.position[node_index<N>()], N>(nodes_);
  }

  // The current value of a port (as left by the last cycle).
  template <class P>
  [[nodiscard]] const typename P::type& get() const {
    return detail::slot_get<port_index<P>()>(ports_).value;
  }

  // Port P (0 <= P < port_count, the order of port_names) and its current value: for observers
  // that walk every port (observe/tap.hpp) without naming them.
  template <std::size_t P>
  using port_at = port_t<P>;
  template <std::size_t P>
  [[nodiscard]] const typename port_t<P>::type& port_value() const {
    return detail::slot_get<P>(ports_).value;
  }

  // Per-node timing in execution order (only with NodeTiming).
  [[nodiscard]] std::span<const NodeTimes, node_count> timings() const
    requires(Timing::enabled)
  {
    return timings_;
  }

  // ---- introspection (compile-time) ----

  static constexpr std::array<std::string_view, node_count> declared_node_names{
      node_name<Nodes>()...};

  static constexpr std::array<std::string_view, node_count> node_names = [] {
    std::array<std::string_view, node_count> names{};
    for (std::size_t k = 0; k < node_count; ++k) names[k] = declared_node_names[analysis.order[k]];
    return names;
  }();

  static constexpr std::array<std::string_view, port_count> port_names = [] {
    std::array<std::string_view, port_count> names{};
    for (std::size_t p = 0; p < port_count; ++p) names[p] = analysis.decls[analysis.port_repr[p]].name;
    return names;
  }();

  // Execution position of a node type.
  template <class N>
  static constexpr std::size_t position_of() {
    return analysis.position[node_index<N>()];
  }

  // Raw analysis for the introspection helpers (producer/consumer table, DOT).
  static constexpr const auto& graph() { return analysis; }

 private:
  // The nodes arrive in declaration order and are stored in execution order. References indexed
  // in O(1), not a std::tuple: a tuple of hundreds of elements doubled the compile time.
  template <class Refs, std::size_t... K>
  BasicPipeline(Refs nodes, std::index_sequence<K...>)
      : nodes_(std::move(detail::ref_get<analysis.order[K], node_t<analysis.order[K]>>(nodes))...) {
    reset_ports();
  }

  template <class N>
  static constexpr std::size_t node_index() {
    constexpr std::array<bool, node_count> same{std::is_same_v<N, Nodes>...};
    constexpr std::size_t index = [&] {
      for (std::size_t i = 0; i < node_count; ++i) {
        if (same[i]) return i;
      }
      return node_count;
    }();
    static_assert(index < node_count, "praxis::Pipeline::node<N>(): N is not a node of this pipeline");
    return index;
  }

  template <class P>
  static constexpr std::size_t port_index() {
    constexpr std::size_t index = [] {
      for (std::size_t p = 0; p < port_count; ++p) {
        if (port_names[p] == std::string_view{P::name}) return p;
      }
      return port_count;
    }();
    static_assert(index < port_count,
                  "praxis::Pipeline::get<P>(): no node of this pipeline reads or writes port P");
    return index;
  }

  // The steps per port and per node are braced lists of calls to free functions, never folds nor
  // member templates per element: see in_order.hpp. Inside those lists the members are reached
  // through local references: g++ re-substitutes the whole node list at every mention of a class
  // member in a template, so mentioning one per port made compile time grow with the square of the
  // graph.
  void reset_ports() { reset_ports_impl(std::make_index_sequence<port_count>{}); }
  template <std::size_t... P>
  void reset_ports_impl(std::index_sequence<P...>) {
    auto& ports = ports_;
    detail::in_order{0, (detail::reset_slot(detail::slot_get<P>(ports)), 0)...};
  }

  template <std::size_t... K>
  void reset_nodes(std::index_sequence<K...>) {
    auto& nodes = nodes_;
    detail::in_order{0, (detail::reset_node(detail::slot_get<K>(nodes)), 0)...};
  }

  template <std::size_t... P>
  void copy_previous(std::index_sequence<P...>) {
    auto& ports = ports_;
    detail::in_order{0, (detail::keep_previous(detail::slot_get<P>(ports)), 0)...};
  }

  template <std::size_t... K>
  void run_in_order(std::index_sequence<K...>) {
    // Each node's type comes from its storage slot (a lookup among bases), not from an index into
    // the node list, which costs the compiler time in proportion to the list for every lookup.
    auto& nodes = nodes_;
    detail::in_order{
        0, (run_at<K>(detail::slot_get<K>(nodes),
                      detail::cycle_signature_t<
                          std::remove_reference_t<decltype(detail::slot_get<K>(nodes))>>{}),
            0)...};
  }

  // Runs the node at execution position K: the one function per node that belongs to the pipeline.
  template <std::size_t K, class N, std::size_t... In, std::size_t... Out, class... InP,
            class... OutP>
  void run_at(N& node, detail::CycleSignature<std::index_sequence<In...>, std::index_sequence<Out...>,
                                              ports<InP...>, ports<OutP...>>) {
    constexpr const auto& a = analysis;
    constexpr std::size_t base = a.decl_begin[a.order[K]];
    constexpr std::size_t first_output = base + sizeof...(In);
    auto& ports = ports_;
    [[maybe_unused]] std::int64_t start = 0;
    if constexpr (Timing::enabled) start = Timing::clock::now_ns();
    if constexpr (detail::named_cycle_t<N>::named) {
      using Named = detail::named_cycle_t<N>;
      if constexpr (Named::takes_in && Named::takes_out) {
        node.cycle(in<InP...>(detail::input_value<a.decls[base + In].previous, port_value_t<InP>>(
                       detail::slot_get<a.port_of_decl[base + In]>(ports))...),
                   out<OutP...>(detail::output_value<port_value_t<OutP>>(
                       detail::slot_get<a.port_of_decl[first_output + Out]>(ports))...));
      } else if constexpr (Named::takes_in) {
        node.cycle(in<InP...>(detail::input_value<a.decls[base + In].previous, port_value_t<InP>>(
            detail::slot_get<a.port_of_decl[base + In]>(ports))...));
      } else {
        node.cycle(out<OutP...>(detail::output_value<port_value_t<OutP>>(
            detail::slot_get<a.port_of_decl[first_output + Out]>(ports))...));
      }
    } else {
      node.cycle(detail::input_value<a.decls[base + In].previous, port_value_t<InP>>(
                     detail::slot_get<a.port_of_decl[base + In]>(ports))...,
                 detail::output_value<port_value_t<OutP>>(
                     detail::slot_get<a.port_of_decl[first_output + Out]>(ports))...);
    }
    if constexpr (Timing::enabled) {
      const std::int64_t elapsed = Timing::clock::now_ns() - start;
      timings_[K].add(static_cast<std::uint64_t>(elapsed > 0 ? elapsed : 0));
    }
  }

  [[no_unique_address]] NodeStorage nodes_;
  PortStorage ports_;
  [[no_unique_address]] TimingStorage timings_{};
};

template <class... Nodes>
using Pipeline = BasicPipeline<NoTiming, Nodes...>;

template <class... Nodes>
using TimedPipeline = BasicPipeline<NodeTiming<>, Nodes...>;

template <class... Nodes>
[[nodiscard]] Pipeline<std::decay_t<Nodes>...> make_pipeline(Nodes&&... nodes) {
  return Pipeline<std::decay_t<Nodes>...>(std::forward<Nodes>(nodes)...);
}

}  // namespace praxis
