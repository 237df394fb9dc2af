// unitree_rl_lab's params/deploy.yaml (its export_deploy_cfg) -> praxis' deploy file, as its C++
// deploy reads it:
//   joint_ids_map[i]     the SDK motor index of policy joint i (praxis' wire order)
//   stiffness, damping   per SDK motor (indexed by motor, not by policy joint)
//   default_joint_pos    per policy joint: joint_pos_rel's reference and, as the action's offset,
//                        the target at action 0
//   actions.JointPositionAction  target = action * scale + offset (clip: per joint, refused)
//   observations         in the file's order; each term clipped to [lo, hi], then scaled, then
//                        stacked history_length deep, oldest first (term_major)
//   commands.base_velocity.ranges  the sticks (ly, -lx, -rx) clamped to [lo, hi]
//   step_dt              the policy's period

#include <algorithm>
#include <cmath>
#include <set>

#include "mapping.hpp"

namespace praxis::policy_tool {

namespace {

struct TermSpec {
  std::string_view isaac;  // the observation term's name in the file
  std::string_view praxis;  // its name in the deploy file
};
constexpr std::array<TermSpec, 7> k_terms{{{"base_ang_vel", "base_ang_vel"},
                                            {"projected_gravity", "projected_gravity"},
                                            {"velocity_commands", "velocity_command"},
                                            {"joint_pos_rel", "joint_pos_rel"},
                                            {"joint_vel_rel", "joint_vel_rel"},
                                            {"last_action", "last_action"},
                                            {"gait_phase", "phase"}}};

std::string term_names() {
  std::string out;
  for (const auto& t : k_terms) out += (out.empty() ? "" : ", ") + std::string(t.isaac);
  return out;
}

// joint_ids selects every joint of the action: a full slice, or 0..n-1 in order.
bool all_joints(const Json& ids, std::size_t n) {
  if (ids.is_null()) return true;
  if (ids.is_object() && ids.contains("__python_slice__")) {
    const Json& s = ids["__python_slice__"];
    const bool start = s[0].is_null() || s[0] == 0;
    const bool stop = s[1].is_null() || (s[1].is_number_integer() && s[1].get<long long>() >= static_cast<long long>(n));
    const bool step = s[2].is_null() || s[2] == 1;
    return start && stop && step;
  }
  if (!ids.is_array() || ids.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ids[i].is_number_integer() || ids[i].get<long long>() != static_cast<long long>(i)) return false;
  }
  return true;
}

}  // namespace

Mapped map_isaaclab(const SourceDoc& doc, const RobotTable& robot, const MapOptions& options) {
  const Json& root = doc.root();
  if (!root.is_object()) {
    throw policy::PolicyError(doc.name() + ": expected an Isaac Lab deploy.yaml (a YAML mapping), found " +
                              SourceDoc::found(root));
  }
  if (!options.joints.empty()) {
    throw UsageError("--joints: " + doc.name() + " names its joints by motor index (joint_ids_map)");
  }
  doc.only_keys(root, "", {"joint_ids_map", "step_dt", "stiffness", "damping", "default_joint_pos", "commands",
                           "actions", "observations"});
  Mapped m;
  Json& d = m.deploy;
  d["robot"] = robot.name;

  // The joints, by SDK motor index.
  const auto motors = doc.indices(doc.require(root, "", "joint_ids_map", "the policy joints' motor indices"),
                                  "/joint_ids_map", "the SDK motor index of each policy joint, in the policy's order");
  const std::size_t n = motors.size();
  std::set<std::size_t> driven;  // joints
  const auto joints = detail::joints_of_motors(doc, "/joint_ids_map", motors, robot, driven, "joint_ids_map");
  const std::size_t last_motor = *std::max_element(motors.begin(), motors.end());
  const std::string gains_expected = "per SDK motor, at least " + std::to_string(last_motor + 1) + " (joint_ids_map's " +
                                     "largest index is " + std::to_string(last_motor) + ")";
  auto per_motor = [&](const char* key) {
    const Json& v = doc.require(root, "", key, "one gain per SDK motor");
    const auto values = doc.numbers(v, std::string("/") + key, 0, gains_expected, true);
    if (values.size() <= last_motor) doc.fail(std::string("/") + key, "a list of numbers " + gains_expected, SourceDoc::found(v));
    return values;
  };
  const auto stiffness = per_motor("stiffness");
  const auto damping = per_motor("damping");
  if (stiffness.size() != damping.size()) {
    doc.fail("/damping", std::to_string(stiffness.size()) + " numbers (as many as stiffness)",
             "a list of " + std::to_string(damping.size()));
  }
  const auto defaults = doc.numbers(doc.require(root, "", "default_joint_pos", "one angle per policy joint"),
                                    "/default_joint_pos", n, "rad, one per policy joint (joint_ids_map's order)");
  Json names = Json::array();
  std::vector<double> kp, kd;
  for (std::size_t i = 0; i < n; ++i) {
    detail::check_limits(doc, "/default_joint_pos/" + std::to_string(i), robot, joints[i], defaults[i]);
    names.push_back(robot.joints[joints[i]].name);
    kp.push_back(stiffness[motors[i]]);
    kd.push_back(damping[motors[i]]);
  }

  detail::put_rates(d, doc, "/step_dt", doc.positive(doc.require(root, "", "step_dt", "seconds > 0"), "/step_dt"),
                    options);
  d["joint_names"] = names;
  d["default_pose"] = defaults;
  d["kp"] = kp;
  d["kd"] = kd;

  // The action.
  const Json& actions = doc.object(doc.require(root, "", "actions", "{JointPositionAction: ...}"), "/actions");
  doc.only_keys(actions, "/actions", {"JointPositionAction"});
  const std::string at = "/actions/JointPositionAction";
  const Json& action = doc.object(doc.require(actions, "/actions", "JointPositionAction", "the action term"), at);
  doc.only_keys(action, at, {"clip", "joint_names", "scale", "offset", "joint_ids", "preserve_order"});
  if (const Json* clip = doc.find(action, "clip"); clip != nullptr && !clip->is_null()) {
    doc.refuse(at + "/clip", "a per-joint clip of the processed action has no praxis equivalent yet (praxis clips the "
                             "raw action by one number); refused, found " + SourceDoc::found(*clip));
  }
  if (const Json* ids = doc.find(action, "joint_ids"); ids != nullptr && !all_joints(*ids, n)) {
    doc.fail(at + "/joint_ids", "every joint of joint_ids_map (slice(None, None, None)); praxis maps no action on a subset",
             SourceDoc::found(*ids));
  }
  if (const Json* jn = doc.find(action, "joint_names"); jn != nullptr && !jn->is_array()) {
    doc.fail(at + "/joint_names", "a list of joint name patterns", SourceDoc::found(*jn));
  }
  const Json& scale = doc.require(action, at, "scale", "a number or one per joint");
  if (scale.is_number()) {
    d["action"] = Json{{"scale", doc.number(scale, at + "/scale")}};
  } else {
    d["action"] = Json{{"scale", doc.numbers(scale, at + "/scale", n, "one per policy joint")}};
  }
  const Json& offset_v = doc.require(action, at, "offset", "one per joint (default_joint_pos)");
  const auto offset = offset_v.is_number() ? std::vector<double>(n, doc.number(offset_v, at + "/offset"))
                                           : doc.numbers(offset_v, at + "/offset", n, "one per policy joint");
  for (std::size_t i = 0; i < n; ++i) {
    if (std::abs(offset[i] - defaults[i]) > 1e-6) {
      doc.fail(at + "/offset/" + std::to_string(i),
               "default_joint_pos/" + std::to_string(i) + " (" + detail::number_text(defaults[i]) +
                   "): praxis' default_pose is both joint_pos_rel's reference and the action's offset",
               detail::number_text(offset[i]));
    }
  }

  // The observation.
  const Json& obs = doc.object(doc.require(root, "", "observations", "the policy's observation terms"), "/observations");
  if (obs.empty()) doc.fail("/observations", "at least one term", "an empty mapping");
  Json terms = Json::array();
  std::vector<std::size_t> histories;
  bool velocity = false;
  for (auto it = obs.begin(); it != obs.end(); ++it) {
    const std::string tat = "/observations/" + it.key();
    const auto spec = std::find_if(k_terms.begin(), k_terms.end(), [&](const TermSpec& t) { return t.isaac == it.key(); });
    if (spec == k_terms.end()) doc.fail(tat, "a term praxis maps (" + term_names() + ")", "an unknown term");
    const Json& t = doc.object(it.value(), tat);
    doc.only_keys(t, tat, {"params", "clip", "scale", "history_length"});
    Json term{{"name", spec->praxis}};
    const std::size_t size = spec->praxis == "phase" ? 2 : (spec->isaac.starts_with("joint_") || spec->isaac == "last_action") ? n : 3;

    // params: only what the term's praxis equivalent takes.
    const Json* params = doc.find(t, "params");
    const Json empty = Json::object();
    const Json& p = params == nullptr || params->is_null() ? empty : doc.object(*params, tat + "/params");
    if (spec->praxis == "phase") {
      doc.only_keys(p, tat + "/params", {"period"});
      term["period"] = doc.positive(doc.require(p, tat + "/params", "period", "the gait's period in seconds"),
                                    tat + "/params/period");
    } else if (spec->praxis == "velocity_command") {
      doc.only_keys(p, tat + "/params", {"command_name"});
      if (const Json* c = doc.find(p, "command_name")) {
        const std::string name = doc.text(*c, tat + "/params/command_name", "\"base_velocity\"");
        if (name != "base_velocity") doc.fail(tat + "/params/command_name", "\"base_velocity\"", "\"" + name + "\"");
      }
      velocity = true;
    } else {
      doc.only_keys(p, tat + "/params", {});
    }
    if (const Json* clip = doc.find(t, "clip"); clip != nullptr && !clip->is_null()) {
      const auto c = doc.numbers(*clip, tat + "/clip", 2, "[lo, hi]");
      if (!(c[0] < c[1])) doc.fail(tat + "/clip", "[lo, hi] with lo < hi", detail::list_text(c));
      term["clip"] = c;
    }
    if (const Json* s = doc.find(t, "scale"); s != nullptr && !s->is_null()) {
      if (s->is_number()) {
        term["scale"] = doc.number(*s, tat + "/scale");
      } else {
        term["scale"] = doc.numbers(*s, tat + "/scale", size,
                                    std::string(spec->isaac) + " has " + std::to_string(size) + " values");
      }
    }
    std::size_t h = 1;
    if (const Json* hl = doc.find(t, "history_length"); hl != nullptr && !hl->is_null()) {
      h = std::max<std::size_t>(1, doc.whole(*hl, tat + "/history_length", "a whole number >= 0"));
    }
    histories.push_back(h);
    terms.push_back(term);
  }
  const bool one_history = std::all_of(histories.begin(), histories.end(), [&](std::size_t h) { return h == histories[0]; });
  if (!one_history) {
    for (std::size_t i = 0; i < terms.size(); ++i) terms[i]["history_length"] = histories[i];
  }
  Json observation{{"terms", terms}};
  if (one_history) observation["history_length"] = histories[0];
  observation["history_order"] = "term_major";
  d["observation"] = observation;

  // The command.
  const Json* commands = doc.find(root, "commands");
  if (velocity) {
    if (commands == nullptr) doc.fail("/commands", "commands.base_velocity.ranges (the observation has velocity_commands)", "no such key");
    doc.only_keys(doc.object(*commands, "/commands"), "/commands", {"base_velocity"});
    const Json& bv = doc.object(doc.require(*commands, "/commands", "base_velocity", "{ranges: ...}"), "/commands/base_velocity");
    doc.only_keys(bv, "/commands/base_velocity", {"ranges"});
    const std::string rat = "/commands/base_velocity/ranges";
    const Json& ranges = doc.object(doc.require(bv, "/commands/base_velocity", "ranges", "lin_vel_x, lin_vel_y, ang_vel_z"), rat);
    // heading is the training's heading command; the deploy reads ang_vel_z only.
    doc.only_keys(ranges, rat, {"lin_vel_x", "lin_vel_y", "ang_vel_z", "heading"});
    std::vector<double> lo, hi;
    for (const char* axis : {"lin_vel_x", "lin_vel_y", "ang_vel_z"}) {
      const auto r = doc.numbers(doc.require(ranges, rat, axis, "[lo, hi]"), rat + "/" + axis, 2, "[lo, hi]");
      // praxis keeps a zero command reachable (the robot must be able to be told to stand).
      if (!(r[0] <= 0.0 && 0.0 <= r[1])) {
        doc.fail(rat + "/" + axis, "[lo, hi] with lo <= 0 <= hi (praxis keeps a zero command within reach)",
                 detail::list_text(r));
      }
      lo.push_back(r[0]);
      hi.push_back(r[1]);
    }
    d["command"] = Json{{"source", "gamepad"}, {"min", lo}, {"max", hi}, {"sticks", "clamped"}};
    m.notes.push_back("command: the sticks (vx = ly, vy = -lx, wz = -rx) clamped to lin_vel_x " + detail::list_text({lo[0], hi[0]}) +
                      ", lin_vel_y " + detail::list_text({lo[1], hi[1]}) + ", ang_vel_z " +
                      detail::list_text({lo[2], hi[2]}) + " (commands/base_velocity/ranges)");
  }

  // SDK motors the policy does not drive but the file gives gains: held at the robot's stand pose.
  Json hold_names = Json::array();
  std::vector<double> hold_pose, hold_kp, hold_kd;
  for (std::size_t motor = 0; motor < stiffness.size(); ++motor) {
    if (stiffness[motor] == 0.0 && damping[motor] == 0.0) continue;
    const std::size_t j = robot.joint_of_motor(motor);
    if (j != RobotTable::npos && driven.contains(j)) continue;
    if (j == RobotTable::npos) {
      doc.fail("/stiffness/" + std::to_string(motor),
               "gains only for motors of " + robot.name + "'s joints (" + robot.motor_range() + ")",
               "gains for motor " + std::to_string(motor));
    }
    hold_names.push_back(robot.joints[j].name);
    hold_pose.push_back(robot.stand_pose[j]);
    hold_kp.push_back(stiffness[motor]);
    hold_kd.push_back(damping[motor]);
  }
  if (!hold_names.empty()) {
    d["hold"] = Json{{"joint_names", hold_names}, {"pose", hold_pose}, {"kp", hold_kp}, {"kd", hold_kd}};
    m.notes.push_back("hold: " + std::to_string(hold_names.size()) +
                      " motors the policy does not drive, at the robot's stand pose with the file's stiffness / damping");
  }
  d["blend_in"] = 0.0;
  // The deploy loop sends each action's targets as they are (Isaac Lab trained on those steps).
  d["target_rate"] = "as_computed";
  return m;
}

}  // namespace praxis::policy_tool
