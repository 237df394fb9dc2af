#pragma once
// The deploy file: everything a trained policy needs besides its network, read and checked once.
//
//   auto config = praxis::policy::load_deploy("policies/walk/deploy.json");   // throws PolicyError
//
// JSON, an object with these keys (the policy's joint order is joint_names' order throughout):
//   policy              the ONNX file, relative to the deploy file's folder (optional when the
//                       caller names the network itself)
//   input, output       the observation input and action output (optional when the model has one
//                       of each besides the recurrent ones)
//   recurrent           optional [{"input": "h_in", "output": "h_out"}, ...], carried across cycles
//   loop_hz, policy_hz  control rate (USER_CTRL dt = 1 / loop_hz) and inference rate; policy_hz
//                       must divide loop_hz
//   robot               optional: the robot model the file was written for ("g1"), for tools
//   joint_names         the policy's joints; each a joint of the robot model (checked by OnnxPolicy;
//                       a vendor's "left_knee_joint" is the model's "left_knee")
//   default_pose        rad, one per policy joint
//   kp, kd              one number for all policy joints, or one per policy joint; finite, >= 0
//   hold                optional {"joint_names": [...], "pose": ..., "kp": ..., "kd": ...}: joints
//                       the policy does not drive, held at pose with these gains (one number or one
//                       per held joint); joints in neither list hold the model's stand pose and gains
//   action              {"scale": a number or one per joint, "clip": optional, > 0}
//   observation         {"terms": [{"name": ..., "scale": ..., "period": ..., "clip": [lo, hi],
//                                   "history_length": ...}, ...],
//                        "clip": optional > 0, "history_length": optional (1),
//                        "history_order": optional "term_major" (default) | "frame_major"}
//                       a term's own clip bounds its raw values before its scale (Isaac Lab's
//                       order); its own history_length overrides the observation's (term_major only)
//   command             {"source": "gamepad" | "behaviour", "max": [vx, vy, wz], "min": optional
//                       (default -max), "sticks": optional "scaled" (default) | "clamped"}; needed
//                       only with a velocity_command term
//   blend_in            seconds from the measured pose to the policy's targets, >= 0
//   target_rate         optional "limited" (default) | "as_computed": whether the command guard's
//                       max_target_rate slows CTRL's targets. A trained policy's targets jump at
//                       every inference (the published G1 walk moves a hip 0.9 rad in one); its
//                       authors' loops send each step as it is, and it was trained on steps, so
//                       the import writes "as_computed". Joint limits, gains and torque stay guarded.
// Unknown keys are refused (a misspelt optional key would otherwise be silently ignored).
//
// Every error names the file, the key as a JSON pointer (/observation/terms/2/scale) and what was
// expected. What needs the robot model or the network (joint names, limits, sizes) is checked by
// OnnxPolicy::load.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "praxis/policy/network.hpp"

namespace praxis::policy {

// The observation terms a policy can ask for.
enum class ObsTerm : std::uint8_t {
  base_ang_vel,       // 3: the IMU's angular velocity, body frame, rad/s
  projected_gravity,  // 3: the unit gravity vector in the body frame
  velocity_command,   // 3: vx, vy (m/s), wz (rad/s)
  joint_pos_rel,      // n: q - default_pose, policy order
  joint_vel_rel,      // n: dq, policy order
  last_action,        // n: the network's last output after clip, before scale
  phase,              // 2: sin and cos of 2 pi t / period, t since the policy took over
};

inline constexpr std::array<ObsTerm, 7> k_obs_terms{
    ObsTerm::base_ang_vel, ObsTerm::projected_gravity, ObsTerm::velocity_command, ObsTerm::joint_pos_rel,
    ObsTerm::joint_vel_rel, ObsTerm::last_action, ObsTerm::phase};

[[nodiscard]] constexpr std::string_view term_name(ObsTerm t) {
  switch (t) {
    case ObsTerm::base_ang_vel: return "base_ang_vel";
    case ObsTerm::projected_gravity: return "projected_gravity";
    case ObsTerm::velocity_command: return "velocity_command";
    case ObsTerm::joint_pos_rel: return "joint_pos_rel";
    case ObsTerm::joint_vel_rel: return "joint_vel_rel";
    case ObsTerm::last_action: return "last_action";
    case ObsTerm::phase: return "phase";
  }
  return "?";
}

// The term's length for a policy of `joints` joints.
[[nodiscard]] constexpr std::size_t term_size(ObsTerm t, std::size_t joints) {
  switch (t) {
    case ObsTerm::base_ang_vel:
    case ObsTerm::projected_gravity:
    case ObsTerm::velocity_command: return 3;
    case ObsTerm::joint_pos_rel:
    case ObsTerm::joint_vel_rel:
    case ObsTerm::last_action: return joints;
    case ObsTerm::phase: return 2;
  }
  return 0;
}

struct ObsTermConfig {
  ObsTerm term = ObsTerm::base_ang_vel;
  std::vector<double> scale;  // term_size values (a single number in the file is expanded)
  double period = 0.0;        // phase only, seconds
  std::size_t history_length = 1;             // this term's frames (the observation's unless it says)
  std::optional<std::array<double, 2>> clip;  // [lo, hi] on the raw values, before the scale
};

enum class HistoryOrder : std::uint8_t {
  term_major,   // each term's last H values, oldest first, then the next term (Isaac Lab)
  frame_major,  // the last H whole frames, oldest first (legged_gym's stacking)
};

enum class CommandSource : std::uint8_t {
  gamepad,    // the sticks: vx from ly, vy from -lx, wz from -rx (see StickMapping)
  behaviour,  // OnnxPolicy::set_velocity_command
};

// How a stick's deflection s in [-1, 1] becomes a velocity; either way the result is limited to
// [min, max].
// How CTRL's targets reach the robot (see target_rate above).
enum class TargetRate : std::uint8_t {
  limited,      // the guard's max_target_rate applies, as to every motion
  as_computed,  // each inference's targets are sent as a step, as the policy's authors send them
};

enum class StickMapping : std::uint8_t {
  scaled,   // v = s * max (legged_gym's deploy scripts: cmd * max_cmd)
  clamped,  // v = clamp(s, min, max) (unitree_rl_lab's deploy: the stick is the velocity)
};

struct RecurrentPair {
  std::string input;
  std::string output;
};

struct DeployConfig {
  std::filesystem::path file;    // the deploy file itself, for messages
  std::filesystem::path policy;  // resolved against file's folder; empty when the file names none
  std::string input;             // empty: the model's only non-recurrent input
  std::string output;            // empty: the model's only non-recurrent output
  std::vector<RecurrentPair> recurrent;

  double loop_hz = 0.0;
  double policy_hz = 0.0;
  std::size_t decimation = 1;  // loop_hz / policy_hz

  std::string robot;  // the model the file names itself for; empty when it does not

  std::vector<std::string> joint_names;
  std::vector<double> default_pose;  // policy order
  std::vector<double> kp;            // policy order (a single number in the file is expanded)
  std::vector<double> kd;

  // Joints the policy does not drive, held in CTRL (hold order; numbers expanded as above).
  struct Held {
    std::vector<std::string> joint_names;
    std::vector<double> pose;
    std::vector<double> kp;
    std::vector<double> kd;
  } hold;

  std::vector<double> action_scale;  // policy order
  std::optional<double> action_clip;

  std::vector<ObsTermConfig> terms;
  std::optional<double> observation_clip;
  std::size_t history_length = 1;  // the terms' unless one says otherwise
  HistoryOrder history_order = HistoryOrder::term_major;

  CommandSource command_source = CommandSource::gamepad;
  StickMapping sticks = StickMapping::scaled;
  std::array<double, 3> command_max{0.0, 0.0, 0.0};
  std::array<double, 3> command_min{0.0, 0.0, 0.0};  // -command_max unless the file says

  double blend_in = 0.0;  // seconds
  TargetRate target_rate = TargetRate::limited;

  [[nodiscard]] std::size_t joint_count() const { return joint_names.size(); }
  // One frame of the observation (every term once), and the whole vector (times history_length).
  [[nodiscard]] std::size_t frame_size() const {
    std::size_t n = 0;
    for (const auto& t : terms) n += term_size(t.term, joint_count());
    return n;
  }
  // Every term times its history: the network's input size.
  [[nodiscard]] std::size_t observation_size() const {
    std::size_t n = 0;
    for (const auto& t : terms) n += term_size(t.term, joint_count()) * t.history_length;
    return n;
  }
};

// Reads and checks a deploy file. Throws PolicyError naming the file, the key and the expectation.
[[nodiscard]] DeployConfig load_deploy(const std::filesystem::path& file);
// The same from text in memory; `file` stands for the file in messages and resolves "policy".
[[nodiscard]] DeployConfig parse_deploy(std::string_view json, const std::filesystem::path& file);

}  // namespace praxis::policy
