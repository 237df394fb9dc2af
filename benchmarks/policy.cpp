// Trained policies (issue 26): what praxis' own ONNX inference costs, against the same arithmetic
// written by hand, and what a policy costs the control cycle.
//
// 1. Inference of a 45 -> 512 -> 256 -> 128 -> 12 ELU MLP (a legged robot's policy of the usual
//    size), per call: praxis::policy::Network on the model as an exporter writes it (Gemm with
//    transB = 1, Elu), against the same matrix-vector products and ELUs hand-written with Eigen on
//    the same weights (the baseline; goal at most 1.1x at p50). Interleaved batches, one process.
// 2. The control cycle, G1 (29 joints) on the mock, in CTRL: RobotController with OnnxPolicy (a
//    96 -> 512 -> 256 -> 128 -> 29 ELU MLP at 50 Hz in the 500 Hz loop: one cycle in ten infers)
//    against the same controller with a USER_CTRL that only holds its pose (the baseline). Every
//    cycle's step() is timed; p50 is a cycle between inferences, p99 and above one that infers.
//    Heap allocations per cycle are counted (0 is the rule).

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "allocation_counter.hpp"
#include "harness.hpp"
#include "onnx_model_builder.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/hardware/mock/mock_robot.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/policy/network.hpp"
#include "praxis/policy/onnx_policy.hpp"

namespace {

using namespace std::chrono_literals;
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;

struct Layer {
  RowMatrix w;  // out x in, as a linear layer keeps it
  Vector b;
};

// Random layers with a trained network's scale (unit-variance activations), fixed seed.
std::vector<Layer> random_mlp(const std::vector<int>& sizes, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Layer> layers;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
    std::normal_distribution<float> w(0.0F, 1.0F / std::sqrt(static_cast<float>(sizes[l])));
    std::normal_distribution<float> b(0.0F, 0.1F);
    Layer layer{RowMatrix(sizes[l + 1], sizes[l]), Vector(sizes[l + 1])};
    for (Eigen::Index i = 0; i < layer.w.size(); ++i) layer.w.data()[i] = w(rng);
    for (Eigen::Index i = 0; i < layer.b.size(); ++i) layer.b[i] = b(rng);
    layers.push_back(std::move(layer));
  }
  return layers;
}

// The MLP as exporters write it: Gemm(transB = 1) with bias, Elu between layers.
praxis::test::OnnxModelBuilder onnx_mlp(const std::vector<Layer>& layers, const std::string& in,
                                        const std::string& out) {
  praxis::test::OnnxModelBuilder m;
  m.input(in, {-1, layers.front().w.cols()});
  std::string x = in;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const auto& layer = layers[l];
    const std::string w = "w" + std::to_string(l), b = "b" + std::to_string(l);
    m.initializer(w, {layer.w.rows(), layer.w.cols()},
                  std::vector<float>(layer.w.data(), layer.w.data() + layer.w.size()));
    m.initializer(b, {layer.b.size()}, std::vector<float>(layer.b.data(), layer.b.data() + layer.b.size()));
    const bool last = l + 1 == layers.size();
    const std::string y = last ? out : "gemm" + std::to_string(l);
    m.node("Gemm", {x, w, b}, {y}).attr("transB", std::int64_t{1});
    if (!last) {
      m.node("Elu", {y}, {"elu" + std::to_string(l)}).attr("alpha", 1.0F);
      x = "elu" + std::to_string(l);
    }
  }
  m.output(out, {-1, layers.back().w.rows()});
  return m;
}

// The baseline: the same products and ELUs by hand, buffers allocated once.
class HandMlp {
 public:
  explicit HandMlp(const std::vector<Layer>& layers) : layers_(layers) {
    for (const auto& l : layers_) h_.emplace_back(l.w.rows());
    x_ = Vector::Zero(layers_.front().w.cols());
  }
  Vector& input() { return x_; }
  const Vector& output() const { return h_.back(); }
  void run() {
    const Vector* x = &x_;
    for (std::size_t l = 0; l < layers_.size(); ++l) {
      auto& h = h_[l];
      h = layers_[l].b;
      h.noalias() += layers_[l].w * *x;
      if (l + 1 < layers_.size()) {
        for (Eigen::Index i = 0; i < h.size(); ++i) h[i] = h[i] >= 0.0F ? h[i] : std::exp(h[i]) - 1.0F;
      }
      x = &h;
    }
  }

 private:
  std::vector<Layer> layers_;
  std::vector<Vector> h_;
  Vector x_;
};

using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;

// Holds the stand pose: the cycle's baseline, everything but the policy.
struct Hold {
  double dt = 0.002;
  std::array<double, N> kp = Model::default_kp;
  std::array<double, N> kd = Model::default_kd;
  std::array<double, N> init_pos = Model::stand_pose;
  std::array<double, N> jpos_des = Model::stand_pose;
  void load_params(const std::filesystem::path&) {}
  void reset(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void get_input(const praxis::RobotState<N>&, const praxis::Gamepad&) {}
  void calculate() {}
  std::array<float, 0> log() const { return {}; }
};

// The G1's deploy file for the cycle benchmark: every joint in wire order, the usual terms.
void write_deploy(const std::filesystem::path& file) {
  nlohmann::json j;
  j["policy"] = "policy.onnx";
  j["loop_hz"] = 500;
  j["policy_hz"] = 50;
  auto names = nlohmann::json::array(), pose = names;
  for (std::size_t i = 0; i < N; ++i) {
    names.push_back(std::string(Model::joints[i].name));
    pose.push_back(Model::stand_pose[i]);
  }
  j["joint_names"] = names;
  j["default_pose"] = pose;
  j["kp"] = Model::default_kp;
  j["kd"] = Model::default_kd;
  j["action"] = {{"scale", 0.25}};
  j["observation"] = {{"terms",
                       {{{"name", "base_ang_vel"}, {"scale", 0.25}},
                        {{"name", "projected_gravity"}},
                        {{"name", "velocity_command"}},
                        {{"name", "joint_pos_rel"}},
                        {{"name", "joint_vel_rel"}, {"scale", 0.05}},
                        {{"name", "last_action"}}}}};
  j["command"] = {{"source", "gamepad"}, {"max", {0.5, 0.3, 0.5}}};
  j["blend_in"] = 0.5;
  std::ofstream(file) << j.dump(2);
}

void script(praxis::mock::MockRobot<Model>& robot) {
  robot.hold(praxis::GamepadButton::R2, praxis::TimePoint{} + 20ms, 1s);
  robot.tap(praxis::GamepadButton::A, praxis::TimePoint{} + 1200ms);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "policy.json";

  // ---- 1. inference against hand-written Eigen ----
  const auto layers = random_mlp({45, 512, 256, 128, 12}, 26);
  auto builder = onnx_mlp(layers, "obs", "actions");
  auto net = praxis::policy::Network::load_bytes(builder.bytes(), "bench_mlp.onnx");
  HandMlp hand(layers);
  std::mt19937 rng(7);
  std::normal_distribution<float> obs(0.0F, 1.0F);
  auto in = net.input(0);
  for (std::size_t i = 0; i < in.size(); ++i) hand.input()[static_cast<Eigen::Index>(i)] = in[i] = obs(rng);
  net.run();
  hand.run();
  double worst = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < 12; ++i) {
    worst = std::max(worst, static_cast<double>(std::fabs(net.output(0)[i] - hand.output()[static_cast<Eigen::Index>(i)])));
    scale = std::max(scale, static_cast<double>(std::fabs(hand.output()[static_cast<Eigen::Index>(i)])));
  }
  if (!(worst <= 1e-5 * scale)) {
    std::fprintf(stderr, "praxis and the hand-written MLP disagree (%g of %g): the comparison would be meaningless\n",
                 worst, scale);
    return 1;
  }
  volatile float sink = 0.0F;
  const auto [praxis_ns, hand_ns] = praxis::bench::interleaved(
      [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
          net.run();
          sink = sink + net.output(0)[0];
        }
      },
      [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
          hand.run();
          sink = sink + hand.output()[0];
        }
      },
      praxis::bench::scaled<std::size_t>(400, 40), 50);
  const auto allocs0 = praxis::bench::allocation_count();
  for (int i = 0; i < 1000; ++i) net.run();
  const double run_allocs = static_cast<double>(praxis::bench::allocation_count() - allocs0) / 1000.0;

  // ---- 2. the control cycle ----
  const auto folder = std::filesystem::temp_directory_path() / ("praxis_bench_policy_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  write_deploy(folder / "deploy.json");
  constexpr std::size_t k_obs = 3 + 3 + 3 + 3 * N;
  onnx_mlp(random_mlp({static_cast<int>(k_obs), 512, 256, 128, static_cast<int>(N)}, 96), "obs", "actions")
      .save(folder / "policy.onnx");

  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::mock::MockRobot<Model> robot_a, robot_b;
  script(robot_a);
  script(robot_b);
  praxis::control::RobotController<praxis::mock::MockRobot<Model>, Hold> plain(robot_a, options);
  praxis::control::RobotController<praxis::mock::MockRobot<Model>, praxis::policy::OnnxPolicy<Model>> policy(robot_b,
                                                                                                            options);
  policy.load_params(folder);
  const std::size_t k_cycles = praxis::bench::scaled<std::size_t>(40'000, 4'000);
  const std::size_t k_warm = 1000;  // 2 s of robot time: standing and in CTRL before timing
  using clock = std::chrono::steady_clock;
  std::vector<double> plain_ns, policy_ns;
  plain_ns.reserve(k_cycles);
  policy_ns.reserve(k_cycles);
  std::uint64_t plain_allocs = 0, policy_allocs = 0;
  praxis::TimePoint t{};
  for (std::size_t k = 0; k < k_warm + k_cycles; ++k) {
    t += 2ms;
    const auto time = [&](auto& c, std::vector<double>& out, std::uint64_t& allocs) {
      const auto a0 = praxis::bench::allocation_count();
      const auto s = clock::now();
      c.step(t);
      const auto e = clock::now();
      if (k >= k_warm) {
        allocs += praxis::bench::allocation_count() - a0;
        out.push_back(std::chrono::duration<double, std::nano>(e - s).count());
      }
    };
    if (k % 2 == 0) {
      time(plain, plain_ns, plain_allocs);
      time(policy, policy_ns, policy_allocs);
    } else {
      time(policy, policy_ns, policy_allocs);
      time(plain, plain_ns, plain_allocs);
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  if (plain.state() != praxis::control::ControlState::ctrl || policy.state() != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "benchmark did not reach CTRL: the comparison would be meaningless\n");
    return 1;
  }
  const std::size_t inferences = policy.user().inferences();

  const auto pr = praxis::bench::summarize(praxis_ns);
  const auto hd = praxis::bench::summarize(hand_ns);
  const auto cp = praxis::bench::summarize(plain_ns);
  const auto cy = praxis::bench::summarize(policy_ns);
  praxis::bench::print_table("policy inference: 45 -> 512 -> 256 -> 128 -> 12 ELU MLP, ns per call (batches of 50)",
                             {{"hand-written Eigen, same weights (baseline)", hd},
                              {"praxis::policy::Network (ONNX, Gemm + Elu)", pr}});
  std::printf("\n  ratio praxis / hand-written: p50 %.3f, p99 %.3f (goal: at most 1.1 at p50); "
              "largest difference %.2g of the output's scale; %.3f allocations per run\n",
              pr.p50 / hd.p50, pr.p99 / hd.p99, worst / scale, run_allocs);
  praxis::bench::print_table("control cycle: G1 (29 joints) on the mock, CTRL, step() ns, " + std::to_string(k_cycles) +
                                 " cycles each, interleaved",
                             {{"holding its pose (baseline)", cp},
                              {"OnnxPolicy 96 -> 512 -> 256 -> 128 -> 29 ELU, 50 Hz in 500 Hz", cy}});
  std::printf("\n  ratio with the policy / without: p50 %.3f (a cycle between inferences), p99 %.3f, mean %.3f; "
              "%zu inferences since CTRL began\n",
              cy.p50 / cp.p50, cy.p99 / cp.p99, cy.mean / cp.mean, inferences);
  std::printf("  allocations per cycle: without %.3f, with the policy %.3f\n",
              static_cast<double>(plain_allocs) / static_cast<double>(k_cycles),
              static_cast<double>(policy_allocs) / static_cast<double>(k_cycles));

  const double k = static_cast<double>(k_cycles);
  const std::vector<praxis::bench::ReportRow> report{
      {"MLP 45-512-256-128-12 ELU, hand-written Eigen (baseline)", hd, "", 0.0},
      {"MLP 45-512-256-128-12 ELU, praxis::policy::Network", pr, "MLP 45-512-256-128-12 ELU, hand-written Eigen (baseline)",
       run_allocs},
      {"G1 cycle holding its pose (baseline)", cp, "", plain_allocs / k},
      {"G1 cycle with OnnxPolicy at 50 Hz in 500 Hz", cy, "G1 cycle holding its pose (baseline)", policy_allocs / k},
  };
  nlohmann::json j;
  j["benchmark"] = "policy";
  j["report"] = praxis::bench::report_json(report);
  j["inference_ratio_p50"] = pr.p50 / hd.p50;
  j["cycle_ratio_p50"] = cy.p50 / cp.p50;
  j["cycle_ratio_p99"] = cy.p99 / cp.p99;
  j["inferences"] = inferences;
  praxis::bench::write_json(json_path, j);
  return 0;
}
