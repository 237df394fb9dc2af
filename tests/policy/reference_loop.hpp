#pragma once
// The reference deploy loop: a trained policy on MuJoCo the way its authors' deploy scripts run it
// (unitree_rl_gym's deploy_mujoco.py; unitree_rl_lab's observation manager for term histories),
// written on MuJoCo's C API with no praxis code in it, so that praxis' RobotController +
// OnnxPolicy + MujocoPlant can be run against it in lock-step (reference_loop_test.cpp) and a
// check can compare praxis' runs with it (praxis-reference-loop, reference_loop_main.cpp).
//
// What it does, as the authors' loop does it:
//   - every physics step: tau = kp (target - q) + kd (0 - dq) on every joint the deploy file names
//     (the policy's joints and the held ones), written to the joint's motor (MuJoCo clamps ctrl to
//     the motor's ctrlrange), then mj_step;
//   - the step counter counts physics steps; every `decimation` steps (policy period / timestep)
//     the observation is built from the state after the step and the network runs; its action,
//     clipped, becomes target = default + scale * action, held until the next inference;
//   - before the first inference the targets are the default pose (the authors' first
//     `decimation` steps), so the first inference happens with counter = decimation and the phase
//     clock reads one policy period there.
// Its own observation code: angular velocity from the free joint's qvel (body frame), gravity from
// the free joint's quaternion (w, x, y, z) by deploy_mujoco.py's formula, the command, q - default,
// dq, the last action, sin/cos of the phase; each term clipped to its own [lo, hi], then scaled,
// then clipped to the observation's clip; per-term histories filled with the first frame, joined
// term-major (Isaac Lab) or frame-major (legged_gym).
// Its own network evaluator (reference_net.hpp), its own reading of the deploy JSON
// (nlohmann_json), its own MJCF loading and joint lookup ("X" or "X_joint" in the MJCF; a
// deploy-file name "X_joint" also finds "X").

#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reference_net.hpp"

struct mjModel_;
struct mjData_;

namespace praxis_reference {

struct TermSpec {
  std::string name;
  std::size_t size = 0;
  std::vector<double> scale;
  double lo = 0.0, hi = 0.0;  // the term's own clip (infinite when it has none)
  std::size_t history = 1;
  double period = 0.0;
};

// The deploy file, read on its own (only what the loop needs; praxis checks the rest).
struct DeploySpec {
  std::filesystem::path file;
  std::filesystem::path policy;  // resolved against the file's folder
  std::string input, output;
  std::vector<std::pair<std::string, std::string>> recurrent;  // input, output
  double loop_hz = 0.0, policy_hz = 0.0;
  std::vector<std::string> joints;
  std::vector<double> default_pose, kp, kd;
  std::vector<std::string> hold_joints;
  std::vector<double> hold_pose, hold_kp, hold_kd;
  std::vector<double> action_scale;
  std::optional<double> action_clip;
  std::vector<TermSpec> terms;
  double obs_clip = 0.0;  // infinite when the file gives none
  bool term_major = true;
  std::array<double, 3> command_min{}, command_max{};  // +-infinity when the file gives none
};

// Throws std::runtime_error naming the file and the key.
[[nodiscard]] DeploySpec read_deploy(const std::filesystem::path& file);

struct BasePose {
  double t = 0.0;  // seconds since the policy took over
  double x = 0.0, y = 0.0, z = 0.0, yaw = 0.0;
  double up = 1.0;  // cosine of the base's tilt from vertical
};

class ReferenceLoop {
 public:
  // Loads the MJCF (its first keyframe, if any, is the initial state) and the network (`policy`, or
  // the deploy file's). Throws std::runtime_error naming the file and what is missing.
  ReferenceLoop(const std::filesystem::path& mjcf, DeploySpec deploy, const std::filesystem::path& policy = {});
  ~ReferenceLoop();
  ReferenceLoop(const ReferenceLoop&) = delete;
  ReferenceLoop& operator=(const ReferenceLoop&) = delete;

  [[nodiscard]] mjModel_* model() { return model_; }
  [[nodiscard]] mjData_* data() { return data_; }
  [[nodiscard]] const DeploySpec& deploy() const { return deploy_; }
  [[nodiscard]] std::size_t decimation() const { return decimation_; }
  [[nodiscard]] double timestep() const;
  // The deploy-file joints the MJCF has no joint for are an error; the MJCF's actuated joints the
  // deploy file does not name are left without torque: listed here.
  [[nodiscard]] const std::vector<std::string>& unnamed_joints() const { return unnamed_; }
  // Held joints of the deploy file the model lacks (fixed in the model).
  [[nodiscard]] const std::vector<std::string>& absent_held_joints() const { return absent_; }

  void set_command(const std::array<double, 3>& command) { command_ = command; }
  [[nodiscard]] const std::array<double, 3>& command() const { return command_; }

  // Starts from another simulation's physics state of the same model (positions, velocities, the
  // solver's warm start, activations, time). Throws std::runtime_error naming the array whose size
  // is not the model's.
  void set_physics_state(const std::vector<double>& qpos, const std::vector<double>& qvel,
                         const std::vector<double>& qacc_warmstart, const std::vector<double>& act, double time);

  // One physics step holding the default pose (the policy's joints) and the hold pose: the
  // authors' loop before its first inference.
  void hold_step();
  // The policy takes over here: last action, histories and recurrent state reset, the counter set
  // to `decimation` and the first inference run on the current state (as the authors' loop does
  // after its first `decimation` steps).
  void engage();
  // One physics step under the policy's targets; infers after every `decimation`-th.
  void policy_step();

  [[nodiscard]] std::size_t inferences() const { return inferences_; }
  // The last raw action (after clip), in the policy's order.
  [[nodiscard]] const std::vector<float>& last_action() const { return action_; }
  // The last observation the network was given.
  [[nodiscard]] const std::vector<float>& last_observation() const { return obs_; }
  // The base now; t counts from engage().
  [[nodiscard]] BasePose base() const;

 private:
  struct Drive {
    int qpos = 0, dof = 0, actuator = 0;
    double target = 0.0, kp = 0.0, kd = 0.0;
  };

  static ReferenceNet load_net(const DeploySpec& deploy, const std::filesystem::path& policy);
  void apply_pd();
  void infer();
  [[nodiscard]] std::vector<double> term_values(const TermSpec& t) const;

  DeploySpec deploy_;
  ReferenceNet net_;
  std::string obs_input_, action_output_;
  mjModel_* model_ = nullptr;
  mjData_* data_ = nullptr;
  int base_qpos_ = 0, base_dof_ = 0;
  std::vector<Drive> drives_;  // policy joints first (policy order), then the held ones
  std::vector<std::string> unnamed_;
  std::vector<std::string> absent_;
  std::size_t decimation_ = 1;
  std::size_t counter_ = 0;  // physics steps, as the authors count them
  std::size_t inferences_ = 0;
  std::size_t engaged_at_ = 0;  // physics steps since load at engage()
  std::size_t steps_ = 0;
  std::array<double, 3> command_{};
  std::vector<float> action_;
  std::vector<float> obs_;
  std::vector<std::vector<std::vector<float>>> history_;  // per term: frames, oldest first
  std::map<std::string, std::vector<double>> state_;      // recurrent inputs by name
};

}  // namespace praxis_reference
