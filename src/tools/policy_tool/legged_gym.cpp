// unitree_rl_gym's deploy configs -> praxis' deploy file.
//
// The observation is built by deploy_mujoco.py and deploy_real.py, not described by the YAML: 47
// values for 12 joints, in this order,
//   angular velocity * ang_vel_scale, gravity in the body frame, command * cmd_scale,
//   (q - default_angles) * dof_pos_scale, dq * dof_vel_scale, last action, sin and cos of the phase
//   (period 0.8 s).
// deploy_real's command is the sticks times max_cmd (ly, -lx, -rx), praxis' "scaled" gamepad
// command; deploy_mujoco's is the constant cmd_init. Neither clips the observation or the action.

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "mapping.hpp"

namespace praxis::policy_tool {

namespace {

// The phase period both scripts hard-code.
constexpr double k_phase_period = 0.8;
// legged_gym's default command ranges (LeggedRobotCfg.commands.ranges: lin_vel_x, lin_vel_y and
// ang_vel_yaw all [-1, 1]): what a deploy_mujoco policy was trained to follow at most.
constexpr double k_training_command_range = 1.0;

// "0.5,0,0": praxis_demo --command's form.
std::string comma_list(const std::vector<double>& values) {
  std::ostringstream s;
  for (std::size_t i = 0; i < values.size(); ++i) s << (i ? "," : "") << values[i];
  return s.str();
}

std::string joint_list(const RobotTable& robot, const std::vector<std::size_t>& joints) {
  std::string out;
  for (const auto j : joints) out += (out.empty() ? "" : ", ") + robot.joints[j].name;
  return out;
}

}  // namespace

Mapped map_legged_gym(const SourceDoc& doc, const RobotTable& robot, const MapOptions& options) {
  const Json& root = doc.root();
  if (!root.is_object()) {
    throw policy::PolicyError(doc.name() + ": expected a legged_gym deploy config (a YAML mapping), found " +
                              SourceDoc::found(root));
  }
  const bool real = doc.find(root, "control_dt") != nullptr;
  const bool mujoco = doc.find(root, "simulation_dt") != nullptr;
  if (real == mujoco) {
    doc.fail(real ? "/simulation_dt" : "/control_dt",
             "either control_dt (a deploy_real config) or simulation_dt and control_decimation (a deploy_mujoco "
             "config)",
             real ? "both" : "neither");
  }
  // Keys the scripts read for things praxis does itself (paths, topics, the simulation's length, the
  // go family's weak motor mode) are accepted and not used.
  if (real) {
    doc.only_keys(root, "", {"control_dt", "msg_type", "imu_type", "weak_motor", "lowcmd_topic", "lowstate_topic",
                             "policy_path", "leg_joint2motor_idx", "kps", "kds", "default_angles",
                             "arm_waist_joint2motor_idx", "arm_waist_kps", "arm_waist_kds", "arm_waist_target",
                             "ang_vel_scale", "dof_pos_scale", "dof_vel_scale", "action_scale", "cmd_scale",
                             "num_actions", "num_obs", "max_cmd"});
  } else {
    doc.only_keys(root, "", {"policy_path", "xml_path", "simulation_duration", "simulation_dt", "control_decimation",
                             "kps", "kds", "default_angles", "ang_vel_scale", "dof_pos_scale", "dof_vel_scale",
                             "action_scale", "cmd_scale", "num_actions", "num_obs", "cmd_init"});
  }

  Mapped m;
  Json& d = m.deploy;
  d["robot"] = robot.name;

  // The IMU: the policies observe the pelvis.
  if (real) {
    const std::string imu = doc.text(doc.require(root, "", "imu_type", "\"pelvis\" or \"torso\""), "/imu_type",
                                     "\"pelvis\" or \"torso\"");
    if (imu == "torso") {
      doc.refuse("/imu_type",
                 "\"torso\": the policy observes the pelvis, and deploy_real.py turns the torso IMU's readings into "
                 "the pelvis frame through the waist joint (transform_imu_data); praxis has no such IMU transform, "
                 "so this config is refused");
    }
    if (imu != "pelvis") doc.fail("/imu_type", "\"pelvis\" (or \"torso\", which praxis refuses)", SourceDoc::found(root["imu_type"]));
  }
  if (robot.imu_on_torso) {
    const std::string why = "the policy observes the pelvis, but the IMU praxis reads on " + robot.name +
                            " sits on the torso (unitree_rl_gym's own deploy_real config of this robot says imu_type: "
                            "torso); praxis has no IMU transform to the pelvis frame, so this policy is refused on " +
                            robot.name;
    if (real) doc.refuse("/imu_type", why);
    throw policy::PolicyError(doc.name() + ": --robot " + robot.name + ": " + why);
  }
  if (real) {
    if (robot.unitree_msg_type.empty()) {
      doc.refuse("/leg_joint2motor_idx", "deploy_real configs address Unitree SDK motors; --robot " + robot.name +
                                             " is not a Unitree robot (go2, g1, g1_23, h1_2)");
    }
    const std::string expected = "\"" + robot.unitree_msg_type + "\" (the message family of " + robot.name + ")";
    const std::string msg = doc.text(doc.require(root, "", "msg_type", expected), "/msg_type", expected);
    if (msg != robot.unitree_msg_type) doc.fail("/msg_type", expected, "\"" + msg + "\": a config for another robot");
  }

  // The joints.
  const std::size_t n = doc.whole(doc.require(root, "", "num_actions", "the number of joints the policy drives"),
                                  "/num_actions", "a whole number >= 1 (the joints the policy drives)");
  if (n == 0) doc.fail("/num_actions", "a whole number >= 1 (the joints the policy drives)", "0");
  std::vector<std::size_t> legs;
  std::set<std::size_t> taken;
  if (real) {
    if (!options.joints.empty()) {
      throw UsageError("--joints: " + doc.name() + " names its joints by motor index (leg_joint2motor_idx)");
    }
    const auto motors = doc.indices(doc.require(root, "", "leg_joint2motor_idx", "the policy joints' motor indices"),
                                    "/leg_joint2motor_idx", "the policy's joints' motor indices, in its order");
    if (motors.size() != n) {
      doc.fail("/leg_joint2motor_idx", std::to_string(n) + " motor indices (num_actions)",
               "a list of " + std::to_string(motors.size()));
    }
    legs = detail::joints_of_motors(doc, "/leg_joint2motor_idx", motors, robot, taken, "leg_joint2motor_idx");
  } else if (!options.joints.empty()) {
    if (options.joints.size() != n) {
      throw UsageError("--joints: " + std::to_string(options.joints.size()) + " names, but " + doc.name() +
                       " says num_actions: " + std::to_string(n));
    }
    for (const auto& name : options.joints) {
      const std::size_t j = robot.joint(name);
      if (j == RobotTable::npos) {
        throw UsageError("--joints: \"" + name + "\" is not a joint of " + robot.name + " (" + robot.joint_names() + ")");
      }
      if (!taken.insert(j).second) throw UsageError("--joints: \"" + name + "\" twice");
      legs.push_back(j);
    }
  } else {
    if (n > robot.joints.size()) {
      doc.fail("/num_actions", "at most " + std::to_string(robot.joints.size()) + " (the joints of " + robot.name + ")",
               std::to_string(n));
    }
    for (std::size_t j = 0; j < n; ++j) legs.push_back(j);
  }
  Json names = Json::array();
  for (const auto j : legs) names.push_back(robot.joints[j].name);

  // The observation the scripts build.
  const std::size_t expected_obs = 9 + 3 * n + 2;
  const std::size_t num_obs = doc.whole(doc.require(root, "", "num_obs", "the observation's size"), "/num_obs",
                                        "a whole number (the observation's size)");
  if (num_obs != expected_obs) {
    doc.fail("/num_obs",
             std::to_string(expected_obs) + " (the observation deploy_" + (real ? "real" : "mujoco") +
                 ".py builds for num_actions = " + std::to_string(n) + ": angular velocity 3, gravity 3, command 3, "
                 "joint positions " + std::to_string(n) + ", joint velocities " + std::to_string(n) +
                 ", last action " + std::to_string(n) + ", sin and cos of the phase 2)",
             std::to_string(num_obs));
  }
  m.num_obs = num_obs;
  m.num_actions = n;
  m.obs_source = doc.name() + ": key \"/num_obs\"";

  const double period = real ? doc.positive(doc.require(root, "", "control_dt", "seconds > 0"), "/control_dt")
                             : doc.positive(doc.require(root, "", "simulation_dt", "seconds > 0"), "/simulation_dt") *
                                   static_cast<double>(doc.whole(
                                       doc.require(root, "", "control_decimation", "a whole number >= 1"),
                                       "/control_decimation", "a whole number >= 1"));
  if (!(period > 0.0)) doc.fail("/control_decimation", "a whole number >= 1", "0");
  detail::put_rates(d, doc, real ? "/control_dt" : "/control_decimation", period, options);

  d["joint_names"] = names;
  const auto defaults = doc.numbers(doc.require(root, "", "default_angles", "one angle per policy joint"),
                                    "/default_angles", n, "rad, one per policy joint");
  for (std::size_t i = 0; i < n; ++i) detail::check_limits(doc, "/default_angles/" + std::to_string(i), robot, legs[i], defaults[i]);
  d["default_pose"] = defaults;
  d["kp"] = doc.numbers(doc.require(root, "", "kps", "one gain per policy joint"), "/kps", n, "one per policy joint", true);
  d["kd"] = doc.numbers(doc.require(root, "", "kds", "one gain per policy joint"), "/kds", n, "one per policy joint", true);
  d["action"] = Json{{"scale", doc.number(doc.require(root, "", "action_scale", "a number"), "/action_scale")}};

  auto scale = [&](const char* key) {
    return doc.number(doc.require(root, "", key, "a number"), std::string("/") + key);
  };
  const auto cmd_scale = doc.numbers(doc.require(root, "", "cmd_scale", "3 numbers (vx, vy, wz)"), "/cmd_scale", 3,
                                     "vx, vy, wz");
  Json terms = Json::array();
  terms.push_back(Json{{"name", "base_ang_vel"}, {"scale", scale("ang_vel_scale")}});
  terms.push_back(Json{{"name", "projected_gravity"}});
  terms.push_back(Json{{"name", "velocity_command"}, {"scale", cmd_scale}});
  terms.push_back(Json{{"name", "joint_pos_rel"}, {"scale", scale("dof_pos_scale")}});
  terms.push_back(Json{{"name", "joint_vel_rel"}, {"scale", scale("dof_vel_scale")}});
  terms.push_back(Json{{"name", "last_action"}});
  terms.push_back(Json{{"name", "phase"}, {"period", k_phase_period}});
  d["observation"] = Json{{"terms", terms}};

  // The command.
  if (real) {
    const auto max = doc.numbers(doc.require(root, "", "max_cmd", "3 numbers (vx, vy, wz at full stick)"), "/max_cmd",
                                 3, "vx, vy, wz at full stick", true);
    d["command"] = Json{{"source", "gamepad"}, {"max", max}, {"sticks", "scaled"}};
    m.notes.push_back("command: the sticks times max_cmd " + detail::list_text(max) + " (vx = ly, vy = -lx, wz = -rx)");
  } else {
    const auto init = doc.numbers(doc.require(root, "", "cmd_init", "3 numbers (vx, vy, wz)"), "/cmd_init", 3,
                                  "vx, vy, wz");
    std::vector<double> max;
    for (const double v : init) max.push_back(std::max(std::abs(v), k_training_command_range));
    d["command"] = Json{{"source", "gamepad"}, {"max", max}, {"sticks", "scaled"}};
    m.notes.push_back("command: deploy_mujoco.py holds cmd_init " + detail::list_text(init) +
                      " the whole run; the gamepad's sticks reach max " + detail::list_text(max) +
                      " (legged_gym's training range, 1, or more when cmd_init is larger); for the same run give "
                      "praxis_demo --command " + comma_list(init));
  }

  // The joints the policy does not drive.
  if (real) {
    const Json* arm = doc.find(root, "arm_waist_joint2motor_idx");
    if (arm == nullptr) doc.fail("/arm_waist_joint2motor_idx", "a list of motor indices (may be empty)", "no such key");
    if (!(arm->is_array() && arm->empty())) {
      const auto motors = doc.indices(*arm, "/arm_waist_joint2motor_idx", "the held joints' motor indices");
      const auto held = detail::joints_of_motors(doc, "/arm_waist_joint2motor_idx", motors, robot, taken, "leg_joint2motor_idx");
      const std::size_t k = held.size();
      const auto pose = doc.numbers(doc.require(root, "", "arm_waist_target", "one angle per held joint"),
                                    "/arm_waist_target", k, "rad, one per arm_waist joint");
      for (std::size_t i = 0; i < k; ++i) detail::check_limits(doc, "/arm_waist_target/" + std::to_string(i), robot, held[i], pose[i]);
      Json hold_names = Json::array();
      for (const auto j : held) hold_names.push_back(robot.joints[j].name);
      d["hold"] = Json{{"joint_names", hold_names},
                       {"pose", pose},
                       {"kp", doc.numbers(doc.require(root, "", "arm_waist_kps", "one gain per held joint"),
                                          "/arm_waist_kps", k, "one per arm_waist joint", true)},
                       {"kd", doc.numbers(doc.require(root, "", "arm_waist_kds", "one gain per held joint"),
                                          "/arm_waist_kds", k, "one per arm_waist joint", true)}};
      m.notes.push_back("hold: " + std::to_string(k) + " joints (" + joint_list(robot, held) +
                        ") at arm_waist_target with arm_waist_kps / arm_waist_kds");
    }
  } else {
    m.notes.push_back("hold: nothing (a deploy_mujoco config drives the legs only); the robot's other joints keep "
                      "its stand pose with the model's default gains");
  }
  // The scripts hand over to the policy without a blend; STAND has brought the robot to default_pose.
  d["blend_in"] = 0.0;
  // deploy_mujoco.py and deploy_real.py send each action's targets as they are: a step at every
  // inference, which is what the policy was trained on.
  d["target_rate"] = "as_computed";
  return m;
}

}  // namespace praxis::policy_tool
