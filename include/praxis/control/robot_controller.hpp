#pragma once
// RobotController<Backend, USER_CTRL, Extra...>: stand a robot up, run a user's controller, and fall
// back to damping on command or on any fault — the Unitree deployment framework's RobotController,
// as one configuration of the motion pipeline on the one runtime (control/runtime.hpp):
//
//   selection   GamepadSelector (the framework's state machine; see control/gamepad_selector.hpp)
//   execution   damping, stand (pd_ratio ramp), user_control (USER_CTRL), dispatching, fall protection
//   sending     MotorCommandsCollector (the guard) and CommandsSender, as in every configuration
//
//   praxis::mock::MockRobot<praxis::unitree::G1> robot;
//   praxis::control::RobotController<decltype(robot), MyController> controller(robot);
//   controller.load_params("params/");          // USER_CTRL's own parameters, before anything moves
//   controller.step(now);                        // deterministic: one cycle at a time, your clock
//   controller.run_for(std::chrono::seconds(10)); // or real time (see RuntimeOptions::trigger)
//
// Extra... are nodes of yours added to the graph (an estimator, a logger, a replacement motion);
// the configuration's own node list does not change.
//
// STAND holds USER_CTRL's init_pos with the stand gains times pd_ratio. The stand gains are the
// robot model's default_kp / default_kd unless ControllerOptions::stand_gains says to use
// USER_CTRL's kp / kd (the framework's Standing uses its own fixed kp 40, kd 1; see
// docs/controller.md).

#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "praxis/control/controller_adapter.hpp"
#include "praxis/control/detail/configuration.hpp"
#include "praxis/control/gamepad_selector.hpp"
#include "praxis/control/runtime.hpp"
#include "praxis/control/state_machine.hpp"
#include "praxis/control/user_control_motion.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/control/with_gamepad.hpp"
#include "praxis/hardware/backend.hpp"
#include "praxis/motion/collector.hpp"
#include "praxis/motion/motions.hpp"
#include "praxis/motion/selector.hpp"

namespace praxis::control {

enum class StandGains : std::uint8_t {
  model,            // the robot model's default_kp / default_kd (per joint)
  user_controller,  // USER_CTRL's kp / kd
};

// The pose STAND holds on a robot that stands itself up and reports the pose it stands in
// (Fourier's PdStand; the backend's stand_pose()).
enum class StandPose : std::uint8_t {
  robot,     // that pose, which also becomes USER_CTRL's init_pos (CTRL starts where STAND held)
  init_pos,  // USER_CTRL's init_pos as loaded (the framework's rule; a GR-2's knees straighten)
};

struct ControllerOptions : RuntimeOptions {
  double pd_ratio_init = 0.1;
  double delta_pd = 0.005;
  StandGains stand_gains = StandGains::model;
  StandPose stand_pose = StandPose::robot;
};

namespace detail {

// The framework's states as motions: damping, stand, user control (CTRL), and dispatching and fall
// protection under them. Every other motion of praxis::Motions is unoffered unless a node of
// Extra carries it (derived from the registry: a motion added there needs nothing here).
template <Backend B, class Ctrl, class... Extra>
struct robot_configuration {
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  static constexpr Capabilities caps = capabilities_of<B>();
  using UserNode = UserControlMotion<Model, Ctrl>;
  using Offered = type_list<motions::Damping, motions::Stand, motions::UserControl, motions::Dispatching,
                            motions::FallProtection>;
  using MotionNodes = motion_nodes<Model, caps, motion::Motions, none_needed, Offered, UserNode, Extra...>;
  // Selection, then the motions, then sending: the order the cycle runs them in.
  using Selection = type_list<StateSource<N>, motion::SafetyMonitor<N>, motion::FallDetector<N>, GamepadReader<N>,
                              GamepadSelector, motion::SafeExitCollector>;
  using Sending = type_list<UserNode, motion::MotorCommandsCollector<Model, joint_modes_of<B>()>,
                            motion::CommandsSender<Model, caps>>;
  using Unoffered =
      unoffered_t<concat_t<typename MotionNodes::unoffered_ports,
                           type_list<motion::LocomotionRequestPort, motion::HeadCommandPort, motion::MotionCommandPort,
                                     motion::LedCommandPort>>,
                  Extra...>;
  using Graph =
      typename pipeline_of<concat_t<Selection, typename MotionNodes::nodes, Sending, Unoffered, type_list<Extra...>>>::type;
};

}  // namespace detail

template <Backend B, class Ctrl, class... Extra>
class RobotController
    : public Runtime<RobotController<B, Ctrl, Extra...>, B,
                     typename control::detail::robot_configuration<B, Ctrl, Extra...>::Graph> {
  using Base = typename RobotController::Runtime;
  friend Base;

 public:
  using Model = typename B::model;
  static constexpr std::size_t N = Model::joint_count;
  // USER_CTRL itself is checked once, by UserControlMotion (control/user_control_motion.hpp).
  using UserNode = control::UserControlMotion<Model, Ctrl>;
  static_assert(control::check_joint_modes<B, Ctrl>(), "see the joint mode message above");
  static_assert(has_remote_of<B>(),
                "praxis::control::RobotController is driven by the gamepad in RobotState (R2 stands, A hands over to "
                "USER_CTRL, L2+B damps), and this robot's state carries none (its backend declares has_remote = "
                "false): it would never leave damping. Give it a gamepad of yours with praxis::control::WithGamepad "
                "(control/with_gamepad.hpp), or drive the robot with praxis::control::MotionController.");

  explicit RobotController(B& backend, ControllerOptions options = {}, Ctrl ctrl = {})
      : Base(backend, options), options_(options) {
    control::detail::set_up_common_nodes(this->graph_ref(), backend, this->runtime_options());
    auto& sm = this->template node<control::GamepadSelector>();
    sm.initial.pd_ratio = options_.pd_ratio_init;
    sm.initial.delta_pd = options_.delta_pd;
    sm.machine = sm.initial;
    user_node().adapter = ControllerAdapter<Ctrl, N>(std::move(ctrl));
    user_node().warm_in_stand = true;
    // The framework's states switch directly: the pd_ratio ramp is STAND's way in.
    for (auto& s : this->template node<motion::DispatchingMotion<Model>>().start_pose) s = Model::stand_pose;
  }
  RobotController(const RobotController&) = delete;
  RobotController& operator=(const RobotController&) = delete;
  // A run() on another thread is stopped and waited for before this configuration's members go.
  ~RobotController() { this->stop_and_wait(); }

  // Loads USER_CTRL's parameters from `folder` and checks what praxis relies on. Throws (with the
  // file and key in the message) before anything is sent to the robot.
  void load_params(const std::filesystem::path& folder) {
    user_node().adapter.load_params(folder);
    param_folder_ = folder;
    validate();
    this->graph_ref().template node<typename Base::Collector>().options.limit_user_control_rate =
        limits_target_rate(user());
  }

  // Runtime hook, after taking control of a robot that stood itself up and reports the pose it
  // stands in: STAND holds that pose and USER_CTRL's init_pos becomes it (StandPose::robot), so
  // neither STAND nor CTRL's start moves a standing robot's legs to the model's pose.
  void adopt_stand_pose(const std::array<double, N>& pose) {
    if (options_.stand_pose != StandPose::robot) return;
    auto& ctrl = user();
    for (std::size_t j = 0; j < N; ++j) {
      ctrl.init_pos[j] = static_cast<std::remove_cvref_t<decltype(ctrl.init_pos[j])>>(pose[j]);
    }
    this->template node<motion::StandMotion<Model>>().pose = pose;
    this->template node<motion::DispatchingMotion<Model>>().start_pose[static_cast<std::size_t>(motion::MotionType::stand)] =
        pose;
  }

  // The control period in use.
  [[nodiscard]] Duration period() const { return this->period_or(from_seconds(user_node().adapter.dt())); }

  // ---- inspection (from the thread that calls step(), or after run() returned) ----
  [[nodiscard]] ControlState state() const { return control::control_state(this->selection().current); }
  [[nodiscard]] double pd_ratio() const { return this->selection().gain_ratio; }
  [[nodiscard]] Ctrl& user() { return user_node().adapter.controller(); }
  [[nodiscard]] const std::optional<std::filesystem::path>& param_folder() const { return param_folder_; }
  [[nodiscard]] const ControllerOptions& options() const { return options_; }

 private:
  [[nodiscard]] UserNode& user_node() { return this->template node<UserNode>(); }
  [[nodiscard]] const UserNode& user_node() const {
    return this->graph().template node<UserNode>();
  }

  // Runtime hooks.
  void before_start() {
    validate();
    auto& stand = this->template node<motion::StandMotion<Model>>();
    stand.pose = user_node().start_pose();
    if (options_.stand_gains == StandGains::user_controller) {
      for (std::size_t j = 0; j < N; ++j) {
        stand.kp[j] = user_node().adapter.kp(j);
        stand.kd[j] = user_node().adapter.kd(j);
      }
    }
  }
  std::size_t log_into(std::span<float> out) { return user_node().adapter.log_into(out); }

  void validate() const {
    const auto& a = user_node().adapter;
    const std::string where = param_folder_ ? " (parameters from " + param_folder_->string() + ")" : "";
    if (!(std::isfinite(a.dt()) && a.dt() > 0.0 && a.dt() <= 1.0)) {
      throw std::invalid_argument("USER_CTRL dt must be in (0, 1] seconds, got " + std::to_string(a.dt()) + where);
    }
    for (std::size_t j = 0; j < N; ++j) {
      if (!(std::isfinite(a.kp(j)) && a.kp(j) >= 0.0) || !(std::isfinite(a.kd(j)) && a.kd(j) >= 0.0)) {
        throw std::invalid_argument("USER_CTRL kp and kd must be finite and >= 0; joint " + std::to_string(j) + " (" +
                                    std::string(Model::joints[j].name) + ") has kp " + std::to_string(a.kp(j)) +
                                    ", kd " + std::to_string(a.kd(j)) + where);
      }
    }
    for (std::size_t j = 0; j < N; ++j) {
      const double q = a.init_pos(j);
      const auto& spec = Model::joints[j];
      if (!std::isfinite(q) || q < spec.lower || q > spec.upper) {
        throw std::invalid_argument("USER_CTRL init_pos[" + std::to_string(j) + "] (" + std::string(spec.name) +
                                    ") = " + std::to_string(q) + " is outside the joint's limits [" +
                                    std::to_string(spec.lower) + ", " + std::to_string(spec.upper) + "]" + where);
      }
    }
  }

  ControllerOptions options_;
  std::optional<std::filesystem::path> param_folder_;
};

}  // namespace praxis::control
