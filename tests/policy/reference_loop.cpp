#include "reference_loop.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <mujoco/mujoco.h>
#include <nlohmann/json.hpp>

#include "praxis/sim/mjcf_translation.hpp"

namespace praxis_reference {

namespace {

using nlohmann::json;
constexpr double k_inf = std::numeric_limits<double>::infinity();

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& key, const std::string& expected) {
  throw std::runtime_error(file.string() + ": key \"" + key + "\": expected " + expected);
}

const json& at(const std::filesystem::path& file, const json& j, const std::string& parent, const char* key) {
  if (!j.is_object() || !j.contains(key)) fail(file, parent + "/" + key, "this key");
  return j.at(key);
}

double number(const std::filesystem::path& file, const json& j, const std::string& key) {
  if (!j.is_number()) fail(file, key, "a number");
  return j.get<double>();
}

// One number for every element, or one per element.
std::vector<double> per_element(const std::filesystem::path& file, const json& j, const std::string& key, std::size_t n) {
  if (j.is_number()) return std::vector<double>(n, j.get<double>());
  if (!j.is_array() || j.size() != n) fail(file, key, "a number or an array of " + std::to_string(n) + " numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(number(file, j[i], key + "/" + std::to_string(i)));
  return out;
}

std::vector<std::string> names(const std::filesystem::path& file, const json& j, const std::string& key) {
  if (!j.is_array()) fail(file, key, "an array of joint names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) fail(file, key + "/" + std::to_string(i), "a joint name");
    out.push_back(j[i].get<std::string>());
  }
  return out;
}

std::size_t term_size(const std::filesystem::path& file, const std::string& key, const std::string& name, std::size_t n) {
  if (name == "base_ang_vel" || name == "projected_gravity" || name == "velocity_command") return 3;
  if (name == "joint_pos_rel" || name == "joint_vel_rel" || name == "last_action") return n;
  if (name == "phase") return 2;
  fail(file, key, "an observation term the reference knows");
}

DeploySpec read_deploy_json(const std::filesystem::path& file);

}  // namespace

DeploySpec read_deploy(const std::filesystem::path& file) {
  try {
    return read_deploy_json(file);
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

namespace {

DeploySpec read_deploy_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot open");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(file.string() + ": not JSON: " + e.what());
  }
  DeploySpec d;
  d.file = file;
  if (j.contains("policy")) d.policy = file.parent_path() / j.at("policy").get<std::string>();
  if (j.contains("input")) d.input = j.at("input").get<std::string>();
  if (j.contains("output")) d.output = j.at("output").get<std::string>();
  if (j.contains("recurrent")) {
    for (const auto& p : j.at("recurrent")) d.recurrent.emplace_back(p.at("input").get<std::string>(), p.at("output").get<std::string>());
  }
  d.loop_hz = number(file, at(file, j, "", "loop_hz"), "/loop_hz");
  d.policy_hz = number(file, at(file, j, "", "policy_hz"), "/policy_hz");
  d.joints = names(file, at(file, j, "", "joint_names"), "/joint_names");
  const std::size_t n = d.joints.size();
  d.default_pose = per_element(file, at(file, j, "", "default_pose"), "/default_pose", n);
  d.kp = per_element(file, at(file, j, "", "kp"), "/kp", n);
  d.kd = per_element(file, at(file, j, "", "kd"), "/kd", n);
  if (j.contains("hold")) {
    const auto& h = j.at("hold");
    d.hold_joints = names(file, at(file, h, "/hold", "joint_names"), "/hold/joint_names");
    const std::size_t m = d.hold_joints.size();
    d.hold_pose = per_element(file, at(file, h, "/hold", "pose"), "/hold/pose", m);
    d.hold_kp = per_element(file, at(file, h, "/hold", "kp"), "/hold/kp", m);
    d.hold_kd = per_element(file, at(file, h, "/hold", "kd"), "/hold/kd", m);
  }
  const auto& action = at(file, j, "", "action");
  d.action_scale = per_element(file, at(file, action, "/action", "scale"), "/action/scale", n);
  if (action.contains("clip")) d.action_clip = number(file, action.at("clip"), "/action/clip");

  const auto& obs = at(file, j, "", "observation");
  d.obs_clip = obs.contains("clip") ? number(file, obs.at("clip"), "/observation/clip") : k_inf;
  const std::size_t history = obs.value("history_length", std::size_t{1});
  d.term_major = obs.value("history_order", std::string("term_major")) != "frame_major";
  const auto& terms = at(file, obs, "/observation", "terms");
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const std::string key = "/observation/terms/" + std::to_string(k);
    const auto& t = terms[k];
    TermSpec s;
    s.name = at(file, t, key, "name").get<std::string>();
    s.size = term_size(file, key + "/name", s.name, n);
    s.scale = t.contains("scale") ? per_element(file, t.at("scale"), key + "/scale", s.size) : std::vector<double>(s.size, 1.0);
    s.lo = -k_inf;
    s.hi = k_inf;
    if (t.contains("clip")) {
      if (!t.at("clip").is_array()) fail(file, key + "/clip", "[lo, hi]");
      const auto c = per_element(file, t.at("clip"), key + "/clip", 2);
      s.lo = c[0];
      s.hi = c[1];
    }
    s.history = t.value("history_length", history);
    if (s.name == "phase") s.period = number(file, at(file, t, key, "period"), key + "/period");
    d.terms.push_back(s);
  }
  d.command_max = {k_inf, k_inf, k_inf};
  d.command_min = {-k_inf, -k_inf, -k_inf};
  if (j.contains("command") && j.at("command").contains("max")) {
    const auto mx = per_element(file, j.at("command").at("max"), "/command/max", 3);
    for (std::size_t i = 0; i < 3; ++i) {
      d.command_max[i] = mx[i];
      d.command_min[i] = -mx[i];
    }
    if (j.at("command").contains("min")) {
      const auto mn = per_element(file, j.at("command").at("min"), "/command/min", 3);
      for (std::size_t i = 0; i < 3; ++i) d.command_min[i] = mn[i];
    }
  }
  return d;
}

}  // namespace

ReferenceLoop::ReferenceLoop(const std::filesystem::path& mjcf, DeploySpec deploy, const std::filesystem::path& policy)
    : deploy_(std::move(deploy)), net_(load_net(deploy_, policy)) {
  // A published model written for MuJoCo 3 is loaded as praxis loads it (translated in memory for
  // MuJoCo 2.2.2): a file format matter, before the loop; nothing of praxis runs in the loop.
  model_ = praxis::sim::load_model(praxis::sim::MjcfTranslation(mjcf));
  data_ = mj_makeData(model_);
  const mjModel* m = model_;
  if (m->nkey > 0) {
    mj_resetDataKeyframe(m, data_, 0);
  } else {
    mj_resetData(m, data_);
  }

  int base = -1;
  for (int j = 0; j < m->njnt && base < 0; ++j) {
    if (m->jnt_type[j] == mjJNT_FREE) base = j;
  }
  if (base < 0) throw std::runtime_error(mjcf.string() + ": no free joint");
  base_qpos_ = m->jnt_qposadr[base];
  base_dof_ = m->jnt_dofadr[base];

  const auto find_joint = [&](const std::string& name) {
    int id = mj_name2id(m, mjOBJ_JOINT, name.c_str());
    if (id < 0) id = mj_name2id(m, mjOBJ_JOINT, (name + "_joint").c_str());
    const std::string suffix = "_joint";
    if (id < 0 && name.size() > suffix.size() && name.ends_with(suffix)) {
      id = mj_name2id(m, mjOBJ_JOINT, name.substr(0, name.size() - suffix.size()).c_str());
    }
    if (id < 0) throw std::runtime_error(mjcf.string() + ": no joint for the deploy file's \"" + name + "\"");
    return id;
  };
  const auto motor_of = [&](int joint, const std::string& name) {
    for (int a = 0; a < m->nu; ++a) {
      if (m->actuator_trntype[a] != mjTRN_JOINT || m->actuator_trnid[2 * a] != joint) continue;
      // The authors' loop writes the PD torque into ctrl: a motor with unit gain, gear 1, no bias.
      if (m->actuator_gaintype[a] != mjGAIN_FIXED || m->actuator_gainprm[a * mjNGAIN] != 1.0 ||
          m->actuator_biastype[a] != mjBIAS_NONE || m->actuator_gear[6 * a] != 1.0) {
        throw std::runtime_error(mjcf.string() + ": the actuator of \"" + name + "\" is not a torque motor (gear 1)");
      }
      return a;
    }
    throw std::runtime_error(mjcf.string() + ": no actuator drives \"" + name + "\"");
  };
  const auto add = [&](const std::string& name, double target, double kp, double kd) {
    const int id = find_joint(name);
    drives_.push_back(Drive{m->jnt_qposadr[id], m->jnt_dofadr[id], motor_of(id, name), target, kp, kd});
  };
  for (std::size_t i = 0; i < deploy_.joints.size(); ++i) {
    add(deploy_.joints[i], deploy_.default_pose[i], deploy_.kp[i], deploy_.kd[i]);
  }
  // A held joint the model does not have (unitree_rl_gym's 12-joint G1 fixes the waist and arms)
  // is fixed there: nothing to hold, as deploy_real.py's commands to it would move nothing.
  for (std::size_t i = 0; i < deploy_.hold_joints.size(); ++i) {
    const auto& name = deploy_.hold_joints[i];
    const bool present = mj_name2id(m, mjOBJ_JOINT, name.c_str()) >= 0 ||
                         mj_name2id(m, mjOBJ_JOINT, (name + "_joint").c_str()) >= 0;
    if (!present) {
      absent_.push_back(name);
      continue;
    }
    add(name, deploy_.hold_pose[i], deploy_.hold_kp[i], deploy_.hold_kd[i]);
  }
  for (int a = 0; a < m->nu; ++a) {
    const bool driven = std::any_of(drives_.begin(), drives_.end(), [&](const Drive& d) { return d.actuator == a; });
    if (!driven && m->actuator_trntype[a] == mjTRN_JOINT) unnamed_.push_back(mj_id2name(m, mjOBJ_JOINT, m->actuator_trnid[2 * a]));
  }

  const double periods = 1.0 / (deploy_.policy_hz * m->opt.timestep);
  decimation_ = static_cast<std::size_t>(std::lround(periods));
  if (decimation_ == 0 || std::abs(periods - static_cast<double>(decimation_)) > 1e-6) {
    throw std::runtime_error(deploy_.file.string() + ": key \"/policy_hz\": expected a policy period that is a whole number of " +
                             mjcf.string() + "'s time steps (" + std::to_string(m->opt.timestep) + " s)");
  }

  // The network's observation and action, and its recurrent state.
  const auto recurrent_in = [&](const std::string& name) {
    return std::any_of(deploy_.recurrent.begin(), deploy_.recurrent.end(), [&](const auto& p) { return p.first == name; });
  };
  const auto recurrent_out = [&](const std::string& name) {
    return std::any_of(deploy_.recurrent.begin(), deploy_.recurrent.end(), [&](const auto& p) { return p.second == name; });
  };
  obs_input_ = deploy_.input;
  for (const auto& [name, shape] : net_.inputs()) {
    if (obs_input_.empty() && !recurrent_in(name)) obs_input_ = name;
  }
  action_output_ = deploy_.output;
  for (const auto& name : net_.outputs()) {
    if (action_output_.empty() && !recurrent_out(name)) action_output_ = name;
  }
  action_.assign(deploy_.joints.size(), 0.0f);
}

ReferenceNet ReferenceLoop::load_net(const DeploySpec& deploy, const std::filesystem::path& policy) {
  if (policy.empty() && deploy.policy.empty()) {
    throw std::runtime_error(deploy.file.string() + ": key \"/policy\": expected the policy's ONNX file (or one given)");
  }
  return ReferenceNet::load(policy.empty() ? deploy.policy : policy);
}

ReferenceLoop::~ReferenceLoop() {
  mj_deleteData(data_);
  mj_deleteModel(model_);
}

double ReferenceLoop::timestep() const { return model_->opt.timestep; }

void ReferenceLoop::apply_pd() {
  for (const auto& d : drives_) {
    data_->ctrl[d.actuator] = d.kp * (d.target - data_->qpos[d.qpos]) + d.kd * (0.0 - data_->qvel[d.dof]);
  }
}

void ReferenceLoop::hold_step() {
  for (std::size_t i = 0; i < deploy_.joints.size(); ++i) drives_[i].target = deploy_.default_pose[i];
  apply_pd();
  mj_step(model_, data_);
  ++steps_;
}

void ReferenceLoop::set_physics_state(const std::vector<double>& qpos, const std::vector<double>& qvel,
                                      const std::vector<double>& qacc_warmstart, const std::vector<double>& act,
                                      double time) {
  const auto check = [](const char* name, std::size_t size, int expected) {
    if (size != static_cast<std::size_t>(expected)) {
      throw std::runtime_error(std::string("the initial state's ") + name + " has " + std::to_string(size) +
                               " values; the model has " + std::to_string(expected) +
                               " (is it a state of another model?)");
    }
  };
  check("qpos", qpos.size(), model_->nq);
  check("qvel", qvel.size(), model_->nv);
  check("qacc_warmstart", qacc_warmstart.size(), model_->nv);
  check("act", act.size(), model_->na);
  std::copy(qpos.begin(), qpos.end(), data_->qpos);
  std::copy(qvel.begin(), qvel.end(), data_->qvel);
  std::copy(qacc_warmstart.begin(), qacc_warmstart.end(), data_->qacc_warmstart);
  std::copy(act.begin(), act.end(), data_->act);
  data_->time = time;
}

void ReferenceLoop::engage() {
  std::fill(action_.begin(), action_.end(), 0.0f);
  history_.clear();
  state_.clear();
  for (const auto& [in, out] : deploy_.recurrent) {
    const auto shape = net_.inputs().at(in);
    std::size_t size = 1;
    for (const auto s : shape) size *= static_cast<std::size_t>(s);
    state_[in] = std::vector<double>(size, 0.0);
  }
  counter_ = decimation_;
  engaged_at_ = steps_;
  inferences_ = 0;
  infer();
}

void ReferenceLoop::policy_step() {
  apply_pd();
  mj_step(model_, data_);
  ++steps_;
  ++counter_;
  if (counter_ % decimation_ == 0) infer();
}

std::vector<double> ReferenceLoop::term_values(const TermSpec& t) const {
  const double* qpos = data_->qpos;
  const double* qvel = data_->qvel;
  std::vector<double> v(t.size);
  if (t.name == "base_ang_vel") {
    for (std::size_t i = 0; i < 3; ++i) v[i] = qvel[base_dof_ + 3 + static_cast<int>(i)];
  } else if (t.name == "projected_gravity") {
    // deploy_mujoco.py's get_gravity_orientation on the free joint's (w, x, y, z).
    const double w = qpos[base_qpos_ + 3], x = qpos[base_qpos_ + 4], y = qpos[base_qpos_ + 5], z = qpos[base_qpos_ + 6];
    v[0] = 2.0 * (-z * x + w * y);
    v[1] = -2.0 * (z * y + w * x);
    v[2] = 1.0 - 2.0 * (w * w + z * z);
  } else if (t.name == "velocity_command") {
    for (std::size_t i = 0; i < 3; ++i) v[i] = command_[i];
  } else if (t.name == "joint_pos_rel") {
    for (std::size_t i = 0; i < t.size; ++i) v[i] = qpos[drives_[i].qpos] - deploy_.default_pose[i];
  } else if (t.name == "joint_vel_rel") {
    for (std::size_t i = 0; i < t.size; ++i) v[i] = qvel[drives_[i].dof];
  } else if (t.name == "last_action") {
    for (std::size_t i = 0; i < t.size; ++i) v[i] = static_cast<double>(action_[i]);
  } else if (t.name == "phase") {
    const double time = static_cast<double>(counter_) * model_->opt.timestep;
    const double phase = std::fmod(time, t.period) / t.period;
    v[0] = std::sin(2.0 * std::numbers::pi * phase);
    v[1] = std::cos(2.0 * std::numbers::pi * phase);
  }
  return v;
}

void ReferenceLoop::infer() {
  const auto& terms = deploy_.terms;
  const bool first = history_.empty();
  if (first) history_.resize(terms.size());
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const auto& t = terms[k];
    const auto raw = term_values(t);
    std::vector<float> frame(t.size);
    for (std::size_t i = 0; i < t.size; ++i) {
      const double scaled = std::clamp(raw[i], t.lo, t.hi) * t.scale[i];
      frame[i] = static_cast<float>(std::clamp(scaled, -deploy_.obs_clip, deploy_.obs_clip));
    }
    auto& h = history_[k];
    if (first) {
      h.assign(t.history, frame);
    } else {
      h.erase(h.begin());
      h.push_back(frame);
    }
  }
  obs_.clear();
  if (deploy_.term_major) {
    for (const auto& h : history_) {
      for (const auto& frame : h) obs_.insert(obs_.end(), frame.begin(), frame.end());
    }
  } else {
    const std::size_t frames = terms.empty() ? 0 : terms.front().history;
    for (std::size_t f = 0; f < frames; ++f) {
      for (const auto& h : history_) obs_.insert(obs_.end(), h[f].begin(), h[f].end());
    }
  }

  std::map<std::string, std::vector<double>> feeds = state_;
  feeds[obs_input_] = std::vector<double>(obs_.begin(), obs_.end());
  const auto out = net_.run(feeds);
  for (const auto& [in, name] : deploy_.recurrent) state_[in] = out.at(name).data;
  const auto& a = out.at(action_output_).data;
  if (a.size() != action_.size()) {
    throw std::runtime_error(deploy_.file.string() + ": the network gives " + std::to_string(a.size()) + " actions for " +
                             std::to_string(action_.size()) + " joints");
  }
  for (std::size_t i = 0; i < action_.size(); ++i) {
    // The network's output is float32 in every deployment; the reference computes in double.
    float v = static_cast<float>(a[i]);
    if (deploy_.action_clip) v = std::clamp(v, -static_cast<float>(*deploy_.action_clip), static_cast<float>(*deploy_.action_clip));
    action_[i] = v;
    drives_[i].target = deploy_.default_pose[i] + deploy_.action_scale[i] * static_cast<double>(v);
  }
  ++inferences_;
}

BasePose ReferenceLoop::base() const {
  const double* p = data_->qpos + base_qpos_;
  const double w = p[3], x = p[4], y = p[5], z = p[6];
  BasePose b;
  b.t = static_cast<double>(steps_ - engaged_at_) * model_->opt.timestep;
  b.x = p[0];
  b.y = p[1];
  b.z = p[2];
  b.yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
  b.up = 1.0 - 2.0 * (x * x + y * y);
  return b;
}

}  // namespace praxis_reference
