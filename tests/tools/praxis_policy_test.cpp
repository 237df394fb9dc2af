// praxis-policy (src/tools/praxis_policy.cpp), run as the process a user runs, on stand-ins of the
// published files (tests/tools/make_policy_standins.py: TorchScript policies shaped like
// unitree_rl_gym's, an ONNX shaped like unitree_rl_lab's, seeded random weights) and configs each
// test writes in the vendors' layouts. Each import is checked three ways: the deploy file's contents
// (joints mapped by motor index, gains, hold, terms, scales, history, command), praxis' network
// against the policy's own framework on the same observations (the recurrent state carried over
// steps), and `praxis-policy check`. Every refusal names the file and the key, and leaves neither
// --out nor the hidden folder next to it.
//
// The TorchScript cases need python3-torch; without it they print "SKIPPED: ..." (CTest reports
// them skipped) and the Isaac Lab cases still run.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/scratch_dir.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/policy/deploy.hpp"
#include "praxis/policy/network.hpp"
#include "praxis/policy/observation.hpp"

namespace praxis_policy_test {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using praxis::test::ScratchDir;
using G1 = praxis::unitree::G1;

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr
};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Run run(const std::string& exe, const std::vector<std::string>& args) {
  std::string command = quoted(exe);
  for (const auto& a : args) command += " " + quoted(a);
  command += " 2>&1";
  Run r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Run tool(const std::vector<std::string>& args) { return run(PRAXIS_POLICY_TOOL, args); }

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The stand-ins, written once (the CTest fixture does it before the suite; a direct run of the
// binary makes them itself).
const fs::path& standins() {
  static const fs::path dir = [] {
    const fs::path d = PRAXIS_POLICY_STANDINS;
    if (!fs::exists(d / "done")) {
      const auto r = run(PRAXIS_TEST_PYTHON, {PRAXIS_POLICY_STANDINS_SCRIPT, d.string()});
      INFO(r.output);
      REQUIRE(r.status == 0);
    }
    return d;
  }();
  return dir;
}

// Empty when python3-torch is there; otherwise why the TorchScript cases are skipped.
std::string torch_missing() {
  const auto marker = standins() / "torch_missing.txt";
  return fs::exists(marker) ? read_text(marker) : std::string();
}

#define SKIP_WITHOUT_TORCH()                                                  \
  do {                                                                        \
    if (const auto why = torch_missing(); !why.empty()) {                     \
      std::printf("SKIPPED: needs python3-torch: %s\n", why.c_str());         \
      return;                                                                 \
    }                                                                         \
  } while (false)

// The folder's entries: after a refusal only the test's own inputs are there (no --out, no hidden
// folder next to it).
std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

Json deploy_of(const fs::path& out) { return Json::parse(read_text(out / "deploy.json")); }

// praxis' network on the stand-in's observations, its recurrent pairs (from the deploy file)
// carried from zero, against the actions the policy's own framework computed.
double worst_difference(const fs::path& out, const fs::path& samples_file) {
  const Json deploy = deploy_of(out);
  auto net = praxis::policy::Network::load(out / "policy.onnx");
  if (deploy.contains("recurrent")) {
    for (const auto& p : deploy["recurrent"]) {
      net.carry(net.output_index(p["output"].get<std::string>()), net.input_index(p["input"].get<std::string>()));
    }
  }
  net.reset_state();
  const std::size_t obs = net.input_index("obs"), actions = net.output_index("actions");
  const Json samples = Json::parse(read_text(samples_file));
  double worst = 0.0;
  std::size_t steps = 0;
  for (const auto& step : samples["steps"]) {
    auto in = net.input(obs);
    REQUIRE(in.size() == step["obs"].size());
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = step["obs"][i].get<float>();
    net.run();
    const auto out_values = net.output(actions);
    REQUIRE(out_values.size() == step["actions"].size());
    double scale = 1.0, diff = 0.0;
    for (std::size_t i = 0; i < out_values.size(); ++i) {
      const double want = step["actions"][i].get<double>();
      scale = std::max(scale, std::abs(want));
      diff = std::max(diff, std::abs(static_cast<double>(out_values[i]) - want));
    }
    worst = std::max(worst, diff / scale);
    ++steps;
  }
  REQUIRE(steps >= 8);
  return worst;
}

// ---- the configs, in the vendors' layouts ----------------------------------------------------------

// unitree_rl_gym deploy_real, G1: the right leg first (motors 6..11, then 0..5), so the mapping by
// motor index shows; every gain and angle differs per joint so a swap shows.
std::string deploy_real_yaml(const std::string& extra = "", const std::string& imu = "pelvis", int num_obs = 47,
                             const std::string& kds = "kds: [2, 2.1, 2.2, 4, 2.3, 2.4, 2.5, 2.6, 2.7, 4.1, 2.8, 2.9]\n") {
  return "# \ncontrol_dt: 0.02\n\nmsg_type: \"hg\"\nimu_type: \"" + imu +
         "\"\n\nlowcmd_topic: \"rt/lowcmd\"\nlowstate_topic: \"rt/lowstate\"\n\n"
         "policy_path: \"{LEGGED_GYM_ROOT_DIR}/deploy/pre_train/g1/motion.pt\"\n\n"
         "leg_joint2motor_idx: [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5]\n"
         "kps: [101, 102, 103, 151, 41, 42, 104, 105, 106, 152, 43, 44]\n" +
         kds +
         "default_angles: [-0.12,  0.01,  0.02,  0.31, -0.21, 0.03, \n"
         "                  -0.11,  0.04,  0.05,  0.32, -0.22, 0.06]\n\n"
         "arm_waist_joint2motor_idx: [12, 13, 14, \n"
         "                            15, 16, 17, 18, 19, 20, 21, \n"
         "                            22, 23, 24, 25, 26, 27, 28]\n\n"
         "arm_waist_kps: [300, 301, 302,\n                100, 101, 50, 51, 20, 21, 22,\n"
         "                102, 103, 52, 53, 23, 24, 25]\n\n"
         "arm_waist_kds: [3, 3.1, 3.2, \n                2, 2.1, 2.2, 2.3, 1, 1.1, 1.2,\n"
         "                2.4, 2.5, 2.6, 2.7, 1.3, 1.4, 1.5]\n\n"
         "arm_waist_target: [ 0, 0.01, 0.02,\n                    0.1, 0.2, 0, 0.3, 0, 0, 0,\n"
         "                    0.1, -0.2, 0, 0.3, 0, 0, 0]\n\n"
         "ang_vel_scale: 0.25\ndof_pos_scale: 1.0\ndof_vel_scale: 0.05\naction_scale: 0.25\n"
         "cmd_scale: [2.0, 2.0, 0.25]\nnum_actions: 12\nnum_obs: " +
         std::to_string(num_obs) + "\n\nmax_cmd: [0.8, 0.5, 1.57]\n" + extra;
}

std::string deploy_mujoco_yaml() {
  return "# \npolicy_path: \"{LEGGED_GYM_ROOT_DIR}/deploy/pre_train/g1/motion.pt\"\n"
         "xml_path: \"{LEGGED_GYM_ROOT_DIR}/resources/robots/g1_description/scene.xml\"\n\n"
         "simulation_duration: 60.0\nsimulation_dt: 0.002\ncontrol_decimation: 10\n\n"
         "kps: [100, 100, 100, 150, 40, 40, 100, 100, 100, 150, 40, 40]\n"
         "kds: [2, 2, 2, 4, 2, 2, 2, 2, 2, 4, 2, 2]\n\n"
         "default_angles: [-0.1,  0.0,  0.0,  0.3, -0.2, 0.0, \n                  -0.1,  0.0,  0.0,  0.3, -0.2, 0.0]\n\n"
         "ang_vel_scale: 0.25\ndof_pos_scale: 1.0\ndof_vel_scale: 0.05\naction_scale: 0.25\n"
         "cmd_scale: [2.0, 2.0, 0.25]\nnum_actions: 12\nnum_obs: 47\n\ncmd_init: [0.5, 0, 0]";
}

// unitree_rl_lab's G1 velocity map: policy index -> SDK motor.
const std::vector<std::size_t> k_ids_map{0, 6, 12, 1, 7, 13, 2, 8, 14, 3, 9, 15, 22, 4, 10,
                                         16, 23, 5, 11, 17, 24, 18, 25, 19, 26, 20, 27, 21, 28};

std::string list(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.17g", i ? ", " : "", v[i]);  // round-trips
    out += buf;
  }
  return out + "]";
}

std::vector<double> ramp(std::size_t n, double first, double step) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(first + step * static_cast<double>(i));
  return v;
}

// Per SDK motor: 100 + motor, so kp of policy joint i must be 100 + k_ids_map[i].
const std::vector<double> k_stiffness = ramp(29, 100, 1);
const std::vector<double> k_damping = ramp(29, 2, 0.1);
// Per policy joint, within each joint's limits (a small ramp around zero, knees and elbows bent).
std::vector<double> lab_defaults() {
  std::vector<double> d(29, 0.0);
  for (std::size_t i = 0; i < 29; ++i) d[i] = 0.001 * static_cast<double>(i);
  d[9] = d[10] = 0.3;    // knees
  d[21] = d[22] = 0.97;  // elbows
  return d;
}

struct LabTerm {
  std::string name;
  std::string body;  // the term's lines after its name, indented 4
};

std::vector<LabTerm> lab_terms(std::size_t history = 5) {
  const std::string h = "    history_length: " + std::to_string(history) + "\n";
  const std::string joints1 = list(std::vector<double>(29, 1.0));
  return {{"base_ang_vel", "    params: {}\n    clip: null\n    scale: [0.2, 0.2, 0.2]\n" + h},
          {"projected_gravity", "    params: {}\n    clip: null\n    scale: [1.0, 1.0, 1.0]\n" + h},
          {"velocity_commands", "    params: {command_name: base_velocity}\n    clip: null\n    scale: [1.0, 1.0, 1.0]\n" + h},
          {"joint_pos_rel", "    params: {}\n    clip: null\n    scale: " + joints1 + "\n" + h},
          {"joint_vel_rel", "    params: {}\n    clip: null\n    scale: " + list(std::vector<double>(29, 0.05)) + "\n" + h},
          {"last_action", "    params: {}\n    clip: null\n    scale: " + joints1 + "\n" + h}};
}

std::string lab_yaml(const std::vector<LabTerm>& terms, const std::string& action_clip = "null",
                     const std::vector<std::size_t>& ids = k_ids_map, const std::vector<double>& offset = lab_defaults()) {
  std::string ids_text = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) ids_text += (i ? ", " : "") + std::to_string(ids[i]);
  ids_text += "]";
  std::string y = "joint_ids_map: " + ids_text + "\nstep_dt: 0.02\nstiffness: " + list(k_stiffness) +
                  "\ndamping: " + list(k_damping) + "\ndefault_joint_pos: " + list(lab_defaults()) +
                  "\ncommands:\n  base_velocity:\n    ranges:\n      lin_vel_x: [-0.5, 1.0]\n"
                  "      lin_vel_y: [-0.3, 0.3]\n      ang_vel_z: [-0.2, 0.2]\n      heading: null\n"
                  "actions:\n  JointPositionAction:\n    clip: " + action_clip +
                  "\n    joint_names: [.*]\n    scale: " + list(std::vector<double>(ids.size(), 0.25)) +
                  "\n    offset: " + list(offset) +
                  "\n    joint_ids: !!python/object/apply:builtins.slice [null, null, null]\nobservations:\n";
  for (const auto& t : terms) y += "  " + t.name + ":\n" + t.body;
  return y;
}

// A refused import: status 2, the message, and nothing written next to the inputs.
void require_refused(const Run& r, const std::string& message, const ScratchDir& dir,
                     const std::set<std::string>& inputs) {
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK(r.output.find(message) != std::string::npos);
  CHECK(entries(dir.path()) == inputs);
}

std::vector<std::string> import_args(const std::string& from, const fs::path& policy, const fs::path& config,
                                     const std::string& robot, const fs::path& out) {
  return {"import", "--from", from, "--policy", policy.string(), "--config", config.string(), "--robot", robot,
          "--out", out.string()};
}

// ---- legged_gym ------------------------------------------------------------------------------------

TEST_CASE("praxis-policy import --from legged_gym: a TorchScript MLP and a deploy_real config",
          "[tools][policy]") {
  SKIP_WITHOUT_TORCH();
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("g1.yaml", deploy_real_yaml());
  const auto policy = standins() / "legged_gym_mlp" / "motion.pt";
  const auto out = dir / "walk";
  const Run r = tool(import_args("legged_gym", policy, config, "g1", out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("converted from TorchScript (mlp)") != std::string::npos);
  CHECK(r.output.find("praxis' network reproduces the TorchScript module") != std::string::npos);
  CHECK(entries(dir.path()) == std::set<std::string>{"g1.yaml", "walk"});
  CHECK(entries(out) == std::set<std::string>{"deploy.json", "policy.onnx"});

  const Json d = deploy_of(out);
  CHECK(d["policy"] == "policy.onnx");
  CHECK(d["robot"] == "g1");
  CHECK_FALSE(d.contains("recurrent"));
  CHECK(d["loop_hz"] == 500.0);
  CHECK(d["policy_hz"] == 50.0);
  // leg_joint2motor_idx [6..11, 0..5]: the G1's wire order is the SDK's motor order.
  const std::vector<std::string> legs{"right_hip_pitch", "right_hip_roll", "right_hip_yaw", "right_knee",
                                      "right_ankle_pitch", "right_ankle_roll", "left_hip_pitch", "left_hip_roll",
                                      "left_hip_yaw", "left_knee", "left_ankle_pitch", "left_ankle_roll"};
  CHECK(d["joint_names"].get<std::vector<std::string>>() == legs);
  CHECK(d["default_pose"].get<std::vector<double>>() ==
        std::vector<double>{-0.12, 0.01, 0.02, 0.31, -0.21, 0.03, -0.11, 0.04, 0.05, 0.32, -0.22, 0.06});
  CHECK(d["kp"].get<std::vector<double>>() == std::vector<double>{101, 102, 103, 151, 41, 42, 104, 105, 106, 152, 43, 44});
  CHECK(d["kd"].get<std::vector<double>>() ==
        std::vector<double>{2, 2.1, 2.2, 4, 2.3, 2.4, 2.5, 2.6, 2.7, 4.1, 2.8, 2.9});
  CHECK(d["action"] == Json::parse(R"({"scale": 0.25})"));
  CHECK(d["observation"] == Json::parse(R"({"terms": [
      {"name": "base_ang_vel", "scale": 0.25}, {"name": "projected_gravity"},
      {"name": "velocity_command", "scale": [2.0, 2.0, 0.25]}, {"name": "joint_pos_rel", "scale": 1.0},
      {"name": "joint_vel_rel", "scale": 0.05}, {"name": "last_action"}, {"name": "phase", "period": 0.8}]})"));
  CHECK(d["command"] == Json::parse(R"({"source": "gamepad", "max": [0.8, 0.5, 1.57], "sticks": "scaled"})"));
  // arm_waist_* -> hold, by motor index: waist 12..14, arms 15..28.
  std::vector<std::string> held;
  for (std::size_t j = 12; j < 29; ++j) held.emplace_back(G1::joints[j].name);
  CHECK(d["hold"]["joint_names"].get<std::vector<std::string>>() == held);
  CHECK(d["hold"]["pose"].get<std::vector<double>>() ==
        std::vector<double>{0, 0.01, 0.02, 0.1, 0.2, 0, 0.3, 0, 0, 0, 0.1, -0.2, 0, 0.3, 0, 0, 0});
  CHECK(d["hold"]["kp"][1] == 301.0);
  CHECK(d["hold"]["kd"][16] == 1.5);
  CHECK(d["blend_in"] == 0.0);

  CHECK(worst_difference(out, standins() / "legged_gym_mlp" / "samples.json") < 1e-5);

  // The observation praxis builds from a state is the one deploy_real.py builds from the same state.
  const auto config_read = praxis::policy::load_deploy(out / "deploy.json");
  std::vector<std::size_t> wire;
  for (const auto& n : config_read.joint_names) wire.push_back(praxis::joint_index<G1>(n));
  praxis::policy::ObservationBuilder<G1::joint_count> builder(config_read, wire);
  praxis::RobotState<G1::joint_count> state;
  for (std::size_t j = 0; j < G1::joint_count; ++j) {
    state.q[static_cast<Eigen::Index>(j)] = 0.01 * static_cast<double>(j) - 0.1;
    state.dq[static_cast<Eigen::Index>(j)] = 0.3 - 0.02 * static_cast<double>(j);
  }
  state.imu.gyro = {0.4, -0.2, 0.8};
  state.projected_gravity = {0.1, -0.05, -0.99};
  const std::array<double, 3> stick_command{0.8 * 0.5, 0.5 * -0.25, 1.57 * 0.3};  // ly, -lx, -rx times max_cmd
  std::vector<float> last(12);
  for (std::size_t i = 0; i < 12; ++i) last[i] = 0.1f * static_cast<float>(i) - 0.5f;
  const double time = 0.36;
  std::vector<float> obs(builder.size());
  REQUIRE(obs.size() == 47);
  builder.write(state, {stick_command, last, time}, obs);
  const std::vector<std::size_t> motors{6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5};
  const std::vector<double> defaults = d["default_pose"].get<std::vector<double>>();
  std::vector<double> expected{0.4 * 0.25, -0.2 * 0.25, 0.8 * 0.25, 0.1, -0.05, -0.99,
                               stick_command[0] * 2.0, stick_command[1] * 2.0, stick_command[2] * 0.25};
  for (std::size_t i = 0; i < 12; ++i) expected.push_back((state.q[static_cast<Eigen::Index>(motors[i])] - defaults[i]) * 1.0);
  for (std::size_t i = 0; i < 12; ++i) expected.push_back(state.dq[static_cast<Eigen::Index>(motors[i])] * 0.05);
  for (std::size_t i = 0; i < 12; ++i) expected.push_back(last[i]);
  const double phase = std::fmod(time, 0.8) / 0.8;
  expected.push_back(std::sin(2 * std::numbers::pi * phase));
  expected.push_back(std::cos(2 * std::numbers::pi * phase));
  for (std::size_t i = 0; i < 47; ++i) {
    INFO("observation value " << i);
    CHECK(obs[i] == Approx(expected[i]).margin(1e-6));
  }

  const Run c = tool({"check", (out / "deploy.json").string()});
  INFO(c.output);
  CHECK(c.status == 0);
  CHECK(c.output.find("passes every load-time check for g1") != std::string::npos);
  CHECK(c.output.find("drives 12 joints (right_hip_pitch") != std::string::npos);
  CHECK(c.output.find("holds 17 (waist_yaw") != std::string::npos);
  CHECK(c.output.find("at the file's hold pose and gains") != std::string::npos);
  CHECK(c.output.find("loop 500 Hz, policy 50 Hz") != std::string::npos);
  CHECK(c.output.find("47 values") != std::string::npos);
  CHECK(c.output.find("no recurrent state") != std::string::npos);
  CHECK(c.output.find("times max [0.8, 0.5, 1.57]") != std::string::npos);
}

TEST_CASE("praxis-policy import --from legged_gym: an LSTM policy re-exported with its state as inputs and outputs, "
          "from a deploy_mujoco config",
          "[tools][policy]") {
  SKIP_WITHOUT_TORCH();
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("g1.yaml", deploy_mujoco_yaml());
  const auto out = dir / "walk";
  const Run r = tool(import_args("legged_gym", standins() / "legged_gym_lstm" / "motion.pt", config, "g1", out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("converted from TorchScript (lstm)") != std::string::npos);
  CHECK(r.output.find("praxis_demo --command 0.5,0,0") != std::string::npos);
  CHECK(r.output.find("hold: nothing") != std::string::npos);

  const Json d = deploy_of(out);
  CHECK(d["recurrent"] == Json::parse(R"([{"input": "h_in", "output": "h_out"}, {"input": "c_in", "output": "c_out"}])"));
  // deploy_mujoco: the robot's first num_actions joints, 1 / (0.002 * 10) = 50 Hz.
  std::vector<std::string> first;
  for (std::size_t j = 0; j < 12; ++j) first.emplace_back(G1::joints[j].name);
  CHECK(d["joint_names"].get<std::vector<std::string>>() == first);
  CHECK(d["policy_hz"] == 50.0);
  CHECK_FALSE(d.contains("hold"));
  // cmd_init [0.5, 0, 0]: the sticks reach legged_gym's training range, 1.
  CHECK(d["command"] == Json::parse(R"({"source": "gamepad", "max": [1.0, 1.0, 1.0], "sticks": "scaled"})"));

  // Eight steps with the LSTM's state carried: a state dropped or zeroed shows after the first.
  CHECK(worst_difference(out, standins() / "legged_gym_lstm" / "samples.json") < 1e-5);

  const Run c = tool({"check", (out / "deploy.json").string(), "--robot", "g1"});
  INFO(c.output);
  CHECK(c.status == 0);
  CHECK(c.output.find("recurrent state h_out -> h_in [1, 1, 64] c_out -> c_in [1, 1, 64]") != std::string::npos);
  CHECK(c.output.find("at the robot's stand pose with its default gains (the file holds nothing)") != std::string::npos);
}

TEST_CASE("praxis-policy import --from legged_gym: an rsl_rl GRU policy with a normalizer becomes an ONNX GRU, "
          "--joints in the vendor's spelling",
          "[tools][policy]") {
  SKIP_WITHOUT_TORCH();
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("g1.yaml", deploy_mujoco_yaml());
  const auto policy = standins() / "legged_gym_gru" / "motion.pt";

  // The conversion alone: onnx.checker and the script's own evaluation against TorchScript.
  const Run s = run(PRAXIS_TEST_PYTHON, {PRAXIS_POLICY_SCRIPT, "torch", "--policy", policy.string(), "--obs", "47",
                                         "--actions", "12", "--out", (dir / "gru.onnx").string(), "--report",
                                         (dir / "report.json").string()});
  INFO(s.output);
  REQUIRE(s.status == 0);
  const Json report = Json::parse(read_text(dir / "report.json"));
  CHECK(report["kind"] == "gru");
  CHECK(report["inputs"] == Json::parse(R"(["obs", "h_in"])"));
  CHECK(report["outputs"] == Json::parse(R"(["actions", "h_out"])"));
  CHECK(report["recurrent"] == Json::parse(R"([{"input": "h_in", "output": "h_out"}])"));
  CHECK(report["max_difference"].get<double>() < 1e-5);
  const auto ops = report["operators"].get<std::vector<std::string>>();
  CHECK(std::find(ops.begin(), ops.end(), "GRU") != ops.end());
  fs::remove(dir / "gru.onnx");
  fs::remove(dir / "report.json");

  // The import: praxis' own network runs the GRU and agrees with TorchScript over eight steps. The
  // policy's joints are given (right leg first) in the URDF's spelling; the file holds the model's.
  const auto out = dir / "walk";
  const std::vector<std::string> legs{"right_hip_pitch", "right_hip_roll", "right_hip_yaw", "right_knee",
                                      "right_ankle_pitch", "right_ankle_roll", "left_hip_pitch", "left_hip_roll",
                                      "left_hip_yaw", "left_knee", "left_ankle_pitch", "left_ankle_roll"};
  std::string joints;
  for (const auto& j : legs) joints += (joints.empty() ? "" : ",") + j + "_joint";
  auto args = import_args("legged_gym", policy, config, "g1", out);
  args.insert(args.end(), {"--joints", joints});
  const Run r = tool(args);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("converted from TorchScript (gru)") != std::string::npos);
  CHECK(deploy_of(out)["joint_names"].get<std::vector<std::string>>() == legs);
  CHECK(deploy_of(out)["recurrent"] == Json::parse(R"([{"input": "h_in", "output": "h_out"}])"));
  CHECK(worst_difference(out, standins() / "legged_gym_gru" / "samples.json") < 1e-5);
}

// ---- Isaac Lab -------------------------------------------------------------------------------------

TEST_CASE("praxis-policy import --from isaaclab: an ONNX MLP with history 5 and unitree_rl_lab's deploy.yaml",
          "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5)));
  const auto policy = standins() / "isaaclab_mlp" / "policy.onnx";
  const auto out = dir / "walk";
  const Run r = tool(import_args("isaaclab", policy, config, "g1", out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("copied as published") != std::string::npos);
  CHECK(read_text(out / "policy.onnx") == read_text(policy));

  const Json d = deploy_of(out);
  CHECK(d["robot"] == "g1");
  CHECK(d["policy_hz"] == 50.0);
  std::vector<std::string> names;
  std::vector<double> kp, kd;
  for (const auto m : k_ids_map) {
    names.emplace_back(G1::joints[m].name);  // the SDK's motor order is the G1's wire order
    kp.push_back(k_stiffness[m]);
    kd.push_back(k_damping[m]);
  }
  CHECK(d["joint_names"].get<std::vector<std::string>>() == names);
  CHECK(d["joint_names"][0] == "left_hip_pitch");
  CHECK(d["joint_names"][1] == "right_hip_pitch");
  CHECK(d["joint_names"][2] == "waist_yaw");
  CHECK(d["kp"].get<std::vector<double>>() == kp);
  CHECK(d["kd"].get<std::vector<double>>() == kd);
  const auto pose = d["default_pose"].get<std::vector<double>>();
  REQUIRE(pose.size() == 29);
  for (std::size_t i = 0; i < 29; ++i) CHECK(pose[i] == Approx(lab_defaults()[i]).margin(1e-12));
  CHECK(d["action"]["scale"].get<std::vector<double>>() == std::vector<double>(29, 0.25));
  CHECK_FALSE(d["action"].contains("clip"));
  const Json& obs = d["observation"];
  CHECK(obs["history_length"] == 5);
  CHECK(obs["history_order"] == "term_major");
  std::vector<std::string> terms;
  for (const auto& t : obs["terms"]) terms.push_back(t["name"]);
  CHECK(terms == std::vector<std::string>{"base_ang_vel", "projected_gravity", "velocity_command", "joint_pos_rel",
                                          "joint_vel_rel", "last_action"});
  CHECK(obs["terms"][0]["scale"] == Json::parse("[0.2, 0.2, 0.2]"));
  CHECK(obs["terms"][4]["scale"].size() == 29);
  CHECK(obs["terms"][4]["scale"][28] == 0.05);
  CHECK_FALSE(obs["terms"][0].contains("clip"));
  CHECK(d["command"] ==
        Json::parse(R"({"source": "gamepad", "min": [-0.5, -0.3, -0.2], "max": [1.0, 0.3, 0.2], "sticks": "clamped"})"));
  CHECK_FALSE(d.contains("hold"));  // every motor with gains is driven

  CHECK(worst_difference(out, standins() / "isaaclab_mlp" / "samples.json") < 1e-5);

  const Run c = tool({"check", (out / "deploy.json").string()});
  INFO(c.output);
  CHECK(c.status == 0);
  CHECK(c.output.find("drives 29 joints (left_hip_pitch, right_hip_pitch, waist_yaw, left_hip_roll") != std::string::npos);
  CHECK(c.output.find("holds none") != std::string::npos);
  CHECK(c.output.find("480 values") != std::string::npos);
  CHECK(c.output.find("clamped to min [-0.5, -0.3, -0.2], max [1, 0.3, 0.2]") != std::string::npos);
}

TEST_CASE("praxis-policy import --from isaaclab: gait_phase, a clipped term and per-term histories",
          "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  auto terms = lab_terms(1);
  terms[0].body = "    params: {}\n    clip: [-3.0, 3.0]\n    scale: [0.2, 0.2, 0.2]\n    history_length: 5\n";
  terms.push_back({"gait_phase", "    params: {period: 0.6}\n    clip: null\n    scale: [1.0, 1.0]\n    history_length: 1\n"});
  const auto config = dir.write("deploy.yaml", lab_yaml(terms));
  const auto out = dir / "walk";
  const Run r = tool(import_args("isaaclab", standins() / "isaaclab_phase" / "policy.onnx", config, "g1", out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const Json obs = deploy_of(out)["observation"];
  CHECK_FALSE(obs.contains("history_length"));
  CHECK(obs["terms"][0] == Json::parse(R"({"name": "base_ang_vel", "clip": [-3.0, 3.0], "scale": [0.2, 0.2, 0.2],
                                          "history_length": 5})"));
  CHECK(obs["terms"][1]["history_length"] == 1);
  CHECK(obs["terms"][6] == Json::parse(R"({"name": "phase", "period": 0.6, "scale": [1.0, 1.0], "history_length": 1})"));
  CHECK(worst_difference(out, standins() / "isaaclab_phase" / "samples.json") < 1e-5);
}

TEST_CASE("praxis-policy import --from isaaclab: motors with gains the policy does not drive are held at the "
          "robot's stand pose",
          "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  // A legs-only policy (motors 0..11) in a file that gives all 29 motors their gains.
  const std::vector<std::size_t> legs{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<LabTerm> terms;
  for (const auto& t : lab_terms(1)) {
    LabTerm legs_only = t;
    if (t.name.starts_with("joint_") || t.name == "last_action") {
      legs_only.body = "    params: {}\n    clip: null\n    scale: 1.0\n    history_length: 1\n";
    }
    terms.push_back(legs_only);
  }
  std::vector<double> offset(G1::stand_pose.begin(), G1::stand_pose.begin() + 12);
  std::string y = lab_yaml(terms, "null", legs, offset);
  // default_joint_pos: the legs' own (the file's 29 values are the other test's).
  const auto at = y.find("default_joint_pos: ");
  y.replace(at, y.find('\n', at) - at, "default_joint_pos: " + list(offset));
  const auto config = dir.write("deploy.yaml", y);
  const auto out = dir / "walk";
  const Run r = tool(import_args("isaaclab", standins() / "isaaclab_legs" / "policy.onnx", config, "g1", out));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const Json d = deploy_of(out);
  std::vector<std::string> held;
  std::vector<double> pose, kp, kd;
  for (std::size_t m = 12; m < 29; ++m) {
    held.emplace_back(G1::joints[m].name);
    pose.push_back(G1::stand_pose[m]);
    kp.push_back(k_stiffness[m]);
    kd.push_back(k_damping[m]);
  }
  CHECK(d["hold"]["joint_names"].get<std::vector<std::string>>() == held);
  CHECK(d["hold"]["pose"].get<std::vector<double>>() == pose);
  CHECK(d["hold"]["kp"].get<std::vector<double>>() == kp);
  CHECK(d["hold"]["kd"].get<std::vector<double>>() == kd);
  CHECK(r.output.find("holds 17 (waist_yaw") != std::string::npos);
  CHECK(r.output.find("at the file's hold pose and gains") != std::string::npos);
  CHECK(worst_difference(out, standins() / "isaaclab_legs" / "samples.json") < 1e-5);
}

// ---- refusals --------------------------------------------------------------------------------------

TEST_CASE("praxis-policy import refuses what it cannot map, naming the file and the key, and writes nothing",
          "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  // The mapping refuses before any conversion: a TorchScript file is not needed to reach it.
  const auto pt = dir.write("motion.pt", "not read");
  const auto onnx = standins() / "isaaclab_mlp" / "policy.onnx";
  const auto out = dir / "walk";

  SECTION("an observation term praxis has not") {
    auto terms = lab_terms(5);
    terms.push_back({"height_scan", "    params: {}\n    clip: null\n    scale: [1.0]\n    history_length: 1\n"});
    const auto config = dir.write("deploy.yaml", lab_yaml(terms));
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    config.string() + ": key \"/observations/height_scan\": expected a term praxis maps "
                                      "(base_ang_vel, projected_gravity, velocity_commands, joint_pos_rel, "
                                      "joint_vel_rel, last_action, gait_phase), found an unknown term",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("a missing key") {
    const auto config = dir.write("g1.yaml", deploy_real_yaml("", "pelvis", 47, ""));
    require_refused(tool(import_args("legged_gym", pt, config, "g1", out)),
                    config.string() + ": key \"/kds\": expected one gain per policy joint, found no such key", dir,
                    {"motion.pt", "g1.yaml"});
  }
  SECTION("a joint the robot lacks: motor 13 (waist_roll) on a 23-joint G1") {
    const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5)));
    require_refused(tool(import_args("isaaclab", onnx, config, "g1_23", out)),
                    config.string() + ": key \"/joint_ids_map/5\": expected the motor index of a joint of g1_23 (0, 1, "
                                      "2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, ",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("num_obs that is not the observation the scripts build") {
    const auto config = dir.write("g1.yaml", deploy_real_yaml("", "pelvis", 48));
    require_refused(tool(import_args("legged_gym", pt, config, "g1", out)),
                    config.string() + ": key \"/num_obs\": expected 47 (the observation deploy_real.py builds for "
                                      "num_actions = 12: angular velocity 3, gravity 3, command 3, joint positions 12, "
                                      "joint velocities 12, last action 12, sin and cos of the phase 2), found 48",
                    dir, {"motion.pt", "g1.yaml"});
  }
  SECTION("imu_type torso") {
    const auto config = dir.write("g1.yaml", deploy_real_yaml("", "torso"));
    require_refused(tool(import_args("legged_gym", pt, config, "g1", out)),
                    config.string() + ": key \"/imu_type\": \"torso\": the policy observes the pelvis", dir,
                    {"motion.pt", "g1.yaml"});
  }
  SECTION("a key the scripts do not have") {
    const auto config = dir.write("g1.yaml", deploy_real_yaml("obs_clip: 5\n"));
    require_refused(tool(import_args("legged_gym", pt, config, "g1", out)),
                    config.string() + ": key \"/obs_clip\": expected one of the keys praxis maps", dir,
                    {"motion.pt", "g1.yaml"});
  }
  SECTION("a per-joint action clip") {
    std::string clip = "[";
    for (int i = 0; i < 29; ++i) clip += std::string(i ? ", " : "") + "[-1.0, 1.0]";
    const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5), clip + "]"));
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    config.string() + ": key \"/actions/JointPositionAction/clip\": a per-joint clip of the processed "
                                      "action has no praxis equivalent yet",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("an action offset that is not the default pose") {
    auto offset = lab_defaults();
    offset[3] += 0.1;
    const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5), "null", k_ids_map, offset));
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    config.string() + ": key \"/actions/JointPositionAction/offset/3\": expected default_joint_pos/3",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("praxis' own check, after the files were written: the network takes another observation") {
    const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(4)));
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    (out / "deploy.json").string() + ": key \"/observation/terms\": the observation has 384 values",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("a policy rate that does not divide the loop's") {
    std::string y = lab_yaml(lab_terms(5));
    y.replace(y.find("step_dt: 0.02"), 13, "step_dt: 0.003");
    const auto config = dir.write("deploy.yaml", y);
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    config.string() + ": key \"/step_dt\": expected a policy period whose rate divides praxis' loop "
                                      "rate (500 Hz, --loop-hz) a whole number of times, found 0.003 s (333.333 Hz)",
                    dir, {"motion.pt", "deploy.yaml"});
  }
  SECTION("--joints naming a joint the robot lacks, in either spelling") {
    const auto config = dir.write("g1.yaml", deploy_mujoco_yaml());
    auto args = import_args("legged_gym", pt, config, "g1", out);
    args.insert(args.end(), {"--joints", "left_hip_pitch_joint,left_toe_joint,a,b,c,d,e,f,g,h,i,j"});
    require_refused(tool(args), "--joints: \"left_toe_joint\" is not a joint of g1 (left_hip_pitch, ", dir,
                    {"motion.pt", "g1.yaml"});
  }
  SECTION("a file that is not TorchScript") {
    const auto config = dir.write("g1.yaml", deploy_real_yaml());
    require_refused(tool(import_args("legged_gym", pt, config, "g1", out)),
                    pt.string() + ": not a TorchScript module", dir, {"motion.pt", "g1.yaml"});
  }
  SECTION("YAML with a Python tag other than slice and tuple") {
    const auto config = dir.write("deploy.yaml", "step_dt: !!python/object/apply:os.system [\"true\"]\n");
    require_refused(tool(import_args("isaaclab", onnx, config, "g1", out)),
                    config.string() + ":1: could not determine a constructor for the tag", dir,
                    {"motion.pt", "deploy.yaml"});
  }
}

TEST_CASE("praxis-policy import refuses an existing --out unless --force, which replaces it whole", "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5)));
  const auto onnx = standins() / "isaaclab_mlp" / "policy.onnx";
  const auto out = dir / "walk";
  dir.write("walk/notes.txt", "mine");

  const Run refused = tool(import_args("isaaclab", onnx, config, "g1", out));
  require_refused(refused, "--out " + out.string() + ": exists; --force replaces it", dir, {"deploy.yaml", "walk"});
  CHECK(entries(out) == std::set<std::string>{"notes.txt"});

  auto args = import_args("isaaclab", onnx, config, "g1", out);
  args.push_back("--force");
  const Run forced = tool(args);
  INFO(forced.output);
  REQUIRE(forced.status == 0);
  CHECK(entries(out) == std::set<std::string>{"deploy.json", "policy.onnx"});
  CHECK(entries(dir.path()) == std::set<std::string>{"deploy.yaml", "walk"});
}

// ---- check -----------------------------------------------------------------------------------------

TEST_CASE("praxis-policy check: the robot from the file or --robot, exit 2 with the loader's refusal",
          "[tools][policy]") {
  const ScratchDir dir("praxis_policy");
  const auto config = dir.write("deploy.yaml", lab_yaml(lab_terms(5)));
  const auto out = dir / "walk";
  REQUIRE(tool(import_args("isaaclab", standins() / "isaaclab_mlp" / "policy.onnx", config, "g1", out)).status == 0);
  const auto deploy = (out / "deploy.json").string();

  const Run other = tool({"check", deploy, "--robot", "go2"});
  CHECK(other.status == 2);
  CHECK(other.output.find(deploy + ": key \"/joint_names/0\": expected a joint of the robot model go2") != std::string::npos);

  Json d = deploy_of(out);
  d.erase("robot");
  const auto bare = dir.write("bare.json", d.dump());
  const Run no_robot = tool({"check", bare.string()});
  CHECK(no_robot.status == 2);
  CHECK(no_robot.output.find("has no \"robot\" key") != std::string::npos);
  fs::copy_file(out / "policy.onnx", dir / "policy.onnx");
  CHECK(tool({"check", bare.string(), "--robot", "g1"}).status == 0);

  d["robot"] = "g2";
  const auto wrong = dir.write("wrong.json", d.dump());
  const Run unknown = tool({"check", wrong.string()});
  CHECK(unknown.status == 2);
  CHECK(unknown.output.find(wrong.string() + ": key \"/robot\": expected one of praxis_demo's model names") !=
        std::string::npos);
}

#undef SKIP_WITHOUT_TORCH

}  // namespace praxis_policy_test
