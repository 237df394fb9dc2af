// policy/onnx_policy.hpp: OnnxPolicy<G1> as a USER_CTRL, with tiny networks built in the test so
// each property shows in the targets: what load() sets (wire order, the model's values elsewhere),
// what it refuses (sizes listing the terms, unknown joints listing the robot's, rates, limits) and
// that a refusal changes nothing; decimation holding targets, blend-in from the measured pose,
// reset clearing the last action and the recurrent state (a carried sum and an LSTM), a NaN action
// passed on to the guard, the command from the gamepad or a behaviour, the phase clock, no
// allocation in the cycle, and the policy driving a mock G1 through RobotController from STAND
// into CTRL.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../support/onnx_model_builder.hpp"
#include "../../support/scratch_dir.hpp"
#include "praxis/control/motion_controller.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/user_control_motion.hpp"
#include "praxis/control/user_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/hardware/unitree/go2.hpp"
#include "praxis/policy/onnx_policy.hpp"

#ifdef PRAXIS_COUNT_ALLOCATIONS
#include "../../support/alloc_counter.hpp"
#endif

namespace onnx_policy_test {

using namespace std::chrono_literals;
using Json = nlohmann::json;
using G1 = praxis::unitree::G1;
using Policy = praxis::policy::OnnxPolicy<G1>;
using praxis::policy::PolicyError;
constexpr std::size_t N = G1::joint_count;

static_assert(praxis::control::UserController<Policy, N>);
static_assert(praxis::control::UserController<praxis::policy::OnnxPolicy<praxis::unitree::Go2>,
                                              praxis::unitree::Go2::joint_count>);

// The policy drives four G1 joints, in another order than the wire's: right_knee (wire 9),
// left_knee (3), left_hip_pitch (0), right_elbow (25).
constexpr std::size_t n = 4;
const std::array<std::size_t, n> k_wire{9, 3, 0, 25};
const std::array<double, n> k_default{0.35, 0.25, -0.15, 0.2};
const std::array<double, n> k_kp{80, 90, 100, 40};
const std::array<double, n> k_kd{2, 2.5, 3, 1};
// The observation of deploy(): base_ang_vel 3, projected_gravity 3, velocity_command 3,
// joint_pos_rel 4, joint_vel_rel 4, last_action 4.
constexpr std::size_t K = 21;
constexpr std::size_t k_command_at = 6, k_joint_pos_at = 9, k_last_action_at = 17;

Json deploy() {
  return Json::parse(R"({
    "policy": "policy.onnx",
    "loop_hz": 500, "policy_hz": 50,
    "joint_names": ["right_knee", "left_knee", "left_hip_pitch", "right_elbow"],
    "default_pose": [0.35, 0.25, -0.15, 0.2],
    "kp": [80, 90, 100, 40], "kd": [2, 2.5, 3, 1],
    "action": {"scale": 0.5},
    "observation": {"terms": [{"name": "base_ang_vel"}, {"name": "projected_gravity"},
                              {"name": "velocity_command"}, {"name": "joint_pos_rel"},
                              {"name": "joint_vel_rel"}, {"name": "last_action"}]},
    "command": {"source": "gamepad", "max": [1.0, 0.5, 1.2]},
    "blend_in": 0
  })");
}

// actions = obs W^T + b: W is outputs x inputs, row-major.
void linear_model(const std::filesystem::path& file, std::size_t inputs, std::size_t outputs, std::vector<float> w,
                  std::vector<float> b) {
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {-1, static_cast<std::int64_t>(inputs)});
  m.initializer("W", {static_cast<std::int64_t>(outputs), static_cast<std::int64_t>(inputs)}, w);
  m.initializer("B", {static_cast<std::int64_t>(outputs)}, b);
  m.node("Gemm", {"obs", "W", "B"}, {"actions"}).attr("transB", std::int64_t{1});
  m.output("actions", {-1, static_cast<std::int64_t>(outputs)});
  m.save(file);
}

// W picking observation element `from + i` for action i (i < count).
std::vector<float> pick(std::size_t from, std::size_t count, std::size_t inputs = K, std::size_t outputs = n) {
  std::vector<float> w(outputs * inputs, 0.0f);
  for (std::size_t i = 0; i < count; ++i) w[i * inputs + from + i] = 1.0f;
  return w;
}

// A constant action, whatever the observation.
void constant_model(const std::filesystem::path& file, std::vector<float> action, std::size_t inputs = K) {
  const std::size_t outputs = action.size();
  linear_model(file, inputs, outputs, std::vector<float>(outputs * inputs, 0.0f), std::move(action));
}

// actions = h_out = h_in + 1, h carried: the action counts the inferences since reset.
void counting_model(const std::filesystem::path& file) {
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {1, K});
  m.input("h_in", {1, n});
  m.initializer("one", {1, n}, std::vector<float>(n, 1.0f));
  m.initializer("Z", {K, n}, std::vector<float>(K * n, 0.0f));
  m.node("Add", {"h_in", "one"}, {"h_out"});
  m.node("MatMul", {"obs", "Z"}, {"zero"});
  m.node("Add", {"h_out", "zero"}, {"actions"});
  m.output("actions", {1, n});
  m.output("h_out", {1, n});
  m.save(file);
}

// An LSTM of hidden size n over one step of the observation; its h and c are carried.
void lstm_model(const std::filesystem::path& file) {
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {1, K});
  m.input("h_in", {1, 1, n});
  m.input("c_in", {1, 1, n});
  std::vector<float> w(4 * n * K), r(4 * n * n), b(8 * n);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * static_cast<float>(static_cast<int>(i % 7) - 3);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = 0.3f * static_cast<float>(static_cast<int>(i % 5) - 2);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * static_cast<float>(static_cast<int>(i % 3) + 1);
  m.initializer("W", {1, 4 * n, K}, w);
  m.initializer("R", {1, 4 * n, n}, r);
  m.initializer("B", {1, 8 * n}, b);
  m.initializer("axes", {1}, std::vector<std::int64_t>{0});
  m.node("Unsqueeze", {"obs", "axes"}, {"x"});  // [seq 1, batch 1, K]
  m.node("LSTM", {"x", "W", "R", "B", "", "h_in", "c_in"}, {"", "h_out", "c_out"})
      .attr("hidden_size", static_cast<std::int64_t>(n));
  m.node("Squeeze", {"h_out", "axes"}, {"actions"});
  m.output("actions", {1, n});
  m.output("h_out", {1, 1, n});
  m.output("c_out", {1, 1, n});
  m.save(file);
}

praxis::RobotState<N> standing() {
  praxis::RobotState<N> s;
  for (std::size_t j = 0; j < N; ++j) s.q[static_cast<Eigen::Index>(j)] = G1::stand_pose[j];
  return s;
}

void cycle(Policy& p, const praxis::RobotState<N>& s, const praxis::Gamepad& pad = {}) {
  p.get_input(s, pad);
  p.calculate();
}

std::string refusal(Policy& p, const std::filesystem::path& file,
                    const std::optional<std::filesystem::path>& network = std::nullopt) {
  try {
    p.load(file, network);
  } catch (const PolicyError& e) {
    return e.what();
  }
  FAIL("the policy was accepted: " << file);
  return {};
}

// A folder with a deploy file and its network.
struct Setup {
  praxis::test::ScratchDir dir{"onnx_policy"};
  std::filesystem::path write(const Json& j, const std::string& name = "deploy.json") const {
    return dir.write(name, j.dump(2));
  }
  std::filesystem::path model(const std::string& name = "policy.onnx") const { return dir / name; }
};

TEST_CASE("onnx policy: before load it holds the stand pose with the model's gains at 500 Hz", "[policy][onnx_policy]") {
  Policy p;
  CHECK_FALSE(p.loaded());
  CHECK(p.config() == nullptr);
  CHECK(p.dt == 0.002);
  CHECK(p.kp == G1::default_kp);
  CHECK(p.kd == G1::default_kd);
  CHECK(p.init_pos == G1::stand_pose);
  auto s = standing();
  s.q[3] += 0.3;
  p.reset(s, {});
  cycle(p, s);
  CHECK(p.jpos_des == G1::stand_pose);
  for (const float v : p.log()) CHECK(v == 0.0f);
}

TEST_CASE("onnx policy: load sets dt and gains and init_pos in wire order with the model's values elsewhere",
          "[policy][onnx_policy]") {
  Setup setup;
  constant_model(setup.model(), {0, 0, 0, 0});
  Policy p;
  p.load(setup.write(deploy()));
  REQUIRE(p.loaded());
  CHECK(p.dt == Approx(1.0 / 500.0));
  CHECK(p.decimation() == 10);
  REQUIRE(p.wire_indices().size() == n);
  for (std::size_t i = 0; i < n; ++i) CHECK(p.wire_indices()[i] == k_wire[i]);
  for (std::size_t j = 0; j < N; ++j) {
    INFO("joint " << G1::joints[j].name);
    const auto* it = std::find(k_wire.begin(), k_wire.end(), j);
    if (it == k_wire.end()) {
      CHECK(p.init_pos[j] == G1::stand_pose[j]);
      CHECK(p.kp[j] == G1::default_kp[j]);
      CHECK(p.kd[j] == G1::default_kd[j]);
    } else {
      const auto i = static_cast<std::size_t>(it - k_wire.begin());
      CHECK(p.init_pos[j] == k_default[i]);
      CHECK(p.kp[j] == k_kp[i]);
      CHECK(p.kd[j] == k_kd[i]);
    }
  }
  CHECK(p.jpos_des == p.init_pos);

  SECTION("a vendor's joint names (\"_joint\") name the model's joints") {
    auto j = deploy();
    for (auto& name : j["joint_names"]) name = name.get<std::string>() + "_joint";
    Policy q;
    q.load(setup.write(j, "vendor.json"));
    for (std::size_t i = 0; i < n; ++i) CHECK(q.wire_indices()[i] == k_wire[i]);
  }
  SECTION("the joints the file holds take its pose and gains; the rest keep the model's") {
    auto j = deploy();
    j["hold"] = {{"joint_names", {"waist_yaw", "left_elbow_joint", "waist_pitch"}},
                 {"pose", {0.1, 0.3, 0.0}},
                 {"kp", {300, 100, 300}},
                 {"kd", 3}};
    Policy q;
    q.load(setup.write(j, "hold.json"));
    const std::array<std::size_t, 3> held{praxis::joint_index<G1>("waist_yaw"), praxis::joint_index<G1>("left_elbow"),
                                          praxis::joint_index<G1>("waist_pitch")};
    const std::array<double, 3> pose{0.1, 0.3, 0.0}, kp{300, 100, 300};
    for (std::size_t k = 0; k < held.size(); ++k) {
      INFO("held joint " << G1::joints[held[k]].name);
      CHECK(q.init_pos[held[k]] == pose[k]);
      CHECK(q.kp[held[k]] == kp[k]);
      CHECK(q.kd[held[k]] == 3.0);
    }
    const auto other = praxis::joint_index<G1>("right_elbow") == k_wire[3] ? praxis::joint_index<G1>("waist_roll")
                                                                           : praxis::joint_index<G1>("right_elbow");
    CHECK(q.init_pos[other] == G1::stand_pose[other]);
    CHECK(q.kp[other] == G1::default_kp[other]);
    // Held in CTRL, between inferences and through them.
    q.reset(standing(), {});
    for (int c = 0; c < 12; ++c) cycle(q, standing());
    for (std::size_t k = 0; k < held.size(); ++k) CHECK(q.jpos_des[held[k]] == pose[k]);
  }

  SECTION("load_params reads deploy.json in the folder, and a policy path passed to load wins") {
    Policy q;
    q.load_params(setup.dir.path());
    CHECK(q.loaded());
    constant_model(setup.model("other.onnx"), {1, 1, 1, 1});
    auto j = deploy();
    j.erase("policy");
    Policy r;
    r.load(setup.write(j, "no_policy.json"), setup.model("other.onnx"));
    r.reset(standing(), {});
    cycle(r, standing());
    CHECK(r.jpos_des[9] == Approx(0.35 + 0.5));
  }
}

TEST_CASE("onnx policy: load refuses a mismatch naming what is wrong and changes nothing", "[policy][onnx_policy]") {
  Setup setup;
  constant_model(setup.model(), {0.2f, 0.2f, 0.2f, 0.2f});
  Policy p;
  p.load(setup.write(deploy()));
  const auto good_init = p.init_pos;
  const auto good_file = p.config()->file;

  SECTION("an observation of the wrong size lists every term and its size") {
    constant_model(setup.model("wide.onnx"), {0, 0, 0, 0}, K + 1);
    const auto message = refusal(p, setup.write(deploy()), setup.model("wide.onnx"));
    CHECK_THAT(message, Catch::Contains("deploy.json: key \"/observation/terms\""));
    CHECK_THAT(message, Catch::Contains("base_ang_vel 3, projected_gravity 3, velocity_command 3, joint_pos_rel 4, "
                                        "joint_vel_rel 4, last_action 4 = 21 per frame"));
    CHECK_THAT(message, Catch::Contains("takes 22"));
    CHECK_THAT(message, Catch::Contains("wide.onnx"));
  }
  SECTION("with history the size counts the frames") {
    auto j = deploy();
    j["observation"]["history_length"] = 3;
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("= 21 per frame x 3 frames = 63"));
    CHECK_THAT(message, Catch::Contains("takes 21"));
  }
  SECTION("an action of the wrong size") {
    constant_model(setup.model("five.onnx"), {0, 0, 0, 0, 0});
    const auto message = refusal(p, setup.write(deploy()), setup.model("five.onnx"));
    CHECK_THAT(message, Catch::Contains("key \"/joint_names\""));
    CHECK_THAT(message, Catch::Contains("drives 4 joints"));
    CHECK_THAT(message, Catch::Contains("gives 5 actions"));
  }
  SECTION("a joint the robot does not have is named with the robot's joints") {
    auto j = deploy();
    j["joint_names"][1] = "left_kneecap_joint";
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/joint_names/1\""));
    CHECK_THAT(message, Catch::Contains("found \"left_kneecap_joint\""));
    CHECK_THAT(message, Catch::Contains("robot model g1 (left_hip_pitch, left_hip_roll, left_hip_yaw, left_knee,"));
  }
  SECTION("one robot joint named twice, once in the vendor's spelling") {
    auto j = deploy();
    j["joint_names"][2] = "left_knee_joint";  // [1] is left_knee
    j["default_pose"][2] = 0.25;
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/joint_names/2\""));
    CHECK_THAT(message, Catch::Contains("each robot joint named once"));
    CHECK_THAT(message, Catch::Contains("also /joint_names/1"));
  }
  SECTION("a held joint the policy drives, in the vendor's spelling") {
    auto j = deploy();
    j["hold"] = {{"joint_names", {"waist_yaw", "right_knee_joint"}}, {"pose", 0.1}, {"kp", 300}, {"kd", 3}};
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/hold/joint_names/1\""));
    CHECK_THAT(message, Catch::Contains("also /joint_names/0"));
  }
  SECTION("a held pose outside the joint's limits") {
    auto j = deploy();
    j["hold"] = {{"joint_names", {"waist_yaw", "left_elbow"}}, {"pose", {0.0, 9.0}}, {"kp", 300}, {"kd", 3}};
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/hold/pose/1\""));
    CHECK_THAT(message, Catch::Contains("left_elbow's position within its limits"));
  }
  SECTION("a held joint the robot does not have") {
    auto j = deploy();
    j["hold"] = {{"joint_names", {"tail"}}, {"pose", 0.0}, {"kp", 300}, {"kd", 3}};
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/hold/joint_names/0\""));
    CHECK_THAT(message, Catch::Contains("found \"tail\""));
  }
  SECTION("a policy rate that does not divide the loop rate") {
    auto j = deploy();
    j["policy_hz"] = 60;
    CHECK_THAT(refusal(p, setup.write(j)), Catch::Contains("key \"/policy_hz\"") && Catch::Contains("whole number"));
  }
  SECTION("a default pose outside the joint's limits") {
    auto j = deploy();
    j["default_pose"][1] = -0.5;
    const auto message = refusal(p, setup.write(j));
    CHECK_THAT(message, Catch::Contains("key \"/default_pose/1\""));
    CHECK_THAT(message, Catch::Contains("left_knee's position within its limits"));
  }
  SECTION("a missing network") {
    auto j = deploy();
    j["policy"] = "missing.onnx";
    CHECK_THAT(refusal(p, setup.write(j)), Catch::Contains("missing.onnx"));
    j.erase("policy");
    CHECK_THAT(refusal(p, setup.write(j)), Catch::Contains("key \"/policy\"") && Catch::Contains("no such key"));
  }
  SECTION("a model with two inputs needs to be told which is the observation") {
    praxis::test::OnnxModelBuilder m;
    m.input("obs", {1, K});
    m.input("extra", {1, K});
    m.node("Add", {"obs", "extra"}, {"sum"});
    m.initializer("W", {n, K}, std::vector<float>(n * K, 0.0f));
    m.node("Gemm", {"sum", "W"}, {"actions"}).attr("transB", std::int64_t{1});
    m.output("actions", {1, n});
    m.save(setup.model("two.onnx"));
    const auto message = refusal(p, setup.write(deploy()), setup.model("two.onnx"));
    CHECK_THAT(message, Catch::Contains("key \"/input\""));
    CHECK_THAT(message, Catch::Contains("\"obs\", \"extra\""));
    auto j = deploy();
    j["input"] = "obs";
    CHECK_THAT(refusal(p, setup.write(j), setup.model("two.onnx")),
               Catch::Contains("\"extra\"") && Catch::Contains("nothing would feed it"));
    j["input"] = "observation";
    CHECK_THAT(refusal(p, setup.write(j), setup.model("two.onnx")),
               Catch::Contains("key \"/input\"") && Catch::Contains("observation"));
  }
  SECTION("an operator the engine does not run") {
    praxis::test::OnnxModelBuilder m;
    m.input("obs", {1, K});
    m.initializer("W", {n, K}, std::vector<float>(n * K, 0.0f));
    m.node("Gemm", {"obs", "W"}, {"logits"}).attr("transB", std::int64_t{1});
    m.node("Softmax", {"logits"}, {"actions"}, "policy_head");
    m.output("actions", {1, n});
    m.save(setup.model("softmax.onnx"));
    CHECK_THAT(refusal(p, setup.write(deploy()), setup.model("softmax.onnx")),
               Catch::Contains("Softmax") && Catch::Contains("softmax.onnx"));
  }
  SECTION("a recurrent pair the model does not have") {
    counting_model(setup.model("count.onnx"));
    auto j = deploy();
    j["recurrent"] = Json::array({Json{{"input", "h_in"}, {"output", "hidden"}}});
    CHECK_THAT(refusal(p, setup.write(j), setup.model("count.onnx")),
               Catch::Contains("key \"/recurrent/0/output\"") && Catch::Contains("hidden"));
  }

  // The policy loaded first is still the one in use, whole.
  REQUIRE(p.loaded());
  CHECK(p.config()->file == good_file);
  CHECK(p.init_pos == good_init);
  CHECK(p.dt == Approx(0.002));
  CHECK(p.decimation() == 10);
  p.reset(standing(), {});
  cycle(p, standing());
  CHECK(p.jpos_des[9] == Approx(0.35 + 0.5 * 0.2));
}

TEST_CASE("onnx policy: decimation infers on the first cycle and holds the targets until the next inference",
          "[policy][onnx_policy]") {
  Setup setup;
  // action i = joint_pos_rel i: the target follows the pose measured at the inference.
  linear_model(setup.model(), K, n, pick(k_joint_pos_at, n), {0, 0, 0, 0});
  Policy p;
  p.load(setup.write(deploy()));
  REQUIRE(p.decimation() == 10);
  auto state_at = [](int c) {
    auto s = standing();
    for (std::size_t i = 0; i < n; ++i) {
      s.q[static_cast<Eigen::Index>(k_wire[i])] = k_default[i] + 0.01 * (c + 1) * static_cast<double>(i + 1);
    }
    return s;
  };
  p.reset(state_at(0), {});
  for (int c = 0; c < 35; ++c) {
    cycle(p, state_at(c));
    const int inferred_at = c - c % 10;
    INFO("cycle " << c);
    CHECK(p.inferences() == static_cast<std::size_t>(c / 10 + 1));
    const auto measured = state_at(inferred_at);
    for (std::size_t i = 0; i < n; ++i) {
      const double q = measured.q[static_cast<Eigen::Index>(k_wire[i])];
      CHECK(p.jpos_des[k_wire[i]] == Approx(k_default[i] + 0.5 * (q - k_default[i])).epsilon(1e-6));
    }
    CHECK(p.jpos_des[1] == G1::stand_pose[1]);  // not a policy joint
  }
}

TEST_CASE("onnx policy: blend-in moves linearly from the measured pose to the targets", "[policy][onnx_policy]") {
  Setup setup;
  const std::vector<float> action{0.4f, -0.2f, 0.1f, 0.3f};
  constant_model(setup.model(), action);
  auto j = deploy();
  j["blend_in"] = 0.1;  // 50 cycles at 500 Hz
  Policy p;
  p.load(setup.write(j));
  std::array<double, N> target = G1::stand_pose;
  for (std::size_t i = 0; i < n; ++i) target[k_wire[i]] = k_default[i] + 0.5 * static_cast<double>(action[i]);
  auto measured = standing();
  for (std::size_t jj = 0; jj < N; ++jj) measured.q[static_cast<Eigen::Index>(jj)] += 0.1;
  p.reset(measured, {});
  for (int c = 0; c <= 60; ++c) {
    cycle(p, measured);
    const double alpha = std::min(1.0, c / 50.0);
    INFO("cycle " << c);
    for (std::size_t jj = 0; jj < N; ++jj) {
      const double from = measured.q[static_cast<Eigen::Index>(jj)];
      CHECK(p.jpos_des[jj] == Approx(from + alpha * (target[jj] - from)).margin(1e-12));
    }
  }
  CHECK(p.jpos_des == target);
}

TEST_CASE("onnx policy: reset zeroes the last action the observation feeds back", "[policy][onnx_policy]") {
  Setup setup;
  // action = last_action + 1: 1, 2, 3, ... after each inference since reset.
  linear_model(setup.model(), K, n, pick(k_last_action_at, n), {1, 1, 1, 1});
  auto j = deploy();
  j["policy_hz"] = 500;  // infer every cycle
  Policy p;
  p.load(setup.write(j));
  const auto s = standing();
  for (int episode = 0; episode < 2; ++episode) {
    p.reset(s, {});
    for (int c = 1; c <= 3; ++c) {
      cycle(p, s);
      INFO("episode " << episode << " cycle " << c);
      for (const float a : p.last_action()) CHECK(a == static_cast<float>(c));
      CHECK(p.jpos_des[25] == Approx(0.2 + 0.5 * c));
    }
  }
  // log(): the raw actions in wire order, 0 on the joints the policy does not drive.
  const auto log = p.log();
  for (std::size_t jj = 0; jj < N; ++jj) {
    const bool driven = std::find(k_wire.begin(), k_wire.end(), jj) != k_wire.end();
    CHECK(log[jj] == (driven ? 3.0f : 0.0f));
  }
}

TEST_CASE("onnx policy: reset zeroes the recurrent state", "[policy][onnx_policy]") {
  Setup setup;
  auto j = deploy();
  j["policy_hz"] = 500;
  SECTION("a carried count") {
    counting_model(setup.model());
    j["recurrent"] = Json::array({Json{{"input", "h_in"}, {"output", "h_out"}}});
    Policy p;
    p.load(setup.write(j));  // input and output found: the only ones that are not recurrent
    const auto s = standing();
    for (int episode = 0; episode < 2; ++episode) {
      p.reset(s, {});
      for (int c = 1; c <= 4; ++c) {
        cycle(p, s);
        INFO("episode " << episode << " cycle " << c);
        for (const float a : p.last_action()) CHECK(a == static_cast<float>(c));
      }
    }
  }
  SECTION("an LSTM's hidden and cell state") {
    lstm_model(setup.model());
    j["recurrent"] = Json::array(
        {Json{{"input", "h_in"}, {"output", "h_out"}}, Json{{"input", "c_in"}, {"output", "c_out"}}});
    j["observation"]["terms"] = Json::array({Json{{"name", "base_ang_vel"}}, Json{{"name", "projected_gravity"}},
                                             Json{{"name", "velocity_command"}}, Json{{"name", "joint_pos_rel"}},
                                             Json{{"name", "joint_vel_rel"}}, Json{{"name", "joint_pos_rel"}}});
    Policy p;
    p.load(setup.write(j));
    const auto s = standing();  // the same observation every cycle: only the state changes the action
    std::vector<std::vector<float>> first;
    p.reset(s, {});
    for (int c = 0; c < 4; ++c) {
      cycle(p, s);
      first.emplace_back(p.last_action().begin(), p.last_action().end());
    }
    CHECK(first[0] != first[1]);  // the state is carried
    CHECK(first[1] != first[2]);
    p.reset(s, {});
    for (int c = 0; c < 4; ++c) {
      cycle(p, s);
      INFO("cycle " << c);
      CHECK(std::vector<float>(p.last_action().begin(), p.last_action().end()) == first[static_cast<std::size_t>(c)]);
    }
  }
}

TEST_CASE("onnx policy: a non-finite action reaches jpos_des for the command guard to see", "[policy][onnx_policy]") {
  Setup setup;
  // 0 / 0 computed in the cycle (nothing for the loader to fold): NaN on every action.
  praxis::test::OnnxModelBuilder m;
  m.input("obs", {1, K});
  m.initializer("W", {n, K}, std::vector<float>(n * K, 0.0f));
  m.node("Gemm", {"obs", "W"}, {"zero"}).attr("transB", std::int64_t{1});
  m.node("Div", {"zero", "zero"}, {"actions"});
  m.output("actions", {1, n});
  m.save(setup.model());
  auto j = deploy();
  j["action"]["clip"] = 1.0;  // the clip does not turn NaN into a number
  Policy p;
  p.load(setup.write(j));
  p.reset(standing(), {});
  cycle(p, standing());
  for (const auto w : k_wire) CHECK(std::isnan(p.jpos_des[w]));
  CHECK(p.jpos_des[1] == G1::stand_pose[1]);
  CHECK(std::isnan(p.log()[9]));
}

TEST_CASE("onnx policy: the velocity command comes from the sticks or from a behaviour", "[policy][onnx_policy]") {
  Setup setup;
  // actions 0..2 = velocity_command, action 3 = 0.
  linear_model(setup.model(), K, n, pick(k_command_at, 3), {0, 0, 0, 0});
  auto j = deploy();
  j["policy_hz"] = 500;
  praxis::Gamepad pad;
  praxis::GamepadState raw;
  raw.ly = 0.5f;
  raw.lx = 0.4f;
  raw.rx = -1.0f;
  pad.update(raw);
  const auto s = standing();
  SECTION("gamepad: vx = ly max0, vy = -lx max1, wz = -rx max2") {
    Policy p;
    p.load(setup.write(j));
    p.reset(s, pad);
    cycle(p, s, pad);
    const auto a = p.last_action();
    CHECK(a[0] == Approx(0.5 * 1.0));
    CHECK(a[1] == Approx(-0.4 * 0.5));
    CHECK(a[2] == Approx(1.0 * 1.2));
    CHECK(a[3] == 0.0f);
  }
  SECTION("gamepad, scaled, with min: a command beyond min is limited to it") {
    j["command"]["min"] = {-0.25, -0.1, -0.6};
    raw.ly = -0.5f;  // vx -0.5 -> -0.25
    raw.lx = 1.0f;   // vy -0.5 -> -0.1
    raw.rx = 0.25f;  // wz -0.3
    pad.update(raw);
    Policy p;
    p.load(setup.write(j));
    p.reset(s, pad);
    cycle(p, s, pad);
    const auto a = p.last_action();
    CHECK(a[0] == Approx(-0.25));
    CHECK(a[1] == Approx(-0.1));
    CHECK(a[2] == Approx(-0.3));
  }
  SECTION("gamepad, clamped: the stick is the velocity, within [min, max]") {
    j["command"] = {{"source", "gamepad"}, {"sticks", "clamped"}, {"max", {1.0, 0.3, 0.2}}, {"min", {-0.5, -0.3, -0.2}}};
    Policy p;
    p.load(setup.write(j));
    p.reset(s, pad);
    cycle(p, s, pad);
    const auto a = p.last_action();
    CHECK(a[0] == Approx(0.5));   // ly 0.5
    CHECK(a[1] == Approx(-0.3));  // -lx = -0.4, limited to -0.3
    CHECK(a[2] == Approx(0.2));   // -rx = 1, limited to 0.2
  }
  SECTION("behaviour: set_velocity_command, limited to max, the sticks ignored") {
    j["command"]["source"] = "behaviour";
    Policy p;
    p.load(setup.write(j));
    p.reset(s, pad);
    p.set_velocity_command(2.0, -2.0, 0.1);
    cycle(p, s, pad);
    const auto a = p.last_action();
    CHECK(a[0] == Approx(1.0));
    CHECK(a[1] == Approx(-0.5));
    CHECK(a[2] == Approx(0.1));
  }
}

TEST_CASE("onnx policy: a command timeline replaces the sticks, runs on the time since reset and is limited to max",
          "[policy][onnx_policy][command_timeline]") {
  Setup setup;
  // actions 0..2 = the observation's velocity_command (scale 1), inferred every cycle.
  linear_model(setup.model(), K, n, pick(k_command_at, 3), {0, 0, 0, 0});
  auto j = deploy();  // max [1.0, 0.5, 1.2]
  j["policy_hz"] = 500;
  Policy p;
  p.load(setup.write(j));
  praxis::Gamepad pad;
  praxis::GamepadState raw;
  raw.ly = 0.5f;  // the sticks say 0.5 m/s forward: not heard while the timeline is set
  raw.rx = 1.0f;
  pad.update(raw);
  const auto s = standing();
  // 500 Hz: cycles 0..4 the first item, 5..9 the second (beyond max: limited), from cycle 10 zero.
  p.set_command_timeline(praxis::policy::CommandTimeline::parse("0.3,-0.2,0.5@0-0.01;2,-2,0.1@0.01-0.02"));
  const auto expected = [](int c) -> std::array<double, 3> {
    if (c < 5) return {0.3, -0.2, 0.5};
    if (c < 10) return {1.0, -0.5, 0.1};
    return {0.0, 0.0, 0.0};
  };
  const auto run = [&](int cycles) {
    for (int c = 0; c < cycles; ++c) {
      cycle(p, s, pad);
      INFO("cycle " << c);
      const auto want = expected(c);
      CHECK(p.velocity_command() == want);
      const auto a = p.last_action();  // what the network saw in its observation
      for (std::size_t i = 0; i < 3; ++i) CHECK(a[i] == Approx(want[i]).margin(1e-6));
    }
  };
  p.reset(s, pad);
  run(14);
  // Entering again (STAND, then CTRL) starts the timeline again.
  p.reset(s, pad);
  run(7);
  // An empty timeline gives the command back to the sticks.
  p.set_command_timeline({});
  cycle(p, s, pad);
  CHECK(p.velocity_command() == std::array<double, 3>{0.5 * 1.0, 0.0, -1.0 * 1.2});

  // A file with a min: the timeline is limited to it too.
  j["command"]["min"] = {-0.25, -0.1, -0.6};
  Policy q;
  q.load(setup.write(j));
  q.set_command_timeline(praxis::policy::CommandTimeline::parse("-2,-2,-2"));
  q.reset(s, pad);
  cycle(q, s, pad);
  CHECK(q.velocity_command() == std::array<double, 3>{-0.25, -0.1, -0.6});
}

// The authors' deploy loops (legged_gym's deploy_mujoco/deploy_real, unitree_rl_lab's) advance the
// phase before the first inference: it sees one policy period.
TEST_CASE("onnx policy: the phase runs on the time since reset, one policy period at the first inference",
          "[policy][onnx_policy]") {
  Setup setup;
  auto j = deploy();
  j["observation"]["terms"] = Json::array({Json{{"name", "phase"}, {"period", 0.1}}});
  linear_model(setup.model(), 2, n, pick(0, 2, 2, n), {0, 0, 0, 0});
  Policy p;
  p.load(setup.write(j));  // loop 500 Hz, policy 50 Hz
  const auto s = standing();
  p.reset(s, {});
  for (int c = 0; c < 40; ++c) {
    cycle(p, s);
    const double t = (c - c % 10 + 10) * 0.002;  // the end of the last inference's policy step
    INFO("cycle " << c);
    CHECK(p.last_action()[0] == Approx(std::sin(2.0 * std::numbers::pi * t / 0.1)).margin(1e-6));
    CHECK(p.last_action()[1] == Approx(std::cos(2.0 * std::numbers::pi * t / 0.1)).margin(1e-6));
  }
}

#ifdef PRAXIS_COUNT_ALLOCATIONS
TEST_CASE("onnx policy: get_input and calculate allocate nothing", "[policy][onnx_policy]") {
  Setup setup;
  lstm_model(setup.model());
  auto j = deploy();
  j["policy_hz"] = 250;
  j["blend_in"] = 0.5;
  j["observation"]["history_length"] = 1;
  j["recurrent"] = Json::array(
      {Json{{"input", "h_in"}, {"output", "h_out"}}, Json{{"input", "c_in"}, {"output", "c_out"}}});
  Policy p;
  p.load(setup.write(j));
  auto s = standing();
  praxis::Gamepad pad;
  p.reset(s, pad);
  const praxis::test::AllocationScope scope;
  for (int c = 0; c < 2000; ++c) {
    s.q[9] = 0.35 + 0.001 * (c % 50);
    s.imu.gyro.x() = 0.01 * (c % 7);
    p.get_input(s, pad);
    p.calculate();
  }
  CHECK(scope.allocations() == 0);
  CHECK(p.inferences() == 1000);
}
#endif

// ---- the policy as RobotController's USER_CTRL on a mock G1 ----

struct Rig {
  using Robot = praxis::mock::MockRobot<G1>;
  using Controller = praxis::control::RobotController<Robot, Policy>;
  Robot robot;
  Controller controller;
  praxis::TimePoint now{};
  Rig() : robot(), controller(robot, quiet()) {}
  static praxis::control::ControllerOptions quiet() {
    praxis::control::ControllerOptions o;
    o.print = false;
    return o;
  }
  praxis::TimePoint at(double s) const { return praxis::TimePoint{} + praxis::from_seconds(s); }
  void run_until(double seconds) {
    while (now < at(seconds)) {
      now += 2ms;
      controller.step(now);
    }
  }
};

TEST_CASE("onnx policy: RobotController stands a mock G1 up and the policy takes it to its targets",
          "[policy][onnx_policy][story]") {
  Setup setup;
  const std::vector<float> action{0.2f, -0.3f, 0.3f, 0.4f};
  constant_model(setup.model(), action);
  auto j = deploy();
  j["blend_in"] = 0.5;
  setup.write(j);
  Rig rig;
  rig.controller.load_params(setup.dir.path());
  CHECK(rig.controller.period() == 2ms);  // dt from loop_hz
  rig.robot.hold(praxis::GamepadButton::R2, rig.at(0.1), 1s);
  rig.run_until(1.3);
  REQUIRE(rig.controller.state() == praxis::control::ControlState::stand);
  // STAND holds init_pos: the policy's default pose on its joints. The policy does not run there
  // (runs_in_stand = false): CTRL's entry resets it anyway.
  CHECK(rig.robot.last_command().command.q[9] == Approx(0.35));
  CHECK(rig.controller.user().inferences() == 0);
  rig.robot.tap(praxis::GamepadButton::A, rig.at(1.4));
  rig.run_until(1.6);
  REQUIRE(rig.controller.state() == praxis::control::ControlState::ctrl);
  CHECK(rig.controller.user().inferences() > 0);
  rig.run_until(3.5);
  REQUIRE(rig.controller.state() == praxis::control::ControlState::ctrl);
  const auto& cmd = rig.robot.last_command().command;
  for (std::size_t jj = 0; jj < N; ++jj) {
    INFO("joint " << G1::joints[jj].name);
    const auto* it = std::find(k_wire.begin(), k_wire.end(), jj);
    const auto e = static_cast<Eigen::Index>(jj);
    if (it == k_wire.end()) {
      CHECK(cmd.q[e] == Approx(G1::stand_pose[jj]));
      CHECK(rig.robot.q()[e] == Approx(G1::stand_pose[jj]).margin(1e-3));
    } else {
      const auto i = static_cast<std::size_t>(it - k_wire.begin());
      const double target = k_default[i] + 0.5 * static_cast<double>(action[i]);
      CHECK(cmd.q[e] == Approx(target));
      CHECK(cmd.kp[e] == k_kp[i]);
      CHECK(cmd.kd[e] == k_kd[i]);
      CHECK(rig.robot.q()[e] == Approx(target).margin(1e-3));
    }
  }
  // The log carries the raw actions in wire order.
  CHECK(rig.controller.user().log()[25] == Approx(0.4f));
}

// ---- the policy as a motion of a behaviour-driven MotionController ----

// The walk motion's node on a mock that does not walk by itself (MotionController needs one).
struct StillWalk {
  static constexpr std::string_view name = "still_walk";
  using outputs = praxis::ports<praxis::motion::BodyCommandPort<praxis::motion::MotionType::walk, N>,
                                praxis::motion::SafeExitPort<praxis::motion::MotionType::walk>>;
  void cycle(praxis::JointCommand<N>&, bool& safe) const { safe = true; }
};
// Steered: the behaviour's command::UserControl carries the velocity command to the policy.
using PolicyMotion = praxis::control::SteeredUserControlMotion<G1, Policy>;
using Behaviour = praxis::control::MotionController<praxis::mock::MockRobot<G1>, praxis::control::CommandInput,
                                                    StillWalk, PolicyMotion>;

TEST_CASE("onnx policy: a MotionController's behaviour runs it as its user_control motion and steers it",
          "[policy][onnx_policy][story]") {
  Setup setup;
  // Actions 0-2 are the velocity command (vx, vy, wz) the observation carries: the target shows
  // what reached the network.
  linear_model(setup.model(), K, n, pick(k_command_at, 3), {0.0f, 0.0f, 0.0f, 0.4f});
  auto j = deploy();
  j["blend_in"] = 0.2;
  j["command"] = {{"source", "behaviour"}, {"max", {0.5, 0.5, 1.0}}};
  setup.write(j);
  praxis::mock::MockRobot<G1> robot;
  robot.set_joint_positions(G1::stand_pose);
  praxis::script::ScriptLibrary<G1> library;
  praxis::control::MotionOptions options;
  options.print = false;
  Behaviour c(robot, library, options);
  c.node<PolicyMotion>().adapter.load_params(setup.dir.path());
  praxis::TimePoint now{};
  const auto run_for = [&](double seconds) {
    const auto end = now + praxis::from_seconds(seconds);
    while (now < end) {
      now += 2ms;
      c.step(now);
    }
  };
  praxis::motion::command::UserControl steer;
  steer.velocity = {0.3, 0.8};  // vy beyond the deploy file's 0.5: limited
  steer.angular_velocity = -0.2;
  c.behaviour().command = steer;
  run_for(0.1);
  // Dispatching first leads the robot to the policy's start pose (its default pose, init_pos).
  REQUIRE(c.selection().current == praxis::motion::MotionType::dispatching);
  CHECK(c.selection().dispatching_to == praxis::motion::MotionType::user_control);
  run_for(2.5);
  REQUIRE(c.selection().current == praxis::motion::MotionType::user_control);
  const auto& policy = c.node<PolicyMotion>().adapter.controller();
  CHECK(policy.velocity_command() == std::array<double, 3>{0.3, 0.5, -0.2});
  CHECK(policy.inferences() > 0);
  const std::array<double, n> action{0.3, 0.5, -0.2, 0.4};
  const auto& cmd = robot.last_command().command;
  for (std::size_t i = 0; i < n; ++i) {
    INFO("policy joint " << i);
    const auto e = static_cast<Eigen::Index>(k_wire[i]);
    const double target = k_default[i] + 0.5 * action[i];
    CHECK(cmd.q[e] == Approx(target).margin(1e-6));
    CHECK(cmd.kp[e] == k_kp[i]);
    CHECK(robot.q()[e] == Approx(target).margin(1e-3));
  }
  // Damping from the behaviour ends it: the policy's targets no longer reach the robot.
  c.behaviour().command = praxis::motion::command::Damping{};
  run_for(0.1);
  CHECK(c.selection().current == praxis::motion::MotionType::damping);
  CHECK(robot.last_command().command.kp[static_cast<Eigen::Index>(k_wire[0])] == 0.0);
}

}  // namespace onnx_policy_test
