// Simulated time per wall time (praxis_demo --backend mujoco): how much faster than real time a G1
// runs in MuJoCo with a trained policy in control, on one core.
//
// Both series are praxis-sim's plant (examples/sim/sim_robot.hpp: MujocoPlant<G1> on models/
// g1_29dof.xml, on the elastic band with its feet just touching as the demo holds it, the base trajectory at 50 Hz), read
// every 2 ms control period of simulated time:
//   - the plain physics (the baseline): the plant alone under a fixed PD hold of the stand pose;
//   - the candidate: RobotController<WithGamepad<SimRobot<G1>>, OnnxPolicy<G1>> with the example
//     policy (examples/policy/g1, the network the build generates) in CTRL, as the demo runs it.
// Interleaved batches of 250 periods (0.5 s simulated) each, the process pinned to the CPU it
// started on. A row's ns is wall time per 2 ms of simulated time; simulated seconds per wall second
// is 2 ms over it. The candidate's ratio to the baseline is what the controller and the policy add
// to the physics.

#include <sched.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "report_rows.hpp"
#include "run_options.hpp"
#include "praxis/control/robot_controller.hpp"
#include "praxis/control/with_gamepad.hpp"
#include "praxis/hardware/unitree/g1.hpp"
#include "praxis/policy/onnx_policy.hpp"
#include "sim/sim_robot.hpp"

namespace {

using namespace std::chrono_literals;
using Model = praxis::unitree::G1;
constexpr std::size_t N = Model::joint_count;
using Plant = sim::SimRobot<Model>;
using Robot = praxis::control::WithGamepad<Plant>;
constexpr praxis::Duration k_period = 2ms;
constexpr std::size_t k_per_batch = 250;

sim::SimOptions plant_options() {
  sim::SimOptions o;
  o.model = std::filesystem::path(PRAXIS_MODELS_DIR) / "g1_29dof.xml";
  o.band = sim::default_band("g1");  // feet just touching, as the demo holds it
  o.program = "bench_sim";
  return o;
}

// The CPU this process is on, and only it.
int pin_to_one_core() {
  const int cpu = sched_getcpu();
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string json_path = argc > 1 ? argv[1] : "sim.json";
  const int cpu = pin_to_one_core();
  const auto policy_dir = std::filesystem::path(PRAXIS_EXAMPLE_POLICY_DIR) / "g1";

  // The candidate: the demo's configuration, stood up (R2) and handed to the policy (A).
  Plant plant(plant_options(), praxis::TimePoint{});
  plant.press(praxis::GamepadButton::R2, praxis::TimePoint{} + 20ms);
  plant.release(praxis::GamepadButton::R2, praxis::TimePoint{} + 1s);
  plant.press(praxis::GamepadButton::A, praxis::TimePoint{} + 1200ms);
  plant.release(praxis::GamepadButton::A, praxis::TimePoint{} + 1300ms);
  Robot robot(plant);
  praxis::control::ControllerOptions options;
  options.print = false;
  praxis::control::RobotController<Robot, praxis::policy::OnnxPolicy<Model>> controller(robot, options);
  controller.load_params(policy_dir);
  if (controller.period() != k_period) {
    std::fprintf(stderr, "the example policy's loop runs at %.1f ms, not 2 ms: the rows would not compare\n",
                 praxis::to_seconds(controller.period()) * 1e3);
    return 1;
  }
  praxis::TimePoint t_policy{};
  const auto run_policy = [&](std::size_t periods) {
    for (std::size_t k = 0; k < periods; ++k) {
      t_policy += k_period;
      robot.set_gamepad(plant.gamepad());
      controller.step(t_policy);
    }
  };

  // The baseline: the same plant under a fixed hold of the stand pose, no controller.
  Plant physics(plant_options(), praxis::TimePoint{});
  praxis::JointCommand<N> hold;
  for (std::size_t j = 0; j < N; ++j) {
    const auto i = static_cast<Eigen::Index>(j);
    hold.q[i] = Model::stand_pose[j];
    hold.kp[i] = Model::default_kp[j];
    hold.kd[i] = Model::default_kd[j];
  }
  praxis::RobotState<N> state;
  praxis::TimePoint t_physics{};
  const auto run_physics = [&](std::size_t periods) {
    for (std::size_t k = 0; k < periods; ++k) {
      t_physics += k_period;
      physics.write(hold, t_physics);
      physics.read(state, t_physics);
      praxis::bench::keep(state.q[0]);
    }
  };

  // 2.5 s before timing: standing, then in CTRL with the policy's targets blended in.
  run_policy(1250);
  run_physics(1250);
  if (controller.state() != praxis::control::ControlState::ctrl) {
    std::fprintf(stderr, "the policy did not reach CTRL: the comparison would be meaningless\n");
    return 1;
  }
  const std::size_t batches = praxis::bench::scaled<std::size_t>(40, 4);  // 20 s (2 s) simulated each
  const auto [policy_ns, physics_ns] = praxis::bench::interleaved(run_policy, run_physics, batches, k_per_batch);
  (void)controller.finish();
  if (plant.plant().diverged() || physics.plant().diverged()) {
    std::fprintf(stderr, "MuJoCo diverged: the timings are of a broken simulation\n");
    return 1;
  }

  const auto base = praxis::bench::summarize(physics_ns);
  const auto cand = praxis::bench::summarize(policy_ns);
  const double period_ns = std::chrono::duration<double, std::nano>(k_period).count();
  const auto factor = [&](double ns) { return period_ns / ns; };
  const std::string title = "MuJoCo G1 (29 joints, on the band), wall ns per 2 ms simulated (RobotController + "
                            "OnnxPolicy, the example g1 policy), batches of 250 periods, " +
                            std::string(cpu >= 0 ? "pinned to CPU " + std::to_string(cpu) : "not pinned");
  const std::string base_name = "G1 physics, PD hold (baseline)";
  const std::string cand_name = "G1 physics + controller + policy";
  praxis::bench::print_table(title, {{base_name, base}, {cand_name, cand}});
  std::printf("\n  simulated seconds per wall second (p50): physics alone %.2f, with the controller and the policy %.2f; "
              "ratio %.3f (the controller and the policy cost %.0f%% of the physics)\n",
              factor(base.p50), factor(cand.p50), cand.p50 / base.p50, 100.0 * (cand.p50 / base.p50 - 1.0));
  std::printf("  %zu inferences; base height %.3f m with the policy, %.3f m on the hold\n",
              controller.user().inferences(), plant.plant().base().position.z(), physics.plant().base().position.z());

  nlohmann::json j;
  j["benchmark"] = "sim";
  j["report"] = praxis::bench::report_json({{base_name, base, "", std::nullopt}, {cand_name, cand, base_name, std::nullopt}});
  j["cpu"] = cpu;
  j["simulated_per_wall_p50"] = {{"physics", factor(base.p50)}, {"policy", factor(cand.p50)}};
  j["ratio_p50"] = cand.p50 / base.p50;
  j["inferences"] = controller.user().inferences();
  praxis::bench::write_json(json_path, j);
  return 0;
}
