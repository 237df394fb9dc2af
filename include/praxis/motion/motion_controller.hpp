#pragma once
// MotionController<Backend, Behaviour, Extra...>: the whole motion pipeline for one robot —
// selection, execution, command sending — as one compile-time sorted graph.
//
//   Behaviour   a node of yours that writes MotionCommandPort (or praxis::motion::CommandInput,
//               whose command you set from outside)
//   Extra...    further nodes of yours, e.g. a walking node on a robot that does not walk by itself
//
// A robot without a locomotion capability (Backend::walk) needs a node among Extra... that writes
// BodyCommandPort<MotionType::walk, N>; otherwise the pipeline does not compile, and says so.

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/control/nodes.hpp"
#include "praxis/graph/pipeline.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/head.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/selector.hpp"
#include "praxis/script/library.hpp"

namespace praxis::motion {

// A behaviour stand-in: writes whatever command was set from outside.
struct CommandInput {
  static constexpr std::string_view name = "behaviour";
  using outputs = ports<MotionCommandPort>;
  MotionCommand command{};
  void cycle(MotionCommand& out) const { out = command; }
};

struct MotionOptions {
  double damping_kd = 2.0;
  Duration dispatch_duration = std::chrono::seconds(1);
  std::string prepare_script = "stand";
  std::string stand_up_script = "stand";
  SelectorOptions selector{};
  CollectorOptions collector{};
  HeadOptions head{};
  WalkOptions walk{};
  double falling_tilt = 1.0;
};

namespace detail {
template <class... Ts>
struct type_list {};

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

template <class A, class B>
struct concat;
template <class... As, class... Bs>
struct concat<type_list<As...>, type_list<Bs...>> {
  using type = type_list<As..., Bs...>;
};
template <class L>
struct pipeline_of;
template <class... Ns>
struct pipeline_of<type_list<Ns...>> {
  using type = Pipeline<Ns...>;
};
}  // namespace detail

template <class... Extra>
struct walking_needs_a_node_of_yours {
  static_assert(diagnostics::always_false<Extra...>,
                "praxis motion: this robot's backend has no locomotion capability (no walk(LocomotionRequest, "
                "TimePoint)), so the walk motion needs a node of yours: add to MotionController a node that "
                "reads praxis::motion::LocomotionRequestPort and writes "
                "praxis::motion::BodyCommandPort<praxis::motion::MotionType::walk, N>.");
};

template <Backend B, class Behaviour, class... Extra>
class MotionController {
 public:
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr bool backend_walks = HasLocomotion<B>;
  static constexpr bool user_walks =
      (detail::outputs_port<Extra, BodyCommandPort<MotionType::walk, N>>::value || ...);

 private:
  static constexpr bool walk_ok = [] {
    if constexpr (!backend_walks && !user_walks) {
      (void)sizeof(walking_needs_a_node_of_yours<Extra...>);
      return false;
    } else {
      return true;
    }
  }();
  static_assert(walk_ok, "praxis::motion::MotionController: nothing produces the walk motion's joint command "
                         "(see the message above)");
  // With the backend walking (or after the error above), a stand-in writes the walk body command,
  // so the only message is the one above.
  using WalkBody = std::conditional_t<backend_walks || !user_walks, detail::type_list<BackendWalkBody<Model>>,
                                      detail::type_list<>>;
  // On a robot with its own modes, prepare and stand-up are mode requests; otherwise scripts.
  template <MotionType T>
  using Scripted = std::conditional_t<HasModes<B>, ModeMotion<Model, T>, ScriptedMotion<Model, T>>;
  using Core = detail::type_list<control::StateSource<N>, FallDetector<N>, Behaviour, MotionSelector,
                                 SafeExitCollector, DampingMotion<Model>, StandMotion<Model>,
                                 Scripted<MotionType::prepare>, Scripted<MotionType::stand_up>,
                                 ScriptMotion<Model>, WalkMotion,
                                 VisualKickMotion<Model>, FallProtectionMotion<Model>, DispatchingMotion<Model>,
                                 HeadMotionNode<Model>, MotorCommandsCollector<Model>, CommandsSender<B>>;

 public:
  using Graph = typename detail::pipeline_of<
      typename detail::concat<typename detail::concat<Core, WalkBody>::type, detail::type_list<Extra...>>::type>::type;

  MotionController(B& backend, const script::ScriptLibrary<Model>& library, MotionOptions options = {})
      : backend_(backend), options_(std::move(options)) {
    graph_.template node<control::StateSource<N>>().input = &input_;
    graph_.template node<FallDetector<N>>().falling_tilt = options_.falling_tilt;
    // Motions the robot's own controller carries out switch directly, without dispatching.
    for (std::size_t t = 0; t < k_motion_types; ++t) {
      if (backend_runs<B>(static_cast<MotionType>(t))) options_.selector.joint_level[t] = false;
    }
    graph_.template node<MotionSelector>().options = options_.selector;
    graph_.template node<DampingMotion<Model>>().kd = options_.damping_kd;
    if constexpr (!HasModes<B>) {
      auto& prepare = graph_.template node<ScriptedMotion<Model, MotionType::prepare>>();
      prepare.library = &library;
      prepare.script_name = options_.prepare_script;
      auto& stand_up = graph_.template node<ScriptedMotion<Model, MotionType::stand_up>>();
      stand_up.library = &library;
      stand_up.script_name = options_.stand_up_script;
    }
    graph_.template node<ScriptMotion<Model>>().library = &library;
    graph_.template node<WalkMotion>().options = options_.walk;
    graph_.template node<DispatchingMotion<Model>>().duration = options_.dispatch_duration;
    graph_.template node<HeadMotionNode<Model>>().options = options_.head;
    options_.collector.damping_kd = options_.damping_kd;
    graph_.template node<MotorCommandsCollector<Model>>().options = options_.collector;
    graph_.template node<CommandsSender<B>>().backend = &backend_;
  }
  MotionController(const MotionController&) = delete;
  MotionController& operator=(const MotionController&) = delete;

  // One cycle at `now`: read the newest state, select, execute, send.
  void step(TimePoint now) {
    if (backend_.read(input_.state, now)) input_.info.have_state = true;
    input_.info.now = now;
    input_.info.cycle = cycles_++;
    if (input_.info.have_state) input_.state.age = now - input_.state.stamp;
    graph_.cycle();
  }

  template <class Node>
  [[nodiscard]] Node& node() {
    return graph_.template node<Node>();
  }
  [[nodiscard]] Behaviour& behaviour() { return graph_.template node<Behaviour>(); }
  [[nodiscard]] const MotionSelection& selection() const { return graph_.template get<MotionSelectionPort>(); }
  [[nodiscard]] const JointCommand<N>& command() const { return graph_.template get<MotorCommandPort<N>>(); }
  [[nodiscard]] const CollectorReport& report() const { return graph_.template get<CollectorReportPort>(); }
  [[nodiscard]] const MotionSafeExits& safe_exits() const { return graph_.template get<MotionSafeExitsPort>(); }
  [[nodiscard]] const LocomotionRequest& locomotion() const { return graph_.template get<LocomotionRequestPort>(); }
  [[nodiscard]] const HeadCommand& head() const { return graph_.template get<HeadCommandPort>(); }
  [[nodiscard]] const Graph& graph() const { return graph_; }

 private:
  B& backend_;
  MotionOptions options_;
  control::CycleInput<N> input_{};
  Graph graph_;
  std::uint64_t cycles_ = 0;
};

}  // namespace praxis::motion
