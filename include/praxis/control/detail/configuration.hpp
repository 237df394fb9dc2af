#pragma once
// What the runtime configurations (RobotController, MotionController) share: the type-list
// plumbing (a configuration is a list of node types, the user's extra nodes appended; a default node
// is left out where a user's node produces its ports) and the set-up of the nodes every
// configuration has.

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "praxis/control/runtime_options.hpp"
#include "praxis/control/safe_state.hpp"
#include "praxis/graph/node.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/graph/port.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/registry.hpp"

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

// Whether `Node` writes a port named like `Port` (declared lists or the named cycle form alike).
template <class Node, class Port>
struct outputs_port {
  template <class... Ps>
  static constexpr bool any(ports<Ps...>*) {
    return ((std::string_view{Ps::name} == std::string_view{Port::name}) || ...);
  }
  static constexpr bool value = any(static_cast<outputs_of<Node>*>(nullptr));
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

// The list's motions in a configuration, from their tags and motion_node: for each motion praxis'
// own node; where praxis has none, the node of Extra that writes its body command, else the motion
// is unoffered (its ports written once by `Unoffered`) or, when the robot needs it (walking on a
// robot that does not walk by itself), a compile error from NeedsNode<Tag> naming it. `Offered` (a
// type_list of tags) limits the motions offered at all: every other motion of the list is
// unoffered unless a node of Extra carries it (RobotController offers five).
struct all_motions {};
// NeedsNode for a configuration that offers no motion a robot needs a node of yours for.
template <class Tag>
struct none_needed {};
template <class Tag, class Offered>
struct is_offered : std::false_type {};
template <class Tag>
struct is_offered<Tag, all_motions> : std::true_type {};
template <class Tag, class... Ts>
struct is_offered<Tag, type_list<Ts...>> : std::bool_constant<(std::is_same_v<Ts, Tag> || ...)> {};

template <class Model, Capabilities C, class List, template <class> class NeedsNode, class Offered, class... Extra>
struct motion_nodes;
template <class Model, Capabilities C, class... Tags, template <class> class NeedsNode, class Offered, class... Extra>
struct motion_nodes<Model, C, motion::motion_list<Tags...>, NeedsNode, Offered, Extra...> {
  static constexpr std::size_t N = Model::joint_count;
  template <class Tag>
  static constexpr bool offered = is_offered<Tag, Offered>::value;

  template <class Tag>
  struct one {
    using Default = typename motion::motion_node<Tag>::template node<Model, C>;
    static constexpr bool yours_offered = std::is_same_v<Default, motion::offered_with_a_node_of_yours>;
    static constexpr bool yours_needed = std::is_same_v<Default, motion::needs_a_node_of_yours>;
    // A node of Extra stands in only where praxis has none of its own: one of yours beside praxis'
    // is a graph error (two producers of the port), so the safety nodes cannot be dropped silently.
    static constexpr bool by_extra = produced_by<motion::BodyCommandPort<Tag::type, N>, Extra...>;
    static constexpr bool own = !yours_offered && !yours_needed && offered<Tag>;
    static constexpr bool unoffered = !own && !by_extra && !(yours_needed && offered<Tag>);
    static constexpr bool ok = [] {
      if constexpr (yours_needed && offered<Tag> && !by_extra) {
        (void)sizeof(NeedsNode<Tag>);
        return false;
      } else {
        return true;
      }
    }();
    static_assert(ok, "praxis: a motion of this configuration has no node (see the message above)");
    using nodes = std::conditional_t<own, type_list<Default>, type_list<>>;
    using ports = std::conditional_t<unoffered, motion_ports<Tag::type, N>, type_list<>>;
  };

  using nodes = concat_t<typename one<Tags>::nodes...>;
  using unoffered_ports = concat_t<typename one<Tags>::ports...>;
};

// One Unoffered node writing `Ports` (nothing when the list is empty).
template <class Ports>
using unoffered_node_t = typename unoffered_node<Ports>::type;

// The safety nodes, damping, the collector and the sender, which every configuration has, set from
// the runtime's options as the run uses them (Runtime::runtime_options()) and the robot's safe state.
template <Backend B, class Graph>
void set_up_common_nodes(Graph& graph, const B& backend, const RuntimeOptions& options) {
  using Model = typename B::model;
  constexpr std::size_t N = Model::joint_count;
  constexpr Capabilities caps = capabilities_of<B>();
  graph.template node<motion::SafetyMonitor<N>>().options = options.safety;
  graph.template node<motion::FallDetector<N>>().options = options.fall;
  auto& damping = graph.template node<motion::DampingMotion<Model>>();
  damping.kd = options.damping_kd;
  damping.style = safe_state_of<B>();
  // A robot that stands when praxis takes it says how to hold it (Booster's Custom entry: the
  // measured pose with its Prepare gains): the damping state holds it so until it is left once.
  if constexpr (requires(const RobotState<N>& s) {
                  { backend.entry_hold(s) } -> std::convertible_to<JointCommand<N>>;
                }) {
    const JointCommand<N> entry = backend.entry_hold(RobotState<N>{});
    damping.hold_at_start = true;
    for (std::size_t j = 0; j < N; ++j) {
      damping.hold_kp[j] = entry.kp[static_cast<Eigen::Index>(j)];
      damping.hold_kd[j] = entry.kd[static_cast<Eigen::Index>(j)];
    }
  }
  graph.template node<motion::MotorCommandsCollector<Model, joint_modes_of<B>()>>().options = options.collector;
  graph.template node<motion::CommandsSender<Model, caps>>().safe_mode = safe_mode_of<B>();
}

}  // namespace praxis::control::detail
