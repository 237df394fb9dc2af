#pragma once
// MotionController<Backend, Behaviour, Extra...>: the behaviour-driven configuration of the motion
// pipeline on the one runtime (control/runtime.hpp) — selection by MotionSelector from the
// behaviour's MotionCommand, every motion, command sending.
//
//   Behaviour   a node of yours that writes praxis::motion::MotionCommandPort (or
//               praxis::control::CommandInput, whose command you set from outside)
//   Extra...    further nodes of yours. A node that writes a motion's ports carries a motion
//               praxis has no node for (motion_node, motion/registry.hpp): a walking node on a
//               robot that does not walk by itself, or praxis::control::UserControlMotion<Model,
//               YourCtrl> so that command::UserControl runs your USER_CTRL (without it, that
//               motion is not offered).
//
// A robot without locomotion (no capabilities.locomotion) needs a node among Extra... that writes
// BodyCommandPort<MotionType::walk, N>; otherwise the pipeline does not compile, and says so.
// On a robot with its own modes, prepare and stand-up are mode requests; otherwise scripts from
// the library.

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "praxis/control/detail/configuration.hpp"
#include "praxis/control/gamepad_selector.hpp"
#include "praxis/control/runtime.hpp"
#include "praxis/graph/diagnostics.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/hardware/capabilities.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/head.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/selector.hpp"
#include "praxis/script/library.hpp"

namespace praxis::control {

// A behaviour stand-in: writes whatever command was set from outside (command::Unset until then).
struct CommandInput {
  static constexpr std::string_view name = "behaviour";
  using outputs = ports<motion::MotionCommandPort>;
  motion::MotionCommand command{};
  void cycle(motion::MotionCommand& out) const { out = command; }
};

struct MotionOptions : RuntimeOptions {
  Duration dispatch_duration = std::chrono::seconds(1);
  std::string prepare_script = "stand";
  std::string stand_up_script = "stand";
  motion::SelectorOptions selector{};
  motion::HeadOptions head{};
  motion::WalkOptions walk{};
};

template <class... Extra>
struct walking_needs_a_node_of_yours {
  static_assert(diagnostics::always_false<Extra...>,
                "praxis motion: this robot's backend has no locomotion capability, so the walk motion needs a node "
                "of yours: add to MotionController a node that reads praxis::motion::LocomotionRequestPort and "
                "writes praxis::motion::BodyCommandPort<praxis::motion::MotionType::walk, N>.");
};

template <class Tag>
struct motion_needs_a_node_of_yours_generic {
  static_assert(diagnostics::always_false<Tag>,
                "praxis motion: this robot's backend does not carry out this motion by itself and praxis has no node "
                "for it (see motion_needs_a_node_of_yours<Tag>): add to MotionController a node that writes "
                "praxis::motion::BodyCommandPort<Tag::type, N> and praxis::motion::SafeExitPort<Tag::type>.");
};
template <class Tag>
struct motion_needs_a_node_of_yours
    : std::conditional_t<std::is_same_v<Tag, motions::Walk>, walking_needs_a_node_of_yours<Tag>,
                         motion_needs_a_node_of_yours_generic<Tag>> {};

namespace detail {

// Every motion of praxis::Motions, each by its motion_node unless a node of yours writes its body
// command (motion/registry.hpp); the nodes around them (state, safety, selection, sending).
template <Backend B, class Behaviour, class... Extra>
struct motion_configuration {
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities caps = capabilities_of<B>();
  using MotionNodes = motion_nodes<Model, caps, motion::Motions, motion_needs_a_node_of_yours, all_motions, Extra...>;
  using Core = type_list<StateSource<N>, motion::SafetyMonitor<N>, motion::FallDetector<N>, GamepadReader<N>, Behaviour,
                         motion::MotionSelector, motion::SafeExitCollector, motion::WalkMotion,
                         motion::HeadMotionNode<Model>, motion::MotorCommandsCollector<Model, joint_modes_of<B>()>,
                         motion::CommandsSender<Model, caps>>;
  using Unoffered = unoffered_t<typename MotionNodes::unoffered_ports, Extra...>;
  using Leds = default_unless_produced<motion::LedCommandPort, motion::NoLeds, Behaviour, Extra...>;
  using Graph = typename pipeline_of<concat_t<Core, typename MotionNodes::nodes, Unoffered, Leds, type_list<Extra...>>>::type;
};

}  // namespace detail

template <Backend B, class Behaviour, class... Extra>
class MotionController
    : public Runtime<MotionController<B, Behaviour, Extra...>, B,
                     typename control::detail::motion_configuration<B, Behaviour, Extra...>::Graph> {
  using Base = typename MotionController::Runtime;
  friend Base;
  using Config = control::detail::motion_configuration<B, Behaviour, Extra...>;

 public:
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static_assert((control::check_joint_modes<B, Extra>() && ...), "see the joint mode message above");

  MotionController(B& backend, const script::ScriptLibrary<Model>& library, MotionOptions options = {})
      : Base(backend, options), options_(std::move(options)), library_(&library) {
    control::detail::set_up_common_nodes(this->graph_ref(), backend, this->runtime_options());
    // Motions the robot's own controller carries out switch directly, without dispatching, and so
    // do those whose tag says they are not dispatched into (scripted motions: a script moves from
    // wherever the robot is to its first frame itself).
    for (std::size_t t = 0; t < motion::k_motion_types; ++t) {
      if (motion::backend_runs<Config::caps>(static_cast<motion::MotionType>(t)) || !motion::Motions::dispatch_into[t]) {
        options_.selector.joint_level[t] = false;
      }
    }
    this->template node<motion::MotionSelector>().options = options_.selector;
    if constexpr (!Config::caps.modes) {  // the scripted prepare and stand-up (motion_node)
      auto& prepare = this->template node<motion::ScriptedMotion<Model, motion::MotionType::prepare>>();
      prepare.library = &library;
      prepare.script_name = options_.prepare_script;
      auto& stand_up = this->template node<motion::ScriptedMotion<Model, motion::MotionType::stand_up>>();
      stand_up.library = &library;
      stand_up.script_name = options_.stand_up_script;
    }
    if constexpr (Config::caps.modes) {
      this->template node<motion::ModeMotion<Model, motion::MotionType::stand_up>>().wait_for_get_up =
          Config::caps.get_up;
    }
    this->template node<motion::ScriptMotion<Model>>().library = &library;
    this->template node<motion::WalkMotion>().options = options_.walk;
    this->template node<motion::DispatchingMotion<Model>>().duration = options_.dispatch_duration;
    this->template node<motion::HeadMotionNode<Model>>().options = options_.head;
  }
  MotionController(const MotionController&) = delete;
  MotionController& operator=(const MotionController&) = delete;
  // A run() on another thread is stopped and waited for before this configuration's members go.
  ~MotionController() { this->stop_and_wait(); }

  [[nodiscard]] Behaviour& behaviour() { return this->template node<Behaviour>(); }
  [[nodiscard]] const motion::MotionSafeExits& safe_exits() const {
    return this->graph().template get<motion::MotionSafeExitsPort>();
  }
  [[nodiscard]] const LocomotionRequest& locomotion() const {
    return this->graph().template get<motion::LocomotionRequestPort>();
  }
  [[nodiscard]] const motion::HeadCommand& head() const { return this->graph().template get<motion::HeadCommandPort>(); }
  [[nodiscard]] Duration period() const { return this->period_or(std::chrono::milliseconds(2)); }
  [[nodiscard]] const MotionOptions& options() const { return options_; }

  // The pose Stand holds (and dispatching leads to). The runtime calls it after taking control of a
  // robot that stood itself up and reports the pose it stands in (Fourier's PdStand).
  void adopt_stand_pose(const std::array<double, N>& pose) {
    this->template node<motion::StandMotion<Model>>().pose = pose;
    this->template node<motion::DispatchingMotion<Model>>().start_pose[static_cast<std::size_t>(motion::MotionType::stand)] =
        pose;
  }

 private:
  // Runtime hooks.
  void before_start() {
    // Dispatching leads to each motion's own start pose, where its node has one (scripted motions
    // start from wherever the robot is, so they are entered directly; see the constructor).
    set_start_poses(static_cast<typename Base::graph_type*>(nullptr));
  }
  template <class... Nodes>
  void set_start_poses(Pipeline<Nodes...>*) {
    (set_start_pose<Nodes>(), ...);
  }
  template <class Node>
  void set_start_pose() {
    if constexpr (requires(const Node& n) { std::array<double, N>(n.start_pose()); }) {
      set_start_pose_of<Node>(static_cast<motion::Motions*>(nullptr));
    }
  }
  template <class Node, class... Tags>
  void set_start_pose_of(motion::motion_list<Tags...>*) {
    const auto set = [&]<class Tag>(Tag*) {
      if constexpr (control::detail::outputs_port<Node, motion::BodyCommandPort<Tag::type, N>>::value) {
        this->template node<motion::DispatchingMotion<Model>>().start_pose[static_cast<std::size_t>(Tag::type)] =
            this->template node<Node>().start_pose();
      }
    };
    (set(static_cast<Tags*>(nullptr)), ...);
  }
  std::size_t log_into(std::span<float>) { return 0; }

  MotionOptions options_;
  const script::ScriptLibrary<Model>* library_;
};

}  // namespace praxis::control
