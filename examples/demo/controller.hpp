#pragma once
// praxis_demo's USER_CTRL: the example sinusoid (examples/custom_controller) or a trained policy
// (praxis::policy::OnnxPolicy), chosen on the command line (--controller sinusoid | policy); a
// policy's velocity command from the robot's sticks, or over time from --command.
//
// One controller type for both, chosen at run time, so every robot × backend story (and replay)
// is compiled once rather than once per controller: the demo's vendor files are the build's
// longest compiles. The cost is a copy of the active controller's targets each cycle (N doubles).

#include <algorithm>
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <praxis/core/gamepad.hpp>
#include <praxis/core/robot_state.hpp>
#include <praxis/policy/command_timeline.hpp>
#include <praxis/policy/onnx_policy.hpp>

#include "../custom_controller/sinusoid_controller.hpp"

namespace demo {

struct ControllerChoice {
  std::string kind = "sinusoid";  // sinusoid | policy
  std::filesystem::path deploy;   // policy: its deploy file
  std::optional<std::filesystem::path> policy;  // policy: the network, over the deploy file's "policy"
  praxis::policy::CommandTimeline command;      // policy: its velocity command (empty: the deploy file's source)
};

template <class Model>
class DemoController {
 public:
  static constexpr std::size_t N = Model::joint_count;

  // USER_CTRL members, the active controller's (copied from it after load, reset and calculate).
  double dt = 0.01;
  std::array<double, N> kp = Model::default_kp;
  std::array<double, N> kd = Model::default_kd;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;

  // Before load_params: which controller the next load_params loads.
  void choose(ControllerChoice choice) {
    if (choice.kind != "sinusoid" && choice.kind != "policy") {
      throw std::invalid_argument("--controller " + choice.kind + ": one of sinusoid, policy");
    }
    if (choice.kind != "policy" && !choice.command.empty()) {
      throw std::invalid_argument("--command is the velocity command of a trained policy (--controller policy); the " +
                                  choice.kind + " takes none");
    }
    choice_ = std::move(choice);
  }
  [[nodiscard]] bool runs_policy() const { return choice_.kind == "policy"; }
  // USER_CTRL: a policy is not run in STAND (OnnxPolicy::runs_in_stand), the sinusoid is.
  [[nodiscard]] bool runs_in_stand() const { return !runs_policy(); }
  // ... and the command guard slows its targets unless the deploy file says they go as computed.
  [[nodiscard]] bool limits_target_rate() const { return !runs_policy() || policy_.limits_target_rate(); }

  // The sinusoid's parameters from `folder`/params.json; a policy from the chosen deploy file.
  void load_params(const std::filesystem::path& folder) {
    if (runs_policy()) {
      policy_.load(choice_.deploy, choice_.policy);
      if (!choice_.command.empty()) {
        const auto& terms = policy_.config()->terms;
        if (std::none_of(terms.begin(), terms.end(), [](const praxis::policy::ObsTermConfig& t) {
              return t.term == praxis::policy::ObsTerm::velocity_command;
            })) {
          throw std::invalid_argument("--command: the policy of " + choice_.deploy.string() +
                                      " takes no velocity command (its observation has no velocity_command term)");
        }
        policy_.set_command_timeline(choice_.command);
      }
      take(policy_);
    } else {
      sinusoid_.load_params(folder);
      take(sinusoid_);
    }
  }

  void reset(const praxis::RobotState<N>& state, const praxis::Gamepad& pad) {
    // A robot that stands itself up hands its pose in through init_pos (adopt_stand_pose).
    if (runs_policy()) {
      policy_.init_pos = init_pos;
      policy_.reset(state, pad);
      jpos_des = policy_.jpos_des;
    } else {
      sinusoid_.init_pos = init_pos;
      sinusoid_.reset(state, pad);
      jpos_des = sinusoid_.jpos_des;
    }
    time_ = 0.0;
  }
  void get_input(const praxis::RobotState<N>& state, const praxis::Gamepad& pad) {
    measured_first_ = state.q[0];
    if (runs_policy()) {
      policy_.get_input(state, pad);
    } else {
      sinusoid_.get_input(state, pad);
    }
  }
  void calculate() {
    time_ += dt;
    if (runs_policy()) {
      policy_.calculate();
      jpos_des = policy_.jpos_des;
    } else {
      sinusoid_.calculate();
      jpos_des = sinusoid_.jpos_des;
    }
  }
  // The cycle log's columns either way: time since reset (in CTRL: since it was entered), the first
  // joint's target and its measured position, and the policy's velocity command vx, vy, wz as its
  // observation got it (0 for the sinusoid).
  [[nodiscard]] std::array<float, 6> log() const {
    const auto& c = policy_.velocity_command();
    return {static_cast<float>(time_),   static_cast<float>(jpos_des[0]), static_cast<float>(measured_first_),
            static_cast<float>(c[0]), static_cast<float>(c[1]),       static_cast<float>(c[2])};
  }

  [[nodiscard]] const praxis::policy::OnnxPolicy<Model>& policy() const { return policy_; }

 private:
  template <class C>
  void take(const C& c) {
    dt = c.dt;
    kp = c.kp;
    kd = c.kd;
    init_pos = c.init_pos;
    jpos_des = c.jpos_des;
  }

  ControllerChoice choice_;
  example::SinusoidController<Model> sinusoid_;
  praxis::policy::OnnxPolicy<Model> policy_;
  double time_ = 0.0;
  double measured_first_ = 0.0;
};

}  // namespace demo
