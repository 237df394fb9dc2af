#pragma once
// MotionController<Backend, Behaviour, Extra...>: the behaviour-driven configuration of the motion
// pipeline on the one runtime (control/runtime.hpp) — selection by MotionSelector from the
// behaviour's MotionCommand, every motion, command sending.
//
//   Behaviour   a node of yours that writes praxis::motion::MotionCommandPort (or
//               praxis::CommandInput, whose command you set from outside)
//   Extra...    further nodes of yours. A node that writes a motion's ports replaces praxis'
//               default for it: a walking node on a robot that does not walk by itself, or
//               praxis::control::UserControlMotion<Model, YourCtrl> so that command::UserControl
//               runs your USER_CTRL (without it, that motion is not offered).
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

namespace praxis {

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

namespace control::detail {

template <Backend B, class Behaviour, class... Extra>
struct motion_configuration {
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities caps = capabilities_of<B>();
  static constexpr bool backend_walks = HasLocomotion<B>;
  static constexpr bool user_walks = produced_by<motion::BodyCommandPort<motion::MotionType::walk, N>, Extra...>;
  static constexpr bool walk_ok = [] {
    if constexpr (!backend_walks && !user_walks) {
      (void)sizeof(walking_needs_a_node_of_yours<Extra...>);
      return false;
    } else {
      return true;
    }
  }();
  static_assert(walk_ok, "praxis::MotionController: nothing produces the walk motion's joint command (see the "
                         "message above)");
  // With the backend walking (or after the error above), praxis' stand-in writes the walk body.
  using WalkBody = std::conditional_t<backend_walks || !user_walks, type_list<motion::BackendWalkBody<Model>>,
                                      type_list<>>;
  template <motion::MotionType T>
  using Scripted = std::conditional_t<HasModes<B>, motion::ModeMotion<Model, T>, motion::ScriptedMotion<Model, T>>;
  using Core = type_list<StateSource<N>, motion::SafetyMonitor<N>, motion::FallDetector<N>, GamepadReader<N>, Behaviour,
                         motion::MotionSelector, motion::SafeExitCollector, motion::DampingMotion<Model>,
                         motion::StandMotion<Model>, Scripted<motion::MotionType::prepare>,
                         Scripted<motion::MotionType::stand_up>, motion::ScriptMotion<Model>, motion::WalkMotion,
                         motion::VisualKickMotion<Model>, motion::FallProtectionMotion<Model>,
                         motion::DispatchingMotion<Model>, motion::HeadMotionNode<Model>,
                         motion::MotorCommandsCollector<Model, joint_modes_of<B>()>,
                         motion::CommandsSender<Model, caps>>;
  using UserControl = unoffered_t<motion_ports<motion::MotionType::user_control, N>, Extra...>;
  using Leds = default_unless_produced<motion::LedCommandPort, motion::NoLeds, Behaviour, Extra...>;
  using Graph = typename pipeline_of<concat_t<Core, WalkBody, UserControl, Leds, type_list<Extra...>>>::type;
};

}  // namespace control::detail

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
    // Motions the robot's own controller carries out switch directly, without dispatching, and so
    // do those whose tag says they are not dispatched into (scripted motions: a script moves from
    // wherever the robot is to its first frame itself).
    for (std::size_t t = 0; t < motion::k_motion_types; ++t) {
      if (motion::backend_runs<Config::caps>(static_cast<motion::MotionType>(t)) || !motion::Motions::dispatch_into[t]) {
        options_.selector.joint_level[t] = false;
      }
    }
    this->template node<motion::MotionSelector>().options = options_.selector;
    if constexpr (!HasModes<B>) {
      auto& prepare = this->template node<motion::ScriptedMotion<Model, motion::MotionType::prepare>>();
      prepare.library = &library;
      prepare.script_name = options_.prepare_script;
      auto& stand_up = this->template node<motion::ScriptedMotion<Model, motion::MotionType::stand_up>>();
      stand_up.library = &library;
      stand_up.script_name = options_.stand_up_script;
    }
    if constexpr (HasModes<B>) {
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
    // Dispatching leads to each motion's own start pose (scripted motions start from wherever the
    // robot is, so they are entered directly; see the constructor).
    auto& dispatching = this->template node<motion::DispatchingMotion<Model>>();
    dispatching.start_pose[static_cast<std::size_t>(motion::MotionType::stand)] =
        this->template node<motion::StandMotion<Model>>().start_pose();
    (set_start_pose<Extra, motion::MotionType::walk>(), ...);
    (set_start_pose<Extra, motion::MotionType::user_control>(), ...);
  }
  template <class Node, motion::MotionType T>
  void set_start_pose() {
    if constexpr (control::detail::outputs_port<Node, motion::BodyCommandPort<T, N>>::value &&
                  requires(const Node& n) { std::array<double, N>(n.start_pose()); }) {
      this->template node<motion::DispatchingMotion<Model>>().start_pose[static_cast<std::size_t>(T)] =
          this->template node<Node>().start_pose();
    }
  }
  std::size_t log_into(std::span<float>) { return 0; }

  MotionOptions options_;
  const script::ScriptLibrary<Model>* library_;
};

}  // namespace praxis
