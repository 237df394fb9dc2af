#pragma once
// From a published config to praxis' deploy file (docs/policy.md, "From a published policy to a
// walking robot"). The mapping is here, in C++, because it needs the robot models' joint tables and
// limits and writes the deploy file praxis' own loader reads; Python only turns YAML into JSON and
// TorchScript into ONNX.
//
//   legged_gym   unitree_rl_gym's deploy_mujoco and deploy_real configs (the observation their
//                scripts build: a fact of the scripts, checked against num_obs)
//   isaaclab     unitree_rl_lab's params/deploy.yaml (joint_ids_map, stiffness, damping,
//                default_joint_pos, actions.JointPositionAction, observations, commands, step_dt)
//
// Everything it cannot map is refused, naming the file and the key.

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "robots.hpp"
#include "source_doc.hpp"

namespace praxis::policy_tool {

struct MapOptions {
  double loop_hz = 500.0;            // praxis' control loop; the policy's rate must divide it
  std::vector<std::string> joints;   // deploy_mujoco only: the policy's joints instead of the first ones
};

struct Mapped {
  Json deploy;                     // the deploy file without "policy" and "recurrent"
  std::vector<std::string> notes;  // what the summary tells the user besides the check's paragraph
  // legged_gym: what the TorchScript conversion checks the module against.
  std::size_t num_obs = 0;
  std::size_t num_actions = 0;
  std::string obs_source;  // `g1.yaml: key "/num_obs"`
};

[[nodiscard]] Mapped map_legged_gym(const SourceDoc& config, const RobotTable& robot, const MapOptions& options);
[[nodiscard]] Mapped map_isaaclab(const SourceDoc& config, const RobotTable& robot, const MapOptions& options);

namespace detail {

// policy_hz and loop_hz for a policy period (seconds) read from `key`; refused when the loop's rate
// is not a whole multiple of the policy's.
void put_rates(Json& deploy, const SourceDoc& doc, const std::string& key, double period, const MapOptions& options);
// The robot's joints of a list of motor indices read from `key`: each a joint of the robot and none
// already in `taken` (which gains them; `taken_by` names where the others came from).
[[nodiscard]] std::vector<std::size_t> joints_of_motors(const SourceDoc& doc, const std::string& key,
                                                        const std::vector<std::size_t>& motors, const RobotTable& robot,
                                                        std::set<std::size_t>& taken, const std::string& taken_by);
// Refuses a position outside joint j's limits, naming the key.
void check_limits(const SourceDoc& doc, const std::string& key, const RobotTable& robot, std::size_t joint, double q);
// "[0.5, 0, 0]" and "0.5": numbers as a message shows them.
[[nodiscard]] std::string list_text(const std::vector<double>& values);
[[nodiscard]] std::string number_text(double value);

}  // namespace detail

}  // namespace praxis::policy_tool
