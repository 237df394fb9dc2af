#pragma once
// Stand-in policies for a G1 that keep it up and moving, built by the tests themselves (never
// third-party weights): random weights fell the robot within a second, and a comparison of two
// deploy loops over a robot lying on the floor means nothing.
//
// Each is a fixed function, written as a network of the kind exporters write:
//   action = balance + damped feedback + sway + command + small fixed weights on everything
//   - balance: the ankles' pitch targets follow the pelvis' forward tilt (projected gravity x =
//     sin of the pitch) and its pitch rate (base_ang_vel y), gently: with the legs' gains below
//     the robot stands under PD alone, and this feedback with its sign reversed fells it within
//     6 s, so a wrong gravity or gyro convention shows;
//   - damped feedback on every joint: joint_pos_rel, its difference over the history (term-major)
//     or joint_vel_rel, last_action;
//   - sway, from the phase: the hips and ankles roll (the pelvis moves sideways), the knees bend
//     with hips and ankles following so the feet stay flat (a bob), the waist turns and the arms
//     swing; every part starts from zero at phase 0;
//   - the command: wz turns the waist, vx moves the arms;
//   - 0.004 x a fixed pseudo-random weight on every observation element, so that a value in the
//     wrong place changes every action.
// (a) isaac_lab_mlp: unitree_rl_lab's G1 layout (29 joints in Isaac Lab's order, the authors'
//     default pose, stiffness and damping but stiffer legs (leg_gains) and softer arm damping
//     (arm_damping); term-major history of 5, the phase with a history of
//     its own, a clip before the scale) as an Elu MLP obs -> 64 -> 64 -> 29.
// (b) legged_gym_lstm: legged_gym's G1 layout (12 leg joints, the 47-value frame, frame-major,
//     phase period 0.8, waist and arms held at deploy_real's gains, stiffer legs) as rsl_rl's recurrent export
//     (obs, h_in, c_in -> actions, h_out, c_out): an LSTM that low-passes the function (forget gate
//     0.5, so its carried state matters), then an Elu actor.
// The Elu layers see their inputs shifted into their linear part, so each network computes its
// function exactly in exact arithmetic, whatever the engine.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/onnx_model_builder.hpp"
#include "../support/scratch_dir.hpp"
#include "praxis/hardware/unitree/g1.hpp"

namespace stand_in {

using Json = nlohmann::json;
using G1 = praxis::unitree::G1;

// A fixed pseudo-random weight in [-1, 1] for (row, column).
inline float wiggle(std::size_t row, std::size_t col) {
  std::uint32_t h = static_cast<std::uint32_t>(row * 73856093u) ^ static_cast<std::uint32_t>(col * 19349663u + 0x9e3779b9u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return static_cast<float>(h % 2001u) / 1000.0f - 1.0f;
}

// action = w obs + b, w row-major (outputs x inputs).
struct Linear {
  std::size_t inputs = 0, outputs = 0;
  std::vector<float> w, b;
  Linear(std::size_t in, std::size_t out) : inputs(in), outputs(out), w(in * out, 0.0f), b(out, 0.0f) {}
  float& at(std::size_t row, std::size_t col) { return w[row * inputs + col]; }
};

// The gains of the function (see the top of this file); each stand-in stays up over 10 s from a
// release after 0.02 s or 1 s of holding its pose, and the balance with its sign reversed fells both.
struct Tuning {
  float tilt = 1.0f, tilt_rate = 0.3f;  // ankle pitch per sin(pitch), per pitch rate (rad/s, raw)
  float position = 0.6f;                // per joint_pos_rel
  float difference = 0.4f;              // per change of joint_pos_rel over one policy period (a)
  float velocity = 0.02f;               // per joint_vel_rel (raw, rad/s)
  float last_action = 0.2f;
  float sway_roll = 0.1f, sway_bend = 0.15f, sway_waist = 0.3f, sway_arms = 0.4f;
  float wiggle = 0.004f;
};
// (b)'s faster phase (0.8 s) rolls the pelvis into a sideways resonance sooner: a smaller roll.
inline Tuning lstm_tuning() {
  Tuning t;
  t.sway_roll = 0.05f;
  return t;
}

// The shift that keeps every hidden value of the stand-ins in Elu's linear part.
inline constexpr float k_shift = 3.0f;

// An actor as exporters write it (Gemm with transB 1, Elu between), computing `f`: the first layer
// adds k_shift, the Elu layers pass positive values through, the last subtracts it.
inline void write_mlp(const std::filesystem::path& file, const Linear& f, std::size_t hidden = 64) {
  const auto in = static_cast<std::int64_t>(f.inputs), out = static_cast<std::int64_t>(f.outputs);
  const auto h = static_cast<std::int64_t>(hidden);
  std::vector<float> w1(hidden * f.inputs, 0.0f), b1(hidden, k_shift), w2(hidden * hidden, 0.0f), b2(hidden, 0.0f);
  std::vector<float> w3(f.outputs * hidden, 0.0f), b3(f.outputs);
  std::copy(f.w.begin(), f.w.end(), w1.begin());
  for (std::size_t i = 0; i < f.outputs; ++i) b1[i] += f.b[i];
  for (std::size_t i = 0; i < hidden; ++i) w2[i * hidden + i] = 1.0f;
  for (std::size_t i = 0; i < f.outputs; ++i) {
    w3[i * hidden + i] = 1.0f;
    b3[i] = -k_shift;
  }
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {-1, in});
  m.initializer("actor.0.weight", {h, in}, w1);
  m.initializer("actor.0.bias", {h}, b1);
  m.initializer("actor.2.weight", {h, h}, w2);
  m.initializer("actor.2.bias", {h}, b2);
  m.initializer("actor.4.weight", {out, h}, w3);
  m.initializer("actor.4.bias", {out}, b3);
  m.node("Gemm", {"obs", "actor.0.weight", "actor.0.bias"}, {"/actor/0/Gemm_output_0"}).attr("transB", std::int64_t{1});
  m.node("Elu", {"/actor/0/Gemm_output_0"}, {"/actor/1/Elu_output_0"}).attr("alpha", 1.0f);
  m.node("Gemm", {"/actor/1/Elu_output_0", "actor.2.weight", "actor.2.bias"}, {"/actor/2/Gemm_output_0"})
      .attr("transB", std::int64_t{1});
  m.node("Elu", {"/actor/2/Gemm_output_0"}, {"/actor/3/Elu_output_0"}).attr("alpha", 1.0f);
  m.node("Gemm", {"/actor/3/Elu_output_0", "actor.4.weight", "actor.4.bias"}, {"actions"}).attr("transB", std::int64_t{1});
  m.output("actions", {-1, out});
  m.save(file);
}

// rsl_rl's recurrent export (obs, h_in, c_in -> actions, h_out, c_out; one LSTM step per run) with
// an LSTM that low-passes `f`: input and output gates open (bias 6), forget gate sigmoid(0) = 0.5,
// cell input tanh(s f + 0.1 h); the cell settles near 2.5 s f for small values, and the actor
// after it (Elu) gives 1 / (2.5 s) h_j as action j.
inline void write_lstm(const std::filesystem::path& file, const Linear& f, std::size_t hidden = 16) {
  const std::size_t k = f.inputs, n = f.outputs, hh = hidden;
  const auto K = static_cast<std::int64_t>(k), N = static_cast<std::int64_t>(n), H = static_cast<std::int64_t>(hh);
  constexpr float s = 0.16f;
  std::vector<float> w(4 * hh * k, 0.0f), r(4 * hh * hh, 0.0f), b(8 * hh, 0.0f);
  for (std::size_t j = 0; j < hh; ++j) {
    b[j] = 6.0f;       // input gate
    b[hh + j] = 6.0f;  // output gate
    if (j < n) {
      for (std::size_t c = 0; c < k; ++c) w[(3 * hh + j) * k + c] = s * f.w[j * k + c];
      b[3 * hh + j] = s * f.b[j];
      r[(3 * hh + j) * hh + j] = 0.1f;
    }
  }
  constexpr std::size_t actor = 32;
  std::vector<float> w4(actor * hh, 0.0f), b4(actor, k_shift), w5(n * actor, 0.0f), b5(n, -k_shift / (2.5f * s));
  for (std::size_t j = 0; j < n; ++j) {
    w4[j * hh + j] = 1.0f;
    w5[j * actor + j] = 1.0f / (2.5f * s);
  }
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {1, K});
  m.input("h_in", {1, 1, H});
  m.input("c_in", {1, 1, H});
  m.initializer("onnx::LSTM_W", {1, 4 * H, K}, w);
  m.initializer("onnx::LSTM_R", {1, 4 * H, H}, r);
  m.initializer("onnx::LSTM_B", {1, 8 * H}, b);
  m.initializer("axes0", {1}, std::vector<std::int64_t>{0});
  m.initializer("axes1", {1}, std::vector<std::int64_t>{1});
  m.initializer("actor.0.weight", {static_cast<std::int64_t>(actor), H}, w4);
  m.initializer("actor.0.bias", {static_cast<std::int64_t>(actor)}, b4);
  m.initializer("actor.2.weight", {N, static_cast<std::int64_t>(actor)}, w5);
  m.initializer("actor.2.bias", {N}, b5);
  m.node("Unsqueeze", {"obs", "axes0"}, {"/Unsqueeze_output_0"});
  m.node("LSTM", {"/Unsqueeze_output_0", "onnx::LSTM_W", "onnx::LSTM_R", "onnx::LSTM_B", "", "h_in", "c_in"},
         {"/rnn/LSTM_output_0", "h_out", "c_out"})
      .attr("hidden_size", H);
  m.node("Squeeze", {"/rnn/LSTM_output_0", "axes1"}, {"/rnn/Squeeze_output_0"});
  m.node("Squeeze", {"/rnn/Squeeze_output_0", "axes0"}, {"/Squeeze_output_0"});
  m.node("Gemm", {"/Squeeze_output_0", "actor.0.weight", "actor.0.bias"}, {"/actor/0/Gemm_output_0"})
      .attr("transB", std::int64_t{1});
  m.node("Elu", {"/actor/0/Gemm_output_0"}, {"/actor/1/Elu_output_0"});
  m.node("Gemm", {"/actor/1/Elu_output_0", "actor.2.weight", "actor.2.bias"}, {"actions"}).attr("transB", std::int64_t{1});
  m.output("actions", {1, N});
  m.output("h_out", {1, 1, H});
  m.output("c_out", {1, 1, H});
  m.save(file);
}

inline std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::logic_error("stand-in: no joint " + name);
  return static_cast<std::size_t>(it - names.begin());
}

// Where a term's newest raw values enter: observation element per value of the term.
struct Inputs {
  std::size_t gravity = 0, ang_vel = 0, command = 0, phase = 0;  // the newest values' first element
  float ang_vel_scale = 1.0f, command_scale = 1.0f;
};

// Balance, sway and command (see the top of this file); rows by joint name.
inline void add_shared(Linear& f, const std::vector<std::string>& joints, const Inputs& in, const Tuning& t,
                       bool upper_body) {
  const auto row = [&](const std::string& name) { return index_of(joints, name); };
  const std::size_t sin_at = in.phase, cos_at = in.phase + 1;
  for (const std::string s : {"left", "right"}) {
    // Pitch: sin(pitch) is projected gravity x; the pitch rate is base_ang_vel y.
    f.at(row(s + "_ankle_pitch"), in.gravity) += t.tilt;
    f.at(row(s + "_ankle_pitch"), in.ang_vel + 1) += t.tilt_rate / in.ang_vel_scale;
    // Sway: sideways roll; a bob as bend (1 - cos), the feet kept flat.
    f.at(row(s + "_hip_roll"), sin_at) += t.sway_roll;
    f.at(row(s + "_ankle_roll"), sin_at) -= t.sway_roll;
    f.at(row(s + "_knee"), cos_at) -= t.sway_bend;
    f.b[row(s + "_knee")] += t.sway_bend;
    f.at(row(s + "_hip_pitch"), cos_at) += 0.5f * t.sway_bend;
    f.b[row(s + "_hip_pitch")] -= 0.5f * t.sway_bend;
    f.at(row(s + "_ankle_pitch"), cos_at) += 0.5f * t.sway_bend;
    f.b[row(s + "_ankle_pitch")] -= 0.5f * t.sway_bend;
  }
  if (upper_body) {
    f.at(row("waist_yaw"), sin_at) += t.sway_waist;
    f.at(row("left_shoulder_pitch"), sin_at) += t.sway_arms;
    f.at(row("right_shoulder_pitch"), sin_at) -= t.sway_arms;
    f.at(row("waist_yaw"), in.command + 2) += 0.2f / in.command_scale;           // wz
    f.at(row("left_shoulder_pitch"), in.command) += 0.1f / in.command_scale;     // vx
    f.at(row("right_shoulder_pitch"), in.command) += 0.1f / in.command_scale;
  }
}

// Standing level, projected gravity z is -1: the bias cancels what the weights on it add, so that the
// first target stays near the pose STAND held (praxis' guard limits how fast a stiff target moves,
// 10 rad/s, and the authors' loop has no guard: a first jump would be an intended difference).
inline void settle(Linear& f, std::size_t gravity_z) {
  for (std::size_t i = 0; i < f.outputs; ++i) f.b[i] += f.at(i, gravity_z);
}

// unitree_rl_lab's G1 velocity deploy file: Isaac Lab's joint order as SDK (wire) indices, the default
// pose in that order, stiffness and damping in SDK order.
inline constexpr std::array<std::size_t, 29> k_isaac_order{0,  6,  12, 1,  7,  13, 2,  8,  14, 3,  9,  15, 22, 4, 10,
                                                            16, 23, 5,  11, 17, 24, 18, 25, 19, 26, 20, 27, 21, 28};
inline constexpr std::array<double, 29> k_isaac_default{-0.1, -0.1, 0.0,  0.0,   0.0, 0.0, 0.0, 0.0, 0.0, 0.3,
                                                        0.3,  0.3,  0.3,  -0.2,  -0.2, 0.25, -0.25, 0.0, 0.0, 0.0,
                                                        0.0,  0.97, 0.97, 0.15, -0.15, 0.0, 0.0, 0.0, 0.0};
inline constexpr std::array<double, 29> k_sdk_stiffness{100, 100, 100, 150, 40, 40, 100, 100, 100, 150,
                                                        40,  40,  200, 200, 200, 40, 40, 40, 40, 40,
                                                        40,  40,  40,  40,  40,  40, 40, 40, 40};
inline constexpr std::array<double, 29> k_sdk_damping{2,  2,  2,  4,  2,  2,  2,  2,  2,  4,  2,  2,  5,  5, 5,
                                                      10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10};

// The stand-ins' leg gains, stiffer than the authors': at theirs (hip 100, knee 150, ankle 40) this
// G1 model has no static equilibrium in the legged_gym default pose (its centre of mass 5 cm ahead of
// the ankles, 2 x 40 N m/rad against m g l of about 226 N m/rad) and tips forward within a second
// under PD alone; with these it stands under PD alone, leaving the stand-ins little to do.
inline bool leg_gains(const std::string& joint, double& kp, double& kd) {
  const auto has = [&](const char* part) { return joint.find(part) != std::string::npos; };
  if (has("hip")) {
    kp = 200;
    kd = 4;
  } else if (has("knee")) {
    kp = 300;
    kd = 6;
  } else if (has("ankle")) {
    kp = 400;
    kd = 8;
  } else {
    return false;
  }
  return true;
}

// The arms' damping: unitree_rl_lab's kd 10 on the arms is more than an explicit PD can apply to
// light links at MuJoCo's 2 ms (kd dt / inertia above 2 for the shoulder yaw and the wrists: they
// chatter, and a shoulder yaw swung 0.7 rad at 5 rad/s while STAND held it). Isaac Lab applies it
// implicitly. The stand-in takes deploy_real's arm damping instead (2, wrists 1).
inline void arm_damping(const std::string& joint, double& kd) {
  if (joint.find("wrist") != std::string::npos) {
    kd = 1;
  } else if (joint.find("shoulder") != std::string::npos || joint.find("elbow") != std::string::npos) {
    kd = 2;
  }
}

// (a): writes deploy.json and policy.onnx into `folder`.
inline void isaac_lab_mlp(const std::filesystem::path& folder, const Tuning& t = {}) {
  std::vector<std::string> joints, names;
  std::vector<double> kp, kd, pose;
  for (std::size_t i = 0; i < 29; ++i) {
    const std::string name(G1::joints[k_isaac_order[i]].name);
    names.push_back(name);
    joints.push_back(name + "_joint");  // Isaac Lab's spelling
    pose.push_back(k_isaac_default[i]);
    kp.push_back(k_sdk_stiffness[k_isaac_order[i]]);
    kd.push_back(k_sdk_damping[k_isaac_order[i]]);
    leg_gains(name, kp.back(), kd.back());
    arm_damping(name, kd.back());
  }
  constexpr std::size_t n = 29, H = 5;
  // base_ang_vel, projected_gravity, velocity_command, joint_pos_rel, joint_vel_rel, last_action
  // with 5 values each (oldest first), then the phase with a history of its own (1).
  std::array<std::size_t, 7> start{};
  const std::array<std::size_t, 7> size{3, 3, 3, n, n, n, 2};
  const std::array<std::size_t, 7> history{H, H, H, H, H, H, 1};
  std::size_t total = 0;
  for (std::size_t k = 0; k < 7; ++k) {
    start[k] = total;
    total += size[k] * history[k];
  }
  const auto newest = [&](std::size_t k, std::size_t e) { return start[k] + (history[k] - 1) * size[k] + e; };
  const auto previous = [&](std::size_t k, std::size_t e) { return start[k] + (history[k] - 2) * size[k] + e; };
  Linear f(total, n);
  for (std::size_t i = 0; i < n; ++i) {
    f.at(i, newest(3, i)) -= t.position + t.difference;
    f.at(i, previous(3, i)) += t.difference;
    f.at(i, newest(4, i)) -= t.velocity / 0.05f;
    f.at(i, newest(5, i)) += t.last_action;
    for (std::size_t c = 0; c < total; ++c) f.at(i, c) += t.wiggle * wiggle(i, c);
  }
  add_shared(f, names, {newest(1, 0), newest(0, 0), newest(2, 0), newest(6, 0), 0.2f, 1.0f}, t, true);
  for (std::size_t h = 0; h < H; ++h) settle(f, start[1] + h * 3 + 2);
  write_mlp(folder / "policy.onnx", f);

  Json j;
  j["policy"] = "policy.onnx";
  j["robot"] = "g1";
  j["loop_hz"] = 500;
  j["policy_hz"] = 50;
  j["joint_names"] = joints;
  j["default_pose"] = pose;
  j["kp"] = kp;
  j["kd"] = kd;
  j["action"] = {{"scale", 0.25}};
  j["observation"] = {
      {"terms",
       Json::array({{{"name", "base_ang_vel"}, {"scale", 0.2}, {"clip", {-5.0, 5.0}}},
                    {{"name", "projected_gravity"}},
                    {{"name", "velocity_command"}},
                    {{"name", "joint_pos_rel"}},
                    {{"name", "joint_vel_rel"}, {"scale", 0.05}, {"clip", {-30.0, 30.0}}},
                    {{"name", "last_action"}},
                    {{"name", "phase"}, {"period", 1.6}, {"history_length", 1}}})},
      {"history_length", H},
      {"history_order", "term_major"}};
  j["command"] = {{"source", "behaviour"}, {"max", {1.0, 0.3, 0.2}}, {"min", {-0.5, -0.3, -0.2}}};
  j["blend_in"] = 0.0;
  std::ofstream(folder / "deploy.json") << j.dump(2);
}

// (b): writes deploy.json and policy.onnx into `folder`.
inline void legged_gym_lstm(const std::filesystem::path& folder, const Tuning& t = lstm_tuning()) {
  std::vector<std::string> names, held;
  for (std::size_t i = 0; i < 12; ++i) names.emplace_back(G1::joints[i].name);
  for (std::size_t i = 12; i < 29; ++i) held.emplace_back(G1::joints[i].name);
  constexpr std::size_t n = 12;
  // legged_gym's frame: ang_vel 0-2 (x 0.25), gravity 3-5, command 6-8 (x 2, 2, 0.25), q 9-20,
  // dq 21-32 (x 0.05), action 33-44, sin 45, cos 46.
  Linear f(47, n);
  for (std::size_t i = 0; i < n; ++i) {
    f.at(i, 9 + i) -= t.position;
    f.at(i, 21 + i) -= t.velocity / 0.05f;
    f.at(i, 33 + i) += t.last_action;
    for (std::size_t c = 0; c < 47; ++c) f.at(i, c) += t.wiggle * wiggle(i, c);
  }
  add_shared(f, names, {3, 0, 6, 45, 0.25f, 2.0f}, t, false);
  settle(f, 5);
  write_lstm(folder / "policy.onnx", f);

  Json j;
  j["policy"] = "policy.onnx";
  j["robot"] = "g1";
  j["recurrent"] = Json::array({{{"input", "h_in"}, {"output", "h_out"}}, {{"input", "c_in"}, {"output", "c_out"}}});
  j["loop_hz"] = 500;
  j["policy_hz"] = 50;
  j["joint_names"] = names;
  // unitree_rl_gym deploy_real g1.yaml: the legs' default pose, the waist and arms held.
  j["default_pose"] = {-0.1, 0.0, 0.0, 0.3, -0.2, 0.0, -0.1, 0.0, 0.0, 0.3, -0.2, 0.0};
  std::vector<double> kp(n), kd(n);
  for (std::size_t i = 0; i < n; ++i) leg_gains(names[i], kp[i], kd[i]);
  j["kp"] = kp;
  j["kd"] = kd;
  j["hold"] = {{"joint_names", held},
               {"pose", 0.0},
               {"kp", {300, 300, 300, 100, 100, 50, 50, 20, 20, 20, 100, 100, 50, 50, 20, 20, 20}},
               {"kd", {3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1}}};
  j["action"] = {{"scale", 0.25}, {"clip", 100.0}};
  j["observation"] = {{"terms",
                       Json::array({{{"name", "base_ang_vel"}, {"scale", 0.25}},
                                    {{"name", "projected_gravity"}},
                                    {{"name", "velocity_command"}, {"scale", {2.0, 2.0, 0.25}}},
                                    {{"name", "joint_pos_rel"}},
                                    {{"name", "joint_vel_rel"}, {"scale", 0.05}},
                                    {{"name", "last_action"}},
                                    {{"name", "phase"}, {"period", 0.8}}})},
                      {"clip", 100.0},
                      {"history_length", 1},
                      {"history_order", "frame_major"}};
  j["command"] = {{"source", "behaviour"}, {"max", {0.8, 0.5, 1.57}}};
  j["blend_in"] = 0.0;
  std::ofstream(folder / "deploy.json") << j.dump(2);
}

}  // namespace stand_in
